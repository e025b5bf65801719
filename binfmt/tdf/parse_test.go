package tdf

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
)

// synthFile is a file with lists, unsorted tracepoints and every opcode.
func synthFile() *File {
	return &File{
		MaxDataLength: 100, Major: 0x1234, ModName: "TEST.DLL", TDFID: 7,
		Types:  []ListItem{{"PRE", 1}, {"EIGHTCHR", 0x8000}},
		Groups: []ListItem{{"G", 0x2B}},
		Tracepoints: []Tracepoint{
			{TypeMask: 0x8001, Group: 0x2B, Object: 2, Offset: 0x10, Minor: 2, Major: 0x1234, Opcode: 0x8B,
				RPN: []byte{0x00, 0x07, 0x0C, 0x0D, 0x21, 0x04, 0x08, 0x09, 0x0A, 0x0B, 0x0E, 0x0F, 0x14, 0x06,
					0x10, 0x04, 0x00, 0x11, 0x02, 0x10, 0xF8, 0x0B, 0x13, 0x15,
					0x0B, 0x07, 0x12, 0x0B, 0x07, 0x15,
					0x10, 0x0A, 0x00, 0x0B, 0x06, 0x13, 0x20, 0x23,
					0x10, 0x0A, 0x00, 0x1B, 0x02, 0x00, 0x00, 0x00, 0x1A, 0xF8, 0xFF, 0xFF, 0xFF, 0x16, 0x1C, 0x1F, 0x19,
					0x10, 0x01, 0x00, 0x05, 0x22,
					0x1A, 0x01, 0x00, 0x00, 0x00, 0x32, 0x02, 0x00, 0x31, 0x33, 0xFF}},
			{Object: 1, Offset: 0, Minor: 1, Major: 0x1234, Opcode: 0x55},
		},
	}
}

// TestSynthRoundTrip writes a synthetic file, checks its layout, and reads
// it back.
func TestSynthRoundTrip(t *testing.T) {
	f := synthFile()
	data, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	first := HeaderSize + 3*ListEntrySize
	if got := int(le.Uint32(data[0x10:])); got != first {
		t.Errorf("first record at 0x%X, want 0x%X", got, first)
	}
	if le.Uint32(data[0x0C:]) != 2 || le.Uint16(data[0x11E:]) != 3 || le.Uint16(data[0x120:]) != 7 {
		t.Errorf("header counts: % x", data[:0x20])
	}
	if string(data[HeaderSize+12:HeaderSize+20]) != "EIGHTCHR" || data[HeaderSize+33] != 1 || data[HeaderSize+21] != 2 {
		t.Errorf("list table: % x", data[HeaderSize:first])
	}
	if le.Uint32(data[first+6:]) != 1 {
		t.Errorf("records not sorted by address: first record object %d", le.Uint32(data[first+6:]))
	}
	if len(f.Tracepoints[0].RPN) == 0 || f.Tracepoints[0].Object != 2 {
		t.Error("MarshalBinary changed f.Tracepoints")
	}
	g, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if g.Tracepoints[0].Minor != 1 || !bytes.Equal(g.Tracepoints[1].RPN, f.Tracepoints[0].RPN) || g.ModName != f.ModName {
		t.Errorf("read back %+v", g)
	}
	again, err := g.MarshalBinary()
	if err != nil || !bytes.Equal(again, data) {
		t.Errorf("second write differs: %v", err)
	}
	var h File
	if err := h.UnmarshalBinary(data); err != nil || h.TDFID != 7 {
		t.Errorf("UnmarshalBinary: %v %+v", err, h)
	}
}

