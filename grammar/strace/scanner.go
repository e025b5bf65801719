package strace

import (
	"fmt"
	"io"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// scanner is the lexer the grammar runs on: the rules of lineLexer, in
// their order and with their first-match semantics, written as byte tests
// instead of regular expressions (participle's regexp lexer tries every rule
// in turn with a regexp, which cost a third of the parse). lineLexer stays
// the specification: FuzzScanner checks that both give the same tokens.
type scanner struct {
	symbols map[string]lexer.TokenType
	types   []lexer.TokenType // by rule index
}

// newScanner returns a scanner with the token types of def, whose rules
// must be ruleNames in this order.
func newScanner(def lexer.Definition) *scanner {
	s := &scanner{symbols: def.Symbols()}
	for _, name := range ruleNames {
		t, ok := s.symbols[name]
		if !ok {
			panic("strace: the lexer has no rule " + name)
		}
		s.types = append(s.types, t)
	}
	return s
}

// ruleNames are lineLexer's rules in order; rules holds their matchers in
// the same order.
var ruleNames = []string{
	"Space", "Paren", "Sep", "String", "Fd", "Clock", "Float", "Number", "Ident",
	"PidTag", "Comment", "Ellipsis", "Unfinished", "Detached", "Unavailable",
	"Resumed", "Resuming", "Duration", "Marker", "BinOp", "Unary", "Punct",
}

// A matcher returns the length of the rule's match at the start of s (the
// rest of l's text), 0 when the rule does not match.
type matcher func(l *scan, s string) int

// rules holds the matchers of ruleNames, in the same order.
var rules = []matcher{
	plain(matchSpace), plain(matchParen), plain(matchSep), matchString, matchFd, plain(matchClock), plain(matchFloat),
	plain(matchNumber), plain(matchIdent), plain(matchPidTag), matchComment, plain(matchEllipsis),
	plain(matchLiteral("<unfinished ...>")), plain(matchLiteral("<detached ...>")), plain(matchLiteral("<unavailable>")),
	plain(matchResumed), plain(matchResuming), plain(matchDuration), plain(matchMarker), plain(matchBinOp), plain(matchUnary), plain(matchPunct),
}

// plain makes a matcher of a function of the text alone.
func plain(m func(s string) int) matcher { return func(_ *scan, s string) int { return m(s) } }

// Symbols returns the token types, those of lineLexer.
func (s *scanner) Symbols() map[string]lexer.TokenType { return s.symbols }

// Lex reads r whole and scans it.
func (s *scanner) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return s.LexString(filename, string(b))
}

// LexString scans input.
func (s *scanner) LexString(filename string, input string) (lexer.Lexer, error) {
	return &scan{def: s, data: input, pos: lexer.Position{Filename: filename, Line: 1, Column: 1},
		noCommentFrom: math.MaxInt, noQuoteFrom: math.MaxInt, noBracketFrom: math.MaxInt}, nil
}

// scan is one run of the scanner over a text. The no*From offsets remember
// where a search for a closing "*/", quote or "]" failed: it fails from any
// later start too, so it is not repeated (repeating it made lines like
// /*/*/*… quadratic).
type scan struct {
	def  *scanner
	data string // what is left
	pos  lexer.Position

	noCommentFrom, noQuoteFrom, noBracketFrom int // offsets in the text; math.MaxInt when no search failed
}

// Next returns the next token: the first rule that matches, as
// participle's lexer takes it.
func (l *scan) Next() (lexer.Token, error) {
	if l.data == "" {
		return lexer.Token{Type: lexer.EOF, Pos: l.pos}, nil
	}
	for i, m := range rules {
		n := m(l, l.data)
		if n == 0 {
			continue
		}
		span := l.data[:n]
		l.data = l.data[n:]
		pos := l.pos
		l.pos.Advance(span)
		return lexer.Token{Type: l.def.types[i], Value: span, Pos: pos}, nil
	}
	sample := []rune(l.data)
	if len(sample) > 16 {
		sample = append(sample[:16], []rune("...")...)
	}
	return lexer.Token{}, &lexer.Error{Msg: fmt.Sprintf("lexer: invalid input text %q", string(sample)), Pos: l.pos}
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\f' || b == '\r' }
func isDigit(b byte) bool { return b >= '0' && b <= '9' }
func isWord(b byte) bool  { return isDigit(b) || isIdentStart(b) }
func isIdentStart(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// run returns how many bytes from s[i:] satisfy ok.
func run(s string, i int, ok func(byte) bool) int {
	j := i
	for j < len(s) && ok(s[j]) {
		j++
	}
	return j - i
}

func matchSpace(s string) int { return run(s, 0, isSpace) }

func matchOne(s string, set string) int {
	if strings.IndexByte(set, s[0]) >= 0 {
		return 1
	}
	return 0
}

func matchParen(s string) int { return matchOne(s, "()") }
func matchSep(s string) int   { return matchOne(s, ",{}]") }
func matchUnary(s string) int { return matchOne(s, "~!@") }
func matchPunct(s string) int { return matchOne(s, "=[:?<>.';$#`\\") }

// quoted returns the length of a C string literal at s[i:] ("(?:[^"\\]|\\.)*"),
// 0 when there is none. Once a search from an opening quote found no
// closing one, none is looked for from a later quote: the search passed over
// it, as a quote escaped or not, and read the text after it the same way.
func quoted(l *scan, s string, i int) int {
	if i >= len(s) || s[i] != '"' || l.pos.Offset+i >= l.noQuoteFrom {
		return 0
	}
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '"':
			return j + 1 - i
		case '\\':
			// \\. : any character but a line break.
			if j+1 >= len(s) || s[j+1] == '\n' {
				l.noQuoteFrom = min(l.noQuoteFrom, l.pos.Offset+i)
				return 0
			}
			_, w := utf8.DecodeRuneInString(s[j+1:])
			j += w
		}
	}
	l.noQuoteFrom = min(l.noQuoteFrom, l.pos.Offset+i)
	return 0
}

