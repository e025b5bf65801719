package tff

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
	"github.com/tracekit/tracekit/ast/golden"
)

// The oracle: every file IBM's TRCUST 3.05A wrote for the trcust-oracle
// cases (see its README.md).

// oracleOutput is what cases.json records of one output file.
type oracleOutput struct {
	Size   int    `json:"size"`
	Sha256 string `json:"sha256"`
}

func oracleDir(tb testing.TB) string {
	tb.Helper()
	return corpus.Path(tb, "corpus", "os2", "trcust-oracle")
}

func oracleCases(tb testing.TB) []corpus.OracleCase {
	tb.Helper()
	_, cases := corpus.Oracle(tb)
	if len(cases) < 100 {
		tb.Fatalf("cases.json lists %d cases, expected over 100", len(cases))
	}
	return cases
}

// oracleTFF is one TFF of the oracle.
type oracleTFF struct {
	Case, Name string
	Output     bool // written by TRCUST in this case (else an input of it)
	Data       []byte
}

func (o oracleTFF) String() string { return o.Case + "/" + o.Name }

// oracleTFFs returns every TFF that cases.json names, inputs and outputs,
// recognised by their magic. Outputs are checked against their sha256, and
// every *.TFF file in the case folders must be among them.
func oracleTFFs(tb testing.TB) []oracleTFF {
	tb.Helper()
	dir := oracleDir(tb)
	var out []oracleTFF
	seen := map[string]bool{}
	for _, c := range oracleCases(tb) {
		names := slices.Clone(c.Inputs)
		for n := range c.Outputs {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			path := filepath.Join(dir, c.Case, n)
			data, err := os.ReadFile(path)
			if err != nil {
				tb.Fatal(err)
			}
			raw, isOut := c.Outputs[n]
			if isOut {
				var o oracleOutput
				if err := json.Unmarshal(raw, &o); err != nil {
					tb.Fatalf("cases.json, %s/%s: %v", c.Case, n, err)
				}
				sum := sha256.Sum256(data)
				if len(data) != o.Size || hex.EncodeToString(sum[:]) != o.Sha256 {
					tb.Fatalf("%s: size or sha256 differs from cases.json", path)
				}
			}
			if !bytes.HasPrefix(data, []byte(Magic)) {
				continue
			}
			out = append(out, oracleTFF{Case: c.Case, Name: n, Output: isOut, Data: data})
			seen[path] = true
		}
	}
	globbed, err := filepath.Glob(filepath.Join(dir, "*", "*.TFF"))
	if err != nil {
		tb.Fatal(err)
	}
	for _, p := range globbed {
		if !seen[p] {
			tb.Errorf("%s is not named in cases.json", p)
		}
	}
	if len(out) < 120 {
		tb.Fatalf("found %d TFFs in the oracle, expected at least 120", len(out))
	}
	return out
}

func oracleFile(tb testing.TB, elem ...string) []byte {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(append([]string{oracleDir(tb)}, elem...)...))
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

func mustParse(tb testing.TB, data []byte) *File {
	tb.Helper()
	f, err := Parse(data)
	if err != nil {
		tb.Fatal(err)
	}
	return f
}

// TestOracleRoundTrip parses every TFF TRCUST wrote and writes it back: the
// bytes must be identical. e26d_dupallowed, the malformed file TRCUST writes
// under /D, must be rejected instead.
func TestOracleRoundTrip(t *testing.T) {
	var checked, rejected int
	for _, o := range oracleTFFs(t) {
		f, err := Parse(o.Data)
		if o.Case == "e26d_dupallowed" {
			if err == nil {
				t.Errorf("%s: Parse accepted the malformed file", o)
			}
			rejected++
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", o, err)
			continue
		}
		if got := int(le.Uint16(o.Data[6:])); len(f.Records) != got {
			t.Errorf("%s: %d records, header says %d", o, len(f.Records), got)
		}
		out, err := f.MarshalBinary()
		if err != nil {
			t.Errorf("%s: MarshalBinary: %v", o, err)
			continue
		}
		if !bytes.Equal(out, o.Data) {
			t.Errorf("%s: MarshalBinary differs from TRCUST's bytes\n got %x\nwant %x", o, out, o.Data)
		}
		lf, probs := ParseLenient(o.Data)
		if len(probs) != 0 {
			t.Errorf("%s: ParseLenient found problems: %v", o, probs)
		} else if lout, _ := lf.MarshalBinary(); !bytes.Equal(lout, o.Data) {
			t.Errorf("%s: ParseLenient gives a different file", o)
		}
		checked++
	}
	if rejected != 1 {
		t.Errorf("e26d_dupallowed seen %d times, want 1", rejected)
	}
	t.Logf("%d oracle TFFs round-trip byte for byte", checked)
}

