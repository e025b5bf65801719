package tsfparse

import (
	"fmt"
	"testing"

	"github.com/tracekit/tracekit/ast/tsf"
)

// largeTSF is the TSF of lower/tsfcompile's BenchmarkCompileLarge: n
// static tracepoints with distinct minor codes, each with a DESC and two
// FMT lines (about 5 MB at 65,535, the most a TSF may hold).
func largeTSF(n int) []byte {
	src := []byte("MODNAME = x.dll\nMAJOR = 0x42\n")
	for i := 1; i <= n; i++ {
		src = fmt.Appendf(src, "TRACE MINOR=0x%04X, TP=@STATIC, DESC=\"desc %d\", FMT=\"a=%%W b=%%D\", FMT=\"s=%%S\"\n", i, i)
	}
	return src
}

// BenchmarkParseLarge parses the 65,535 tracepoints of largeTSF as
// lower/tsfcompile does (ParseEach, dropping each TRACE statement): the
// parser's share of BenchmarkCompileLarge.
func BenchmarkParseLarge(b *testing.B) {
	src := largeTSF(65535)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		f, diags := ParseEach("x.tsf", src, 0, func(s tsf.Stmt) bool {
			_, trace := s.(*tsf.Trace)
			return !trace
		})
		if len(diags) > 0 || len(f.Stmts) != 2 {
			b.Fatalf("%d statements, %v", len(f.Stmts), diags)
		}
	}
}
