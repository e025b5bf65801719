package winstrace

import (
	"testing"

	"github.com/tracekit/tracekit/grammar/internal/difftest"
)

// The inputs of the differential tests: every line of the fixtures.
var genInputs = []string{"../../lower/dialect/winstrace/testdata/*.wst"}

var genSeeds = []string{"", "> 1 * 2 3 F[2](<1|2>, {a = \"x\\\"\", 3}) == ???", "1 2 3 N[0]() ==", "1 2 3 N[1](<", "\"", "\xff", "1 2 3 N[1]({a = {b = <c|d>}})"}

func callEngines() (ref, gen, reuse difftest.Engine[callLine]) {
	var g, r callParserGen
	var out callLine
	return difftest.Participle(callParser), func(s string) (*callLine, error) { return g.ParseString("", s) },
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