// TestOracleE26D: TRCUST /D with a duplicate minor writes a header that
// counts 2 records, one valid entry and, as the second entry, a copy of
// header bytes 0x08-0x0F.
func TestOracleE26D(t *testing.T) {
	data := oracleFile(t, "e26d_dupallowed", "TRC0042.TFF")
	_, err := Parse(data)
	var fe *FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("Parse: got %v, want a *FormatError", err)
	}
	const want = "tff: offset 0x004A: index entry 1 (minor 0x003E): data block 0x65736552+0 lies outside the file (81 bytes); " +
		"the entry is a copy of header bytes 0x08-0x0F, as TRCUST 3.05A writes under /D for a duplicate minor"
	if fe.Error() != want {
		t.Errorf("error:\n got %s\nwant %s", fe, want)
	}
	f, probs := ParseLenient(data)
	if len(probs) != 1 || *probs[0] != *fe {
		t.Errorf("ParseLenient problems = %v, want just %v", probs, fe)
	}
	if f == nil || f.Major != 0x42 || len(f.Records) != 1 || f.Records[0].Minor != 1 ||
		string(f.Records[0].Desc) != "d" || len(f.Records[0].Fmts) != 0 {
		t.Errorf("ParseLenient salvaged %+v, want the one record minor 1 DESC \"d\"", f)
	}
}

// TestOracleMerge reproduces the combine cases from their inputs, in the
// order their tfflist.txt gives.
func TestOracleMerge(t *testing.T) {
	tests := []struct {
		dir, out string
		dups     []Duplicate
	}{
		{"c01_combine", "OUT.TFF", []Duplicate{{Minor: 5, Input: 1, Kept: 0}}},
		{"c02_combine_rev", "OUT.TFF", []Duplicate{{Minor: 5, Input: 1, Kept: 0}}},
		{"c04_combine_D", "OUT.TFF", []Duplicate{{Minor: 5, Input: 1, Kept: 0}}},
		{"c05_combine_W1", "OUT.TFF", []Duplicate{{Minor: 5, Input: 1, Kept: 0}}},
		{"c07_combine_noext", "OUT", []Duplicate{{Minor: 5, Input: 1, Kept: 0}}},
		{"c03_combine_major", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			names := strings.Fields(string(oracleFile(t, tt.dir, "tfflist.txt")))
			var files []*File
			for _, n := range names {
				files = append(files, mustParse(t, oracleFile(t, tt.dir, n)))
			}
			out, dups, err := Merge(files)
			if tt.out == "" {
				var me *MajorMismatchError
				if !errors.As(err, &me) || *me != (MajorMismatchError{Input: 1, Major: 0x31, Want: 0x30}) {
					t.Fatalf("Merge: got %v, want a major mismatch at input 1 (%s)", err, names[1])
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(dups, tt.dups) {
				t.Errorf("dups = %+v, want %+v", dups, tt.dups)
			}
			got, err := out.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if want := oracleFile(t, tt.dir, tt.out); !bytes.Equal(got, want) {
				t.Errorf("merged file differs from TRCUST's %s\n got %x\nwant %x", tt.out, got, want)
			}
		})
	}
}

// TestGolden checks the JSON view and the text listing of some oracle
// TFFs against golden files (lower/tsflist checks the TSF listing). Run with -update to rewrite them,
// and read every diff before accepting it.
func TestGolden(t *testing.T) {
	for _, c := range []struct{ dir, name string }{
		{"s01_pdguide", "TRC00DC.TFF"},
		{"s04_order", "TRC0030.TFF"},
		{"s05_fmtedge", "TRC0030.TFF"},
		{"s06_nominor", "TRC0030.TFF"},
		{"c01_combine", "OUT.TFF"},
		{"d40_multi", "TRC0042.TFF"},
	} {
		f := mustParse(t, oracleFile(t, c.dir, c.name))
		base := c.dir
		var txt bytes.Buffer
		if err := f.WriteText(&txt); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", "golden", base+".txt"), txt.Bytes())
		js, err := json.MarshalIndent(f, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", "golden", base+".json"), append(js, '\n'))
	}
}
