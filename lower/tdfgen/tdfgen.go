// Package tdfgen is the back end that turns a checked Trace Source File
// (lower/tsfcheck.Module) into a trace definition file (binfmt/tdf): it
// resolves each dynamic tracepoint's address through the module's symbols,
// reads the original opcode byte there, assembles the RPN program of its
// data statements, and writes the records sorted by address, as IBM's
// TRCUST 3.05A does.
//
// The work is split where TRCUST splits it, so that a front end can print
// the messages in TRCUST's order: Compile does what TRCUST does while it
// reads the TSF (messages 39, 76, 77, 79, 80, 83, 91, 97; a tracepoint
// with an error is left out of the TFF too), and Program.TDF what it does
// after writing the TFF (message 105: two tracepoints at one address).
//
// docs/tdf.md describes the format and how each statement is assembled;
// docs/compatibility.md lists where tracekit differs from TRCUST 3.05A.
package tdfgen

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/ast/tsf"
	"github.com/tracekit/tracekit/binfmt/tdf"
	"github.com/tracekit/tracekit/lower/tsfcheck"
	"github.com/tracekit/tracekit/lower/x86ret"
)

// Symbols resolves public symbols of the traced module, as TRCUST does
// through the module's MAP file: case-sensitive, unless the implementation
// was made for TRCUST's /I. A symbol may be in any object.
type Symbols interface {
	// Lookup returns the LX object number and the offset of a symbol.
	Lookup(name string) (obj, off uint32, ok bool)
	// Next returns where the procedure name, which Lookup found at
	// obj:off, ends, for RETEP (package lower/x86ret): the offset of the
	// symbol that follows it; ok is false when none follows in the
	// object (it ends with the object), found is false when the symbols
	// cannot say (TRCUST 3.05A: "symbol not found").
	Next(name string, obj, off uint32) (next uint32, ok, found bool)
}

// Module reads the traced module's bytes as loaded (before fixups).
type Module interface {
	// ByteAt returns the byte at offset off of LX object obj; an error when
	// the address is outside the object.
	ByteAt(obj, off uint32) (byte, error)
	// Object returns the bytes of LX object obj as loaded, and whether it
	// holds 32-bit code; RETEP decodes the procedure's instructions in it.
	Object(obj uint32) (data []byte, is32 bool, err error)
}

// Options are the TRCUST switches that change the TDF.
type Options struct {
	// KeepPath keeps the path of MODNAME in the TDF header (TRCUST /P);
	// without it only the file name is stored.
	KeepPath bool
	// ModulePath is the module file as the front end found it, named by
	// message 39 (TRCUST prints the path DosSearchPath returned, oracle
	// d68); the MODNAME when empty.
	ModulePath string
	// Refused are TRACE statements the front end refused for an error
	// after their TP field: Compile resolves their TP fields among the
	// tracepoints, in source order (ResolveRefused), as TRCUST reads a
	// page for each TP it resolves, and fills in Diags and Failed.
	Refused []*Refused
	// RetEP is how RETEP return points are searched (TRCUST /RMn, /RSnnn,
	// /RP); nil is TRCUST's default, x86ret.DefaultSearch.
	RetEP *x86ret.Search
}

// Refused is a TRACE statement refused for an error after its TP field,
// and what resolving that field gave (see ResolveRefused).
type Refused struct {
	Trace *tsf.Trace
	TP    *tsf.TP
	// Point is what the checker made of the statement (Module.Refused),
	// nil if nothing; its data statements before Before (an offset: the
	// statement's first error) are assembled after the TP is resolved.
	Point  *tsfcheck.Tracepoint
	Before int
	// Unlooked says that TRCUST stopped before it looked the symbol up:
	// at a token too long right after the TP field, which it reads to see
	// whether RETEP follows, or at the '=' of "RETEP=". Only the want of
	// symbolic information (39), given before, is reported then.
	Unlooked bool
	Diags    diag.List
	Failed   bool
	// DataAt is, when Failed for a data statement assembled after the TP
	// resolved (a symbol not found, an RPN stack overflow), the offset of
	// its error: TRCUST 3.05A read the statement up to there. 0 when the
	// TP itself failed.
	DataAt int
}

// Untraceable reports whether TRCUST refuses a tracepoint on the opcode b
// (message 76), modrm being the byte after it: 0x9C PUSHF, 0xCC INT3, 0xCD
// INT n, 0xCE INTO, 0x62 BOUND, 0x69 and 0x6B IMUL with an immediate, and
// of the 0xF6 and 0xF7 groups MUL, IMUL, DIV and IDIV (ModRM reg 4-7).
// The reference lists the whole groups; IBM's behaviour, tried with its
// binary on every F6/F7 byte of emitrep.dll, is to trace TEST, NOT and
// NEG (reg 0-3) and to refuse DIV and IDIV (reg 6, 7); MUL and IMUL (reg
// 4, 5), which emitrep does not hold, are taken to be refused with them.
func Untraceable(b, modrm byte) bool {
	switch b {
	case 0x9C, 0xCC, 0xCD, 0xCE, 0x62, 0x69, 0x6B:
		return true
	case 0xF6, 0xF7:
		return modrm>>3&7 >= 4
	}
	return false
}

// maxPrefixes is how many bytes an instruction's prefixes and opcode span
// at most: an x86 instruction is at most 15 bytes long.
const maxPrefixes = 15

// isPrefix reports whether b is an x86 instruction prefix: the segment
// overrides (ES: 0x26, CS: 0x2E, SS: 0x36, DS: 0x3E, FS: 0x64, GS:
// 0x65), the operand and address sizes (0x66, 0x67), LOCK (0xF0) and the
// repeats (0xF2, 0xF3). TRCUST 3.05A was seen to pass over 0x36, 0x64,
// 0x65 and 0x66 (readOpcode); emitrep holds no other before a byte it
// refuses, so the rest are taken to be passed over alike.
func isPrefix(b byte) bool {
	switch b {
	case 0x26, 0x2E, 0x36, 0x3E, 0x64, 0x65, 0x66, 0x67, 0xF0, 0xF2, 0xF3:
		return true
	}
	return false
}

