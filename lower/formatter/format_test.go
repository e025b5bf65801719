package formatter

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/ast/golden"
	"github.com/tracekit/tracekit/binfmt/stda"
	"github.com/tracekit/tracekit/binfmt/tff"
)

// enc turns the TSF spelling of an FMT string into its TFF encoding the way
// TRCUST 3.05A does (see the trcust-oracle notes): "%" and one of
// B W D F Q A R S U X Y P C, in either case, becomes 0x01 and the upper-case
// letter; "%I" before a digit becomes 0x01 'I' with the digits and the text
// after them kept; anything else is copied.
func enc(s string) []byte {
	var out []byte
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+1 < len(s) {
			c := s[i+1] &^ 0x20 // upper case
			if strings.IndexByte("BWDFQARSUXYPC", c) >= 0 {
				out = append(out, tff.Ctrl, c)
				i++
				continue
			}
			if c == 'I' && i+2 < len(s) && s[i+2] >= '0' && s[i+2] <= '9' {
				out = append(out, tff.Ctrl, tff.CtrlIgnore)
				i++
				continue
			}
		}
		out = append(out, s[i])
	}
	return out
}

func fmts(lines ...string) [][]byte {
	var out [][]byte
	for _, l := range lines {
		out = append(out, enc(l))
	}
	return out
}

const dyn = stda.FlagDynamic

type fmtCase struct {
	name    string
	flags   byte
	major   uint8
	minor   uint16
	fmts    [][]byte
	data    []byte
	want    []string // the FMT output lines (the DESC line is checked apart)
	diags   []string // substrings of the diagnostics, in order
	stopped bool
}

func runCases(t *testing.T, cases []fmtCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := &stda.Record{Flags: tc.flags, Major: tc.major, Minor: tc.minor, Data: tc.data, Offset: 0x42}
			res := Apply(rec, &Format{Desc: []byte("DESC\x00"), Fmts: tc.fmts})
			sameBlock(t, rec, &Format{Desc: []byte("DESC\x00"), Fmts: tc.fmts})
			if res.Raw {
				t.Fatal("Raw set")
			}
			if len(res.Lines) == 0 || res.Lines[0] != "DESC" {
				t.Fatalf("first line %q, want the DESC", res.Lines)
			}
			if got := res.Lines[1:]; (len(got) != 0 || len(tc.want) != 0) && !reflect.DeepEqual(got, tc.want) {
				t.Errorf("lines:\n got %q\nwant %q", got, tc.want)
			}
			if res.Stopped != tc.stopped {
				t.Errorf("Stopped = %v, want %v", res.Stopped, tc.stopped)
			}
			if len(res.Diags) != len(tc.diags) {
				t.Fatalf("diagnostics %v, want %d matching %q", res.Diags, len(tc.diags), tc.diags)
			}
			for i, d := range res.Diags {
				if !strings.Contains(d.Msg, tc.diags[i]) || d.Pos.Offset != 0x42 || d.Code != CodeData {
					t.Errorf("diagnostic %d: %v, want %q", i, d, tc.diags[i])
				}
			}
		})
	}
}

