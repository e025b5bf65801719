package lxmap

import (
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
	"github.com/tracekit/tracekit/binfmt/lx"
	"github.com/tracekit/tracekit/grammar/mapfile"
)

// TestEmitrep resolves names and reads bytes of the oracle's DLL.
func TestEmitrep(t *testing.T) {
	f, err := lx.Open(corpus.Path(t, "corpus", "os2", "lx", "osfree_emitrep.dll"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, _, err := mapfile.ParseFile(corpus.Path(t, "corpus", "os2", "lx", "osfree_emitrep.map"))
	if err != nil {
		t.Fatal(err)
	}
	exact, fold := NewSymbols(m, false), NewSymbols(m, true)
	for _, tc := range []struct {
		s        *Symbols
		name     string
		obj, off uint32
		ok       bool
	}{
		{exact, "emit", 1, 0, true},
		{exact, "malloc", 1, 0xDC0, true},
		{exact, "errno", 2, 0xBF8, true},
		{exact, "EMIT", 0, 0, false},
		{fold, "EMIT", 1, 0, true},
		{exact, "DosWrite", 0, 0, false}, // imported
		{exact, "nosuch", 0, 0, false},
	} {
		obj, off, ok := tc.s.Lookup(tc.name)
		if obj != tc.obj || off != tc.off || ok != tc.ok {
			t.Errorf("Lookup(%q, fold %v) = %d, %#x, %v", tc.name, tc.s.IgnoreCase, obj, off, ok)
		}
	}
	for _, tc := range []struct {
		obj, off uint32
		name     string
		disp     uint32
	}{
		{1, 0, "emit", 0},
		{1, 0x307, "emit", 0x307},
		{2, 0xBF9, "errno", 1},
		{2, 0xBFC, "_pBucketArr", 0},
		{1, 0xDC0, "malloc", 0},
		{9, 0, "", 0},
	} {
		name, disp, ok := exact.Symbol(tc.obj, tc.off)
		if name != tc.name || disp != tc.disp || ok != (tc.name != "") {
			t.Errorf("Symbol(%d, %#x) = %q+%#x %v", tc.obj, tc.off, name, disp, ok)
		}
	}
	// Next: where a procedure ends, for RETEP.
	for _, tc := range []struct {
		name      string
		obj, off  uint32
		next      uint32
		ok, found bool
	}{
		{"emit", 1, 0, 0x30C, true, true},                // emit ends at ReportEmitterNewClass
		{"malloc", 1, 0xDC0, 0x1090, true, true},         // malloc at free
		{"malloc", 1, 0xDC1, 0, false, false},            // not malloc's address
		{"DosGetMessage", 1, 0x4422, 0x4440, true, true}, // object 2 follows: the end of _MSGSEG32
		{"_end", 2, 0xC6C, 0, false, false},              // the last line of the table
		{"emit", 9, 0, 0, false, false},                  // no such object
		{"nosuch", 1, 0, 0, false, false},
	} {
		next, ok, found := exact.Next(tc.name, tc.obj, tc.off)
		if next != tc.next || ok != tc.ok || found != tc.found {
			t.Errorf("Next(%s, %d, %#x) = %#x, %v, %v; want %#x, %v, %v", tc.name, tc.obj, tc.off, next, ok, found, tc.next, tc.ok, tc.found)
		}
	}
	mod := Module{File: f}
	for _, tc := range []struct {
		obj, off uint32
		b        byte
		ok       bool
	}{
		{1, 0, 0x55, true}, {1, 4, 0xEC, true}, {1, 0x307, 0xC9, true}, {2, 0xBF8, 0, true},
		{0, 0, 0, false}, {3, 0, 0, false}, {1, 0x100000, 0, false},
	} {
		b, err := mod.ByteAt(tc.obj, tc.off)
		if b != tc.b || (err == nil) != tc.ok {
			t.Errorf("ByteAt(%d, %#x) = %#x, %v", tc.obj, tc.off, b, err)
		}
	}
}

// TestExportsNext checks Lookup and Next over the module's exported names,
// the fallback without a MAP file: emitrep.dll exports emit alone, at
// 1:0, so no export follows it (the procedure runs to the end of its
// object), and a name differing in case is found only with IgnoreCase.
func TestExportsNext(t *testing.T) {
	f, err := lx.Open(corpus.Path(t, "corpus", "os2", "lx", "osfree_emitrep.dll"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	x := Exports{File: f}
	if obj, off, ok := x.Lookup("emit"); !ok || obj != 1 || off != 0 {
		t.Errorf("Lookup(emit) = %d, %#x, %v; want 1, 0", obj, off, ok)
	}
	if _, _, ok := x.Lookup("EMIT"); ok {
		t.Error("Lookup(EMIT) found without IgnoreCase")
	}
	if obj, _, ok := (Exports{File: f, IgnoreCase: true}).Lookup("EMIT"); !ok || obj != 1 {
		t.Error("Lookup(EMIT) not found with IgnoreCase")
	}
	for _, tc := range []struct{ obj, off uint32 }{{1, 0}, {1, 0x300}, {2, 0}} {
		if next, ok, _ := x.Next("", tc.obj, tc.off); ok {
			t.Errorf("Next(%d, %#x) = %#x, want none", tc.obj, tc.off, next)
		}
	}
}
