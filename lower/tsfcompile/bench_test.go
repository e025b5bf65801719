package tsfcompile

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/lower/tsfcheck"
)

// largeTSF returns a TSF of n static tracepoints with distinct minor codes,
// each with a DESC and two FMT lines: at n = 65,535, the largest a TSF may
// hold, it is about 5 MB.
func largeTSF(n int) []byte {
	src := []byte("MODNAME = x.dll\nMAJOR = 0x42\n")
	for i := 1; i <= n; i++ {
		src = fmt.Appendf(src, "TRACE MINOR=0x%04X, TP=@STATIC, DESC=\"desc %d\", FMT=\"a=%%W b=%%D\", FMT=\"s=%%S\"\n", i, i)
	}
	return src
}

// BenchmarkCompileLarge compiles a TSF of 65,535 static tracepoints to
// TFF bytes, as tracekit compile does. Besides time and allocations it
// reports live-MiB, the heap the compile's result holds (after a garbage
// collection) when the TFF bytes are made, which is what bounds the
// command's resident memory.
func BenchmarkCompileLarge(b *testing.B) {
	src := largeTSF(tsfcheck.MaxTracepoints)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	var live uint64
	for b.Loop() {
		r := Run(Request{Name: "x.tsf", Src: src, Locate: func(*tsfcheck.Module) (Sources, diag.List) {
			b.Fatal("a static TSF needs no module")
			return Sources{}, nil
		}})
		if r.All().Failed() || r.TFF == nil {
			b.Fatal("the compile failed")
		}
		data, err := r.TFF.MarshalBinary()
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		live = ms.HeapAlloc
		runtime.KeepAlive(r)
		runtime.KeepAlive(data)
		b.StartTimer()
	}
	b.ReportMetric(float64(live)/(1<<20), "live-MiB")
}
