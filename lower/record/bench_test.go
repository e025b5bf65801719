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

// straceRecord is a Linux strace call as the lowering makes it: symbols,
// a flag set, an array, a string with an escape, integers, a duration.
func straceRecord() *record.Record {
	dur := int64(504000)
	ret := record.IntArg(false, 24, "24")
	return &record.Record{
		Dialect: "strace", Source: "strace.out", Line: 123456, Seq: 123456,
		PID: record.Uint(4005), TID: record.Uint(4005), Event: "write", Phase: record.Complete, DurNs: &dur,
		Args: []record.Arg{record.IntArg(false, 1, "1"), record.StrArg("synthetic output line 1\n", `"synthetic output line 1\n"`),
			record.OpArg("~", record.ArrayArg(record.SymArg("RTMIN"), record.SymArg("RT_1"))), record.UintArg(24, "24")},
		Ret: &ret,
	}
}

// winstraceRecord is a Windows strace call: a structure, an in-out pair
// and attrs of its own.
func winstraceRecord() *record.Record {
	return &record.Record{
		Dialect: "winstrace", Source: "w.wst", Line: 123456, Seq: 123456,
		PID: record.Uint(1001), TID: record.Uint(2007), Event: "NtOpenFile", Phase: record.Complete,
		Args: []record.Arg{record.UintArg(171, "0xab"), record.StructArg(record.UintArg(24, "24").Named("Length"),
			record.StrArg(`\??\C:\synth\f35.txt`+"\n", `"\\??\\C:\\synth\\f35.txt\n"`).Named("Name")),
			record.InOutArg(record.UintArg(215, "215"), record.UintArg(334, "334"))},
		Ret:   &record.Arg{Kind: record.KindSym, Str: "STATUS_SUCCESS"},
		Attrs: record.Attrs{"exit_line": 3, "id": 1, "kernel": true},
	}
}

// BenchmarkCSVStrace and the others write one record of a dialect.
func BenchmarkCSVStrace(b *testing.B)      { benchWrite(b, "csv", straceRecord()) }
func BenchmarkJSONLStrace(b *testing.B)    { benchWrite(b, "jsonl", straceRecord()) }
func BenchmarkCSVWinstrace(b *testing.B)   { benchWrite(b, "csv", winstraceRecord()) }
func BenchmarkJSONLWinstrace(b *testing.B) { benchWrite(b, "jsonl", winstraceRecord()) }

func benchWrite(b *testing.B, format string, r *record.Record) {
	w, err := record.NewWriter(format, io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for range b.N {
		if err := w.Write(r); err != nil {
			b.Fatal(err)
		}
	}
}