// TestReferenceExamples: every "statement: ... generates: ..." pair of
// section 1.3.5.7 (FMT Keyword), with data chosen to give the printed
// value shown there (synthetic data: the reference shows no buffers).
func TestReferenceExamples(t *testing.T) {
	runCases(t, []fmtCase{
		{name: "%I worked example", fmts: fmts("ignore ten bytes %I10 here", "       and two more %I2 here"),
			data: []byte("0123456789ab"),
			want: []string{"ignore ten bytes here", "       and two more here"}},
		{name: "%P then %B", flags: dyn, fmts: fmts("memory byte = %P%B"),
			data: []byte{0, 1, 0, 0xC2}, want: []string{"memory byte = C2"}},
		{name: "%B", flags: dyn, fmts: fmts("memory byte = %P%B"),
			data: []byte{0, 1, 0, 0x01}, want: []string{"memory byte = 01"}},
		{name: "%W register", flags: dyn, fmts: fmts("register word = %W"),
			data: []byte{1, 0}, want: []string{"register word = 0001"}},
		{name: "%W memory", flags: dyn, fmts: fmts("memory word = %P%W"),
			data: []byte{0, 2, 0, 1, 0}, want: []string{"memory word = 0001"}},
		{name: "%D register", flags: dyn, fmts: fmts("double word EAX = %D"),
			data: []byte{0x2C, 0x4B, 0, 0}, want: []string{"double word EAX = 0000 4B2C"}},
		{name: "%D memory", flags: dyn, fmts: fmts("double memory word = %P%D"),
			data: []byte{0, 4, 0, 0x2C, 0x4B, 0, 0}, want: []string{"double memory word = 0000 4B2C"}},
		{name: "%F", flags: dyn, fmts: fmts("flat address EAX = %F"),
			data: []byte{0x2C, 0x4B, 0, 0}, want: []string{"flat address EAX = 00004B2C"}},
		{name: "%Q", flags: dyn, fmts: fmts("quad word from regs EAX and EBX = %Q"),
			data: []byte{0x2C, 0x4B, 0, 0, 1, 0, 0, 0}, want: []string{"quad word from regs EAX and EBX = 00004B2C 00000001"}},
		{name: "%A register", flags: dyn, fmts: fmts("segmented address in SS:SP = %A"),
			data: []byte{1, 0, 0xB7, 0}, want: []string{"segmented address in SS:SP = 00B7:0001"}},
		{name: "%A memory", flags: dyn, fmts: fmts("segmented address in memory = %P%A"),
			data: []byte{0, 4, 0, 1, 0, 0xB7, 0}, want: []string{"segmented address in memory = 00B7:0001"}},
		{name: "%R in place of %P", flags: dyn, fmts: fmts("log a variable number of words from memory = %R%W"),
			data: []byte{0, 4, 0, 1, 0, 4, 0}, want: []string{"log a variable number of words from memory = 0001 0004"}},
		{name: "%S", flags: dyn, fmts: fmts("string = %P%S"),
			data: append([]byte{1, 14, 0}, `c:\os2\os2.ini`...), want: []string{`string = c:\os2\os2.ini`}},
		{name: "%U", flags: dyn, fmts: fmts("garbage = %U"),
			data: []byte{0, 0, 0, 3, 0xc2, 0xc1, 0xc4, 0xff, 4, 0, 9, 0xc0, 0x18},
			want: []string{"garbage = 00 00 00 03 c2 c1 c4 ff 04 00 09 c0 18"}},
		{name: "%X", major: 0xC2, fmts: fmts("major code = %X"), want: []string{"major code = 00C2"}},
		{name: "%Y", minor: 0x81, fmts: fmts("minor code = %Y"), want: []string{"minor code = 0081"}},
		// The Note of 1.3.5.7: "%P%W here", "%p%w here" and " %P %W here"
		// give the same controls; TRCUST stores the last as " 01P 01W here"
		// (the blank after %P is dropped, trcust-oracle s05).
		{name: "combined prefix (TFF bytes of s05)", flags: dyn, fmts: [][]byte{[]byte(" \x01P\x01W here\r\n")},
			data: []byte{0, 2, 0, 0x34, 0x12}, want: []string{" 1234 here"}},
	})
}

