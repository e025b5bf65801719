// Package ast holds what every syntax tree in tracekit shares: source
// positions. The trees of the individual languages live in sub-packages
// (ast/tsf for Trace Source Files); their nodes carry a Pos each.
package ast

import (
	"fmt"
	"path/filepath"
)

// Pos is a position in a source file. The zero Pos is "no position".
type Pos struct {
	File   string // file name as given to the parser
	Offset int    // byte offset, starting at 0
	Line   int    // line number, starting at 1
	Col    int    // column in bytes, starting at 1
}

// IsValid reports whether p is a real position.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String returns "file:line:col", "line:col" without a file name, the file
// name alone without a line, or "-" for the zero Pos.
func (p Pos) String() string {
	switch {
	case !p.IsValid() && p.File != "":
		return p.File // a whole file, or a binary one
	case !p.IsValid():
		return "-"
	case p.File == "":
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// GoString keeps AST dumps (kr/pretty honours it) short: the base name of
// the file, the line and the column.
func (p Pos) GoString() string {
	if !p.IsValid() {
		return "-"
	}
	return fmt.Sprintf("%s:%d:%d", filepath.Base(p.File), p.Line, p.Col)
}

// Before reports whether p comes before q in the same file.
func (p Pos) Before(q Pos) bool { return p.Offset < q.Offset }
