package os2strace

import (
	"testing"

	"github.com/tracekit/tracekit/grammar/internal/difftest"
)

// The inputs of the differential tests: every line of the fixtures and of
// the shared corpus, each given to every parser of the package.
var genInputs = []string{
	"../../lower/dialect/os2strace/testdata/*.out",
	"../../lower/dialect/os2strace/testdata/*.mte",
	"shared:corpus/os2/strace/*",
}

var genSeeds = []string{"", " ", "102 13 29 9450:1 0 a:b", "1 2 3 4 5", "\xff", "a\nb c", "x\x00y"}

func hookEngines() (ref, gen, reuse difftest.Engine[hookLine]) {
	var g, r hookParserGen
	var out hookLine
	return difftest.Participle(hookParser), func(s string) (*hookLine, error) { return g.ParseString("", s) },
		func(s string) (*hookLine, error) { return &out, r.ParseInto("", s, &out) }
}

func moduleEngines() (ref, gen, reuse difftest.Engine[moduleLine]) {
	var g, r moduleParserGen
	var out moduleLine
	return difftest.Participle(moduleParser), func(s string) (*moduleLine, error) { return g.ParseString("", s) },
		func(s string) (*moduleLine, error) { return &out, r.ParseInto("", s, &out) }
}

func TestGeneratedMatchesParticiple(t *testing.T) {
	lines := append(difftest.Lines(t, genInputs...), genSeeds...)
	href, hgen, hreuse := hookEngines()
	mref, mgen, mreuse := moduleEngines()
	for _, l := range lines {
		difftest.Check(t, href, hgen, l)
		difftest.Check(t, href, hreuse, l)
		difftest.Check(t, mref, mgen, l)
		difftest.Check(t, mref, mreuse, l)
	}
}

func FuzzGeneratedHook(f *testing.F) {
	for _, s := range append(difftest.Lines(f, genInputs...), genSeeds...) {
		f.Add(s)
	}
	ref, gen, _ := hookEngines()
	f.Fuzz(func(t *testing.T, s string) { difftest.Check(t, ref, gen, s) })
}

func FuzzGeneratedModule(f *testing.F) {
	for _, s := range append(difftest.Lines(f, genInputs...), genSeeds...) {
		f.Add(s)
	}
	ref, gen, _ := moduleEngines()
	f.Fuzz(func(t *testing.T, s string) { difftest.Check(t, ref, gen, s) })
}
