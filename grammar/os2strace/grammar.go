// Package os2strace is the participle grammar of the two text files written
// by OS/2 SMP's STRACE POST: the ASCII dump of the trace hooks (STRACE.OUT)
// and the module table (STRACE.MTE). It parses one line at a time and turns
// the parse into the plain nodes of ast/os2strace.
//
// The grammar only checks the shape of a line and the base of each number;
// what the hook data means (words, bytes, items, the start-up record) is the
// lowering's business.
package os2strace

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
	os2ast "github.com/tracekit/tracekit/ast/os2strace"
	"github.com/tracekit/tracekit/grammar/internal/lineconv"
)

// The lexers split on white space. A hook line has one colon, between the
// halves of the time stamp; module paths have colons of their own, so the
// module-table lexer has no colon token.
var (
	hookLexer = lexer.MustSimple([]lexer.SimpleRule{
		{Name: "Colon", Pattern: `:`},
		{Name: "Word", Pattern: `[^ \t\n\v\f\r:]+`},
		{Name: "Space", Pattern: `[ \t\n\v\f\r]+`},
	})
	moduleLexer = lexer.MustSimple([]lexer.SimpleRule{
		{Name: "Word", Pattern: `[^ \t\n\v\f\r]+`},
		{Name: "Space", Pattern: `[ \t\n\v\f\r]+`},
	})
	hookParser = sync.OnceValue(func() *participle.Parser[hookLine] {
		return participle.MustBuild[hookLine](participle.Lexer(hookLexer), participle.Elide("Space"))
	})
	moduleParser = sync.OnceValue(func() *participle.Parser[moduleLine] {
		return participle.MustBuild[moduleLine](participle.Lexer(moduleLexer), participle.Elide("Space"))
	})
)

// word is one token with its position.
type word struct {
	Pos  lexer.Position
	Text string `parser:"@Word"`
}

// hookLine is the parse of one STRACE.OUT line:
// type major minor high ":" low cpu data...
type hookLine struct {
	Type  word   `parser:"@@"`
	Major word   `parser:"@@"`
	Minor word   `parser:"@@"`
	High  word   `parser:"@@ Colon"`
	Low   word   `parser:"@@"`
	CPU   word   `parser:"@@"`
	Data  []word `parser:"@@*"`
}

// moduleLine is the parse of one STRACE.MTE line: five hex fields, then the
// module path (one or more words).
type moduleLine struct {
	Segment word   `parser:"@@"`
	Linear  word   `parser:"@@"`
	Size    word   `parser:"@@"`
	PID     word   `parser:"@@"`
	PTDA    word   `parser:"@@"`
	Path    []word `parser:"@@*"`
}

// converter turns participle positions (relative to the line) into ast
// positions and collects diagnostics.
type converter struct {
	lineconv.Converter
}

// number converts a word in the given base; bits bounds its value.
func (c *converter) number(w word, base, bits int, code diag.Code, what string) os2ast.Number {
	p := c.Pos(w.Pos)
	if v, ok := quickUint(w.Text, base, bits); ok {
		return os2ast.Number{Pos: p, Text: w.Text, Value: v}
	}
	v, err := strconv.ParseUint(w.Text, base, bits)
	if err != nil || strings.HasPrefix(w.Text, "+") {
		kind := "hex"
		if base == 10 {
			kind = "decimal"
		}
		if errors.Is(err, strconv.ErrRange) {
			c.Errorf(p, code, what+" "+strconv.Quote(w.Text)+" is too large")
		} else {
			c.Errorf(p, code, what+" "+strconv.Quote(w.Text)+" is not a "+kind+" number")
		}
	}
	return os2ast.Number{Pos: p, Text: w.Text, Value: v}
}

// numberTo is number into *dst, the common number without a copy of the
// whole node: its fields are set one by one (a struct holding a string,
// copied whole, is written in parts and read back at once, which the
// processor cannot forward).
func (c *converter) numberTo(dst *os2ast.Number, w *word, base, bits int, code diag.Code, what string) {
	if v, ok := quickUint(w.Text, base, bits); ok {
		c.setPos(&dst.Pos, w.Pos.Offset)
		dst.Text, dst.Value = w.Text, v
		return
	}
	*dst = c.number(*w, base, bits, code, what)
}

// setPos sets *p to the position off bytes into the line, as Pos does.
func (c *converter) setPos(p *ast.Pos, off int) { setPos(p, &c.Base, off) }

// setPos sets *p to the position off bytes into the line that starts at
// *base.
func setPos(p, base *ast.Pos, off int) {
	p.File = base.File
	p.Offset, p.Line, p.Col = base.Offset+off, base.Line, base.Col+off
}

