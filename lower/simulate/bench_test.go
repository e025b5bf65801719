package simulate

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/tracekit/tracekit/binfmt/stda"
	"github.com/tracekit/tracekit/lower/formatter"
)

// benchHits is how many hits the benchmarks' state file holds.
const benchHits = 100_000

// benchHitForms are the hits of testdata/statements.state.json by minor
// code, each with the registers it needs there; benchState repeats them.
var benchHitForms = []string{
	`"minor": 1`, `"minor": 2`,
	`"minor": 3, "registers": {"DS": "0xB7", "ESI": "0x0400", "SS": "0xBF", "EBP": "0x0100", "EDI": "0x0020"}`,
	`"minor": 4, "registers": {"ES": "0xB7"}`, `"minor": 5`,
	`"minor": 6, "registers": {"DS": "0xB7", "EDI": "0x0700"}`,
	`"minor": 7, "registers": {"SS": "0xBF", "ESP": "0x0200"}`,
	`"minor": 8, "registers": {"DS": "0xB7", "EDI": "0x0800"}`,
	`"minor": 10`, `"minor": 12, "external": true`,
}

// benchState returns testdata/statements.state.json with its hits replaced
// by n hits over its tracepoints, as .ci/bench-targets.sh writes it.
func benchState(t testing.TB, n int) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "statements.state.json"))
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(src, []byte(`"hits"`))
	if i < 0 {
		t.Fatal("statements.state.json has no hits")
	}
	b := append([]byte{}, src[:i]...)
	b = append(b, "\"hits\": [\n"...)
	for k := range n {
		sep := ","
		if k == n-1 {
			sep = ""
		}
		b = fmt.Appendf(b, "    {%s, \"pid\": \"0x%X\", \"time\": \"%02d:%02d:%02d.%02d\"}%s\n",
			benchHitForms[k%len(benchHitForms)], 0x21+k%7, k/360000%24, k/6000%60, k/100%60, k%100, sep)
	}
	return append(b, "  ]\n}\n"...)
}

// BenchmarkSimulate reads a state file of benchHits/5 hits and runs them
// against statements.tsf's TDF into a 64 KiB STDA, as tracekit simulate
// does (the state read from its bytes included): exec/s is tracepoint
// executions a second.
func BenchmarkSimulate(b *testing.B) {
	const hits = benchHits / 5 // the whole file is held, several times over
	c := compileTSF(b, "statements.tsf")
	src := benchState(b, hits)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		st, err := ParseState(src)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Run(c.tdf, st, Options{Size: 0xFFFF}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(hits)*float64(b.N)/b.Elapsed().Seconds(), "exec/s")
}

// BenchmarkRunFile runs the same hits from a state file with RunFile,
// as tracekit simulate does: the hits read as they run, their results
// handed to Options.Hit and not kept.
func BenchmarkRunFile(b *testing.B) {
	c := compileTSF(b, "statements.tsf")
	src := benchState(b, benchHits)
	path := filepath.Join(b.TempDir(), "state.json")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := RunFile(c.tdf, path, Options{Size: 0xFFFF, Hit: func(*HitResult) {}}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(benchHits)*float64(b.N)/b.Elapsed().Seconds(), "exec/s")
}

// BenchmarkFormat formats a 64 KiB STDA that the simulator filled from
// statements.tsf's tracepoints through their TFF, as tracekit format
// does: the buffer read, each record formatted and written as a text
// block. records/s counts the records formatted.
func BenchmarkFormat(b *testing.B) {
	c := compileTSF(b, "statements.tsf")
	st, err := ParseState(benchState(b, 10_000))
	if err != nil {
		b.Fatal(err)
	}
	res, err := Run(c.tdf, st, Options{Size: 0xFFFF})
	if err != nil {
		b.Fatal(err)
	}
	fs := formats(c.tff)
	n := 0
	b.SetBytes(int64(len(res.Bytes)))
	b.ReportAllocs()
	for b.Loop() {
		buf, err := stda.Parse(res.Bytes)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := formatter.WriteText(io.Discard, buf.Records, fs); err != nil {
			b.Fatal(err)
		}
		n += len(buf.Records)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "records/s")
}
