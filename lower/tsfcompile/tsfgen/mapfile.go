package tsfgen

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// pickFrom returns one of xs, drawn from r.
func pickFrom[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }

// module is an LX module a run uses as emitrep.dll, as far as its MAP file
// needs: the name LINK386 writes at the top, its code and data objects (the
// object's number, its virtual size and the length the MAP file gives).
type module struct {
	file, name string
	code, data object
}

// object is an object of a module.
type object struct{ num, size, length int }

// emitrep is osFree's emitrep.dll, the module of every dynamic case
// (../shared/corpus/os2/lx/osfree_emitrep.dll and its MAP file).
var emitrep = module{"", "emitrep", object{1, 0x4440, 0x4410}, object{2, 0xC6C, 0x8B0}}

// otherModules are the modules of the corpus beside emitrep.dll
// (../shared/corpus/os2/lx, from icculus/2ine), with their object tables
// as binfmt/lx reads them: code of a few bytes to 4 KiB, data objects of
// 64 KiB with a page of a few hundred bytes (the rest zero-filled), and
// in 2ine_hello.exe the code in object 2; and the two 16-bit NE programs,
// whose segments binfmt/ne reads (the length stored, the allocation).
var otherModules = []module{
	{"2ine_hello.exe", "hello", object{2, 18, 18}, object{1, 0x8000, 0x27}},
	{"2ine_testbeep.exe", "testbeep", object{1, 1575, 1575}, object{2, 66000, 66000}},
	{"2ine_testpm.exe", "testpm", object{1, 4002, 4002}, object{2, 66064, 66064}},
	{"2ine_hello16.exe", "hello16", object{1, 940, 940}, object{2, 144, 96}},
	{"2ine_testargv16.exe", "testargv16", object{1, 11854, 11854}, object{2, 1360, 1000}},
}

// mapFile writes a MAP file for the module m in place of its own (for
// emitrep.dll) or as the module has none, drawn from g.mp: the LINK386
// layout with the symbols the generator names placed anywhere in the
// module's two objects (now and then in an object it does not have, or
// past an object's pages), and the lines TRCUST reads in its own way:
// group lines, exports with aliases, a name listed twice, in two cases, or
// on a line of its own before the tables, names that start with a digit,
// import lines, a symbol left out.
func (g *gen) mapFile(m module) []byte {
	r := g.mp
	nl := pickFrom(r, "\r\n", "\n")
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+nl, args...) }
	// addr is a place for a symbol: in the code or the data object, at
	// times past the code object's pages or in object 3.
	addr := func(code bool) (int, int) {
		switch r.IntN(25) {
		case 0:
			g.feat("map-object-missing")
			return 3, r.IntN(0x300)
		case 1:
			g.feat("map-past-pages")
			return m.code.num, m.code.size + r.IntN(0x2000)
		}
		if code {
			return m.code.num, r.IntN(m.code.size)
		}
		return m.data.num, r.IntN(m.data.size)
	}
	type sym struct {
		name     string
		obj, off int
	}
	var syms []sym
	for _, n := range codeSyms {
		o, f := addr(true)
		syms = append(syms, sym{n, o, f})
	}
	for _, n := range dataSyms {
		o, f := addr(false)
		syms = append(syms, sym{n, o, f})
	}
	r.Shuffle(len(syms), func(i, j int) { syms[i], syms[j] = syms[j], syms[i] })
	if r.IntN(4) == 0 {
		// A line before the tables.
		s := syms[r.IntN(len(syms))]
		line(" %04X:%08X %s", s.obj, s.off, s.name)
		g.feat("map-early-line")
	}
	line("")
	line(" %s", m.name)
	line("")
	line(" Start         Length     Name                   Class")
	segs := []string{
		fmt.Sprintf(" %04X:00000000 %09XH CODE32                 CODE 32-bit", m.code.num, m.code.length),
		fmt.Sprintf(" %04X:00000000 %09XH DATA32                 DATA 32-bit", m.data.num, m.data.length),
	}
	if m.data.num < m.code.num {
		segs[0], segs[1] = segs[1], segs[0]
	}
	for _, s := range segs {
		line("%s", s)
	}
	line("")
	line(" Origin   Group")
	line(" %04X:0   DGROUP", m.data.num)
	if r.IntN(2) == 0 {
		line(" %04X:%X  CGROUP", m.code.num, r.IntN(min(0x400, m.code.size)))
		g.feat("map-group")
	}
	line(" 0000:0   FLAT")
	line("")
	line(" Address       Export                  Alias")
	line("")
	for k := r.IntN(3); k > 0; k-- {
		s := syms[r.IntN(len(syms))]
		alias := syms[r.IntN(len(syms))].name
		line(" %04X:%08X %-23s %s", s.obj, s.off, "exp_"+s.name, alias)
		g.feat("map-export-alias")
	}
	line("")
	line("  Address         Publics by Name")
	line("")
	for _, s := range syms {
		switch r.IntN(13) {
		case 0:
			g.feat("map-symbol-missing")
			continue
		case 1:
			// Listed twice: the first line wins.
			o, f := addr(s.obj != m.data.num)
			line(" %04X:%08X       %s", o, f, s.name)
			g.feat("map-symbol-twice")
		case 2:
			// Another case first: /I finds it.
			o, f := addr(s.obj != m.data.num)
			line(" %04X:%08X       %s", o, f, strings.ToUpper(s.name))
			g.feat("map-symbol-case")
		case 3:
			line(" %04X:%08X       %d%s", s.obj, s.off+1, r.IntN(10), s.name)
			g.feat("map-digit-name")
		case 4:
			line(" %04X:%08X  Imp  %-20s (DOSCALLS.%d)", pickFrom(r, 0, 1), r.IntN(0x100), s.name+"_imp", r.IntN(400))
			g.feat("map-import")
		case 5:
			if r.IntN(3) == 0 {
				// A line about TRCUST's limit of 258 bytes (a longer
				// one ends what it reads of the file).
				text := fmt.Sprintf(" %04X:%08X       %s", s.obj, s.off, s.name)
				line("%s%s", text, strings.Repeat(" ", max(0, 250+r.IntN(16)-len(text))))
				g.feat("map-long-line")
				continue
			}
			// A NUL ends the line for TRCUST.
			line(" %04X:%08X       %s\x00%s", s.obj, s.off, s.name, pickFrom(r, "junk", "", " x"))
			g.feat("map-nul")
			continue
		}
		sep := pickFrom(r, "       ", "\t", " ")
		line(" %04X:%08X%s%s", s.obj, s.off, sep, s.name)
	}
	line("")
	line("  Address         Publics by Value")
	line("")
	byValue := slices.Clone(syms)
	slices.SortStableFunc(byValue, func(a, b sym) int { return cmp.Or(cmp.Compare(a.obj, b.obj), cmp.Compare(a.off, b.off)) })
	for _, s := range byValue {
		line(" %04X:%08X       %s", s.obj, s.off, s.name)
	}
	line("")
	line("Program entry point at %04X:%08X", m.code.num, min(0x648, m.code.size-1))
	return []byte(b.String())
}
