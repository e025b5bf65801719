package os2strace

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	os2ast "github.com/tracekit/tracekit/ast/os2strace"
)

var base = ast.Pos{File: "t.out", Offset: 1000, Line: 7, Col: 1}

func TestParseHook(t *testing.T) {
	tests := []struct {
		line string
		want string // "type major minor high low cpu words" or "CODE@col"
	}{
		{" 102   13   29 9450:1545341324 0 fff37182 fff05c9c", "102 13 29 9450 1545341324 0 fff37182,fff05c9c"},
		{"3401   a8    3 9450:1546123683 2 -- strace.mte --", "3401 a8 3 9450 1546123683 2 --,strace.mte,--"},
		{" 100    4   89 9450:1545343975 0", "100 4 89 9450 1545343975 0 "},
		{"\t2218\ta8\t2\t254:3417264209\t0\t141e", "2218 a8 2 254 3417264209 0 141e"},
		{"102 13 29 9450 : 1 0", "102 13 29 9450 1 0 "},
		{"", "STR001@1"},
		{"102 13 29", "STR001@10"},
		{"102 13 29 9450:1", "STR001@17"},
		{"102 13 29 9450 1 0", "STR001@16"},
		{"1x2 13 29 1:1 0", "STR002@1"},
		{"10000 13 29 1:1 0", "STR002@1"},
		{"102 100 29 1:1 0", "STR002@5"},
		{"102 13 10000 1:1 0", "STR002@8"},
		{"102 13 29 4294967296:1 0", "STR002@11"},
		{"102 13 29 1:-1 0", "STR002@13"},
		{"102 13 29 1:+1 0", "STR002@13"},
		{"102 13 29 1:1 256", "STR002@15"},
		{"102 13 29 1:1 x", "STR002@15"},
		{"102 13 29 1:1 0 a:b", "STR001@18"},
	}
	for _, tt := range tests {
		h, diags := ParseHook(base, tt.line)
		var got string
		if h != nil {
			var words []string
			for _, w := range h.Data {
				words = append(words, w.Text)
			}
			got = strings.Join([]string{h.Type.Text, h.Major.Text, h.Minor.Text, h.High.Text, h.Low.Text, h.CPU.Text, strings.Join(words, ",")}, " ")
		} else if len(diags) > 0 {
			got = string(diags[0].Code) + "@" + strconv.Itoa(diags[0].Pos.Col)
		}
		if got != tt.want {
			t.Errorf("ParseHook(%q) = %q, want %q (%v)", tt.line, got, tt.want, diags)
		}
	}
}

func TestHookValues(t *testing.T) {
	h, _ := ParseHook(base, " 104 13 4b 9450:1545343593 3 00000001")
	if h.Type.Value != 0x104 || h.Major.Value != 0x13 || h.Minor.Value != 0x4b || h.High.Value != 9450 || h.Low.Value != 1545343593 || h.CPU.Value != 3 {
		t.Errorf("%+v", h)
	}
	if p := h.Data[0].Pos; p.Line != 7 || p.Col != 30 || p.Offset != 1029 || p.File != "t.out" {
		t.Errorf("data position %v (offset %d)", p, p.Offset)
	}
}

func TestParseModule(t *testing.T) {
	tests := []struct{ line, want string }{
		{"0002 00020000 00004000 0000000d fb1e0828 E:\\OS2\\EPWMP.EXE", "E:\\OS2\\EPWMP.EXE"},
		{"0002 00020000 00004000 0000000d fb1e0828 C:\\A B\\C.EXE  ", "C:\\A B\\C.EXE"},
		{"0002 00020000 00004000 0000000d fb1e0828", "MTE003@33"},
		{"0002 00020000 00004000 0000000d", "MTE001@32"},
		{"0002 0002000g 00004000 0000000d fb1e0828 X", "MTE002@6"},
		{"10000 00020000 00004000 0000000d fb1e0828 X", "MTE002@1"},
	}
	for _, tt := range tests {
		m, diags := ParseModule(base, tt.line)
		var got string
		if m != nil {
			got = m.Path.Text
		} else if len(diags) > 0 {
			got = string(diags[0].Code) + "@" + strconv.Itoa(diags[0].Pos.Col)
		}
		if got != tt.want {
			t.Errorf("ParseModule(%q) = %q, want %q (%v)", tt.line, got, tt.want, diags)
		}
	}
}

