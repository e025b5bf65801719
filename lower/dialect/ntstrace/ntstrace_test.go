package ntstrace_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/ast/golden"
	"github.com/tracekit/tracekit/lower/dialect"
	"github.com/tracekit/tracekit/lower/record"
)

// TestTestdata: the records and diagnostics of every testdata file, paired
// and with --no-pair, against goldens; the dialect is told from content.
func TestTestdata(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.nts")
	if len(files) < 2 {
		t.Fatal("no testdata")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, noPair := range []bool{false, true} {
			var out, ds bytes.Buffer
			w, _ := record.NewWriter("jsonl", &out)
			sum, err := dialect.Records(context.Background(), dialect.Options{Dialect: "ntstrace", NoPair: noPair, KeepGoing: true},
				[]dialect.Input{{Name: filepath.Base(f), Reader: bytes.NewReader(data)}}, w,
				func(d diag.Diagnostic) { ds.WriteString(d.String() + "\n") })
			if err != nil {
				t.Fatal(err)
			}
			suffix := ""
			if noPair {
				suffix = ".nopair"
			}
			golden.Check(t, f+suffix+".jsonl", out.Bytes())
			golden.Check(t, f+suffix+".diag", []byte(ds.String()+"# "+sum.String()+"\n"))
		}
	}
}

// TestToldFromWinstrace: a Windows strace line is no ntstrace line, and
// the other way round.
func TestToldFromWinstrace(t *testing.T) {
	win := []byte("> 1 100 201 NtReadFile[3](0x10, \"data\", 512)\n< 1 100 201 NtReadFile[3](0x10, \"data\", 512) == 0x0\n")
	if d, _ := dialect.Detect("x.log", win); d.Name != "winstrace" {
		t.Errorf("winstrace told as %s", d.Name)
	}
	nt, _ := os.ReadFile("testdata/calls.nts")
	if d, _ := dialect.Detect("x.log", nt); d.Name != "ntstrace" {
		t.Errorf("ntstrace told as %s", d.Name)
	}
	if strings.Contains(string(nt), "[") {
		t.Error("the testdata holds a winstrace [n]")
	}
}
