// Package tsfgen generates random TRCUST runs from a seed: Trace Source Files
// over the whole TSF language (every header keyword in any order and case,
// every kind of comment, TYPELIST and GROUPLIST, TRACE statements with every
// field, address form, flag and FMT control, strings with every edge), faulty
// variants of each, the command-line switches (/M= /P /I /D /Wn, a TDF name,
// /L= /NODE /NOLN /RMn /RSnnn /RP, and the mistakes TRCUST reports: a switch
// it does not know, a malformed one, an extra file argument, a MAP file that
// is not there), the run without arguments, and /C= combine runs over TFF
// files. It is a test helper: the differential
// harness (cmd/trcust, TestOracleDiff) runs each case through IBM's TRCUST
// 3.05A and through trcust and compares every byte.
//
// Dynamic tracepoints name symbols of the oracle's emitrep.dll (the osFree
// module the TRCUST oracle uses, with its MAP file): a case with Emitrep set
// needs emitrep.dll and emitrep.map in its working directory. Now and then
// a case brings an emitrep.map of its own, which then replaces the real
// one (mapfile.go: the symbols placed anywhere, and the lines TRCUST reads
// in its own way), or the module is another LX program of the corpus
// (2ine's, Case.Module) under emitrep.dll's name, with a MAP file made for
// its objects, and a TSF is spoilt as files get spoilt (edits: cut
// short, a Ctrl-Z, a NUL, a lone CR), and addresses are written in every
// way TRCUST reads them (terms in any order, signs in a row, breaks).
//
// The same seed gives the same case on every machine and Go version: the
// generator draws from math/rand/v2's PCG, whose sequence is specified. The
// switches added last (switches.go) draw from a second PCG of the seed, so
// that adding them left the TSF of every seed as it was.
package tsfgen

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/tracekit/tracekit/binfmt/tff"
)

// Case is one generated TRCUST run.
type Case struct {
	Seed int64
	// TSF names the source file in Files that the run compiles, "" for a
	// combine run. Its lines are what a minimiser takes away.
	TSF string
	// Files are the inputs to put into the working directory, by name.
	Files map[string][]byte
	// Emitrep says the run needs emitrep.dll and emitrep.map beside the
	// inputs.
	Emitrep bool
	// Module, when not "", names the LX module of ../shared/corpus/os2/lx
	// that the run uses as emitrep.dll in place of osFree's; Files then
	// hold an emitrep.map generated for its objects (mapFile).
	Module string
	// Args is TRCUST's command line (without the program name).
	Args []string
	// Features name what the case exercises (sorted, unique), for a
	// summary by feature.
	Features []string
}

// Faulty reports whether the case was built with a deliberate fault.
func (c *Case) Faulty() bool {
	for _, f := range c.Features {
		if strings.HasPrefix(f, "fault:") {
			return true
		}
	}
	return false
}

// Generate makes the case of seed.
func Generate(seed int64) *Case {
	g := &gen{
		r:     rand.New(rand.NewPCG(uint64(seed), 0x7472637573740a)),
		sw:    rand.New(rand.NewPCG(uint64(seed), 0x2f524d2f52532f4c)),
		tpr:   rand.New(rand.NewPCG(uint64(seed), 0x54503d2e6f666673)),
		mp:    rand.New(rand.NewPCG(uint64(seed), 0x2e4d4150204c696e)),
		ed:    rand.New(rand.NewPCG(uint64(seed), 0x5e5a2043522045)),
		ad:    rand.New(rand.NewPCG(uint64(seed), 0x2b2d28692920)),
		mod:   rand.New(rand.NewPCG(uint64(seed), 0x32696e652e657865)),
		feats: map[string]bool{},
		c:     &Case{Seed: seed, Files: map[string][]byte{}},
	}
	if g.sw.Float64() < 0.004 {
		// TRCUST without arguments: its usage screen.
		g.feat("usage")
		g.c.Features = []string{"usage"}
		return g.c
	}
	if g.p(0.1) {
		g.combine()
	} else {
		g.compile()
	}
	for f := range g.feats {
		g.c.Features = append(g.c.Features, f)
	}
	sort.Strings(g.c.Features)
	return g.c
}

// gen holds the state of one case being generated.
type gen struct {
	r     *rand.Rand
	sw    *rand.Rand // the switches of switches.go
	tpr   *rand.Rand // the TP forms added later (offsetsTP), apart so that the other draws stay
	mp    *rand.Rand // the MAP files and RETEP forms added last (mapfile.go), apart too
	ed    *rand.Rand // the odd bytes and early ends of edits, apart too
	ad    *rand.Rand // the address terms as TRCUST reads them (addrTerms), apart too
	mod   *rand.Rand // the module other than emitrep.dll (Case.Module), apart too
	feats map[string]bool
	c     *Case

	faults map[string]bool // faults chosen for this case, not yet placed

	nl       string // line end: CRLF or LF
	dynamic  bool   // the case has dynamic tracepoints (MODNAME, emitrep)
	caseless bool   // /I given
	mapGiven bool   // /M= given
	types    []string
	groups   []string
	minors   bool // the first TRACE has MINOR
	lines    []string
}

func (g *gen) p(prob float64) bool { return g.r.Float64() < prob }

// adP draws from g.ad, the stream of the forms TRCUST reads that the
// reference does not show (addrTerms).
func (g *gen) adP(prob float64) bool { return g.ad.Float64() < prob }
func (g *gen) n(k int) int           { return g.r.IntN(k) }
func (g *gen) feat(f string)         { g.feats[f] = true }

func pick[T any](g *gen, xs ...T) T { return pickFrom(g.r, xs...) }

// fault reports whether the fault kind is to be placed here: when it was
// chosen for the case, with probability p at each site that asks (so the
// fault lands at a random one of them), once.
func (g *gen) fault(kind string, p float64) bool {
	if !g.faults[kind] || !g.p(p) {
		return false
	}
	delete(g.faults, kind)
	g.feat("fault:" + kind)
	return true
}

// faultKinds are the faults the compile generator can place.
var faultKinds = []string{
	"major-bad", "major-range", "major-twice", "major-missing", "maxdata-range", "tdfid-range",
	"tdfid-twice", "maxdata-twice", "modname-missing", "modname-twice", "modname-nofile",
	"typelist-id", "typelist-dupname", "typelist-dupid", "typelist-noname", "typelist-twice",
	"typelist-long", "typelist-many", "grouplist-id", "grouplist-dupid",
	"minor-bad", "minor-range", "minor-dup", "minor-missing", "minor-extra", "minor-twice",
	"tp-missing", "tp-twice", "tp-unknown", "tp-line", "tp-case", "tp-garbage",
	"opcode-range", "opcode-mismatch", "opcode-twice", "opcode-bad",
	"type-unknown", "group-unknown", "type-noparen",
	"desc-missing", "desc-twice", "string-newline", "string-eof", "string-long", "string-nul",
	"regs-bad", "addr-flatmem", "addr-segmem32", "addr-word", "flag-bad", "flag-isif-len",
	"len-alone", "len-nolen", "number-bad", "keyword-unknown", "garbage-char", "comma-missing",
	"comma-trailing", "data-static", "data-before-tp", "comment-unclosed", "rpn-long",
	"stack-long", "retep-data", "two-indirect", "indirect-direct-disp",
	"header-after-trace", "stray-string", "high-byte", "map-missing-arg", "tp-dup-address",
	"token-long",
}

