package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
	"github.com/tracekit/tracekit/ast/golden"
)

// runCLI runs the command line in process.
func runCLI(args ...string) (status int, stdout, stderr string) {
	var out, errb bytes.Buffer
	status = run(args, strings.NewReader(""), &out, &errb)
	return status, out.String(), errb.String()
}

// TestCheckDoneWhen is the acceptance check: the reference's 32-bit
// sample has a flat register address in a MEM statement, and check exits 1.
// The second minor 0xD3 is no duplicate: the first 0xD3 is that refused
// tracepoint, and TRCUST 3.05A keeps the second (IBM's behaviour, issue 21).
func TestCheckDoneWhen(t *testing.T) {
	name := corpus.Path(t, "corpus", "os2", "tsf", "sg244640_32bit.tsf")
	status, _, stderr := runCLI("check", name)
	if status != exitError {
		t.Errorf("status %d, want 1", status)
	}
	want := ":85:20: error: invalid address specified: use segmented Regs with MEM/ASCIIZ (FEAX is a flat register address"
	if !strings.Contains(stderr, want) {
		t.Errorf("missing %q in:\n%s", want, stderr)
	}
	if strings.Contains(stderr, "TRC094") {
		t.Errorf("a duplicate minor reported:\n%s", stderr)
	}
}

func TestCheckStatus(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		status int
		stderr string
	}{
		{[]string{"check", "testdata/clean.tsf"}, exitOK, ""},
		{[]string{"check", "testdata/warn.tsf"}, exitOK, "testdata/warn.tsf:4:17: warning: MAXDATALENGTH out of range, 512 used (the range is 20 to 4099) [TRC129]\n"},
		{[]string{"check", "-W", "1", "testdata/warn.tsf"}, exitOK, ""},
		{[]string{"check", "testdata/clean.tsf", "testdata/missing.tsf"}, exitError, "testdata/missing.tsf: fatal: open testdata/missing.tsf: no such file or directory\n"},
		{[]string{"check"}, exitUsage, "tracekit: expected \"<file> ...\"\n"},
		{[]string{"check", "-W", "3", "testdata/clean.tsf"}, exitUsage, "tracekit: --level must be one of \"0\",\"1\",\"2\" but got \"3\"\n"},
		{[]string{"nosuch"}, exitUsage, "tracekit: unexpected argument nosuch\n"},
	} {
		status, _, stderr := runCLI(tc.args...)
		if status != tc.status || !strings.HasSuffix(stderr, tc.stderr) || tc.stderr == "" && stderr != "" {
			t.Errorf("%v: status %d stderr %q; want %d %q", tc.args, status, stderr, tc.status, tc.stderr)
		}
	}
}

func TestCheckJSON(t *testing.T) {
	status, _, stderr := runCLI("check", "--diagnostics=json", "testdata/warn.tsf")
	if status != exitOK {
		t.Fatalf("status %d", status)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(stderr), &got); err != nil {
		t.Fatalf("%v: %q", err, stderr)
	}
	want := map[string]any{"file": "testdata/warn.tsf", "line": 4.0, "col": 17.0, "severity": "warning",
		"code": "TRC129", "message": "MAXDATALENGTH out of range, 512 used (the range is 20 to 4099)"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
}

// TestASTGolden dumps the reference's format sample: every TRACE with its
// FMT strings and its address expressions as structured nodes.
func TestASTGolden(t *testing.T) {
	name := corpus.Path(t, "corpus", "os2", "tsf", "sg244640_tsfformat_sample.tsf")
	status, stdout, stderr := runCLI("ast", name)
	if status != exitOK || stderr != "" {
		t.Fatalf("status %d stderr %q", status, stderr)
	}
	for _, want := range []string{"&tsf.SymbolAddr{", "&tsf.Fmt{", "&tsf.LineTP{", "RetEP:"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("dump lacks %s", want)
		}
	}
	// The file name is where the corpus lies on this machine.
	golden.Check(t, "testdata/tsfformat_sample.ast", []byte(strings.ReplaceAll(stdout, name, "sg244640_tsfformat_sample.tsf")))
}
