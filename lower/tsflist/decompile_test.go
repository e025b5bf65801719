package tsflist

import (
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/binfmt/tdf"
)

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDecompile reads programs back into statements, and says where it
// stops for the programs no TSF gives.
func TestDecompile(t *testing.T) {
	for _, tc := range []struct {
		rpn   string
		want  string // statements joined by "; "
		errAt int64  // -1: no error
	}{
		{"00 21 01 03 14 01", "REGS=(EAX); REGS=(BX)", -1},
		{"03 00 21 02", "REGS=(EAX,EBX)", -1},
		{"14 00 00 14 01", "REGS=(); REGS=(AX)", -1}, // REGS=(): IBM writes 14 00
		{"21 00", "", 0}, // a 32-bit log of none: no TSF gives it
		{"10 0400 1b 02000000 1a f80b0000 16 1c 1a 04000000 16 1c 22", "MEM32=(.obj2_00000BF8,INDIRECT*+4*,4)", -1},
		{"10 0400 05 1a 08000000 16 1a 04000000 16 22", "MEM32=(FEBP+8+(4),DIRECT,4)", -1},
		{"10 0200 1b 02000000 1c 1f 10 0400 16 15", "MEM32=(.obj2_00000000+(4),IS,2)", -1},
		{"10 0400 0b 10 0400 15", "MEM=(RDS+4,DIRECT,4)", -1},
		{"10 0400 0b 10 0000 15", "MEM=(RDS,DIRECT,4)", -1},
		{"11 02 10 0001 12 11 02 10 0001 15", "LEN=(obj2_00000100,DIRECT); MEM=(.obj2_00000100,DIRECT,LEN)", -1},
		{"00 21 01 08 21 01", "REGS=(EAX)", 3},                                   // ES has no 32-bit name
		{"00 21 01 16", "REGS=(EAX)", 3},                                         // a lone add
		{"10 0000 05 22", "", 0},                                                 // length 0
		{"10 0400 1b 01000000 1c 1c 1f 15", "MEM32=(.obj1_00000000,IS**,4)", -1}, // IS takes a * chain
		{"1b 01000000 1a 04000000 16 1c 0b 07 15", "", 0},                        // a flat symbolic LEN before a MEM
		{"10 0400 05 04 16 22", "", 0},                                           // ESP is no index register
		{"05 1c 1a 04000000 16 05 22", "", 0},                                    // a LEN without its closing fetch
		{"10 0400 05 15", "", 0},                                                 // a flat address logged as segmented
		{"1a 01000000 32 0100 10 0400 05 ff", "ORBIT=(1,1)", 12},                 // bad byte
		{"10 0400 05 1c", "", 0},                                                 // no log
		// Two adds after the only fetch: TRCUST assembles no such pair
		// (x_b04); with two levels the second add is the (n) term.
		{"10 0400 05 1c 1a 06000000 16 1a 04000000 16 22", "", 0},
		{"10 0400 05 1c 1c 1a 06000000 16 1a 04000000 16 22", "MEM32=(FEBP+(4),INDIRECT**+6,4)", -1},
	} {
		stmts, err := Decompile(unhex(t, tc.rpn), nil)
		var texts []string
		for _, s := range stmts {
			texts = append(texts, s.Text())
		}
		if got := strings.Join(texts, "; "); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.rpn, got, tc.want)
		}
		var fe *tdf.FormatError
		switch {
		case tc.errAt < 0 && err != nil:
			t.Errorf("%s: %v", tc.rpn, err)
		case tc.errAt >= 0 && (!errors.As(err, &fe) || fe.Off != tc.errAt):
			t.Errorf("%s: got %v, want an error at %d", tc.rpn, err, tc.errAt)
		}
	}
	stmts, _ := Decompile(unhex(t, "00 21 01 1b 02000000 1c 1b 02000000 22"), nil)
	if len(stmts) != 3 || stmts[1].Off != 3 || stmts[1].End != 9 || stmts[2].Off != 9 || stmts[2].End != 15 {
		t.Errorf("statement ranges %+v", stmts)
	}
}

// FuzzDecompile: on any program, Decompile returns statements in order,
// each a non-empty range of the program, never a panic.
func FuzzDecompile(f *testing.F) {
	f.Add(unhex(f, "00 21 01 1b 02000000 1c 1b 02000000 22"))
	f.Add(unhex(f, "10 0400 05 1c 1a 06000000 16 1a 04000000 16 22"))
	f.Fuzz(func(t *testing.T, rpn []byte) {
		stmts, _ := Decompile(rpn, nil)
		end := 0
		for _, s := range stmts {
			if s.Off < end || s.End <= s.Off || s.End > len(rpn) {
				t.Fatalf("statement %+v after %d in %d bytes", s, end, len(rpn))
			}
			if s.Field == nil || s.Text() == "?" {
				t.Fatalf("statement %+v has no printable field", s)
			}
			end = s.End
		}
	})
}
