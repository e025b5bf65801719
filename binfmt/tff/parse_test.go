package tff

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// synthBase returns a small synthetic TFF (made by MarshalBinary, not by
// TRCUST) with this layout:
//
//	0x3E  entry 0: minor 1, len 7, off 0x4E
//	0x46  entry 1: minor 2, len 4, off 0x55
//	0x4E  "ab" NUL "x" CR LF NUL
//	0x55  "cd" NUL NUL
//	0x59  end (89 bytes)
func synthBase(t *testing.T) []byte {
	t.Helper()
	f := &File{Major: 0x77, Records: []Record{
		{Minor: 2, Desc: []byte("cd")},
		{Minor: 1, Desc: []byte("ab"), Fmts: [][]byte{[]byte("x")}},
	}}
	b, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != 89 {
		t.Fatalf("synthetic base is %d bytes, want 89", len(b))
	}
	return b
}

// TestParseMalformed damages the synthetic file one way at a time. Parse
// must return a *FormatError at the given offset whose message holds msg,
// ParseLenient must report the same error first, and salvage the given
// number of records (-1: no File).
func TestParseMalformed(t *testing.T) {
	put16 := func(off int, v uint16) func([]byte) []byte {
		return func(b []byte) []byte { le.PutUint16(b[off:], v); return b }
	}
	put32 := func(off int, v uint32) func([]byte) []byte {
		return func(b []byte) []byte { le.PutUint32(b[off:], v); return b }
	}
	set := func(off int, c byte) func([]byte) []byte {
		return func(b []byte) []byte { b[off] = c; return b }
	}
	tests := []struct {
		name    string
		damage  func([]byte) []byte
		off     int64
		msg     string
		salvage int
	}{
		{"empty", func([]byte) []byte { return nil }, 0, `bad magic ""`, -1},
		{"short magic", func(b []byte) []byte { return b[:3] }, 0, `bad magic "TFF"`, -1},
		{"bad magic", set(3, '!'), 0, `bad magic "TFF!", want "TFF\x00"`, -1},
		{"truncated header", func(b []byte) []byte { return b[:40] }, 40, "truncated header: the file is 40 bytes, the header needs 62", -1},
		{"index offset", put32(8, 0x40), 8, "index offset field is 0x40, want 0x3E", 2},
		{"reserved text", set(15, 'E'), 15, `reserved header field differs from "Reserved -" and NULs (byte 0x45, want 0x65)`, 2},
		{"reserved NUL", set(61, 1), 61, "reserved header field differs", 2},
		{"count too large for file", put16(6, 0xFFFF), 89, "truncated index: the header says 65535 records, whose index needs bytes 0x3E-0x80035, but the file is 89 bytes", 2},
		{"count too small", put16(6, 1), 0x42, "record count 1 does not match the index: the first data block starts at 0x4E, which leaves room for 2 index entries", 1},
		{"count too large", put16(6, 3), 0x42, "record count 3 does not match the index", 2},
		{"entry outside file", put32(0x4A, 0x1000), 0x4A, "index entry 1 (minor 0x0002): data block 0x1000+4 lies outside the file (89 bytes)", 1},
		{"entry end outside file", put16(0x48, 5), 0x4A, "data block 0x55+5 lies outside the file", 1},
		{"block too short", put16(0x40, 1), 0x40, "index entry 0 (minor 0x0001): data length 1, a block needs at least 2 bytes", 1},
		{"first block misplaced", put32(0x42, 0x4F), 0x42, "index entry 0 (minor 0x0001): the first data block starts at 0x4F, want 0x4E right after the index", 2},
		{"overlap", put32(0x4A, 0x4E), 0x4A, "index entry 1 (minor 0x0002): data block at 0x4E overlaps the previous block or is out of index order (want 0x55)", 2},
		{"gap", func(b []byte) []byte { le.PutUint32(b[0x4A:], 0x56); le.PutUint16(b[0x48:], 3); return b }, 0x4A, "data block at 0x56 leaves a gap of 1 bytes after the previous block (want 0x55)", 2},
		{"unsorted", func(b []byte) []byte { le.PutUint16(b[0x3E:], 2); le.PutUint16(b[0x46:], 1); return b }, 0x46, "index entry 1: minor 0x0001 follows 0x0002; the index must be sorted by minor", 2},
		{"duplicate minor", put16(0x46, 1), 0x46, "index entry 1: duplicate minor 0x0001", 2},
		{"no closing NUL", set(0x54, 'z'), 0x54, "minor 0x0001: data block does not end with a NUL", 2},
		{"no DESC NUL", set(0x57, 'e'), 0x58, "minor 0x0002: no NUL after the DESC text", 2},
		{"FMT without CR LF", set(0x53, 'y'), 0x54, "minor 0x0001: FMT line at 0x51 is not ended by CR LF", 2},
		{"NUL in FMT", set(0x51, 0), 0x51, "minor 0x0001: NUL inside an FMT line", 2},
		{"count zero", put16(6, 0), 0x3E, "the header says 0 records, but the file goes on for 27 bytes after it", 0},
		{"trailing bytes", func(b []byte) []byte { return append(b, 0) }, 89, "the file goes on for 1 bytes after the last data block", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := tt.damage(synthBase(t))
			_, err := Parse(data)
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("Parse: got %v, want a *FormatError", err)
			}
			if fe.Off != tt.off || !strings.Contains(fe.Msg, tt.msg) {
				t.Errorf("Parse error %q at 0x%X\nwant %q at 0x%X", fe.Msg, fe.Off, tt.msg, tt.off)
			}
			f, probs := ParseLenient(data)
			if len(probs) == 0 || *probs[0] != *fe {
				t.Errorf("ParseLenient problems %v, want %v first", probs, fe)
			}
			n := -1
			if f != nil {
				n = len(f.Records)
			}
			if n != tt.salvage {
				t.Errorf("ParseLenient salvaged %d records, want %d (problems %v)", n, tt.salvage, probs)
			}
		})
	}
}