// TestOracleEncoding formats the FMT block TRCUST 3.05A wrote for an FMT
// naming every control (trcust-oracle s02_fmtupper/TRC0030.TFF, bytes
// 0x4F-0x9C: two FMT lines, each ended by CR LF, then the closing NUL).
func TestOracleEncoding(t *testing.T) {
	block := []byte("B=\x01B W=\x01W D=\x01D F=\x01F Q=\x01Q A=\x01A\r\n" +
		"R=\x01R\x01W S=\x01S U=\x01U X=\x01X Y=\x01Y P=\x01P\x01W I=\x01I10 end\r\n\x00")
	data := []byte{
		0xB1,       // B
		0x02, 0x01, // W
		0x04, 0x03, 0x02, 0x01, // D
		0x08, 0x07, 0x06, 0x05, // F
		1, 0, 0, 0, 2, 0, 0, 0, // Q
		0x10, 0x00, 0x20, 0x00, // A
	}
	runCases(t, []fmtCase{{
		name: "static record", major: 0x30, minor: 0x58, fmts: [][]byte{block},
		data: append(append([]byte(nil), data...), 0xAA, 0xBB, 0xCC, 0xDD, 'x', 0, 0xEE),
		want: []string{
			"B=B1 W=0102 D=0102 0304 F=05060708 Q=00000001 00000002 A=0020:0010",
			// %R%W repeats over the rest of a static record: 4 bytes of
			// words then 'x' NUL EE: one byte over.
			"R=BBAA DDCC 0078 ee S=<data too short>",
		},
		diags:   []string{"%R%W: 1 bytes left over", "data too short: %S"},
		stopped: true,
	}, {
		name: "dynamic record", flags: dyn, major: 0x30, minor: 0x58, fmts: [][]byte{block},
		data: append(append(append([]byte(nil), data...),
			0, 4, 0, 0xAA, 0xBB, 0xCC, 0xDD, // R: %R reads the prefix
			1, 2, 0, 'h', 'i', // S: no prefix in the FMT: read up to a NUL
			0), // the NUL
			[]byte{0, 2, 0, 0x34, 0x12}...), // the rest, for %U
		want: []string{
			"B=B1 W=0102 D=0102 0304 F=05060708 Q=00000001 00000002 A=0020:0010",
			"R=BBAA DDCC S=\x01\x02 U=68 69 00 00 02 00 34 12 X=0030 Y=0058 P=<data too short>",
		},
		diags:   []string{"%S in a dynamic record without a %P prefix", "data too short: %P"},
		stopped: true,
	}})
}

