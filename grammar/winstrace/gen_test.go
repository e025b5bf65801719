package winstrace

import (
	"reflect"
	"testing"

	"github.com/tracekit/tracekit/ast"

	"github.com/tracekit/tracekit/grammar/internal/difftest"
	"github.com/tracekit/tracekit/grammar/internal/pgen/pgenrt"
)

// The inputs of the differential tests: every line of the fixtures.
var genInputs = []string{"../../lower/dialect/winstrace/testdata/*.wst"}

var genSeeds = []string{"", "> 1 * 2 3 F[2](<1|2>, {a = \"x\\\"\", 3}) == ???", "1 2 3 N[0]() ==", "1 2 3 N[1](<", "\"", "\xff", "1 2 3 N[1]({a = {b = <c|d>}})"}

func callEngines() (ref, gen, reuse difftest.Engine[callLine]) {
	var g, r callParserGen
	var out callLine
	return difftest.Participle(callParser()), func(s string) (*callLine, error) { return g.ParseString("", s) },
		func(s string) (*callLine, error) { return &out, r.ParseInto("", s, &out) }
}

func TestGeneratedMatchesParticiple(t *testing.T) {
	ref, gen, reuse := callEngines()
	for _, l := range append(difftest.Lines(t, genInputs...), genSeeds...) {
		difftest.Check(t, ref, gen, l)
		difftest.Check(t, ref, reuse, l)
	}
}

func FuzzGeneratedCall(f *testing.F) {
	for _, s := range append(difftest.Lines(f, genInputs...), genSeeds...) {
		f.Add(s)
	}
	ref, gen, _ := callEngines()
	f.Fuzz(func(t *testing.T, s string) {
		if _, ok := tooDeep(s); !ok {
			return // refused before parsing; participle's recursion is not the point
		}
		difftest.Check(t, ref, gen, s)
	})
}

// TestLineMatchesReference: ParseLine gives the same nodes and diagnostics
// with either engine.
func TestLineMatchesReference(t *testing.T) {
	var lp, ref LineParser
	ref.Reference = true
	base := ast.Pos{File: "t", Line: 3, Col: 1, Offset: 40}
	for _, l := range append(difftest.Lines(t, genInputs...), genSeeds...) {
		c, diags := lp.Line(base, l)
		rc, rdiags := ref.Line(base, l)
		if !reflect.DeepEqual(c, rc) || !reflect.DeepEqual(diags, rdiags) {
			t.Errorf("%q: %+v %v, reference %+v %v", l, c, diags, rc, rdiags)
		}
	}
}

var benchCall = `> 12 * 340 56 NtCreateFile[4](0x1234, <???|0x10>, {Length = 24, RootDirectory = 0x0, ObjectName = "\\??\\C:\\x.txt"}, -3) == STATUS_SUCCESS`

// BenchmarkLine is the parse path of one call line.
func BenchmarkLine(b *testing.B) {
	var lp LineParser
	base := ast.Pos{File: "t", Line: 3, Col: 1}
	b.SetBytes(int64(len(benchCall)))
	b.ReportAllocs()
	for range b.N {
		if c, _ := lp.Line(base, benchCall); c == nil {
			b.Fatal("rejected")
		}
	}
}

// TestLexersMerged: every lexer is one merged automaton in code, the fast
// path (difftest.Merged).
func TestLexersMerged(t *testing.T) {
	difftest.Merged(t, map[string]*pgenrt.Lexer{"callLexer": &pgenLexer_callLexer})
}
