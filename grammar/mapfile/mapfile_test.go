package mapfile

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/corpus"
	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/ast/golden"
)

// realMaps are the LINK maps of the shared corpus, as corpus path elements.
var realMaps = [][]string{
	{"corpus", "os2", "lx", "osfree_emitrep.map"},
	{"corpus", "os2", "maps", "devcon12_DRAGFOLD.MAP"},
	{"corpus", "os2", "maps", "devcon12_GVIOSPY.MAP"},
	{"corpus", "os2", "maps", "devcon12_HELLO.MAP"},
	{"corpus", "os2", "maps", "devcon12_MOUSEDLL.MAP"},
	{"corpus", "os2", "maps", "devcon12_TUTORIAL.MAP"},
	{"corpus", "os2", "maps", "devcon12_VDFT.MAP"},
}

// pos prints a position as line:col (the file is the golden's subject).
func pos(p ast.Pos) string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// dump writes every parsed item of m, one per line, with its position.
func dump(m *Map, ds diag.List) string {
	var b strings.Builder
	fmt.Fprintf(&b, "flavor %s\n", m.Flavor)
	fmt.Fprintf(&b, "module %q at %s\n", m.Module, pos(m.ModulePos))
	if m.Image != "" || m.Target != "" {
		fmt.Fprintf(&b, "image %q target %q\n", m.Image, m.Target)
	}
	fmt.Fprintf(&b, "segments %d\n", len(m.Segments))
	for _, s := range m.Segments {
		fmt.Fprintf(&b, "  %s %s len=%08X name=%q class=%q group=%q bits=%q\n", pos(s.Pos), s.Start, s.Length, s.Name, s.Class, s.Group, s.Bits)
	}
	fmt.Fprintf(&b, "groups %d\n", len(m.Groups))
	for _, g := range m.Groups {
		fmt.Fprintf(&b, "  %s %s %q size=%08X\n", pos(g.Pos), g.Origin, g.Name, g.Size)
	}
	fmt.Fprintf(&b, "exports %d\n", len(m.Exports))
	for _, x := range m.Exports {
		fmt.Fprintf(&b, "  %s %s %q alias=%q\n", pos(x.Pos), x.Addr, x.Name, x.Alias)
	}
	pubs := func(title string, list []Public) {
		fmt.Fprintf(&b, "%s %d\n", title, len(list))
		for _, p := range list {
			fmt.Fprintf(&b, "  %s %s %q", pos(p.Pos), p.Addr, p.Name)
			if p.Imp {
				fmt.Fprintf(&b, " Imp")
			}
			if p.Abs {
				fmt.Fprintf(&b, " Abs")
			}
			if p.Import != nil {
				fmt.Fprintf(&b, " from %s.%s", p.Import.Module, p.Import.Entry)
			}
			if p.Ref != 0 {
				fmt.Fprintf(&b, " ref=%c", p.Ref)
			}
			if p.Module != "" {
				fmt.Fprintf(&b, " module=%q", p.Module)
			}
			b.WriteString("\n")
		}
	}
	pubs("publics-by-name", m.PublicsByName)
	pubs("publics-by-value", m.PublicsByValue)
	pubs("memory-map", m.MemoryMap)
	fmt.Fprintf(&b, "imports %d\n", len(m.Imports))
	for _, i := range m.Imports {
		fmt.Fprintf(&b, "  %s %q module=%q entry=%q ordinal=%d\n", pos(i.Pos), i.Name, i.Module, i.Entry, i.Ordinal)
	}
	if len(m.Libraries) > 0 {
		fmt.Fprintf(&b, "libraries %q\n", m.Libraries)
	}
	if m.Entry != nil {
		fmt.Fprintf(&b, "entry %s at %s\n", m.Entry.Addr, pos(m.Entry.Pos))
	} else {
		fmt.Fprintf(&b, "entry none\n")
	}
	fmt.Fprintf(&b, "diagnostics %d\n", len(ds))
	for _, d := range ds {
		fmt.Fprintf(&b, "  %s %s %s %s\n", pos(d.Pos), d.Severity, d.Code, d.Msg)
	}
	return b.String()
}

func parseCorpus(t *testing.T, elem []string) (*Map, diag.List, []byte) {
	t.Helper()
	path := corpus.Path(t, elem...)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, ds, err := Parse(filepath.Base(path), src)
	if err != nil {
		t.Fatal(err)
	}
	return m, ds, src
}

