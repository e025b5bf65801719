package tff

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/golden"
)

// synthExample is the synthetic file of the worked example in docs/tff.md.
func synthExample() *File {
	return &File{Major: 0xC2, Records: []Record{
		{Minor: 0x8001, Desc: []byte("close")},
		{Minor: 0x0001, Desc: []byte("open"), Fmts: [][]byte{EncodeFMT([]byte("handle %W"))}},
	}}
}

// hexDump formats b as xxd does (and the oracle README's dumps).
func hexDump(b []byte) string {
	var s strings.Builder
	for off := 0; off < len(b); off += 16 {
		line := b[off:min(off+16, len(b))]
		fmt.Fprintf(&s, "%08x: ", off)
		for i := range 16 {
			if i < len(line) {
				fmt.Fprintf(&s, "%02x", line[i])
			} else {
				s.WriteString("  ")
			}
			if i%2 == 1 {
				s.WriteByte(' ')
			}
		}
		s.WriteByte(' ')
		for _, c := range line {
			if c < 0x20 || c > 0x7E {
				c = '.'
			}
			s.WriteByte(c)
		}
		s.WriteString("\n")
	}
	return s.String()
}

// TestWorkedExample writes the synthetic example, compares it with the
// golden hex dump, and checks that docs/tff.md shows that dump.
func TestWorkedExample(t *testing.T) {
	f := synthExample()
	b, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	dump := hexDump(b)
	golden.Check(t, filepath.Join("testdata", "golden", "synthetic_example.hex"), []byte(dump))
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "tff.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(doc, []byte(dump)) {
		t.Errorf("docs/tff.md does not show the worked example's dump:\n%s", dump)
	}
	g := mustParse(t, b)
	if g.Records[0].Minor != 1 || g.Records[1].Minor != 0x8001 {
		t.Errorf("records not sorted: %+v", g.Records)
	}
	if f.Records[0].Minor != 0x8001 {
		t.Error("MarshalBinary reordered the caller's records")
	}
}

// TestMarshalRoundTrip writes synthetic records with edge cases and reads
// them back.
func TestMarshalRoundTrip(t *testing.T) {
	f := &File{Major: 0xFFFF, Records: []Record{
		{Minor: 0xFFFF, Desc: []byte{}},
		{Minor: 0, Desc: []byte("zero"), Fmts: [][]byte{{}, {}}},
		{Minor: 7, Desc: []byte("cr lf apart"), Fmts: [][]byte{[]byte("a\r"), []byte("\nb"), []byte("\r"), []byte("\n")}},
		{Minor: 8, Desc: []byte("\x01\xff\r\n"), Fmts: [][]byte{[]byte("\x01P\x01W")}},
	}}
	b, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	g := mustParse(t, b)
	want := []Record{f.Records[1], f.Records[2], f.Records[3], f.Records[0]}
	if len(g.Records) != len(want) || g.Major != f.Major {
		t.Fatalf("got %+v", g)
	}
	for i, r := range g.Records {
		if !recordsEqual(r, want[i]) {
			t.Errorf("record %d: got %+v, want %+v", i, r, want[i])
		}
	}
	if b2, _ := g.MarshalBinary(); !bytes.Equal(b, b2) {
		t.Error("second write differs")
	}

	empty, err := (&File{Major: 1}).MarshalBinary()
	if err != nil || len(empty) != HeaderSize {
		t.Fatalf("empty file: %d bytes, %v", len(empty), err)
	}
	if g := mustParse(t, empty); g.Major != 1 || len(g.Records) != 0 {
		t.Errorf("empty file read back as %+v", g)
	}
	want62 := "5446460001000000" + "3e000000" + hex.EncodeToString([]byte(ReservedText)) + strings.Repeat("00", 40)
	if hex.EncodeToString(empty) != want62 {
		t.Errorf("empty file\n got %x\nwant %s", empty, want62)
	}
}

func recordsEqual(a, b Record) bool {
	if a.Minor != b.Minor || !bytes.Equal(a.Desc, b.Desc) || len(a.Fmts) != len(b.Fmts) {
		return false
	}
	for i := range a.Fmts {
		if !bytes.Equal(a.Fmts[i], b.Fmts[i]) {
			return false
		}
	}
	return true
}

func TestMarshalErrors(t *testing.T) {
	big := bytes.Repeat([]byte("d"), MaxBlockLen-2) // a block of exactly MaxBlockLen
	many := make([]Record, MaxRecords+1)
	for i := range many {
		many[i].Minor = uint16(i)
	}
	huge := make([]Record, MaxRecords)
	for i := range huge {
		huge[i] = Record{Minor: uint16(i), Desc: big}
	}
	tests := []struct {
		name string
		recs []Record
		msg  string // "" for no error
	}{
		{"largest block", []Record{{Minor: 1, Desc: big}}, ""},
		{"block too long", []Record{{Minor: 1, Desc: big, Fmts: [][]byte{{}}}}, "tff: minor 0x0001: data block of 65537 bytes, at most 65535 fit"},
		{"duplicate", []Record{{Minor: 3}, {Minor: 1}, {Minor: 3}}, "tff: duplicate minor 0x0003 (records 0 and 2)"},
		{"NUL in DESC", []Record{{Minor: 1, Desc: []byte("a\x00b")}}, "tff: minor 0x0001: DESC holds a NUL byte"},
		{"NUL in FMT", []Record{{Minor: 1, Fmts: [][]byte{{}, []byte("\x00")}}}, "tff: minor 0x0001: FMT 2 holds a NUL byte"},
		{"CR LF in FMT", []Record{{Minor: 1, Fmts: [][]byte{[]byte("a\r\nb")}}}, "tff: minor 0x0001: FMT 1 holds CR LF, which ends an FMT line"},
		{"too many records", many, "tff: 65536 records, at most 65535 fit"},
		{"over 4 GiB", huge, "tff: the file would be 4295360567 bytes, more than 4 GiB"},
	}
	for _, tt := range tests {
		_, err := (&File{Major: 1, Records: tt.recs}).MarshalBinary()
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.msg {
			t.Errorf("%s: got error %q, want %q", tt.name, got, tt.msg)
		}
	}
}