// Record is a compiled dynamic tracepoint.
type Record struct {
	TP     *tsfcheck.Tracepoint
	Object uint32
	Offset uint32
	Opcode uint8 // the byte the module holds at Object:Offset
	RPN    []byte
}

// Program is the result of Compile.
type Program struct {
	Module *tsfcheck.Module
	// Records are the dynamic tracepoints that compiled, in source order.
	Records []Record
	// Kept are the tracepoints that TRCUST keeps after reading the TSF, in
	// source order: the @STATIC ones and those of Records. The TFF holds
	// these (KeptModule).
	Kept []*tsfcheck.Tracepoint
	// Abandoned holds the TRACE statements of tracepoints that TRCUST
	// abandons at an error before the statement's end: a TP that cannot
	// be resolved, a data statement that cannot be assembled (not an
	// opcode mismatch, found at the end). Such a statement does not decide
	// whether TRACE statements give MINOR (tsfcheck.Options.Abandoned).
	Abandoned map[*tsf.Trace]bool
	// Unread are the tracepoints refused as their TP field was resolved
	// (a symbol not found, no return point for RETEP): TRCUST 3.05A reads
	// nothing more of their statements, so what the front end found after
	// the TP field is not TRCUST's to report.
	Unread []*tsfcheck.Tracepoint
	opt    Options
	// unreadAt holds, for each statement whose TP could not be resolved
	// (Unread, and refused statements alike), the offset of its TP field:
	// TRCUST reads nothing after it, ORBIT included (orbitBits).
	unreadAt map[*tsf.Trace]int
	// Duplicates are the errors of the duplicate minor codes Compile
	// found last (DedupeMinors): TRCUST 3.05A gives them after every
	// other error of the TSF, before it writes the TFF.
	Duplicates diag.List
	// DynamicDuplicates is how many dynamic tracepoints Duplicates
	// dropped.
	DynamicDuplicates int
	// StaticOrbits are the @STATIC tracepoints with ORBIT that have a TMI
	// record, in the order of their records (staticOrbits): TDF fills it
	// in. They have no TDF record (package lower/tmigen writes theirs
	// after the others).
	StaticOrbits []StaticOrbit
	// dropped are the tracepoints dedupeMinors dropped, in source order,
	// with their records: they stay in the array TRCUST sorts by address
	// (TDF).
	dropped []Record
}

// KeptModule returns a copy of the module whose Tracepoints are p.Kept: the
// input of the TFF writer.
func (p *Program) KeptModule() *tsfcheck.Module {
	m := *p.Module
	m.Tracepoints = p.Kept
	return &m
}

// Compile compiles every dynamic tracepoint of m. syms may be nil when the
// module has no symbol information: a symbolic tracepoint then gives the
// severe message 39 and Compile stops, as TRCUST does (oracle d68).
//
// For each tracepoint, in source order, it reports: 91 for TP=@file,line
// (tracekit reads no debug information; TRCUST says the same of a module
// without any, oracle d55); 79 for a TP symbol that is not found, attributed
// to the line of the token after the TP field as TRCUST does (oracle e11,
// d59b); an error for RETEP when no return point is found (see the x86
// decoder); the data statements' messages (Assemble); 80 for an address
// outside its object; 76 when the byte at the TP cannot be traced, as the
// TP is resolved (readOpcode); 77 when the OPCODE given differs from the
// module's byte, at the end of the statement (oracle d61). A tracepoint
// with an error is left out.
func Compile(m *tsfcheck.Module, syms Symbols, mod Module, opt Options) (*Program, diag.List) {
	p := &Program{Module: m, opt: opt}
	var diags diag.List
	modPath := opt.ModulePath
	if modPath == "" {
		modPath = m.ModName
	}
	refused := opt.Refused
	resolveUpTo := func(off int) {
		for len(refused) > 0 && refused[0].TP.Pos.Offset < off {
			rf := refused[0]
			refused = refused[1:]
			// Without symbols the TP is severe 39 there too (IBM's
			// behaviour: TRCUST stops at the first symbolic TP it reads).
			if rf.Unlooked && syms != nil {
				continue
			}
			rf.Diags, rf.Failed = ResolveRefused(rf.Trace, rf.TP, syms, mod, modPath, opt.RetEP)
			if rf.Failed {
				p.unread(rf.Trace, rf.TP)
			}
			if !rf.Failed && rf.Point != nil && syms != nil {
				rf.Diags, rf.Failed, rf.DataAt = assembleRefused(rf, syms, modPath)
			}
		}
	}
	defer resolveUpTo(math.MaxInt)
	for _, tp := range m.Tracepoints {
		if tp.Static() {
			p.Kept = append(p.Kept, tp)
			continue
		}
		resolveUpTo(tp.TPField.Pos.Offset)
		r, ds, dropped, unread, abandoned := compileTP(tp, syms, mod, modPath, opt.RetEP)
		if abandoned {
			if p.Abandoned == nil {
				p.Abandoned = make(map[*tsf.Trace]bool)
			}
			p.Abandoned[tp.Node] = true
		}
		if unread {
			// Refused as its TP was read: what the front end found later
			// in the statement TRCUST never reads (Program.Unread).
			p.Unread = append(p.Unread, tp)
			p.unread(tp.Node, tp.TPField)
		}
		if tp.Late != nil && !ds.Failed() && !dropped {
			// The statement's last error (tsfcheck.Tracepoint.Late).
			ds = append(ds, *tp.Late)
		}
		diags = append(diags, ds...)
		if ds.Worst() >= diag.Severe {
			return p, diags
		}
		if !ds.Failed() && !dropped {
			p.Records = append(p.Records, r)
			p.Kept = append(p.Kept, tp)
		}
	}
	p.dedupeMinors()
	if m.AutoMinors {
		// IBM's behaviour: TRCUST 3.05A numbers a TRACE without MINOR
		// when it keeps it, so a tracepoint refused here (an opcode
		// mismatch, a symbol not found) leaves no gap.
		for i, tp := range p.Kept {
			tp.Minor = uint16(i + 1)
		}
	}
	return p, diags
}