// TestOrbitTable writes and reads back a file with an ORBIT table: four
// dwords after the list table, counted at 0x14 and in the first record's
// offset (the layout of TRCUST 3.05A's files after ORBIT=(0,1)).
func TestOrbitTable(t *testing.T) {
	f := synthFile()
	f.Orbit = []uint32{0, 0, 0, 7}
	data, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	lists := HeaderSize + 3*ListEntrySize
	if got := le.Uint32(data[0x10:]); got != uint32(lists+16) {
		t.Errorf("first record at 0x%X, want 0x%X", got, lists+16)
	}
	if got := le.Uint32(data[0x14:]); got != 4 {
		t.Errorf("ORBIT dwords %d, want 4", got)
	}
	if got := le.Uint32(data[lists+12:]); got != 7 {
		t.Errorf("last ORBIT dword %d, want 7", got)
	}
	g, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(g.Orbit, f.Orbit) || len(g.Tracepoints) != 2 {
		t.Errorf("read back ORBIT table %v, %d records", g.Orbit, len(g.Tracepoints))
	}
}

// TestListOrder reads and writes a list table whose lists do not stand
// together (a TYPELIST, a GROUPLIST, a second TYPELIST: TRCUST 3.05A writes
// the entries in the TSF's order).
func TestListOrder(t *testing.T) {
	f := synthFile()
	f.ListOrder = nil
	f.Types = append(f.Types, ListItem{Name: "LATE", ID: 0x40})
	f.ListOrder = []ListKind{KindType, KindType, KindGroup, KindType}
	if len(f.Types) != 3 || len(f.Groups) != 1 {
		t.Fatalf("synthFile has %d types and %d groups", len(f.Types), len(f.Groups))
	}
	data, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if got := string(data[HeaderSize+3*ListEntrySize : HeaderSize+3*ListEntrySize+4]); got != "LATE" || data[HeaderSize+2*ListEntrySize+9] != byte(KindGroup) {
		t.Errorf("list table % x", data[HeaderSize:HeaderSize+4*ListEntrySize])
	}
	g, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(g.ListOrder, f.ListOrder) || g.GroupsFirst || len(g.Types) != 3 {
		t.Errorf("read back order %v, groups first %v, %d types", g.ListOrder, g.GroupsFirst, len(g.Types))
	}
	f.ListOrder = f.ListOrder[:3]
	if _, err := f.MarshalBinary(); err == nil {
		t.Error("a ListOrder that does not count the entries was written")
	}
}