// TestRealMapsGolden parses every real map of the corpus without a single
// diagnostic and compares a full dump with its golden file.
func TestRealMapsGolden(t *testing.T) {
	for _, elem := range realMaps {
		name := elem[len(elem)-1]
		t.Run(name, func(t *testing.T) {
			m, ds, _ := parseCorpus(t, elem)
			if len(ds) != 0 {
				t.Errorf("real map gave diagnostics:\n%v", ds)
			}
			golden.Check(t, filepath.Join("testdata", name+".golden"), []byte(dump(m, ds)))
		})
	}
}

// TestSyntheticGolden covers the wlink flavour and the diagnostics, with
// the synthetic maps of testdata/.
func TestSyntheticGolden(t *testing.T) {
	for _, name := range []string{"synthetic_wlink.map", "synthetic_bad_link386.map"} {
		t.Run(name, func(t *testing.T) {
			m, ds, err := ParseFile(filepath.Join("testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", name+".golden"), []byte(dump(m, ds)))
		})
	}
}

func TestFlavor(t *testing.T) {
	want := map[string]Flavor{
		"osfree_emitrep.map":    FlavorLINK386,
		"devcon12_DRAGFOLD.MAP": FlavorLINK386,
		"devcon12_GVIOSPY.MAP":  FlavorLINK16,
		"devcon12_HELLO.MAP":    FlavorLINK386,
		"devcon12_MOUSEDLL.MAP": FlavorLINK386,
		"devcon12_TUTORIAL.MAP": FlavorLINK386,
		"devcon12_VDFT.MAP":     FlavorLINK386,
	}
	for _, elem := range realMaps {
		m, _, _ := parseCorpus(t, elem)
		if w := want[elem[len(elem)-1]]; m.Flavor != w {
			t.Errorf("%s: flavor %s, want %s", elem[len(elem)-1], m.Flavor, w)
		}
	}
	m, _, err := ParseFile("testdata/synthetic_wlink.map")
	if err != nil || m.Flavor != FlavorWatcom {
		t.Errorf("synthetic wlink map: flavor %v, err %v", m, err)
	}
}

// TestLookup resolves symbols the way TRCUST does for TP=.name. The
// emitrep values are facts of the TRCUST oracle (.malloc is object 1 offset
// 0xDC0, .errno is in object 2); the others are read off the maps.
func TestLookup(t *testing.T) {
	emitrep, _, _ := parseCorpus(t, realMaps[0])
	mouse, _, _ := parseCorpus(t, []string{"corpus", "os2", "maps", "devcon12_MOUSEDLL.MAP"})
	gvio, _, _ := parseCorpus(t, []string{"corpus", "os2", "maps", "devcon12_GVIOSPY.MAP"})
	vdft, _, _ := parseCorpus(t, []string{"corpus", "os2", "maps", "devcon12_VDFT.MAP"})
	wlink, _, err := ParseFile("testdata/synthetic_wlink.map")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		m      *Map
		name   string
		ci     bool
		ok     bool
		seg    uint16
		off    uint32
		kind   SymbolKind
		imp    bool
		spelt  string // the name as found, when it differs
		atLine int
	}{
		{m: emitrep, name: "malloc", ok: true, seg: 1, off: 0xDC0, kind: KindPublic, atLine: 58},
		{m: emitrep, name: "emit", ok: true, seg: 1, off: 0, kind: KindPublic, atLine: 51},
		{m: emitrep, name: "errno", ok: true, seg: 2, off: 0xBF8, kind: KindPublic, atLine: 52},
		{m: emitrep, name: "free", ok: true, seg: 1, off: 0x1090, kind: KindPublic, atLine: 56},
		{m: emitrep, name: "EMIT", ci: true, ok: true, seg: 1, off: 0, kind: KindPublic, spelt: "emit", atLine: 51},
		{m: emitrep, name: "EMIT", ci: false, ok: false},
		{m: emitrep, name: "nosuch", ci: true, ok: false},
		// Both spellings are publics at the same address: exact case wins;
		// without one, the first in file order.
		{m: emitrep, name: "DOSGETMESSAGE", ci: true, ok: true, seg: 1, off: 0x4422, kind: KindPublic, atLine: 43},
		{m: emitrep, name: "DosGetMessage", ci: true, ok: true, seg: 1, off: 0x4422, kind: KindPublic, atLine: 42},
		{m: emitrep, name: "dosgetmessage", ci: true, ok: true, seg: 1, off: 0x4422, kind: KindPublic, spelt: "DosGetMessage", atLine: 42},
		{m: emitrep, name: "DosWrite", ok: true, seg: 0, off: 0, kind: KindPublic, imp: true, atLine: 50},
		// MOUSEDLL has no publics: only the export table names symbols.
		{m: mouse, name: "KeyPlayHookProc", ok: true, seg: 1, off: 0x120, kind: KindExport, atLine: 22},
		{m: mouse, name: "thmq", ci: true, ok: true, seg: 3, off: 4, kind: KindExport, spelt: "Thmq", atLine: 27},
		// GVIOSPY: the export VIOSERVICE stands for the public _VIOSERVICE.
		{m: gvio, name: "_VIOSERVICE", ok: true, seg: 1, off: 0, kind: KindPublic, atLine: 37},
		{m: gvio, name: "VIOSERVICE", ok: true, seg: 1, off: 0, kind: KindExport, atLine: 19},
		{m: gvio, name: "_ReadScreen", ok: true, seg: 1, off: 0x28, kind: KindPublic, atLine: 36},
		// VDFT has publics by value only.
		{m: vdft, name: "OS2PostMessage", ok: true, seg: 2, off: 0x1B0, kind: KindPublic, atLine: 36},
		{m: wlink, name: "tp_helper_", ok: true, seg: 1, off: 0xA0, kind: KindPublic, atLine: 55},
		{m: wlink, name: "tpwork", ci: true, ok: true, seg: 1, off: 0x50, kind: KindPublic, spelt: "TpWork", atLine: 54},
	}
	for _, tt := range tests {
		s, ok := tt.m.Lookup(tt.name, tt.ci)
		label := fmt.Sprintf("%s: Lookup(%q, %v)", tt.m.Module, tt.name, tt.ci)
		if ok != tt.ok {
			t.Errorf("%s found=%v, want %v", label, ok, tt.ok)
			continue
		}
		if !ok {
			continue
		}
		spelt := tt.spelt
		if spelt == "" {
			spelt = tt.name
		}
		if s.Seg != tt.seg || s.Off != tt.off || s.Kind != tt.kind || s.Imported != tt.imp || s.Name != spelt || s.Pos.Line != tt.atLine {
			t.Errorf("%s = %s %04X:%08X imp=%v %q line %d; want %s %04X:%08X imp=%v %q line %d", label,
				s.Kind, s.Seg, s.Off, s.Imported, s.Name, s.Pos.Line, tt.kind, tt.seg, tt.off, tt.imp, spelt, tt.atLine)
		}
	}
}