func matchString(l *scan, s string) int { return quoted(l, s, 0) }

// matchFd: (?:-?\d+|IDENT)<(?:[^<>\[\]"]|\[[^\]]*\]|"…"|<[^<>]*>)*>
func matchFd(l *scan, s string) int {
	i := 0
	switch {
	case isDigit(s[0]) || s[0] == '-' && len(s) > 1 && isDigit(s[1]):
		if s[0] == '-' {
			i = 1
		}
		i += run(s, i, isDigit)
	case isIdentStart(s[0]):
		i = run(s, 0, isWord)
	default:
		return 0
	}
	if i >= len(s) || s[i] != '<' {
		return 0
	}
	for i++; i < len(s); {
		switch s[i] {
		case '>':
			return i + 1
		case ']':
			return 0
		case '[':
			k := -1
			if l.pos.Offset+i < l.noBracketFrom {
				k = strings.IndexByte(s[i+1:], ']')
			}
			if k < 0 {
				l.noBracketFrom = min(l.noBracketFrom, l.pos.Offset+i)
				return 0
			}
			i += k + 2
		case '"':
			n := quoted(l, s, i)
			if n == 0 {
				return 0
			}
			i += n
		case '<':
			k := strings.IndexAny(s[i+1:], "<>")
			if k < 0 || s[i+1+k] != '>' {
				return 0
			}
			i += k + 2
		default:
			i++
		}
	}
	return 0
}

func digits2(s string, i int) bool { return i+1 < len(s) && isDigit(s[i]) && isDigit(s[i+1]) }

// matchClock: \d\d:\d\d:\d\d(?:\.\d+)?
func matchClock(s string) int {
	if !digits2(s, 0) || len(s) < 8 || s[2] != ':' || !digits2(s, 3) || s[5] != ':' || !digits2(s, 6) {
		return 0
	}
	if len(s) > 9 && s[8] == '.' && isDigit(s[9]) {
		return 9 + run(s, 9, isDigit)
	}
	return 8
}

// matchFloat: \d+\.\d+
func matchFloat(s string) int {
	i := run(s, 0, isDigit)
	if i == 0 || i+1 >= len(s) || s[i] != '.' || !isDigit(s[i+1]) {
		return 0
	}
	return i + 1 + run(s, i+1, isDigit)
}

// matchNumber: -?(?:0[xX][0-9a-fA-F]+|\d+)[0-9A-Za-z_]* — whichever branch
// matches, the match runs to the end of the letters and digits.
func matchNumber(s string) int {
	i := 0
	if s[0] == '-' {
		i = 1
	}
	if i >= len(s) || !isDigit(s[i]) {
		return 0
	}
	return i + run(s, i, isWord)
}

func matchIdent(s string) int {
	if !isIdentStart(s[0]) {
		return 0
	}
	return run(s, 0, isWord)
}

// matchPidTag: \[pid\s+\d+\]
func matchPidTag(s string) int {
	if !strings.HasPrefix(s, "[pid") {
		return 0
	}
	i := 4
	n := run(s, i, isSpace)
	if n == 0 {
		return 0
	}
	i += n
	n = run(s, i, isDigit)
	if n == 0 || i+n >= len(s) || s[i+n] != ']' {
		return 0
	}
	return i + n + 1
}

// matchComment: /\*.*?\*/ — the first */ after /*, with no line break
// before it.
func matchComment(l *scan, s string) int {
	if !strings.HasPrefix(s, "/*") || l.pos.Offset >= l.noCommentFrom {
		return 0
	}
	k := strings.Index(s[2:], "*/")
	if k < 0 {
		l.noCommentFrom = l.pos.Offset
		return 0
	}
	if strings.IndexByte(s[2:2+k], '\n') >= 0 {
		return 0
	}
	return k + 4
}

func matchLiteral(lit string) func(string) int {
	return func(s string) int {
		if strings.HasPrefix(s, lit) {
			return len(lit)
		}
		return 0
	}
}

var matchEllipsis = matchLiteral("...")

// matchResumed: <\.\.\. [A-Za-z0-9_]+ resumed>
func matchResumed(s string) int {
	if !strings.HasPrefix(s, "<... ") {
		return 0
	}
	n := run(s, 5, isWord)
	if n == 0 || !strings.HasPrefix(s[5+n:], " resumed>") {
		return 0
	}
	return 5 + n + len(" resumed>")
}

// matchResuming: <\.\.\. [^<>]*\.\.\.> — the first < or > after the
// opening must be a > right after "...".
func matchResuming(s string) int {
	if !strings.HasPrefix(s, "<... ") {
		return 0
	}
	k := strings.IndexAny(s[5:], "<>")
	if k < 3 || s[5+k] != '>' || s[5+k-3:5+k] != "..." {
		return 0
	}
	return 5 + k + 1
}

// matchDuration: <\d+\.\d+>
func matchDuration(s string) int {
	if s[0] != '<' {
		return 0
	}
	n := matchFloat(s[1:])
	if n == 0 || 1+n >= len(s) || s[1+n] != '>' {
		return 0
	}
	return n + 2
}

func matchMarker(s string) int {
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "+++") {
		return 3
	}
	return 0
}

// matchBinOp: =>|->|&&|\|\||==|!=|<<|>>|[-+*/%&|^]
func matchBinOp(s string) int {
	if len(s) >= 2 {
		switch s[:2] {
		case "=>", "->", "&&", "||", "==", "!=", "<<", ">>":
			return 2
		}
	}
	return matchOne(s, "-+*/%&|^")
}
