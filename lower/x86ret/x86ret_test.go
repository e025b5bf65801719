package x86ret

import (
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
	"github.com/tracekit/tracekit/binfmt/lx"
)

// TestEmitrep checks the rule against every RETEP tracepoint of the oracle:
// TRCUST 3.05A's return points for ten procedures of emitrep.dll (d54,
// x_r01, x_r02), each the LEAVE before the last return of the procedure,
// which ends at the next public symbol of the MAP file.
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
		name             string
		entry, end, want uint32
	}{
		{"emit", 0x0, 0x30C, 0x307},          // d54
		{"malloc", 0xDC0, 0x1090, 0x1080},    // x_r01, the last of five returns
		{"free", 0x1090, 0x124C, 0x123D},     // x_r01, the last of two
		{"getenv", 0x3FEC, 0x40E4, 0x40D5},   // x_r01, the last of three
		{"fclose", 0x3804, 0x388C, 0x387D},   // x_r01, the last of two
		{"strspn", 0x2384, 0x23C0, 0x23BD},   // x_r02
		{"wctomb", 0x34D0, 0x35A4, 0x3594},   // x_r02, the last of five
		{"exit", 0x1558, 0x15D0, 0x15C1},     // x_r02
		{"fflush", 0x388C, 0x3914, 0x3904},   // x_r02
		{"wcstombs", 0x4278, 0x43E8, 0x43D9}, // x_r02, the last of four
	} {
		got, err := ReturnPoint(code, tc.entry, tc.end, 32)
		if err != nil || got != tc.want {
			t.Errorf("%s: 0x%X, %v; want 0x%X", tc.name, got, err, tc.want)
			continue
		}
		if code[got] != 0xC9 {
			t.Errorf("%s: byte 0x%02X at the return point, want LEAVE", tc.name, code[got])
		}
	}
}

// TestLastReturn checks that the last return of the range is taken, that
// the range ends where it is told to, and each epilogue form before it.
func TestLastReturn(t *testing.T) {
	//  0: 55        push ebp
	//  1: 8B EC     mov ebp,esp
	//  3: 74 02     je +2
	//  5: C9        leave         (an early return)
	//  6: C3        ret
	//  7: 8B E5     mov esp,ebp   (the main epilogue)
	//  9: 5D        pop ebp
	// 10: C3        ret
	// 11: 55 8B EC 5D C3           (the next procedure)
	code := []byte{0x55, 0x8B, 0xEC, 0x74, 0x02, 0xC9, 0xC3, 0x8B, 0xE5, 0x5D, 0xC3, 0x55, 0x8B, 0xEC, 0x5D, 0xC3}
	for _, tc := range []struct {
		entry, end, want uint32
	}{
		{0, 11, 7},  // ends at the next symbol: the MOV of the last epilogue
		{0, 7, 5},   // a symbol at 7 makes the early return the last one
		{0, 0, 14},  // no symbol follows: the code's last return (POP EBP)
		{11, 0, 14}, // the next procedure alone
	} {
		got, err := ReturnPoint(code, tc.entry, tc.end, 32)
		if err != nil || got != tc.want {
			t.Errorf("entry %d end %d: %d, %v; want %d", tc.entry, tc.end, got, err, tc.want)
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
		got, err := ReturnPoint(tc.code, 0, 0, tc.mode)
		if (err != nil) != tc.bad || got != tc.want {
			t.Errorf("%s: 0x%X, %v", tc.name, got, err)
		}
	}
	if _, err := ReturnPoint([]byte{0xC3}, 5, 0, 32); err == nil {
		t.Error("entry outside the code accepted")
	}
}

func FuzzReturnPoint(f *testing.F) {
	f.Add([]byte{0x55, 0x8B, 0xEC, 0xC9, 0xC3}, uint32(0), uint32(0))
	f.Fuzz(func(t *testing.T, code []byte, entry, end uint32) {
		off, err := ReturnPoint(code, entry, end, 32)
		if err == nil && (int(off) >= len(code) || off < entry || end > entry && off >= end) {
			t.Fatalf("return point 0x%X outside %d bytes", off, len(code))
		}
	})
}
