// Package dialecttest runs dialects for tests: it lowers inputs with
// dialect.Records and compares the records (JSONL, each line validated
// against docs/record.schema.json) and the diagnostics with golden files.
// It is meant for _test.go files only.
package dialecttest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/ast/golden"
	"github.com/tracekit/tracekit/lower/dialect"
	"github.com/tracekit/tracekit/lower/record"
	"github.com/tracekit/tracekit/lower/record/recordtest"
)

// Result is what one run gave.
type Result struct {
	JSONL   []byte
	Diags   diag.List
	Summary dialect.Summary
	Err     error
}

// Run lowers one input read from data under the given name.
func Run(opts dialect.Options, name string, data []byte) Result {
	var out bytes.Buffer
	var res Result
	w := record.NewJSONL(&out)
	res.Summary, res.Err = dialect.Records(context.Background(), opts, []dialect.Input{{Name: name, Reader: bytes.NewReader(data)}}, w, func(d diag.Diagnostic) {
		res.Diags.Add(d)
	})
	res.JSONL = out.Bytes()
	return res
}

// DiagText prints the diagnostics one a line and a last line of counts;
// this is the form of the .diag golden files.
func (r Result) DiagText() []byte {
	var b bytes.Buffer
	r.Diags.WriteText(&b)
	s := r.Summary
	fmt.Fprintf(&b, "# lines=%d records=%d skipped=%d warnings=%d errors=%d failed=%d\n", s.Lines, s.Records, s.Skipped, s.Warnings, s.Errors, s.Failed)
	if r.Err != nil {
		fmt.Fprintf(&b, "# error: %v\n", r.Err)
	}
	return b.Bytes()
}

// Case is one golden test: an input file and the options to read it with.
type Case struct {
	Input  string          // path of the input
	Name   string          // source name given to Records (the base name of Input when empty)
	Golden string          // path of the golden files without extension (Input's path when empty)
	Opts   dialect.Options // options of the run
}

// Golden runs the case, validates every record against the schema and
// compares <Golden>.jsonl and <Golden>.diag (go test -update rewrites them).
func Golden(t *testing.T, v *recordtest.Validator, c Case) Result {
	t.Helper()
	data, err := os.ReadFile(c.Input)
	if err != nil {
		t.Fatal(err)
	}
	name := c.Name
	if name == "" {
		name = filepath.Base(c.Input)
	}
	base := c.Golden
	if base == "" {
		base = c.Input
	}
	res := Run(c.Opts, name, data)
	v.JSONL(t, name, res.JSONL)
	golden.Check(t, base+".jsonl", res.JSONL)
	golden.Check(t, base+".diag", res.DiagText())
	return res
}

// Inputs lists the files of dir that are test inputs: all but README.md and
// the golden files (.jsonl, .diag), sorted.
func Inputs(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || n == "README.md" || strings.HasSuffix(n, ".jsonl") || strings.HasSuffix(n, ".diag") {
			continue
		}
		out = append(out, filepath.Join(dir, n))
	}
	sort.Strings(out)
	return out
}

// NonBlank counts the lines of data that the line reader passes on: those
// with more than blanks (a byte-order mark at the start does not count).
func NonBlank(data []byte) int {
	s := strings.TrimPrefix(string(data), "\xef\xbb\xbf")
	n := 0
	for _, l := range strings.Split(s, "\n") {
		if strings.Trim(l, " \t\r\f\v") != "" {
			n++
		}
	}
	return n
}

// Fuzzed holds the decoded records of a fuzzed run.
type Fuzzed struct {
	Result
	Records []map[string]any
}

// CheckRun lowers data in the named dialect and checks what must hold for
// any input: no run error, every record valid against the schema, seq
// numbers 1, 2, ..., lines within the input, and no more records and
// skipped lines than lines.
func CheckRun(t *testing.T, v *recordtest.Validator, name string, opts dialect.Options, data []byte) Fuzzed {
	t.Helper()
	opts.Dialect = name
	res := Run(opts, "fuzz", data)
	if res.Err != nil {
		t.Fatalf("run error: %v", res.Err)
	}
	f := Fuzzed{Result: res}
	lines := bytes.Count(data, []byte("\n")) + 1
	var inline int64
	for i, l := range bytes.Split(bytes.TrimSuffix(res.JSONL, []byte("\n")), []byte("\n")) {
		if len(l) == 0 {
			continue
		}
		if err := v.Check(l); err != nil {
			t.Fatalf("record %d invalid: %v\n%s", i+1, err, l)
		}
		var m map[string]any
		if err := json.Unmarshal(l, &m); err != nil {
			t.Fatal(err)
		}
		if m["seq"] != float64(i+1) {
			t.Fatalf("record %d has seq %v", i+1, m["seq"])
		}
		if ln, _ := m["line"].(float64); ln < 1 || int(ln) > lines {
			t.Fatalf("record %d has line %v of %d", i+1, m["line"], lines)
		}
		f.Records = append(f.Records, m)
		if attrs, _ := m["attrs"].(map[string]any); attrs["inline"] == true {
			inline++ // strace's message written into a call's line: a record of its own on that line
		}
	}
	nb := int64(NonBlank(data))
	if res.Summary.Skipped+res.Summary.Records-inline > nb && name != "winstrace" {
		t.Fatalf("%d records and %d skipped lines from %d lines", res.Summary.Records, res.Summary.Skipped, nb)
	}
	return f
}
