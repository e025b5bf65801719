// Package ntstrace is the participle grammar of the original strace for
// NT output format, one line a call or a half of one:
//
//	ID PID TID Name (IN, IN, ... OUT, OUT, ) == RET
//	ID PID TID Name (IN, IN, ...                    the call is under way
//	ID PID TID Name ... OUT, ) == RET               ... and returns
//
// ParseLine turns the parse into the plain nodes of ast/ntstrace; pairing
// the halves by call id is the lowering's business.
package ntstrace

//go:generate go run ../internal/pgen

import (
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	ntast "github.com/tracekit/tracekit/ast/ntstrace"
	"github.com/tracekit/tracekit/grammar/internal/lineconv"
)

// The lexer. Strings hold NT paths whose backslashes are no escapes: a
// string ends at the next quote.
var (
	callLexer = lexer.MustSimple([]lexer.SimpleRule{
		{Name: "String", Pattern: `"[^"]*"`},
		{Name: "Ellipsis", Pattern: `\.\.\.`},
		{Name: "Number", Pattern: `-?[0-9][0-9A-Fa-fxX]*`},
		{Name: "Ident", Pattern: `[A-Za-z_][A-Za-z0-9_]*`},
		{Name: "Punct", Pattern: `==|[{}(),=]`},
		{Name: "Space", Pattern: `\s+`},
	})
	callParser = sync.OnceValue(func() *participle.Parser[callLine] {
		return participle.MustBuild[callLine](
			participle.Lexer(callLexer),
			participle.Elide("Space"),
		)
	})
)

type number struct {
	Pos  lexer.Position
	Text string `parser:"@Number"`
}

type identifier struct {
	Pos  lexer.Position
	Name string `parser:"@Ident"`
}

// callLine is one line: the call's numbers and name, then its arguments
// as far as the line gives them.
type callLine struct {
	ID    number     `parser:"@@"`
	PID   number     `parser:"@@"`
	TID   number     `parser:"@@"`
	Name  identifier `parser:"@@"`
	Open  bool       `parser:"@'('?"`
	In    []*arg     `parser:"( @@ ','? )*"`
	Dots  bool       `parser:"@Ellipsis?"`
	Out   []*arg     `parser:"( @@ ','? )*"`
	Close bool       `parser:"@')'?"`
	Ret   *value     `parser:"( '==' @@ )?"`
}

// arg is an argument, labelled inside a structure.
type arg struct {
	Label *identifier `parser:"( @@ '=' )?"`
	Value *value      `parser:"@@"`
}

type value struct {
	Pos    lexer.Position
	Number *string `parser:"  @Number"`
	String *string `parser:"| @String"`
	Name   *string `parser:"| @Ident"`
	Struct []*arg  `parser:"| '{' ( @@ ','? )* '}'"`
}

// LineParser parses lines with the parser generated from the grammar, or
// with participle's (Reference), which it is tested against.
type LineParser struct {
	Reference bool
	gen       callParserGen
	line      callLine
}

// ParseLine parses one line starting at pos with the generated parser.
func ParseLine(pos ast.Pos, text string) (*ntast.Call, diag.List) {
	var lp LineParser
	return lp.Line(pos, text)
}

// Line parses one line starting at pos: the call, or nil and an error.
func (lp *LineParser) Line(pos ast.Pos, text string) (*ntast.Call, diag.List) {
	c := &lineconv.Converter{Base: pos, Words: callWords}
	if off, ok := lineconv.Depth(text, "{(", "})"); !ok {
		c.TooDeep(off, ntast.CodeDepth)
		return nil, c.Diags
	}
	lp.line = callLine{}
	l, err := lineconv.Parse(lp.Reference, callParser, &lp.gen, text, &lp.line)
	if err != nil {
		c.ParseError(err, ntast.CodeSyntax, "not a call line")
		return nil, c.Diags
	}
	word := func(p lexer.Position, s string) ntast.Word { return ntast.Word{Pos: c.Pos(p), Text: s} }
	call := &ntast.Call{
		Pos: pos, ID: word(l.ID.Pos, l.ID.Text), PID: word(l.PID.Pos, l.PID.Text), TID: word(l.TID.Pos, l.TID.Text),
		Name: word(l.Name.Pos, l.Name.Name), OutsGiven: l.Dots,
	}
	call.In = convertArgs(c, l.In)
	call.Out = convertArgs(c, l.Out)
	switch {
	case l.Open && l.Close && l.Ret != nil:
		call.Half = ntast.Whole
	case l.Open && l.Dots && !l.Close && l.Ret == nil && len(l.Out) == 0:
		call.Half = ntast.Start
	case !l.Open && l.Dots && len(l.In) == 0 && l.Close && l.Ret != nil:
		call.Half = ntast.End
	default:
		c.Errorf(pos, ntast.CodeSyntax, "not a call line: a call is ID PID TID Name (in, ... out, ) == result, or its first half up to \"...\", or its end from \"...\"")
		return nil, c.Diags
	}
	if l.Ret != nil {
		call.Ret = convertValue(c, l.Ret)
	}
	return call, nil
}

func convertArgs(c *lineconv.Converter, args []*arg) []*ntast.Value {
	var out []*ntast.Value
	for _, a := range args {
		v := convertValue(c, a.Value)
		if a.Label != nil {
			v.Label = a.Label.Name
		}
		out = append(out, v)
	}
	return out
}

func convertValue(c *lineconv.Converter, v *value) *ntast.Value {
	out := &ntast.Value{Pos: c.Pos(v.Pos)}
	switch {
	case v.Number != nil:
		out.Kind, out.Text = ntast.KindNumber, *v.Number
	case v.String != nil:
		out.Kind, out.Text = ntast.KindString, (*v.String)[1:len(*v.String)-1]
	case v.Name != nil:
		out.Kind, out.Text = ntast.KindName, *v.Name
	default:
		out.Kind, out.Fields = ntast.KindStruct, convertArgs(c, v.Struct)
	}
	return out
}
