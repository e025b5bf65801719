package lowering

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/tracekit/tracekit/ast"
)

// readAll runs Lines and writes what it passes on: "L:C@O text" for a
// line, "long L@O n" for one over the limit.
func readAll(t *testing.T, r io.Reader, maxLine int) (string, LineStats, ast.Pos, error) {
	t.Helper()
	var b strings.Builder
	st, end, err := Lines(context.Background(), r, "f", maxLine,
		func(pos ast.Pos, text string) error {
			fmt.Fprintf(&b, "%d:%d@%d %q\n", pos.Line, pos.Col, pos.Offset, text)
			return nil
		},
		func(pos ast.Pos, n int64) error {
			fmt.Fprintf(&b, "long %d@%d %d\n", pos.Line, pos.Offset, n)
			return nil
		})
	return b.String(), st, end, err
}

func TestLines(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		max      int
		want     string
		stats    LineStats
		end      ast.Pos
	}{
		{"LF and CRLF", "a\r\nbc\nd", 0, "1:1@0 \"a\"\n2:1@3 \"bc\"\n3:1@6 \"d\"\n", LineStats{3, 0, 7}, ast.Pos{File: "f", Offset: 7, Line: 4, Col: 1}},
		{"blank lines", "a\n \t\n\nb\n", 0, "1:1@0 \"a\"\n4:1@6 \"b\"\n", LineStats{4, 2, 8}, ast.Pos{File: "f", Offset: 8, Line: 5, Col: 1}},
		{"byte-order mark", "\xef\xbb\xbfa\nb\n", 0, "1:4@3 \"a\"\n2:1@5 \"b\"\n", LineStats{2, 0, 7}, ast.Pos{File: "f", Offset: 7, Line: 3, Col: 1}},
		{"a mark later is text", "a\n\xef\xbb\xbfb\n", 0, "1:1@0 \"a\"\n2:1@2 \"\\ufeffb\"\n", LineStats{2, 0, 7}, ast.Pos{File: "f", Offset: 7, Line: 3, Col: 1}},
		{"over the limit", "abcd\nabcdef\nab\n", 4, "1:1@0 \"abcd\"\nlong 2@5 7\n3:1@12 \"ab\"\n", LineStats{3, 0, 15}, ast.Pos{File: "f", Offset: 15, Line: 4, Col: 1}},
		{"empty", "", 0, "", LineStats{}, ast.Pos{File: "f", Line: 1, Col: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, st, end, err := readAll(t, strings.NewReader(tc.in), tc.max)
			if err != nil || got != tc.want || st != tc.stats || end != tc.end {
				t.Errorf("got\n%s%+v %#v %v\nwant\n%s%+v %#v", got, st, end, err, tc.want, tc.stats, tc.end)
			}
		})
	}
}

// TestLinesLong: a line far longer than the reader's buffer is skipped in
// bounded memory and counted whole; the line after it is read.
func TestLinesLong(t *testing.T) {
	in := strings.Repeat("x", 300<<10) + "\nok\n"
	got, st, _, err := readAll(t, iotest.HalfReader(strings.NewReader(in)), 1000)
	if want := fmt.Sprintf("long 1@0 %d\n2:1@%d \"ok\"\n", 300<<10+1, 300<<10+1); err != nil || got != want || st.Lines != 2 {
		t.Errorf("got %q %+v %v, want %q", got, st, err, want)
	}
}

// TestLinesErrors: an error of the reader, of fn and of the context stops
// the read and is returned.
func TestLinesErrors(t *testing.T) {
	boom := errors.New("boom")
	_, _, _, err := readAll(t, iotest.ErrReader(boom), 0)
	if !errors.Is(err, boom) {
		t.Errorf("reader error: %v", err)
	}
	calls := 0
	_, _, err = Lines(context.Background(), strings.NewReader("a\nb\nc\n"), "f", 0, func(ast.Pos, string) error {
		calls++
		return boom
	}, nil)
	if !errors.Is(err, boom) || calls != 1 {
		t.Errorf("fn error: %v after %d calls", err, calls)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err = Lines(ctx, strings.NewReader("a\n"), "f", 0, func(ast.Pos, string) error { return nil }, nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
}
