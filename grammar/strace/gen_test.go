package strace

import (
	"reflect"
	"testing"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/corpus"

	"github.com/tracekit/tracekit/grammar/internal/difftest"
	"github.com/tracekit/tracekit/grammar/internal/pgen/pgenrt"
)

// The inputs of the differential tests: every line of the fixtures and of
// the shared corpus, each given to both parsers of the package.
var genInputs = []string{
	"../../lower/dialect/strace/testdata/*.strace",
	"../../lower/dialect/strace/testdata/*.strace.*[0-9]",
	"../../lower/dialect/strace/testdata/matrix/*.strace",
	"../../lower/dialect/strace/testdata/matrix/*.strace.*[0-9]",
	"shared:corpus/linux-strace/*",
}

var genSeeds = []string{
	"", " ", ">", " > ", "strace: ", "strace: Process 12 attached", "\"", "\xff", "a\x00b",
	`[pid  4001] 10:00:00.000001 [00007f0e3c3a0f3b] read(3, "a\x62\"..."..., 0X1F) = -1 EAGAIN (Resource (temporarily) unavailable) (x) <0.000001>`,
	`open("/x", O_RDONLY (flags O_RDONLY)) = 3 ( a ( b ) "c" ) <unavailable>`,
	`--- SIGCHLD {si_signo=SIGCHLD, si_pid=1} ---`, `--- SIGINT (Interrupt) @ 0 (0) ---`, `+++ killed by SIGKILL (core dumped) +++`,
	`f(3</a<b>[c]"d">, ~[RT_1 RTMIN], a=>b, {x=1|2&&!y}) = ? `, `f(<unfinished ...>`, `<... f resumed> <detached ...>`,
	`restart_syscall(<... resuming interrupted poll ...>) = 0`, `f(/* 3 */ 1 /* c */, 0x)`, "f(1, ", "f(]", "f) =",
	`<... clone3 resumed> => {parent_tid=[7]}, 88) = 7`, `ioctl(0, A or B or C, {c_iflag=, c_cc=[[VINTR]=0x3, [17]=0]}) = 0`,
	`clone(flags=0x1200000 /* CLONE_CHILD_CLEARTID */|17 /* SIGCHLD */, 0 /* AT_FDCWD */) = 5`, `statx(-100, "/x", |0x800, 0x2) = 0`,
	`12<comm> [  59] [00007f0e3c3a0f3b] execve("/x") = 0`, `[pid 12<a b>] f() = 0`, ` => {parent_tid=[5]}, 88) = 5`, `, x=1) = 0`, `)      = 0`,
	`f(1, 2strace: Process 5 attached`, `f({a}/usr/bin/strace: Process 5 detached`, ` | 00000  7f 45  .E |`, `--- {si_signo=SIGCHLD} (Child exited) ---`,
	`% time     seconds  usecs/call     calls    errors syscall`, `------ ----------- ---`, ` 61.14    0.017405        4351         4           clock_nanosleep`,
	`????( <unfinished ...>`, `<... ???? resumed>) = 0`, `a or`, `f(x or)`, `f(=)`, `f(|)`, `---`, `--- {} ---`,
}

func lineEngines() (ref, gen, reuse difftest.Engine[line]) {
	var g, r lineParserGen
	var out line
	return difftest.Participle(lineParser()), func(s string) (*line, error) { return g.ParseString("", s) },
		func(s string) (*line, error) { return &out, r.ParseInto("", s, &out) }
}

func restEngines() (ref, gen, reuse difftest.Engine[restLine]) {
	var g, r restParserGen
	var out restLine
	return difftest.Participle(restParser()), func(s string) (*restLine, error) { return g.ParseString("", s) },
		func(s string) (*restLine, error) { return &out, r.ParseInto("", s, &out) }
}

func genLines(tb testing.TB) []string {
	tb.Helper()
	return append(difftest.Lines(tb, genInputs...), genSeeds...)
}

// TestGeneratedMatchesParticiple: both generated parsers build the same
// trees as participle, or fail with the same error, on every line.
func TestGeneratedMatchesParticiple(t *testing.T) {
	lines := genLines(t)
	// The committed fixtures alone give over a hundred lines; with the
	// shared corpus there are thousands. Fewer means a fixture went missing.
	want := 100
	if corpus.Root() != "" {
		want = 1000
	}
	if len(lines) < want {
		t.Fatalf("only %d lines to compare (want at least %d)", len(lines), want)
	}
	lref, lgen, lreuse := lineEngines()
	rref, rgen, rreuse := restEngines()
	for _, l := range lines {
		if _, ok := tooDeep(l); !ok {
			continue // refused before parsing
		}
		difftest.Check(t, lref, lgen, l)
		difftest.Check(t, lref, lreuse, l)
		difftest.Check(t, rref, rgen, l)
		difftest.Check(t, rref, rreuse, l)
	}
}

func FuzzGeneratedLine(f *testing.F) {
	for _, s := range genLines(f) {
		f.Add(s)
	}
	lref, lgen, _ := lineEngines()
	rref, rgen, _ := restEngines()
	f.Fuzz(func(t *testing.T, s string) {
		if _, ok := tooDeep(s); !ok {
			return // refused before parsing; participle's recursion is not the point
		}
		difftest.Check(t, lref, lgen, s)
		difftest.Check(t, rref, rgen, s)
	})
}

// TestLineMatchesReference: ParseLine and a LineParser give the same nodes
// and diagnostics with either engine.
func TestLineMatchesReference(t *testing.T) {
	var lp, ref LineParser
	ref.Reference = true
	base := ast.Pos{File: "t", Line: 3, Col: 1, Offset: 40}
	for _, l := range genLines(t) {
		got, diags := lp.Line(base, l)
		want, wdiags := ref.Line(base, l)
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(diags, wdiags) {
			t.Errorf("%q: %+v %v, reference %+v %v", l, got, diags, want, wdiags)
		}
		one, odiags := ParseLine(base, l)
		if !reflect.DeepEqual(one, want) || !reflect.DeepEqual(odiags, wdiags) {
			t.Errorf("ParseLine %q: %+v %v, reference %+v %v", l, one, odiags, want, wdiags)
		}
	}
}

// TestLexersMerged: every lexer is one merged automaton in code, the fast
// path (difftest.Merged).
func TestLexersMerged(t *testing.T) {
	difftest.Merged(t, map[string]*pgenrt.Lexer{"lineLexer": &pgenLexer_lineLexer, "restLexer": &pgenLexer_restLexer, "tableLexer": &pgenLexer_tableLexer})
}
