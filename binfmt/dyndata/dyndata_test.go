package dyndata

import (
	"bytes"
	"testing"
)

func TestStatus(t *testing.T) {
	for _, tc := range []struct {
		s          Status
		name       string
		known, bad bool
		flat       bool
	}{
		{StatusValid, "valid", true, false, false},
		{StatusString, "string", true, false, false},
		{StatusInvalidSelector, "invalid selector", true, true, false},
		{StatusSelectorNotPresent, "selector not present", true, true, false},
		{StatusPageNotPresent, "page not present", true, true, true},
		{0x42, "status 0x42", false, false, false},
	} {
		if tc.s.String() != tc.name || tc.s.Known() != tc.known || tc.s.Bad() != tc.bad || tc.s.Flat() != tc.flat {
			t.Errorf("%#x: %q known %v bad %v flat %v", byte(tc.s), tc.s, tc.s.Known(), tc.s.Bad(), tc.s.Flat())
		}
	}
}

// TestPrefix checks the bytes of a prefix (the STDA reference: status, then
// the length little-endian) both ways.
func TestPrefix(t *testing.T) {
	p := Prefix{Status: StatusSelectorNotPresent, Length: PointerSize}
	b := p.Append([]byte{0xAA})
	if want := []byte{0xAA, 0xFE, 0x04, 0x00}; !bytes.Equal(b, want) {
		t.Fatalf("Append: % x, want % x", b, want)
	}
	got, ok := ParsePrefix(b[1:])
	if !ok || got != p {
		t.Errorf("ParsePrefix: %+v %v", got, ok)
	}
	if _, ok := ParsePrefix([]byte{0, 1}); ok {
		t.Error("a 2-byte prefix parsed")
	}
	if got, _ := ParsePrefix([]byte{0x01, 0x34, 0x12, 0x99}); got != (Prefix{StatusString, 0x1234}) {
		t.Errorf("ParsePrefix: %+v", got)
	}
}

func FuzzParsePrefix(f *testing.F) {
	f.Add([]byte{0xFD, 0x04, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		p, ok := ParsePrefix(b)
		if ok != (len(b) >= PrefixSize) {
			t.Fatalf("ok %v for %d bytes", ok, len(b))
		}
		if ok && !bytes.Equal(p.Append(nil), b[:PrefixSize]) {
			t.Fatalf("% x reads as %+v, which writes % x", b[:PrefixSize], p, p.Append(nil))
		}
	})
}