// DedupeMinors finds the tracepoints of tps whose minor code another one
// has, as TRCUST 3.05A finds them once it has read the whole TSF (IBM's
// behaviour, tried with its binary): among the tracepoints it kept, sorted
// by minor code with its C runtime's quicksort (crtSort's order, made by
// crtSortByKey in O(n log n) on tracepoints in order), the first of each
// code is kept and each later one is error 94 "duplicate minor code",
// at its TRACE statement's line, in that order. So which of two
// tracepoints with one minor code survives is the sort's: of MINOR=5 at
// line 2 and MINOR=5 at line 4 (and 2, 2, 7 between) the one at line 2 is
// dropped. TRCUST prints these errors after every other error of the TSF.
//
// It finds none when m allows duplicates (/D) or numbers its TRACE
// statements itself (AutoMinors); tps are m's tracepoints kept.
func DedupeMinors(m *tsfcheck.Module, tps []*tsfcheck.Tracepoint) (dropped map[*tsfcheck.Tracepoint]bool, diags diag.List) {
	if m.DuplicateMinorsAllowed || m.AutoMinors {
		return nil, nil
	}
	if !hasDuplicateMinor(tps) {
		// Nothing to find: no need of the sort, whose first-element pivot
		// takes time quadratic in the number of tracepoints when they
		// stand in minor order, as they mostly do.
		return nil, nil
	}
	s := slices.Clone(tps)
	crtSortByKey(len(s), func(i int) uint64 { return uint64(s[i].Minor) }, func(i, j int) { s[i], s[j] = s[j], s[i] })
	for i := 1; i < len(s); i++ {
		if s[i].Minor != s[i-1].Minor {
			continue
		}
		if dropped == nil {
			dropped = make(map[*tsfcheck.Tracepoint]bool)
		}
		dropped[s[i]] = true
		// At the MINOR value, and at the TRACE keyword's line, as for a
		// duplicate address (IBM's behaviour).
		pos, legacy := s[i].Pos, s[i].Pos.Line
		if s[i].MinorPos.Line > 0 {
			pos = s[i].MinorPos
		}
		d := tsf.ErrDupMinor.Diagnostic(pos, legacy, fmt.Sprintf("%04X", s[i].Minor))
		d.Detail = fmt.Sprintf("the tracepoint kept with it is at line %d", keptWith(s, i).Pos.Line)
		diags.Add(d)
	}
	return dropped, diags
}

// hasDuplicateMinor reports whether two of tps have one minor code.
func hasDuplicateMinor(tps []*tsfcheck.Tracepoint) bool {
	var seen [1 << 16]bool
	for _, tp := range tps {
		if seen[tp.Minor] {
			return true
		}
		seen[tp.Minor] = true
	}
	return false
}

// keptWith returns the tracepoint of sorted that keeps the minor code of
// sorted[i]: the first of its run.
func keptWith(sorted []*tsfcheck.Tracepoint, i int) *tsfcheck.Tracepoint {
	for i > 0 && sorted[i-1].Minor == sorted[i].Minor {
		i--
	}
	return sorted[i]
}

// dedupeMinors drops from p.Kept and p.Records the tracepoints
// DedupeMinors finds, keeping its errors in Duplicates.
func (p *Program) dedupeMinors() {
	dropped, diags := DedupeMinors(p.Module, p.Kept)
	if len(dropped) == 0 {
		return
	}
	p.Duplicates = diags
	for tp := range dropped {
		if !tp.Static() {
			p.DynamicDuplicates++
		}
	}
	next := 0
	for _, tp := range p.Kept {
		r := Record{TP: tp}
		if !tp.Static() {
			r = p.Records[next]
			next++
		}
		if dropped[tp] {
			p.dropped = append(p.dropped, r)
		}
	}
	p.Kept = slices.DeleteFunc(p.Kept, func(tp *tsfcheck.Tracepoint) bool { return dropped[tp] })
	p.Records = slices.DeleteFunc(p.Records, func(r Record) bool { return dropped[r.TP] })
}

// TDFLost reports TRCUST 3.05A's lost TDF: it writes none when as many
// dynamic tracepoints are left as it dropped for a duplicate minor code
// (IBM's behaviour, tried with its binary on 30 programs: minors 1,1 and
// 1,2,1,2 and 1,1,2,2,3,3 lose it; 1,2,1 and 1,1,1 and 1,2,3,1,2 do not;
// @STATIC tracepoints count as dropped neither, nor as left). A TDF with
// no tracepoint left is written all the same (TDF).
func (p *Program) TDFLost() bool {
	return p.DynamicDuplicates > 0 && p.DynamicDuplicates == len(p.Records)
}

// unread records that TRCUST read no more of t than its TP field tpf.
func (p *Program) unread(t *tsf.Trace, tpf *tsf.TP) {
	if p.unreadAt == nil {
		p.unreadAt = make(map[*tsf.Trace]int)
	}
	p.unreadAt[t] = tpf.Pos.Offset
}

// orbitBits numbers the ORBIT fields TRCUST 3.05A read (IBM's behaviour,
// each point tried with its binary): the k-th ORBIT=(0,1) read, in source
// order and counting those of statements refused later (a duplicate minor,
// an error after the ORBIT, a duplicate address), is given the bit k of the
// ORBIT table: it is written as ORBIT=(1<<(k%32), k/32), a mask and the
// index of a dword. An ORBIT=(0,0) takes the bit the last (0,1) was given.
// An ORBIT after the TP field of a statement whose TP could not be resolved
// is not read. vals maps each ORBIT read to the (mask, index) TRCUST writes;
// table is the ORBIT table of the TDF, one zero dword for each index up to
// the highest any ORBIT read names, when at least one (0,1) was read (nil
// otherwise: TRCUST writes no table then).
func (p *Program) orbitBits() (vals map[*tsf.Orbit][2]uint32, table []uint32) {
	return orbitValues(p.Module.Orbits, func(o tsfcheck.OrbitField) bool {
		at, ok := p.unreadAt[o.Trace]
		return !ok || o.Orbit.Pos.Offset <= at
	})
}

