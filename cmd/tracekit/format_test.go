package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/golden"
	"github.com/tracekit/tracekit/binfmt/stda"
	"github.com/tracekit/tracekit/binfmt/tracefmt"
)

// TestFormat compiles a TSF of static tracepoints, writes a synthetic
// buffer holding its records and one of an unknown major, and formats it
// through the TFF found on --tff-path, as text and as JSON lines.
func TestFormat(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "f.tsf")
	os.WriteFile(src, []byte("; synthetic\nMAJOR = 0x30\n"+
		"TRACE MINOR=1, TP=@STATIC, DESC=\"open\", FMT=\"handle=%W flags=%D\"\n"+
		"TRACE MINOR=2, TP=@STATIC, DESC=\"name\", FMT=\"name=%S\"\n"), 0o644)
	if status, _, stderr := runCLI("compile", "--tff-dir", dir, src); status != exitOK {
		t.Fatalf("compile: %d %s", status, stderr)
	}
	w, err := stda.NewWriter(stda.FormatNew, 512)
	if err != nil {
		t.Fatal(err)
	}
	w.SetTraceTimes(stda.TraceTime{Year: 2026, Month: 11, Day: 21, Hour: 10}, stda.TraceTime{})
	for _, r := range []stda.Record{
		{PID: 7, Major: 0x30, Minor: 1, Time: stda.Timestamp{Len: 4, Hours: 10, Seconds: 1}, Data: []byte{0x01, 0x00, 0x2C, 0x4B, 0x00, 0x00}},
		{PID: 7, Major: 0x30, Minor: 2, Time: stda.Timestamp{Len: 4, Hours: 10, Seconds: 2}, Data: []byte("c:\\os2\\os2.ini\x00")},
		{PID: 8, Major: 0x31, Minor: 9, Time: stda.Timestamp{Len: 4, Hours: 10, Seconds: 3}, Data: []byte{1, 2, 3}},
		{PID: 8, Major: 0x30, Minor: 1, Time: stda.Timestamp{Len: 4, Hours: 10, Seconds: 4}, Data: []byte{0x01}},
	} {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	buf := filepath.Join(dir, "trace.stda")
	os.WriteFile(buf, w.Bytes(), 0o644)
	save, _ := tracefmt.Marshal(tracefmt.DateTime{Hours: 11, Day: 21, Month: 11, Year: 2026}, w.Bytes())
	sav := filepath.Join(dir, "trace.sav")
	os.WriteFile(sav, save, 0o644)

	status, text, stderr := runCLI("format", "--tff-path", dir, buf)
	if status != exitOK {
		t.Fatalf("status %d %s", status, stderr)
	}
	// The last record's data is too short for its FMT: a diagnostic on that
	// record, the others formatted.
	if !strings.Contains(stderr, "FMT003") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("stderr %q", stderr)
	}
	golden.Check(t, "testdata/format.txt", []byte(text))
	status, js, _ := runCLI("format", "--format", "jsonl", "--tff", filepath.Join(dir, "TRC0030.TFF"), sav)
	if status != exitOK || strings.Count(js, "\n") != 4 || !strings.Contains(js, `"dialect":"tracefmt"`) ||
		!strings.Contains(js, `"formatted":["open","handle=0001 flags=0000 4B2C"]`) {
		t.Errorf("status %d\n%s", status, js)
	}
	schema := golden.Schema(t, "../../docs/record.schema.json")
	for _, l := range strings.Split(strings.TrimSpace(js), "\n") {
		if err := golden.Validate(schema, []byte(l)); err != nil {
			t.Errorf("%v: %s", err, l)
		}
	}
	// Without --tff-path, TRC0030.TFF is found in the current directory.
	t.Chdir(dir)
	if status, text2, _ := runCLI("format", buf); status != exitOK || text2 != text {
		t.Errorf("format in the TFF's directory: status %d, output differs: %v", status, text2 != text)
	}
	// The same buffer through tracekit records.
	status, recs, _ := runCLI("records", buf)
	if status != exitOK || strings.Count(recs, "\n") != 4 || !strings.Contains(recs, `"dialect":"stda"`) {
		t.Errorf("records: %d\n%s", status, recs)
	}
}