// TestPublicsConsistent checks two properties of real LINK maps: the
// "by name" and "by value" tables hold the same symbols, and "by value" is
// sorted by address after the imports.
func TestPublicsConsistent(t *testing.T) {
	key := func(p Public) string { return fmt.Sprintf("%s %s %v", p.Addr, p.Name, p.Imp) }
	for _, elem := range realMaps {
		m, _, _ := parseCorpus(t, elem)
		name := elem[len(elem)-1]
		if len(m.PublicsByName) > 0 && len(m.PublicsByValue) > 0 {
			var a, b []string
			for _, p := range m.PublicsByName {
				a = append(a, key(p))
			}
			for _, p := range m.PublicsByValue {
				b = append(b, key(p))
			}
			slices.Sort(a)
			slices.Sort(b)
			if !slices.Equal(a, b) {
				t.Errorf("%s: publics by name and by value differ", name)
			}
		}
		var last Addr
		for i, p := range m.PublicsByValue {
			if p.Imp {
				continue
			}
			if i > 0 && (p.Addr.Seg < last.Seg || p.Addr.Seg == last.Seg && p.Addr.Off < last.Off) {
				t.Errorf("%s: publics by value out of order at line %d", name, p.Pos.Line)
			}
			last = p.Addr
		}
		for _, imp := range m.Imports {
			if imp.Module == "" || imp.Entry == "" {
				t.Errorf("%s: import %q without module or entry", name, imp.Name)
			}
		}
	}
}

// TestPositions checks that every position points at the text it names.
func TestPositions(t *testing.T) {
	for _, elem := range realMaps[:3] {
		m, _, src := parseCorpus(t, elem)
		check := func(p ast.Pos, text string) {
			t.Helper()
			if p.Offset < 0 || p.Offset+len(text) > len(src) || string(src[p.Offset:p.Offset+len(text)]) != text {
				t.Errorf("%s: position %s (offset %d) does not point at %q", elem[len(elem)-1], p, p.Offset, text)
			}
		}
		check(m.ModulePos, m.Module)
		for _, s := range m.Segments {
			check(s.Pos, fmt.Sprintf("%04X:", s.Start.Seg))
		}
		for _, p := range m.PublicsByName {
			check(p.Pos, fmt.Sprintf("%04X:", p.Addr.Seg))
		}
		if m.Entry != nil {
			check(m.Entry.Pos, "Program entry point")
		}
	}
}

