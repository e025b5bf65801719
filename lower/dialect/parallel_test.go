package dialect

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/corpus"
	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/lower/dialect/lowering"
	"github.com/tracekit/tracekit/lower/record"
)

// run lowers data in a dialect and returns the output, the diagnostics and
// the summary as text.
func run(t *testing.T, opts Options, format string, data []byte) string {
	t.Helper()
	var out bytes.Buffer
	w, err := record.NewWriter(format, &out)
	if err != nil {
		t.Fatal(err)
	}
	var diags bytes.Buffer
	sum, err := Records(context.Background(), opts, []Input{{Name: "in", Reader: bytes.NewReader(data)}}, w,
		func(d diag.Diagnostic) { fmt.Fprintln(&diags, d.String()) })
	return fmt.Sprintf("%s\n-- diagnostics\n%s-- summary\n%s %+v %v", out.String(), diags.String(), sum, sum.Inputs, err)
}

// TestParallelMatchesOneCore: for every line dialect, the output,
// diagnostics and summary of the pipeline on several workers (small
// batches, halves paired across them; for a Staged lowering, one batch
// parsed while the one before is lowered) are byte-identical to those of
// the pipeline on one, in every format, on generated
// input, fixtures, corpus files and damaged input.
func TestParallelMatchesOneCore(t *testing.T) {
	var inputs []struct {
		name string
		data []byte
	}
	add := func(name string, data []byte) {
		inputs = append(inputs, struct {
			name string
			data []byte
		}{name, data})
	}
	for _, d := range List() {
		if d.Binary != nil {
			continue
		}
		if d.Generate == nil {
			continue // tested on its testdata below
		}
		var buf bytes.Buffer
		if err := d.Generate(&buf, 300<<10); err != nil {
			t.Fatal(err)
		}
		add(d.Name+":generated", buf.Bytes())
		damaged := append([]byte("\xef\xbb\xbf"), bytes.ReplaceAll(buf.Bytes(), []byte("\n1"), []byte("\r\n1 x\n\n   \nzz"))...)
		add(d.Name+":damaged", damaged)
	}
	var files []string
	// Every input of every lowering's testdata (not the expected outputs).
	all, _ := filepath.Glob(filepath.Join("*", "testdata", "*"))
	for _, f := range all {
		switch filepath.Ext(f) {
		case ".diag", ".jsonl", ".md":
			continue
		}
		if st, err := os.Stat(f); err == nil && st.Mode().IsRegular() {
			files = append(files, f)
		}
	}
	if len(files) < 20 {
		t.Fatalf("only %d fixtures found", len(files))
	}
	if root := corpus.Root(); root != "" {
		more, _ := filepath.Glob(filepath.Join(root, "corpus", "os2", "strace", "*"))
		files = append(files, more...)
		more, _ = filepath.Glob(filepath.Join(root, "corpus", "linux-strace", "*"))
		files = append(files, more...)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		add(f, data)
	}
	for _, d := range List() {
		if d.Binary != nil {
			continue
		}
		for _, in := range inputs {
			for _, format := range record.Formats() {
				for _, maxLine := range []int{0, 60} {
					one := Options{Dialect: d.Name, Workers: 1, KeepGoing: true, MaxLine: maxLine, CPUHz: 1e9, NoPair: maxLine > 0}
					many := one
					many.Workers, many.batchBytes = 3, 2048
					if one.MaxLine == 0 {
						one.CPUHz, many.CPUHz = 0, 0
					}
					want := run(t, one, format, in.data)
					if got := run(t, many, format, in.data); got != want {
						t.Errorf("%s on %s, %s, max line %d: parallel output differs from one core's", d.Name, in.name, format, maxLine)
					}
				}
			}
		}
	}
}

// TestParallelFieldsMatchOneCore: with a column list (whose writers encode
// records before they are settled, with holes for seq and ts_ns), the
// output, diagnostics and summary on several workers are those on one, in
// every format that takes a list, for the settled dialects, on generated
// and damaged input, kept going or strict.
func TestParallelFieldsMatchOneCore(t *testing.T) {
	lists := []string{"time,ts_ns,cpu,major,minor,event,data", "ts_ns,seq,line", "seq,event,ts_ns", "args,attrs"}
	for _, d := range List() {
		if d.NewSettler == nil || d.Generate == nil {
			continue
		}
		var buf bytes.Buffer
		if err := d.Generate(&buf, 200<<10); err != nil {
			t.Fatal(err)
		}
		damaged := bytes.ReplaceAll(buf.Bytes(), []byte("\n1"), []byte("\n1 x\n\n   \nzz"))
		for name, data := range map[string][]byte{"generated": buf.Bytes(), "damaged": damaged} {
			for _, format := range record.FieldFormats {
				for _, list := range lists {
					fields, err := record.ParseFields(list)
					if err != nil {
						t.Fatal(err)
					}
					for _, strict := range []bool{false, true} {
						one := Options{Dialect: d.Name, Workers: 1, KeepGoing: !strict, Strict: strict}
						many := one
						many.Workers, many.batchBytes = 3, 2048
						out := func(opts Options) string {
							var b bytes.Buffer
							w, err := record.NewFieldsWriter(format, &b, fields)
							if err != nil {
								t.Fatal(err)
							}
							var diags bytes.Buffer
							sum, err := Records(context.Background(), opts, []Input{{Name: "in", Reader: bytes.NewReader(data)}}, w,
								func(d diag.Diagnostic) { fmt.Fprintln(&diags, d.String()) })
							return fmt.Sprintf("%s\n-- diagnostics\n%s-- summary\n%s %+v %v", b.String(), diags.String(), sum, sum.Inputs, err)
						}
						want := out(one)
						if strings.Count(want, "\n") < 10 {
							t.Fatalf("%s on %s: too little output:\n%s", d.Name, name, want)
						}
						if got := out(many); got != want {
							t.Errorf("%s on %s, %s --fields %s, strict %v: parallel output differs from one core's", d.Name, name, format, list, strict)
						}
					}
				}
			}
		}
	}
}

