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

// mapFile writes a MAP file for emitrep.dll in place of its own, drawn
// from g.mp: the LINK386 layout with the symbols the generator names
// placed anywhere in the module's two objects (now and then in an object
// it does not have, or past an object's pages), and the lines TRCUST
// reads in its own way: group lines, exports with aliases, a name listed
// twice, in two cases, or on a line of its own before the tables, names
// that start with a digit, import lines, a symbol left out.
func (g *gen) mapFile() []byte {
	r := g.mp
	nl := pickFrom(r, "\r\n", "\n")
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+nl, args...) }
	// addr is a place for a symbol: object 1 (code, 0x4440 bytes) or 2
	// (data, 0xC6C), at times past an object's pages or in object 3.
	addr := func(code bool) (int, int) {
		switch r.IntN(25) {
		case 0:
			g.feat("map-object-missing")
			return 3, r.IntN(0x300)
		case 1:
			g.feat("map-past-pages")
			return 1, 0x4440 + r.IntN(0x2000)
		}
		if code {
			return 1, r.IntN(0x4440)
		}
		return 2, r.IntN(0xC6C)
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
	line(" emitrep")
	line("")
	line(" Start         Length     Name                   Class")
	line(" 0001:00000000 000004410H CODE32                 CODE 32-bit")
	line(" 0002:00000000 0000008B0H DATA32                 DATA 32-bit")
	line("")
	line(" Origin   Group")
	line(" 0002:0   DGROUP")
	if r.IntN(2) == 0 {
		line(" 0001:%X  CGROUP", r.IntN(0x400))
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
		switch r.IntN(12) {
		case 0:
			g.feat("map-symbol-missing")
			continue
		case 1:
			// Listed twice: the first line wins.
			o, f := addr(s.obj != 2)
			line(" %04X:%08X       %s", o, f, s.name)
			g.feat("map-symbol-twice")
		case 2:
			// Another case first: /I finds it.
			o, f := addr(s.obj != 2)
			line(" %04X:%08X       %s", o, f, strings.ToUpper(s.name))
			g.feat("map-symbol-case")
		case 3:
			line(" %04X:%08X       %d%s", s.obj, s.off+1, r.IntN(10), s.name)
			g.feat("map-digit-name")
		case 4:
			line(" %04X:%08X  Imp  %-20s (DOSCALLS.%d)", pickFrom(r, 0, 1), r.IntN(0x100), s.name+"_imp", r.IntN(400))
			g.feat("map-import")
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
	line("Program entry point at 0001:00000648")
	return []byte(b.String())
}
