// Package winstrace is the participle grammar of the Windows strace output
// format, one system call a line:
//
//	[> or <] id [*] pid tid Name[n](arg, arg, ...) [== ret]
//
// ParseLine parses a line and turns the parse into the plain nodes of
// ast/winstrace: integers get their values, strings their escapes decoded.
// Pairing the two halves of a call and checking [n] are the lowering's
// business.
package winstrace

//go:generate go run ../internal/pgen

import (
	"errors"
	"strconv"
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	wsast "github.com/tracekit/tracekit/ast/winstrace"
	"github.com/tracekit/tracekit/grammar/internal/chunk"
	"github.com/tracekit/tracekit/grammar/internal/lineconv"
)

// MaxDepth bounds how deeply structures and in-out values may nest; deeper
// lines are refused (winstrace.CodeDepth) before parsing.
const MaxDepth = lineconv.MaxDepth

// The lexer. "<" is a single token: the grammar tells the end marker at the
// start of a line from an in-out value inside the arguments. "???" is one
// token wherever it stands.
var (
	callLexer = lexer.MustSimple([]lexer.SimpleRule{
		{Name: "String", Pattern: `"(?:[^"\\]|\\.)*"`},
		{Name: "Unknown", Pattern: `\?\?\?`},
		{Name: "Number", Pattern: `-?[0-9][0-9A-Za-z_]*`},
		{Name: "Ident", Pattern: `[A-Za-z_][A-Za-z0-9_]*`},
		{Name: "Punct", Pattern: `==|[<>|{}()\[\],=*]`},
		{Name: "Space", Pattern: `\s+`},
	})
	callParser = sync.OnceValue(func() *participle.Parser[callLine] {
		return participle.MustBuild[callLine](
			participle.Lexer(callLexer),
			participle.Elide("Space"),
		)
	})
)

// number is a Number token with its position.
type number struct {
	Pos  lexer.Position
	Text string `parser:"@Number"`
}

type identifier struct {
	Pos  lexer.Position
	Name string `parser:"@Ident"`
}

type marker struct {
	Pos  lexer.Position
	Text string `parser:"@('>' | '<')"`
}

// callLine is the parse of one line.
type callLine struct {
	Marker *marker    `parser:"@@?"`
	ID     number     `parser:"@@"`
	Star   bool       `parser:"@'*'?"`
	PID    number     `parser:"@@"`
	TID    number     `parser:"@@"`
	Name   identifier `parser:"@@"`
	Count  number     `parser:"'[' @@ ']'"`
	Args   []*value   `parser:"'(' ( @@ ( ',' @@ )* )? ')'"`
	Ret    *value     `parser:"( '==' @@ )?"`
}

// value is one of the value forms (a) to (g) of the reference.
type value struct {
	Pos     lexer.Position
	Unknown bool       `parser:"  @Unknown"`
	Number  *string    `parser:"| @Number"`
	String  *string    `parser:"| @String"`
	Struct  *structure `parser:"| @@"`
	InOut   *inOut     `parser:"| @@"`
	Ident   *string    `parser:"| @Ident"`
}

type structure struct {
	Pos    lexer.Position
	Fields []*field `parser:"'{' ( @@ ( ',' @@ )* )? '}'"`
}

type field struct {
	First *value `parser:"@@"`
	Value *value `parser:"( '=' @@ )?"`
}

type inOut struct {
	Pos lexer.Position
	In  *value `parser:"'<' @@ '|'"`
	Out *value `parser:"@@ '>'"`
}

// converter turns positions relative to the line into ast positions and
// collects diagnostics.
type converter struct {
	lineconv.Converter
	nodes *nodes // where nodes come from; nil: one allocation each
}

// nodes hands out syntax-tree nodes from chunks (grammar/internal/chunk),
// so that a line costs a fraction of an allocation a node.
type nodes struct {
	calls   chunk.Of[wsast.Call]
	ints    chunk.Of[wsast.Int]
	idents  chunk.Of[wsast.Ident]
	strs    chunk.Of[wsast.String]
	structs chunk.Of[wsast.Struct]
	fields  chunk.Of[wsast.Field]
	inouts  chunk.Of[wsast.InOut]
	unknown chunk.Of[wsast.Unknown]
	values  chunk.Slices[wsast.Value]
	fptrs   chunk.Slices[*wsast.Field]
}

func newOf[T any](c *chunk.Of[T], v T) *T { return c.New(v) }

