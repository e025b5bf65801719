package strace_test

import (
	"bytes"
	"testing"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/lower/dialect/gen"
	"github.com/tracekit/tracekit/lower/dialect/lowering"
	"github.com/tracekit/tracekit/lower/dialect/strace"
	"github.com/tracekit/tracekit/lower/record"
)

// countOutput counts what the lowering sends and keeps nothing.
type countOutput struct{ records, diags int }

func (o *countOutput) Record(*record.Record) error { o.records++; return nil }
func (o *countOutput) Diag(diag.Diagnostic, int)   { o.diags++ }

// BenchmarkLower parses and lowers the lines of a generated trace, one
// after another on one goroutine: allocs/op divided by lines/op is what a
// line costs.
func BenchmarkLower(b *testing.B) {
	var in bytes.Buffer
	if err := gen.Strace(&in, 1<<20); err != nil {
		b.Fatal(err)
	}
	var lines []string
	for l := range bytes.Lines(in.Bytes()) {
		if l = bytes.TrimSuffix(l, []byte("\n")); len(l) > 0 {
			lines = append(lines, string(l))
		}
	}
	b.SetBytes(int64(in.Len()))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		out := &countOutput{}
		low := strace.Dialect().NewLowerer(lowering.Config{Dialect: "strace", Source: "bench"}, out)
		for i, l := range lines {
			if err := low.Line(ast.Pos{File: "bench", Line: i + 1, Col: 1}, l); err != nil {
				b.Fatal(err)
			}
		}
		if err := low.End(ast.Pos{}); err != nil {
			b.Fatal(err)
		}
		if out.diags != 0 || out.records == 0 {
			b.Fatalf("%d records, %d diagnostics", out.records, out.diags)
		}
	}
	b.ReportMetric(float64(len(lines)), "lines/op")
}