func TestControls(t *testing.T) {
	runCases(t, []fmtCase{
		{name: "%C", fmts: fmts("%C%C%C%C%C%C"), data: []byte{'A', ' ', 0x7F, 0x1F, 0x80, 0xFF}, want: []string{"A \x7f..."}},
		{name: "%R%C", flags: dyn, fmts: fmts("%R%C|"), data: []byte{0, 3, 0, 'a', 0, 'b'}, want: []string{"a . b|"}},
		{name: "static %S up to NUL", fmts: fmts("name = %S then %W"), data: []byte{'a', 'b', 'c', 0, 1, 0}, want: []string{"name = abc then 0001"}},
		{name: "static %S without NUL", fmts: fmts("name = %S."), data: []byte("abc"), want: []string{"name = abc."}, diags: []string{"no terminating NUL"}},
		{name: "dynamic %S stops at a NUL inside the item", flags: dyn, fmts: fmts("%P%S|%W"), data: []byte{0, 5, 0, 'a', 'b', 0, 'x', 'y', 1, 0}, want: []string{"ab|0001"}},
		{name: "dynamic %S of an empty item", flags: dyn, fmts: fmts("[%P%S]%W"), data: []byte{1, 0, 0, 2, 0}, want: []string{"[]0002"}},
		{name: "dynamic %S, status 1, no NUL logged", flags: dyn, fmts: fmts("%P%S|%P%S"), data: []byte{1, 2, 0, 'o', 'k', 1, 3, 0, 'a', 'b', 'c'}, want: []string{"ok|abc"}},
		{name: "%R over the rest of the item after %P", flags: dyn, fmts: fmts("%P%W %R%W."), data: []byte{0, 6, 0, 1, 0, 2, 0, 3, 0, 9, 9}, want: []string{"0001 0002 0003."}},
		{name: "%R static: the rest of the record", fmts: fmts("%W %R%B"), data: []byte{1, 0, 1, 2, 3}, want: []string{"0001 01 02 03"}},
		{name: "%R on an empty item", flags: dyn, fmts: fmts("[%R%D]"), data: []byte{0, 0, 0}, want: []string{"[]"}},
		{name: "%R leftover bytes", flags: dyn, fmts: fmts("%R%W"), data: []byte{0, 3, 0, 1, 2, 3}, want: []string{"0201 03"}, diags: []string{"%R%W: 1 bytes left over"}},
		{name: "%R%D leftover only", flags: dyn, fmts: fmts("%R%D"), data: []byte{0, 3, 0, 1, 2, 3}, want: []string{"01 02 03"}, diags: []string{"%R%D: 3 bytes left over"}},
		{name: "%R%Q", fmts: fmts("%R%Q"), data: []byte{1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0}, want: []string{"00000001 00000002 00000003 00000004"}},
		{name: "%R%A then a new item", flags: dyn, fmts: fmts("%R%A / %P%B"), data: []byte{0, 8, 0, 1, 0, 2, 0, 3, 0, 4, 0, 0, 1, 0, 7}, want: []string{"0002:0001 0004:0003 / 07"}},
		{name: "%R at the end of the line", fmts: [][]byte{[]byte("x\x01R")}, data: []byte{1}, want: []string{"x"}, diags: []string{"%R is not followed by a value control"}},
		{name: "%R before %S", fmts: fmts("%R%S"), data: []byte{'a', 0}, want: []string{"a"}, diags: []string{"%R is not followed by a value control"}},
		{name: "%U after %P takes the rest of the record", flags: dyn, fmts: fmts("%P%W %U"), data: []byte{0, 2, 0, 1, 0, 0, 1, 0, 9}, want: []string{"0001 00 01 00 09"}},
		{name: "%U with nothing left", fmts: fmts("[%U]"), want: []string{"[]"}},
		{name: "%X %Y need no data", major: 0x42, minor: 0xBEEF, fmts: fmts("%X/%Y"), want: []string{"0042/BEEF"}},
		{name: "%I0 and a blank", fmts: fmts("a %I0 b%W"), data: []byte{5, 0}, want: []string{"a b0005"}},
		{name: "%I at the end of the line", fmts: fmts("a %I2", "%W"), data: []byte{1, 2, 3, 0}, want: []string{"a ", "0003"}},
		{name: "%I keeps a second blank", fmts: fmts("a %I1  b"), data: []byte{1}, want: []string{"a  b"}},
		{name: "%I counts decimal only", fmts: [][]byte{[]byte("\x01I0x10 g")}, data: []byte{1}, want: []string{"x10 g"}},
		{name: "%I with a huge count", fmts: [][]byte{[]byte("a\x01I99999999999999999999 b")}, data: []byte{1}, want: []string{"a<data too short: 01>"}, diags: []string{"data too short: %I"}, stopped: true},
		{name: "%I without digits", fmts: [][]byte{[]byte("a\x01I b")}, want: []string{"a b"}, diags: []string{"%I without a decimal count"}},
		{name: "unknown control", fmts: [][]byte{[]byte("a\x01Zb")}, want: []string{"ab"}, diags: []string{`unknown control 0x01 'Z'`}},
		{name: "lower-case control is not a control", fmts: [][]byte{[]byte("a\x01wb")}, data: []byte{1, 0}, want: []string{"ab"}, diags: []string{`unknown control 0x01 'w'`}},
		{name: "escape at the end", fmts: [][]byte{[]byte("a\x01")}, want: []string{"a"}, diags: []string{"control byte 0x01 at the end"}},
		{name: "literal percent signs stay", fmts: [][]byte{[]byte("100%% done %k %")}, want: []string{"100%% done %k %"}},
		{name: "backslash sequences stay", fmts: [][]byte{[]byte(`q=" bs=\\ n=\n t=\t`)}, want: []string{`q=" bs=\\ n=\n t=\t`}},
		{name: "empty FMT", fmts: [][]byte{[]byte("\r\n"), []byte("x\r\n")}, want: []string{"", "x"}},
		{name: "one element, several CR LF lines", fmts: [][]byte{[]byte("a=\x01B\r\nb=\x01B\r\n\r\n\x00")}, data: []byte{1, 2}, want: []string{"a=01", "b=02", ""}},
		{name: "no FMT", fmts: nil, data: []byte{1, 2}, want: nil},
	})
}

