package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/binfmt/tff"
)

// TestSyntheticExample runs without the shared corpus: trcust on the
// quick start's synthetic example (testdata/example.tsf) prints the banner
// and its Using and Creating lines with CRLF ends, exits 0 and writes a
// TRC00C2.TFF that reads back with the example's two records; on the
// synthetic TSF with mistakes it reports them as 3.05A does.
func TestSyntheticExample(t *testing.T) {
	src, err := os.ReadFile("../../testdata/example.tsf")
	if err != nil {
		t.Fatal(err)
	}
	bad, err := os.ReadFile("../../testdata/mistakes.tsf")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	for name, data := range map[string][]byte{"EXAMPLE.TSF": src, "MISTAKES.TSF": bad} {
		if err := os.WriteFile(filepath.Join(tmp, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(tmp)
	var stdout, stderr bytes.Buffer
	if status := run([]string{"EXAMPLE.TSF"}, &stdout, &stderr); status != 0 {
		t.Fatalf("status %d\n%s%s", status, stdout.String(), stderr.String())
	}
	out := stdout.String()
	if !strings.Contains(out, "EXAMPLE.TSF") || !strings.Contains(out, "TRC00C2.TFF") || !strings.Contains(out, "\r\n") {
		t.Errorf("console:\n%q", out)
	}
	f, err := tff.Open("TRC00C2.TFF")
	if err != nil {
		t.Fatal(err)
	}
	if f.Major != 0xC2 || len(f.Records) != 2 {
		t.Errorf("TRC00C2.TFF: major %#x, %d records", f.Major, len(f.Records))
	}

	// As TRCUST 3.05A: ERROR messages (not FATAL or SEVERE) with IBM's line
	// numbers, the records without errors written, status 0.
	stdout.Reset()
	stderr.Reset()
	if status := run([]string{"MISTAKES.TSF"}, &stdout, &stderr); status != 0 {
		t.Errorf("MISTAKES.TSF: status %d", status)
	}
	for _, want := range []string{"TRCUST(14) ERROR: duplicate minor code = 0001, ignored\r\n", "TRCUST(22) ERROR: trace record incomplete", "# records = 1"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("MISTAKES.TSF: console lacks %q:\n%s", want, stdout.String())
		}
	}
}
