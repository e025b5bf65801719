package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
)

// files lists the names in dir.
func files(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestCompileWritesTFFAndDepfile(t *testing.T) {
	out := t.TempDir()
	dep := filepath.Join(out, "example.d")
	status, _, stderr := runCLI("compile", "--tff-dir", out, "--depfile", dep, "../../testdata/example.tsf")
	if status != exitOK || stderr != "" {
		t.Fatalf("status %d stderr %q", status, stderr)
	}
	if got := strings.Join(files(t, out), " "); got != "TRC00C2.TFF example.d" {
		t.Errorf("wrote %s", got)
	}
	rule, _ := os.ReadFile(dep)
	if want := filepath.Join(out, "TRC00C2.TFF") + " " + dep + ": ../../testdata/example.tsf\n"; string(rule) != want {
		t.Errorf("depfile %q, want %q", rule, want)
	}
	status, stdout, _ := runCLI("dump", "--json", filepath.Join(out, "TRC00C2.TFF"))
	var v struct {
		Kind    string
		Major   int
		Records []struct {
			Minor int
			Desc  string
			Fmt   []string
		}
	}
	if err := json.Unmarshal([]byte(stdout), &v); err != nil || status != exitOK {
		t.Fatalf("dump: %v %q", err, stdout)
	}
	if v.Kind != "tff" || v.Major != 0xC2 || len(v.Records) != 2 || v.Records[0].Fmt[0] != "   handle = %W  flags = %D" {
		t.Errorf("dump %+v", v)
	}
}

// TestFailedCompileWritesNothing: an error leaves no output file, not even
// a temporary one, and exit status 1.
func TestFailedCompileWritesNothing(t *testing.T) {
	out := t.TempDir()
	src := filepath.Join(out, "bad.tsf")
	os.WriteFile(src, []byte("MAJOR = 0x30\nTRACE MINOR=1, TP=@STATIC, DESC=\"ok\"\nTRACE MINOR=1, TP=@STATIC, DESC=\"dup\"\n"), 0o644)
	status, _, stderr := runCLI("compile", "--tff-dir", out, "--depfile", filepath.Join(out, "bad.d"), src)
	if status != exitError || !strings.Contains(stderr, "[TRC094]") {
		t.Fatalf("status %d stderr %q", status, stderr)
	}
	if got := files(t, out); len(got) != 1 {
		t.Errorf("left behind %v", got)
	}
	// A TFF directory that does not exist: the write fails (exit status 3,
	// the message names the directory, not a temporary file), nothing is left.
	status, _, stderr = runCLI("compile", "--tff-dir", filepath.Join(out, "missing"), "../../testdata/example.tsf")
	if status != exitOutput || !strings.Contains(stderr, "missing") || strings.Contains(stderr, ".tmp") {
		t.Errorf("status %d, %q for an unwritable directory", status, stderr)
	}
	if got := files(t, out); len(got) != 1 {
		t.Errorf("left behind %v", got)
	}
}

// TestDumpTSFRoundTrip: for every oracle TFF, dump --tsf then compile gives
// back the identical bytes. e26d's TFF is the malformed file TRCUST 3.05A
// wrote under /D; dump reports what is wrong with it.
func TestDumpTSFRoundTrip(t *testing.T) {
	dir := corpus.Path(t, "corpus", "os2", "trcust-oracle")
	tffs, _ := filepath.Glob(filepath.Join(dir, "*", "*.TFF"))
	if len(tffs) < 100 {
		t.Fatalf("only %d TFFs", len(tffs))
	}
	for _, name := range tffs {
		rel, _ := filepath.Rel(dir, name)
		t.Run(rel, func(t *testing.T) {
			if strings.HasPrefix(rel, "e26d_") {
				status, _, stderr := runCLI("dump", "--tsf", name)
				if status != exitError || !strings.Contains(stderr, "copy of header bytes") {
					t.Errorf("status %d stderr %q", status, stderr)
				}
				return
			}
			status, listing, stderr := runCLI("dump", "--tsf", name)
			if status != exitOK {
				t.Fatalf("dump: status %d %s", status, stderr)
			}
			tmp := t.TempDir()
			src := filepath.Join(tmp, "y.tsf")
			os.WriteFile(src, []byte(listing), 0o644)
			status, _, stderr = runCLI("compile", "--tff-dir", tmp, src)
			if status != exitOK {
				t.Fatalf("compile: status %d %s", status, stderr)
			}
			want, _ := os.ReadFile(name)
			var got []byte
			for _, f := range files(t, tmp) {
				if strings.HasSuffix(f, ".TFF") {
					got, _ = os.ReadFile(filepath.Join(tmp, f))
				}
			}
			if !bytes.Equal(got, want) {
				t.Errorf("round trip differs")
			}
		})
	}
}

// TestCombineOracle reproduces the oracle's combine outputs.
func TestCombineOracle(t *testing.T) {
	dir := corpus.Path(t, "corpus", "os2", "trcust-oracle")
	for _, tc := range []struct {
		name    string
		inputs  []string
		status  int
		stderr  string
		outFile string
	}{
		{"c01_combine", []string{"A.TFF", "B.TFF"}, exitOK, "duplicate minor code = 0005 in file", "OUT.TFF"},
		{"c02_combine_rev", []string{"B.TFF", "A.TFF"}, exitOK, "duplicate minor code = 0005 in file", "OUT.TFF"},
		{"c03_combine_major", []string{"A.TFF", "C.TFF"}, exitError, "fatal: all TFFs not have same major code", ""},
	} {
		out := filepath.Join(t.TempDir(), "OUT.TFF")
		var args []string
		for _, in := range tc.inputs {
			args = append(args, filepath.Join(dir, tc.name, in))
		}
		status, _, stderr := runCLI(append([]string{"combine", "-o", out}, args...)...)
		if status != tc.status || !strings.Contains(stderr, tc.stderr) {
			t.Errorf("%s: status %d stderr %q", tc.name, status, stderr)
		}
		if tc.outFile == "" {
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s: wrote an output", tc.name)
			}
			continue
		}
		got, _ := os.ReadFile(out)
		want, _ := os.ReadFile(filepath.Join(dir, tc.name, tc.outFile))
		if !bytes.Equal(got, want) {
			t.Errorf("%s: output differs", tc.name)
		}
	}
}