// TestJoinAcrossBatches: for the dialects with a Joiner, every line its
// own batch (halves, -k frames and held records all cross batches) gives
// the output of one lowering, paired or not.
func TestJoinAcrossBatches(t *testing.T) {
	for _, d := range List() {
		if d.NewJoiner == nil {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(d.Name, "testdata", "*"))
		inputs := map[string][]byte{}
		if d.Generate != nil {
			var buf bytes.Buffer
			if err := d.Generate(&buf, 64<<10); err != nil {
				t.Fatal(err)
			}
			inputs["generated"] = buf.Bytes()
		}
		for _, f := range files {
			switch filepath.Ext(f) {
			case ".diag", ".jsonl", ".md":
				continue // expected outputs, notes
			}
			if data, err := os.ReadFile(f); err == nil { // not a folder
				inputs[f] = data
			}
		}
		for name, data := range inputs {
			for _, noPair := range []bool{false, true} {
				one := Options{Dialect: d.Name, Workers: 1, KeepGoing: true, NoPair: noPair}
				many := one
				many.Workers, many.batchBytes = 3, 1
				if got, want := run(t, many, "jsonl", data), run(t, one, "jsonl", data); got != want {
					t.Errorf("%s on %s, no pair %v: a line a batch differs from one core", d.Name, name, noPair)
				}
			}
		}
	}
}

// refOutput is the plain Output of a dialect's own lowering, outside the
// pipeline: it numbers and writes the records and prints the diagnostics.
type refOutput struct {
	w     record.Writer
	n     int64
	diags *bytes.Buffer
}

func (r *refOutput) Record(rec *record.Record) error {
	r.n++
	rec.Seq = r.n
	return r.w.Write(rec)
}

func (r *refOutput) Diag(d diag.Diagnostic, skipped int) { fmt.Fprintln(r.diags, d.String()) }

// TestPipelineMatchesLowering: the pipeline (one worker and three, small
// batches) writes what the dialect's own lowering writes when it is fed
// every line in order through a plain Output (NewLowerer outside the
// registry: lowering.Joined for a Joiner's dialect, the settling done by the
// lowering itself for a Settler's), records and diagnostics alike.
func TestPipelineMatchesLowering(t *testing.T) {
	for _, d := range List() {
		if d.Binary != nil {
			continue
		}
		var buf bytes.Buffer
		if d.Generate != nil {
			if err := Generate(d.Name, &buf, 200<<10); err != nil {
				t.Fatal(err)
			}
		} else {
			// A dialect with no generator: its testdata, one after the other.
			files, _ := filepath.Glob(filepath.Join(d.Name, "testdata", "*"))
			for _, f := range files {
				switch filepath.Ext(f) {
				case ".diag", ".jsonl", ".md":
					continue
				}
				if data, err := os.ReadFile(f); err == nil {
					buf.Write(data)
				}
			}
			if buf.Len() == 0 {
				t.Fatalf("%s: no generator and no testdata", d.Name)
			}
		}
		damaged := bytes.ReplaceAll(buf.Bytes(), []byte("\n1"), []byte("\n1 x\n\nzz"))
		for name, data := range map[string][]byte{"generated": buf.Bytes(), "damaged": damaged} {
			var ref, refDiags bytes.Buffer
			w, _ := record.NewWriter("jsonl", &ref)
			out := &refOutput{w: w, diags: &refDiags}
			low := d.NewLowerer(lowering.Config{Dialect: d.Name, Source: "in"}, out)
			_, end, err := lowering.Lines(context.Background(), bytes.NewReader(data), "in", 0,
				func(pos ast.Pos, text string) error { return low.Line(pos, text) }, nil)
			if err == nil {
				err = low.End(end)
			}
			if err != nil {
				t.Fatal(err)
			}
			w.Flush()
			for _, workers := range []int{1, 3} {
				var got, gotDiags bytes.Buffer
				pw, _ := record.NewWriter("jsonl", &got)
				opts := Options{Dialect: d.Name, Workers: workers, KeepGoing: true, batchBytes: 2048}
				Records(context.Background(), opts, []Input{{Name: "in", Reader: bytes.NewReader(data)}}, pw,
					func(dg diag.Diagnostic) { fmt.Fprintln(&gotDiags, dg.String()) })
				if got.String() != ref.String() {
					t.Errorf("%s %s, %d workers: records differ from the lowering's own", d.Name, name, workers)
				}
				if gotDiags.String() != refDiags.String() && !bytes.Contains(gotDiags.Bytes(), []byte("[INP004]")) {
					t.Errorf("%s %s, %d workers: diagnostics differ from the lowering's own:\n%s\n---\n%s", d.Name, name, workers, gotDiags.String(), refDiags.String())
				}
			}
		}
	}
}
