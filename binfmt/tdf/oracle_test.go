package tdf

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
	"github.com/tracekit/tracekit/ast/golden"
)

// The oracle: every TDF that IBM's TRCUST 3.05A wrote for the trcust-oracle
// cases (see its README.md).

// oracleOutput is what cases.json records of one output file.
type oracleOutput struct {
	Size   int    `json:"size"`
	Sha256 string `json:"sha256"`
}

// oracleTDF is one TDF the oracle wrote.
type oracleTDF struct {
	Case, Name string
	Data       []byte
}

func (o oracleTDF) String() string { return o.Case + "/" + o.Name }

// oracleTDFs returns every TDF output that cases.json names, checked
// against its sha256; every *.TDF in the case folders must be among them.
func oracleTDFs(tb testing.TB) []oracleTDF {
	tb.Helper()
	dir, cases := corpus.Oracle(tb)
	var out []oracleTDF
	seen := map[string]bool{}
	for _, c := range cases {
		var names []string
		for n := range c.Outputs {
			if strings.EqualFold(filepath.Ext(n), ".tdf") {
				names = append(names, n)
			}
		}
		slices.Sort(names)
		for _, n := range names {
			p := filepath.Join(dir, c.Case, n)
			data, err := os.ReadFile(p)
			if err != nil {
				tb.Fatal(err)
			}
			var o oracleOutput
			if err := json.Unmarshal(c.Outputs[n], &o); err != nil {
				tb.Fatalf("cases.json, %s/%s: %v", c.Case, n, err)
			}
			sum := sha256.Sum256(data)
			if len(data) != o.Size || hex.EncodeToString(sum[:]) != o.Sha256 {
				tb.Fatalf("%s: size or sha256 differs from cases.json", p)
			}
			out = append(out, oracleTDF{Case: c.Case, Name: n, Data: data})
			seen[p] = true
		}
	}
	for _, pat := range []string{"*.TDF", "*.tdf"} {
		globbed, _ := filepath.Glob(filepath.Join(dir, "*", pat))
		for _, p := range globbed {
			if !seen[p] {
				tb.Errorf("%s is not named in cases.json", p)
			}
		}
	}
	if len(out) != 94 {
		tb.Fatalf("found %d TDFs in the oracle, want 94 (78 in the first 141 cases, 16 in the x_ cases)", len(out))
	}
	return out
}

// TestOracleRoundTrip parses every oracle TDF and writes it back byte for
// byte; the disassembler reads every RPN program to its end, and every
// program passes Check.
func TestOracleRoundTrip(t *testing.T) {
	for _, o := range oracleTDFs(t) {
		f, err := Parse(o.Data)
		if err != nil {
			t.Errorf("%s: %v", o, err)
			continue
		}
		out, err := f.MarshalBinary()
		if err != nil {
			t.Errorf("%s: MarshalBinary: %v", o, err)
			continue
		}
		if !bytes.Equal(out, o.Data) {
			t.Errorf("%s: MarshalBinary differs from the oracle\n got %x\nwant %x", o, out, o.Data)
		}
		for _, tp := range f.Tracepoints {
			ops, err := Disassemble(tp.RPN)
			if err != nil {
				t.Errorf("%s minor %d: %v", o, tp.Minor, err)
				continue
			}
			if err := Check(ops); err != nil {
				t.Errorf("%s minor %d: %v", o, tp.Minor, err)
			}
		}
	}
}

