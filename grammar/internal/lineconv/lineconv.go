// Package lineconv is what every line grammar of tracekit shares between
// its participle parse and its syntax tree: positions relative to the line
// made file positions, and the diagnostics of the line, a participle error
// among them.
package lineconv

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
)

// Converter converts the parse of one line. Base is the position of the
// line's first byte; a grammar embeds a Converter in its own converter and
// resets it for each line. Words is the grammar's table of what its
// failure points expect (ParseError).
type Converter struct {
	Base  ast.Pos
	Diags diag.List
	Words Words
}

// Words is a grammar's messages table, in the manner of Menhir's .messages
// files: for each point where a parse can fail, what was expected there in
// the dialect's own terms ("a return value after ')'"). A point is named by
// the text both the generated parser and participle give it in their
// errors (the grammar's notation of what remains of the sequence there),
// which never reaches a user: each grammar's test checks that every point
// of its generated parser's table has words, and no words are left over.
type Words map[string]string

// At returns the position of byte off of the line.
func (c *Converter) At(off int) ast.Pos {
	return ast.Pos{File: c.Base.File, Offset: c.Base.Offset + off, Line: c.Base.Line, Col: c.Base.Col + off}
}

// Pos returns the position of a participle position in the line.
func (c *Converter) Pos(p lexer.Position) ast.Pos { return c.At(p.Offset) }

// Report adds a diagnostic.
func (c *Converter) Report(p ast.Pos, sev diag.Severity, code diag.Code, msg string) {
	c.Diags.Add(diag.Diagnostic{Pos: p, Severity: sev, Code: code, Msg: msg})
}

// Errorf adds an error.
func (c *Converter) Errorf(p ast.Pos, code diag.Code, msg string) { c.Report(p, diag.Error, code, msg) }

// Warnf adds a warning.
func (c *Converter) Warnf(p ast.Pos, code diag.Code, msg string) {
	c.Report(p, diag.Warning, code, msg)
}

// ParseError reports a parse error as an error with code, at the error's
// position, in the dialect's words: "what: expected W, found "T"", W from
// c.Words for the point that failed and T the offending text, quoted with
// its control bytes escaped; "what: unexpected character "C"" for text no
// token of the dialect begins with. Errors of the generated parsers and of
// participle read the same.
func (c *Converter) ParseError(err error, code diag.Code, what string) {
	var (
		ute  *participle.UnexpectedTokenError
		lerr *lexer.Error
		perr participle.Error
	)
	switch {
	case errors.As(err, &ute):
		found := "the end of the line"
		if !ute.Unexpected.EOF() {
			found = diag.Quote(ute.Unexpected.Value, 40)
		}
		msg := what + ": unexpected " + found
		if w := c.Words.For(ExpectOf(ute)); w != "" {
			msg = what + ": expected " + w + ", found " + found
		}
		c.Errorf(c.Pos(ute.Position()), code, msg)
	case errors.As(err, &lerr):
		msg := what + ": unexpected character " + diag.Quote(lexSample(lerr.Msg), 0)
		if lexSample(lerr.Msg) == `"` {
			// Every dialect's strings are double-quoted: no rule takes one
			// that does not end.
			msg = what + ": a string with no closing quote"
		}
		c.Errorf(c.Pos(lerr.Position()), code, msg)
	case errors.As(err, &perr):
		c.Errorf(c.Pos(perr.Position()), code, what+": the line cannot be read here")
	default:
		c.Errorf(c.Base, code, what+": the line cannot be read")
	}
}

// ExpectOf returns the name of the failure point of an unexpected-token
// error: the text in its message's "(expected …)".
func ExpectOf(ute *participle.UnexpectedTokenError) string {
	m := ute.Message()
	i := strings.Index(m, " (expected ")
	if i < 0 || !strings.HasSuffix(m, ")") {
		return ""
	}
	return m[i+len(" (expected ") : len(m)-1]
}

