package lx

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

// testModule is a SYNTHETIC DLL (see synth_test.go) with every page kind
// and every entry bundle kind.
func testModule(pageShift uint32, iterZero bool) *synthModule {
	return &synthModule{
		modFlags:  uint32(ModLibrary) | FlagPerProcessInit,
		pageShift: pageShift,
		iterZero:  iterZero,
		objects: []synthObject{
			{vsize: 0x3800, flags: ObjRead | ObjExec | ObjBig, pages: []synthPage{
				{PageLegal, pattern(4096, 1)},
				{PageCompressed, pattern(4096, 2)},
				{PageIterated, bytes.Repeat([]byte{0x90, 0x90, 0xCC, 0xC3}, 1024)},
				{PageLegal, pattern(0x100, 3)}, // short: the rest of the page is zero
			}},
			{vsize: 0x5000, flags: ObjRead | ObjWrite | ObjBig | ObjInvalid, pages: []synthPage{
				{PageZeroFill, nil},
				{PageIterated, append(pattern(100, 4), bytes.Repeat([]byte("ABCD"), 50)...)},
				{PageInvalid, nil},
				{PageCompressed, words(3000)},
				// pages 5 (and the rest of the object) have no entry: zeros
			}},
			{vsize: 0x100, flags: ObjRead | ObjBig}, // no pages at all
		},
		resident:    []Name{{Name: "SYNTH"}, {Name: "Alpha", Ordinal: 3}},
		nonResident: []Name{{Name: "synthetic test module"}, {Name: "Gamma", Ordinal: 6}, {Name: "Beta", Ordinal: 7}, {Name: "Lost", Ordinal: 40}},
		bundles: []synthEntryBundle{
			{typ: EntryUnused, count: 2},
			{typ: Entry16, object: 1, entries: [][]byte{entry16(EntryExported|2<<3, 0x10), entry16(0, 0x20)}},
			{typ: EntryCallGate, object: 1, entries: [][]byte{entryGate(EntryExported, 0x30, 0)}},
			{typ: Entry32, object: 2, entries: [][]byte{entry32(EntryExported, 0x1234)}},
			{typ: EntryForwarder, entries: [][]byte{entryFwd(ForwarderByOrdinal, 1, 42)}},
		},
		importMods: []string{"DOSCALLS"},
	}
}

// expected returns the memory image of object i of m: page contents
// zero-padded to 4096 bytes, zeros for pages without data, cut to vsize.
func (m *synthModule) expected(i int) []byte {
	o := m.objects[i]
	img := make([]byte, (int(o.vsize)+4095)/4096*4096)
	for k, p := range o.pages {
		copy(img[k*4096:], p.data)
	}
	return img[:o.vsize]
}

func TestSyntheticModule(t *testing.T) {
	for _, c := range []struct {
		shift    uint32
		iterZero bool
	}{{0, false}, {2, false}, {9, true}} {
		m := testModule(c.shift, c.iterZero)
		data := m.build()
		f, err := NewFile(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("shift %d: %v", c.shift, err)
		}
		if f.ModuleType() != ModLibrary || f.ModuleName != "SYNTH" || f.Description != "synthetic test module" {
			t.Errorf("type %s name %q description %q", f.ModuleType(), f.ModuleName, f.Description)
		}
		for i, o := range m.objects {
			want := m.expected(i)
			got, err := f.ReadObject(i+1, 0, int(o.vsize))
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("shift %d object %d: %v; contents differ", c.shift, i+1, err)
			}
			// Unaligned pieces across page boundaries.
			for _, r := range [][2]int{{0xFFF, 2}, {0x1FFE, 0x1003}, {0x2A, 0}, {int(o.vsize) - 1, 1}} {
				if r[0]+r[1] > int(o.vsize) {
					continue
				}
				got, err := f.ReadObject(i+1, uint32(r[0]), r[1])
				if err != nil || !bytes.Equal(got, want[r[0]:r[0]+r[1]]) {
					t.Errorf("shift %d object %d range 0x%X+0x%X: %v; contents differ", c.shift, i+1, r[0], r[1], err)
				}
			}
		}
		ex := map[string]Export{}
		for _, x := range f.Exports() {
			ex[x.Name] = x
		}
		if x := ex["Alpha"]; !x.Found || !x.Resident || x.Object != 1 || x.Offset != 0x10 || x.Entry.Type != Entry16 || x.Entry.Flags>>3 != 2 {
			t.Errorf("Alpha: %+v", x)
		}
		if x := ex["Gamma"]; !x.Found || x.Resident || x.Object != 2 || x.Offset != 0x1234 || x.Entry.Type != Entry32 {
			t.Errorf("Gamma: %+v", x)
		}
		if x := ex["Beta"]; !x.Found || x.Object != 0 || x.Entry.Type != EntryForwarder || x.Entry.ModuleOrdinal != 1 ||
			x.Entry.ProcOrOrdinal != 42 || x.Entry.Flags != ForwarderByOrdinal || x.Entry.Exported() {
			t.Errorf("Beta: %+v", x)
		}
		if x := ex["Lost"]; x.Found || x.Object != 0 {
			t.Errorf("Lost: %+v", x)
		}
		if e, ok := f.EntryByOrdinal(5); !ok || e.Type != EntryCallGate || e.Offset != 0x30 || !e.Exported() {
			t.Errorf("ordinal 5: %+v %v", e, ok)
		}
		if _, ok := f.EntryByOrdinal(1); ok {
			t.Errorf("ordinal 1 is an unused entry but was found")
		}
		if len(f.Entries) != 5 || f.Entries[0].Ordinal != 3 || f.Entries[4].Ordinal != 7 {
			t.Errorf("entries %+v", f.Entries)
		}
		if x, ok := f.Export("Gamma"); !ok || x.Ordinal != 6 {
			t.Errorf("Export(Gamma) = %+v, %v", x, ok)
		}
		if _, ok := f.Export("gamma"); ok {
			t.Errorf("Export is case-sensitive, but found gamma")
		}
		if len(f.ImportModules) != 1 || f.ImportModules[0] != "DOSCALLS" {
			t.Errorf("import modules %q", f.ImportModules)
		}
	}
}