// reset hands out the nodes of the last chunks again (LineParser.Reuse).
func (n *nodes) reset() {
	n.calls.Reset()
	n.ints.Reset()
	n.idents.Reset()
	n.strs.Reset()
	n.structs.Reset()
	n.fields.Reset()
	n.inouts.Reset()
	n.unknown.Reset()
	n.values.Reset()
	n.fptrs.Reset()
}

func (c *converter) calls() *chunk.Of[wsast.Call] {
	if c.nodes == nil {
		return nil
	}
	return &c.nodes.calls
}

func (c *converter) ints() *chunk.Of[wsast.Int] {
	if c.nodes == nil {
		return nil
	}
	return &c.nodes.ints
}

func (c *converter) idents() *chunk.Of[wsast.Ident] {
	if c.nodes == nil {
		return nil
	}
	return &c.nodes.idents
}

func (c *converter) strs() *chunk.Of[wsast.String] {
	if c.nodes == nil {
		return nil
	}
	return &c.nodes.strs
}

func (c *converter) structs() *chunk.Of[wsast.Struct] {
	if c.nodes == nil {
		return nil
	}
	return &c.nodes.structs
}

func (c *converter) fields() *chunk.Of[wsast.Field] {
	if c.nodes == nil {
		return nil
	}
	return &c.nodes.fields
}

func (c *converter) inouts() *chunk.Of[wsast.InOut] {
	if c.nodes == nil {
		return nil
	}
	return &c.nodes.inouts
}

func (c *converter) unknowns() *chunk.Of[wsast.Unknown] {
	if c.nodes == nil {
		return nil
	}
	return &c.nodes.unknown
}

func (c *converter) valueSlice(n int) []wsast.Value {
	if c.nodes == nil {
		return make([]wsast.Value, 0, n)
	}
	return c.nodes.values.Make(n)
}

func (c *converter) fieldSlice(n int) []*wsast.Field {
	if c.nodes == nil {
		return make([]*wsast.Field, 0, n)
	}
	return c.nodes.fptrs.Make(n)
}

// ParseLine parses one line of a Windows strace trace. pos is where the line
// starts; the line has no line break. It returns nil and at least one error
// when the line is malformed, and warnings (unknown string escapes) with a
// call.
func ParseLine(pos ast.Pos, line string) (*wsast.Call, diag.List) {
	var lp LineParser
	return lp.line(pos, line, nil)
}

// LineParser parses lines with the parser generated from the grammar
// (parsers_gen.go), keeping its buffers from line to line: a lowering makes
// one per input. The zero LineParser is ready to use; it is not safe for
// concurrent use.
type LineParser struct {
	gen  callParserGen
	call callLine
	// Reference parses with participle's reflective parser instead, the
	// reference the generated one is tested against.
	Reference bool
	// Reuse makes Line return calls that stay valid only until the next
	// call (their nodes' storage is reused): for a lowering that keeps no
	// node, so that a line costs no allocation of nodes.
	Reuse bool
	nodes nodes
}

// Line parses one line, as ParseLine does. Its nodes come from chunks the
// parser allocates 64 nodes at a time.
func (lp *LineParser) Line(pos ast.Pos, line string) (*wsast.Call, diag.List) {
	if lp.Reuse {
		lp.nodes.reset()
	}
	return lp.line(pos, line, &lp.nodes)
}

func (lp *LineParser) line(pos ast.Pos, line string, nodes *nodes) (*wsast.Call, diag.List) {
	c := &converter{Converter: lineconv.Converter{Base: pos, Words: callWords}, nodes: nodes}
	if off, ok := tooDeep(line); !ok {
		c.TooDeep(off, wsast.CodeDepth)
		return nil, c.Diags
	}
	p, err := lineconv.Parse(lp.Reference, callParser, &lp.gen, line, &lp.call)
	if err != nil {
		c.ParseError(err, wsast.CodeSyntax, "not a call line")
		return nil, c.Diags
	}
	call := newOf(c.calls(), wsast.Call{
		Pos:    pos,
		ID:     c.count(&p.ID, "call id"),
		Kernel: p.Star,
		PID:    c.count(&p.PID, "process id"),
		TID:    c.count(&p.TID, "thread id"),
		Name:   newOf(c.idents(), wsast.Ident{Pos: c.At(p.Name.Pos.Offset), Name: p.Name.Name}),
		Count:  c.count(&p.Count, "argument count"),
	})
	if p.Marker != nil {
		call.Marker = wsast.Start
		if p.Marker.Text == "<" {
			call.Marker = wsast.End
		}
	}
	if len(p.Args) > 0 {
		call.Args = c.valueSlice(len(p.Args))
		for _, a := range p.Args {
			call.Args = append(call.Args, c.val(a))
		}
	}
	if p.Ret != nil {
		call.Ret = c.val(p.Ret)
	}
	if c.Diags.Failed() {
		return nil, c.Diags
	}
	return call, c.Diags
}