func TestItemsAcrossLines(t *testing.T) {
	// The reference's sample 1.5.1 (minor 0xB0): one MEM of 20 bytes read
	// by three FMT lines.
	data := []byte{0, 20, 0}
	for i := 1; i <= 10; i++ {
		data = append(data, byte(i), 0)
	}
	runCases(t, []fmtCase{{
		name: "sample Foo", flags: dyn, minor: 0xB0,
		fmts: fmts("                     First Five words = %P%W%W%W%W%W",
			"                     Three words ignored %I6",
			"                     Last Two Words = %W%W"),
		data: data,
		want: []string{"                     First Five words = 00010002000300040005",
			"                     Three words ignored ",
			"                     Last Two Words = 0009000A"},
	}, {
		// The TSF sample of 1.3.1 (minor 0x0001 of doscall1.dll, major 100).
		name: "sample DosOpen", flags: dyn, major: 100, minor: 1,
		fmts: fmts("Major = %X  Minor = %Y", "            EAX = %D", "            FileName = %P%S"),
		data: append([]byte{0x2C, 0x4B, 0x01, 0x00, 1, 12, 0}, `C:\CONFIG.SYS`[:12]...),
		want: []string{"Major = 0064  Minor = 0001", "            EAX = 0001 4B2C", `            FileName = C:\CONFIG.SY`},
	}, {
		name: "sample Variant Record", flags: dyn, minor: 0x71B4,
		fmts: fmts("              Variant Record = %P%W%D%U"),
		data: []byte{0, 10, 0, 0x0A, 0, 1, 2, 3, 4, 5, 6, 7, 8},
		want: []string{"              Variant Record = 000A0403 020105 06 07 08"},
	}})
}

func TestPrefixStatus(t *testing.T) {
	runCases(t, []fmtCase{
		{name: "invalid selector", flags: dyn, fmts: fmts("age = %P%W", "name = %P%S", "next = %P%W"),
			data: []byte{0, 2, 0, 7, 0, 0xFF, 4, 0, 0x06, 0x00, 0xB7, 0x00},
			want: []string{"age = 0007", "name = <status FF invalid selector, pointer 00B7:0006>"}, stopped: true},
		{name: "selector not present", flags: dyn, fmts: fmts("x = %P%W y"), data: []byte{0xFE, 4, 0, 0x34, 0x12, 0x78, 0x56},
			want: []string{"x = <status FE selector not present, pointer 5678:1234>"}, stopped: true},
		{name: "page not present", flags: dyn, fmts: fmts("x = %P%D"), data: []byte{0xFD, 4, 0, 0x00, 0x10, 0x05, 0x00},
			want: []string{"x = <status FD page not present, pointer 00051000>"}, stopped: true},
		{name: "bad status in place of %P via %R", flags: dyn, fmts: fmts("w = %R%W"), data: []byte{0xFD, 4, 0, 1, 2, 3, 4},
			want: []string{"w = <status FD page not present, pointer 04030201>"}, stopped: true},
		{name: "bad status, pointer cut short", flags: dyn, fmts: fmts("x = %P%W"), data: []byte{0xFF, 4, 0, 1, 2},
			want: []string{"x = <status FF invalid selector, pointer 01 02>"}, diags: []string{"pointer needs 4 bytes, 2 left"}, stopped: true},
		{name: "unknown status", flags: dyn, fmts: fmts("x = %P%W", "never"), data: []byte{0x05, 2, 0, 1, 2},
			want: []string{"x = <status 05 unknown: 01 02>"}, diags: []string{"unknown prefix status 05"}, stopped: true},
		{name: "length beyond the data", flags: dyn, fmts: fmts("%P%R%B"), data: []byte{0, 9, 0, 1, 2},
			want: []string{"01 02"}, diags: []string{"prefix gives length 9, only 2 bytes left"}},
	})
}

