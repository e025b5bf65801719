package record_test

import (
	"io"
	"strconv"
	"testing"

	"github.com/tracekit/tracekit/lower/record"
)

// benchRecord is an os2strace hook record as the lowering makes it.
func benchRecord() *record.Record {
	ts := int64(123456789012)
	attrs := record.Attrs{"hook": "0x0104", "hook_type": "32bit"}
	json, _ := record.AppendAttrsJSON(nil, attrs)
	return &record.Record{
		Dialect: "os2strace", Source: "strace.out", Line: 123456, Seq: 123456,
		Time: "254:3417264209", TSNs: &ts, CPU: record.Uint(1), Event: "0xa8/0x12",
		Major: record.Uint(0xa8), Minor: record.Uint(0x12), Phase: record.Instant,
		Data:  []string{"000000fe", "fff37182", "fff05c9c", "00000000"},
		Attrs: attrs, AttrsJSON: json,
	}
}

// BenchmarkFieldsCSV writes one record with the 7 columns of the awk
// comparison (../shared/bench/awk-strace-csv.sh).
func BenchmarkFieldsCSV(b *testing.B) {
	fields, err := record.ParseFields("time,ts_ns,cpu,major,minor,event,data")
	if err != nil {
		b.Fatal(err)
	}
	w, err := record.NewFieldsWriter("csv", io.Discard, fields)
	if err != nil {
		b.Fatal(err)
	}
	r := benchRecord()
	b.ReportAllocs()
	for range b.N {
		if err := w.Write(r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCSV writes one record as full CSV.
func BenchmarkCSV(b *testing.B) { benchFormat(b, "csv") }

// BenchmarkJSONL writes one record as JSONL.
func BenchmarkJSONL(b *testing.B) { benchFormat(b, "jsonl") }

func benchFormat(b *testing.B, format string) {
	w, err := record.NewWriter(format, io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	r := benchRecord()
	for _, d := range r.Data {
		v, _ := strconv.ParseUint(d, 16, 64)
		r.Args = append(r.Args, record.UintArg(v, d))
	}
	b.ReportAllocs()
	for range b.N {
		if err := w.Write(r); err != nil {
			b.Fatal(err)
		}
	}
}
