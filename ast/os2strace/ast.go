// Package os2strace holds the syntax tree of the two text files that OS/2
// SMP's STRACE POST writes: the ASCII dump of the trace hooks (STRACE.OUT,
// one Hook a line) and the module table (STRACE.MTE, one Module a line).
//
// The nodes are plain data with positions. They keep every field as written,
// with its value where the field is a number; what the hook data means is
// left to the lowering (lower/dialect/os2strace). The participle grammar in
// grammar/os2strace builds these nodes; any other parser that builds the same
// nodes can take its place (see HookParser and ModuleParser).
package os2strace

import (
	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
)

// Diagnostic codes of the os2strace dialect (the STRACE POST ASCII dump).
const (
	CodeSyntax      diag.Code = "STR001" // error: the line does not have the shape of a hook line
	CodeNumber      diag.Code = "STR002" // error: a hook type, major, minor, time or processor field is not a number of its base, or too large
	CodeDataWord    diag.Code = "STR003" // error: a data word is not hex, or too long for its kind
	CodeDataCount   diag.Code = "STR004" // warning: the data does not match the count in the hook type
	CodeCategory    diag.Code = "STR005" // warning: the hook type's category is not one the reference names
	CodeStartup     diag.Code = "STR006" // warning: the start-up record is too short to decode
	CodeTimeHigh    diag.Code = "STR007" // warning: a time-high record disagrees with the high half of its own time stamp
	CodeMarker      diag.Code = "STR008" // warning: a module-table marker with unexpected text
	CodeModSyntax   diag.Code = "MTE001" // error: the line does not have the shape of an STRACE.MTE line
	CodeModNumber   diag.Code = "MTE002" // error: a field of an STRACE.MTE line is not hex, or too large
	CodeModNoModule diag.Code = "MTE003" // error: an STRACE.MTE line without a module name
)

// Number is a numeral as written (hex or decimal, by the field it stands
// in) with its value.
type Number struct {
	Pos   ast.Pos
	Text  string
	Value uint64
}

// Word is one white-space separated word of hook data, as written.
type Word struct {
	Pos  ast.Pos
	Text string
}

// Hook is one line of the STRACE POST ASCII dump:
//
//	tttt MM mm TTTTTTTT:tttttttt p dddddddd...ddd
//
// hook type, major and minor in hex; the high and low halves of the
// time-stamp counter and the processor in decimal; then the hook data.
type Hook struct {
	Pos   ast.Pos // start of the line
	Type  Number  // hook type (hex): category in the high byte, count in the low byte
	Major Number  // major code (hex)
	Minor Number  // minor code (hex)
	High  Number  // high 32 bits of the time-stamp counter (decimal)
	Low   Number  // low 32 bits of the time-stamp counter (decimal)
	CPU   Number  // processor (decimal)
	Data  []Word  // the hook data, word by word
}

// Module is one line of STRACE.MTE: a loaded memory object.
//
//	ssss llllllll zzzzzzzz pppppppp tttttttt module
//
// segment number, linear address, size, process id and PTDA address, all in
// hex, then the module's path.
type Module struct {
	Pos     ast.Pos // start of the line
	Segment Number
	Linear  Number
	Size    Number
	PID     Number
	PTDA    Number
	Path    Word // the rest of the line, as written
}

// HookParser parses one line of a STRACE POST ASCII dump. It returns nil and
// at least one error diagnostic when the line is not a hook line; it may
// return warnings with a hook. grammar/os2strace.ParseHook is one.
type HookParser func(pos ast.Pos, line string) (*Hook, diag.List)

// ModuleParser parses one line of STRACE.MTE, as HookParser does a hook line.
// grammar/os2strace.ParseModule is one.
type ModuleParser func(pos ast.Pos, line string) (*Module, diag.List)