func TestShortData(t *testing.T) {
	runCases(t, []fmtCase{
		{name: "%W with one byte", fmts: fmts("a = %W b", "c"), data: []byte{0xC2},
			want: []string{"a = <data too short: c2>"}, diags: []string{"data too short: %W needs 2 bytes, 1 left"}, stopped: true},
		{name: "%D with none", fmts: fmts("%W %D"), data: []byte{1, 0},
			want: []string{"0001 <data too short>"}, diags: []string{"%D needs 4 bytes, 0 left"}, stopped: true},
		{name: "%P with two bytes", flags: dyn, fmts: fmts("%P%W"), data: []byte{0, 2},
			want: []string{"<data too short: 00 02>"}, diags: []string{"%P needs 3 bytes, 2 left"}, stopped: true},
		{name: "%I past the end", fmts: fmts("%I4 %W"), data: []byte{1, 2},
			want: []string{"<data too short: 01 02>"}, diags: []string{"%I4 skips 4 bytes, 2 left"}, stopped: true},
		{name: "%Q on an empty record", fmts: fmts("q=%Q"),
			want: []string{"q=<data too short>"}, diags: []string{"%Q needs 8 bytes"}, stopped: true},
	})
}

// TestDiagnostic checks the diagnostic of a record whose data runs out:
// a warning at the record's offset, naming the FMT line and data offset.
func TestDiagnostic(t *testing.T) {
	rec := &stda.Record{Offset: 0x24, Major: 1, Minor: 1, Data: []byte{1, 2, 3, 4, 5}}
	res := Apply(rec, &Format{Desc: []byte("d"), Fmts: [][]byte{[]byte("a"), {tff.Ctrl, 'D', ' ', tff.Ctrl, 'W'}}})
	want := diag.Diagnostic{Pos: ast.Pos{Offset: 0x24}, Severity: diag.Warning, Code: CodeData,
		Msg: "record @0x0024: FMT line 2: data offset 4: data too short: %W needs 2 bytes, 1 left"}
	if len(res.Diags) != 1 || res.Diags[0] != want {
		t.Errorf("got %#v, want %#v", res.Diags, want)
	}
}

func TestRaw(t *testing.T) {
	fs := Map{0xC2: {1: &Format{Desc: []byte("one")}}, 0x10: nil}
	data := make([]byte, 20)
	for i := range data {
		data[i] = byte(i * 13)
	}
	tests := []struct {
		name  string
		fs    Formats
		major uint8
		minor uint16
		data  []byte
		want  []string
	}{
		{"no TFF", fs, 0x99, 1, data[:3], []string{"no format: no TFF for major 99 (TRC0099.TFF)", "0000: 00 0d 1a"}},
		{"minor not in TFF", fs, 0xC2, 2, data, []string{"no format: minor 0002 is not in the TFF for major C2",
			"0000: 00 0d 1a 27 34 41 4e 5b 68 75 82 8f 9c a9 b6 c3", "0010: d0 dd ea f7"}},
		{"empty TFF", fs, 0x10, 0, nil, []string{"no format: minor 0000 is not in the TFF for major 10", "(no data)"}},
		{"nil Formats", nil, 0xC2, 1, data[:16], []string{"no format: no TFF for major C2 (TRC00C2.TFF)", "0000: 00 0d 1a 27 34 41 4e 5b 68 75 82 8f 9c a9 b6 c3"}},
	}
	for _, tt := range tests {
		res := FormatRecord(&stda.Record{Major: tt.major, Minor: tt.minor, Data: tt.data}, tt.fs)
		if !res.Raw || !reflect.DeepEqual(res.Lines, tt.want) || len(res.Diags) != 0 {
			t.Errorf("%s: %+v\nwant lines %q", tt.name, res, tt.want)
		}
	}
	res := FormatRecord(&stda.Record{Major: 0xC2, Minor: 1, Data: data}, fs)
	if res.Raw || !reflect.DeepEqual(res.Lines, []string{"one"}) {
		t.Errorf("found format: %+v", res)
	}
	if res := Apply(&stda.Record{Data: []byte{1}}, nil); !res.Raw || res.Lines[0] != "no format" {
		t.Errorf("Apply(nil): %+v", res)
	}
}