// count converts a field the reference gives as a base-10 integer.
func (c *converter) count(t *number, what string) *wsast.Int {
	p := c.At(t.Pos.Offset)
	v, ok := lineconv.Decimal(t.Text)
	if !ok {
		var err error
		if v, err = strconv.ParseUint(t.Text, 10, 64); err != nil {
			c.badCount(p, t.Text, what, err)
		}
	}
	return newOf(c.ints(), wsast.Int{Pos: p, Text: t.Text, Mag: v})
}

// badCount reports a count that is not a base-10 integer. It is a function
// of its own, kept out of line, so that count, run four times a line, does
// not set up the message's temporaries each time.
//
//go:noinline
func (c *converter) badCount(p ast.Pos, text, what string, err error) {
	msg := what + " " + strconv.Quote(text) + " is not a base-10 integer"
	if errors.Is(err, strconv.ErrRange) {
		msg = what + " " + strconv.Quote(text) + " is too large"
	}
	c.Report(p, diag.Error, wsast.CodeNumber, msg)
}

func (c *converter) val(v *value) wsast.Value {
	p := c.At(v.Pos.Offset)
	switch {
	case v.Unknown:
		return newOf(c.unknowns(), wsast.Unknown{Pos: p})
	case v.Number != nil:
		return c.integer(p, *v.Number)
	case v.String != nil:
		return c.str(p, *v.String)
	case v.Struct != nil:
		s := newOf(c.structs(), wsast.Struct{Pos: p})
		if len(v.Struct.Fields) > 0 {
			s.Fields = c.fieldSlice(len(v.Struct.Fields))
		}
		for _, f := range v.Struct.Fields {
			fld := c.fields().New(wsast.Field{})
			if f.Value == nil {
				fld.Value = c.val(f.First)
			} else {
				// "label = value": the label must be a name.
				if f.First.Ident == nil {
					c.badLabel(f.First.Pos)
				}
				name := ""
				if f.First.Ident != nil {
					name = *f.First.Ident
				}
				fld.Label = newOf(c.idents(), wsast.Ident{Pos: c.At(f.First.Pos.Offset), Name: name})
				fld.Value = c.val(f.Value)
			}
			s.Fields = append(s.Fields, fld)
		}
		return s
	case v.InOut != nil:
		in := c.val(v.InOut.In)
		return newOf(c.inouts(), wsast.InOut{Pos: p, In: in, Out: c.val(v.InOut.Out)})
	case v.Ident != nil:
		return newOf(c.idents(), wsast.Ident{Pos: p, Name: *v.Ident})
	}
	// The grammar makes one branch match; keep going all the same.
	return newOf(c.unknowns(), wsast.Unknown{Pos: p})
}

// badLabel reports a structure label that is not a name, out of line (see
// badCount).
//
//go:noinline
func (c *converter) badLabel(p lexer.Position) {
	c.Report(c.Pos(p), diag.Error, wsast.CodeSyntax, "not a call line: a structure label must be a name")
}

// integer converts form (b): base 10, or base 16 with 0x or, without it, when
// hex letters show the base; a leading minus sign makes it negative.
func (c *converter) integer(p ast.Pos, text string) *wsast.Int {
	n := newOf(c.ints(), wsast.Int{Pos: p, Text: text})
	digits := text
	if strings.HasPrefix(digits, "-") {
		n.Neg = true
		digits = digits[1:]
	}
	hex := len(digits) > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')
	if hex {
		digits = digits[2:]
	}
	if v, ok := quickUint(digits, hex); ok {
		n.Mag = v
		if v == 0 {
			n.Neg = false
		}
		return n
	}
	base := 10
	switch {
	case hex || strings.HasPrefix(digits, "0x") || strings.HasPrefix(digits, "0X"):
		base = 16
		if !hex {
			digits = digits[2:]
		}
	case strings.ContainsAny(digits, "abcdefABCDEF"):
		base = 16
	}
	v, err := strconv.ParseUint(digits, base, 64)
	if err != nil || digits == "" || strings.ContainsAny(digits, "_+") {
		c.badInteger(p, text, err)
		return n
	}
	n.Mag = v
	if v == 0 {
		n.Neg = false
	}
	return n
}