// TestParseErrors damages a valid file one field at a time: each damage
// gives a FormatError at the damaged byte.
func TestParseErrors(t *testing.T) {
	good, err := synthFile().MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	first := int64(HeaderSize + 3*ListEntrySize)
	rec2 := first + RecordHeaderSize // the second record starts after the first, which has no RPN
	put16 := func(off int64, v uint16) func([]byte) []byte {
		return func(b []byte) []byte { le.PutUint16(b[off:], v); return b }
	}
	put32 := func(off int64, v uint32) func([]byte) []byte {
		return func(b []byte) []byte { le.PutUint32(b[off:], v); return b }
	}
	set := func(off int64, v byte) func([]byte) []byte {
		return func(b []byte) []byte { b[off] = v; return b }
	}
	for _, tc := range []struct {
		name   string
		damage func([]byte) []byte
		off    int64
		msg    string
	}{
		{"empty", func([]byte) []byte { return nil }, 0, "bad magic"},
		{"magic", set(1, 'X'), 0, "bad magic"},
		{"short header", func(b []byte) []byte { return b[:0x100] }, 0x100, "truncated header"},
		{"version", put32(4, 3), 4, "version 3"},
		{"ORBIT table past the end", set(0x15, 1), 475, "truncated ORBIT table"},
		{"ORBIT table not counted in the first record", set(0x14, 1), 0x10, "and 1 ORBIT dwords"},
		{"reserved 0x1A", set(0x1B, 1), 0x1A, "reserved field"},
		{"reserved 0x122", set(0x130, 9), 0x130, "reserved header byte"},
		{"module name padding", set(0x1E+20, 'x'), 0x1E + 20, "after its NUL"},
		{"module name unterminated", func(b []byte) []byte {
			for i := 0x1E; i < 0x11E; i++ {
				b[i] = 'a'
			}
			return b
		}, 0x11D, "has no NUL"},
		{"list count", put16(0x11E, 0x7FFF), int64(len(good)), "truncated list table"},
		{"first record", put32(0x10, 0x144), 0x10, "first record offset"},
		{"list kind", set(HeaderSize+9, 3), HeaderSize + 9, "kind 3"},
		{"list name unterminated", set(HeaderSize+ListEntrySize+8, 'x'), HeaderSize + ListEntrySize + 8, "has no NUL"},
		{"list name padding", set(HeaderSize+5, 'x'), HeaderSize + 5, "after its NUL"},
		{"record count", put32(0x0C, 1000), 0x0C, "record count 1000"},
		{"record count one more", put32(0x0C, 3), int64(len(good)), "truncated header"},
		{"record length", put16(first, 23), first, "length 23"},
		{"record reserved", set(first+21, 1), first + 21, "reserved byte"},
		{"rpn past end", func(b []byte) []byte { return b[:len(b)-1] }, rec2 + 18, "runs past the end"},
		{"unsorted", put32(first+6, 3), rec2 + 6, "records are sorted"},
		{"same address", func(b []byte) []byte { le.PutUint32(b[first+6:], 2); le.PutUint32(b[first+10:], 0x10); return b }, rec2 + 6, "a second tracepoint"},
		{"record bytes", put32(8, 5), 8, "record byte total"},
		{"trailing", func(b []byte) []byte { return append(b, 0) }, int64(len(good)), "goes on for 1 bytes"},
	} {
		data := tc.damage(bytes.Clone(good))
		_, err := Parse(data)
		var fe *FormatError
		if !errors.As(err, &fe) {
			t.Errorf("%s: got %v, want a FormatError", tc.name, err)
			continue
		}
		if fe.Off != tc.off || !strings.Contains(fe.Msg, tc.msg) {
			t.Errorf("%s: got %v, want offset 0x%X and %q", tc.name, err, tc.off, tc.msg)
		}
	}
}

// TestMarshalErrors lists what MarshalBinary refuses to write.
func TestMarshalErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*File)
		msg    string
	}{
		{"long module name", func(f *File) { f.ModName = strings.Repeat("m", 256) }, "at most 255"},
		{"NUL in module name", func(f *File) { f.ModName = "a\x00b" }, "NUL"},
		{"long list name", func(f *File) { f.Types[0].Name = "NINECHARS" }, "at most 8"},
		{"NUL in list name", func(f *File) { f.Groups[0].Name = "A\x00" }, "no NUL"},
		{"same address", func(f *File) { f.Tracepoints[1].Object, f.Tracepoints[1].Offset = 2, 0x10 }, "both at 00000002:00000010"},
		{"long RPN", func(f *File) { f.Tracepoints[0].RPN = make([]byte, MaxRecordRPN+1) }, "RPN program of 65514 bytes"},
	} {
		f := synthFile()
		tc.change(f)
		_, err := f.MarshalBinary()
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.msg)
		}
	}
	f := synthFile()
	f.Tracepoints[0].RPN = make([]byte, MaxRecordRPN)
	if _, err := f.MarshalBinary(); err != nil {
		t.Errorf("RPN of MaxRecordRPN bytes: %v", err)
	}
}

// TestSortByAddress checks the order of a TDF's records: by object, then
// offset, equal addresses in the order given (oracle d70, d79).
func TestSortByAddress(t *testing.T) {
	f := &File{Tracepoints: []Tracepoint{
		{Minor: 1, Object: 2, Offset: 0x10},
		{Minor: 2, Object: 1, Offset: 0x300},
		{Minor: 3, Object: 1, Offset: 0x20},
		{Minor: 4, Object: 1, Offset: 0x300},
	}}
	f.SortByAddress()
	var got []uint16
	for _, tp := range f.Tracepoints {
		got = append(got, tp.Minor)
	}
	if want := []uint16{3, 2, 4, 1}; !slices.Equal(got, want) {
		t.Errorf("minors in order %v, want %v", got, want)
	}
}