// orbitValues is orbitBits over orbits, of which it takes those read
// reports.
func orbitValues(orbits []tsfcheck.OrbitField, read func(tsfcheck.OrbitField) bool) (vals map[*tsf.Orbit][2]uint32, table []uint32) {
	var next, lastA, lastB, top uint32
	asked := false
	for _, o := range orbits {
		if !read(o) {
			continue
		}
		var a, b uint32
		switch {
		case tsfcheck.NewBit(o.Orbit):
			a, b = 1<<(next%32), next/32
			next++
			lastA, lastB, asked = a, b, true
		case tsfcheck.SameBit(o.Orbit):
			a, b = lastA, lastB
		default:
			a = uint32(o.Orbit.A.Value)
			if o.Orbit.B != nil {
				b = uint32(o.Orbit.B.Value)
			}
			if b > 0xFFFF {
				b = orbitIndexTooLarge
			}
		}
		if vals == nil {
			vals = make(map[*tsf.Orbit][2]uint32)
		}
		vals[o.Orbit] = [2]uint32{a, b}
		top = max(top, b)
	}
	if !asked {
		return vals, nil
	}
	return vals, make([]uint32, top+1)
}

// StaticOrbit is the TMI record of a @STATIC tracepoint with ORBIT beside
// a TDF (Program.StaticOrbits).
type StaticOrbit struct {
	Orbit [2]uint32 // the ORBIT=(a,b) values
	// AfterDynamic: a dynamic tracepoint comes before it in the source.
	// IBM's behaviour: its record then names the end of the symbol table
	// (the state TRCUST 3.05A's lookup of that tracepoint left), and
	// nothing before any ("s1 s2 d3" with ORBIT on s1 and s2 is two
	// records naming nothing, "d1 s2" one naming _end).
	AfterDynamic bool
}

// staticsByMinor returns the @STATIC tracepoints of kept by minor code.
func staticsByMinor(kept []*tsfcheck.Tracepoint) []*tsfcheck.Tracepoint {
	var statics []*tsfcheck.Tracepoint
	for _, tp := range kept {
		if tp.Static() {
			statics = append(statics, tp)
		}
	}
	slices.SortStableFunc(statics, func(a, b *tsfcheck.Tracepoint) int { return cmp.Compare(a.Minor, b.Minor) })
	return statics
}

// StaticOrbitKept reports whether a @STATIC tracepoint of kept has ORBIT:
// TRCUST 3.05A then writes a .TMI file, with no record if need be
// (Program.OrbitSeen, tmigen.BuildStatic).
func StaticOrbitKept(kept []*tsfcheck.Tracepoint) bool {
	return slices.ContainsFunc(kept, func(tp *tsfcheck.Tracepoint) bool { return tp.Static() && tp.Orbit != nil })
}

// OrbitSeen reports whether TRCUST 3.05A writes a .TMI file for p even
// with no record in it: a @STATIC tracepoint kept has ORBIT
// (StaticOrbitKept), or a tracepoint dropped for a duplicate minor code,
// static or dynamic, had (IBM's behaviour, session 15: "MINOR=2 .malloc,
// MINOR=2 .free ORBIT" writes a .TMI of no record, also with its TDF lost,
// and so does a @STATIC pair; a tracepoint dropped for a duplicate
// address, or refused for an error after its ORBIT, writes none; fresh
// seed 1251485).
func (p *Program) OrbitSeen() bool {
	return StaticOrbitKept(p.Kept) || slices.ContainsFunc(p.dropped, func(r Record) bool { return r.TP.Orbit != nil })
}

// staticOrbits returns Program.StaticOrbits of the tracepoints kept, in
// source order. IBM's behaviour, tried with its binary on 17 orders of
// static tracepoints with and without ORBIT beside dynamic ones (not
// documented, and no reading of TRCUST's code: the rule fits 15 of them;
// docs/tmi.md names the two it misses, whose statics come in the order an
// unstable sort would leave them):
//   - the records are those of the static tracepoints with ORBIT in source
//     order, from the first; once one is taken, a tracepoint without
//     ORBIT, static or dynamic, ends them ("s5 d2 s1" with ORBIT on the
//     statics is one record);
//   - no more of them than the static tracepoints by minor code have
//     ORBIT before the first without it ("s2 s1 d3" with ORBIT on s2
//     only is none);
//   - a record after a dynamic tracepoint in the source names the end of
//     the symbol table, one before any names nothing.
func staticOrbits(kept []*tsfcheck.Tracepoint, orbits map[*tsf.Orbit][2]uint32) []StaticOrbit {
	statics := staticsByMinor(kept)
	n := 0
	for n < len(statics) && statics[n].Orbit != nil {
		n++
	}
	var out []StaticOrbit
	dynamic := false
	for _, tp := range kept {
		if len(out) == n || tp.Orbit == nil && len(out) > 0 {
			break
		}
		if !tp.Static() {
			dynamic = true
			continue
		}
		if tp.Orbit != nil {
			out = append(out, StaticOrbit{Orbit: orbits[tp.Orbit], AfterDynamic: dynamic})
		}
	}
	return out
}

// LoneStaticOrbits returns the ORBIT=(a,b) values of the records of the
// .TMI file of a module without dynamic tracepoints (no Program), which
// TRCUST 3.05A writes all the same (tmigen.BuildStatic). IBM's behaviour,
// tried with its binary on the orders of @STATIC tracepoints with and
// without ORBIT: TRCUST takes the tracepoints kept by minor code, the
// first for its ORBIT if it has one, then the next ones while they have
// one; the first after it without ORBIT ends the records (minor codes 1
// and 3 with ORBIT, 2 without: one record; 1 and 2 without, 3 with:
// none; 1 without, 2 and 3 with: two).
func LoneStaticOrbits(m *tsfcheck.Module, kept []*tsfcheck.Tracepoint) [][2]uint32 {
	vals, _ := orbitValues(m.Orbits, func(tsfcheck.OrbitField) bool { return true })
	statics := staticsByMinor(kept)
	var out [][2]uint32
	for i, tp := range statics {
		if tp.Orbit == nil {
			if i == 0 {
				continue
			}
			break
		}
		out = append(out, vals[tp.Orbit])
	}
	return out
}

// keptOrbit reports whether a tracepoint kept has ORBIT.
func (p *Program) keptOrbit() bool {
	for _, tp := range p.Kept {
		if tp.Orbit != nil {
			return true
		}
	}
	return false
}

