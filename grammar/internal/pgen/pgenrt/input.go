package pgenrt

import (
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Input is what a parser fed by a generated lexer parses: the text and its
// tokens. A generated parser embeds one and keeps its token storage from
// parse to parse.
type Input struct {
	filename, src string
	toks          []Token
}

// Lex splits src into tokens with lx, leaving out those of the rules in
// the elide mask.
func (in *Input) Lex(lx *Lexer, filename, src string, elide uint64) error {
	toks, err := lx.Lex(filename, src, elide, in.toks[:0])
	in.toks = toks
	if err != nil {
		return err
	}
	in.filename, in.src = filename, src
	return nil
}

// Pos returns the position of token i.
func (in *Input) Pos(i int) lexer.Position {
	t := &in.toks[i]
	return lexer.Position{Filename: in.filename, Offset: int(t.Start), Line: int(t.Line), Column: int(t.Col)}
}

// SetPos sets *p to the position of token i, field by field (the copy
// of a whole Position, which holds a pointer, goes through the run time).
func (in *Input) SetPos(p *lexer.Position, i int) {
	t := &in.toks[i]
	p.Filename = in.filename
	p.Offset, p.Line, p.Column = int(t.Start), int(t.Line), int(t.Col)
}

// Type returns the rule of token i, -1 at the end of the input.
func (in *Input) Type(i int) int32 { return in.toks[i].Type }

// Text returns the text of token i.
func (in *Input) Text(i int) string {
	t := &in.toks[i]
	return in.src[t.Start:t.End]
}

// Lit matches the literal s at the cursor.
func (in *Input) Lit(c *State, s string) (bool, Err) {
	if in.Text(c.Cur) != s {
		return false, Err{}
	}
	c.Cur++
	return true, Err{}
}

// Ref matches a token of rule typ at the cursor.
func (in *Input) Ref(c *State, typ int32) (bool, Err) {
	if in.toks[c.Cur].Type != typ {
		return false, Err{}
	}
	c.Cur++
	return true, Err{}
}

// Finish returns the error of a parse of the root that returned m and e
// with the cursor c, expect being the parser's "expected" texts: e, or
// the deepest error when the root did not match or did not reach the end.
func (in *Input) Finish(c *State, m bool, e Err, expect []string) error {
	if e.On {
		return in.err(e, expect)
	}
	if !m || in.toks[c.Cur].Type >= 0 {
		return in.err(c.Deepest(c.Fail(-1)), expect)
	}
	return nil
}

// err is participle's error for e.
func (in *Input) err(e Err, expect []string) error {
	t := &in.toks[e.Tok]
	typ := lexer.EOF
	if t.Type >= 0 {
		typ = lexer.EOF - 1 - lexer.TokenType(t.Type)
	}
	return &participle.UnexpectedTokenError{Unexpected: lexer.Token{Type: typ, Value: in.src[t.Start:t.End], Pos: in.Pos(int(e.Tok))}, Expect: expected(e, expect)}
}

// Tokens is what a parser fed by a package's own scanner parses: the
// tokens the scanner made and the end of the input after them. A
// generated parser embeds one.
type Tokens struct {
	toks []lexer.Token
	eof  lexer.Token
	fold []lexer.TokenType
}

// Start sets the tokens to parse, the position of the end of the input
// and the token types whose literals match in any case.
func (t *Tokens) Start(toks []lexer.Token, eof lexer.Position, fold []lexer.TokenType) {
	t.toks, t.fold = toks, fold
	if t.eof.Type != lexer.EOF || t.eof.Pos != eof {
		// A parser fed one statement at a time meets the same end many
		// times over.
		t.eof = lexer.EOFToken(eof)
	}
}

// Tok returns token i, or the end of the input after the last.
func (t *Tokens) Tok(i int) *lexer.Token {
	if i < len(t.toks) {
		return &t.toks[i]
	}
	return &t.eof
}

// Pos returns the position of token i.
func (t *Tokens) Pos(i int) lexer.Position { return t.Tok(i).Pos }

// SetPos sets *p to the position of token i.
func (t *Tokens) SetPos(p *lexer.Position, i int) { *p = t.Tok(i).Pos }

// Type returns the type of token i.
func (t *Tokens) Type(i int) lexer.TokenType { return t.Tok(i).Type }

// Text returns the text of token i.
func (t *Tokens) Text(i int) string { return t.Tok(i).Value }

// Slice returns the tokens from start to end, as far as there are tokens.
func (t *Tokens) Slice(start, end int) []lexer.Token {
	return t.toks[start:min(end, len(t.toks))]
}

// Lit matches the literal s at the cursor, in any case for the token
// types that fold case.
func (t *Tokens) Lit(c *State, s string) (bool, Err) {
	if !t.Is(c.Cur, s) {
		return false, Err{}
	}
	c.Cur++
	return true, Err{}
}

// Key returns the first byte of token i's text with an ASCII letter in
// lower case, 0x80 for any byte from 0x80 on, 0 for an empty text: what a
// generated disjunction switches on to skip the alternatives that cannot
// start with that byte.
func (t *Tokens) Key(i int) byte {
	v := t.Tok(i).Value
	if v == "" {
		return 0
	}
	c := v[0]
	switch {
	case c >= 'A' && c <= 'Z':
		c += 'a' - 'A'
	case c >= 0x80:
		c = 0x80
	}
	return c
}

// Is reports whether token i is the literal s, as Lit matches it: the
// test of a first set (see grammar/internal/pgen) holding s.
func (t *Tokens) Is(i int, s string) bool {
	tok := t.Tok(i)
	if v := tok.Value; v != "" && s != "" && v[0]|s[0] < utf8.RuneSelf && v[0]|0x20 != s[0]|0x20 {
		// Two ASCII first bytes that are not one letter in two cases
		// (which differ in bit 0x20 alone): neither s nor s in another
		// case, at the cost of a compare (most tests of a first set
		// fail so).
		return false
	}
	return tok.Value == s || t.equalFold(tok, s)
}

// equalFold reports whether tok is of a type that folds case and is s in
// some case.
func (t *Tokens) equalFold(tok *lexer.Token, s string) bool {
	for _, f := range t.fold {
		if f == tok.Type {
			return firstFolds(tok.Value, s) && strings.EqualFold(tok.Value, s)
		}
	}
	return false
}

// firstFolds reports whether the first bytes of a and b may fold to each
// other: false when both are ASCII and are not one letter in two cases
// (an ASCII byte folds only to ASCII: the runes outside ASCII that fold
// to K and S start with no ASCII byte), which EqualFold would find at
// its first rune.
func firstFolds(a, b string) bool {
	if a == "" || b == "" {
		return true
	}
	x, y := a[0], b[0]
	if x >= utf8.RuneSelf || y >= utf8.RuneSelf || x == y {
		return true
	}
	if x >= 'a' && x <= 'z' {
		x -= 'a' - 'A'
	}
	if y >= 'a' && y <= 'z' {
		y -= 'a' - 'A'
	}
	return x == y
}

// Ref matches a token of type typ at the cursor.
func (t *Tokens) Ref(c *State, typ lexer.TokenType) (bool, Err) {
	if t.Tok(c.Cur).Type != typ {
		return false, Err{}
	}
	c.Cur++
	return true, Err{}
}

// Finish returns the error of a parse of the root that returned m and e
// with the cursor c, expect being the parser's "expected" texts: e, or
// the deepest error when the root did not match or, unless allowTrailing,
// left tokens.
func (t *Tokens) Finish(c *State, m bool, e Err, allowTrailing bool, expect []string) error {
	if e.On {
		return t.err(e, expect)
	}
	if !m || (!allowTrailing && t.Tok(c.Cur).Type != lexer.EOF) {
		return t.err(c.Deepest(c.Fail(-1)), expect)
	}
	return nil
}

func (t *Tokens) err(e Err, expect []string) error {
	return &participle.UnexpectedTokenError{Unexpected: *t.Tok(int(e.Tok)), Expect: expected(e, expect)}
}

// ParseTokens parses toks, followed by the end of the input at eof, with
// root, the function of the generated parser p for its root struct, as
// participle's ParseFromLexer does with AllowTrailing(allowTrailing): a
// new tree and the number of tokens it took. The literals of the token
// types in fold match in any case; expect is the parser's table of
// "expected" texts.
func ParseTokens[P, T any](p P, t *Tokens, root func(P, *State, *T) (bool, Err), toks []lexer.Token, eof lexer.Position, allowTrailing bool, fold []lexer.TokenType, expect []string) (*T, int, error) {
	t.Start(toks, eof, fold)
	out := new(T)
	var c State
	m, e := root(p, &c, out)
	if err := t.Finish(&c, m, e, allowTrailing, expect); err != nil {
		return nil, c.Cur, err
	}
	return out, c.Cur, nil
}