// For returns the words of a failure point, or "" when there are none
// (the grammar's test keeps that from happening).
func (w Words) For(point string) string {
	if point == "" {
		return ""
	}
	return w[point]
}

// lexSample returns the first character of the text a lexer error quotes
// ("lexer: invalid input text "…""), or "" when it cannot be read.
func lexSample(msg string) string {
	i := strings.Index(msg, `"`)
	if i < 0 {
		return ""
	}
	s, err := strconv.Unquote(msg[i:])
	if err != nil || s == "" {
		return ""
	}
	_, size := utf8.DecodeRuneInString(s)
	return s[:size]
}

// CheckWords compares a grammar's words with the failure points of its
// generated parser (its pgenExpect table): it returns the points without
// words and the words of no point.
func CheckWords(words Words, points []string) (missing, extra []string) {
	seen := map[string]bool{}
	for _, p := range points {
		seen[p] = true
		if words[p] == "" {
			missing = append(missing, p)
		}
	}
	for p := range words {
		if !seen[p] {
			extra = append(extra, p)
		}
	}
	return missing, extra
}

// Generated is a parser grammar/internal/pgen generated for the root T.
type Generated[T any] interface {
	ParseInto(filename, s string, out *T) error
}

// Parse parses line with gen into *out, or, when reference is set, with
// ref(), participle's reflective parser that gen is tested against (a
// sync.OnceValue of the grammar package, built on first use), into a new
// tree: the choice every LineParser offers. It returns the tree parsed and
// the error.
func Parse[T any, G Generated[T]](reference bool, ref func() *participle.Parser[T], gen G, line string, out *T) (*T, error) {
	if reference {
		return ref().ParseString("", line)
	}
	return out, gen.ParseInto("", line, out)
}

// MaxDepth bounds how deeply the brackets of a line may nest: the parsers
// recurse once a level, and a deeper line is refused before parsing.
const MaxDepth = 64

// Depth scans line for brackets nested more than MaxDepth deep, opens and
// closes being the dialect's opening and closing brackets; brackets inside
// double-quoted strings (with backslash escapes) do not count. It returns
// the offset of the bracket that passes MaxDepth and false, or 0 and true.
func Depth(line, opens, closes string) (int, bool) {
	// The opening brackets of the whole line, strings included, bound the
	// depth: when there are few (nearly always), no scan is needed.
	n := 0
	for i := 0; i < len(opens) && len(line) > MaxDepth; i++ {
		n += strings.Count(line, opens[i:i+1])
	}
	if n <= MaxDepth {
		return 0, true
	}
	depth := 0
	for i := 0; i < len(line); i++ {
		switch b := line[i]; {
		case b == '"':
			for i++; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' {
					i++
				}
			}
		case strings.IndexByte(opens, b) >= 0:
			depth++
			if depth > MaxDepth {
				return i, false
			}
		case strings.IndexByte(closes, b) >= 0:
			if depth > 0 {
				depth--
			}
		}
	}
	return 0, true
}

// TooDeep reports code at byte off of the line, where values nest more
// than MaxDepth deep (as Depth found).
func (c *Converter) TooDeep(off int, code diag.Code) {
	c.Errorf(c.At(off), code, "values nested more than "+strconv.Itoa(MaxDepth)+" deep")
}

// Decimal reads s as strconv.ParseUint(s, 10, 64) does when s is 1 to 19
// decimal digits (which cannot overflow), the common case of a line's
// numbers, without strconv; false sends the caller to strconv, which
// decides (and words the error).
func Decimal(s string) (uint64, bool) {
	if len(s) == 0 || len(s) > 19 {
		return 0, false
	}
	var v uint64
	for i := 0; i < len(s); i++ {
		d := s[i] - '0'
		if d > 9 {
			return 0, false
		}
		v = v*10 + uint64(d)
	}
	return v, true
}
