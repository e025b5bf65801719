// Package golden compares what a test produced with a golden file under
// testdata, in the manner of the Go tree's own tests: "go test -update"
// rewrites the golden files instead, and every rewritten file must be read
// before it is committed.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// update is the -update flag of every test binary that imports golden.
var update = flag.Bool("update", false, "rewrite the golden files under testdata instead of comparing with them")

// Updating reports whether -update was given.
func Updating() bool { return *update }

// Check compares got with the file at path, or writes got there with
// -update.
func Check(tb testing.TB, path string, got []byte) {
	tb.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			tb.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("%v (go test -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		tb.Errorf("%s differs from the output (go test -update rewrites it):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// Schema compiles the JSON Schema in the file at path, for tests that
// validate JSON output against the schemas documented in docs/.
func Schema(tb testing.TB, path string) *jsonschema.Schema {
	tb.Helper()
	fh, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer fh.Close()
	doc, err := jsonschema.UnmarshalJSON(fh)
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	abs, _ := filepath.Abs(path)
	url := "file://" + filepath.ToSlash(abs)
	c := jsonschema.NewCompiler()
	if err := c.AddResource(url, doc); err != nil {
		tb.Fatal(err)
	}
	s, err := c.Compile(url)
	if err != nil {
		tb.Fatalf("compiling %s: %v", path, err)
	}
	return s
}

// Validate checks one JSON document against a schema.
func Validate(s *jsonschema.Schema, data []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return s.Validate(inst)
}
