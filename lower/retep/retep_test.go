package retep

import (
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
	"github.com/tracekit/tracekit/binfmt/lx"
)

// TestEmitrep checks the rule against the oracle: TRCUST 3.05A put the
// RETEP tracepoint of emit on the LEAVE at emit+0x307 (case d54). malloc and
// free end the same way; their points are checked too.
func TestEmitrep(t *testing.T) {
	f, err := lx.Open(corpus.Path(t, "corpus", "os2", "lx", "osfree_emitrep.dll"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	code, err := f.ReadObject(1, 0, int(f.Objects[0].VirtualSize))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name        string
		entry, want uint32
	}{
		{"emit", 0x0, 0x307}, // the oracle's d54
		{"malloc", 0xDC0, 0xDF5},
		{"free", 0x1090, 0x1198},
	} {
		got, err := ReturnPoint(code, tc.entry, 32)
		if err != nil || got != tc.want {
			t.Errorf("%s: 0x%X, %v; want 0x%X", tc.name, got, err, tc.want)
		}
		if code[got] != 0xC9 {
			t.Errorf("%s: byte 0x%02X at the return point, want LEAVE", tc.name, code[got])
		}
	}
}

func TestEpilogues(t *testing.T) {
	for _, tc := range []struct {
		name string
		code []byte
		mode int
		want uint32
		bad  bool
	}{
		{"leave", []byte{0x55, 0x8B, 0xEC, 0x90, 0xC9, 0xC3}, 32, 4, false},
		{"mov pop", []byte{0x55, 0x8B, 0xEC, 0x8B, 0xE5, 0x5D, 0xC3}, 32, 3, false},
		{"pop", []byte{0x55, 0x90, 0x5D, 0xC2, 0x08, 0x00}, 32, 2, false},
		{"bare ret", []byte{0x90, 0x90, 0xC3}, 32, 2, false},
		{"16-bit retf", []byte{0x55, 0x8B, 0xEC, 0x8B, 0xE5, 0x5D, 0xCB}, 16, 3, false},
		{"0x82 alias", []byte{0x82, 0x78, 0x04, 0x0A, 0xC9, 0xC3}, 32, 4, false},
		{"no return", []byte{0x90, 0x90}, 32, 0, true},
		{"undecodable", []byte{0x0F, 0xFF, 0xC3}, 32, 0, true},
		{"bad mode", []byte{0xC3}, 64, 0, true},
	} {
		got, err := ReturnPoint(tc.code, 0, tc.mode)
		if (err != nil) != tc.bad || got != tc.want {
			t.Errorf("%s: 0x%X, %v", tc.name, got, err)
		}
	}
	if _, err := ReturnPoint([]byte{0xC3}, 5, 32); err == nil {
		t.Error("entry outside the code accepted")
	}
}

func FuzzReturnPoint(f *testing.F) {
	f.Add([]byte{0x55, 0x8B, 0xEC, 0xC9, 0xC3}, uint32(0))
	f.Fuzz(func(t *testing.T, code []byte, entry uint32) {
		off, err := ReturnPoint(code, entry, 32)
		if err == nil && int(off) >= len(code) {
			t.Fatalf("return point 0x%X outside %d bytes", off, len(code))
		}
	})
}
