package ne

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
	"github.com/tracekit/tracekit/ast/golden"
)

var realModules = [][]string{
	{"corpus", "os2", "lx", "2ine_hello16.exe"},
	{"corpus", "os2", "lx", "2ine_testargv16.exe"},
}

func openCorpus(t *testing.T, elem ...string) *File {
	t.Helper()
	f, err := Open(corpus.Path(t, elem...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func dump(f *File) string {
	var b strings.Builder
	fmt.Fprintf(&b, "header at 0x%X, file size %d\n", f.HeaderOffset, f.Size)
	hv := reflect.ValueOf(f.Header)
	for i := 0; i < hv.NumField(); i++ {
		if hv.Field(i).Kind() == reflect.Array {
			fmt.Fprintf(&b, "  %-17s %q\n", hv.Type().Field(i).Name, string(f.Magic[:]))
			continue
		}
		fmt.Fprintf(&b, "  %-17s 0x%X\n", hv.Type().Field(i).Name, hv.Field(i).Interface())
	}
	fmt.Fprintf(&b, "type %s, module %q, description %q\n", f.ModuleType(), f.ModuleName, f.Description)
	for _, s := range f.Segments {
		fmt.Fprintf(&b, "segment %d: sector 0x%X length 0x%X flags 0x%04X %s minalloc 0x%X -> file 0x%X size 0x%X alloc 0x%X\n",
			s.Number, s.Sector, s.Length, s.Flags, s.FlagsString(), s.MinAlloc, s.Offset, s.FileSize, s.Alloc)
		data, err := f.ReadSegment(s.Number, 0, int(s.Alloc))
		if err != nil {
			fmt.Fprintf(&b, "  read: %v\n", err)
			continue
		}
		fmt.Fprintf(&b, "  sha256 %x\n  first bytes % X\n", sha256.Sum256(data), data[:min(16, len(data))])
	}
	for _, n := range f.ResidentNames {
		fmt.Fprintf(&b, "resident name %q ordinal %d\n", n.Name, n.Ordinal)
	}
	for _, n := range f.NonResidentNames {
		fmt.Fprintf(&b, "non-resident name %q ordinal %d\n", n.Name, n.Ordinal)
	}
	for _, e := range f.Entries {
		fmt.Fprintf(&b, "entry %d: movable %v segment %d flags 0x%02X offset 0x%X\n", e.Ordinal, e.Movable, e.Segment, e.Flags, e.Offset)
	}
	for _, x := range f.Exports() {
		fmt.Fprintf(&b, "export %q ordinal %d -> %d:0x%X found %v\n", x.Name, x.Ordinal, x.Segment, x.Offset, x.Found)
	}
	fmt.Fprintf(&b, "import modules %q\n", f.ImportModules)
	return b.String()
}

func TestCorpusGolden(t *testing.T) {
	for _, elem := range realModules {
		name := elem[len(elem)-1]
		t.Run(name, func(t *testing.T) {
			golden.Check(t, filepath.Join("testdata", name+".golden"), []byte(dump(openCorpus(t, elem...))))
		})
	}
}

// TestCorpusFacts checks facts read off the files with a hex dump: the
// module names, imports, the entry point and the bytes found there (the
// Open Watcom start-up code jumps over its copyright string).
func TestCorpusFacts(t *testing.T) {
	tests := []struct {
		elem    []string
		imports []string
		cs, ip  uint16
		code    []byte
		nseg    int
	}{
		{realModules[0], []string{"MSG", "VIOCALLS", "DOSCALLS"}, 1, 0x70, []byte{0xEB, 0x55, 'O', 'p', 'e', 'n'}, 2},
		{realModules[1], []string{"VIOCALLS", "DOSCALLS", "NLS"}, 1, 0x1B0, nil, 2},
	}
	for _, tt := range tests {
		f := openCorpus(t, tt.elem...)
		label := tt.elem[len(tt.elem)-1]
		if f.ModuleType() != ModProgram || f.ModuleName != "test16" || f.Description != "test16.exe" || f.TargetOS != OSOS2 {
			t.Errorf("%s: %s %q %q os %d", label, f.ModuleType(), f.ModuleName, f.Description, f.TargetOS)
		}
		if !reflect.DeepEqual(f.ImportModules, tt.imports) || f.CS != tt.cs || f.IP != tt.ip || len(f.Segments) != tt.nseg {
			t.Errorf("%s: imports %q entry %d:0x%X segments %d", label, f.ImportModules, f.CS, f.IP, len(f.Segments))
		}
		code, data := f.Segments[0], f.Segments[1]
		if !code.IsCode() || !data.IsData() || code.Flags&SegRelocs == 0 || int(f.AutoDataSegment) != data.Number {
			t.Errorf("%s: segment flags %s / %s, auto data %d", label, code.FlagsString(), data.FlagsString(), f.AutoDataSegment)
		}
		if tt.code != nil {
			b, err := f.ReadSegment(int(f.CS), uint32(f.IP), len(tt.code))
			if err != nil || !bytes.Equal(b, tt.code) {
				t.Errorf("%s: bytes at the entry point % X, %v; want % X", label, b, err, tt.code)
			}
		}
	}
}

func TestReadSegmentRange(t *testing.T) {
	f := openCorpus(t, realModules[0]...)
	d := f.Segments[1] // data: 0x60 bytes in the file, 0x90 allocated
	if d.FileSize != 0x60 || d.Alloc != 0x90 {
		t.Fatalf("data segment sizes 0x%X/0x%X", d.FileSize, d.Alloc)
	}
	b, err := f.ReadSegment(2, 0x5E, 4)
	if err != nil || b[2] != 0 || b[3] != 0 {
		t.Errorf("read across the end of the file data: % X, %v", b, err)
	}
	for _, c := range []struct {
		seg int
		off uint32
		n   int
		msg string
	}{
		{2, 0x90, 1, "outside the segment (size 0x90)"},
		{2, 0, -1, "outside the segment"},
		{3, 0, 1, "segment 3 does not exist"},
		{0, 0, 1, "segment 0 does not exist"},
	} {
		if _, err := f.ReadSegment(c.seg, c.off, c.n); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("ReadSegment(%d, 0x%X, %d) = %v, want %q", c.seg, c.off, c.n, err, c.msg)
		}
	}
}

func TestNotNE(t *testing.T) {
	lx, err := os.ReadFile(corpus.Path(t, "corpus", "os2", "lx", "2ine_hello.exe"))
	if err != nil {
		t.Fatal(err)
	}
	ne, err := os.ReadFile(corpus.Path(t, realModules[0]...))
	if err != nil {
		t.Fatal(err)
	}
	dos := make([]byte, 0x40)
	copy(dos, "MZ") // SYNTHETIC
	for _, tt := range []struct {
		name string
		data []byte
		msg  string
		off  int64
	}{
		{"LX", lx, "LX module, not an NE module", 0x80},
		{"DOS", dos, "not an NE module: DOS MZ executable", 0},
		{"text", []byte("hello"), "not an NE module: no MZ or NE signature", 0},
		{"empty", nil, "truncated", 0},
		{"header cut", ne[:0x90], "truncated: NE header", 0x80},
		{"segment table cut", ne[:0xC4], "truncated: segment table", 0xC0},
		{"segment data cut", ne[:0x200], "truncated: segment 1", 0x108},
	} {
		_, err := NewFile(bytes.NewReader(tt.data))
		var fe *FormatError
		if !errors.As(err, &fe) || !strings.Contains(fe.Msg, tt.msg) || fe.Off != tt.off {
			t.Errorf("%s: err = %v; want %q at 0x%X", tt.name, err, tt.msg, tt.off)
		}
	}
}

// buildNE writes a SYNTHETIC NE DLL (not made by a linker): a code
// segment, an iterated data segment and a segment without file data,
// names, two imported modules and an entry table with unused, fixed,
// movable and constant bundles.
func buildNE() []byte {
	const neOff = 0x40
	le := binary.LittleEndian
	var h Header
	h.Magic = [2]byte{'N', 'E'}
	h.LinkerVersion = 5
	h.Flags = FlagLibrary | FlagSingleData | FlagProtectedMode
	h.TargetOS = OSOS2
	h.AlignShift = 4
	h.SegmentCount = 3
	h.ModuleRefCount = 2
	h.AutoDataSegment = 2

	var t bytes.Buffer // tables after the header, NE-relative from HeaderSize
	rel := func() uint16 { return uint16(HeaderSize + t.Len()) }
	h.SegmentTable = rel()
	segAt := t.Len()
	t.Write(make([]byte, 3*8))
	h.ResourceTable = rel()
	h.ResidentNameTable = rel()
	for _, n := range []Name{{"SYN16", 0}, {"FIXED", 2}, {"MOVED", 3}} {
		t.WriteByte(byte(len(n.Name)))
		t.WriteString(n.Name)
		binary.Write(&t, le, n.Ordinal)
	}
	t.WriteByte(0)
	h.ModuleRefTable = rel()
	binary.Write(&t, le, []uint16{1, 5})
	h.ImportedNameTable = rel()
	t.Write([]byte("\x00\x03MSG\x08DOSCALLS"))
	h.EntryTable = rel()
	entries := []byte{
		1, 0, // ordinal 1 unused
		1, 1, EntryExported, 0x34, 0x12, // ordinal 2: segment 1 offset 0x1234
		1, 0xFF, EntryExported | 2<<3, 0xCD, 0x3F, 2, 0x10, 0x00, // ordinal 3: movable, segment 2 offset 0x10
		1, ConstantSegment, EntryExported, 0xEF, 0xBE, // ordinal 4: constant 0xBEEF
		0,
	}
	t.Write(entries)
	h.EntryTableLen = uint16(len(entries))

	// Segment data on 16-byte sectors.
	pos := neOff + HeaderSize + t.Len()
	pad := func() {
		for pos%16 != 0 {
			t.WriteByte(0)
			pos++
		}
	}
	pad()
	code := []byte{0x55, 0x8B, 0xEC, 0xC9, 0xCB}
	codeAt := pos
	t.Write(code)
	pos += len(code)
	pad()
	iter := []byte{3, 0, 2, 0, 'h', 'i', 2, 0, 1, 0, '!'} // "hihihi!!"
	iterAt := pos
	t.Write(iter)
	pos += len(iter)
	pad()
	for i, s := range []SegmentHeader{
		{Sector: uint16(codeAt >> 4), Length: uint16(len(code)), Flags: SegMovable | SegPreload, MinAlloc: 0x20},
		{Sector: uint16(iterAt >> 4), Length: uint16(len(iter)), Flags: SegData | SegIterated, MinAlloc: 0x40},
		{Flags: SegData, MinAlloc: 0x100},
	} {
		e := t.Bytes()[segAt+8*i:]
		le.PutUint16(e, s.Sector)
		le.PutUint16(e[2:], s.Length)
		le.PutUint16(e[4:], s.Flags)
		le.PutUint16(e[6:], s.MinAlloc)
	}
	h.NonResNameTable = uint32(pos)
	nr := []byte("\x15synthetic 16-bit test\x00\x00\x04LATE\x05\x00\x00")
	h.NonResNamesLen = uint16(len(nr))
	t.Write(nr)

	var out bytes.Buffer
	stub := make([]byte, neOff)
	copy(stub, "MZ")
	le.PutUint32(stub[0x3C:], neOff)
	out.Write(stub)
	binary.Write(&out, le, &h)
	out.Write(t.Bytes())
	return out.Bytes()
}

func TestSyntheticNE(t *testing.T) {
	f, err := NewFile(bytes.NewReader(buildNE()))
	if err != nil {
		t.Fatal(err)
	}
	if f.ModuleType() != ModLibrary || f.ModuleName != "SYN16" || f.Description != "synthetic 16-bit test" {
		t.Errorf("%s %q %q", f.ModuleType(), f.ModuleName, f.Description)
	}
	if !reflect.DeepEqual(f.ImportModules, []string{"MSG", "DOSCALLS"}) {
		t.Errorf("imports %q", f.ImportModules)
	}
	want := []Entry{
		{Ordinal: 2, Segment: 1, Flags: EntryExported, Offset: 0x1234},
		{Ordinal: 3, Movable: true, Segment: 2, Flags: EntryExported | 2<<3, Offset: 0x10},
		{Ordinal: 4, Segment: ConstantSegment, Flags: EntryExported, Offset: 0xBEEF},
	}
	if !reflect.DeepEqual(f.Entries, want) {
		t.Errorf("entries %+v", f.Entries)
	}
	ex := f.Exports()
	if len(ex) != 3 || ex[0].Name != "FIXED" || ex[0].Segment != 1 || ex[0].Offset != 0x1234 ||
		ex[1].Name != "MOVED" || ex[1].Segment != 2 || ex[2].Name != "LATE" || ex[2].Found || ex[2].Resident {
		t.Errorf("exports %+v", ex)
	}
	for _, c := range []struct {
		seg  int
		off  uint32
		n    int
		want string
	}{
		{1, 0, 6, "\x55\x8B\xEC\xC9\xCB\x00"},
		{2, 0, 10, "hihihi!!\x00\x00"},
		{3, 0xFE, 2, "\x00\x00"},
	} {
		b, err := f.ReadSegment(c.seg, c.off, c.n)
		if err != nil || string(b) != c.want {
			t.Errorf("segment %d at 0x%X: %q, %v; want %q", c.seg, c.off, b, err, c.want)
		}
	}
	if s := f.Segment(3); s.Offset != 0 || s.Alloc != 0x100 {
		t.Errorf("segment 3: %+v", s)
	}
	if got := f.Segments[1].FlagsString(); got != "DATA|ITERATED|DPL0" {
		t.Errorf("FlagsString = %q", got)
	}
}

func TestCorruptNE(t *testing.T) {
	le := binary.LittleEndian
	const ne = 0x40
	tests := []struct {
		name string
		edit func(b []byte) []byte
		msg  string
	}{
		{"align shift", func(b []byte) []byte { le.PutUint16(b[ne+0x32:], 20); return b }, "alignment shift 20"},
		{"segment count", func(b []byte) []byte { le.PutUint16(b[ne+0x1C:], 0xFFFF); return b }, "truncated: segment table"},
		{"module refs", func(b []byte) []byte { le.PutUint16(b[ne+0x1E:], 0xFFFF); return b }, "truncated: module reference table"},
		{"entry table length", func(b []byte) []byte { le.PutUint16(b[ne+0x06:], 0xFFFF); return b }, "truncated: entry table"},
		{"entry bundle", func(b []byte) []byte {
			at := ne + int(le.Uint16(b[ne+0x04:]))
			b[at+2] = 200 // a fixed bundle of 200 entries
			return b
		}, "entry bundle of 200 entries runs past"},
		{"non-resident names", func(b []byte) []byte { le.PutUint16(b[ne+0x20:], 0xFFFF); return b }, "truncated: non-resident name table"},
		{"resident name", func(b []byte) []byte {
			le.PutUint16(b[ne+0x26:], uint16(len(b)-ne))
			return append(b, 9, 'x')
		}, "truncated: resident name table"},
	}
	for _, tt := range tests {
		_, err := NewFile(bytes.NewReader(tt.edit(buildNE())))
		var fe *FormatError
		if !errors.As(err, &fe) || !strings.Contains(fe.Msg, tt.msg) {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.msg)
		}
	}
	// Bad iterated data is reported by ReadSegment.
	b := buildNE()
	f, err := NewFile(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	at := f.Segments[1].Offset
	le.PutUint16(b[at:], 0x7FFF) // 0x7FFF repeats of "hi" overflow 0x40 bytes
	f, err = NewFile(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.ReadSegment(2, 0, 4)
	var fe *FormatError
	if !errors.As(err, &fe) || fe.Off != at || !strings.Contains(fe.Msg, "segment 2 iterated data") {
		t.Errorf("bad iterated segment: %v", err)
	}
}

// FuzzNewFile reads arbitrary input as an NE module: no panic, no hang.
func FuzzNewFile(f *testing.F) {
	f.Add(buildNE())
	if root := corpus.Root(); root != "" {
		for _, elem := range realModules {
			if b, err := os.ReadFile(filepath.Join(append([]string{root}, elem...)...)); err == nil {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := NewFile(bytes.NewReader(data))
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error is not a *FormatError: %v", err)
			}
			return
		}
		m.Exports()
		for i, s := range m.Segments {
			if i == 8 {
				break
			}
			m.ReadSegment(s.Number, 0, int(min(s.Alloc, 4096)))
		}
	})
}
