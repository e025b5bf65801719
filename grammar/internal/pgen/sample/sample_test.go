package sample

import (
	"testing"

	"github.com/tracekit/tracekit/grammar/internal/difftest"
)

var seeds = []string{
	"", ";", "let x = 1", "let! y: a.b.c = 'it''s' + \"q\"\"q\" * f(1, 2,) ; if x == 1 { g() } else { h(x) }",
	"let z = [1, 'a', 2.5][0][1] ? -x : (y)", "f.g.h() : a, b, c", "if a { } else { }", "let = 1", "if { }", "f(",
	"let x = 1 && 2 || 3 <= 4", "let x = -0x1F", "é", "let x = [", "g(1)(2)", "let x = 'unterminated", "a = b",
	"if x { let y = 1; if y { f() } }", "let x = y ? z", "let x = (1", "\x00", "let x = 1 ; ; ;",
}

func engines() (ref, gen, reuse difftest.Engine[program]) {
	var g, r programParserGen
	var out program
	return difftest.Participle(programParser), func(s string) (*program, error) { return g.ParseString("", s) },
		func(s string) (*program, error) { return &out, r.ParseInto("", s, &out) }
}

// TestSample: participle and the generated parser agree on a grammar that
// uses every supported construct.
func TestSample(t *testing.T) {
	ref, gen, reuse := engines()
	for _, s := range seeds {
		difftest.Check(t, ref, gen, s)
		difftest.Check(t, ref, reuse, s)
	}
}

func FuzzSample(f *testing.F) {
	for _, s := range seeds {
		f.Add(s)
	}
	ref, gen, reuse := engines()
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 200 {
			return // participle's backtracking is slow on long nonsense
		}
		difftest.Check(t, ref, gen, s)
		difftest.Check(t, ref, reuse, s)
	})
}