// TestOracleHeaders checks the parsed fields of the oracle files that
// vary one header input at a time (README "Reading of the byte layout").
func TestOracleHeaders(t *testing.T) {
	files := map[string]*File{}
	for _, o := range oracleTDFs(t) {
		f, err := Parse(o.Data)
		if err != nil {
			t.Fatalf("%s: %v", o, err)
		}
		files[o.Case] = f
	}
	type tpWant struct {
		minor, typeMask, group uint16
		obj, off               uint32
		opcode                 uint8
		rpnLen                 int
	}
	for _, tc := range []struct {
		cas                   string
		mod                   string
		maxData, major, tdfid uint16
		types, groups         []ListItem
		tps                   []tpWant
	}{
		{"d04_nodata", "emitrep.dll", 512, 0x42, 0, nil, nil, []tpWant{{1, 0, 0, 1, 0, 0x55, 0}}},
		{"d41_typegroup", "emitrep.dll", 512, 0x42, 0,
			[]ListItem{{"PRE", 1}, {"API", 0x80}, {"POST", 0x8000}}, []ListItem{{"MEM", 2}, {"DOS", 0x2B}},
			[]tpWant{{1, 0x81, 0x2B, 1, 0, 0x55, 0}}},
		{"d42_maxdata", "emitrep.dll", 100, 0x42, 0, nil, nil, []tpWant{{1, 0, 0, 1, 0, 0x55, 0}}},
		{"d43_tdfid", "emitrep.dll", 512, 0x42, 5, nil, nil, []tpWant{{1, 0, 0, 1, 0, 0x55, 0}}},
		{"d44p_modpath_P", `.\emitrep.dll`, 512, 0x42, 0, nil, nil, []tpWant{{1, 0, 0, 1, 0, 0x55, 0}}},
		{"d45_modnoext", "emitrep.DLL", 512, 0x42, 0, nil, nil, []tpWant{{1, 0, 0, 1, 0, 0x55, 0}}},
		{"d58_datatp", "emitrep.dll", 512, 0x42, 0, nil, nil, []tpWant{{1, 0, 0, 2, 0xBF8, 0x00, 0}}},
		{"d54_retep", "emitrep.dll", 512, 0x42, 0, nil, nil, []tpWant{{1, 0, 0, 1, 0x307, 0xC9, 0}}},
		{"d79_order2", "emitrep.dll", 512, 0x42, 0, nil, nil, []tpWant{
			{9, 0, 0, 1, 0, 0x55, 0}, {1, 0, 0, 1, 0xDC0, 0x55, 0}, {5, 0, 0, 1, 0x1090, 0x55, 0}}},
		{"d85_maxdata20", "emitrep.dll", 20, 0x42, 0, nil, nil, []tpWant{{1, 0, 0, 1, 0, 0x55, 15}}},
		{"e22_longtypename", "emitrep.dll", 512, 0x42, 0, []ListItem{{"VERYLONG", 1}}, nil, []tpWant{{1, 1, 0, 1, 0, 0x55, 0}}},
		{"e28_rpn255", "emitrep.dll", 512, 0x42, 0, nil, nil, []tpWant{{1, 0, 0, 1, 0, 0x55, 252}}},
	} {
		f := files[tc.cas]
		if f == nil {
			t.Errorf("%s: no TDF", tc.cas)
			continue
		}
		if f.ModName != tc.mod || f.MaxDataLength != tc.maxData || f.Major != tc.major || f.TDFID != tc.tdfid ||
			!slices.Equal(f.Types, tc.types) || !slices.Equal(f.Groups, tc.groups) || len(f.Tracepoints) != len(tc.tps) {
			t.Errorf("%s: got %+v", tc.cas, f)
			continue
		}
		for i, w := range tc.tps {
			tp := f.Tracepoints[i]
			got := tpWant{tp.Minor, tp.TypeMask, tp.Group, tp.Object, tp.Offset, tp.Opcode, len(tp.RPN)}
			if got != w || tp.Major != f.Major {
				t.Errorf("%s record %d: got %+v, want %+v", tc.cas, i, got, w)
			}
		}
	}
}

