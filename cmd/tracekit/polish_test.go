package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/binfmt/tdf"
)

// TestOneErrorForOneMistake: a MINOR that is not a number in the first
// TRACE is one error, not also one for every later MINOR (TRCUST 3.05A
// reads 0x1G as a number out of range: "minor code out of range").
func TestOneErrorForOneMistake(t *testing.T) {
	src := filepath.Join(t.TempDir(), "m.tsf")
	write(t, src, "; synthetic\nMODNAME = a.dll\nMAJOR = 0x30\nTRACE MINOR=0x1G, TP=@STATIC, DESC=\"x\"\nTRACE MINOR=2, TP=@STATIC, DESC=\"y\"\nTRACE MINOR=3, TP=@STATIC, DESC=\"z\"\n")
	status, _, stderr := runCLI("check", src)
	if status != exitError || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, ":4:13: error:") || !strings.Contains(stderr, "[TRC068]") {
		t.Errorf("status %d:\n%s", status, stderr)
	}
}

// TestCheckLevelZeroSummary: -W 0 hides errors, as TRCUST /W0 does, but a
// file that fails says so in one line (and exit status 1); one that
// passes prints nothing.
func TestCheckLevelZeroSummary(t *testing.T) {
	status, _, stderr := runCLI("check", "-W", "0", "../../testdata/mistakes.tsf")
	if status != exitError || stderr != "../../testdata/mistakes.tsf: 2 errors not shown at -W 0\n" {
		t.Errorf("status %d, %q", status, stderr)
	}
	if status, _, stderr := runCLI("check", "-W", "0", "../../testdata/example.tsf"); status != exitOK || stderr != "" {
		t.Errorf("clean file: status %d, %q", status, stderr)
	}
	if status, _, stderr := runCLI("check", "-W", "0", "--diagnostics", "json", "../../testdata/mistakes.tsf"); status != exitError || stderr != "" {
		t.Errorf("json: status %d, %q (no text line among JSON ones)", status, stderr)
	}
}

// TestDumpDamagedTDF: a TDF cut short is printed as far as it was read
// (header and the whole records), then the problem with its byte offset,
// status 1; in every view. --tsf without --map says the names are made up.
func TestDumpDamagedTDF(t *testing.T) {
	f := &tdf.File{MaxDataLength: 64, Major: 0x42, ModName: "synth.dll", Tracepoints: []tdf.Tracepoint{
		{Object: 1, Offset: 0x10, Minor: 1, Major: 0x42, Opcode: 0x55, RPN: []byte{0x00, 0x21, 0x01}},
		{Object: 1, Offset: 0x40, Minor: 2, Major: 0x42, Opcode: 0x55, RPN: []byte{0x00, 0x21, 0x01}},
	}}
	data, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	whole, cut := filepath.Join(dir, "whole.TDF"), filepath.Join(dir, "cut.TDF")
	if err := os.WriteFile(whole, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cut, data[:len(data)-2], 0o644); err != nil {
		t.Fatal(err)
	}
	status, full, stderr := runCLI("dump", whole)
	if status != exitOK || stderr != "" || strings.Count(full, "tracepoint minor") != 2 {
		t.Fatalf("whole: status %d, %q\n%s", status, stderr, full)
	}
	status, part, stderr := runCLI("dump", cut)
	if status != exitError || strings.Count(part, "tracepoint minor 0x0001") != 1 || strings.Contains(part, "minor 0x0002") ||
		!strings.Contains(stderr, cut+": offset 0x") || !strings.Contains(stderr, "record 1") {
		t.Errorf("cut: status %d, %q\n%s", status, stderr, part)
	}
	for _, view := range []string{"--json", "--tsf"} {
		status, out, stderr := runCLI("dump", view, cut)
		if status != exitError || out == "" || !strings.Contains(stderr, cut+": offset 0x") {
			t.Errorf("cut %s: status %d, %q\n%s", view, status, stderr, out)
		}
	}
	if _, _, stderr := runCLI("dump", "--tsf", whole); !strings.Contains(stderr, "invented") || !strings.Contains(stderr, "--map") {
		t.Errorf("--tsf without --map: %q", stderr)
	}
	// A TFF cut short: the records read, the problems, status 1, --tsf too.
	out := t.TempDir()
	if status, _, stderr := runCLI("compile", "--out-dir", out, "../../testdata/example.tsf"); status != exitOK {
		t.Fatal(stderr)
	}
	tff, err := os.ReadFile(filepath.Join(out, "TRC00C2.TFF"))
	if err != nil {
		t.Fatal(err)
	}
	cutTFF := filepath.Join(dir, "cut.TFF")
	if err := os.WriteFile(cutTFF, tff[:len(tff)-10], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, view := range []string{"", "--json", "--tsf"} {
		args := []string{"dump", cutTFF}
		if view != "" {
			args = []string{"dump", view, cutTFF}
		}
		status, out, stderr := runCLI(args...)
		if status != exitError || out == "" || !strings.Contains(stderr, cutTFF+": offset 0x") || !strings.Contains(stderr, "records that could be read") {
			t.Errorf("cut TFF %s: status %d, %q\n%s", view, status, stderr, out)
		}
	}
}

// TestMemoryItemWithoutPrefix: a dynamic tracepoint whose FMT has fewer
// %P (or %R) than memory statements warns 213 at its first FMT; with %P,
// %R or %U (which prints the prefixes on purpose) it does not.
func TestMemoryItemWithoutPrefix(t *testing.T) {
	src := filepath.Join(t.TempDir(), "p.tsf")
	for fmtText, warn := range map[string]bool{"x = %D": true, "x = %P%D": false, "x = %R%W": false, "x = %U": false} {
		write(t, src, "; synthetic\nMODNAME = a.dll\nMAJOR = 0x30\nTRACE MINOR=1, TP=.f, DESC=\"f\",\n  FMT=\""+fmtText+"\",\n  MEM32=(FESI,DIRECT,4)\n")
		status, _, stderr := runCLI("check", src)
		if got := strings.Contains(stderr, ":5:3: warning: fewer %P controls than memory data statements") && strings.Contains(stderr, "[TRC215]"); status != exitOK || got != warn {
			t.Errorf("FMT %q: status %d, warned %v, want %v\n%s", fmtText, status, got, warn, stderr)
		}
	}
}