// checkPositions: every position points into the line, and every number
// and word is found at its position as written.
func checkPositions(t *testing.T, line string, diags diag.List, nums []os2ast.Number, words []os2ast.Word) {
	t.Helper()
	for _, d := range diags {
		if d.Pos.Line != base.Line || d.Pos.Col < 1 || d.Pos.Col > len(line)+1 || d.Pos.Offset != base.Offset+d.Pos.Col-1 {
			t.Fatalf("%q: diagnostic at %v (offset %d)", line, d.Pos, d.Pos.Offset)
		}
	}
	at := func(p ast.Pos, text string) {
		i := p.Col - 1
		if i < 0 || i+len(text) > len(line) || line[i:i+len(text)] != text {
			t.Fatalf("%q: %q is not at column %d", line, text, p.Col)
		}
	}
	for _, n := range nums {
		at(n.Pos, n.Text)
	}
	for _, w := range words {
		at(w.Pos, w.Text)
	}
}

func FuzzParseHook(f *testing.F) {
	for _, s := range []string{" 102   13   29 9450:1545341324 0 fff37182 fff05c9c", "3401 a8 3 1:2 0 -- strace.mte --", "1 2 3 4:5 6", "::", "\xff 1 2 3:4 5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		h, diags := ParseHook(base, line)
		if (h == nil) != diags.Failed() {
			t.Fatalf("%q: hook %v with diagnostics %v", line, h != nil, diags)
		}
		if h == nil {
			checkPositions(t, line, diags, nil, nil)
			return
		}
		checkPositions(t, line, diags, []os2ast.Number{h.Type, h.Major, h.Minor, h.High, h.Low, h.CPU}, h.Data)
		if h.Type.Value > 0xFFFF || h.Major.Value > 0xFF || h.CPU.Value > 0xFF || h.High.Value > 0xFFFFFFFF {
			t.Fatalf("%q: value out of range: %+v", line, h)
		}
	})
}

func FuzzParseModule(f *testing.F) {
	for _, s := range []string{"0002 00020000 00004000 0000000d fb1e0828 E:\\OS2\\EPWMP.EXE", "1 2 3 4 5 a b", "1 2 3 4 5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		m, diags := ParseModule(base, line)
		if (m == nil) != diags.Failed() {
			t.Fatalf("%q: module %v with diagnostics %v", line, m != nil, diags)
		}
		if m == nil {
			checkPositions(t, line, diags, nil, nil)
			return
		}
		checkPositions(t, line, diags, []os2ast.Number{m.Segment, m.Linear, m.Size, m.PID, m.PTDA}, []os2ast.Word{m.Path})
		if m.Path.Text == "" || strings.TrimSpace(m.Path.Text) != m.Path.Text {
			t.Fatalf("%q: path %q", line, m.Path.Text)
		}
	})
}

// TestQuickNumbers: the readers of the common number give what
// strconv.ParseUint gives, or leave the number to it.
func TestQuickNumbers(t *testing.T) {
	texts := []string{"", "0", "9", "a", "A", "f", "F", "g", "ff", "FF", "100", "+1", "-1", " 1", "1 ", "0x1",
		"4294967295", "4294967296", "255", "256", "65535", "65536", "1234567890123456", "12345678901234567",
		"ffffffffffffffff", "fffffffff", "ffffffff", "00000000000000001", "9a", "é", "1\x00"}
	rng := rand.New(rand.NewPCG(1, 2))
	const digits = "0123456789abcdefABCDEFgx+ "
	for range 20000 {
		b := make([]byte, rng.IntN(18))
		for i := range b {
			b[i] = digits[rng.IntN(len(digits))]
		}
		texts = append(texts, string(b))
	}
	for _, s := range texts {
		for _, bits := range []uint{8, 16, 32} {
			for _, hex := range []bool{true, false} {
				var n os2ast.Number
				w := word{Pos: lexer.Position{Offset: 3}, Text: s}
				radix, quick := 10, quickDecNumber(&n, &w, &base, bits)
				if hex {
					radix, quick = 16, quickHexNumber(&n, &w, &base, bits)
				}
				want, err := strconv.ParseUint(s, radix, int(bits))
				if quick && (err != nil || strings.HasPrefix(s, "+") || n.Value != want || n.Text != s || n.Pos.Col != base.Col+3) {
					t.Errorf("%q base %d bits %d: quick %d at %v; strconv %d, %v", s, radix, bits, n.Value, n.Pos, want, err)
				}
				if !quick && err == nil && !strings.HasPrefix(s, "+") && len(s) <= 16 {
					t.Errorf("%q base %d bits %d: not read, strconv reads %d", s, radix, bits, want)
				}
			}
		}
	}
}
