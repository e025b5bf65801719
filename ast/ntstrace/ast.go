// Package ntstrace holds the syntax tree of the original strace for NT
// output format, which the Windows strace format (ast/winstrace) extends:
//
//	ID PID TID Name (IN, IN, ... OUT, OUT, ) == RET
//
// A call that does not return at once ends its first line after "...";
// a later line with the same call id, "ID PID TID Name ... OUT, ) == RET",
// completes it.
package ntstrace

import (
	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
)

// Diagnostic codes of the ntstrace dialect.
const (
	CodeSyntax   diag.Code = "NTS001" // error: the line is not a call line
	CodeNumber   diag.Code = "NTS002" // error: a call id, pid or tid that is not a decimal number
	CodeDepth    diag.Code = "NTS003" // error: structures nested too deep
	CodeMismatch diag.Code = "NTS004" // warning: a completion names another call than its first half
	CodeReused   diag.Code = "NTS005" // warning: a call id begun again while its call was open; the first stays unpaired
)

// Word is a token as written.
type Word struct {
	Pos  ast.Pos
	Text string
}

// Value is an argument or a result: a number (hex, decimal, negative), a
// name (NTSTATUS symbols, TRUE), a string (NT paths, backslashes as
// written), or a structure of values, each possibly labelled.
type Value struct {
	Pos    ast.Pos
	Kind   Kind
	Text   string   // as written (a string's text between its quotes)
	Label  string   // "name=" before the value, inside a structure
	Fields []*Value // KindStruct
}

// Kind is the form of a Value.
type Kind int

// The kinds of Value.
const (
	KindNumber Kind = iota
	KindName
	KindString
	KindStruct
)

// Half says which part of a call a line gives.
type Half int

// The halves.
const (
	Whole Half = iota // ID PID TID Name (in ... out) == ret
	Start             // ID PID TID Name (in ...   (completed later)
	End               // ID PID TID Name ... out) == ret
)

// Call is one line.
type Call struct {
	Pos          ast.Pos
	Half         Half
	ID, PID, TID Word
	Name         Word
	In, Out      []*Value
	Ret          *Value // nil on a Start line
	OutsGiven    bool   // the line had "..." (Whole and End lines)
}

// CallParser parses one line; grammar/ntstrace.ParseLine is one.
type CallParser func(pos ast.Pos, line string) (*Call, diag.List)
