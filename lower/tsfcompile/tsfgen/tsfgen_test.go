package tsfgen

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestDeterministic checks that a seed always gives the same case.
func TestDeterministic(t *testing.T) {
	for seed := int64(0); seed < 50; seed++ {
		a, b := Generate(seed), Generate(seed)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("seed %d: two different cases", seed)
		}
	}
}

// TestCoverage checks that a few hundred seeds reach every fault kind and
// both kinds of run, so that the generator does not silently lose a part
// of the language.
func TestCoverage(t *testing.T) {
	seen := map[string]int{}
	for seed := int64(0); seed < 10000; seed++ {
		c := Generate(seed)
		for _, f := range c.Features {
			seen[f]++
		}
		spoilt := slices.ContainsFunc(c.Features, func(f string) bool { return strings.HasPrefix(f, "edit:") })
		if c.TSF != "" && !spoilt && !bytes.Contains(bytes.ToUpper(c.Files[c.TSF]), []byte("TRACE")) {
			// (A spoilt file may lose its TRACE: a NUL put inside the
			// keyword, seed 2584.)
			t.Errorf("seed %d: no TRACE statement", seed)
		}
	}
	for _, k := range faultKinds {
		if seen["fault:"+k] == 0 {
			t.Errorf("fault %s never generated", k)
		}
	}
	for _, f := range []string{"compile", "combine", "dynamic", "static", "retep", "len", "regs", "mem", "mem32",
		"asciiz", "asciiz32", "flag-isif", "flag-indirect-chain", "fmt-P", "fmt-I", "comment-nested",
		"typelist", "grouplist", "arg:P", "arg:I", "arg:D", "arg:W", "arg:tdfname", "abortop", "removeop", "opcode",
		"usage", "arg:L", "arg:NODE", "arg:RM", "arg:RS", "arg:RP", "arg:map-missing", "arg:repeat", "fault:switch-bad", "fault:arg-extra",
		"map-synthetic", "retep-unknown", "edit:cut", "edit:ctrl-z", "edit:nul", "edit:cr", "edit:nul-string", "edit:utf16",
		"module-hello", "module-testbeep", "module-testpm", "module-hello16", "module-testargv16"} {
		if seen[f] == 0 {
			t.Errorf("feature %s never generated", f)
		}
	}
}

// TestModuleMap checks the MAP file of a case with another module than
// emitrep.dll: its segment lines give that module's objects, and the
// symbols of its "Publics by Value" table stand in the module's code or
// data object, past the code object's pages, or in object 3, as mapFile
// places them.
func TestModuleMap(t *testing.T) {
	n := 0
	for seed := int64(0); seed < 3000; seed++ {
		c := Generate(seed)
		if c.Module == "" {
			continue
		}
		n++
		i := slices.IndexFunc(otherModules, func(m module) bool { return m.file == c.Module })
		if i < 0 {
			t.Fatalf("seed %d: module %q is none of otherModules", seed, c.Module)
		}
		m := otherModules[i]
		text := strings.ReplaceAll(string(c.Files["emitrep.map"]), "\r\n", "\n")
		for _, want := range []string{
			fmt.Sprintf(" %04X:00000000 %09XH CODE32", m.code.num, m.code.length),
			fmt.Sprintf(" %04X:00000000 %09XH DATA32", m.data.num, m.data.length),
			"\n " + m.name + "\n",
		} {
			if !strings.Contains(text, want) {
				t.Fatalf("seed %d: the MAP file lacks %q:\n%s", seed, want, text)
			}
		}
		_, byValue, ok := strings.Cut(text, "Publics by Value\n\n")
		if !ok {
			t.Fatalf("seed %d: no Publics by Value", seed)
		}
		for _, l := range strings.Split(byValue, "\n") {
			var obj, off int
			var name string
			if _, err := fmt.Sscanf(l, " %x:%x %s", &obj, &off, &name); err != nil {
				continue
			}
			code := slices.Contains(codeSyms, name)
			switch {
			case obj == 3:
			case code && obj == m.code.num && off < m.code.size+0x2000:
			case !code && obj == m.data.num && off < m.data.size:
			case !code && obj == m.code.num && off >= m.code.size:
			default:
				t.Errorf("seed %d: %s at %04X:%08X is outside %s's objects", seed, name, obj, off, m.file)
			}
		}
	}
	if n < 100 {
		t.Errorf("only %d cases with another module in 3,000 seeds", n)
	}
}
