package dialect_test

import (
	"bytes"
	"context"
	"io"
	"slices"
	"testing"

	"github.com/tracekit/tracekit/lower/dialect"
	"github.com/tracekit/tracekit/lower/record"
)

// benchSize is the size of the generated input of each benchmark.
const benchSize = 1 << 20

// benchRecords lowers benchSize bytes of generated input in the named
// dialect to JSONL (discarded), reporting MB/s and allocations.
func benchRecords(b *testing.B, name string) { benchRecordsFormat(b, name, "jsonl") }

// benchRecordsFormat is benchRecords with the output in the named format.
func benchRecordsFormat(b *testing.B, name, format string) {
	var in bytes.Buffer
	if err := dialect.Generate(name, &in, benchSize); err != nil {
		b.Fatal(err)
	}
	data := in.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		w, err := record.NewWriter(format, io.Discard)
		if err != nil {
			b.Fatal(err)
		}
		sum, err := dialect.Records(context.Background(), dialect.Options{Dialect: name},
			[]dialect.Input{{Name: name, Reader: bytes.NewReader(data)}}, w, nil)
		if err != nil || sum.Skipped != 0 {
			b.Fatalf("%v, %d lines skipped", err, sum.Skipped)
		}
		if err := w.Flush(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRecordsOS2Strace(b *testing.B) { benchRecords(b, "os2strace") }
func BenchmarkRecordsOS2MTE(b *testing.B)    { benchRecords(b, "os2mte") }
func BenchmarkRecordsWinStrace(b *testing.B) { benchRecords(b, "winstrace") }
func BenchmarkRecordsPRF(b *testing.B)       { benchRecords(b, "prf") }
func BenchmarkRecordsPRFCSV(b *testing.B)    { benchRecords(b, "prfcsv") }
func BenchmarkRecordsStrace(b *testing.B)    { benchRecords(b, "strace") }

// BenchmarkRecordsOS2StraceCSV is the path of the CSV figure.
func BenchmarkRecordsOS2StraceCSV(b *testing.B) { benchRecordsFormat(b, "os2strace", "csv") }

// BenchmarkRecordsStraceCSV and BenchmarkRecordsWinStraceCSV are the
// paths of the figures that compare the dialects with os2strace (CSV).
func BenchmarkRecordsStraceCSV(b *testing.B)    { benchRecordsFormat(b, "strace", "csv") }
func BenchmarkRecordsWinStraceCSV(b *testing.B) { benchRecordsFormat(b, "winstrace", "csv") }

// BenchmarkRecordsOS2StraceFields is the one-core path of the awk
// comparison: os2strace to CSV with the 7 columns of
// ../shared/bench/awk-strace-csv.sh, on one worker.
func BenchmarkRecordsOS2StraceFields(b *testing.B) { benchOS2Strace(b, "csv", awkColumns, 1) }

// BenchmarkRecordsOS2StraceFields2 is BenchmarkRecordsOS2StraceFields on two
// workers.
func BenchmarkRecordsOS2StraceFields2(b *testing.B) { benchOS2Strace(b, "csv", awkColumns, 2) }

// BenchmarkRecordsOS2StraceCSV1 and BenchmarkRecordsOS2StraceJSONL1 are the
// full forms on one worker.
func BenchmarkRecordsOS2StraceCSV1(b *testing.B)   { benchOS2Strace(b, "csv", "", 1) }
func BenchmarkRecordsOS2StraceJSONL1(b *testing.B) { benchOS2Strace(b, "jsonl", "", 1) }

// awkColumns are the columns of ../shared/bench/awk-strace-csv.sh.
const awkColumns = "time,ts_ns,cpu,major,minor,event,data"

// benchOS2Strace lowers 8 MiB of generated os2strace to format, with the
// column list fields ("" for all), on workers goroutines.
func benchOS2Strace(b *testing.B, format, fields string, workers int) {
	var in bytes.Buffer
	if err := dialect.Generate("os2strace", &in, 8*benchSize); err != nil {
		b.Fatal(err)
	}
	data := in.Bytes()
	opts := dialect.Options{Dialect: "os2strace", Workers: workers}
	mk := func() (record.Writer, error) { return record.NewWriter(format, io.Discard) }
	if fields != "" {
		list, err := record.ParseFields(fields)
		if err != nil {
			b.Fatal(err)
		}
		opts.NoArgs = !slices.Contains(list, "args")
		opts.NoAttrs = !slices.Contains(list, "attrs")
		mk = func() (record.Writer, error) { return record.NewFieldsWriter(format, io.Discard, list) }
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		w, err := mk()
		if err != nil {
			b.Fatal(err)
		}
		sum, err := dialect.Records(context.Background(), opts,
			[]dialect.Input{{Name: "os2strace", Reader: bytes.NewReader(data)}}, w, nil)
		if err != nil || sum.Skipped != 0 {
			b.Fatalf("%v, %d lines skipped", err, sum.Skipped)
		}
		if err := w.Flush(); err != nil {
			b.Fatal(err)
		}
	}
}
