package lx

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
	"github.com/tracekit/tracekit/grammar/mapfile"
)

// realModules are the LX modules of the shared corpus.
var realModules = [][]string{
	{"corpus", "os2", "lx", "osfree_emitrep.dll"},
	{"corpus", "os2", "lx", "2ine_hello.exe"},
	{"corpus", "os2", "lx", "2ine_testbeep.exe"},
	{"corpus", "os2", "lx", "2ine_testpm.exe"},
	{"corpus", "os2", "maps", "devcon12_VDFT.SYS"},
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

// dump writes the header (every field), objects, pages, names, entries,
// exports, imports, resources and a digest of every object's contents.
func dump(f *File) string {
	var b strings.Builder
	fmt.Fprintf(&b, "header at 0x%X, file size %d\n", f.HeaderOffset, f.Size)
	hv := reflect.ValueOf(f.Header)
	for i := 0; i < hv.NumField(); i++ {
		fv := hv.Field(i)
		switch fv.Kind() {
		case reflect.Array:
			raw := make([]byte, fv.Len())
			reflect.Copy(reflect.ValueOf(raw), fv)
			fmt.Fprintf(&b, "  %-17s % X\n", hv.Type().Field(i).Name, raw)
		default:
			fmt.Fprintf(&b, "  %-17s 0x%X\n", hv.Type().Field(i).Name, fv.Interface())
		}
	}
	fmt.Fprintf(&b, "type %s, module %q, description %q\n", f.ModuleType(), f.ModuleName, f.Description)
	for _, o := range f.Objects {
		fmt.Fprintf(&b, "object %d: vsize 0x%X base 0x%X flags 0x%04X %s pages %d+%d\n",
			o.Number, o.VirtualSize, o.RelocBase, o.Flags, o.FlagsString(), o.PageTableIndex, o.PageCount)
		for i, p := range o.Pages {
			fmt.Fprintf(&b, "  page %d: %-10s offset 0x%X size 0x%X", int(o.PageTableIndex)+i, PageFlagString(p.Flags), p.DataOffset, p.DataSize)
			if p.Flags == PageLegal || p.Flags == PageIterated || p.Flags == PageCompressed {
				fmt.Fprintf(&b, " at file 0x%X", f.pageFileOffset(p))
			}
			b.WriteString("\n")
		}
		data, err := f.ReadObject(o.Number, 0, int(o.VirtualSize))
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
		fmt.Fprintf(&b, "entry %d: type %d object %d flags 0x%02X offset 0x%X gate 0x%X fwd %d/0x%X\n",
			e.Ordinal, e.Type, e.Object, e.Flags, e.Offset, e.CallGate, e.ModuleOrdinal, e.ProcOrOrdinal)
	}
	for _, x := range f.Exports() {
		fmt.Fprintf(&b, "export %q ordinal %d resident %v -> %d:0x%X found %v\n", x.Name, x.Ordinal, x.Resident, x.Object, x.Offset, x.Found)
	}
	fmt.Fprintf(&b, "import modules %q\n", f.ImportModules)
	for _, r := range f.Resources {
		fmt.Fprintf(&b, "resource type %d name %d size 0x%X at %d:0x%X\n", r.TypeID, r.NameID, r.Size, r.Object, r.Offset)
	}
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

// TestModuleFacts checks what the corpus README says of each module.
func TestModuleFacts(t *testing.T) {
	tests := []struct {
		elem    []string
		typ     ModuleType
		name    string
		vsizes  []uint32
		iterPgs int // pages with flag 1
		exports []string
		pm      uint32
	}{
		{realModules[0], ModLibrary, "emitrep", []uint32{0x4440, 0xC6C}, 1, []string{"emit"}, FlagPMCompatible},
		{realModules[1], ModProgram, "hello", []uint32{0x8000, 0x12}, 0, nil, FlagPMCompatible},
		{realModules[2], ModProgram, "testos2", []uint32{0x627, 0x101D0}, 0, nil, FlagPMCompatible},
		{realModules[3], ModProgram, "testpm", []uint32{0xFA2, 0x10210}, 0, nil, FlagPMUses},
		{realModules[4], ModVDD, "vdft", []uint32{0x2C, 0x29C, 0x10, 0x10, 0x28}, 2, nil, 0},
	}
	for _, tt := range tests {
		f := openCorpus(t, tt.elem...)
		label := tt.elem[len(tt.elem)-1]
		if f.ModuleType() != tt.typ || f.ModuleName != tt.name || f.ModuleFlags&FlagPMMask != tt.pm {
			t.Errorf("%s: type %s name %q pm 0x%X; want %s %q 0x%X", label, f.ModuleType(), f.ModuleName, f.ModuleFlags&FlagPMMask, tt.typ, tt.name, tt.pm)
		}
		var vs []uint32
		iter := 0
		for _, o := range f.Objects {
			vs = append(vs, o.VirtualSize)
			for _, p := range o.Pages {
				if p.Flags == PageIterated {
					iter++
				}
			}
			// Code objects are readable, executable and 32-bit in all of
			// these modules; data objects are readable and not executable.
			if !o.Readable() || !o.Is32Bit() {
				t.Errorf("%s object %d: flags %s", label, o.Number, o.FlagsString())
			}
		}
		if !reflect.DeepEqual(vs, tt.vsizes) || iter != tt.iterPgs {
			t.Errorf("%s: virtual sizes %X, %d iterated pages; want %X, %d", label, vs, iter, tt.vsizes, tt.iterPgs)
		}
		var ex []string
		for _, x := range f.Exports() {
			ex = append(ex, x.Name)
		}
		if !reflect.DeepEqual(ex, tt.exports) {
			t.Errorf("%s: exports %q, want %q", label, ex, tt.exports)
		}
	}
	f := openCorpus(t, realModules[0]...)
	if !f.Objects[0].Executable() || f.Objects[0].Writable() || f.Objects[1].Executable() || !f.Objects[1].Writable() {
		t.Errorf("emitrep: object flags %s, %s", f.Objects[0].FlagsString(), f.Objects[1].FlagsString())
	}
}

// TestOracleSymbols resolves TRCUST tracepoint symbols through the LINK386
// map and reads the module there. The expectations are facts of the TRCUST
// 3.05A oracle (trcust-oracle/README.md): the object:offset in the TDF
// record and the original byte TRCUST found at that address.
func TestOracleSymbols(t *testing.T) {
	f := openCorpus(t, "corpus", "os2", "lx", "osfree_emitrep.dll")
	m, ds, err := mapfile.ParseFile(corpus.Path(t, "corpus", "os2", "lx", "osfree_emitrep.map"))
	if err != nil || len(ds) != 0 {
		t.Fatalf("map: %v %v", err, ds)
	}
	tests := []struct {
		tp      string // the TSF TP= operand
		sym     string
		delta   int32
		obj     int
		off     uint32
		opcode  byte
		oracle  string // where the oracle states it
		caseIns bool
	}{
		{".emit", "emit", 0, 1, 0x000, 0x55, "d01..d85: byte 0x55 at emit", false},
		{".emit+4", "emit", 4, 1, 0x004, 0xEC, "d20_tpoffset", false},
		{".malloc", "malloc", 0, 1, 0xDC0, 0x55, "d25_malloc: object 1 offset 0xDC0", false},
		{".malloc-4", "malloc", -4, 1, 0xDBC, 0xC9, "d56_tpneg: LEAVE at malloc-4", false},
		{".emit,RETEP", "emit", 0x307, 1, 0x307, 0xC9, "d54_retep: LEAVE at emit+0x307", false},
		{".free", "free", 0, 1, 0x1090, 0x55, "d40_multi", false},
		{".errno", "errno", 0, 2, 0xBF8, 0x00, "d58_datatp: object 2", false},
		{".EMIT", "EMIT", 0, 1, 0x000, 0x55, "d59_caseins", true},
	}
	for _, tt := range tests {
		s, ok := m.Lookup(tt.sym, tt.caseIns)
		if !ok || s.Imported {
			t.Errorf("%s: symbol %q not found in the map", tt.tp, tt.sym)
			continue
		}
		off := uint32(int64(s.Off) + int64(tt.delta))
		if int(s.Seg) != tt.obj || off != tt.off {
			t.Errorf("%s: resolved to %d:0x%X, the oracle has %d:0x%X (%s)", tt.tp, s.Seg, off, tt.obj, tt.off, tt.oracle)
			continue
		}
		b, err := f.ReadObject(int(s.Seg), off, 1)
		if err != nil {
			t.Errorf("%s: %v", tt.tp, err)
			continue
		}
		if b[0] != tt.opcode {
			t.Errorf("%s: byte 0x%02X at %d:0x%X, the oracle has 0x%02X (%s)", tt.tp, b[0], tt.obj, tt.off, tt.opcode, tt.oracle)
		}
	}
	// d59b: with case-sensitive lookup .EMIT is not found.
	if _, ok := m.Lookup("EMIT", false); ok {
		t.Errorf("case-sensitive Lookup(EMIT) found a symbol")
	}
}

// TestOracleTDFRecords reads every TDF written by TRCUST 3.05A for the
// emitrep DLL and checks each tracepoint record: the byte ReadObject finds
// at the record's object:offset is the original opcode TRCUST stored.
func TestOracleTDFRecords(t *testing.T) {
	f := openCorpus(t, "corpus", "os2", "lx", "osfree_emitrep.dll")
	dir := corpus.Path(t, "corpus", "os2", "trcust-oracle")
	tdfs, err := filepath.Glob(filepath.Join(dir, "*", "*.TDF"))
	if err != nil || len(tdfs) == 0 {
		t.Fatalf("no TDF files under %s (%v)", dir, err)
	}
	records, files := 0, 0
	seen := map[string]bool{}
	for _, path := range tdfs {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) < 0x144 || string(data[:4]) != "TDF\x00" {
			t.Errorf("%s: not a TDF", path)
			continue
		}
		modname := string(bytes.TrimRight(data[0x1E:0x11E], "\x00"))
		if !strings.EqualFold(filepath.Base(strings.ReplaceAll(modname, `\`, "/")), "emitrep.dll") {
			t.Errorf("%s: module %q is not emitrep.dll", path, modname)
			continue
		}
		files++
		count := binary.LittleEndian.Uint32(data[0x0C:])
		at := int(binary.LittleEndian.Uint32(data[0x10:]))
		for i := uint32(0); i < count; i++ {
			if at+22 > len(data) {
				t.Errorf("%s: record %d runs past the end", path, i)
				break
			}
			rec := data[at:]
			obj := binary.LittleEndian.Uint32(rec[6:])
			off := binary.LittleEndian.Uint32(rec[10:])
			opcode := rec[20]
			b, err := f.ReadObject(int(obj), off, 1)
			switch {
			case err != nil:
				t.Errorf("%s record %d (%d:0x%X): %v", filepath.Base(path), i, obj, off, err)
			case b[0] != opcode:
				t.Errorf("%s record %d: byte 0x%02X at %d:0x%X, TRCUST stored 0x%02X", filepath.Base(path), i, b[0], obj, off, opcode)
			}
			seen[fmt.Sprintf("%d:0x%X=0x%02X", obj, off, opcode)] = true
			records++
			at += int(binary.LittleEndian.Uint16(rec))
		}
	}
	t.Logf("checked %d tracepoint records in %d TDF files, %d distinct addresses", records, files, len(seen))
	if records < 70 || len(seen) < 6 {
		t.Errorf("only %d records, %d addresses: the oracle folder looks incomplete", records, len(seen))
	}
}

// TestMapMatchesModule cross-checks the modules with their own maps:
// object sizes are the ends of the last segments, the entry point and the
// exports agree.
func TestMapMatchesModule(t *testing.T) {
	pairs := [][2][]string{
		{{"corpus", "os2", "lx", "osfree_emitrep.dll"}, {"corpus", "os2", "lx", "osfree_emitrep.map"}},
		{{"corpus", "os2", "maps", "devcon12_VDFT.SYS"}, {"corpus", "os2", "maps", "devcon12_VDFT.MAP"}},
	}
	for _, pair := range pairs {
		f := openCorpus(t, pair[0]...)
		m, _, err := mapfile.ParseFile(corpus.Path(t, pair[1]...))
		if err != nil {
			t.Fatal(err)
		}
		end := map[uint16]uint32{}
		for _, s := range m.Segments {
			end[s.Start.Seg] = max(end[s.Start.Seg], s.Start.Off+s.Length)
		}
		for _, o := range f.Objects {
			if end[uint16(o.Number)] != o.VirtualSize {
				t.Errorf("%s object %d: virtual size 0x%X, map segments end at 0x%X", f.ModuleName, o.Number, o.VirtualSize, end[uint16(o.Number)])
			}
		}
		if m.Entry == nil || uint32(m.Entry.Addr.Seg) != f.EIPObject || m.Entry.Addr.Off != f.EIP {
			t.Errorf("%s: map entry %v, module %d:0x%X", f.ModuleName, m.Entry, f.EIPObject, f.EIP)
		}
		for _, x := range f.Exports() {
			s, ok := m.Lookup(x.Name, false)
			if !ok || int(s.Seg) != x.Object || s.Off != x.Offset {
				t.Errorf("%s export %q: module %d:0x%X, map %v", f.ModuleName, x.Name, x.Object, x.Offset, s)
			}
		}
	}
}

// TestNotLX checks the messages for other formats and for short files.
func TestNotLX(t *testing.T) {
	ne, err := os.ReadFile(corpus.Path(t, "corpus", "os2", "lx", "2ine_hello16.exe"))
	if err != nil {
		t.Fatal(err)
	}
	mapText, err := os.ReadFile(corpus.Path(t, "corpus", "os2", "lx", "osfree_emitrep.map"))
	if err != nil {
		t.Fatal(err)
	}
	dos := make([]byte, 0x40)
	copy(dos, "MZ") // SYNTHETIC: an MZ header with e_lfanew = 0
	pe := make([]byte, 0x80)
	copy(pe, "MZ")
	pe[0x3C] = 0x40
	copy(pe[0x40:], "PE\x00\x00") // SYNTHETIC
	tests := []struct {
		name string
		data []byte
		msg  string
		off  int64
	}{
		{"NE", ne, "NE (16-bit) module, not an LX module", 0x80},
		{"map text", mapText, "not an LX module: no MZ or LX signature", 0},
		{"DOS", dos, "not an LX module: DOS MZ executable without an LX header", 0},
		{"PE", pe, "PE (Win32) module, not an LX module", 0x40},
		{"empty", nil, "truncated: file is 0 bytes", 0},
		{"one byte", []byte("M"), "truncated: file is 1 bytes", 0},
		{"MZ only", []byte("MZ\x00\x00"), "truncated: MZ stub is 4 bytes", 0x3C},
	}
	for _, tt := range tests {
		_, err := NewFile(bytes.NewReader(tt.data))
		var fe *FormatError
		if !errors.As(err, &fe) || !strings.Contains(fe.Msg, tt.msg) || fe.Off != tt.off {
			t.Errorf("%s: err = %v; want a FormatError at 0x%X containing %q", tt.name, err, tt.off, tt.msg)
		}
	}
}

// TestTruncated cuts the emitrep DLL at several points; each cut gives a
// "truncated" FormatError at the offset of the first table or page that
// no longer fits.
func TestTruncated(t *testing.T) {
	data, err := os.ReadFile(corpus.Path(t, "corpus", "os2", "lx", "osfree_emitrep.dll"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		cut  int
		what string
		off  int64
	}{
		{0x3E, "MZ stub", 0x3C},
		{0x81, "new-format header", 0x80},
		{0x100, "LX header", 0x80},
		{0x150, "object page table", 0x174}, // the page table is read before the object table
		{0x19C, "object page table", 0x174},
		{0x1A8, "page 1 (legal)", 0x1738}, // pages are checked before the name tables
		{0x1738 + 0x800, "page 1 (legal)", 0x1738},
		{len(data) - 1, "non-resident name table", 0x5B78},
	}
	for _, tt := range tests {
		_, err := NewFile(bytes.NewReader(data[:tt.cut]))
		var fe *FormatError
		if !errors.As(err, &fe) || !errors.Is(err, ErrTruncated) || !strings.Contains(fe.Msg, tt.what) || fe.Off != tt.off {
			t.Errorf("cut at 0x%X: err = %v; want truncated %s at 0x%X", tt.cut, err, tt.what, tt.off)
		}
	}
	// The whole file reads.
	if _, err := NewFile(bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
}

func TestReadObjectRange(t *testing.T) {
	f := openCorpus(t, "corpus", "os2", "lx", "osfree_emitrep.dll")
	tests := []struct {
		obj  int
		off  uint32
		n    int
		want string // "" for success
	}{
		{1, 0x443F, 1, ""},
		{1, 0x4440, 0, ""},
		{1, 0x4440, 1, "range 0x4440..0x4441 is outside the object (virtual size 0x4440)"},
		{1, 0x443F, 2, "outside the object"},
		{1, 0xFFFFFFFF, 2, "outside the object"},
		{2, 0xC6C, 1, "object 2: range 0xC6C..0xC6D"},
		{0, 0, 1, "object 0 does not exist (the module has 2 objects)"},
		{3, 0, 1, "object 3 does not exist"},
		{1, 0, -1, "negative length"},
	}
	for _, tt := range tests {
		_, err := f.ReadObject(tt.obj, tt.off, tt.n)
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("ReadObject(%d, 0x%X, %d) = %v, want %q", tt.obj, tt.off, tt.n, err, tt.want)
		}
	}
	// A read across the page boundary equals the two halves.
	whole, err := f.ReadObject(1, 0xFF0, 0x20)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := f.ReadObject(1, 0xFF0, 0x10)
	b, _ := f.ReadObject(1, 0x1000, 0x10)
	if !bytes.Equal(whole, append(a, b...)) {
		t.Errorf("read across a page boundary differs from its halves")
	}
}

// TestIteratedPages checks the EXEPACK1 pages of the corpus: each expands
// to at most one page, and the bytes past the records are zero.
func TestIteratedPages(t *testing.T) {
	for _, elem := range [][]string{realModules[0], realModules[4]} {
		f := openCorpus(t, elem...)
		for _, o := range f.Objects {
			for i, p := range o.Pages {
				if p.Flags != PageIterated {
					continue
				}
				raw := make([]byte, p.DataSize)
				if _, err := f.r.ReadAt(raw, f.pageFileOffset(p)); err != nil {
					t.Fatal(err)
				}
				buf := make([]byte, f.PageSize)
				n, err := UnpackIterated(buf, raw)
				if err != nil {
					t.Fatalf("%s object %d page %d: %v", f.ModuleName, o.Number, i, err)
				}
				if n == 0 || n > int(f.PageSize) {
					t.Errorf("%s object %d page %d: expands to %d bytes", f.ModuleName, o.Number, i, n)
				}
				page, err := f.PageData(o.Number, i)
				if err != nil || !bytes.Equal(page[:n], buf[:n]) || bytes.ContainsFunc(page[n:], func(r rune) bool { return r != 0 }) {
					t.Errorf("%s object %d page %d: PageData differs from the expansion (%v)", f.ModuleName, o.Number, i, err)
				}
			}
		}
	}
	// The emitrep data object (one iterated page) holds the C runtime's
	// message strings in CONST32, 0002:000008B0 for 0x110 bytes per the map.
	f := openCorpus(t, realModules[0]...)
	b, err := f.ReadObject(2, 0x8B0, 0x110)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"Internal library error in function: _GetErrMsg\x00", "Message file not found.\x00", "0123456789abcdefghijklmnopqrstuvwxyz\x00"} {
		if !bytes.Contains(b, []byte(s)) {
			t.Errorf("emitrep CONST32 does not contain %q: %q", s, b)
		}
	}
}
