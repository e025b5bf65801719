package lxmap

import (
	"testing"

	"github.com/tracekit/tracekit/grammar/mapfile"
)

// TestSyntheticMap runs without the shared corpus: on the hand-written wlink
// MAP of grammar/mapfile's testdata (synthetic), every public symbol with an
// address is found by Lookup where TRCUST finds it (or not at all, marked), Symbol names it (or a name at
// the same address) with the distance from it, and Next steps from each
// address to the following one of the same object.
func TestSyntheticMap(t *testing.T) {
	m, _, err := mapfile.ParseFile("../../../grammar/mapfile/testdata/synthetic_wlink.map")
	if err != nil {
		t.Fatal(err)
	}
	s := NewSymbols(m, false)
	if len(s.byAddr) < 3 {
		t.Fatalf("only %d public symbols with an address", len(s.byAddr))
	}
	// Lookup finds what TRCUST finds: the first line of an address and a
	// name. wlink marks a symbol referenced only locally (+) or not at all
	// (*) right after its address, which TRCUST reads as the name.
	first := map[string]mapfile.Addr{}
	for _, n := range m.Names {
		if _, ok := first[n.Name]; !ok {
			first[n.Name] = n.Addr
		}
	}
	for name, found := range map[string]bool{"TpInit_": true, "tp_helper_": false, "_tp_unused": false, "+": true} {
		if _, _, ok := s.Lookup(name); ok != found {
			t.Errorf("Lookup(%q) found %v, want %v", name, ok, found)
		}
	}
	for _, p := range s.byAddr {
		obj, off := uint32(p.Addr.Seg), p.Addr.Off
		at, atOK := first[p.Name]
		o, f, ok := s.Lookup(p.Name)
		if ok != atOK || ok && (o != uint32(at.Seg) || f != at.Off) {
			t.Errorf("Lookup(%q) = %d:%#x %v, want %v %v", p.Name, o, f, ok, at, atOK)
		}
		if !ok {
			continue
		}
		name, dist, ok := s.Symbol(obj, off+3)
		if o, f, _ := s.Lookup(name); !ok || dist < 3 || o != obj || f+dist != off+3 {
			t.Errorf("Symbol(%d:%#x) = %q+%d %v", obj, off+3, name, dist, ok)
		}
		// A wlink map has no "Publics by Value": TRCUST finds no end of
		// a procedure for RETEP there.
		if _, _, found := s.Next(p.Name, obj, off); found {
			t.Errorf("Next(%q) found an end in a wlink map", p.Name)
		}
	}
	if _, _, ok := s.Lookup("no_such_symbol"); ok {
		t.Error("Lookup found a name the map does not hold")
	}
	if _, _, ok := s.Symbol(0x7FFF, 0); ok {
		t.Error("Symbol named an address in an object the map does not have")
	}
}
