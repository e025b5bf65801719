package tsfcheck_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/ast/golden"
	"github.com/tracekit/tracekit/lower/tsfcheck"
	"github.com/tracekit/tracekit/lower/tsfcompile"
)

// A marker names a diagnostic expected on the token just before it, in the
// manner of go/parser's ERROR comments: /* ERROR TRC094 */. A line comment
// "; expect SEVERE TRC201 at 6:1" names one that no inline marker can reach
// (an unclosed comment, the end of the file).
var (
	inlineMarker = regexp.MustCompile(`/\*\s*(FATAL|SEVERE|ERROR|WARNING)\s+(TRC\d{3})\s*\*/`)
	lineMarker   = regexp.MustCompile(`(?m)^;\s*expect\s+(FATAL|SEVERE|ERROR|WARNING)\s+(TRC\d{3})\s+at\s+(\d+):(\d+)`)
)

// expectation is one expected diagnostic: its line, the columns of the
// token it must fall in, its severity and code.
type expectation struct {
	line, from, to int
	severity, code string
}

func (e expectation) String() string {
	return fmt.Sprintf("%d:%d-%d %s %s", e.line, e.from, e.to, e.severity, e.code)
}

// lineCol returns the 1-based line and column of offset off.
func lineCol(src []byte, off int) (int, int) {
	line := 1 + bytes.Count(src[:off], []byte("\n"))
	return line, off - bytes.LastIndexByte(src[:off], '\n')
}

// tokenBefore returns the offsets of the token that ends before off,
// skipping white space and other markers.
func tokenBefore(src []byte, off int) (int, int) {
	end := off
	for {
		for end > 0 && strings.ContainsRune(" \t\r\n", rune(src[end-1])) {
			end--
		}
		if end >= 2 && string(src[end-2:end]) == "*/" {
			if start := bytes.LastIndex(src[:end], []byte("/*")); start >= 0 && inlineMarker.Match(src[start:end]) {
				end = start
				continue
			}
		}
		break
	}
	start := end - 1
	switch c := src[start]; {
	case c == '"':
		start--
		for start > 0 && !(src[start] == '"' && src[start-1] != '\\') {
			start--
		}
	case isWordByte(c):
		for start > 0 && (isWordByte(src[start-1]) || src[start-1] == '.') {
			start--
		}
	}
	return start, end
}

func isWordByte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '$' || c == '?'
}

func expectations(src []byte) []expectation {
	var out []expectation
	for _, m := range inlineMarker.FindAllSubmatchIndex(src, -1) {
		start, end := tokenBefore(src, m[0])
		line, from := lineCol(src, start)
		_, to := lineCol(src, end-1)
		out = append(out, expectation{line, from, to, string(src[m[2]:m[3]]), string(src[m[4]:m[5]])})
	}
	for _, m := range lineMarker.FindAllSubmatch(src, -1) {
		line, _ := strconv.Atoi(string(m[3]))
		col, _ := strconv.Atoi(string(m[4]))
		out = append(out, expectation{line, col, col, string(m[1]), string(m[2])})
	}
	return out
}

func (e expectation) matches(d diag.Diagnostic) bool {
	return d.Pos.Line == e.line && d.Pos.Col >= e.from && d.Pos.Col <= e.to &&
		strings.EqualFold(d.Severity.String(), e.severity) && string(d.Code) == e.code
}

// TestMarkers checks every testdata file: each diagnostic must be named by
// a marker, each marker must find its diagnostic, and the full text must
// match the golden file beside it.
func TestMarkers(t *testing.T) {
	files, err := filepath.Glob("testdata/*.tsf")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, name := range files {
		t.Run(filepath.Base(name), func(t *testing.T) {
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			_, diags := tsfcompile.Check(filepath.ToSlash(name), src, tsfcheck.Options{})
			want := expectations(src)
			used := make([]bool, len(want))
		next:
			for _, d := range diags {
				for i, e := range want {
					if !used[i] && e.matches(d) {
						used[i] = true
						continue next
					}
				}
				t.Errorf("unexpected diagnostic: %s", d)
			}
			for i, e := range want {
				if !used[i] {
					t.Errorf("missing diagnostic %s", e)
				}
			}
			var buf bytes.Buffer
			if err := diags.WriteText(&buf); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, strings.TrimSuffix(name, ".tsf")+".golden", buf.Bytes())
		})
	}
}