// setOrbit writes the (mask, index) TRCUST gave an ORBIT=(0,1) or (0,0)
// into the RPN program that assembled it (as ORBIT=(0,1): 0x1A 0, 0x32 1).
func setOrbit(rpn []byte, v [2]uint32) []byte {
	ops, err := tdf.Disassemble(rpn)
	if err != nil {
		return rpn
	}
	for i, op := range ops {
		if op.Code == tdf.OpOrbit && i > 0 && ops[i-1].Code == tdf.OpPushImm32 {
			out := slices.Clone(rpn)
			binary.LittleEndian.PutUint32(out[ops[i-1].Off+1:], v[0])
			binary.LittleEndian.PutUint16(out[op.Off+1:], uint16(v[1]))
			return out
		}
	}
	return rpn
}

// compileTP resolves, assembles and checks one dynamic tracepoint.
//
// dropped reports a tracepoint left out although no error was reported: a
// RETEP whose return point cannot be found (warning 144); unread one
// refused as its TP field was resolved (that, or a symbol not found).
func compileTP(tp *tsfcheck.Tracepoint, syms Symbols, mod Module, modPath string, search *x86ret.Search) (r Record, diags diag.List, dropped, unread, abandoned bool) {
	r = Record{TP: tp}
	tpf := tp.TPField
	end := tp.Node.End.Line
	obj, off, resolved, diags, stop := resolveTarget(tp, syms, mod, modPath, search)
	if stop {
		return r, diags, resolved, resolved, resolved
	}
	if diags.Failed() {
		// IBM's behaviour: TRCUST 3.05A skips the rest of a statement
		// whose TP it cannot resolve (one error a statement).
		return r, diags, false, true, true
	}
	if resolved {
		r.Object, r.Offset = obj, off
		var untraced bool
		r.Opcode, diags, untraced = readOpcode(tp, mod, modPath, obj, off, diags)
		if untraced {
			// IBM's behaviour, tried with its binary: TRCUST 3.05A
			// checks the byte as it resolves the TP, and skips the rest
			// of the statement (one error a statement).
			return r, diags, false, true, true
		}
	}
	rpn, ds := assemble(tp, syms, modPath)
	diags = append(diags, ds...)
	if ds.Worst() >= diag.Severe {
		return r, diags, false, false, true
	}
	// A data statement that cannot be assembled is an error before the
	// end of the statement: TRCUST abandons the statement there.
	abandoned = ds.Failed()
	r.RPN = rpn
	if !resolved {
		return r, diags, false, false, abandoned
	}
	at := tsf.Node(tpf)
	for _, f := range tp.Node.Fields {
		if o, ok := f.(*tsf.Opcode); ok {
			at = o
		}
	}
	// IBM's behaviour: a statement abandoned at a data statement (83, 97)
	// is never compared with its OPCODE (fresh seed 912619).
	if tp.Opcode != nil && *tp.Opcode != r.Opcode && !abandoned {
		// IBM's behaviour: TRCUST 3.05A compares the OPCODE once it has
		// read the whole statement, so the error comes after every other
		// message of the statement, also one at the same line (warning
		// 140 of a data statement on the line after the OPCODE, fresh
		// seed 1073275): it stands at the statement's last token, the
		// detail names the OPCODE field.
		pos := at.Position()
		if n := len(tp.Node.Fields); n > 0 {
			pos = tp.Node.Fields[n-1].Last()
		}
		d := tsf.ErrOpcodeMismatch.Diagnostic(pos, end)
		op := at.Position()
		d.Detail = fmt.Sprintf("OPCODE=0x%02X at %d:%d, the module has 0x%02X at %08X:%08X", *tp.Opcode, op.Line, op.Col, r.Opcode, r.Object, r.Offset)
		diags.Add(d)
	}
	return r, diags, false, false, abandoned
}

// readOpcode reads the original byte at the resolved TP obj:off as TRCUST
// 3.05A does when it resolves the TP: warnings 138 and 139 when the
// address is outside its object (outside), and error 76 when the byte
// cannot be traced (untraced), at the line of the token after the TP field
// (IBM's behaviour, tried with its binary: it comes before an OPCODE
// mismatch and before any later error of the statement, which TRCUST then
// skips).
func readOpcode(tp *tsfcheck.Tracepoint, mod Module, modPath string, obj, off uint32, diags diag.List) (b byte, _ diag.List, untraced bool) {
	b, err := mod.ByteAt(obj, off)
	if st, ok := tp.Target.(*tsf.SymbolTP); err != nil && !(ok && st.RetEP != nil) {
		// The byte is what TRCUST's page buffer holds there (lxmap), and
		// an OPCODE is compared with it all the same (IBM's behaviour).
		// At a RETEP return point no warning: TRCUST warned for the page
		// of the search window's start, if at all (IBM's behaviour,
		// session 15: a return point found at 1:63D9 past emitrep's
		// pages, fresh seed 1213486).
		diags = append(diags, outside(tp, modPath, obj, off, err, afterTP(tp))...)
	}
	// The instruction's prefixes are passed over: the opcode after them
	// decides (IBM's behaviour, session 15: SS: before IDIV at 1:1FFA of
	// emitrep, and in its data object "66 69", "65 65 69" and "64 65 62"
	// cannot be traced, while each of those prefixes before a traceable
	// byte can; fresh seeds 1200146 and 1223959). The bytes after it are
	// read as the first is, through TRCUST's page buffer.
	op, k := b, uint32(1)
	for isPrefix(op) && k < maxPrefixes {
		op, _ = mod.ByteAt(obj, off+k)
		k++
	}
	var modrm byte
	if op == 0xF6 || op == 0xF7 {
		modrm, _ = mod.ByteAt(obj, off+k)
	}
	if Untraceable(op, modrm) {
		d := tsf.ErrOpcodeUntraced.Diagnostic(tp.TPField.Pos, afterTP(tp))
		d.Detail = fmt.Sprintf("0x%02X at %08X:%08X", b, obj, off)
		if op != b {
			d.Detail += fmt.Sprintf(" (a prefix before 0x%02X)", op)
		}
		diags.Add(d)
		return b, diags, true
	}
	return b, diags, false
}