// quickHexNumber and quickDecNumber are numberTo for the common number, of
// 1 to 16 digits that fit in bits, with no branch a digit: false, having
// set nothing they promise, when w is not one, for numberTo to decide.
func quickHexNumber(dst *os2ast.Number, w *word, base *ast.Pos, bits uint) bool {
	s := w.Text
	if len(s) == 0 || len(s) > 16 {
		return false
	}
	var (
		v   uint64
		bad byte
	)
	for i := 0; i < len(s); i++ {
		d := hexValue[s[i]]
		bad |= d
		v = v<<4 | uint64(d&0xF)
	}
	if bad&notDigit != 0 || v>>bits != 0 {
		return false
	}
	setPos(&dst.Pos, base, w.Pos.Offset)
	dst.Text, dst.Value = s, v
	return true
}

func quickDecNumber(dst *os2ast.Number, w *word, base *ast.Pos, bits uint) bool {
	s := w.Text
	if len(s) == 0 || len(s) > 16 {
		return false
	}
	var (
		v   uint64
		bad byte
	)
	for i := 0; i < len(s); i++ {
		d := decValue[s[i]]
		bad |= d
		v = v*10 + uint64(d&0xF)
	}
	if bad&notDigit != 0 || v>>bits != 0 {
		return false
	}
	setPos(&dst.Pos, base, w.Pos.Offset)
	dst.Text, dst.Value = s, v
	return true
}

// notDigit marks the bytes that are no digit in hexValue and decValue.
const notDigit = 0x10

// hexValue and decValue are the value of each hex or decimal digit; the
// other bytes have notDigit.
var hexValue, decValue = func() (hex, dec [256]byte) {
	for c := range 256 {
		hex[c], dec[c] = notDigit, notDigit
		switch {
		case c >= '0' && c <= '9':
			hex[c], dec[c] = byte(c-'0'), byte(c-'0')
		case c >= 'a' && c <= 'f':
			hex[c] = byte(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			hex[c] = byte(c - 'A' + 10)
		}
	}
	return hex, dec
}()

// quickUint reads the common number, up to 16 digits of base 10 or 16 that
// fit in bits, without strconv; false sends the caller to strconv.ParseUint,
// which decides (and words the error).
func quickUint(s string, base, bits int) (uint64, bool) {
	if len(s) == 0 || len(s) > 16 {
		return 0, false
	}
	var v uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case base == 16 && c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case base == 16 && c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		v = v*uint64(base) + uint64(d)
	}
	if bits < 64 && v>>uint(bits) != 0 {
		return 0, false
	}
	return v, true
}

// LineParser parses lines with the parsers generated from the grammar
// (parsers_gen.go), keeping their buffers from line to line: a lowering
// makes one per input. The zero LineParser is ready to use; it is not safe
// for concurrent use.
type LineParser struct {
	// Reuse makes Hook and Module return nodes that stay valid only until
	// the next call (their storage is reused): for a lowering that does not
	// keep them, so that a line costs no allocation of nodes.
	Reuse bool

	hookGen   hookParserGen
	hook      hookLine
	moduleGen moduleParserGen
	module    moduleLine
	node      os2ast.Hook
	mod       os2ast.Module
}

// ParseHook parses one line of a STRACE POST ASCII dump. pos is where the
// line starts; the line has no line break. It returns nil and at least one
// error (os2strace.CodeSyntax, CodeNumber) when the line is malformed.
func ParseHook(pos ast.Pos, line string) (*os2ast.Hook, diag.List) {
	var lp LineParser
	return lp.Hook(pos, line)
}

// Hook parses one hook line, as ParseHook does.
func (lp *LineParser) Hook(pos ast.Pos, line string) (*os2ast.Hook, diag.List) {
	p := &lp.hook
	err := lp.hookGen.ParseInto("", line, p)
	if lp.Reuse {
		return convertHook(pos, p, err, &lp.node)
	}
	return convertHook(pos, p, err, nil)
}

// ParseHookReference is ParseHook with participle's reflective parser, the
// reference the generated one is tested against.
func ParseHookReference(pos ast.Pos, line string) (*os2ast.Hook, diag.List) {
	p, err := hookParser().ParseString("", line)
	return convertHook(pos, p, err, nil)
}

