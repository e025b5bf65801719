package lineconv

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
)

type line struct {
	Words []string `parser:"@Ident+"`
}

type dotted struct {
	A string `parser:"@Ident '.'"`
	B string `parser:"@Ident"`
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
	c.Words = Words{`"." <ident>`: "a dot and a name"}
	_, err = participle.MustBuild[dotted]().ParseString("", "ab 12")
	c.ParseError(err, "X001", "line")
	_, err = participle.MustBuild[line]().ParseString("", "abc \x7f")
	c.ParseError(err, "X004", "line")
	c.ParseError(errors.New("boom"), "X002", "line")
	c.Warnf(c.Pos(lexer.Position{Offset: 1}), "X003", "odd")
	want := []string{
		"f:7:5: error: line: unexpected \"12\" [X001]",
		"f:7:4: error: line: expected a dot and a name, found \"12\" [X001]",
		"f:7:5: error: line: unexpected \"\\x7f\" [X004]",
		"f:7:1: error: line: the line cannot be read [X002]",
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

// generated stands for a generated parser: it takes every line as one word.
type generated struct{}

func (generated) ParseInto(_, s string, out *line) error {
	*out = line{Words: []string{s}}
	return nil
}

func TestParse(t *testing.T) {
	built := 0
	ref := func() *participle.Parser[line] {
		built++
		return participle.MustBuild[line]()
	}
	var out line
	p, err := Parse(false, ref, generated{}, "a b", &out)
	if err != nil || p != &out || len(out.Words) != 1 {
		t.Errorf("generated: %v, %v", p, err)
	}
	if built != 0 {
		t.Errorf("the generated parser built participle's")
	}
	p, err = Parse(true, ref, generated{}, "a b", &out)
	if err != nil || p == &out || len(p.Words) != 2 || built != 1 {
		t.Errorf("reference: %v, %v (participle's parser built %d times)", p, err, built)
	}
}

func TestDepth(t *testing.T) {
	deep := strings.Repeat("(", MaxDepth) + `"((("` + "(x" + strings.Repeat(")", MaxDepth+1)
	if off, ok := Depth(deep, "([", ")]"); ok || off != MaxDepth+5 {
		t.Errorf("Depth of a line one too deep = %d, %v", off, ok)
	}
	if _, ok := Depth(strings.Repeat("()", 2*MaxDepth), "(", ")"); !ok {
		t.Error("Depth refused brackets side by side")
	}
	if _, ok := Depth(deep, "{", "}"); !ok {
		t.Error("Depth counted brackets that are not the dialect's")
	}
	c := Converter{Base: ast.Pos{File: "f", Line: 1, Col: 1}}
	c.TooDeep(3, "X009")
	if len(c.Diags) != 1 || c.Diags[0].String() != "f:1:4: error: values nested more than 64 deep [X009]" {
		t.Errorf("TooDeep: %v", c.Diags)
	}
}

// TestDecimal: Decimal agrees with strconv.ParseUint where it answers, and
// leaves the rest to it.
func TestDecimal(t *testing.T) {
	for _, s := range []string{"0", "7", "007", "42", "9999999999999999999", "18446744073709551615", "", "-1", "+1", "1x", "0x10", "12 "} {
		v, ok := Decimal(s)
		want, err := strconv.ParseUint(s, 10, 64)
		switch {
		case ok && (err != nil || v != want):
			t.Errorf("Decimal(%q) = %d, strconv says %d, %v", s, v, want, err)
		case !ok && len(s) <= 19 && err == nil:
			t.Errorf("Decimal(%q) leaves %d to strconv", s, want)
		}
	}
}
