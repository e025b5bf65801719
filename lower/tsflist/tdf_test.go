package tsflist

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
	"github.com/tracekit/tracekit/ast/golden"
	"github.com/tracekit/tracekit/ast/tsf"
	"github.com/tracekit/tracekit/binfmt/tdf"
	"github.com/tracekit/tracekit/grammar/tsfparse"
)

// oracleFiles returns the oracle's output files whose extension is ext, in
// case order and by name, each with its case/name label; identical files
// after the first are left out.
func oracleFiles(tb testing.TB, ext string) (labels []string, data [][]byte) {
	tb.Helper()
	dir, cases := corpus.Oracle(tb)
	seen := map[string]bool{}
	for _, c := range cases {
		var names []string
		for n := range c.Outputs {
			if strings.EqualFold(filepath.Ext(n), ext) {
				names = append(names, n)
			}
		}
		slices.Sort(names)
		for _, n := range names {
			b, err := os.ReadFile(filepath.Join(dir, c.Case, n))
			if err != nil {
				tb.Fatal(err)
			}
			if seen[string(b)] {
				continue
			}
			seen[string(b)] = true
			labels = append(labels, c.Case+"/"+n)
			data = append(data, b)
		}
	}
	return labels, data
}

// TestOracleTDFGolden lists every distinct oracle TDF without a MAP file
// (placeholder symbols) and compares with testdata/tdf_oracle.tsf; each
// listing also parses back with no syntax error. (lower/tdfgen's
// TestListingRoundTrip compiles the listings with the MAP file names and
// compares the bytes.)
func TestOracleTDFGolden(t *testing.T) {
	labels, files := oracleFiles(t, ".tdf")
	var out bytes.Buffer
	for i, data := range files {
		f, err := tdf.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", labels[i], err)
		}
		l, err := TDF(f, nil)
		var one bytes.Buffer
		if err := Write(&one, l, err); err != nil {
			t.Fatalf("%s: %v", labels[i], err)
		}
		if _, diags := tsfparse.Parse(labels[i], one.Bytes()); len(diags) > 0 {
			t.Errorf("%s: the listing does not parse: %v\n%s", labels[i], diags, one.String())
		}
		fmt.Fprintf(&out, ";; == %s\n", labels[i])
		out.Write(one.Bytes())
		out.WriteByte('\n')
	}
	golden.Check(t, filepath.Join("testdata", "tdf_oracle.tsf"), out.Bytes())
}

// TestTDFNotes checks the comments of a listing for what TSF cannot say:
// type bits and a group without a name, MINOR 0, a minor used twice, a
// MAXDATALENGTH TRCUST would not take, a program read only in part.
func TestTDFNotes(t *testing.T) {
	f := &tdf.File{ModName: "m.dll", Major: 0x42, MaxDataLength: 10,
		Types:  []tdf.ListItem{{Name: "PRE", ID: 1}},
		Groups: []tdf.ListItem{{Name: "G", ID: 2}},
		Tracepoints: []tdf.Tracepoint{
			{Minor: 0, Major: 0x42, Object: 1, Offset: 4, Opcode: 0x55, TypeMask: 3, Group: 9, RPN: unhex(t, "00 21 01 16")},
			{Minor: 0, Major: 0x43, Object: 1, Offset: 8, Opcode: 0x55, TypeMask: 1, Group: 2},
		}}
	l, err := TDF(f, nil)
	var b bytes.Buffer
	if err := Write(&b, l, err); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"; MAXDATALENGTH 10 is outside 20-4099: TRCUST would use 512\nMAXDATALENGTH = 10\n",
		"TYPELIST NAME=PRE,ID=0x0001\nGROUPLIST NAME=G,ID=0x0002\n",
		"\n; TP=00000001:00000004 (object:offset), original opcode 0x55\n; MINOR 0 is out of range for TRCUST\n; minor 0x0000 is used by 2 tracepoints: TRCUST accepts that only with /D\n",
		"; type mask bits 0x0002 have no TYPELIST name\n; group 0x0009 has no GROUPLIST name\n",
		"; RPN bytes from +3 not reconstructed (tdf: offset 0x0003: no TSF statement assembles to this at add): 16\n",
		"TRACE MINOR=0x0000,\n  TP=.obj1_00000004,\n  OPCODE=0x55,\n  TYPE=(PRE),\n  REGS=(EAX)\n",
		"; the record has major 0x0043, the file 0x0042\nTRACE MINOR=0x0000,\n  TP=.obj1_00000008,\n  TYPE=(PRE),\n  GROUP=G,\n  OPCODE=0x55\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("listing lacks %q:\n%s", want, b.String())
		}
	}
}

// FuzzTDF: any file Parse accepts lists without an error or a panic, and
// the listing parses as TSF.
func FuzzTDF(f *testing.F) {
	_, files := oracleFiles(f, ".tdf")
	for _, data := range files[:min(len(files), 8)] {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := tdf.Parse(data)
		if err != nil {
			return
		}
		l, err := TDF(file, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := tsf.Fprint(io.Discard, l); err != nil && !strings.Contains(err.Error(), "line end") {
			t.Fatal(err)
		}
	})
}
