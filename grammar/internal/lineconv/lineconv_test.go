package lineconv

import (
	"errors"
	"testing"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
)

type line struct {
	Words []string `parser:"@Ident+"`
}

// TestConverter checks positions and the diagnostics of a real
// participle error and of another error.
func TestConverter(t *testing.T) {
	c := Converter{Base: ast.Pos{File: "f", Offset: 100, Line: 7, Col: 1}}
	if got := c.At(4); got != (ast.Pos{File: "f", Offset: 104, Line: 7, Col: 5}) {
		t.Errorf("At(4) = %#v", got)
	}
	_, err := participle.MustBuild[line]().ParseString("", "abc 12")
	c.ParseError(err, "X001", "line")
	c.ParseError(errors.New("boom"), "X002", "line")
	c.Warnf(c.Pos(lexer.Position{Offset: 1}), "X003", "odd")
	want := []string{
		"f:7:5: error: line: unexpected token \"12\" [X001]",
		"f:7:1: error: line: boom [X002]",
		"f:7:2: warning: odd [X003]",
	}
	if len(c.Diags) != len(want) {
		t.Fatalf("%v", c.Diags)
	}
	for i, d := range c.Diags {
		if d.String() != want[i] {
			t.Errorf("%d: %s, want %s", i, d, want[i])
		}
	}
	if c.Diags.Worst() != diag.Error {
		t.Error("no error")
	}
}
