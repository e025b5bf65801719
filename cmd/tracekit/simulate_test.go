package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
)

// TestSimulateRoundTrip runs the command line end to end: compile the FMT
// controls TSF of lower/simulate against the emitrep DLL, simulate its
// hits, format the buffer, and find the printed form the reference gives
// for each control (TRCUST reference 1.3.5.7).
func TestSimulateRoundTrip(t *testing.T) {
	lx := corpus.Path(t, "corpus", "os2", "lx")
	work := t.TempDir()
	copyTo := func(from, to string) {
		data, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(work, to), data, 0o644)
	}
	copyTo(filepath.Join(lx, "osfree_emitrep.dll"), "emitrep.dll")
	copyTo(filepath.Join(lx, "osfree_emitrep.map"), "emitrep.map")
	copyTo("../../lower/simulate/testdata/fmtcontrols.tsf", "f.tsf")
	tsf := filepath.Join(work, "f.tsf")
	if status, _, stderr := runCLI("compile", "--tff-dir", work, tsf); status != exitOK {
		t.Fatalf("compile: %d %s", status, stderr)
	}
	buf := filepath.Join(work, "trace.sav")
	status, _, stderr := runCLI("simulate", "--tdf", filepath.Join(work, "f.TDF"),
		"--state", "../../lower/simulate/testdata/fmtcontrols.state.json", "--format", "save", "-o", buf)
	if status != exitOK {
		t.Fatalf("simulate: %d %s", status, stderr)
	}
	status, text, stderr := runCLI("format", "--tff-path", work, buf)
	if status != exitOK {
		t.Fatalf("format: %d %s", status, stderr)
	}
	for _, want := range []string{
		"ignore ten bytes here", "memory byte = C2", "register word = 0001", "memory word = 0001",
		"double word EAX = 0000 4B2C", "double memory word = 0000 4B2C", "flat address EAX = 00004B2C",
		"quad word from regs EAX and EBX = 00004B2C 00000001", "segmented address in SS:SP = 00B7:0001",
		"segmented address in memory = 00B7:0001", "log a variable number of words from memory = 0001 0004",
		`string = c:\os2\os2.ini`, "garbage = 00 00 00 03 c2 c1 c4 ff 04 00 09 c0 18",
		"major code = 00C2", "minor code = 0081",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("formatted buffer lacks %q", want)
		}
	}
	if t.Failed() {
		t.Log(text)
	}
}