func TestModuleTypes(t *testing.T) {
	for _, tt := range []struct {
		flags uint32
		want  string
		lib   bool
	}{
		{0, "EXE", false}, {0x8000, "DLL", true}, {0x18000, "PMEMDLL", true},
		{0x20000, "PDD", false}, {0x28000, "VDD", false}, {0x10000, "MODTYPE(0x10000)", false},
	} {
		m := testModule(0, false)
		m.modFlags = tt.flags
		f, err := NewFile(bytes.NewReader(m.build()))
		if err != nil {
			t.Fatal(err)
		}
		if f.ModuleType().String() != tt.want || f.IsLibrary() != tt.lib {
			t.Errorf("flags 0x%X: %s library %v, want %s %v", tt.flags, f.ModuleType(), f.IsLibrary(), tt.want, tt.lib)
		}
	}
}

func TestObjectFlagsString(t *testing.T) {
	for fl, want := range map[uint32]string{
		0:       "0",
		0x2005:  "READ|EXEC|BIG",
		0x2235:  "READ|EXEC|DISCARD|SHARED|BIG|RESIDENT",
		0x0300:  "CONTIG",
		0x0100:  "ZEROFILL",
		0x0580:  "INVALID|OBJTYPE(0x500)",
		0x10001: "READ|0x10000",
	} {
		if got := ObjectFlagsString(fl); got != want {
			t.Errorf("ObjectFlagsString(0x%X) = %q, want %q", fl, got, want)
		}
	}
}

// corrupt builds the synthetic module, lets edit change it (h is the
// decoded header, for the table offsets) and returns NewFile's result.
func corrupt(t *testing.T, edit func(b []byte, h *Header) []byte) (*File, error) {
	t.Helper()
	b := testModule(2, false).build()
	var h Header
	if _, err := binary.Decode(b[0x40:], binary.LittleEndian, &h); err != nil {
		t.Fatal(err)
	}
	b = edit(b, &h)
	return NewFile(bytes.NewReader(b))
}

func TestCorruptModules(t *testing.T) {
	const lx = 0x40
	le := binary.LittleEndian
	pageEntry := func(h *Header, n int) int { return lx + int(h.ObjectPageTable) + 8*(n-1) }
	tests := []struct {
		name string
		edit func(b []byte, h *Header) []byte
		msg  string
	}{
		{"big endian", func(b []byte, h *Header) []byte { b[lx+2] = 1; return b }, "big-endian"},
		{"page size", func(b []byte, h *Header) []byte { le.PutUint32(b[lx+0x28:], 3000); return b }, "page size 3000"},
		{"page shift", func(b []byte, h *Header) []byte { le.PutUint32(b[lx+0x2C:], 40); return b }, "page offset shift 40"},
		{"object pages", func(b []byte, h *Header) []byte { le.PutUint32(b[lx+int(h.ObjectTable)+16:], 99); return b }, "outside the object page table"},
		{"object page index 0", func(b []byte, h *Header) []byte { le.PutUint32(b[lx+int(h.ObjectTable)+12:], 0); return b }, "outside the object page table"},
		{"object count", func(b []byte, h *Header) []byte { le.PutUint32(b[lx+0x44:], 0x10000000); return b }, "truncated: object table"},
		{"page count", func(b []byte, h *Header) []byte { le.PutUint32(b[lx+0x14:], 0x10000000); return b }, "truncated: object page table"},
		{"legal page too big", func(b []byte, h *Header) []byte { le.PutUint16(b[pageEntry(h, 4)+4:], 0x2000); return b }, "larger than the page size"},
		{"page data beyond file", func(b []byte, h *Header) []byte { le.PutUint32(b[pageEntry(h, 2):], 0x100000); return b }, "truncated: page 2 (compressed)"},
		{"entry bundle type", func(b []byte, h *Header) []byte { b[lx+int(h.EntryTable)+3] = 9; return b }, "unknown bundle type 0x09"},
		{"entry table cut", func(b []byte, h *Header) []byte {
			le.PutUint32(b[lx+0x5C:], uint32(len(b)-lx))
			return append(b, 5, Entry32) // five 32-bit entries, then the file ends
		}, "truncated: entry table"},
		{"resident names", func(b []byte, h *Header) []byte {
			le.PutUint32(b[lx+0x58:], uint32(len(b)-lx))
			return append(b, 10, 'a') // a 10-byte name, then the file ends
		}, "truncated: resident name table"},
		{"non-resident length", func(b []byte, h *Header) []byte { le.PutUint32(b[lx+0x8C:], 0x7FFFFFFF); return b }, "truncated: non-resident name table"},
		{"import modules", func(b []byte, h *Header) []byte { le.PutUint32(b[lx+0x74:], 0x7FFFFFFF); return b }, "truncated: import module name table"},
		{"resources", func(b []byte, h *Header) []byte { le.PutUint32(b[lx+0x54:], 0x7FFFFFFF); return b }, "truncated: resource table"},
	}
	for _, tt := range tests {
		_, err := corrupt(t, tt.edit)
		var fe *FormatError
		if !errors.As(err, &fe) || !strings.Contains(fe.Msg, tt.msg) {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.msg)
		}
	}
}