// badInteger reports a malformed integer, out of line (see badCount).
//
//go:noinline
func (c *converter) badInteger(p ast.Pos, text string, err error) {
	msg := "integer " + strconv.Quote(text) + " is malformed"
	if errors.Is(err, strconv.ErrRange) {
		msg = "integer " + strconv.Quote(text) + " does not fit in 64 bits"
	}
	c.Report(p, diag.Error, wsast.CodeNumber, msg)
}

// quickUint is the value of the digits of form (b) in the common cases,
// as integer finds it: up to 19 decimal digits, or up to 16 hex digits
// with at least one letter among them or after 0x (hex: the prefix was
// cut). ok is false for anything else, which integer's general path
// handles, errors included.
func quickUint(digits string, hex bool) (v uint64, ok bool) {
	if len(digits) == 0 || len(digits) > 19 {
		return 0, false
	}
	letters := false
	for i := 0; i < len(digits); i++ {
		ch := digits[i]
		switch {
		case ch >= '0' && ch <= '9':
			v = v*10 + uint64(ch-'0') // the value if all are decimal
		case ch >= 'a' && ch <= 'f' || ch >= 'A' && ch <= 'F':
			letters = true
		default:
			return 0, false
		}
	}
	if !hex && !letters {
		return v, true
	}
	if len(digits) > 16 {
		return 0, false
	}
	v = 0
	for i := 0; i < len(digits); i++ {
		ch := digits[i]
		switch {
		case ch >= 'a':
			ch -= 'a' - 10
		case ch >= 'A':
			ch -= 'A' - 10
		default:
			ch -= '0'
		}
		v = v<<4 | uint64(ch)
	}
	return v, true
}

// str decodes a C string literal (form (e)). An unknown escape keeps its
// backslash and is reported as a warning: real tracers wrote NT paths with
// bare backslashes.
func (c *converter) str(p ast.Pos, text string) *wsast.String {
	body := text[1 : len(text)-1]
	if strings.IndexByte(body, '\\') < 0 {
		return newOf(c.strs(), wsast.String{Pos: p, Text: text, Value: body})
	}
	var b strings.Builder
	b.Grow(len(body))
	for i := 0; i < len(body); {
		ch := body[i]
		if ch != '\\' || i+1 >= len(body) {
			b.WriteByte(ch)
			i++
			continue
		}
		e := body[i+1]
		switch e {
		case '\\', '"', '\'', '?':
			b.WriteByte(e)
			i += 2
		case 'a', 'b', 'f', 'n', 'r', 't', 'v':
			b.WriteByte(simpleEscapes[e])
			i += 2
		case 'x':
			j := i + 2
			for j < len(body) && j < i+5 && isHex(body[j]) {
				j++
			}
			if j == i+2 {
				c.escape(p, i, body[i:i+2])
				b.WriteString(body[i : i+2])
				i += 2
				continue
			}
			v, _ := strconv.ParseUint(body[i+2:j], 16, 32)
			writeCode(&b, v)
			i = j
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i + 1
			for j < len(body) && j < i+4 && body[j] >= '0' && body[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(body[i+1:j], 8, 32)
			writeCode(&b, v)
			i = j
		default:
			c.escape(p, i, body[i:i+2])
			b.WriteByte('\\')
			i++
		}
	}
	return newOf(c.strs(), wsast.String{Pos: p, Text: text, Value: b.String()})
}

var simpleEscapes = [256]byte{'a': '\a', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v'}

// writeCode appends a character code: a byte up to 0xFF, else the UTF-8 form.
func writeCode(b *strings.Builder, v uint64) {
	if v <= 0xFF {
		b.WriteByte(byte(v))
		return
	}
	b.WriteRune(rune(v))
}

func (c *converter) escape(p ast.Pos, i int, esc string) {
	at := p
	at.Offset += 1 + i
	at.Col += 1 + i
	c.Report(at, diag.Warning, wsast.CodeEscape, "unknown escape "+strconv.Quote(esc)+" in a string; the backslash is kept")
}

func isHex(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F'
}

// tooDeep scans the line for structures and in-out values nested more
// than MaxDepth deep.
func tooDeep(line string) (int, bool) { return lineconv.Depth(line, "{<", "}>") }