// resolveTarget resolves the TP field of tp as TRCUST 3.05A does when it
// reads the field: 91 for TP=@file,line, severe 39 without symbols (stop),
// 79 for a symbol not found, and for RETEP the return point or warning 144
// (stop, with ok set: the tracepoint is dropped without an error).
func resolveTarget(tp *tsfcheck.Tracepoint, syms Symbols, mod Module, modPath string, search *x86ret.Search) (obj, off uint32, ok bool, diags diag.List, stop bool) {
	tpf := tp.TPField
	switch t := tp.Target.(type) {
	case *tsf.LineTP:
		if syms == nil {
			// IBM's behaviour: without a MAP file TRCUST 3.05A says 39
			// for TP=@file,line as for a symbol, and stops.
			diags.Add(tsf.SevereNoSymbolInfo.Diagnostic(t.Pos, tpf.Last().Line, modPath))
			return 0, 0, false, diags, true
		}
		diags.Add(tsf.ErrNoDebugInfo.Diagnostic(t.Pos, tpf.Last().Line, t.File.Text))
	case *tsf.SymbolTP:
		if syms == nil {
			diags.Add(tsf.SevereNoSymbolInfo.Diagnostic(t.Pos, tpf.Last().Line, modPath))
			return 0, 0, false, diags, true
		}
		o, at, found := syms.Lookup(t.Name.Text)
		if !found {
			pos := t.Name.Pos
			if t.BadOffset != nil {
				// Found after the offset that is no number was read
				// (IBM's behaviour: "invalid number found" first).
				pos = tp.TPField.NextField
			}
			if t.RetEP != nil && t.BadOffset == nil {
				// IBM's behaviour: with RETEP TRCUST 3.05A looks for the
				// procedure's end and says so, at the line of the token
				// after RETEP, as warning 144 (sg244640_32bit.tsf of the
				// corpus read with /L=emitrep.dll).
				diags.Add(tsf.ErrNoProcEnd.Diagnostic(t.RetEP.Pos, tp.TPField.Next.Line, t.Name.Text))
				break
			}
			diags.Add(tsf.ErrSymbol.Diagnostic(pos, afterTP(tp), t.Name.Text))
			break
		}
		addr := int64(at)
		for _, o := range t.Offsets {
			addr += o.Int()
		}
		// IBM's behaviour: the offset is added modulo 2^32 (.emit-4 is
		// 1:FFFFFFFC), and an address outside the object is warned
		// (outside), not refused.
		addr &= 0xFFFFFFFF
		if t.RetEP != nil {
			// The procedure ends at the next symbol after the one named;
			// with an offset TRCUST moves that end by it too, so its
			// search window keeps its place against the tracepoint
			// (IBM's behaviour, tried with its binary: .malloc-1,RETEP
			// finds malloc's LEAVE, .fclose+4,RETEP finds nothing, the
			// window then past fclose's RET).
			end, ok, found := syms.Next(t.Name.Text, o, at)
			if !found {
				// IBM's behaviour: TRCUST 3.05A finds the end in the
				// MAP file's "Publics by Value" (lxmap.Symbols.Next);
				// when it cannot, the symbol is not found, at the line
				// of the token after RETEP, and the statement is
				// abandoned.
				diags.Add(tsf.ErrSymbol.Diagnostic(t.Name.Pos, tp.TPField.Next.Line, t.Name.Text))
				break
			}
			if !ok {
				end = 0 // the end of the object
				if code, _, err := mod.Object(o); err == nil {
					end = uint32(len(code))
				}
			}
			end += uint32(addr) - at
			// IBM's behaviour: TRCUST 3.05A reads the page of the search
			// window's start, Range bytes before the end, first, and
			// warns 138 (and 139) where that page is not the module's,
			// as for a TP (.malloc+0x5000,RETEP: "offset 607e is
			// invalid"; an end of 0: "offset ffffffee"). The window is
			// the shorter of the range and end - entry, which wraps, as
			// for the search (x86ret.ScanFunc): a procedure shorter than
			// the range has its window start at the entry (IBM's
			// behaviour, session 16: on 2ine's hello.exe, whose 18 bytes
			// of code hold every symbol, .getenv,RETEP two bytes before
			// the next symbol warns nothing, and .strspn-0x10,RETEP warns
			// "offset fffffff7", the entry).
			// The range is the search's (x86ret.Search.Span: 2 for /RS0
			// and /RS1).
			n := uint32(searchOf(search).Span())
			if l := end - uint32(addr); l < n {
				n = l
			}
			ws := end - n
			if _, err := mod.ByteAt(o, ws); err != nil {
				diags = append(diags, outside(tp, modPath, o, ws, err, tp.TPField.Next.Line)...)
			}
			ret, err := returnPoint(mod, o, uint32(addr), end, search)
			if err != nil {
				// IBM's behaviour: TRCUST 3.05A warns at the line of the
				// token after RETEP (a ',', the next statement, the end of
				// the file) and leaves the tracepoint out (of the TFF too),
				// with no error.
				d := tsf.WarnNoReturnPoint.Diagnostic(t.RetEP.Pos, tp.TPField.Next.Line, t.Name.Text)
				d.Detail = err.Error()
				diags.Add(d)
				return 0, 0, true, diags, true
			}
			addr = int64(ret)
		}
		return o, uint32(addr), true, diags, false
	}
	return 0, 0, false, diags, false
}

// outside returns warnings 138 and 139 when obj:off is not in the module
// (err from Module.ByteAt): IBM's behaviour is to warn at the line after
// the TP field and keep the tracepoint, with 0 as the original byte.
func outside(tp *tsfcheck.Tracepoint, modPath string, obj, off uint32, err error, line int) diag.List {
	var bad badObjecter
	if errors.As(err, &bad) && bad.BadObject() {
		// IBM's behaviour: an object the module does not have is 137,
		// with 139 where the module reader says (never 138).
		d := tsf.WarnObject.Diagnostic(tp.TPField.Pos, line, fmt.Sprint(obj), modPath)
		d.Detail = err.Error()
		var page invalidPager
		if errors.As(err, &page) && !page.InvalidPage() {
			return diag.List{d}
		}
		return diag.List{d, tsf.WarnPage.Diagnostic(tp.TPField.Pos, line)}
	}
	d := tsf.WarnOffset.Diagnostic(tp.TPField.Pos, line, fmt.Sprintf("%x", off), fmt.Sprint(obj))
	d.Detail = err.Error()
	var page invalidPager
	if errors.As(err, &page) && !page.InvalidPage() {
		return diag.List{d}
	}
	return diag.List{d, tsf.WarnPage.Diagnostic(tp.TPField.Pos, line)}
}

