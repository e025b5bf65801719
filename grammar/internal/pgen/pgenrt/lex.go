package pgenrt

import (
	"math/bits"
	"strconv"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// Token is a token of a generated lexer: its rule (-1 at the end of the
// input), its bytes and the line and column it starts at.
type Token struct {
	Type       int32
	Start, End int32
	Line, Col  int32
}

// Classes is the size of the alphabet of an Automaton: the 128 ASCII
// bytes, then HiClass for every rune from U+0080 on.
const Classes = 129

// HiClass is the class of the runes from U+0080 on.
const HiClass = 128

// Lexer is the rules of a lexer.MustSimple definition as tables, with
// participle's priority: the rules are tried in order and the first that
// matches wins, with its own leftmost-first match. Either the rules are
// merged into one automaton (Group, Groups, Trans), or, when that would be
// too large, Automata holds one automaton a rule.
type Lexer struct {
	// Names are the rules' names, for the errors.
	Names []string

	// Group is the group of each byte: the bytes every state treats alike
	// share one. Bytes from 0x80 on stand for whole runes. The last two of
	// the Groups groups are the line feed's and the non-ASCII bytes'.
	Group  *[256]uint8
	Groups int
	// Trans holds a row of Groups+2 entries a state, the start state's
	// first: the offset in Trans of the next state's row by group (-1: no
	// rule goes on), then the first rule the state accepts (-1: none), then
	// 1 when some ASCII bytes but the line feed lead back to the state (the
	// lexer reads runs of them in a loop of their own), 2 when the state
	// accepts and no byte leads on (the token ends there), else 0. Rows are
	// named by their offsets so that no step of the automaton multiplies.
	Trans []int16
	// Code, when set, is Lex with the merged automaton as code, written
	// by the generator: it gives what Lex gives with the tables, only
	// faster (the tables stay for the tests that check it).
	Code func(lx *Lexer, filename, s string, elide uint64, toks []Token) ([]Token, error)

	// Automata is one automaton a rule, tried in order, when the rules are
	// not merged.
	Automata []Automaton
}

// Automaton is the automaton of one rule: Trans has Classes columns a
// state (-1: dead), Accept marks the accepting states; the start is 0.
type Automaton struct {
	Trans  []int16
	Accept []bool
}

// Lex splits s into tokens as participle's lexer does, appending them to
// toks; tokens of the rules in the elide mask are left out. The last token
// is the end of the input.
func (lx *Lexer) Lex(filename, s string, elide uint64, toks []Token) ([]Token, error) {
	if lx.Code != nil {
		return lx.Code(lx, filename, s, elide, toks)
	}
	if lx.Automata != nil {
		return lx.lexRules(filename, s, elide, toks)
	}
	line, col := int32(1), int32(1)
	pos := 0
	for pos < len(s) {
		rule, end, plain := lx.next(s, pos)
		if rule < 0 || end == pos {
			return toks, lx.Err(rule, filename, s, pos, line, col)
		}
		if elide&(1<<uint(rule)) == 0 {
			toks = Push(toks, int32(rule), int32(pos), int32(end), line, col)
		}
		if plain {
			col += int32(end - pos)
		} else {
			line, col = Advance(line, col, s[pos:end])
		}
		pos = end
	}
	return End(toks, pos, line, col), nil
}

// End appends the token of the end of the input, at pos, line and col.
func End(toks []Token, pos int, line, col int32) []Token {
	return append(toks, Token{Type: -1, Start: int32(pos), End: int32(pos), Line: line, Col: col})
}

// next reads the token at pos with the merged automaton: its rule (-1:
// none), its end, and whether it holds neither a line feed nor a
// multi-byte rune. It is a function of its own so that the variables of
// Lex do not crowd its loop out of the registers.
func (lx *Lexer) next(s string, pos int) (rule, end int, plain bool) {
	group, trans := lx.Group, lx.Trans
	ng := lx.Groups
	lf := ng - 2 // the line feed's group; the next is the non-ASCII bytes'
	row := 0
	rule, end, plain = int(trans[ng]), pos, true
	for p := pos; p < len(s); {
		g := int(group[s[p]])
		size := 1
		if g >= lf { // a line feed or a non-ASCII byte
			plain = false
			if g > lf {
				_, size = utf8.DecodeRuneInString(s[p:])
			}
		}
		row = int(trans[row+g])
		if row < 0 {
			break
		}
		p += size
		if a := trans[row+ng]; a >= 0 {
			if f := trans[row+ng+1]; f == 2 {
				return int(a), p, plain
			} else if f != 0 {
				for ; p < len(s); p++ {
					g := int(group[s[p]])
					if g >= lf || int(trans[row+g]) != row {
						break
					}
				}
			}
			rule, end = int(a), p
		}
	}
	return rule, end, plain
}

// RuneLen returns the length of the rune s starts with, for the code of
// generated lexers.
func RuneLen(s string) int {
	_, size := utf8.DecodeRuneInString(s)
	return size
}

// Push appends a token to toks, writing its fields in place: a Token
// built whole and then copied is written in 4-byte parts and read back in
// larger ones, which the processor cannot forward and waits for.
func Push(toks []Token, typ, start, end, line, col int32) []Token {
	n := len(toks)
	if n == cap(toks) {
		toks = Grow(toks)
	}
	toks = toks[:n+1]
	t := &toks[n]
	t.Type, t.Start, t.End, t.Line, t.Col = typ, start, end, line, col
	return toks
}

// Grow returns toks with room for one more token. The code of a generated
// lexer appends a token as Push does, written out in place: the Go
// compiler inlines next to nothing into a function as large as a lexer
// with many states, and a call a token costs more than the append.
func Grow(toks []Token) []Token {
	return append(toks, Token{})[:len(toks)]
}

// lexRules is Lex with one automaton a rule.
func (lx *Lexer) lexRules(filename, s string, elide uint64, toks []Token) ([]Token, error) {
	line, col := int32(1), int32(1)
	pos := 0
	for pos < len(s) {
		rule, end := -1, -1
		for i := range lx.Automata {
			if n := lx.Automata[i].match(s, pos); n >= 0 {
				rule, end = i, n
				break
			}
		}
		if rule < 0 || end == pos {
			return toks, lx.Err(rule, filename, s, pos, line, col)
		}
		if elide&(1<<uint(rule)) == 0 {
			toks = append(toks, Token{Type: int32(rule), Start: int32(pos), End: int32(end), Line: line, Col: col})
		}
		line, col = Advance(line, col, s[pos:end])
		pos = end
	}
	return append(toks, Token{Type: -1, Start: int32(pos), End: int32(pos), Line: line, Col: col}), nil
}

// match returns the end of the rule's longest match at pos, -1 for none.
func (a *Automaton) match(s string, pos int) int {
	st := 0
	last := -1
	if a.Accept[0] {
		last = pos
	}
	for pos < len(s) {
		b := s[pos]
		c, size := int(b), 1
		if b >= 0x80 {
			_, size = utf8.DecodeRuneInString(s[pos:])
			c = HiClass
		}
		st = int(a.Trans[st*Classes+c])
		if st < 0 {
			break
		}
		pos += size
		if a.Accept[st] {
			last = pos
		}
	}
	return last
}

// Advance moves a line and column over text, as participle's lexer
// positions do (columns count runes).
func Advance(line, col int32, text string) (int32, int32) {
	last := -1
	ascii := true
	for i := 0; i < len(text); i++ {
		switch b := text[i]; {
		case b == '\n':
			line++
			last = i
		case b >= 0x80:
			ascii = false
		}
	}
	if last < 0 {
		if ascii {
			return line, col + int32(len(text))
		}
		return line, col + int32(utf8.RuneCountInString(text))
	}
	return line, int32(utf8.RuneCountInString(text[last:]))
}

// Err returns participle's lexer error at pos, line and col: text no rule
// matches (rule -1), or rule matched nothing.
func (lx *Lexer) Err(rule int, filename, s string, pos int, line, col int32) error {
	msg := ""
	if rule < 0 {
		sample := []rune(s[pos:])
		if len(sample) > 16 {
			sample = append(sample[:16], []rune("...")...)
		}
		msg = "lexer: invalid input text " + strconv.Quote(string(sample))
	} else {
		msg = "lexer: rule " + strconv.Quote(lx.Names[rule]) + " did not match any input"
	}
	return &lexer.Error{Msg: msg, Pos: lexer.Position{Filename: filename, Offset: pos, Line: int(line), Column: int(col)}}
}

// Ones and Highs are the byte-wise constants of the generated lexers' runs
// read 8 bytes at a time: 0x01 and 0x80 in every byte.
const (
	Ones  = 0x0101010101010101
	Highs = 0x8080808080808080
)

// Load8 reads the first 8 bytes of s, little-endian, in one load.
func Load8(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// FirstByte is the index of the lowest byte of m with its high bit set
// (8 when m is 0).
func FirstByte(m uint64) int { return bits.TrailingZeros64(m) >> 3 }

// Tail8 reads the last n bytes of s (0 < n < 8, 8 <= len(s)) into the low
// bytes of the result, the first of them lowest, in one load; the bytes
// above them are 0.
func Tail8(s string, n int) uint64 { return Load8(s[len(s)-8:]) >> (64 - 8*uint(n)) }

// ZeroBytes has the high bit set in each byte of the result where x has
// a zero byte, and possibly in higher bytes than such a one (never when x
// has no zero byte).
func ZeroBytes(x uint64) uint64 { return (x - Ones) &^ x & Highs }
