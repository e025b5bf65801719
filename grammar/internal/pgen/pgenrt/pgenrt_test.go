package pgenrt

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// words is the lexer of two rules, Word [a-z]+ and Space [ \n]+, merged:
// groups are the letters, the space, other ASCII, the line feed and the
// non-ASCII bytes; the state at row 7 is in a word, at row 14 in spaces.
func words() *Lexer {
	var group [256]uint8
	for b := range group {
		switch {
		case b >= 'a' && b <= 'z':
			group[b] = 0
		case b == ' ':
			group[b] = 1
		case b == '\n':
			group[b] = 3
		case b >= 0x80:
			group[b] = 4
		default:
			group[b] = 2
		}
	}
	return &Lexer{
		Names:  []string{"Word", "Space"},
		Groups: 5,
		Group:  &group,
		Trans: []int16{
			7, 14, -1, 14, -1, -1, 0,
			7, -1, -1, -1, -1, 0, 1,
			-1, 14, -1, 14, -1, 1, 1,
		},
	}
}

// plus is the automaton of a rule matching one or more bytes of set.
func plus(set string) Automaton {
	a := Automaton{Trans: make([]int16, 2*Classes), Accept: []bool{false, true}}
	for i := range a.Trans {
		a.Trans[i] = -1
	}
	for _, c := range []byte(set) {
		a.Trans[int(c)] = 1
		a.Trans[Classes+int(c)] = 1
	}
	return a
}

// wordsByRule is words with one automaton a rule.
func wordsByRule() *Lexer {
	return &Lexer{
		Names:    []string{"Word", "Space"},
		Automata: []Automaton{plus("abcdefghijklmnopqrstuvwxyz"), plus(" \n")},
	}
}

func TestLex(t *testing.T) {
	want := []Token{
		{Type: 0, Start: 0, End: 2, Line: 1, Col: 1},
		{Type: 1, Start: 2, End: 3, Line: 1, Col: 3},
		{Type: 0, Start: 3, End: 5, Line: 1, Col: 4},
		{Type: 1, Start: 5, End: 7, Line: 1, Col: 6},
		{Type: 0, Start: 7, End: 9, Line: 2, Col: 2},
		{Type: -1, Start: 9, End: 9, Line: 2, Col: 4},
	}
	for name, lx := range map[string]*Lexer{"merged": words(), "by rule": wordsByRule()} {
		got, err := lx.Lex("f", "ab cd\n ef", 0, nil)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Lex = %v, %v; want %v", name, got, err, want)
		}
		got, err = lx.Lex("f", "ab cd\n ef", 1<<1, nil)
		if err != nil || len(got) != 4 || got[1].Start != 3 || got[2].Line != 2 {
			t.Errorf("%s: Lex eliding Space = %v, %v", name, got, err)
		}
		_, err = lx.Lex("f", "ab\n c%é", 0, nil)
		var lerr *lexer.Error
		if !errors.As(err, &lerr) || lerr.Msg != `lexer: invalid input text "%é"` ||
			lerr.Pos != (lexer.Position{Filename: "f", Offset: 5, Line: 2, Column: 3}) {
			t.Errorf("%s: Lex of a stray byte: %#v", name, err)
		}
	}
}

func TestLexEmptyMatch(t *testing.T) {
	lx := wordsByRule()
	lx.Automata[1].Accept[0] = true // Space matches nothing at every position
	_, err := lx.Lex("f", "ab%", 0, nil)
	if err == nil || err.Error() != `f:1:3: lexer: rule "Space" did not match any input` {
		t.Errorf("got %v", err)
	}
}

func TestLexLongSample(t *testing.T) {
	_, err := words().Lex("", "%"+strings.Repeat("x", 20), 0, nil)
	if err == nil || !strings.Contains(err.Error(), `"%xxxxxxxxxxxxxxx..."`) {
		t.Errorf("got %v", err)
	}
}

