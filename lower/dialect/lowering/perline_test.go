package lowering

import (
	"testing"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
)

// TestPerLine checks that PerLine passes a line's node on alone, passes no
// node for a skipped line, keeps the diagnostics either way, and ends with
// nothing.
func TestPerLine(t *testing.T) {
	type node struct{ text string }
	p := PerLine(func(pos ast.Pos, text string) (*node, diag.List) {
		if text == "bad" {
			return nil, diag.List{{Pos: pos, Severity: diag.Error, Code: "T001", Msg: "bad line"}}
		}
		return &node{text}, diag.List{{Pos: pos, Severity: diag.Warning, Code: "T002", Msg: "kept"}}
	})
	pos := ast.Pos{File: "f", Line: 3, Col: 1}
	nodes, d := p.Line(pos, "good")
	if len(nodes) != 1 || nodes[0].(*node).text != "good" || len(d) != 1 || d[0].Code != "T002" {
		t.Errorf("good line: %v, %v", nodes, d)
	}
	nodes, d = p.Line(pos, "bad")
	if nodes != nil || len(d) != 1 || d[0].Code != "T001" || d[0].Pos != pos {
		t.Errorf("bad line: %v, %v", nodes, d)
	}
	if nodes, d := p.End(pos); nodes != nil || d != nil {
		t.Errorf("End: %v, %v", nodes, d)
	}
}