// convertHook turns the parse into a Hook: into *dst, reusing its storage,
// or a new one when dst is nil.
func convertHook(pos ast.Pos, p *hookLine, err error, dst *os2ast.Hook) (*os2ast.Hook, diag.List) {
	if err != nil {
		c := converter{Converter: lineconv.Converter{Base: pos, Words: hookWords}}
		c.ParseError(err, os2ast.CodeSyntax, "not a hook line")
		return nil, c.Diags
	}
	var data []os2ast.Word
	if dst == nil {
		dst = new(os2ast.Hook)
	} else {
		data = dst.Data[:0]
	}
	h := dst
	h.Pos = pos
	var diags diag.List
	if !quickHexNumber(&h.Type, &p.Type, &pos, 16) ||
		!quickHexNumber(&h.Major, &p.Major, &pos, 8) ||
		!quickHexNumber(&h.Minor, &p.Minor, &pos, 16) ||
		!quickDecNumber(&h.High, &p.High, &pos, 32) ||
		!quickDecNumber(&h.Low, &p.Low, &pos, 32) ||
		!quickDecNumber(&h.CPU, &p.CPU, &pos, 8) {
		// Some number is not of the common form: each is read again, and
		// the ones that are malformed are reported.
		c := converter{Converter: lineconv.Converter{Base: pos, Words: hookWords}}
		c.numberTo(&h.Type, &p.Type, 16, 16, os2ast.CodeNumber, "hook type")
		c.numberTo(&h.Major, &p.Major, 16, 8, os2ast.CodeNumber, "major code")
		c.numberTo(&h.Minor, &p.Minor, 16, 16, os2ast.CodeNumber, "minor code")
		c.numberTo(&h.High, &p.High, 10, 32, os2ast.CodeNumber, "time stamp high half")
		c.numberTo(&h.Low, &p.Low, 10, 32, os2ast.CodeNumber, "time stamp low half")
		c.numberTo(&h.CPU, &p.CPU, 10, 8, os2ast.CodeNumber, "processor")
		diags = c.Diags
	}
	if len(p.Data) > 0 {
		if cap(data) < len(p.Data) {
			data = make([]os2ast.Word, 0, len(p.Data))
		}
		data = data[:len(p.Data)]
		for i := range p.Data {
			w, d := &p.Data[i], &data[i]
			setPos(&d.Pos, &pos, w.Pos.Offset)
			d.Text = w.Text
		}
	}
	h.Data = data // nil, or empty keeping its storage for the next line
	if diags.Failed() {
		return nil, diags
	}
	return h, diags
}

// ParseModule parses one line of STRACE.MTE. It returns nil and at least one
// error (os2strace.CodeModSyntax, CodeModNumber, CodeModNoModule) when the
// line is malformed. The module path is the rest of the line, as written.
func ParseModule(pos ast.Pos, line string) (*os2ast.Module, diag.List) {
	var lp LineParser
	return lp.Module(pos, line)
}

// Module parses one module-table line, as ParseModule does.
func (lp *LineParser) Module(pos ast.Pos, line string) (*os2ast.Module, diag.List) {
	p := &lp.module
	err := lp.moduleGen.ParseInto("", line, p)
	if lp.Reuse {
		return convertModule(pos, line, p, err, &lp.mod)
	}
	return convertModule(pos, line, p, err, nil)
}

// ParseModuleReference is ParseModule with participle's reflective parser.
func ParseModuleReference(pos ast.Pos, line string) (*os2ast.Module, diag.List) {
	p, err := moduleParser().ParseString("", line)
	return convertModule(pos, line, p, err, nil)
}

func convertModule(pos ast.Pos, line string, p *moduleLine, err error, dst *os2ast.Module) (*os2ast.Module, diag.List) {
	c := converter{Converter: lineconv.Converter{Base: pos, Words: moduleWords}}
	if err != nil {
		c.ParseError(err, os2ast.CodeModSyntax, "not a module-table line")
		return nil, c.Diags
	}
	if dst == nil {
		dst = new(os2ast.Module)
	}
	m := dst
	*m = os2ast.Module{
		Pos:     pos,
		Segment: c.number(p.Segment, 16, 16, os2ast.CodeModNumber, "segment"),
		Linear:  c.number(p.Linear, 16, 32, os2ast.CodeModNumber, "linear address"),
		Size:    c.number(p.Size, 16, 32, os2ast.CodeModNumber, "size"),
		PID:     c.number(p.PID, 16, 32, os2ast.CodeModNumber, "process id"),
		PTDA:    c.number(p.PTDA, 16, 32, os2ast.CodeModNumber, "PTDA address"),
	}
	if len(p.Path) == 0 {
		c.Errorf(c.Pos(p.PTDA.Pos), os2ast.CodeModNoModule, "module-table line without a module name")
	} else {
		start := p.Path[0].Pos.Offset
		m.Path = os2ast.Word{Pos: c.Pos(p.Path[0].Pos), Text: strings.TrimRight(line[start:], " \t\n\v\f\r")}
	}
	if c.Diags.Failed() {
		return nil, c.Diags
	}
	return m, c.Diags
}