// badObjecter is a Module.ByteAt error that says whether the object is one
// the module does not have (lxmap.NoObjectError): TRCUST 3.05A warns 137.
type badObjecter interface{ BadObject() bool }

// invalidPager is a Module.ByteAt error that says whether TRCUST 3.05A
// warns 139 besides 138 (lxmap.PastPagesError); without it, it does.
type invalidPager interface{ InvalidPage() bool }

// ResolveRefused resolves the TP field tpf of the TRACE statement t, which
// the front end refused for an error after that field. TRCUST 3.05A
// resolves a TP as it reads the field (IBM's behaviour, from the
// differential harness): its messages (91, 79, 144, and 138 and 139 for an
// address outside its object) come before the statement's later error,
// and when the TP cannot be resolved (failed) that later error is never
// reported, as a statement has one error. syms must not be nil.
func ResolveRefused(t *tsf.Trace, tpf *tsf.TP, syms Symbols, mod Module, modPath string, search *x86ret.Search) (diags diag.List, failed bool) {
	if lt, ok := tpf.Target.(*tsf.LineTP); ok && lt.Line == nil && syms != nil {
		// A line number missing or invalid: with symbolic information
		// TRCUST 3.05A goes on to read it, and that error is the
		// statement's; without, severe 39 comes first (resolveTarget).
		return nil, false
	}
	tp := &tsfcheck.Tracepoint{Node: t, TPField: tpf, Target: tpf.Target}
	obj, off, ok, diags, stop := resolveTarget(tp, syms, mod, modPath, search)
	if stop || diags.Failed() {
		return diags, true
	}
	if ok {
		var untraced bool
		if _, diags, untraced = readOpcode(tp, mod, modPath, obj, off, diags); untraced {
			return diags, true
		}
	}
	return diags, false
}

// assembleRefused assembles the data statements of a refused statement
// that come before its first error, as TRCUST 3.05A does as it reads them
// (IBM's behaviour: "RPN stack limit of 16 exceeded" for a REGS before an
// error later in the statement): when one fails, its error is the
// statement's (failed), at offset at.
func assembleRefused(rf *Refused, syms Symbols, modPath string) (ds diag.List, failed bool, at int) {
	tp := *rf.Point
	tp.Data = nil
	for _, d := range rf.Point.Data {
		if d.Field.Position().Offset < rf.Before {
			tp.Data = append(tp.Data, d)
		}
	}
	_, ds = assemble(&tp, syms, modPath)
	if ds.Failed() {
		at = math.MaxInt
		for _, d := range ds {
			if d.Severity >= diag.Error {
				at = min(at, d.Pos.Offset)
			}
		}
		return append(rf.Diags, ds...), true, at
	}
	return rf.Diags, false, 0
}

// returnPoint finds the RETEP point of the procedure at obj:entry, which
// ends before end (0: the end of the object), as TRCUST 3.05A finds it: a
// search of the bytes before the procedure's end for a return in the forms
// the match criteria allow (package lower/x86ret, Scan: IBM's behaviour,
// measured with its binary; the oracle's d54, x_r01 and x_r02 agree).
func returnPoint(mod Module, obj, entry, end uint32, search *x86ret.Search) (uint32, error) {
	code, _, err := mod.Object(obj)
	var bad badObjecter
	if err != nil && !(errors.As(err, &bad) && bad.BadObject()) {
		return 0, err
	}
	// An object the module does not have is searched all the same, as
	// one of no bytes read through the page buffer (IBM's behaviour,
	// session 19: sig32 at 3:9A in a MAP file written for emitrep.dll,
	// which has 2 objects, finds a LEAVE at 3:2C9; fresh seed 1520707).
	s := searchOf(search)
	// The window is read as TRCUST reads it, through its page buffer
	// (Module.ByteAt), and may pass the object's size when a TP offset
	// moved the procedure's end there (x86ret.ScanFunc).
	size := max(int64(len(code)), int64(int32(end)))
	read := func(i int64) byte {
		b, _ := mod.ByteAt(obj, uint32(i))
		return b
	}
	return x86ret.ScanFunc(read, size, entry, end, s)
}

// searchOf returns the RETEP search of a compile: search, or TRCUST's
// default.
func searchOf(search *x86ret.Search) x86ret.Search {
	if search != nil {
		return *search
	}
	return x86ret.DefaultSearch
}

// afterTP returns the line TRCUST names for a TP symbol: it looks the
// symbol up once it has read the token after the TP field (to see whether
// RETEP follows), so the line of the next field, or the end of the
// statement.
func afterTP(tp *tsfcheck.Tracepoint) int {
	if tp.TPField != nil && tp.TPField.NextField.Line > 0 {
		return tp.TPField.NextField.Line
	}
	fields := tp.Node.Fields
	for i, f := range fields {
		if f == tsf.Field(tp.TPField) && i+1 < len(fields) {
			return fields[i+1].Position().Line
		}
	}
	return tp.Node.End.Line
}

// ModName returns the module name the TDF header stores: the path is
// stripped unless keepPath (TRCUST /P, oracle d44 and d44p), as TRCUST
// reads one (tsf.ModuleFile: MODNAME=./emitrep.dll is stored whole,
// a/b\c/emitrep.dll as c/emitrep.dll).
func ModName(name string, keepPath bool) string {
	if keepPath {
		return name
	}
	return tsf.ModuleFile(name)
}

