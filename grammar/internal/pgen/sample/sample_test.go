package sample

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/tracekit/tracekit/grammar/internal/difftest"
)

var seeds = []string{
	"", ";", "let x = 1", "let! y: a.b.c = 'it''s' + \"q\"\"q\" * f(1, 2,) ; if x == 1 { g() } else { h(x) }",
	"let z = [1, 'a', 2.5][0][1] ? -x : (y)", "f.g.h() : a, b, c", "if a { } else { }", "let = 1", "if { }", "f(",
	"let x = 1 && 2 || 3 <= 4", "let x = -0x1F", "é", "let x = [", "g(1)(2)", "let x = 'unterminated", "a = b",
	"if x { let y = 1; if y { f() } }", "let x = y ? z", "let x = (1", "\x00", "let x = 1 ; ; ;",
}

func engines() (ref, gen, reuse difftest.Engine[program]) {
	var g, r programParserGen
	var out program
	return difftest.Participle(programParser), func(s string) (*program, error) { return g.ParseString("", s) },
		func(s string) (*program, error) { return &out, r.ParseInto("", s, &out) }
}

// TestSample: participle and the generated parser agree on a grammar that
// uses every supported construct.
func TestSample(t *testing.T) {
	ref, gen, reuse := engines()
	for _, s := range seeds {
		difftest.Check(t, ref, gen, s)
		difftest.Check(t, ref, reuse, s)
	}
}

func FuzzSample(f *testing.F) {
	for _, s := range seeds {
		f.Add(s)
	}
	ref, gen, reuse := engines()
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 200 {
			return // participle's backtracking is slow on long nonsense
		}
		difftest.Check(t, ref, gen, s)
		difftest.Check(t, ref, reuse, s)
	})
}

// lexBoth lexes s with the generated lexer's code (Code) and with its
// tables, and fails when the tokens or the errors differ.
func lexBoth(t *testing.T, s string) {
	t.Helper()
	code := pgenLexer_sampleLexer
	tables := code
	tables.Code = nil
	got, gerr := code.Lex("f", s, 0, nil)
	want, werr := tables.Lex("f", s, 0, nil)
	if !reflect.DeepEqual(got, want) || fmt.Sprint(gerr) != fmt.Sprint(werr) {
		t.Fatalf("%q: the code gives %v, %v; the tables %v, %v", s, got, gerr, want, werr)
	}
}

// TestLexerCode: the automaton written as code reads the same tokens as
// its tables, on the seeds, on every short string over bytes that take
// each kind of path (a run, a line feed, a multi-byte rune, a bad byte),
// on long runs with each byte at each place, and on random text.
func TestLexerCode(t *testing.T) {
	if pgenLexer_sampleLexer.Code == nil {
		t.Fatal("the sample lexer has no code")
	}
	for _, s := range seeds {
		lexBoth(t, s)
	}
	alphabet := []string{"a", "1", " ", "\n", "'", "\"", ".", "=", "é", "\xff", "0x", "!"}
	var walk func(prefix string, depth int)
	walk = func(prefix string, depth int) {
		lexBoth(t, prefix)
		if depth == 0 {
			return
		}
		for _, a := range alphabet {
			walk(prefix+a, depth-1)
		}
	}
	walk("", 4)
	// Runs read 8 bytes at a time (a string's inside, white space):
	// every byte at every place of a long run, and at every place of
	// every shorter one cut after it (read in one load of its last 8
	// bytes when fewer than 8 are left).
	for _, quote := range []string{"'", "\"", " "} {
		for at := range 18 {
			for c := range 256 {
				run := []byte(strings.Repeat("a", 20))
				if quote == " " {
					run = []byte(strings.Repeat(" ", 20))
				}
				run[at] = byte(c)
				lexBoth(t, quote+string(run)+quote)
				for end := at + 1; end <= len(run); end++ {
					lexBoth(t, quote+string(run[:end]))
				}
			}
			// A byte that only matters with the one after it (an escape
			// before a quote), on each side of an 8-byte word's end.
			for _, pair := range []string{`\'`, `\"`, `\\`, `""`, "\\\n"} {
				run := []byte(strings.Repeat("a", 20))
				copy(run[at:], pair)
				lexBoth(t, quote+string(run)+quote)
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = byte(rng.IntN(256))
			if rng.IntN(2) == 0 {
				b[i] = " \n'\"abc123=.!"[rng.IntN(13)]
			}
		}
		lexBoth(t, string(b))
	}
}

func FuzzLexerCode(f *testing.F) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(lexBoth)
}

// flatSeeds are lines for the flat grammars row and cells: some their fast
// path takes, some it leaves to the general path (a line feed, a rune from
// U+0080 on, a string holding either, a lexer error, a wrong or missing
// token, tokens left over).
var flatSeeds = []string{
	"a = 1 b c", "a=1 b", " a  + 2\tb\t", "a = 1", "a 1 b", "a = 1 b 2", "a = 1 b\nc", "a\n= 1 b", "a = 1 é",
	"é = 1 b", "a = 1 b 'x\ny'", "a = 1 b #", "1 2 3", "1", "", " ", "1 x", "1 2\n3", "1 2 'é'", "0x1F -2 +3.5",
	"1 2 ", "\n1", "1\t\t2",
}

