package ntstrace

import (
	"testing"

	"github.com/kr/pretty"

	"github.com/tracekit/tracekit/ast"
	ntast "github.com/tracekit/tracekit/ast/ntstrace"
	"github.com/tracekit/tracekit/grammar/internal/lineconv"
)

// TestWords: every point where the generated parser can fail has words.
func TestWords(t *testing.T) {
	missing, extra := lineconv.CheckWords(callWords, pgenExpect_callParser[:])
	for _, p := range missing {
		t.Errorf("no words for the failure point %q", p)
	}
	for _, p := range extra {
		t.Errorf("words for %q, which is no failure point", p)
	}
}

// lines are the forms of the format (synthetic, from its description).
var lines = []struct {
	text string
	half ntast.Half
	in   int
	out  int
	err  bool
}{
	{`2 133 139 NtCreateEvent (0x100003, 0x0, 1, 0, ... 8, ) == 0x0`, ntast.Whole, 4, 1, false},
	{`5 133 140 NtWaitForSingleObject (0x1c, 1, 0x0, ... `, ntast.Start, 3, 0, false},
	{`5 133 140 NtWaitForSingleObject ... ) == STATUS_TIMEOUT`, ntast.End, 0, 0, false},
	{`7 133 139 NtOpenFile (0x120089, {24, 0x0, "\??\C:\Windows\win.ini", 0x40, 0, 0}, 1, 96, ... 0x44, {status=0x0, info=1}, ) == 0x0`, ntast.Whole, 4, 2, false},
	{`9 133 139 NtClose (-1, ... ) == STATUS_INVALID_HANDLE`, ntast.Whole, 1, 0, false},
	{`9 133 139 NtClose (-1, ) == 0x0`, ntast.Whole, 1, 0, false},
	{`x 133 139 NtClose (1, ... ) == 0x0`, 0, 0, 0, true},
	{`9 133 139 NtClose (1, ... ) ==`, 0, 0, 0, true},
	{`9 133 139 NtClose ) == 0x0`, 0, 0, 0, true},
	{`9 133 139 NtClose (1, "open`, 0, 0, 0, true},
}

// TestLines parses every form with the generated parser and participle's:
// the same trees, the same diagnostics.
func TestLines(t *testing.T) {
	for _, tc := range lines {
		pos := ast.Pos{File: "t", Line: 1, Col: 1}
		gen := &LineParser{}
		ref := &LineParser{Reference: true}
		c, d := gen.Line(pos, tc.text)
		rc, rd := ref.Line(pos, tc.text)
		if diff := pretty.Diff(c, rc); len(diff) > 0 || d.Error() != rd.Error() {
			t.Errorf("%s: generated and participle differ: %v\n%v / %v", tc.text, diff, d, rd)
		}
		if tc.err {
			if c != nil || !d.Failed() {
				t.Errorf("%s: no error", tc.text)
			}
			continue
		}
		if c == nil {
			t.Errorf("%s: %v", tc.text, d)
			continue
		}
		if c.Half != tc.half || len(c.In) != tc.in || len(c.Out) != tc.out {
			t.Errorf("%s: half %v in %d out %d", tc.text, c.Half, len(c.In), len(c.Out))
		}
	}
}

// FuzzParseLine: the generated parser and participle agree on any line,
// and neither panics.
func FuzzParseLine(f *testing.F) {
	for _, tc := range lines {
		f.Add(tc.text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		pos := ast.Pos{File: "t", Line: 1, Col: 1}
		c, d := (&LineParser{}).Line(pos, text)
		rc, rd := (&LineParser{Reference: true}).Line(pos, text)
		if diff := pretty.Diff(c, rc); len(diff) > 0 || d.Error() != rd.Error() {
			t.Errorf("%q: generated and participle differ: %v\n%v / %v", text, diff, d, rd)
		}
	})
}