// TestParseLenientOverlap: overlapping blocks are read as they stand, and
// ParseLenient stops reading once the blocks read exceed the file's size,
// so that memory stays bounded by the input.
func TestParseLenientOverlap(t *testing.T) {
	const n = 2000
	b := make([]byte, HeaderSize+n*EntrySize)
	copy(b, Magic)
	le.PutUint16(b[6:], n)
	le.PutUint32(b[8:], IndexOffset)
	copy(b[12:], ReservedText)
	blockOff := len(b)
	block := append(bytes.Repeat([]byte("A"), 500), 0, 0)
	b = append(b, block...)
	for i := range n {
		e := b[HeaderSize+i*EntrySize:]
		le.PutUint16(e, uint16(i+1))
		le.PutUint16(e[2:], uint16(len(block)))
		le.PutUint32(e[4:], uint32(blockOff))
	}
	if _, err := Parse(b); err == nil {
		t.Fatal("Parse accepted overlapping blocks")
	}
	f, probs := ParseLenient(b)
	total := 0
	for _, r := range f.Records {
		total += contentLen(r)
	}
	if total > len(b) {
		t.Errorf("lenient records hold %d bytes, more than the %d-byte file", total, len(b))
	}
	if len(f.Records) == 0 || len(probs) < n-len(f.Records) {
		t.Errorf("%d records, %d problems", len(f.Records), len(probs))
	}
}

// contentLen is the number of bytes r holds.
func contentLen(r Record) int {
	n := len(r.Desc)
	for _, l := range r.Fmts {
		n += len(l)
	}
	return n
}

// TestParseCopies: the File does not share memory with the input.
func TestParseCopies(t *testing.T) {
	data := synthBase(t)
	f := mustParse(t, data)
	for i := range data {
		data[i] = 0xEE
	}
	if string(f.Records[0].Desc) != "ab" || string(f.Records[0].Fmts[0]) != "x" || string(f.Records[1].Desc) != "cd" {
		t.Errorf("records changed with the input: %+v", f.Records)
	}
}

func TestUnmarshalBinary(t *testing.T) {
	var f File
	if err := f.UnmarshalBinary(synthBase(t)); err != nil {
		t.Fatal(err)
	}
	if f.Major != 0x77 || len(f.Records) != 2 {
		t.Errorf("got %+v", f)
	}
	if err := f.UnmarshalBinary([]byte("nope")); err == nil {
		t.Error("UnmarshalBinary accepted garbage")
	}
}
