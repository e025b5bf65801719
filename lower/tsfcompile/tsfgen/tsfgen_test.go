package tsfgen

import (
	"bytes"
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
		"map-synthetic", "retep-unknown", "edit:cut", "edit:ctrl-z", "edit:nul", "edit:cr"} {
		if seen[f] == 0 {
			t.Errorf("feature %s never generated", f)
		}
	}
}
