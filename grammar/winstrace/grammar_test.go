package winstrace

import (
	"strconv"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	wsast "github.com/tracekit/tracekit/ast/winstrace"
)

var base = ast.Pos{File: "t.wst", Offset: 500, Line: 3, Col: 1}

// show renders a value compactly for the table tests.
func show(v wsast.Value) string {
	switch v := v.(type) {
	case *wsast.Unknown:
		return "?"
	case *wsast.Int:
		s := strconv.FormatUint(v.Mag, 10)
		if v.Neg {
			s = "-" + s
		}
		return "i" + s
	case *wsast.String:
		return "s" + strconv.Quote(v.Value)
	case *wsast.Ident:
		return "y" + v.Name
	case *wsast.Struct:
		var parts []string
		for _, f := range v.Fields {
			p := show(f.Value)
			if f.Label != nil {
				p = f.Label.Name + "=" + p
			}
			parts = append(parts, p)
		}
		return "{" + strings.Join(parts, ",") + "}"
	case *wsast.InOut:
		return "<" + show(v.In) + "|" + show(v.Out) + ">"
	}
	return "!"
}

func showCall(c *wsast.Call) string {
	var args []string
	for _, a := range c.Args {
		args = append(args, show(a))
	}
	s := c.Marker.String() + strconv.FormatUint(c.ID.Mag, 10)
	if c.Kernel {
		s += "*"
	}
	s += " " + strconv.FormatUint(c.PID.Mag, 10) + " " + strconv.FormatUint(c.TID.Mag, 10) + " " + c.Name.Name +
		"[" + c.Count.Text + "](" + strings.Join(args, " ") + ")"
	if c.Ret != nil {
		s += "=" + show(c.Ret)
	}
	return s
}

func TestParseLine(t *testing.T) {
	tests := []struct{ line, want string }{
		{`1 2 3 F[0]()`, `1 2 3 F[0]()`},
		{`> 1 * 2 3 F[1](???)`, `>1* 2 3 F[1](?)`},
		{`<1 2 3 F[1](???) == 0`, `<1 2 3 F[1](?)=i0`},
		{`1 2 3 F[6](0, 42, -7, 0x10, -0X1f, 7ffe)`, `1 2 3 F[6](i0 i42 i-7 i16 i-31 i32766)`},
		{`1 2 3 F[1](-0)`, `1 2 3 F[1](i0)`},
		{`1 2 3 F[3]({}, {1, {2}}, {a=1, b={c=X}, 3})`, `1 2 3 F[3]({} {i1,{i2}} {a=i1,b={c=yX},i3})`},
		{`1 2 3 F[2](<1|???>, <{a=1}|<2|3>>)`, `1 2 3 F[2](<i1|?> <{a=i1}|<i2|i3>>)`},
		{`1 2 3 F[1](SYNCHRONIZE) == STATUS_SUCCESS`, `1 2 3 F[1](ySYNCHRONIZE)=ySTATUS_SUCCESS`},
		{`1 2 3 F[1]("a\\b\"c\n\t\x41\101\0") == -0x1`, `1 2 3 F[1](s"a\\b\"c\n\tAA\x00")=i-1`},
		{`1 2 3 F[1]("\x7e\x07e\xfff")`, `1 2 3 F[1](s"~~\u0fff")`},
		{`1 2 3 F[1]("C:\Windows\x")`, `1 2 3 F[1](s"C:\\Windows\\x")`},
		{`1 2 3 F[1]("???")`, `1 2 3 F[1](s"???")`},
		{`1 2 3 F[0]() == ???`, `1 2 3 F[0]()=?`},
		{`1 2 3 F[9](1)`, `1 2 3 F[9](i1)`},
		// Errors: code and column.
		{``, `WST001@1`},
		{`> 1 2 3`, `WST001@8`},
		{`x 1 2 3 F[0]()`, `WST001@1`},
		{`1 2 3 F(0)`, `WST001@8`},
		{`1 2 3 F[0](`, `WST001@12`},
		{`1 2 3 F[0]() ==`, `WST001@16`},
		{`1 2 3 F[0]() == 1 2`, `WST001@19`},
		{`1 2 3 F[1]("open`, `WST001@12`},
		{`1 2 3 F[1](1,)`, `WST001@13`},
		{`1 2 3 F[1]({a=})`, `WST001@14`},
		{`1 2 3 F[1]({1=2})`, `WST001@13`},
		{`1 2 3 F[1]({a=b=c})`, `WST001@16`},
		{`1 2 3 F[1](<1>)`, `WST001@14`},
		{`1 -2 3 F[0]()`, `WST002@3`},
		{`1 2 3 F[0x1]()`, `WST002@9`},
		{`1 2 3 F[1](0x)`, `WST002@12`},
		{`1 2 3 F[1](1z)`, `WST002@12`},
		{`1 2 3 F[1](0x10000000000000000)`, `WST002@12`},
		{`99999999999999999999 2 3 F[0]()`, `WST002@1`},
		{`1 2 3 F[1](` + strings.Repeat("{", 65) + strings.Repeat("}", 65) + `)`, `WST009@76`},
		{`1 2 3 F[1](` + strings.Repeat("<1|", 65) + `1` + strings.Repeat(">", 65) + `)`, `WST009@204`},
	}
	for _, tt := range tests {
		c, diags := ParseLine(base, tt.line)
		var got string
		if c != nil {
			got = showCall(c)
		} else if len(diags) > 0 {
			got = string(diags[0].Code) + "@" + strconv.Itoa(diags[0].Pos.Col)
		}
		if got != tt.want {
			t.Errorf("ParseLine(%q) = %s, want %s (%v)", tt.line, got, tt.want, diags)
		}
	}
}