// TestLineEndings parses the emitrep map with CRLF line ends and with form
// feeds before the titles: the result is the same as with LF.
func TestLineEndings(t *testing.T) {
	m, _, src := parseCorpus(t, realMaps[0])
	want := dump(m, nil)
	crlf := bytes.ReplaceAll(src, []byte("\n"), []byte("\r\n"))
	m2, ds, err := Parse("crlf.map", crlf)
	if err != nil || len(ds) != 0 {
		t.Fatalf("CRLF: err %v, diagnostics %v", err, ds)
	}
	if got := dump(m2, nil); got != want {
		t.Errorf("CRLF parse differs:\n%s", got)
	}
	ff := bytes.ReplaceAll(src, []byte("\n  Address"), []byte("\n\f  Address"))
	m3, ds, err := Parse("ff.map", ff)
	if err != nil || len(ds) != 0 {
		t.Fatalf("form feed: err %v, diagnostics %v", err, ds)
	}
	if got := dump(m3, nil); got != want {
		t.Errorf("form-feed parse differs:\n%s", got)
	}
}

// TestDiagnostics checks single malformed lines in an otherwise good map:
// the code, the line:col and that the rest of the map is still read.
func TestDiagnostics(t *testing.T) {
	const head = "\n mod\n\n Start         Length     Name                   Class\n 0001:00000000 000000100H CODE32                 CODE 32-bit\n"
	tests := []struct {
		name, text string
		code       diag.Code
		sev        diag.Severity
		line, col  int
	}{
		{"segment fields", head + " 0001:00000100 000000010H\n", "MAP01", diag.Error, 6, 2},
		{"segment length", head + " 0001:00000100 0000000Z0H A B\n", "MAP01", diag.Error, 6, 16},
		{"segment range", head + " 0001:00000100 1FFFFFFFFH A B\n", "MAP09", diag.Error, 6, 16},
		{"segment number", head + " 10001:00000100 000000010H A B\n", "MAP09", diag.Error, 6, 2},
		{"group", head + "\n Origin   Group\n 0002:0\n", "MAP02", diag.Error, 8, 2},
		{"export", head + "\n Address       Export                  Alias\n\n 0001:00000000 a b c\n", "MAP03", diag.Error, 9, 2},
		{"public", head + "\n  Address         Publics by Name\n\n 0001:00000000       a b\n", "MAP04", diag.Error, 9, 24},
		{"imp detail", head + "\n  Address         Publics by Name\n\n 0000:00000000  Imp  DosBeep  DOSCALLS.286\n", "MAP05", diag.Warning, 9, 31},
		{"entry", head + "\nProgram entry point at somewhere\n", "MAP06", diag.Error, 7, 24},
		{"entry twice", head + "\nProgram entry point at 0001:0\nProgram entry point at 0001:4\n", "MAP07", diag.Warning, 8, 1},
		{"stray", "\n mod\n stray words\n" + head[5:], "MAP08", diag.Warning, 3, 2},
		{"no module", "\n Start         Length     Name                   Class\n 0001:00000000 000000100H CODE32                 CODE 32-bit\n", "MAP13", diag.Warning, 1, 1},
		{"wlink symbol", "Open Watcom Linker Version 2.0\n |   Memory Map   |\nModule: a.obj\n0001:0000001G  x\n", "MAP10", diag.Error, 4, 1},
		{"wlink mark", "Open Watcom Linker Version 2.0\n |   Memory Map   |\nModule: a.obj\n0001:00000010# x\n", "MAP10", diag.Error, 4, 14},
		{"wlink import", "Open Watcom Linker Version 2.0\n |   Imported Symbols   |\nDosBeep\n", "MAP11", diag.Error, 3, 1},
		{"wlink module", "Open Watcom Linker Version 2.0\n |   Memory Map   |\nModule:\n", "MAP12", diag.Error, 3, 1},
		{"wlink segment", "Open Watcom Linker Version 2.0\n |   Segments   |\n_TEXT CODE AUTO 0001:00000010\n", "MAP01", diag.Error, 3, 1},
		{"wlink group", "Open Watcom Linker Version 2.0\n |   Groups   |\nDGROUP 0002:00000000 xyz\n", "MAP02", diag.Error, 3, 22},
		{"wlink entry", "Open Watcom Linker Version 2.0\n |   Linker Statistics   |\nEntry point address: here\n", "MAP06", diag.Error, 3, 22},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, ds, err := Parse("t.map", []byte(tt.text))
			if err != nil {
				t.Fatal(err)
			}
			if len(ds) != 1 {
				t.Fatalf("got %d diagnostics, want 1: %v", len(ds), ds)
			}
			d := ds[0]
			if d.Code != tt.code || d.Severity != tt.sev || d.Pos.Line != tt.line || d.Pos.Col != tt.col || d.Pos.File != "t.map" {
				t.Errorf("got %s, want %s %s at t.map:%d:%d", d, tt.sev, tt.code, tt.line, tt.col)
			}
			if m.Flavor != FlavorWatcom && tt.name != "no module" && len(m.Segments) != 1 {
				t.Errorf("the good segment line was lost: %d segments", len(m.Segments))
			}
		})
	}
}

