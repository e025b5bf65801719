// Package lineconv is what every line grammar of tracekit shares between
// its participle parse and its syntax tree: positions relative to the line
// made file positions, and the diagnostics of the line, a participle error
// among them.
package lineconv

import (
	"errors"
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
)

// Converter converts the parse of one line. Base is the position of the
// line's first byte; a grammar embeds a Converter in its own converter and
// resets it for each line.
type Converter struct {
	Base  ast.Pos
	Diags diag.List
}

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

// ParseError reports a parse error as an error with code: "what: message"
// at the error's position when it is a participle.Error (as the generated
// parsers return too), at the start of the line otherwise.
func (c *Converter) ParseError(err error, code diag.Code, what string) {
	var perr participle.Error
	if errors.As(err, &perr) {
		c.Errorf(c.Pos(perr.Position()), code, what+": "+perr.Message())
		return
	}
	c.Errorf(c.Base, code, what+": "+err.Error())
}

// Generated is a parser grammar/internal/pgen generated for the root T.
type Generated[T any] interface {
	ParseInto(filename, s string, out *T) error
}

// Parse parses line with gen into *out, or, when reference is set, with
// ref, participle's reflective parser that gen is tested against, into a
// new tree: the choice every LineParser offers. It returns the tree parsed
// and the error.
func Parse[T any, G Generated[T]](reference bool, ref *participle.Parser[T], gen G, line string, out *T) (*T, error) {
	if reference {
		return ref.ParseString("", line)
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
