package parquetout

import (
	"bytes"
	"testing"

	"github.com/tracekit/tracekit/lower/record"
)

// TestFromRecord: ts is ts_ns cut to microseconds (down, also below zero),
// empty optional fields are null, and JSON columns hold the JSONL's text.
func TestFromRecord(t *testing.T) {
	for _, tc := range []struct{ ns, us int64 }{{0, 0}, {1999, 1}, {-1, -1}, {-1000, -1}, {-1001, -2}} {
		row, _, err := FromRecord(&record.Record{TSNs: record.Int(tc.ns), Phase: record.Instant}, nil)
		if err != nil || row.TS == nil || *row.TS != tc.us {
			t.Errorf("ts_ns %d: ts %v, want %d (%v)", tc.ns, row.TS, tc.us, err)
		}
	}
	row, _, err := FromRecord(&record.Record{Event: "e", Phase: record.Exit, Data: []string{},
		Args: []record.Arg{record.UintArg(1, "1")}, Attrs: record.Attrs{"b": 1, "a": "x"}}, make([]byte, 0, 8))
	if err != nil {
		t.Fatal(err)
	}
	if row.TS != nil || row.Time != nil || row.Data != nil || row.Ret != nil || row.Errno != nil {
		t.Errorf("empty fields not null: %+v", row)
	}
	if string(row.Args) != `[{"kind":"int","int":1,"text":"1"}]` || string(row.Attrs) != `{"a":"x","b":1}` {
		t.Errorf("args %s attrs %s", row.Args, row.Attrs)
	}
}

// TestWriterEnds: Flush ends the file once, with Parquet's magic at both
// ends; nothing may be written after.
func TestWriterEnds(t *testing.T) {
	var out bytes.Buffer
	w := New(&out)
	for i := range 3 {
		if err := w.Write(&record.Record{Dialect: "d", Source: "s", Line: i + 1, Seq: int64(i + 1), Event: "e", Phase: record.Instant}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	n := out.Len()
	if err := w.Flush(); err != nil || out.Len() != n {
		t.Errorf("second Flush: %v, %d bytes more", err, out.Len()-n)
	}
	if !bytes.HasPrefix(out.Bytes(), []byte("PAR1")) || !bytes.HasSuffix(out.Bytes(), []byte("PAR1")) {
		t.Error("not a Parquet file")
	}
	if err := w.Write(&record.Record{Event: "e", Phase: record.Instant}); err == nil {
		t.Error("a write after the end was accepted")
	}
}
