package os2strace

import (
	"reflect"
	"testing"

	os2ast "github.com/tracekit/tracekit/ast/os2strace"

	"github.com/tracekit/tracekit/grammar/internal/difftest"
	"github.com/tracekit/tracekit/grammar/internal/pgen/pgenrt"
)

// The inputs of the differential tests: every line of the fixtures and of
// the shared corpus, each given to every parser of the package.
var genInputs = []string{
	"../../lower/dialect/os2strace/testdata/*.out",
	"../../lower/dialect/os2strace/testdata/*.mte",
	"shared:corpus/os2/strace/*",
}

// The seeds end with lines the parsers' fast path (flat, in parsers_gen.go)
// leaves to the general path: runes from U+0080 on, line feeds in a word or
// in the space between, tokens left over or missing.
var genSeeds = []string{"", " ", "102 13 29 9450:1 0 a:b", "1 2 3 4 5", "\xff", "a\nb c", "x\x00y",
	"102 13 29 9450:1 0 é", "102 13 29\n9450:1 0 ab", " 102\t13 29 9450:1 0 ab cd \t", "102 13 29 9450:1 0", "102 13 29 9450:1",
	"102 13 29 9450 : 1 0 ab", "102 13 29 9450:1 0 ab:", "0002 00020000 00004000 0000000d fb1e0828 C:\\É.EXE", "1 2 3 4 5 a\nb"}

func hookEngines() (ref, gen, reuse difftest.Engine[hookLine]) {
	var g, r hookParserGen
	var out hookLine
	return difftest.Participle(hookParser()), func(s string) (*hookLine, error) { return g.ParseString("", s) },
		func(s string) (*hookLine, error) { return &out, r.ParseInto("", s, &out) }
}

func moduleEngines() (ref, gen, reuse difftest.Engine[moduleLine]) {
	var g, r moduleParserGen
	var out moduleLine
	return difftest.Participle(moduleParser()), func(s string) (*moduleLine, error) { return g.ParseString("", s) },
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

// TestParseMatchesReference: the parse functions give the same nodes and
// diagnostics with either engine.
func TestParseMatchesReference(t *testing.T) {
	var lp LineParser
	reuse := LineParser{Reuse: true}
	for _, l := range append(difftest.Lines(t, genInputs...), genSeeds...) {
		h, hd := lp.Hook(base, l)
		if rh, rhd := reuse.Hook(base, l); !sameHook(h, rh) || !reflect.DeepEqual(hd, rhd) {
			t.Errorf("%q: hook %+v %v, with Reuse %+v %v", l, h, hd, rh, rhd)
		}
		m0, md0 := ParseModule(base, l)
		if rm, rmd := reuse.Module(base, l); !reflect.DeepEqual(m0, rm) || !reflect.DeepEqual(md0, rmd) {
			t.Errorf("%q: module %+v %v, with Reuse %+v %v", l, m0, md0, rm, rmd)
		}
		rh, rhd := ParseHookReference(base, l)
		if !reflect.DeepEqual(h, rh) || !reflect.DeepEqual(hd, rhd) {
			t.Errorf("%q: hook %+v %v, reference %+v %v", l, h, hd, rh, rhd)
		}
		m, md := lp.Module(base, l)
		rm, rmd := ParseModuleReference(base, l)
		if !reflect.DeepEqual(m, rm) || !reflect.DeepEqual(md, rmd) {
			t.Errorf("%q: module %+v %v, reference %+v %v", l, m, md, rm, rmd)
		}
	}
}

var benchHook = " 104   13   4b 9450:1545343593 3 00000001 fff37182 fff05c9c 00000000"

// BenchmarkHook is the parse path of one hook line (generated parser and
// conversion to ast nodes).
func BenchmarkHook(b *testing.B) {
	lp := LineParser{Reuse: true}
	b.SetBytes(int64(len(benchHook)))
	b.ReportAllocs()
	for range b.N {
		if h, _ := lp.Hook(base, benchHook); h == nil {
			b.Fatal("rejected")
		}
	}
}

// BenchmarkHookReference is BenchmarkHook with participle's parser.
func BenchmarkHookReference(b *testing.B) {
	b.SetBytes(int64(len(benchHook)))
	b.ReportAllocs()
	for range b.N {
		if h, _ := ParseHookReference(base, benchHook); h == nil {
			b.Fatal("rejected")
		}
	}
}

var benchModule = "0002 00020000 00004000 0000000d fb1e0828 E:\\OS2\\EPWMP.EXE"

// BenchmarkModule is the parse path of one module-table line.
func BenchmarkModule(b *testing.B) {
	lp := LineParser{Reuse: true}
	b.SetBytes(int64(len(benchModule)))
	b.ReportAllocs()
	for range b.N {
		if m, _ := lp.Module(base, benchModule); m == nil {
			b.Fatal("rejected")
		}
	}
}

// sameHook compares hooks, an empty Data equal to a nil one (Reuse keeps
// the storage).
func sameHook(a, b *os2ast.Hook) bool {
	if a == nil || b == nil {
		return a == b
	}
	x, y := *a, *b
	if len(x.Data) == 0 && len(y.Data) == 0 {
		x.Data, y.Data = nil, nil
	}
	return reflect.DeepEqual(x, y)
}

// TestLexersMerged: every lexer is one merged automaton in code, the fast
// path (difftest.Merged).
func TestLexersMerged(t *testing.T) {
	difftest.Merged(t, map[string]*pgenrt.Lexer{"hookLexer": &pgenLexer_hookLexer, "moduleLexer": &pgenLexer_moduleLexer})
}