func TestState(t *testing.T) {
	var c State
	c.Cur = 2
	e := c.Fail(7)
	if e != (Err{On: true, Tok: 2, Expect: 7}) {
		t.Fatalf("Fail = %+v", e)
	}
	if got := c.Deepest(Err{On: true, Tok: 2, Expect: -1}); got.Expect != -1 {
		t.Errorf("Deepest with nothing recorded = %+v", got)
	}
	// A branch that failed deeper than the cursor: its error is the deepest.
	b := c
	b.Cur = 4
	b.MaybeUpdate(b.Fail(3))
	if c.Stop(b.Fail(3), &b, 2) {
		t.Error("Stop accepted a branch within the lookahead")
	}
	if got := c.Deepest(c.Fail(-1)); got != (Err{On: true, Tok: 4, Expect: 3}) {
		t.Errorf("Deepest = %+v", got)
	}
	// A branch beyond the lookahead is accepted.
	b.Cur = 5
	if !c.Stop(b.Fail(1), &b, 2) || c.Cur != 5 {
		t.Errorf("Stop of a branch beyond the lookahead: cursor %d", c.Cur)
	}
	var d State
	d.Accept(&b)
	if d.Cur != 5 || d.Deepest(d.Fail(-1)).Expect != -1 {
		t.Errorf("Accept: %+v", d)
	}
}

func TestSlab(t *testing.T) {
	var s Slab[int]
	seen := map[*int]bool{}
	for i := 0; i < 3*slabChunk; i++ {
		p := s.Alloc()
		if seen[p] {
			t.Fatalf("Alloc %d returned a value twice", i)
		}
		seen[p] = true
		*p = i
	}
	s.Reset()
	if p := s.Alloc(); *p != 0 || !seen[p] {
		t.Errorf("after Reset, Alloc = %d, want the first value again", *p)
	}
}

func TestInput(t *testing.T) {
	var in Input
	if err := in.Lex(words(), "f", "ab cd", 1<<1); err != nil {
		t.Fatal(err)
	}
	var c State
	if m, _ := in.Lit(&c, "cd"); m || c.Cur != 0 {
		t.Error("Lit matched the wrong literal")
	}
	if m, _ := in.Lit(&c, "ab"); !m || c.Cur != 1 {
		t.Error("Lit did not match")
	}
	if in.Text(1) != "cd" || in.Pos(1) != (lexer.Position{Filename: "f", Offset: 3, Line: 1, Column: 4}) {
		t.Errorf("token 1: %q at %v", in.Text(1), in.Pos(1))
	}
	expect := []string{"Word", "nothing"}
	err := in.Finish(&c, true, Err{}, expect)
	var uerr *participle.UnexpectedTokenError
	if !errors.As(err, &uerr) || uerr.Unexpected.Value != "cd" || uerr.Unexpected.Type != lexer.EOF-1 || uerr.Expect != "" {
		t.Errorf("Finish before the end: %#v", err)
	}
	if err := in.Finish(&c, true, c.Fail(0), expect); !errors.As(err, &uerr) || uerr.Expect != "Word" {
		t.Errorf("Finish of an error: %v", err)
	}
	if m, _ := in.Ref(&c, 0); !m {
		t.Error("Ref did not match a Word")
	}
	if err := in.Finish(&c, true, Err{}, expect); err != nil {
		t.Errorf("Finish at the end: %v", err)
	}
	if err := in.Finish(&c, false, Err{}, expect); !errors.As(err, &uerr) || uerr.Unexpected.Type != lexer.EOF {
		t.Errorf("Finish of no match: %v", err)
	}
}

func TestTokens(t *testing.T) {
	const ident, punct lexer.TokenType = 1, 2
	toks := []lexer.Token{{Type: ident, Value: "Minor"}, {Type: punct, Value: "="}, {Type: punct, Value: "x"}}
	var in Tokens
	in.Start(toks, lexer.Position{Offset: 9}, []lexer.TokenType{ident})
	var c State
	if m, _ := in.Lit(&c, "MINOR"); !m {
		t.Error("Lit did not fold the case of an Ident")
	}
	if m, _ := in.Ref(&c, punct); !m || c.Cur != 2 {
		t.Error("Ref did not match")
	}
	if m, _ := in.Lit(&c, "X"); m {
		t.Error("Lit folded the case of a type that does not fold")
	}
	if len(in.Slice(0, 9)) != 3 || in.Text(1) != "=" {
		t.Error("Slice or Text")
	}
	if err := in.Finish(&c, true, Err{}, true, nil); err != nil {
		t.Errorf("Finish with trailing tokens allowed: %v", err)
	}
	var uerr *participle.UnexpectedTokenError
	if err := in.Finish(&c, true, Err{}, false, nil); !errors.As(err, &uerr) || uerr.Unexpected.Value != "x" {
		t.Errorf("Finish with a trailing token: %v", err)
	}
	c.Cur = 3
	if err := in.Finish(&c, true, Err{}, false, nil); err != nil || in.Tok(3).Type != lexer.EOF || in.Pos(3).Offset != 9 {
		t.Errorf("Finish at the end: %v", err)
	}
}