// TestOracleGolden compares the text and JSON views of every distinct
// oracle TDF with testdata/golden/oracle.{txt,jsonl} (lower/tsflist checks
// the TSF listing).
func TestOracleGolden(t *testing.T) {
	var txt, js bytes.Buffer
	seen := map[string]string{}
	for _, o := range oracleTDFs(t) {
		if first, dup := seen[string(o.Data)]; dup {
			fmt.Fprintf(&txt, "== %s: same bytes as %s\n\n", o, first)
			continue
		}
		seen[string(o.Data)] = o.String()
		f, err := Parse(o.Data)
		if err != nil {
			t.Fatalf("%s: %v", o, err)
		}
		fmt.Fprintf(&txt, "== %s\n", o)
		if err := f.WriteText(&txt); err != nil {
			t.Fatal(err)
		}
		txt.WriteByte('\n')
		j, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		js.Write(j)
		js.WriteByte('\n')
	}
	checkGolden(t, "oracle.txt", txt.Bytes())
	checkGolden(t, "oracle.jsonl", js.Bytes())
}

// checkGolden compares got with testdata/golden/name, or rewrites it with
// -update. These files are long: on a difference it also logs the first
// line that differs.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	golden.Check(t, path, got)
	if golden.Updating() {
		return
	}
	want, err := os.ReadFile(path)
	if err != nil || bytes.Equal(got, want) {
		return
	}
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(gl), len(wl)) {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Logf("%s differs from line %d:\n got %q\nwant %q", path, i+1, g, w)
			return
		}
	}
}

// TestSchema validates the JSON view of every oracle TDF, and of a file
// with every opcode and a bad RPN byte, against the schema, and checks
// that the schema rejects documents that break it.
func TestSchema(t *testing.T) {
	s := golden.Schema(t, filepath.Join("..", "..", "docs", "tdf-dump.schema.json"))
	for _, o := range oracleTDFs(t) {
		f, err := Parse(o.Data)
		if err != nil {
			t.Fatal(err)
		}
		j, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := golden.Validate(s, j); err != nil {
			t.Errorf("%s: %v\n%s", o, err, j)
		}
	}
	every := synthFile()
	j, err := json.Marshal(every)
	if err != nil {
		t.Fatal(err)
	}
	if err := golden.Validate(s, j); err != nil {
		t.Errorf("synthetic file: %v\n%s", err, j)
	}
	for _, bad := range []string{
		`{"kind":"tff","module":"","major":1,"maxdatalength":512,"tdfid":0,"types":[],"groups":[],"tracepoints":[]}`,
		`{"kind":"tdf","module":"","major":1,"maxdatalength":512,"tdfid":0,"types":[],"groups":[]}`,
		`{"kind":"tdf","module":"","major":70000,"maxdatalength":512,"tdfid":0,"types":[],"groups":[],"tracepoints":[]}`,
		`{"kind":"tdf","module":"","major":1,"maxdatalength":512,"tdfid":0,"types":[{"name":"NINECHARS","id":1}],"groups":[],"tracepoints":[]}`,
		`{"kind":"tdf","module":"","major":1,"maxdatalength":512,"tdfid":0,"types":[],"groups":[],"tracepoints":[` +
			`{"minor":1,"major":1,"type_mask":0,"group":0,"object":1,"offset":0,"opcode":85,"rpn_hex":"00","rpn":[{"off":0,"op":"push_reg"}]}]}`,
		`{"kind":"tdf","module":"","major":1,"maxdatalength":512,"tdfid":0,"types":[],"groups":[],"tracepoints":[` +
			`{"minor":1,"major":1,"type_mask":0,"group":0,"object":1,"offset":0,"opcode":85,"rpn_hex":"16","rpn":[{"off":0,"op":"add","value":3}]}]}`,
		`{"kind":"tdf","module":"","major":1,"maxdatalength":512,"tdfid":0,"types":[],"groups":[],"tracepoints":[` +
			`{"minor":1,"major":1,"type_mask":0,"group":0,"object":1,"offset":0,"opcode":85,"rpn_hex":"0G","rpn":[]}]}`,
	} {
		if err := golden.Validate(s, []byte(bad)); err == nil {
			t.Errorf("the schema accepts %s", bad)
		}
	}
}
