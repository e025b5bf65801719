package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
	"github.com/tracekit/tracekit/ast/golden"
)

// TestRecordsStrace is the acceptance check: the STRACE sample gives
// 26 records with hook, major, minor and cpu, each valid against the
// schema; the hook examples give the start-up record decoded and ts_ns for
// the lines after it.
func TestRecordsStrace(t *testing.T) {
	schema := golden.Schema(t, "../../docs/record.schema.json")
	status, stdout, stderr := runCLI("records", corpus.Path(t, "corpus", "os2", "strace", "smpadd_strace_sample.out"))
	if status != exitOK || !strings.Contains(stderr, "26 records, 0 lines skipped") {
		t.Fatalf("status %d stderr %q", status, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 26 {
		t.Fatalf("%d records", len(lines))
	}
	for _, l := range lines {
		var r struct {
			Major, Minor *int
			CPU          *int
			Attrs        map[string]any
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil || r.Major == nil || r.Minor == nil || r.CPU == nil || r.Attrs["hook"] == nil {
			t.Errorf("record %s: %v", l, err)
		}
		if err := golden.Validate(schema, []byte(l)); err != nil {
			t.Errorf("schema: %v", err)
		}
	}
	status, stdout, _ = runCLI("records", corpus.Path(t, "corpus", "os2", "strace", "smpadd_hook_examples.out"))
	if status != exitOK {
		t.Fatalf("status %d", status)
	}
	var sawStart, sawTS bool
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
		sawStart = sawStart || strings.Contains(l, `"cpus":1`) && strings.Contains(l, `"date":"1996-08-07"`) && strings.Contains(l, `"time":"21:57:07.03"`)
		sawTS = sawTS || sawStart && strings.Contains(l, `"ts_ns":`)
	}
	if !sawStart || !sawTS {
		t.Errorf("start-up record %v, ts_ns after it %v:\n%s", sawStart, sawTS, stdout)
	}
}

// TestRecordsBadInput: a malformed line is reported with its position and
// skipped, the count is reported, and the status is 1 unless --keep-going;
// --strict stops at the first.
func TestRecordsBadInput(t *testing.T) {
	in := filepath.Join(t.TempDir(), "bad.out")
	os.WriteFile(in, []byte("0102 13 29 9450:1545341324 0 fff37182 fff05c9c\nthis is not a hook\n0102 13 2b 9450:1545341598 0 fff37198 fff05c9c\n"), 0o644)
	status, stdout, stderr := runCLI("records", "--dialect", "os2strace", in)
	if status != exitError || strings.Count(stdout, "\n") != 2 || !regexp.MustCompile(regexp.QuoteMeta(in)+`:2:\d+: error: .*\[STR\d{3}\]`).MatchString(stderr) || !strings.Contains(stderr, "1 line skipped") {
		t.Errorf("status %d\n%s\n%s", status, stdout, stderr)
	}
	if status, _, _ := runCLI("records", "--keep-going", "--dialect", "os2strace", in); status != exitOK {
		t.Errorf("--keep-going: status %d", status)
	}
	if status, stdout, _ := runCLI("records", "--strict", "--dialect", "os2strace", in); status != exitError || strings.Count(stdout, "\n") > 1 {
		t.Errorf("--strict: status %d, %q", status, stdout)
	}
}

// TestRecordsOutputFile: -o writes what standard output gets, in every
// format; a strict run that stops leaves neither the file nor a temporary
// file behind.
func TestRecordsOutputFile(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.out")
	os.WriteFile(in, []byte("0102 13 29 9450:1545341324 0 fff37182 fff05c9c\nthis is not a hook\n0102 13 2b 9450:1545341598 0 fff37198 fff05c9c\n"), 0o644)
	for _, format := range []string{"jsonl", "csv", "text"} {
		out := filepath.Join(dir, "out."+format)
		_, want, _ := runCLI("records", "--keep-going", "--format", format, "--dialect", "os2strace", in)
		status, stdout, _ := runCLI("records", "--keep-going", "--format", format, "--dialect", "os2strace", "-o", out, in)
		got, err := os.ReadFile(out)
		if status != exitOK || stdout != "" || err != nil || string(got) != want || want == "" {
			t.Errorf("%s: status %d, stdout %q, file %q (%v), want %q", format, status, stdout, got, err, want)
		}
	}
	out := filepath.Join(dir, "strict.jsonl")
	if status, _, _ := runCLI("records", "--strict", "--dialect", "os2strace", "-o", out, in); status != exitError {
		t.Errorf("--strict -o: status %d", status)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "strict") || strings.HasPrefix(e.Name(), ".") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// TestRecordsWorkers: the number of workers does not change the output.
func TestRecordsWorkers(t *testing.T) {
	in := filepath.Join(t.TempDir(), "in.out")
	var sb strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&sb, "0102 13 %x 9450:%d %d fff37182 fff05c9c\n", i%0x90, 1545341324+i*7, i%4)
		if i%500 == 0 {
			sb.WriteString("not a hook\n")
		}
	}
	os.WriteFile(in, []byte(sb.String()), 0o644)
	for _, format := range []string{"jsonl", "csv", "text"} {
		_, one, e1 := runCLI("records", "--workers", "1", "--keep-going", "--format", format, in)
		_, many, e3 := runCLI("records", "--workers", "3", "--keep-going", "--format", format, in)
		if one != many || e1 != e3 || one == "" {
			t.Errorf("%s: --workers 3 output differs from --workers 1", format)
		}
	}
}
