package prf_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/tracekit/tracekit/lower/dialect"
	"github.com/tracekit/tracekit/lower/dialect/dialecttest"
	"github.com/tracekit/tracekit/lower/record/recordtest"
)

// TestSynthetic compares the records and diagnostics of the synthetic
// inputs in testdata with their golden files.
func TestSynthetic(t *testing.T) {
	v := recordtest.NewValidator(t)
	for _, in := range dialecttest.Inputs(t, "testdata") {
		t.Run(filepath.Base(in), func(t *testing.T) {
			dialecttest.Golden(t, v, dialecttest.Case{Input: in})
		})
	}
}

func run(t *testing.T, file string, opts dialect.Options) dialecttest.Result {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	res := dialecttest.Run(opts, file, data)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	return res
}

// strip decodes JSONL records and drops the members that may differ
// between the two forms of the same events: dialect, source and line.
func strip(t *testing.T, jsonl []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range bytes.Split(bytes.TrimSpace(jsonl), []byte("\n")) {
		var m map[string]any
		if err := json.Unmarshal(l, &m); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		delete(m, "dialect")
		delete(m, "source")
		delete(m, "line")
		out = append(out, m)
	}
	return out
}

// TestDumpAndCSVAgree: the dump and CSV forms of the same events give the
// same records but for dialect, source and line; so does the CSV form
// without its header row.
func TestDumpAndCSVAgree(t *testing.T) {
	dump := run(t, "same.prf", dialect.Options{})
	csv := run(t, "same.csv", dialect.Options{})
	noHeader := run(t, "noheader.csv", dialect.Options{Dialect: "prfcsv"})
	for _, r := range []dialecttest.Result{dump, csv, noHeader} {
		if len(r.Diags) != 0 {
			t.Errorf("diagnostics: %v", r.Diags)
		}
	}
	d, c, n := strip(t, dump.JSONL), strip(t, csv.JSONL), strip(t, noHeader.JSONL)
	if len(d) != 3 {
		t.Fatalf("%d dump records, want 3", len(d))
	}
	for name, other := range map[string][]map[string]any{"csv": c, "noheader": n} {
		if len(other) != len(d) {
			t.Fatalf("%s: %d records, dump %d", name, len(other), len(d))
		}
		for i := range d {
			a, _ := json.Marshal(d[i])
			b, _ := json.Marshal(other[i])
			if !bytes.Equal(a, b) {
				t.Errorf("record %d differs:\ndump: %s\n%s:  %s", i+1, a, name, b)
			}
		}
	}
}

// TestItems checks single items of the synthetic events.
func TestItems(t *testing.T) {
	rs := strip(t, run(t, "same.prf", dialect.Options{}).JSONL)
	tests := []struct {
		rec  int
		key  string
		want any
	}{
		{0, "event", "0x8000"},
		{0, "status", "ok"},
		{1, "status", "error"},
		{0, "tid", float64(0x1a2c)},
		{1, "tid", float64(6700)},
		{2, "tid", float64(6701)},
		{0, "ts_ns", float64(0)},
		{1, "ts_ns", float64(1_817_250)},
		{2, "ts_ns", float64(636_800_001)},
		{0, "time", "2000/02/12 13:43:44 363/200/000"},
		{0, "process", "cjstartsv"},
		{0, "pid", float64(4120)},
	}
	for _, tt := range tests {
		if got := rs[tt.rec][tt.key]; got != tt.want {
			t.Errorf("record %d %s = %v, want %v", tt.rec+1, tt.key, got, tt.want)
		}
	}
	attrs := rs[1]["attrs"].(map[string]any)
	if attrs["int"] != "synth.example.very.long.package.*" || attrs["opr"] != "transferAllMoney*tweenTwoAccounts" {
		t.Errorf("INT and OPR are kept verbatim, * included: %v %v", attrs["int"], attrs["opr"])
	}
	if h := rs[2]["attrs"].(map[string]any)["thread_hash"]; h != float64(0x1a2d) {
		t.Errorf("thread_hash %v", h)
	}
	if ret := rs[1]["ret"].(map[string]any); ret["int"] != float64(-1) {
		t.Errorf("ret %v", ret)
	}
}
