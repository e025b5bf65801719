package prf

import (
	"reflect"
	"testing"

	"github.com/tracekit/tracekit/ast"

	"github.com/tracekit/tracekit/grammar/internal/difftest"
	"github.com/tracekit/tracekit/grammar/internal/pgen/pgenrt"
)

// The inputs of the differential tests: every line of the fixtures, each
// given to every parser of the package.
var genInputs = []string{"../../lower/dialect/prf/testdata/*.prf", "../../lower/dialect/prf/testdata/*.csv"}

var genSeeds = []string{"", "PRF: Rec Process: 1 Thread: 2", "ClientAP: 1.2.3.4 5 - 6 RootAP:", "INT: a b OPR: c", "\"a\"\"b\",c,,\"", "Offset +0 +1", "Event: 1 Time: a b c d"}

func engines[T any, G interface {
	ParseString(string, string) (*T, error)
	ParseInto(string, string, *T) error
}](ref difftest.Engine[T], g, r G) (difftest.Engine[T], difftest.Engine[T], difftest.Engine[T]) {
	var out T
	return ref, func(s string) (*T, error) { return g.ParseString("", s) },
		func(s string) (*T, error) { return &out, r.ParseInto("", s, &out) }
}

func TestGeneratedMatchesParticiple(t *testing.T) {
	dref, dgen, dreuse := engines(difftest.Participle(dumpParser()), &dumpParserGen{}, &dumpParserGen{})
	href, hgen, hreuse := engines(difftest.Participle(hexParser()), &hexParserGen{}, &hexParserGen{})
	cref, cgen, creuse := engines(difftest.Participle(csvParser()), &csvParserGen{}, &csvParserGen{})
	for _, l := range append(difftest.Lines(t, genInputs...), genSeeds...) {
		difftest.Check(t, dref, dgen, l)
		difftest.Check(t, dref, dreuse, l)
		difftest.Check(t, href, hgen, l)
		difftest.Check(t, href, hreuse, l)
		difftest.Check(t, cref, cgen, l)
		difftest.Check(t, cref, creuse, l)
	}
}

func FuzzGeneratedDump(f *testing.F) {
	for _, s := range append(difftest.Lines(f, genInputs...), genSeeds...) {
		f.Add(s)
	}
	ref, gen, _ := engines(difftest.Participle(dumpParser()), &dumpParserGen{}, &dumpParserGen{})
	f.Fuzz(func(t *testing.T, s string) { difftest.Check(t, ref, gen, s) })
}

func FuzzGeneratedHex(f *testing.F) {
	for _, s := range append(difftest.Lines(f, genInputs...), genSeeds...) {
		f.Add(s)
	}
	ref, gen, _ := engines(difftest.Participle(hexParser()), &hexParserGen{}, &hexParserGen{})
	f.Fuzz(func(t *testing.T, s string) { difftest.Check(t, ref, gen, s) })
}

func FuzzGeneratedCSV(f *testing.F) {
	for _, s := range append(difftest.Lines(f, genInputs...), genSeeds...) {
		f.Add(s)
	}
	ref, gen, _ := engines(difftest.Participle(csvParser()), &csvParserGen{}, &csvParserGen{})
	f.Fuzz(func(t *testing.T, s string) { difftest.Check(t, ref, gen, s) })
}

// TestParsersMatchReference: the dump and CSV parsers give the same nodes
// and diagnostics with either engine, line by line through each file.
func TestParsersMatchReference(t *testing.T) {
	for _, pat := range genInputs {
		lines := append(difftest.Lines(t, pat), genSeeds...)
		var d, dr DumpParser
		dr.Reference = true
		var c, cr CSVParser
		cr.Reference = true
		for i, l := range lines {
			pos := ast.Pos{File: "t", Line: i + 1, Col: 1, Offset: 100 * i}
			r, diags := d.Line(pos, l)
			rr, rdiags := dr.Line(pos, l)
			if !reflect.DeepEqual(r, rr) || !reflect.DeepEqual(diags, rdiags) {
				t.Errorf("%s: dump %q: %+v %v, reference %+v %v", pat, l, r, diags, rr, rdiags)
			}
			h, r, diags := c.Line(pos, l)
			hr, rr, rdiags := cr.Line(pos, l)
			if !reflect.DeepEqual(h, hr) || !reflect.DeepEqual(r, rr) || !reflect.DeepEqual(diags, rdiags) {
				t.Errorf("%s: csv %q: %+v %+v %v, reference %+v %+v %v", pat, l, h, r, diags, hr, rr, rdiags)
			}
		}
		if r, rr := d.End(), dr.End(); !reflect.DeepEqual(r, rr) {
			t.Errorf("%s: end %+v, reference %+v", pat, r, rr)
		}
	}
}

// benchLines returns the lines of a fixture, for the parse-path benchmarks.
func benchLines(b *testing.B, pattern string) []string {
	lines := difftest.Lines(b, pattern)
	n := 0
	for _, l := range lines {
		n += len(l) + 1
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	return lines
}

// BenchmarkDump is the parse path of the dump form, a whole fixture an
// iteration (allocations are per fixture: divide by its lines).
func BenchmarkDump(b *testing.B) {
	lines := benchLines(b, "../../lower/dialect/prf/testdata/same.prf")
	b.ReportMetric(float64(len(lines)), "lines/op")
	var p DumpParser
	for range b.N {
		for i, l := range lines {
			p.Line(ast.Pos{File: "t", Line: i + 1, Col: 1}, l)
		}
		p.End()
	}
}

// BenchmarkCSV is the parse path of the CSV form, the rows of a fixture an
// iteration (its header row read once before).
func BenchmarkCSV(b *testing.B) {
	lines := benchLines(b, "../../lower/dialect/prf/testdata/same.csv")
	var p CSVParser
	p.Line(ast.Pos{File: "t", Line: 1, Col: 1}, lines[0]) // the header, once
	lines = lines[1:]
	b.ReportMetric(float64(len(lines)), "lines/op")
	for range b.N {
		for i, l := range lines {
			p.Line(ast.Pos{File: "t", Line: i + 1, Col: 1}, l)
		}
	}
}

// TestLexersMerged: every lexer is one merged automaton in code, the fast
// path (difftest.Merged).
func TestLexersMerged(t *testing.T) {
	difftest.Merged(t, map[string]*pgenrt.Lexer{"csvLexer": &pgenLexer_csvLexer, "dumpLexer": &pgenLexer_dumpLexer, "hexLexer": &pgenLexer_hexLexer})
}