// compile makes a "TRCUST tsf [tdf] [switches]" run.
func (g *gen) compile() {
	g.feat("compile")
	g.nl = "\r\n"
	if g.p(0.2) {
		g.nl = "\n"
		g.feat("lf")
	}
	g.faults = map[string]bool{}
	if g.p(0.45) {
		for k := 1 + g.n(2); k > 0; k-- {
			g.faults[pick(g, faultKinds...)] = true
		}
	}
	g.dynamic = g.p(0.7)
	if g.dynamic {
		g.feat("dynamic")
		g.c.Emitrep = true
		g.caseless = g.p(0.1)
	} else {
		g.feat("static")
	}

	name := pick(g, "t.tsf", "T.TSF", "prog.tsf", "a1.tsf")
	g.c.TSF = name
	args := []string{name}
	if g.p(0.05) {
		args[0] = strings.TrimSuffix(strings.TrimSuffix(name, ".tsf"), ".TSF")
		g.feat("arg:tsf-noext")
	}
	// Now and then the TSF in a folder, named with a backslash or a /
	// (TRCUST's folder is the backslash's alone: the TDF and the TFF go
	// by it).
	dir := ""
	if g.p(0.04) {
		dir = pick(g, "sub", "Src", "a.b")
		g.c.TSF = dir + "/" + name
		args[0] = dir + pick(g, `\`, "/") + args[0]
		g.feat("path-tsf")
	}
	if g.p(0.1) {
		tdf := pick(g, "out.tdf", "OUT.TDF", "out", "Other.Tdf")
		if dir != "" && g.p(0.6) {
			tdf = dir + pick(g, `\`, `\`, "/") + pick(g, tdf, "")
			g.feat("path-tdf")
		}
		args = append(args, tdf)
		g.feat("arg:tdfname")
	}
	if g.dynamic {
		g.mapGiven = true
		if g.fault("map-missing-arg", 1) {
			g.mapGiven = false
		} else {
			args = append(args, pick(g, "/M=emitrep.map", "/m=emitrep.map", "/M=EMITREP.MAP", "-M=emitrep.map"))
		}
	} else if g.p(0.05) {
		args = append(args, "/M=emitrep.map")
		g.c.Emitrep = true
	}
	if g.p(0.15) {
		args = append(args, pick(g, "/P", "/p"))
		g.feat("arg:P")
	}
	if g.caseless {
		args = append(args, pick(g, "/I", "/i"))
		g.feat("arg:I")
	}
	if g.p(0.1) {
		args = append(args, pick(g, "/D", "/d"))
		g.feat("arg:D")
	}
	if g.p(0.15) {
		args = append(args, pick(g, "/W0", "/W1", "/W2", "/w1"))
		g.feat("arg:W")
	}
	// The switches in any order after the TSF name.
	rest := args[1:]
	g.r.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	g.c.Args = g.switches(args)

	g.header()
	nTrace := 1 + g.n(5)
	if g.p(0.1) {
		nTrace += 4 + g.n(8)
		g.feat("many-traces")
	}
	g.minors = g.p(0.8) && !g.faults["minor-extra"]
	minor := 1 + g.n(5)
	if g.p(0.1) {
		minor = pick(g, 0xFFFF-nTrace, 0x8000, 255, 256)
		g.feat("minor-edge")
	}
	if g.minors {
		g.feat("minor")
	} else {
		g.feat("minor-auto")
	}
	used := []int{}
	for i := 0; i < nTrace; i++ {
		g.comment()
		g.trace(i, &minor, &used)
	}
	g.comment()
	if g.fault("comment-unclosed", 1) {
		g.lines = append(g.lines, "/* never closed"+pick(g, "", g.nl+"TRACE MINOR=99, TP=@STATIC, DESC=\"lost\""))
	}
	text := strings.Join(g.lines, g.nl)
	if g.p(0.8) {
		text += g.nl
	}
	if g.p(0.03) {
		text += "\x1a"
		g.feat("ctrl-z")
	}
	g.c.Files[g.c.TSF] = g.edits([]byte(text))
	switch {
	case g.dynamic && g.mapGiven && g.mod.Float64() < 0.25:
		// Another module's code and data, under emitrep.dll's name and
		// with a MAP file of its objects.
		m := pickFrom(g.mod, otherModules...)
		g.c.Module = m.file
		g.c.Files["emitrep.map"] = g.mapFile(m)
		g.feat("module-" + m.name)
	case g.dynamic && g.mapGiven && g.mp.Float64() < 0.15:
		g.c.Files["emitrep.map"] = g.mapFile(emitrep)
		g.feat("map-synthetic")
	}
}

// kw writes a keyword in a random case.
func (g *gen) kw(s string) string {
	switch g.n(10) {
	case 0, 1:
		g.feat("keyword-lower")
		return strings.ToLower(s)
	case 2:
		g.feat("keyword-mixed")
		b := []byte(s)
		for i := range b {
			if g.p(0.5) {
				b[i] = bytes.ToLower(b[i : i+1])[0]
			}
		}
		return string(b)
	}
	return s
}

// eq is an equals sign with random spacing.
func (g *gen) eq() string { return pick(g, "=", "=", "=", " = ", "= ", " =", "\t=\t") }

// num writes v in decimal or hex.
func (g *gen) num(v int) string {
	if g.p(0.5) {
		return fmt.Sprintf(pick(g, "0x%X", "0x%x", "0X%X"), v)
	}
	return fmt.Sprint(v)
}

// offsetsTP returns offsets for TP=.name as TRCUST 3.05A reads them: one
// or more, each after a run of signs (the last counts), now and then a
// sign with no number at the end.
func (g *gen) offsetsTP() string {
	signs := []string{"+", "-", "+-", "-+", "--", "++", " + ", " - "}
	var b strings.Builder
	for range 1 + g.tpr.IntN(3) {
		b.WriteString(signs[g.tpr.IntN(len(signs))])
		v := []int{1, 2, 4, 0x10, 0x20}[g.tpr.IntN(5)]
		if g.tpr.IntN(2) == 0 {
			fmt.Fprintf(&b, "0x%X", v)
		} else {
			fmt.Fprint(&b, v)
		}
	}
	if g.tpr.IntN(6) == 0 {
		b.WriteString(signs[g.tpr.IntN(2)])
	}
	return b.String()
}

// badNum is something that is not a number.
func (g *gen) badNum() string {
	return pick(g, "0xZZ", "12ab", "abc", "0x", "99999999999", "0x1FFFFFFFF", "-5", "1.5")
}

// comment adds a comment line, sometimes.
func (g *gen) comment() {
	if !g.p(0.25) {
		return
	}
	g.feat("comment")
	switch g.n(6) {
	case 0:
		g.lines = append(g.lines, "; a line comment")
		g.feat("comment-semicolon")
	case 1:
		g.lines = append(g.lines, "/* a C comment */")
	case 2:
		g.lines = append(g.lines, "/* a comment", "   over lines */")
		g.feat("comment-multiline")
	case 3:
		g.lines = append(g.lines, "/* outer /* nested */ still comment */")
		g.feat("comment-nested")
	case 4:
		g.lines = append(g.lines, "")
	default:
		g.lines = append(g.lines, "   /* indented */ ; and more")
	}
}

// tail is what ends a line: nothing, or a comment.
func (g *gen) tail() string {
	if !g.p(0.1) {
		return ""
	}
	g.feat("comment-trailing")
	return pick(g, " ; trailing", " /* trailing */", "\t/* x /* y */ z */")
}

// header writes the header statements and the lists in random order.
func (g *gen) header() {
	var items [][]string
	major := pick(g, 0x30, 0x42, 1, 0xDC, 255)
	if g.p(0.1) {
		major = pick(g, 256, 0x1388, 0xFFFF, 0x7FFF)
		g.feat("major-edge")
	}
	majorVal := g.num(major)
	if g.fault("major-bad", 1) {
		majorVal = g.badNum()
	} else if g.fault("major-range", 1) {
		majorVal = g.num(pick(g, 0, 0x10000, 0x12345))
	}
	if !g.fault("major-missing", 1) {
		items = append(items, []string{g.kw("MAJOR") + g.eq() + majorVal + g.tail()})
	}
	if g.fault("major-twice", 1) {
		items = append(items, []string{g.kw("MAJOR") + g.eq() + g.num(major+1)})
	}
	if g.dynamic && !g.fault("modname-missing", 1) || !g.dynamic && g.p(0.6) {
		mod := pick(g, "emitrep.dll", "emitrep.dll", "EMITREP.DLL", "Emitrep.Dll")
		if g.dynamic && g.p(0.1) {
			mod = pick(g, "emitrep", `.\emitrep.dll`, "EMITREP")
			g.feat("modname-form")
		}
		if !g.dynamic {
			mod = pick(g, "probe.exe", "X.DLL", "emitrep.dll")
		}
		if g.fault("modname-nofile", 1) {
			mod = "nosuch.dll"
		}
		items = append(items, []string{g.kw("MODNAME") + g.eq() + mod + g.tail()})
		if g.fault("modname-twice", 1) {
			items = append(items, []string{g.kw("MODNAME") + g.eq() + mod})
		}
	}
	if g.p(0.2) || g.faults["maxdata-range"] || g.faults["maxdata-twice"] {
		g.feat("maxdatalength")
		v := g.num(pick(g, 20, 100, 512, 1000, 4099, 64))
		if g.fault("maxdata-range", 1) {
			v = g.num(pick(g, 0, 19, 4100, 0x10000))
		}
		k := pick(g, "MAXDATALENGTH", "MAXDATALEN")
		items = append(items, []string{g.kw(k) + g.eq() + v})
		if g.fault("maxdata-twice", 1) {
			items = append(items, []string{g.kw(k) + g.eq() + "100"})
		}
	}
	if g.p(0.15) || g.faults["tdfid-range"] || g.faults["tdfid-twice"] {
		g.feat("tdfid")
		v := g.num(pick(g, 0, 5, 0xFFFF, 0x1234))
		if g.fault("tdfid-range", 1) {
			v = g.num(pick(g, 0x10000, 0x123456))
		}
		items = append(items, []string{g.kw("TDFID") + g.eq() + v})
		if g.fault("tdfid-twice", 1) {
			items = append(items, []string{g.kw("TDFID") + g.eq() + "7"})
		}
	}
	if g.p(0.3) || g.faults["typelist-id"] || g.faults["typelist-dupname"] || g.faults["typelist-dupid"] ||
		g.faults["typelist-noname"] || g.faults["typelist-twice"] || g.faults["typelist-long"] || g.faults["typelist-many"] {
		items = append(items, g.list("TYPELIST"))
		if g.fault("typelist-twice", 1) {
			items = append(items, []string{g.kw("TYPELIST") + " NAME=AGAIN, ID=0x4000"})
		}
	}
	if g.p(0.3) || g.faults["grouplist-id"] || g.faults["grouplist-dupid"] {
		items = append(items, g.list("GROUPLIST"))
	}
	g.r.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
	if g.p(0.1) {
		g.lines = append(g.lines, "; generated TSF")
	}
	for _, it := range items {
		g.comment()
		g.lines = append(g.lines, it...)
	}
}

var typeNames = []string{"PRE", "POST", "API", "SYS", "ERR", "Info", "dbg", "VERYLONGNAME", "T_1", "A$B"}
var groupNames = []string{"DOS", "FS", "MEM", "NET", "grp", "Kernel", "G_2", "LONGGROUPNAME"}

// list writes a TYPELIST or GROUPLIST.
func (g *gen) list(kind string) []string {
	g.feat(strings.ToLower(kind))
	isType := kind == "TYPELIST"
	pool := groupNames
	if isType {
		pool = typeNames
	}
	n := 1 + g.n(4)
	if isType && g.fault("typelist-many", 1) {
		n = 17 + g.n(3)
	}
	perm := g.r.Perm(len(pool))
	var out []string
	usedIDs := map[int]bool{}
	var names []string
	for i := 0; i < n; i++ {
		var name string
		if i < len(perm) {
			name = pool[perm[i]]
		} else {
			name = fmt.Sprintf("N%d", i)
		}
		if len(name) > 8 {
			if !(isType && g.fault("typelist-long", 1)) && g.p(0.7) {
				name = name[:6]
			} else {
				g.feat("list-longname")
			}
		}
		var id int
		for try := 0; try < 50; try++ {
			if isType {
				id = 1 << g.n(16)
			} else {
				id = 1 + g.n(pick(g, 10, 300, 65535))
			}
			if !usedIDs[id] {
				break
			}
		}
		usedIDs[id] = true
		if isType && g.fault("typelist-id", 0.4) {
			id = pick(g, 3, 0, 0x10000, 6)
		}
		if !isType && g.fault("grouplist-id", 0.4) {
			id = pick(g, 0, 0x10000)
		}
		if i > 0 && (isType && g.fault("typelist-dupid", 0.5) || !isType && g.fault("grouplist-dupid", 0.5)) {
			for k := range usedIDs {
				id = k
				break
			}
		}
		if i > 0 && isType && g.fault("typelist-dupname", 0.5) {
			name = strings.ToLower(names[0])
		}
		names = append(names, name)
		nameKw, idKw := g.kw("NAME"), g.kw("ID")
		if isType && g.fault("typelist-noname", 0.4) {
			nameKw = pick(g, "NAM", "ID")
		}
		nameEq, idEq := g.eq(), g.eq()
		if g.p(0.04) {
			// TRCUST 3.05A assumes the '=' a NAME or ID lacks (warning
			// 133, at the line of the token after the keyword).
			nameEq = pick(g, " ", "\n  ")
			g.feat("list-eq-missing")
		}
		if g.p(0.04) {
			idEq = pick(g, " ", "\n  ")
			g.feat("list-eq-missing")
		}
		entry := nameKw + nameEq + name + pick(g, ",", ", ", " , ") + idKw + idEq + g.num(id)
		if i == 0 {
			entry = g.kw(kind) + pick(g, " ", "  ", "\t") + entry
		} else {
			entry = pick(g, "  ", "\t", "         ") + entry
		}
		if i < n-1 {
			entry += ","
		} else if g.p(0.05) {
			entry += ","
			g.feat("list-trailing-comma")
		}
		out = append(out, entry+g.tail())
	}
	if g.p(0.2) && len(out) > 1 {
		// Entries run on one line.
		out = []string{strings.Join(out, " ")}
	}
	if isType {
		g.types = names
	} else {
		g.groups = names
	}
	return out
}

var codeSyms = []string{"emit", "malloc", "free", "exit", "fclose", "fflush", "getenv", "strspn",
	"wcstombs", "ReportEmitterNewClass", "DosGetMessage", "Dos32GetMessage", "DOSGETMESSAGE", "sig32"}
var dataSyms = []string{"errno", "stderr", "stdin", "stdout", "ReportEmitterClassData", "ReportEmitterCClassData"}

// sym picks a symbol of emitrep, in the case of the MAP file or, under /I,
// sometimes another.
func (g *gen) sym(pool []string) string {
	s := pick(g, pool...)
	if g.caseless && g.p(0.4) {
		g.feat("symbol-case")
		s = strings.ToUpper(s)
	}
	return s
}

// field is one TRACE field: its text and whether it makes RPN code.
type field struct {
	text string
	data bool
}

// trace writes one TRACE statement.
func (g *gen) trace(i int, minor *int, used *[]int) {
	g.feat("trace")
	static := !g.dynamic || g.p(0.15)
	if g.dynamic && static {
		g.feat("mixed-static")
	}
	var fields []field
	add := func(s string) { fields = append(fields, field{text: s}) }

	// MINOR
	if g.minors && !g.fault("minor-missing", 0.5) || !g.minors && g.fault("minor-extra", 0.5) {
		v := g.num(*minor)
		if g.fault("minor-dup", 0.5) && len(*used) > 0 {
			v = g.num((*used)[g.n(len(*used))])
		} else if g.fault("minor-range", 0.5) {
			v = g.num(pick(g, 0, 0x10000, 70000))
		} else if g.fault("minor-bad", 0.5) {
			v = pick(g, "abc", ".sym", "0xQ", "")
		}
		add(g.kw("MINOR") + g.eq() + v)
		if g.fault("minor-twice", 0.5) {
			add(g.kw("MINOR") + g.eq() + g.num(*minor+100))
		}
	}
	*used = append(*used, *minor)
	*minor += 1 + g.n(3)

	// TP
	tp := ""
	var tpSym string
	if static {
		tp = "@" + pick(g, "STATIC", "STATIC", "static", "Static")
	} else {
		tpSym = g.sym(codeSyms)
		tp = "." + tpSym
		switch g.n(8) {
		case 0:
			tp += "+" + g.num(pick(g, 1, 3, 4, 0x10, 0x307))
			g.feat("tp-offset")
		case 1:
			tp += "-" + g.num(pick(g, 1, 4, 2))
			g.feat("tp-offset-neg")
		case 2:
			tp += pick(g, ",RETEP", ",retep", ", RETEP")
			g.feat("retep")
		case 4, 5:
			// Drawn from tpr, so that a case without them is what it
			// was before they were added.
			if g.tpr.IntN(2) == 0 {
				tp += g.offsetsTP()
				g.feat("tp-offsets")
				if g.tpr.IntN(3) == 0 {
					tp += ",RETEP"
					g.feat("retep-offset")
				}
			}
		case 3:
			if g.p(0.3) {
				tp = "." + g.sym(dataSyms)
				g.feat("tp-data")
				if g.fault("retep-data", 1) {
					tp += ",RETEP"
				}
			}
		}
		if g.fault("tp-unknown", 0.5) {
			tp = "." + pick(g, "nosuch", "_emit", "Emit2")
			if g.mp.IntN(3) == 0 {
				// Drawn from mp (see tpr).
				tp += pickFrom(g.mp, ",RETEP", "+4, RETEP", "+1x, RETEP")
				g.feat("retep-unknown")
			}
		} else if g.fault("tp-line", 0.5) {
			tp = "@" + pick(g, "emit.c,10", "emit.c", "x.c,0")
		} else if !g.caseless && g.fault("tp-case", 0.5) {
			tp = "." + strings.ToUpper(tpSym)
		} else if g.fault("tp-garbage", 0.5) {
			tp = pick(g, "emit", ".emit+", ".emit+abc", "@", ".")
		}
	}
	tpField := field{text: g.kw("TP") + g.eq() + tp}
	if g.fault("tp-dup-address", 0.3) {
		tpField.text = g.kw("TP") + g.eq() + ".emit"
	}

	// The other fields.
	var rest []field
	if !static && tpSym == "emit" && g.p(0.15) || g.faults["opcode-range"] || g.faults["opcode-mismatch"] || g.faults["opcode-bad"] {
		g.feat("opcode")
		v := "0x55"
		if strings.Contains(tp, "+") || strings.Contains(tp, "-") || strings.Contains(tp, "RETEP") || tpSym != "emit" {
			v = g.num(pick(g, 0x55, 0x8B, 0xC9, 0x90, 0x53))
		}
		if g.fault("opcode-range", 0.5) {
			v = g.num(pick(g, 0x100, 0x1234))
		} else if g.fault("opcode-mismatch", 0.5) {
			v = "0x90"
		} else if g.fault("opcode-bad", 0.5) {
			v = g.badNum()
		}
		if g.adP(0.1) && v != "" && v[0] >= '0' && v[0] <= '9' {
			v = "+" + v // TRCUST takes the sign
			g.feat("fields-as-read")
		}
		rest = append(rest, field{text: g.kw("OPCODE") + g.eq() + v})
		if g.fault("opcode-twice", 0.5) {
			rest = append(rest, field{text: g.kw("OPCODE") + g.eq() + v})
		}
	}
	if len(g.types) > 0 && g.p(0.5) || g.faults["type-unknown"] || g.faults["type-noparen"] {
		g.feat("type")
		k := 1 + g.n(3)
		var ts []string
		for j := 0; j < k; j++ {
			if len(g.types) > 0 {
				t := pick(g, g.types...)
				if g.p(0.2) {
					t = strings.ToLower(t)
					g.feat("type-case")
				}
				ts = append(ts, t)
			}
		}
		if g.fault("type-unknown", 0.5) || len(ts) == 0 {
			ts = append(ts, pick(g, "NOSUCH", "MEM", "REGS", "x"))
			g.feat("type-unknown-name")
		}
		text := g.kw("TYPE") + g.eq() + "(" + strings.Join(ts, pick(g, ",", ", ")) + ")"
		switch {
		case g.adP(0.1):
			// Names without their commas, as TRCUST reads them.
			text = g.kw("TYPE") + g.eq() + "(" + strings.Join(ts, " ") + pickFrom(g.ad, ")", ",)")
			g.feat("fields-as-read")
		case g.adP(0.03):
			text = g.kw("TYPE") + g.eq() + "()"
			g.feat("fields-as-read")
		case g.adP(0.03):
			text = g.kw("TYPE") + g.eq() + pickFrom(g.ad, "(,", "(5", "(.x") + strings.Join(ts, ",") + ")"
			g.feat("fault:fields-as-read")
		case g.adP(0.03):
			// Names judged before a break in the list.
			text = g.kw("TYPE") + g.eq() + "(" + strings.Join(ts, ",") + pickFrom(g.ad, ",V 5)", " 5)", ",,V)", ", D)")
			g.feat("fault:list-as-read")
		}
		if g.fault("type-noparen", 0.5) {
			text = g.kw("TYPE") + g.eq() + ts[0]
		}
		rest = append(rest, field{text: text})
	}
	if len(g.groups) > 0 && g.p(0.5) || g.faults["group-unknown"] {
		g.feat("group")
		gr := "NOSUCH"
		if len(g.groups) > 0 && !g.fault("group-unknown", 0.5) {
			gr = pick(g, g.groups...)
		}
		rest = append(rest, field{text: g.kw("GROUP") + g.eq() + gr})
	}
	hasFMT := g.p(0.6)
	if !g.fault("desc-missing", 0.5) {
		desc := g.str(false)
		if g.adP(0.02) {
			// A word touching the string: one literal of both.
			desc = pickFrom(g.ad, "x", ".y", "5", "%") + desc
			g.feat("fields-as-read")
		}
		rest = append(rest, field{text: g.kw("DESC") + g.eq() + desc})
		if g.fault("desc-twice", 0.5) {
			rest = append(rest, field{text: g.kw("DESC") + g.eq() + g.str(false)})
		}
	} else {
		hasFMT = true
	}
	if hasFMT {
		for k := 1 + g.n(3); k > 0; k-- {
			rest = append(rest, field{text: g.kw("FMT") + g.eq() + g.str(true)})
		}
		g.feat("fmt")
	}

	// Data statements.
	if !static || g.fault("data-static", 0.6) {
		for k := g.n(4); k > 0; k-- {
			for _, f := range g.dataStmt() {
				rest = append(rest, field{text: f, data: true})
			}
		}
		if g.p(0.06) {
			rest = append(rest, field{text: pick(g, "ABORTOP", "abortop"), data: true})
			g.feat("abortop")
		}
		if g.p(0.06) {
			rest = append(rest, field{text: pick(g, "REMOVEOP", "RemoveOp"), data: true})
			g.feat("removeop")
		}
		if g.p(0.03) {
			comma := ","
			if g.adP(0.15) {
				comma = " " // ORBIT=(1 2) is ORBIT=(1,2)
				g.feat("fields-as-read")
			}
			rest = append(rest, field{text: fmt.Sprintf("ORBIT=(%s%s%s)", g.num(g.n(5)), comma, g.num(g.n(5))), data: true})
			g.feat("orbit")
		}
		if g.fault("rpn-long", 0.5) {
			for k := 0; k < 12; k++ {
				rest = append(rest, field{text: "MEM32=(.errno+1+2+3,INDIRECT*+1*+2*+3,4)", data: true})
			}
		}
		if g.fault("stack-long", 0.5) {
			rest = append(rest, field{text: "REGS=(AX,BX,CX,DX,SI,DI,BP,SP,DS,ES,SS,CS,AX,BX,CX,DX,SI)", data: true})
		}
	}
	if g.fault("keyword-unknown", 0.3) {
		rest = append(rest, field{text: pick(g, "FOO=1", "BAR", "LENGTH=4", "DATA=(1,2)")})
	}
	if g.fault("header-after-trace", 0.3) {
		rest = append(rest, field{text: pick(g, "MAJOR=5", "MODNAME=x.dll", "TDFID=3")})
	}
	if g.fault("stray-string", 0.3) {
		rest = append(rest, field{text: `"stray"`})
	}
	if g.fault("garbage-char", 0.3) {
		rest = append(rest, field{text: pick(g, "#", "!", "{x}", "&&", "?")})
	}
	if g.fault("high-byte", 0.3) {
		rest = append(rest, field{text: pick(g, "\xe9", "\xff\xfe", "MINOR\xa0=3")})
	}
	if g.fault("token-long", 0.3) {
		rest = append(rest, field{text: "FOO" + strings.Repeat("x", 250+g.n(20))})
	}

	// Order: TP first mostly; otherwise anywhere (data before TP is a fault).
	g.r.Shuffle(len(rest), func(a, b int) {
		// Keep data statements in their order (LEN before its MEM) by
		// shuffling only the non-data fields among themselves.
		if rest[a].data || rest[b].data {
			return
		}
		rest[a], rest[b] = rest[b], rest[a]
	})
	all := append([]field{}, fields...) // MINOR
	tpMissing := g.fault("tp-missing", 0.5)
	if !tpMissing {
		if g.fault("data-before-tp", 0.5) && len(rest) > 0 {
			j := len(rest) - 1
			for j > 0 && !rest[j].data {
				j--
			}
			rest = append(rest[:j+1], append([]field{tpField}, rest[j+1:]...)...)
		} else if g.p(0.15) {
			// TP after some non-data fields.
			j := 0
			for j < len(rest) && !rest[j].data && g.p(0.5) {
				j++
			}
			rest = append(rest[:j], append([]field{tpField}, rest[j:]...)...)
			g.feat("tp-not-first")
		} else {
			rest = append([]field{tpField}, rest...)
		}
	}
	if g.fault("tp-twice", 0.5) {
		rest = append(rest, tpField)
	}
	if g.p(0.15) && len(all) == 1 && len(rest) > 0 {
		// MINOR after TP.
		all = nil
		rest = append(rest[:1], append(fields, rest[1:]...)...)
		g.feat("minor-not-first")
	}
	all = append(all, rest...)

	// Layout: fields over lines, with commas.
	line := g.kw("TRACE") + pick(g, " ", "  ", "\t", " ")
	if g.p(0.1) {
		g.lines = append(g.lines, g.kw("TRACE"))
		line = pick(g, "  ", "\t")
	}
	perLine := pick(g, 1, 1, 2, 3, 99)
	onLine := 0
	for j, f := range all {
		line += f.text
		onLine++
		last := j == len(all)-1
		sep := ","
		if !last && g.fault("comma-missing", 0.3) {
			sep = ""
		}
		if last {
			sep = ""
			if g.fault("comma-trailing", 0.5) {
				sep = ","
			}
		}
		if !last && onLine >= perLine {
			g.lines = append(g.lines, line+sep+g.tail())
			line = pick(g, "  ", "        ", "\t")
			onLine = 0
			continue
		}
		if sep != "" || !last {
			line += sep + pick(g, " ", "", " ")
		}
	}
	g.lines = append(g.lines, strings.TrimRight(line, " ")+g.tail())
	if g.fault("string-eof", 0.2) {
		g.lines = append(g.lines, `TRACE MINOR=500, TP=@STATIC, DESC="never closed`)
	}
}

var regs32 = []string{"EAX", "EBX", "ECX", "EDX", "ESP", "EBP", "ESI", "EDI", "EFLAGS", "EIP"}
var regs16 = []string{"AX", "BX", "CX", "DX", "SP", "BP", "SI", "DI", "IP", "FLAGS", "CS", "DS", "SS", "ES", "FS", "GS"}

// dataStmt makes one data statement (two fields for LEN and its MEM).
func (g *gen) dataStmt() []string {
	switch g.n(9) {
	case 0, 1:
		g.feat("regs")
		k := 1 + g.n(4)
		var rs []string
		for j := 0; j < k; j++ {
			if g.p(0.5) {
				rs = append(rs, pick(g, regs32...))
			} else {
				rs = append(rs, pick(g, regs16...))
			}
		}
		if g.p(0.2) {
			rs[0] = strings.ToLower(rs[0])
			g.feat("regs-lower")
		}
		if g.fault("regs-bad", 0.4) {
			rs = append(rs, pick(g, "XYZ", "EAXX", ".errno", "5", "R"))
		}
		switch {
		case g.adP(0.04):
			g.feat("fields-as-read")
			return []string{g.kw("REGS") + g.eq() + "()"}
		case g.adP(0.03):
			g.feat("fault:fields-as-read")
			return []string{g.kw("REGS") + g.eq() + "(" + pickFrom(g.ad, ",", "5,", ".") + strings.Join(rs, ",") + ")"}
		case g.adP(0.03):
			// A name TRCUST judges as it reads it (a keyword, a register
			// variable, no register), then a break in the list.
			g.feat("fault:list-as-read")
			at := g.ad.IntN(len(rs) + 1)
			bad := pickFrom(g.ad, "D", "mem", ".v", "X", ".")
			rs = append(rs[:at], append([]string{bad}, rs[at:]...)...)
			return []string{g.kw("REGS") + g.eq() + "(" + strings.Join(rs, ",") + pickFrom(g.ad, " 5)", ",,EAX)", ")", "")}
		}
		return []string{g.kw("REGS") + g.eq() + "(" + strings.Join(rs, pick(g, ",", ", ")) + ")"}
	case 2:
		// LEN and its MEM/MEM32.
		g.feat("len")
		kind := pick(g, "MEM", "MEM32")
		if g.fault("len-nolen", 0.4) {
			return []string{g.kw(kind) + "=(" + g.addr(kind) + "," + g.flag(kind, false) + ",LEN)"}
		}
		lenAddr := g.addr(kind)
		if g.p(0.2) && strings.HasPrefix(lenAddr, ".") {
			lenAddr = lenAddr[1:] // the reference's LEN=(v_ptr,...) without the dot
			g.feat("len-nodot")
		}
		lenStmt := g.kw("LEN") + g.eq() + "(" + lenAddr + "," + g.flag(kind, true) + ")"
		if g.fault("len-alone", 0.4) {
			return []string{lenStmt}
		}
		if g.fault("flag-isif-len", 0.4) {
			lenStmt = g.kw("LEN") + "=(" + lenAddr + "," + pick(g, "IS", "IF") + ")"
		}
		return []string{lenStmt, g.kw(kind) + g.eq() + "(" + g.addr(kind) + "," + g.flag(kind, false) + "," + pick(g, "LEN", "len") + ")"}
	default:
		kind := pick(g, "MEM", "MEM32", "MEM32", "ASCIIZ", "ASCIIZ32")
		g.feat(strings.ToLower(kind))
		ln := g.num(pick(g, 1, 2, 4, 8, 10, 16, 100, 300))
		if g.p(0.05) {
			ln = g.num(pick(g, 0, 600, 0xFFFF, 0x10004))
			g.feat("length-edge")
		}
		if g.fault("number-bad", 0.4) {
			ln = g.badNum()
		}
		a := g.addr(kind)
		if g.fault("addr-flatmem", 0.4) {
			a = pick(g, "FEBP+8", "FESP")
			kind = pick(g, "MEM", "ASCIIZ")
		} else if g.fault("addr-segmem32", 0.4) {
			a = pick(g, "RSS+BP", "RDS+SI+4")
			kind = pick(g, "MEM32", "ASCIIZ32")
		} else if g.fault("addr-word", 0.4) {
			a = pick(g, "errno", "EBP", "xyz+4")
		}
		fl := g.flag(kind, false)
		if g.fault("flag-bad", 0.4) {
			fl = pick(g, "X", "INDIR", "DIRECT*", "ISS", "")
		}
		return []string{g.kw(kind) + g.eq() + "(" + a + pick(g, ",", ", ") + fl + "," + ln + ")"}
	}
}

// addr makes an address for a statement of kind (MEM, MEM32, ASCIIZ,
// ASCIIZ32): symbolic, flat register or segment register.
func (g *gen) addr(kind string) string {
	flat := strings.HasSuffix(kind, "32")
	var s string
	switch g.n(3) {
	case 0:
		g.feat("addr-symbol")
		s = "." + g.sym(dataSyms)
		if g.p(0.1) {
			s = "." + g.sym(codeSyms)
		}
		for k := g.n(3); k > 0; k-- {
			s += pick(g, "+", "-") + g.num(pick(g, 1, 2, 4, 8, 0x10, 0x100))
			g.feat("addr-disp")
		}
	case 1:
		if flat {
			g.feat("addr-flat")
			s = "F" + pick(g, "EAX", "EBX", "ECX", "EDX", "ESP", "EBP", "ESI", "EDI")
			for k := g.n(3); k > 0; k-- {
				s += pick(g, "+", "-") + pick(g, "EAX", "EBX", "ECX", "EDX", "EBP", "ESI", "EDI")
				g.feat("addr-index")
			}
		} else {
			g.feat("addr-seg")
			s = "R" + pick(g, "DS", "ES", "SS", "CS", "FS", "GS")
			for k := 1 + g.n(2); k > 0; k-- {
				s += pick(g, "+", "+", "-") + pick(g, "SI", "DI", "BX", "BP", "AX", "SP")
				g.feat("addr-index")
			}
		}
		for k := g.n(3); k > 0; k-- {
			s += pick(g, "+", "-") + g.num(pick(g, 1, 2, 4, 6, 8, 12, 0x20, 0x12345))
			g.feat("addr-disp")
		}
	default:
		// the other register form, for IS/IF conversions
		if flat {
			g.feat("addr-seg")
			s = "R" + pick(g, "DS", "SS", "ES") + "+" + pick(g, "SI", "DI", "BX", "BP")
		} else {
			g.feat("addr-flat")
			s = "F" + pick(g, "EBP", "ESP", "EAX", "ESI")
		}
		if g.p(0.5) {
			s += "+" + g.num(pick(g, 4, 8, 12))
			g.feat("addr-disp")
		}
	}
	if g.p(0.15) {
		s += pick(g, "+", "-") + "(" + g.num(pick(g, 0, 4, 6, 8, 2)) + ")"
		g.feat("addr-indirect-offset")
	}
	return g.addrTerms(s)
}

// addrTerms rewrites the address s, about one in eight, in one of the ways
// TRCUST 3.05A reads and the reference does not show (drawn from g.ad):
// terms in another order, signs in a row, a sign alone, an (i) term without
// its sign; or, as a fault, a term where TRCUST stops reading the address
// (a register after a symbol, a sign before no number in a register form,
// an (i) term without its number or its ')').
func (g *gen) addrTerms(s string) string {
	if g.ad.Float64() >= 0.125 {
		return s
	}
	sym := strings.HasPrefix(s, ".")
	if g.ad.Float64() < 0.5 {
		g.feat("addr-terms")
		switch g.ad.IntN(4) {
		case 0:
			// Signs in a row: the last one counts.
			if i := strings.IndexAny(s[1:], "+-"); i >= 0 && sym && s[i+2] != '(' {
				return s[:i+1] + pickFrom(g.ad, "+", "-") + s[i+1:]
			}
			return s + pickFrom(g.ad, "+4", "-+4", "+-8")
		case 1:
			// A displacement before the registers.
			if i := strings.IndexAny(s[1:], "+-"); i >= 0 && !sym {
				return s[:i+1] + pickFrom(g.ad, "+4", "-2", "+0x10") + s[i+1:]
			}
			return s + "+8"
		case 2:
			// A sign alone before the ','.
			if sym && !strings.HasSuffix(s, ")") {
				return s + pickFrom(g.ad, "+", "-")
			}
			return s
		default:
			// An (i) term without its sign.
			if i := strings.LastIndex(s, "("); i > 0 {
				return s[:i-1] + s[i:]
			}
			return s + "(" + pickFrom(g.ad, "4", "8", "0") + ")"
		}
	}
	g.feat("fault:addr-term")
	if sym {
		return s + pickFrom(g.ad, "+EAX", "-BX", "+*", "+.stdin", "+\"s\"", "+(EAX)", "+()", "+(-4)", "+(4", "(4)+4", "+4 4")
	}
	return s + pickFrom(g.ad, "+", "++4", "+*", "+.x", "+(EAX)", "+()", "+(4", "+(4 4)", "+4+(8)-2", "+EAX+XYZ")
}

// flag makes a DIRECT/INDIRECT/IS/IF flag for an address of a statement of
// kind; forLen is a LEN length_spec.
func (g *gen) flag(kind string, forLen bool) string {
	switch g.n(7) {
	case 0:
		g.feat("flag-direct")
		return pick(g, "DIRECT", "D", "direct")
	case 1, 2:
		g.feat("flag-indirect")
		return pick(g, "INDIRECT", "I", "indirect", "INDIRECT*")
	case 3:
		g.feat("flag-indirect-chain")
		s := "INDIRECT"
		if g.p(0.3) {
			s = "I"
		}
		for k := 1 + g.n(3); k > 0; k-- {
			s += "*"
			if g.p(0.6) {
				sign := pick(g, "+", "-")
				n := g.num(pick(g, 0, 2, 4, 6, 8, 0x10))
				switch {
				case g.adP(0.15) && sign == "+":
					sign = "" // I*4 is I*+4
					g.feat("fields-as-read")
				case g.adP(0.04):
					n = pickFrom(g.ad, "-4", "EAX", "(4)", "")
					g.feat("fault:fields-as-read")
				}
				s += sign + n
			}
		}
		if g.fault("two-indirect", 0.5) {
			s = "INDIRECT*+4"
		}
		return s
	case 4:
		if forLen {
			return "DIRECT"
		}
		g.feat("flag-isif")
		if strings.HasSuffix(kind, "32") {
			return pick(g, "IS", "IS", "IF")
		}
		return pick(g, "IF", "IF", "IS")
	default:
		if g.fault("indirect-direct-disp", 0.5) {
			return "DIRECT"
		}
		return pick(g, "DIRECT", "INDIRECT")
	}
}

// str makes a string literal: a DESC, or an FMT with controls.
func (g *gen) str(fmtStr bool) string {
	var b strings.Builder
	b.WriteByte('"')
	if g.fault("string-long", 0.3) {
		b.WriteString(strings.Repeat("L", 240+g.n(40)))
	}
	n := g.n(6)
	if g.p(0.1) {
		g.feat("string-empty")
		n = 0
	}
	if g.p(0.05) {
		n = 20 + g.n(30)
		g.feat("string-long-ok")
	}
	for i := 0; i < n; i++ {
		switch k := g.n(14); {
		case k < 5:
			b.WriteString(pick(g, "value", " ", "x=", "rc ", "Entry", "(", ")", ",", "  ", "done."))
		case k == 5:
			g.feat("string-escape")
			b.WriteString(pick(g, `\"`, `\\`, `\n`, `\t`, `\x`, `\`+"\\\\"))
		case k == 6:
			g.feat("string-tab")
			b.WriteString("\t")
		case k == 7:
			if g.p(0.3) {
				g.feat("string-high")
				b.WriteString(pick(g, "\xe9", "\x80", "\xff", "\xb0\xb1"))
			} else {
				b.WriteString(pick(g, "%", "'", ";", "/*", "*/", "=", "+"))
				g.feat("string-punct")
			}
		default:
			if !fmtStr {
				b.WriteString(pick(g, "word", " ", "%W", "%"))
				continue
			}
			g.feat("fmt-control")
			b.WriteString(g.control())
		}
	}
	if g.fault("string-nul", 0.2) {
		b.WriteByte(0)
	}
	if g.fault("string-newline", 0.2) {
		b.WriteString(g.nl + "continued")
	}
	b.WriteByte('"')
	return b.String()
}

// control makes an FMT % control, and what follows it.
func (g *gen) control() string {
	c := pick(g, "B", "W", "D", "F", "Q", "A", "R", "S", "U", "X", "Y", "P", "C", "I")
	if g.p(0.3) {
		c = strings.ToLower(c)
	}
	s := "%" + c
	switch {
	case c == "I" || c == "i":
		g.feat("fmt-I")
		s += pick(g, "6 ", "10 ", "0x10 ", " ", "6", "12x")
	case g.p(0.1):
		s = "%" + pick(g, "%", "Z", "k", "1", "", " ")
		g.feat("fmt-literal-pct")
	}
	if c == "P" || c == "p" || c == "R" || c == "r" {
		g.feat("fmt-" + strings.ToUpper(c))
	}
	switch g.n(5) {
	case 0:
		s += pick(g, " ", "  ", "\t", " \t")
		g.feat("fmt-blank-after")
	case 1:
		s += pick(g, "x", "W", "abc", "B")
		g.feat("fmt-letter-after")
	}
	return s
}

// combine makes a "TRCUST list /C=dest" run over generated TFF files.
func (g *gen) combine() {
	g.feat("combine")
	major := uint16(pick(g, 0x30, 0x42, 0x100))
	n := 1 + g.n(4)
	var names []string
	for i := 0; i < n; i++ {
		name := pick(g, "A", "B", "C", "D", "E", "Lib", "x") + fmt.Sprint(i) + pick(g, ".TFF", ".tff", ".Tff", "")
		f := &tff.File{Major: major}
		if g.p(0.1) && i > 0 {
			f.Major++
			g.feat("combine-major")
		}
		seen := map[uint16]bool{}
		for k := 1 + g.n(4); k > 0; k-- {
			m := uint16(1 + g.n(8))
			if seen[m] {
				continue
			}
			seen[m] = true
			r := tff.Record{Minor: m, Desc: []byte(fmt.Sprintf("%s minor %d", name, m))}
			for j := g.n(3); j > 0; j-- {
				r.Fmts = append(r.Fmts, tff.EncodeFMT([]byte(fmt.Sprintf("value %%W line %d", j))))
			}
			f.Records = append(f.Records, r)
		}
		data, err := f.MarshalBinary()
		if err != nil {
			panic(err)
		}
		if g.p(0.05) {
			// What TRCUST reads without a check: the signature, the
			// reserved text, bytes after the last block, a short header.
			g.feat("combine-loose")
			switch g.n(4) {
			case 0:
				copy(data, "XXXX")
			case 1:
				copy(data[12:], "abcd")
			case 2:
				data = append(data, "trailing"...)
			default:
				data = data[:g.n(9)]
			}
		}
		g.c.Files[name] = data
		names = append(names, name)
	}
	list := append([]string{}, names...)
	if g.p(0.15) {
		list = append(list, list[0])
		g.feat("combine-repeat")
	}
	if g.p(0.1) {
		list = append(list, "NOPE.TFF")
		g.feat("combine-missing")
	}
	if g.p(0.03) {
		list = nil
		g.feat("combine-empty-list")
	}
	g.r.Shuffle(len(list), func(i, j int) { list[i], list[j] = list[j], list[i] })
	if g.p(0.2) {
		for i := range list {
			list[i] = strings.ToUpper(list[i])
		}
		g.feat("combine-upper")
	}
	sep := pick(g, "\r\n", "\n", " ", "\t")
	listName := pick(g, "tfflist.txt", "list.tcf", "L")
	g.c.Files[listName] = []byte(strings.Join(list, sep) + pick(g, "\r\n", "", "\n"))
	dest := pick(g, "OUT.TFF", "out.tff", "Out", "TRC0042.TFF")
	if g.p(0.05) {
		dest = strings.ToLower(names[g.n(len(names))])
		g.feat("combine-dest-input")
	}
	args := []string{listName, pick(g, "/C=", "/c=", "-C=") + dest}
	if g.p(0.08) {
		// Arguments TRCUST reads apart in combine mode: a second file
		// before /C= (the run compiles) or after it, /I, /L= and /M=.
		g.feat("combine-args")
		switch g.n(5) {
		case 0:
			args = []string{listName, "x.tdf", args[1]}
		case 1:
			args = append(args, "more.tsf")
		case 2:
			args = append(args, "/I")
		case 3:
			args = append(args, "/L=emitrep.dll")
		default:
			args = append(args, pick(g, "/M=", "-m=")+pick(g, "o2.tff", "x.map"))
		}
	}
	if g.p(0.1) {
		args = append(args, "/D")
		g.feat("arg:D")
	}
	if g.p(0.2) {
		args = append(args, pick(g, "/W0", "/W1", "/W2"))
		g.feat("arg:W")
	}
	g.c.Args = args
}

// edits now and then spoils a TSF the way files get spoilt, drawn from
// g.ed: cut short anywhere in its last 80 bytes (after its last TRACE
// keyword), a Ctrl-Z or a NUL put in, a CR of its own put after a quote, a
// NUL in or just before a string, or the whole file saved as UTF-16.
func (g *gen) edits(b []byte) []byte {
	r := g.ed
	if len(b) == 0 {
		return b
	}
	if r.IntN(25) == 0 {
		// Within the last 80 bytes, after the last TRACE keyword.
		if k := bytes.LastIndex(bytes.ToUpper(b), []byte("TRACE")); k >= 0 {
			g.feat("edit:cut")
			lo := max(k+len("TRACE"), len(b)-80)
			b = b[:lo+r.IntN(len(b)-lo+1)]
		}
	}
	if r.IntN(50) == 0 {
		g.feat("edit:ctrl-z")
		i := r.IntN(len(b) + 1)
		b = append(b[:i:i], append([]byte{0x1A}, b[i:]...)...)
	}
	if r.IntN(80) == 0 {
		g.feat("edit:nul")
		i := r.IntN(len(b) + 1)
		b = append(b[:i:i], append([]byte{0}, b[i:]...)...)
	}
	if r.IntN(40) == 0 {
		// A CR of its own after a quote: in a string or just after one.
		start := r.IntN(len(b))
		if j := bytes.IndexByte(b[start:], '"'); j >= 0 {
			g.feat("edit:cr")
			i := start + j + 1
			b = append(b[:i:i], append([]byte{'\r'}, b[i:]...)...)
		}
	}
	if r.IntN(60) == 0 {
		// A NUL in a string, or just before one: TRCUST reads on after
		// it, and a word touching a string makes one token with it.
		start := r.IntN(len(b))
		if j := bytes.IndexByte(b[start:], '"'); j >= 0 {
			g.feat("edit:nul-string")
			i := start + j + r.IntN(3)
			i = min(i, len(b))
			b = append(b[:i:i], append([]byte{0}, b[i:]...)...)
		}
	}
	if r.IntN(150) == 0 {
		// Saved as UTF-16 (little-endian, with a byte order mark, or
		// big-endian without): every other byte a NUL.
		g.feat("edit:utf16")
		big := r.IntN(2) == 0
		out := make([]byte, 0, 2*len(b)+2)
		if !big {
			out = append(out, 0xFF, 0xFE)
		}
		for _, c := range b {
			if big {
				out = append(out, 0, c)
			} else {
				out = append(out, c, 0)
			}
		}
		b = out
	}
	return b
}
