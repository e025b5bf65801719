package tsfcompile

import (
	"fmt"
	"os"
	"testing"

	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/grammar/tsfparse"
	"github.com/tracekit/tracekit/lower/tsfcheck"
)

func TestZZ(t *testing.T) {
	src, err := os.ReadFile(os.Getenv("ZZ"))
	if err != nil {
		t.Skip()
	}
	res := Run(Request{Name: "t.tsf", Src: src, Eager: true, Syntax: tsfparse.TRCUSTStrings | tsfparse.TRCUSTComments,
		Check: tsfcheck.Options{AllowDuplicateMinors: os.Getenv("ZZD") != "", Wrap16: true},
		Locate: func(m *tsfcheck.Module) (Sources, diag.List) {
			return Sources{ModuleAt: m.ModNamePos, ModulePath: "/work/shared/corpus/os2/lx/osfree_emitrep.dll", MapPath: "/work/shared/corpus/os2/lx/osfree_emitrep.map", IgnoreCase: true}, nil
		}})
	p := res.Back.Program
	next := 0
	for _, tp := range p.Kept {
		if tp.Static() {
			fmt.Printf("m%d static L%d\n", tp.Minor, tp.Node.Pos.Line)
			continue
		}
		r := p.Records[next]
		next++
		fmt.Printf("m%d %d:%x L%d\n", tp.Minor, r.Object, r.Offset, tp.Node.Pos.Line)
	}
}
