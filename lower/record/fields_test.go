package record_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/lower/dialect"
	"github.com/tracekit/tracekit/lower/record"
)

// render writes the records of every dialect's testdata through w.
func render(t *testing.T, mk func(*bytes.Buffer) record.Writer) string {
	t.Helper()
	out, _ := renderWith(t, dialect.Options{KeepGoing: true, Workers: 1}, mk)
	return out
}

// renderWith is render with the given options, also returning the
// diagnostics as text.
func renderWith(t *testing.T, opts dialect.Options, mk func(*bytes.Buffer) record.Writer) (string, string) {
	t.Helper()
	var diags strings.Builder
	report := func(d diag.Diagnostic) { diags.WriteString(d.String() + "\n") }
	files, _ := filepath.Glob("../dialect/*/testdata/*")
	var out bytes.Buffer
	w := mk(&out)
	n := 0
	for _, f := range files {
		switch filepath.Ext(f) {
		case ".diag", ".jsonl", ".md", ".golden":
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil || len(data) == 0 {
			continue
		}
		dialect.Records(context.Background(), opts,
			[]dialect.Input{{Name: f, Reader: bytes.NewReader(data)}}, w, report)
		n++
	}
	if n < 5 {
		t.Fatalf("only %d inputs", n)
	}
	w.Flush()
	return out.String(), diags.String()
}

// TestFieldsNoArgs: a column list without args or attrs lets the
// lowerings leave them out (Options.NoArgs, NoAttrs); the columns and the
// diagnostics are the same, on every dialect's testdata.
func TestFieldsNoArgs(t *testing.T) {
	for _, list := range []string{"time,ts_ns,cpu,major,minor,event,data", "source,line,seq,ret,attrs,status,errno,dur_ns,unpaired", "line,event,args"} {
		fields, err := record.ParseFields(list)
		if err != nil {
			t.Fatal(err)
		}
		mk := func(b *bytes.Buffer) record.Writer {
			w, _ := record.NewFieldsWriter("csv", b, fields)
			return w
		}
		want, wantDiags := renderWith(t, dialect.Options{KeepGoing: true, Workers: 1}, mk)
		for _, workers := range []int{1, 3} {
			opts := dialect.Options{KeepGoing: true, Workers: workers,
				NoArgs: !slices.Contains(fields, "args"), NoAttrs: !slices.Contains(fields, "attrs")}
			got, gotDiags := renderWith(t, opts, mk)
			if got != want || gotDiags != wantDiags {
				t.Errorf("%s, %d workers: NoArgs %v, NoAttrs %v change the output", list, workers, opts.NoArgs, opts.NoAttrs)
			}
		}
		if strings.Count(want, "\n") < 50 || wantDiags == "" {
			t.Fatalf("%s: too little output to compare (%d rows, diagnostics %q)", list, strings.Count(want, "\n"), wantDiags)
		}
	}
}

// TestFieldsProject: a field list writes exactly those columns of the full
// CSV (cell for cell) and those members of the full JSONL (value for
// value), in the order asked, on every dialect's testdata.
func TestFieldsProject(t *testing.T) {
	lists := []string{"ts_ns,pid,event,ret,errno,dur_ns", "event,args,attrs,data,status", "source,line,seq,time,cpu,tid,process,major,minor,phase,unpaired,dialect"}
	fullCSV, err := csv.NewReader(strings.NewReader(render(t, func(b *bytes.Buffer) record.Writer { return record.NewCSV(b) }))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	fullJSON := strings.Split(strings.TrimSpace(render(t, func(b *bytes.Buffer) record.Writer { return record.NewJSONL(b) })), "\n")
	for _, list := range lists {
		fields, err := record.ParseFields(list)
		if err != nil {
			t.Fatal(err)
		}
		got, err := csv.NewReader(strings.NewReader(render(t, func(b *bytes.Buffer) record.Writer {
			w, _ := record.NewFieldsWriter("csv", b, fields)
			return w
		}))).ReadAll()
		if err != nil || len(got) != len(fullCSV) {
			t.Fatalf("%s: %d rows (%v), want %d", list, len(got), err, len(fullCSV))
		}
		col := map[string]int{}
		for i, h := range fullCSV[0] {
			col[h] = i
		}
		for i := range got {
			for j, f := range fields {
				if got[i][j] != fullCSV[i][col[f]] {
					t.Fatalf("%s: row %d %s = %q, the full CSV has %q", list, i, f, got[i][j], fullCSV[i][col[f]])
				}
			}
		}
		jl := strings.Split(strings.TrimSpace(render(t, func(b *bytes.Buffer) record.Writer {
			w, _ := record.NewFieldsWriter("jsonl", b, fields)
			return w
		})), "\n")
		if len(jl) != len(fullJSON) {
			t.Fatalf("%s: %d JSON lines, want %d", list, len(jl), len(fullJSON))
		}
		for i := range jl {
			var a, b map[string]any
			if err := json.Unmarshal([]byte(jl[i]), &a); err != nil {
				t.Fatalf("%s: %q: %v", list, jl[i], err)
			}
			json.Unmarshal([]byte(fullJSON[i]), &b)
			for _, f := range fields {
				if !reflect.DeepEqual(a[f], b[f]) {
					t.Fatalf("%s: line %d %s = %v, the full JSONL has %v", list, i, f, a[f], b[f])
				}
			}
			if len(a) > len(fields) {
				t.Fatalf("%s: extra members in %s", list, jl[i])
			}
		}
	}
	for _, bad := range []string{"nosuch", "event,event", ""} {
		if _, err := record.ParseFields(bad); err == nil {
			t.Errorf("ParseFields(%q) took it", bad)
		}
	}
	if _, err := record.NewFieldsWriter("chrome", &bytes.Buffer{}, []string{"event"}); err == nil {
		t.Error("chrome took a field list")
	}
}