// TestCorruptPages checks that bad page data is reported by ReadObject,
// with the file offset, while the rest of the module stays readable.
func TestCorruptPages(t *testing.T) {
	const lx = 0x40
	le := binary.LittleEndian
	tests := []struct {
		name string
		page int // logical page to spoil (1-based)
		edit func(b []byte, entry int, data int)
		obj  int
		off  uint32
		msg  string
		at   func(data int) int64 // expected error offset
	}{
		{"EXEPACK2 backref", 2, func(b []byte, e, d int) { b[d] = 0x42; b[d+1] = 0x00 }, 1, 0x1000,
			"object 1 page 2: EXEPACK2 data: back-reference before the start", func(d int) int64 { return int64(d) }},
		{"EXEPACK1 overflow", 3, func(b []byte, e, d int) { le.PutUint16(b[d:], 0xFFFF) }, 1, 0x2000,
			"object 1 page 3: EXEPACK1 data: iteration record expands past the end", func(d int) int64 { return int64(d) }},
		{"range page", 4, func(b []byte, e, d int) { le.PutUint16(b[e+6:], PageRange) }, 1, 0x3000,
			"not supported", func(int) int64 { return -1 }},
		{"unknown flag", 4, func(b []byte, e, d int) { le.PutUint16(b[e+6:], 9) }, 1, 0x3000,
			"unknown page flags 0x0009", func(int) int64 { return -1 }},
	}
	for _, tt := range tests {
		var dataAt int
		f, err := corrupt(t, func(b []byte, h *Header) []byte {
			e := lx + int(h.ObjectPageTable) + 8*(tt.page-1)
			dataAt = int(h.DataPages) + int(le.Uint32(b[e:]))<<h.PageShift
			tt.edit(b, e, dataAt)
			return b
		})
		if err != nil {
			t.Fatalf("%s: NewFile: %v", tt.name, err)
		}
		_, err = f.ReadObject(tt.obj, tt.off, 16)
		var fe *FormatError
		if !errors.As(err, &fe) || !strings.Contains(fe.Msg, tt.msg) {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.msg)
			continue
		}
		if want := tt.at(dataAt); want >= 0 && fe.Off != want {
			t.Errorf("%s: error at 0x%X, want 0x%X", tt.name, fe.Off, want)
		}
		if _, err := f.ReadObject(1, 0, 16); err != nil {
			t.Errorf("%s: page 1 no longer reads: %v", tt.name, err)
		}
	}
}

func TestIdentify(t *testing.T) {
	for _, tt := range []struct {
		data string
		want Format
	}{
		{"LX\x00\x00", FormatLX}, {"NE\x05\x01", FormatNE}, {"LE\x00\x00", FormatLE}, {"\x7FELF", FormatUnknown},
	} {
		got, off, err := Identify(strings.NewReader(tt.data))
		if err != nil || got != tt.want || off != 0 {
			t.Errorf("Identify(%q) = %s, %d, %v; want %s", tt.data, got, off, err, tt.want)
		}
	}
	// A ReaderAt without Size or Stat: the size is found by probing.
	data := testModule(0, false).build()
	f, err := NewFile(onlyReaderAt{bytes.NewReader(data)})
	if err != nil || f.Size != int64(len(data)) {
		t.Errorf("NewFile on a bare ReaderAt: size %v, %v; want %d", f, err, len(data))
	}
}

type onlyReaderAt struct{ r *bytes.Reader }

func (o onlyReaderAt) ReadAt(p []byte, off int64) (int, error) { return o.r.ReadAt(p, off) }
