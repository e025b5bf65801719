package tmigen

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
	"github.com/tracekit/tracekit/binfmt/tdf"
	"github.com/tracekit/tracekit/binfmt/tmi"
	"github.com/tracekit/tracekit/grammar/mapfile"
)

// observation is one .TMI record IBM's TRCUST 3.05A wrote.
type observation struct {
	line         int
	mapName      string
	obj, off     uint32
	name         string
	symOff, size uint32
}

// readObservations reads a table of testdata: "[MAP] obj:off name offset
// size" a line (hex), # comments.
func readObservations(t *testing.T, file string, withMap bool) []observation {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []observation
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		w := strings.Fields(sc.Text())
		if len(w) == 0 || strings.HasPrefix(w[0], "#") {
			continue
		}
		o := observation{line: n}
		if withMap {
			o.mapName, w = w[0], w[1:]
		}
		hex := func(s string) uint32 {
			v, err := strconv.ParseUint(s, 16, 32)
			if err != nil {
				t.Fatalf("%s:%d: %v", file, n, err)
			}
			return uint32(v)
		}
		addr := strings.SplitN(w[0], ":", 2)
		o.obj, o.off, o.name, o.symOff, o.size = hex(addr[0]), hex(addr[1]), w[1], hex(w[2]), hex(w[3])
		out = append(out, o)
	}
	return out
}

func parseMap(t *testing.T, path string) *mapfile.Map {
	t.Helper()
	m, _, err := mapfile.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func check(t *testing.T, tab *Table, where string, o observation) {
	t.Helper()
	name, off, size := tab.Lookup(o.obj, o.off)
	if name != o.name || off != o.symOff || size != o.size {
		t.Errorf("%s: %d:%X: %s %X %X, TRCUST 3.05A wrote %s %X %X", where, o.obj, o.off, name, off, size, o.name, o.symOff, o.size)
	}
}

// TestLookupEmitrep checks Lookup against what IBM's TRCUST 3.05A wrote for
// tracepoints all over the oracle's emitrep.dll (testdata/emitrep.txt).
func TestLookupEmitrep(t *testing.T) {
	tab := NewTable(parseMap(t, corpus.Path(t, "corpus", "os2", "lx", "osfree_emitrep.map")))
	obs := readObservations(t, "emitrep.txt", false)
	if len(obs) < 100 {
		t.Fatalf("%d observations", len(obs))
	}
	for _, o := range obs {
		check(t, tab, "emitrep.txt:"+strconv.Itoa(o.line), o)
	}
}

// TestLookupSynthetic checks Lookup against what IBM's TRCUST 3.05A wrote
// with MAP files made to take its lookup apart (testdata/synthetic.txt):
// segments with gaps and empty ones, symbols outside every segment,
// symbols listed by name in another order than by value, groups.
func TestLookupSynthetic(t *testing.T) {
	tabs := map[string]*Table{}
	obs := readObservations(t, "synthetic.txt", true)
	if len(obs) < 200 {
		t.Fatalf("%d observations", len(obs))
	}
	for _, o := range obs {
		tab := tabs[o.mapName]
		if tab == nil {
			tab = NewTable(parseMap(t, filepath.Join("testdata", o.mapName)))
			tabs[o.mapName] = tab
		}
		check(t, tab, "synthetic.txt:"+strconv.Itoa(o.line), o)
	}
}

// TestOrbit reads ORBIT=(a,b) out of RPN programs.
func TestOrbit(t *testing.T) {
	for _, tc := range []struct {
		rpn  []byte
		a, b uint32
		ok   bool
	}{
		{[]byte{0x1A, 7, 0, 0, 0, 0x32, 9, 0}, 7, 9, true},
		{[]byte{0x1A, 1, 0, 0, 0, 0x32, 2, 0, 0x33}, 1, 2, true},
		{[]byte{0x33}, 0, 0, false},
		{nil, 0, 0, false},
		{[]byte{0x1A, 1}, 0, 0, false}, // truncated
	} {
		a, b, ok := Orbit(tc.rpn)
		if a != tc.a || b != tc.b || ok != tc.ok {
			t.Errorf("% X: %d %d %v, want %d %d %v", tc.rpn, a, b, ok, tc.a, tc.b, tc.ok)
		}
	}
}

// TestBuild checks the file of three ORBIT tracepoints and one without, as
// TRCUST 3.05A wrote it (emitrep.dll, ORBIT=(7,9) on emit, (1,2) on malloc,
// (3,4) on errno: the records sorted by key).
func TestBuild(t *testing.T) {
	m := parseMap(t, corpus.Path(t, "corpus", "os2", "lx", "osfree_emitrep.map"))
	orbit := func(a, b byte) []byte { return []byte{0x1A, a, 0, 0, 0, 0x32, b, 0} }
	f := &tdf.File{Major: 0x42, ModName: "emitrep.dll", Tracepoints: []tdf.Tracepoint{
		{Object: 1, Offset: 0, RPN: orbit(7, 9)},
		{Object: 1, Offset: 0xDC0, RPN: orbit(1, 2)},
		{Object: 1, Offset: 0x1090},
		{Object: 2, Offset: 0xBF8, RPN: orbit(3, 4)},
	}}
	got := Build(f, m, nil, nil, false)
	want := &tmi.File{Major: 0x42, ModName: "emitrep.dll", Records: []tmi.Record{
		{Key: 0x40, Object: 1, Offset: 0xC58, Size: 0x37CA, Name: "@BSSPRTEMSG.C"},
		{Key: 0x81, Object: 2, Offset: 0xBAC, Size: 0xAC, Name: "@BSSN_EXCEPT.C"},
		{Key: 0x122, Object: 1, Offset: 0, Size: tmi.NoSize, Name: "emit"},
	}}
	if got == nil || got.Major != want.Major || got.ModName != want.ModName || len(got.Records) != len(want.Records) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	for i := range want.Records {
		if got.Records[i] != want.Records[i] {
			t.Errorf("record %d: %+v, want %+v", i, got.Records[i], want.Records[i])
		}
	}
	if Build(&tdf.File{Tracepoints: []tdf.Tracepoint{{Object: 1}}}, m, nil, nil, false) != nil {
		t.Error("a TMI without ORBIT tracepoints")
	}
}