func flatEngines() (rowRef, rowGen, rowReuse difftest.Engine[row], cellsRef, cellsGen, cellsReuse difftest.Engine[cells]) {
	var rg, rr rowParserGen
	var cg, cr cellsParserGen
	var rout row
	var cout cells
	return difftest.Participle(rowParser), func(s string) (*row, error) { return rg.ParseString("", s) },
		func(s string) (*row, error) { return &rout, rr.ParseInto("", s, &rout) },
		difftest.Participle(cellsParser()), func(s string) (*cells, error) { return cg.ParseString("", s) },
		func(s string) (*cells, error) { return &cout, cr.ParseInto("", s, &cout) }
}

// checkFlat checks the generated parsers of the flat grammars against
// participle on s, and their fast paths alone: when one takes s, its tree
// is participle's.
func checkFlat(t *testing.T, s string) {
	t.Helper()
	rref, rgen, rreuse, cref, cgen, creuse := flatEngines()
	difftest.Check(t, rref, rgen, s)
	difftest.Check(t, rref, rreuse, s)
	difftest.Check(t, cref, cgen, s)
	difftest.Check(t, cref, creuse, s)
	var rp rowParserGen
	// The fast path is given trees a parse before left, as ParseInto is.
	difftest.Check(t, rref, func(s string) (*row, error) {
		out := &row{Name: word{Pos: lexer.Position{Filename: "f", Offset: 9, Line: 2, Column: 3}, Text: "x"}, Num: number{Text: "1"}, Rest: []word{{Text: "y"}}}
		if !rp.flat("", s, out) {
			return rref(s) // not taken: nothing to compare
		}
		return out, nil
	}, s)
	var cp cellsParserGen
	difftest.Check(t, cref, func(s string) (*cells, error) {
		out := &cells{First: number{Text: "1"}, Rest: []number{{Text: "2"}}}
		if !cp.flat("", s, out) {
			return cref(s)
		}
		return out, nil
	}, s)
}

// TestFlat: the parsers of the flat grammars, and their fast paths, agree
// with participle; the fast path takes the plain lines that parse.
func TestFlat(t *testing.T) {
	for _, s := range append(flatSeeds, seeds...) {
		checkFlat(t, s)
	}
	var rp rowParserGen
	var cp cellsParserGen
	for _, s := range []string{"a = 1 b c", " a  + 2\tb\t", "a=1 b"} {
		if !rp.flat("", s, new(row)) {
			t.Errorf("row: the fast path does not take %q", s)
		}
	}
	for _, s := range []string{"1", "1 2 3", "0x1F -2 +3.5 "} {
		if !cp.flat("", s, new(cells)) {
			t.Errorf("cells: the fast path does not take %q", s)
		}
	}
}

// checkRunFlat checks the generated parser of fields, a flat grammar of a
// run lexer, against participle on s, and its fast path alone.
func checkRunFlat(t *testing.T, s string) {
	t.Helper()
	var g, r, fp fieldsParserGen
	var out fields
	ref := difftest.Participle(fieldsParser)
	difftest.Check(t, ref, func(s string) (*fields, error) { return g.ParseString("", s) }, s)
	difftest.Check(t, ref, func(s string) (*fields, error) { return &out, r.ParseInto("", s, &out) }, s)
	difftest.Check(t, ref, func(s string) (*fields, error) {
		out := &fields{Key: item{Pos: lexer.Position{Filename: "f", Offset: 9, Line: 2, Column: 3}, Text: "x"}, Tag: hexItem{Text: "#1"}, Vals: []item{{Text: "y"}}}
		if !fp.flat("", s, out) {
			return ref(s) // not taken: nothing to compare
		}
		return out, nil
	}, s)
}

// TestRunFlat: the flat parser of a run lexer (tokens read in place, no
// token function) agrees with participle on every string of up to 4
// bytes of its kinds of bytes, then on long words and random lines; its
// fast path takes the plain lines that parse.
func TestRunFlat(t *testing.T) {
	alphabet := []string{"a", "1", ":", "#", " ", "\t", "\n", "é", "g"}
	var walk func(s string, n int)
	walk = func(s string, n int) {
		checkRunFlat(t, s)
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			walk(s+c, n-1)
		}
	}
	walk("", 4)
	for _, s := range []string{
		"key:#0123456789abcdef0 value another", "k : #  v", "abcdefghijklmnop:#ff abcdefghijklmnopq r",
		"k:#1 abcdefghij\n", "k:#1 abcdefghijé", "k:#1abcdefghi x", " k:#:", "k:#1 v:",
	} {
		checkRunFlat(t, s)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 3000 {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			const kinds = "ab1f:# \t\r\nxyz"
			b[i] = kinds[rng.IntN(len(kinds))]
			if rng.IntN(30) == 0 {
				b[i] = byte(rng.IntN(256))
			}
		}
		checkRunFlat(t, string(b))
	}
	var fp fieldsParserGen
	for _, s := range []string{"k:#1", "k : # v w", "\tkey:#abc123 v1 v2 ", "abcdefghijkl:#0 abcdefghijklmnopqrstu"} {
		if !fp.flat("", s, new(fields)) {
			t.Errorf("fields: the fast path does not take %q", s)
		}
	}
}

func FuzzFlat(f *testing.F) {
	for _, s := range append(flatSeeds, seeds...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 200 {
			return
		}
		checkFlat(t, s)
		checkRunFlat(t, s)
	})
}
