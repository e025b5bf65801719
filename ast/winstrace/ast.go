// Package winstrace holds the syntax tree of the Windows strace output
// format: one system call a line,
//
//	[> or <] id [*] pid tid Name[n](arg, arg, ...) [== ret]
//
// A Call is one line. Argument values form a small tree (Value): unknown
// (???), integers, C strings, symbolic identifiers, structures with or
// without labels, and in-out pairs. The participle grammar in
// grammar/winstrace builds these nodes; any parser that builds the same nodes
// can take its place (see CallParser).
package winstrace

import (
	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
)

// Diagnostic codes of the winstrace dialect.
const (
	CodeSyntax     diag.Code = "WST001" // error: the line does not have the shape of a call
	CodeNumber     diag.Code = "WST002" // error: an id, pid, tid, count or integer value is malformed or too large
	CodeCount      diag.Code = "WST003" // warning: the count in [n] differs from the arguments present
	CodeEscape     diag.Code = "WST004" // warning: an unknown escape in a string; the backslash is kept
	CodeRetOnEnter diag.Code = "WST005" // warning: a return value on a start (>) line
	CodeReopened   diag.Code = "WST006" // warning: a call id started again before it ended; the earlier start stays unpaired
	CodeMismatch   diag.Code = "WST007" // warning: the two halves of a call disagree on pid, tid or name; they stay unpaired
	CodeHalfArgs   diag.Code = "WST008" // warning: the two halves of a call have different numbers of arguments
	CodeDepth      diag.Code = "WST009" // error: values nested too deeply
)

// Marker is the optional first field of a line.
type Marker int

// The markers. NoMarker is a whole call on one line.
const (
	NoMarker Marker = iota
	Start           // ">": the start of a call
	End             // "<": the end of a call
)

// String returns ">", "<" or "".
func (m Marker) String() string {
	switch m {
	case Start:
		return ">"
	case End:
		return "<"
	}
	return ""
}

// GoString keeps AST dumps readable.
func (m Marker) GoString() string {
	switch m {
	case Start:
		return "Start"
	case End:
		return "End"
	}
	return "NoMarker"
}

// Call is one line of the trace.
type Call struct {
	Pos    ast.Pos // start of the line
	Marker Marker
	ID     *Int // the unique id of the call
	Kernel bool // the "*" field: the kernel made the call
	PID    *Int
	TID    *Int
	Name   *Ident
	Count  *Int    // the n of [n]
	Args   []Value // the arguments present
	Ret    Value   // the value after "==", or nil
}

// Value is an argument or return value: *Unknown, *Int, *String, *Ident,
// *Struct or *InOut.
type Value interface {
	// Position returns where the value starts.
	Position() ast.Pos
	value()
}

// Unknown is "???": a value the tracer did not know, or an argument not set
// on this side of the call.
type Unknown struct {
	Pos ast.Pos
}

// Int is an integer, decimal or hex (0x...), possibly negative.
type Int struct {
	Pos  ast.Pos
	Text string // as written
	Neg  bool   // written with a minus sign (and not zero)
	Mag  uint64 // the magnitude
}

// String is a C-style string literal.
type String struct {
	Pos   ast.Pos
	Text  string // as written, quotes included
	Value string // with the escapes decoded
}

// Ident is a symbolic identifier (a value) or a name (of a call or a
// structure field).
type Ident struct {
	Pos  ast.Pos
	Name string
}

// Struct is "{" fields "}"; a field may carry a label ("name = value").
type Struct struct {
	Pos    ast.Pos
	Fields []*Field
}

// Field is one member of a Struct. Label is nil for an unlabelled member.
type Field struct {
	Label *Ident
	Value Value
}

// InOut is "<" in "|" out ">": the value given to the call and the value the
// call left.
type InOut struct {
	Pos ast.Pos
	In  Value
	Out Value
}

// Position returns where the value starts.
func (v *Unknown) Position() ast.Pos { return v.Pos }

// Position returns where the value starts.
func (v *Int) Position() ast.Pos { return v.Pos }

// Position returns where the value starts.
func (v *String) Position() ast.Pos { return v.Pos }

// Position returns where the value starts.
func (v *Ident) Position() ast.Pos { return v.Pos }

// Position returns where the value starts.
func (v *Struct) Position() ast.Pos { return v.Pos }

// Position returns where the value starts.
func (v *InOut) Position() ast.Pos { return v.Pos }

func (*Unknown) value() {}
func (*Int) value()     {}
func (*String) value()  {}
func (*Ident) value()   {}
func (*Struct) value()  {}
func (*InOut) value()   {}

// CallParser parses one line. It returns nil and at least one error
// diagnostic when the line is not a call; it may return warnings with a call.
// grammar/winstrace.ParseLine is one.
type CallParser func(pos ast.Pos, line string) (*Call, diag.List)