func TestTree(t *testing.T) {
	v := 1
	if got, err := Tree(&v, nil); got != &v || err != nil {
		t.Error("Tree without an error")
	}
	if got, err := Tree(&v, errors.New("x")); got != nil || err == nil {
		t.Error("Tree with an error")
	}
}

func TestParseTokens(t *testing.T) {
	toks := []lexer.Token{{Type: 1, Value: "a"}, {Type: 1, Value: "b"}}
	// one takes one token into the tree.
	one := func(p *int, c *State, out *string) (bool, Err) {
		*p++
		*out = toks[c.Cur].Value
		c.Cur++
		return true, Err{}
	}
	var calls int
	var in Tokens
	out, n, err := ParseTokens(&calls, &in, one, toks, lexer.Position{}, true, nil, nil)
	if err != nil || *out != "a" || n != 1 || calls != 1 {
		t.Errorf("ParseTokens with trailing tokens allowed = %v, %d, %v", out, n, err)
	}
	out, n, err = ParseTokens(&calls, &in, one, toks, lexer.Position{}, false, nil, nil)
	if err == nil || out != nil || n != 1 {
		t.Errorf("ParseTokens with a trailing token = %v, %d, %v", out, n, err)
	}
}

func TestMissAndClose(t *testing.T) {
	var c State
	c.Cur = 3
	failed := Err{On: true, Tok: 5, Expect: 1}
	if got := c.Miss(failed, 2); got != failed {
		t.Errorf("Miss of a failed item = %+v", got)
	}
	if got := c.Miss(Err{}, 2); got != (Err{On: true, Tok: 3, Expect: 2}) {
		t.Errorf("Miss of an item that did not match = %+v", got)
	}
	if m, e := c.Close(false, Err{}); m || e.On {
		t.Errorf("Close of no match = %v, %+v", m, e)
	}
	if m, e := c.Close(true, failed); !m || e != failed {
		t.Errorf("Close of a failure = %v, %+v", m, e)
	}
	c.Cur = 0 // the error recorded lies beyond the cursor now
	if got := c.Deepest(Err{}); got != failed {
		t.Errorf("Close did not record the failure: deepest %+v", got)
	}
}

// TestFirstFolds: firstFolds is false only where strings.EqualFold is.
func TestFirstFolds(t *testing.T) {
	words := []string{"", "a", "A", "k", "K", "\u212a", "s", "S", "\u017f", "TRACE", "trace", "\u017fTATIC", "STATIC",
		"\u212aEY", "key", "=", "(", "é", "É", "1", "_x", "[", "{", "@", "`"}
	for _, a := range words {
		for _, b := range words {
			if !firstFolds(a, b) && strings.EqualFold(a, b) {
				t.Errorf("firstFolds(%q, %q) is false, EqualFold true", a, b)
			}
		}
	}
	for c := range 256 {
		for d := range 128 {
			a, b := string(rune(c)), string(rune(d))
			if !firstFolds(a, b) && strings.EqualFold(a, b) {
				t.Errorf("firstFolds(%q, %q) is false, EqualFold true", a, b)
			}
		}
	}
}

// TestIs: Is answers as participle's literal match does: the same text, or,
// for a type that folds, the text in any case (strings.EqualFold), also
// where its quick test of the first bytes decides.
func TestIs(t *testing.T) {
	const ident, punct lexer.TokenType = 1, 2
	words := []string{"", "a", "A", "k", "K", "\u212a", "s", "S", "\u017f", "TRACE", "trace", "tRaCe", "\u017fTATIC", "STATIC",
		"\u212aEY", "key", "KEY", "=", "(", "é", "É", "1", "_x", "[", "{", "@", "`", "MINOR", "FMT", "DESC", "desc", "DEſC"}
	for _, typ := range []lexer.TokenType{ident, punct} {
		for _, v := range words {
			var in Tokens
			in.Start([]lexer.Token{{Type: typ, Value: v}}, lexer.Position{}, []lexer.TokenType{ident})
			for _, s := range words {
				want := v == s || typ == ident && strings.EqualFold(v, s)
				if got := in.Is(0, s); got != want {
					t.Errorf("Is(%q of type %d, %q) = %v, want %v", v, typ, s, got, want)
				}
			}
		}
	}
}