// TestEscapeWarnings: an unknown escape keeps its backslash and is
// reported at the backslash.
func TestEscapeWarnings(t *testing.T) {
	line := `1 2 3 F[1]("\Device\x")`
	c, diags := ParseLine(base, line)
	if c == nil || len(diags) != 2 {
		t.Fatalf("%v", diags)
	}
	for i, col := range []int{13, 20} {
		if d := diags[i]; d.Severity != diag.Warning || d.Code != wsast.CodeEscape || d.Pos.Col != col {
			t.Errorf("diagnostic %d: %v, want a warning at column %d", i, d, col)
		}
	}
}

func FuzzParseLine(f *testing.F) {
	for _, s := range []string{
		`> 1 * 100 200 NtOpenFile[4](???, 0x100001, {Length=24, Name="\\??\\C:\\x\n\x41", {1, -2}}, <5|???>)`,
		`< 12 100 200 NtOpenFile[4](0x7c, ???, ???, <???|7>) == STATUS_SUCCESS`,
		`7 100 200 NtClose[1]("C:\Windows") == -0x1`, `1 2 3 F[1]("\`, `{{{<<<`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		c, diags := ParseLine(base, line)
		if (c == nil) != diags.Failed() {
			t.Fatalf("%q: call %v with diagnostics %v", line, c != nil, diags)
		}
		for _, d := range diags {
			if d.Pos.Line != base.Line || d.Pos.Col < 1 || d.Pos.Col > len(line)+1 {
				t.Fatalf("%q: diagnostic at %v", line, d.Pos)
			}
		}
		if c == nil {
			return
		}
		var walk func(v wsast.Value, depth int)
		walk = func(v wsast.Value, depth int) {
			if depth > MaxDepth+1 {
				t.Fatalf("%q: nested deeper than %d", line, MaxDepth)
			}
			p := v.Position().Col - 1
			switch v := v.(type) {
			case *wsast.Int:
				if !strings.HasPrefix(line[p:], v.Text) {
					t.Fatalf("%q: integer %q not at column %d", line, v.Text, p+1)
				}
			case *wsast.String:
				if !strings.HasPrefix(line[p:], v.Text) {
					t.Fatalf("%q: string %q not at column %d", line, v.Text, p+1)
				}
			case *wsast.Struct:
				for _, f := range v.Fields {
					walk(f.Value, depth+1)
				}
			case *wsast.InOut:
				walk(v.In, depth+1)
				walk(v.Out, depth+1)
			}
		}
		for _, a := range c.Args {
			walk(a, 0)
		}
		if c.Ret != nil {
			walk(c.Ret, 0)
		}
	})
}

// TestQuickUint checks integer's fast path against strconv on the forms it
// takes and on the ones it must leave to the general path.
func TestQuickUint(t *testing.T) {
	for _, text := range []string{
		"0", "7", "0123", "4294967295", "9999999999999999999", "18446744073709551615", "99999999999999999999",
		"1e5", "0b1", "ff", "FFFFFFFFFFFFFFFF", "1FFFFFFFFFFFFFFFF", "abcdef0123456789", "",
		"0x", "0x0", "0X1f", "0xC0000005", "0xffffffffffffffff", "0x1ffffffffffffffff", "0x00000000000000001",
		"0x0x1", "12_3", "1+2", "0xg", "12z", "0xFFFF_FFFF",
	} {
		digits, hex := text, false
		if len(digits) > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X') {
			digits, hex = digits[2:], true
		}
		got, ok := quickUint(digits, hex)
		if !ok {
			continue
		}
		base := 10
		if hex || strings.ContainsAny(digits, "abcdefABCDEF") {
			base = 16
		}
		want, err := strconv.ParseUint(digits, base, 64)
		if err != nil || got != want {
			t.Errorf("quickUint(%q, %v) = %d; strconv: %d, %v", digits, hex, got, want, err)
		}
	}
	for text, want := range map[string]bool{"123": true, "0xC0000005": true, "ab": true, "": false, "99999999999999999999": false, "0x1ffffffffffffffff": false, "1_2": false} {
		digits, hex := text, false
		if len(digits) > 2 && digits[:2] == "0x" {
			digits, hex = digits[2:], true
		}
		if _, ok := quickUint(digits, hex); ok != want {
			t.Errorf("quickUint(%q) ok = %v, want %v", text, ok, want)
		}
	}
}
