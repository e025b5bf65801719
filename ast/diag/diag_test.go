package diag

import (
	"bytes"
	"testing"

	"github.com/tracekit/tracekit/ast"
)

func TestSortFilterWrite(t *testing.T) {
	l := List{
		{Pos: ast.Pos{File: "b.tsf", Offset: 5, Line: 1, Col: 6}, Severity: Warning, Code: "TRC140", Msg: "w"},
		{Pos: ast.Pos{File: "a.tsf", Offset: 9, Line: 2, Col: 1}, Severity: Error, Code: "TRC094", Msg: "e", Detail: "d"},
		{Pos: ast.Pos{File: "a.tsf", Offset: 3, Line: 1, Col: 4}, Severity: Severe, Code: "TRC036", Msg: "s"},
	}
	l.Sort()
	var text bytes.Buffer
	l.WriteText(&text)
	want := "a.tsf:1:4: severe: s [TRC036]\na.tsf:2:1: error: e (d) [TRC094]\nb.tsf:1:6: warning: w [TRC140]\n"
	if text.String() != want {
		t.Errorf("text:\n%s\nwant:\n%s", text.String(), want)
	}
	if l.Worst() != Severe || !l.Failed() || l.Err() == nil {
		t.Error("worst/failed/err")
	}
	min, _ := LevelMin(1)
	if got := l.Filter(min); len(got) != 2 {
		t.Errorf("level 1 keeps %d", len(got))
	}
	if _, err := LevelMin(3); err == nil {
		t.Error("level 3 accepted")
	}
	var js bytes.Buffer
	l[:1].WriteJSON(&js)
	if want := `{"file":"a.tsf","line":1,"col":4,"severity":"severe","code":"TRC036","message":"s"}` + "\n"; js.String() != want {
		t.Errorf("json %s", js.String())
	}
	if (List{{Severity: Warning}}).Err() != nil {
		t.Error("warnings are no error")
	}
}