// TestBlocksGolden renders a synthetic STDA (built with stda.Writer; no
// real STDA or TFF is public) with a small set of formats.
func TestBlocksGolden(t *testing.T) {
	w, err := stda.NewWriter(stda.FormatNew, 0x200)
	if err != nil {
		t.Fatal(err)
	}
	ts := func(s, h uint8) stda.Timestamp {
		return stda.Timestamp{Hours: 14, Minutes: 2, Seconds: s, Hundredths: h}
	}
	recs := []stda.Record{
		{Flags: dyn | stda.FlagProtect, PID: 0x21, Major: 100, Minor: 1, Time: ts(1, 0),
			Data: append([]byte{0x2C, 0x4B, 0, 0, 1, 14, 0}, `c:\os2\os2.ini`...)},
		{Flags: dyn | stda.FlagProtect, PID: 0x21, Major: 100, Minor: 0x8001, Time: ts(1, 5),
			Data: []byte{0, 2, 0, 0, 0, 0xFF, 4, 0, 0x10, 0x00, 0x2F, 0x00}},
		{Flags: stda.FlagProtect, PID: 0, Major: 100, Minor: 0xB5, Time: ts(2, 0), Data: []byte{0x10, 0x00, 0x46, 0x02}},
		{Flags: stda.FlagNoTime, PID: 3, Major: 100, Minor: 0x7777, Data: []byte("unknown minor, printed raw")},
		{Flags: stda.FlagExternal | stda.FlagProtect, PID: 3, Major: 0x55, Minor: 1, Time: ts(3, 99), Data: []byte{1, 2, 3}},
		{Flags: dyn | stda.FlagIncomplete, PID: 4, Major: 100, Minor: 0xB0, Time: ts(4, 0), Data: []byte{0, 20, 0, 1, 0, 2, 0, 3}},
		{Flags: stda.FlagProtect, PID: 5, Major: 100, Minor: 0xE0, Time: ts(5, 0)},
		{Flags: stda.FlagProtect, PID: 6, Major: 100, Minor: 0xE1, Time: ts(6, 0), Data: []byte("line one\nline two\x00")},
	}
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	buf, err := stda.Parse(w.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	fs := Map{100: {
		1: {Desc: []byte("(OS) DosOpen    Pre-Invocation"),
			Fmts: fmts("Major = %X  Minor = %Y", "            EAX = %D", "            FileName = %P%S")},
		0x8001: {Desc: []byte("(OS) DosOpenC   Post-Invocation"),
			Fmts: fmts("                 Return Code = %P%W", "                 Variable Rec= %P%U")},
		0xB5: {Desc: []byte("(OS) StaticProcedure Pre-Invocation"),
			Fmts: fmts("                 DI = %W FLAGS = %W")},
		0xB0: {Desc: []byte("(OS) Foo Pre-Invocation"),
			Fmts: fmts("                     First Five words = %P%W%W%W%W%W", "                     Three words ignored %I6", "                     Last Two Words = %W%W")},
		0xE0: {Desc: []byte("(NEW) LookUp  Pre-Invocation")},
		0xE1: {Desc: []byte("static string"), Fmts: fmts("  %S")},
	}}
	var out bytes.Buffer
	diags, err := WriteText(&out, buf.Records, fs)
	if err != nil {
		t.Fatal(err)
	}
	out.WriteString("-- diagnostics\n")
	for _, d := range diags {
		out.WriteString(d.Msg + "\n")
	}
	got := "# synthetic records and formats (format_test.go); no real STDA or TFF is public\n" + out.String()
	gold := filepath.Join("testdata", "synthetic-blocks.golden")
	golden.Check(t, gold, []byte(got))
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, os.ErrClosed }

func TestWriteTextError(t *testing.T) {
	recs := []stda.Record{{Major: 1, Data: []byte{1}}}
	if _, err := WriteText(failWriter{}, recs, nil); err == nil {
		t.Error("no error from a failing writer")
	}
}

// sameBlock checks that Formatter.AppendBlock writes what FormatRecord
// and WriteBlock write, diagnostics included, for rec with f and with no
// format at all, twice over (its buffers are reused).
func sameBlock(t *testing.T, rec *stda.Record, f *Format) {
	t.Helper()
	var fm Formatter
	for _, fs := range []Formats{Map{rec.Major: {rec.Minor: f}}, Map{rec.Major: {}}, nil, Map{rec.Major: {rec.Minor: f}}} {
		res := FormatRecord(rec, fs)
		var want bytes.Buffer
		if err := WriteBlock(&want, 7, rec, &res); err != nil {
			t.Fatal(err)
		}
		got, ds := fm.AppendBlock([]byte("x"), 7, rec, fs)
		if string(got) != "x"+want.String() {
			t.Fatalf("AppendBlock:\n%q\nFormatRecord and WriteBlock:\n%q", got[1:], want.String())
		}
		if !reflect.DeepEqual(ds, res.Diags) && (len(ds) != 0 || len(res.Diags) != 0) {
			t.Fatalf("AppendBlock diagnostics %v, FormatRecord's %v", ds, res.Diags)
		}
	}
}

// FuzzApply: any FMT bytes with any data and flags must format without a
// panic, as the FMT line interpreted byte by byte formats (refApply), and
// the output must stay within a small multiple of the input.
func FuzzApply(f *testing.F) {
	f.Add(enc("a=%P%R%W b=%S %U %I3 %X%Y"), []byte{0, 4, 0, 1, 0, 2, 0, 'x', 0}, byte(dyn))
	f.Add(enc("%R%Q%D%F%A%C%B"), []byte{0xFF, 4, 0, 1, 2, 3, 4}, byte(0))
	f.Add([]byte("\x01I12345678901234567890 \x01P\x01S"), []byte{5, 0xFF, 0xFF}, byte(dyn))
	f.Fuzz(func(t *testing.T, fmtb, data []byte, flags byte) {
		rec := &stda.Record{Flags: flags, Major: 0x42, Minor: 7, Data: data}
		res := Apply(rec, &Format{Desc: []byte("d"), Fmts: [][]byte{fmtb}})
		// the compiled lines against the byte-by-byte interpreter
		if want := refApply(rec, &Format{Desc: []byte("d"), Fmts: [][]byte{fmtb}}); !reflect.DeepEqual(res, want) {
			t.Fatalf("FMT %q, data % x: Apply gives %#v, byte by byte %#v", fmtb, data, res, want)
		}
		n := 0
		for _, l := range res.Lines {
			n += len(l)
		}
		if limit := 4*len(fmtb) + 4*len(data) + 128; n > limit {
			t.Fatalf("%d bytes of output for %d FMT and %d data bytes", n, len(fmtb), len(data))
		}
		if len(res.Diags) > len(fmtb)+1 {
			t.Fatalf("%d diagnostics for %d FMT bytes", len(res.Diags), len(fmtb))
		}
		var out bytes.Buffer
		if err := WriteBlock(&out, 0, rec, &res); err != nil {
			t.Fatal(err)
		}
		sameBlock(t, rec, &Format{Desc: []byte("d"), Fmts: [][]byte{fmtb}})
		for _, pid := range []uint16{0, 0x1234} {
			for _, ts := range []stda.Timestamp{{}, {Len: 2, Seconds: 7, Hundredths: 99}, {Len: 4, Hours: 23, Minutes: 5, Seconds: 59, Hundredths: 1}} {
				r := *rec
				r.PID, r.Time, r.Offset = pid, ts, int64(len(data))*0x111
				sameBlock(t, &r, &Format{Desc: []byte("a\r\nb\x00"), Fmts: [][]byte{fmtb, []byte("x\r\ny\n")}})
			}
		}
		raw := FormatRecord(rec, nil)
		if !raw.Raw || len(raw.Lines) != 1+max(1, (len(data)+15)/16) {
			t.Fatalf("raw: %d lines for %d bytes", len(raw.Lines), len(data))
		}
	})
}