// TDF links the compiled tracepoints into a trace definition file: the
// header from the module (MAXDATALENGTH, MAJOR, MODNAME, TDFID), the
// TYPELIST and GROUPLIST entries, and one record per tracepoint, sorted by
// (object, offset). Of two tracepoints at one address the first in source
// order is kept and the second gives message 105, attributed to its TRACE
// line (oracle e15). It returns nil when no record remains: TRCUST writes no
// TDF then.
func (p *Program) TDF() (*tdf.File, diag.List) {
	var diags diag.List
	m := p.Module
	f := &tdf.File{MaxDataLength: m.MaxDataLength, Major: m.Major, ModName: ModName(m.ModName, p.opt.KeepPath), TDFID: m.TDFID}
	for _, it := range m.Types {
		f.Types = append(f.Types, tdf.ListItem{Name: it.Name, ID: it.ID})
	}
	for _, it := range m.Groups {
		f.Groups = append(f.Groups, tdf.ListItem{Name: it.Name, ID: it.ID})
	}
	// The list table in the order the entries were read (IBM's behaviour).
	kinds := make([]tdf.ListKind, len(m.ListOrder))
	for i, types := range m.ListOrder {
		kinds[i] = tdf.KindGroup
		if types {
			kinds[i] = tdf.KindType
		}
	}
	f.GroupsFirst, f.ListOrder = tdf.ListLayout(kinds)
	// TRCUST 3.05A sorts the tracepoints by address with its C runtime's
	// quicksort and keeps the first of each address (IBM's behaviour):
	// which of two tracepoints at one address survives, and the order of
	// the duplicate messages, are that sort's.
	// The @STATIC tracepoints are sorted with them, with TRCUST's
	// comparator, which is not an order (crtSortByAddress; IBM's
	// behaviour: they change which duplicate survives).
	orbits, table := p.orbitBits()
	if p.keptOrbit() {
		// IBM's behaviour: the table is written only when a tracepoint
		// kept has ORBIT (a bit asked for by refused statements alone
		// writes none).
		f.Orbit = table
	}
	recs := make([]*Record, 0, len(p.Kept))
	next := 0
	for _, tp := range p.Kept {
		if tp.Static() {
			recs = append(recs, &Record{TP: tp})
			continue
		}
		recs = append(recs, &p.Records[next])
		next++
	}
	// The tracepoints dropped for a duplicate minor code stay in the
	// array, where they sort as @STATIC ones do, and are not written
	// (IBM's behaviour, tried with its binary on 480 generated programs
	// of two to six tracepoints sharing minor codes and addresses: every
	// one fits, against 461 when they leave the array; fresh seed
	// 942329).
	out := make(map[*Record]bool, len(p.dropped))
	if len(p.dropped) > 0 {
		for i := range p.dropped {
			out[&p.dropped[i]] = true
			recs = append(recs, &p.dropped[i])
		}
		slices.SortStableFunc(recs, func(a, b *Record) int { return cmp.Compare(a.TP.Pos.Offset, b.TP.Pos.Offset) })
	}
	// The array TRCUST sorts by address is the one it sorted by minor
	// code before (DedupeMinors): IBM's behaviour.
	// crtSortByKey makes crtSort's order without its quadratic time on
	// tracepoints in order.
	crtSortByKey(len(recs), func(i int) uint64 { return uint64(recs[i].TP.Minor) },
		func(i, j int) { recs[i], recs[j] = recs[j], recs[i] })
	key := func(r *Record) uint64 {
		if r.TP.Static() || out[r] {
			return math.MaxUint64
		}
		return uint64(r.Object)<<32 | uint64(r.Offset)
	}
	crtSortByAddress(len(recs), func(i int) uint64 { return key(recs[i]) },
		func(i, j int) { recs[i], recs[j] = recs[j], recs[i] })
	p.StaticOrbits = staticOrbits(p.Kept, orbits)
	for _, r := range recs {
		if r.TP.Static() || out[r] {
			continue
		}
		if len(f.Tracepoints) > 0 {
			if last := f.Tracepoints[len(f.Tracepoints)-1]; last.Object == r.Object && last.Offset == r.Offset {
				// In lower-case hex, as TRCUST 3.05A prints it (IBM's behaviour).
				d := tsf.ErrDupTPAddress.Diagnostic(r.TP.TPField.Pos, r.TP.Pos.Line, fmt.Sprintf("%08x:%08x", r.Object, r.Offset))
				diags.Add(d)
				continue
			}
		}
		rpn := r.RPN
		if o := r.TP.Orbit; o != nil && (tsfcheck.NewBit(o) || tsfcheck.SameBit(o)) {
			rpn = setOrbit(rpn, orbits[o])
		}
		f.Tracepoints = append(f.Tracepoints, tdf.Tracepoint{
			TypeMask: r.TP.TypeMask, Group: r.TP.Group, Object: r.Object, Offset: r.Offset,
			Minor: r.TP.Minor, Major: m.Major, Opcode: r.Opcode, RPN: rpn,
		})
	}
	if len(f.Tracepoints) == 0 && p.DynamicDuplicates == 0 {
		// A TDF without tracepoints is written only when duplicate minor
		// codes took them all (IBM's behaviour; see TDFLost).
		return nil, diags
	}
	f.SortByAddress()
	if len(f.ModName) >= tdf.ModNameSize {
		d := tsf.FatalNameTooLong.Diagnostic(m.ModNamePos, 0, f.ModName)
		d.Detail = fmt.Sprintf("the TDF header holds at most %d bytes", tdf.ModNameSize-1)
		diags.Add(d)
		return nil, diags
	}
	return f, diags
}

// Build runs Compile and Program.TDF and returns the TDF (nil when none is
// written) and all diagnostics; it stops after Compile when that reports
// an error of severity severe or worse.
func Build(m *tsfcheck.Module, syms Symbols, mod Module, opt Options) (*tdf.File, *Program, diag.List) {
	p, diags := Compile(m, syms, mod, opt)
	if diags.Worst() >= diag.Severe {
		return nil, p, diags
	}
	f, more := p.TDF()
	return f, p, append(diags, more...)
}

// FileName returns the name of the TDF file TRCUST writes: given, the
// name on the command line after the TSF, as it stands when it has an
// extension (oracle d46: other.tdf) and with ".TDF" added when it has none
// (d46b: other.TDF); without one, the TSF's name with its extension
// replaced by ".TDF" (d01.tsf gives d01.TDF).
func FileName(tsfName, given string) string {
	if given != "" {
		if filepath.Ext(given) == "" {
			return given + ".TDF"
		}
		return given
	}
	return strings.TrimSuffix(tsfName, filepath.Ext(tsfName)) + ".TDF"
}
