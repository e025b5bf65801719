// Package recordtest helps the tests of the records and the dialects: it
// validates JSON records against docs/record.schema.json. It is meant for
// _test.go files only; golden files are ast/golden's business, and so is
// compiling the schema.
package recordtest

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/tracekit/tracekit/ast/golden"
)

// ModuleRoot returns the directory holding go.mod, seen from the working
// directory of the test.
func ModuleRoot(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("go.mod not found above the test's directory")
		}
		dir = parent
	}
}

// Validator checks records against docs/record.schema.json.
type Validator struct {
	schema *jsonschema.Schema
}

// NewValidator compiles docs/record.schema.json.
func NewValidator(tb testing.TB) *Validator {
	tb.Helper()
	return &Validator{schema: golden.Schema(tb, filepath.Join(ModuleRoot(tb), "docs", "record.schema.json"))}
}

// Check validates one JSON record and returns the validation error.
func (v *Validator) Check(line []byte) error {
	return golden.Validate(v.schema, line)
}

// JSONL validates every line of JSONL output; it fails the test for each
// invalid line and returns the number of lines.
func (v *Validator) JSONL(tb testing.TB, name string, out []byte) int {
	tb.Helper()
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 16<<20)
	n := 0
	for sc.Scan() {
		n++
		if err := v.Check(sc.Bytes()); err != nil {
			tb.Errorf("%s: record %d is not valid against record.schema.json: %v\n%s", name, n, err, sc.Bytes())
		}
	}
	return n
}