func TestUnknownFormat(t *testing.T) {
	for name, src := range map[string]string{
		"empty":   "",
		"prose":   "Hello, world.\nThis is not a map.\n",
		"binary":  "MZ\x90\x00\x03\x00\x00\x00LX\x00\x00",
		"tsf":     "MODNAME = emitrep.dll\nMAJOR = 0x42\n",
		"numbers": " 0001:00000000 foo\n",
	} {
		_, _, err := Parse(name, []byte(src))
		if !errors.Is(err, ErrUnknownFormat) {
			t.Errorf("%s: err = %v, want ErrUnknownFormat", name, err)
		}
	}
}

func TestAddrString(t *testing.T) {
	if got := (Addr{Seg: 2, Off: 0xBF8}).String(); got != "0002:00000BF8" {
		t.Errorf("Addr.String() = %q", got)
	}
}

// TestTRCUSTNames checks the lines TRCUST 3.05A takes for symbols (Names)
// on the rules its binary showed: sscanf "%x:%x %s" on every line, no
// name that starts with a digit, no object 0, file order kept.
func TestTRCUSTNames(t *testing.T) {
	for _, tc := range []struct {
		line string
		want string // "SSSS:OOOOOOOO name", "" for no symbol
	}{
		{" 0001:00000DC0       malloc", "0001:00000DC0 malloc"},
		{" 0002:0   DGROUP", "0002:00000000 DGROUP"},
		{" 0000:0   FLAT", ""},
		{" 0001:00000000 000004410H CODE32                 CODE 32-bit", ""},
		{" 0001:00000000 emit                    emit", "0001:00000000 emit"},
		{" 0001:00000100  Imp  impName              (X.1)", "0001:00000100 Imp"},
		{"\t0001:00000320\ttabbed", "0001:00000320 tabbed"},
		{"0001:00000350 noLead", "0001:00000350 noLead"},
		{" x 0001:00000360 afterWord", ""},
		{" 0001:0000043G badHex", "0001:00000043 G"},
		{"0001:00000500+ plusName", "0001:00000500 +"},
		{" 0001:540abc hexy", "0001:00540ABC hexy"},
		{" 00001:000003D0 longSeg", "0001:000003D0 longSeg"},
		{" 0001 : 00000400 spacedColon", ""},
		{" 0001-000003F0 dashName", ""},
		{" 0001:000003A0 9digit", ""},
		{" 0001:00000300", ""},
		{" 0x1:0x20 prefixed", "0001:00000020 prefixed"},
		{"Program entry point at 0001:00000000", ""},
	} {
		m, _, _ := Parse("t.map", []byte(tc.line+"\n"))
		got := ""
		if m != nil && len(m.Names) > 0 {
			got = m.Names[0].Addr.String() + " " + m.Names[0].Name
		}
		if got != tc.want {
			t.Errorf("%q: %q, want %q", tc.line, got, tc.want)
		}
	}
}

// TestAddrCompare checks the order of addresses: by segment, then offset.
func TestAddrCompare(t *testing.T) {
	for _, tc := range []struct {
		a, b Addr
		want int
	}{
		{Addr{1, 0x10}, Addr{1, 0x10}, 0},
		{Addr{1, 0x10}, Addr{1, 0x11}, -1},
		{Addr{2, 0}, Addr{1, 0xFFFFFFFF}, 1},
		{Addr{1, 0xFFFFFFFF}, Addr{2, 0}, -1},
	} {
		if got := tc.a.Compare(tc.b); got != tc.want {
			t.Errorf("%v.Compare(%v) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
