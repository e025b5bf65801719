package tsfgen

import (
	"fmt"
	"strings"
)

// switches adds to a compile run's command line, at random places after
// the TSF name, the switches of TRCUST's usage screen that the first
// generator did not give and the mistakes TRCUST reports (IBM's behaviour,
// see cmd/trcust): /L=, /NODE, /NOLN, /RMn, /RSnnn, /RP in any case and
// with - for /; an unknown switch, a malformed one, an extra file argument,
// a repeated switch, a MAP file that is not there. They draw from g.sw,
// not g.r: the rest of the case is what the seed gave before they existed.
func (g *gen) switches(args []string) []string {
	if g.sw.Float64() >= 0.3 {
		return args
	}
	r := g.sw
	one := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	lead := func() string {
		if r.Float64() < 0.15 {
			return "-"
		}
		return "/"
	}
	cased := func(s string) string {
		if r.Float64() < 0.2 {
			return strings.ToLower(s)
		}
		return s
	}
	var add []string
	for k := 1 + r.IntN(3); k > 0; k-- {
		switch r.IntN(10) {
		case 0:
			add = append(add, lead()+cased(one("NODE", "NOLN")))
			g.feat("arg:NODE")
		case 1, 2:
			n := r.IntN(8)
			if r.Float64() < 0.1 {
				add = append(add, lead()+cased(one("RM8", "RM", "RM00", "RMX")))
				g.feat("fault:switch-bad")
				break
			}
			add = append(add, lead()+cased(fmt.Sprintf("RM%d", n)))
			g.feat("arg:RM")
		case 3, 4:
			if r.Float64() < 0.15 {
				add = append(add, lead()+cased(one("RS257", "RS999", "RS-1", "RS5x", "RSabc", "RS65535")))
				g.feat("fault:switch-bad")
				break
			}
			add = append(add, lead()+cased("RS"+one("0", "4", "8", "16", "17", "18", "20", "32", "64", "128", "200", "256", "0x20", "010", "")))
			g.feat("arg:RS")
		case 5:
			add = append(add, lead()+cased(one("RP", "RP", "RPX")))
			g.feat("arg:RP")
		case 6:
			if g.dynamic {
				add = append(add, lead()+cased("L=")+one("emitrep.dll", "EMITREP.DLL", ".\\emitrep.dll", "nosuch.dll", "emitrep"))
				g.feat("arg:L")
			}
		case 7:
			add = append(add, lead()+cased(one("X", "Q", "?", "H", "PX", "W3", "W01", "NOD", "M=", "L=", "C=", "M")))
			g.feat("fault:switch-bad")
		case 8:
			if len(args) == 1 || strings.HasPrefix(args[1], "/") || strings.HasPrefix(args[1], "-") {
				add = append(add, one("out.tdf", "x.tdf"))
			}
			add = append(add, one("extra", "MORE.TSF"))
			g.feat("fault:arg-extra")
		case 9:
			if r.Float64() < 0.5 {
				add = append(add, lead()+cased("M=")+one("nosuch.map", "other.map"))
				g.feat("arg:map-missing")
			} else if len(args) > 1 {
				add = append(add, args[1+r.IntN(len(args)-1)])
				g.feat("arg:repeat")
			}
		}
	}
	for _, a := range add {
		i := 1 + r.IntN(len(args))
		args = append(args[:i], append([]string{a}, args[i:]...)...)
	}
	return args
}
