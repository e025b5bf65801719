package stda

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/golden"
)

// dump renders a parse result as text for the golden files.
func dump(b *Buffer, err error) string {
	var sb strings.Builder
	if b == nil {
		fmt.Fprintf(&sb, "error: %v\n", err)
		return sb.String()
	}
	fmt.Fprintf(&sb, "format %v FIRST %#04x LAST %#04x NEXT %#04x area %d\n", b.Format, b.First, b.Last, b.Next, b.AreaSize())
	if b.Format == FormatNew {
		fmt.Fprintf(&sb, "trace on  %v\ntrace off %v\n", b.TraceOn, b.TraceOff)
	}
	for i, r := range b.Records {
		fmt.Fprintf(&sb, "%d @%#04x time %s pid %04X flags %02X(%s) major %02X minor %04X len %d data % x\n",
			i, r.Offset, r.Time, r.PID, r.Flags, FlagString(r.Flags), r.Major, r.Minor, len(r.Data), r.Data)
	}
	if b.End >= 0 {
		fmt.Fprintf(&sb, "end marker @%#04x\n", b.End)
	} else {
		fmt.Fprintf(&sb, "no end marker\n")
	}
	if err != nil {
		fmt.Fprintf(&sb, "error: %v\n", err)
	}
	return sb.String()
}

func mustWriter(t testing.TB, f Format, size int) *Writer {
	t.Helper()
	w, err := NewWriter(f, size)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func mustWrite(t testing.TB, w *Writer, recs ...Record) {
	t.Helper()
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatalf("Write(%+v): %v", r, err)
		}
	}
}

// Spec worked example (os2-stda-trace-buffer.txt, Remarks): FIRST is byte 14
// (old format), NEXT is byte 26. The newest record has a trailer at 18-25,
// a 2-byte time stamp at 16-17 and 4 bytes of data of which 2 lie at 14-15
// and the other 2 end at LAST. After NEXT come a time stamp and a trailer
// with data length 0, then other trace records, then the wrapped data.
var (
	specNew = Record{Flags: 0x04, PID: 0x0021, Minor: 0x0081, Major: 0xC2,
		Time: Timestamp{Len: 2, Seconds: 17, Hundredths: 42}, Data: []byte{0xD0, 0xD1, 0xD2, 0xD3}}
	specMid = Record{Flags: 0x0C, PID: 0x0011, Minor: 0x0001, Major: 0xC2,
		Time: Timestamp{Len: 2, Seconds: 16, Hundredths: 5},
		Data: []byte("0123456789abcdef")}
	specOld = Record{Flags: 0x00, PID: 0x0000, Minor: 0x0030, Major: 0x10,
		Time: Timestamp{Len: 2, Seconds: 15, Hundredths: 99}}
)

// specExampleBytes is the spec figure written out byte by byte (synthetic:
// the figure gives positions, not values; the values are ours).
func specExampleBytes() []byte {
	b := make([]byte, 64) // LAST = 63
	copy(b, "SYSTRACE")
	binary.LittleEndian.PutUint16(b[8:], 14)  // FIRST
	binary.LittleEndian.PutUint16(b[10:], 63) // LAST
	binary.LittleEndian.PutUint16(b[12:], 26) // NEXT
	// newest record: data D2 D3 at 14-15 (D0 D1 wrapped to 62-63)
	b[14], b[15] = 0xD2, 0xD3
	b[16], b[17] = 17, 42                                          // time stamp: seconds, hundredths
	copy(b[18:], []byte{0x04, 0x21, 0x00, 0x81, 0x00, 4, 0, 0xC2}) // trailer, DATA LENGTH 4
	// 26-27: the stale time stamp of an older record, 28-35: the trailer
	// with DATA LENGTH 0 (and major 0): the end marker.
	b[26], b[27] = 15, 99
	// other trace records: 16 bytes of data, time stamp, trailer at 36-61
	copy(b[36:], "0123456789abcdef")
	b[52], b[53] = 16, 5
	copy(b[54:], []byte{0x0C, 0x11, 0x00, 0x01, 0x00, 16, 0, 0xC2})
	b[62], b[63] = 0xD0, 0xD1 // the wrapped 2 bytes, ending at LAST
	return b
}

func specExampleWriter(t testing.TB) *Writer {
	w := mustWriter(t, FormatOld, 64)
	if err := w.SetNext(26); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, w, specOld, specMid, specNew)
	return w
}

func TestSpecWorkedExample(t *testing.T) {
	want := specExampleBytes()
	w := specExampleWriter(t)
	if got := w.Bytes(); !bytes.Equal(got, want) {
		t.Fatalf("writer layout differs from the spec figure:\n got % x\nwant % x", got, want)
	}
	if w.Dropped() != 1 || w.Len() != 2 || w.Next() != 26 {
		t.Errorf("writer state: dropped %d len %d next %d, want 1 2 26", w.Dropped(), w.Len(), w.Next())
	}

	// The walk of the Remarks: from NEXT 26 the trailer (distance 12 to
	// FIRST) is contiguous and NEXT becomes 18; the time stamp (distance 4)
	// is contiguous and NEXT becomes 16; the 4 data bytes (distance 2) wrap:
	// 2 bytes adjacent, 2 ending at LAST, so NEXT becomes 62.
	r := &backReader{data: want, lo: 14, hi: 64, pos: 26, budget: 50}
	steps := []struct {
		n, wantOff, wantPos int
		want                []byte
	}{
		{8, 18, 18, want[18:26]},
		{2, 16, 16, []byte{17, 42}},
		{4, 62, 62, []byte{0xD0, 0xD1, 0xD2, 0xD3}},
	}
	for i, s := range steps {
		got, off := r.read(s.n)
		if off != s.wantOff || r.pos != s.wantPos || !bytes.Equal(got, s.want) {
			t.Errorf("step %d: read(%d) = % x at %d, pos %d; want % x at %d, pos %d", i, s.n, got, off, r.pos, s.want, s.wantOff, s.wantPos)
		}
	}

	b, err := Parse(want)
	if err != nil {
		t.Fatal(err)
	}
	wantRecs := []Record{specMid, specNew}
	wantRecs[0].Offset, wantRecs[1].Offset = 36, 62
	if !reflect.DeepEqual(b.Records, wantRecs) {
		t.Errorf("records:\n got %+v\nwant %+v", b.Records, wantRecs)
	}
	if b.End != 28 {
		t.Errorf("End = %d, want 28", b.End)
	}

	// The same figure read with the trailer at 28 as an ordinary record
	// (major 0x10, length 0): the records now fill the area exactly, and
	// the walk ends cleanly when it comes back to NEXT.
	full := append([]byte(nil), want...)
	copy(full[28:], []byte{0x00, 0x00, 0x00, 0x30, 0x00, 0, 0, 0x10})
	b, err = Parse(full)
	if err != nil {
		t.Fatal(err)
	}
	specOldAt := specOld
	specOldAt.Offset = 26
	if got := append([]Record{specOldAt}, wantRecs...); !reflect.DeepEqual(b.Records, got) {
		t.Errorf("tiled records:\n got %+v\nwant %+v", b.Records, got)
	}
	if b.End != -1 {
		t.Errorf("tiled End = %d, want -1", b.End)
	}
}

// fixture is a synthetic STDA built by the Writer (and sometimes patched).
type fixture struct {
	name  string
	build func(t testing.TB) []byte
}

func fixtures() []fixture {
	return []fixture{
		{"spec-example", func(t testing.TB) []byte { return specExampleWriter(t).Bytes() }},
		{"old-empty", func(t testing.TB) []byte { return mustWriter(t, FormatOld, 0x40).Bytes() }},
		{"new-empty", func(t testing.TB) []byte {
			w := mustWriter(t, FormatNew, 0x40)
			w.SetTraceTimes(TraceTime{1995, 3, 1, 9, 30, 0, 0}, TraceTime{1995, 3, 1, 9, 31, 2, 50})
			return w.Bytes()
		}},
		{"old-wrapped", func(t testing.TB) []byte {
			w := mustWriter(t, FormatOld, 0x60)
			mustWrite(t, w, genRecords(rand.New(rand.NewPCG(1, 2)), FormatOld, 20, 12)...)
			return w.Bytes()
		}},
		{"new-wrapped", func(t testing.TB) []byte {
			w := mustWriter(t, FormatNew, 0x80)
			w.SetTraceTimes(TraceTime{1996, 12, 31, 23, 59, 58, 1}, TraceTime{1997, 1, 1, 0, 0, 3, 99})
			if err := w.SetNext(0x70); err != nil {
				t.Fatal(err)
			}
			mustWrite(t, w, genRecords(rand.New(rand.NewPCG(3, 4)), FormatNew, 25, 14)...)
			return w.Bytes()
		}},
		{"new-no-time", func(t testing.TB) []byte {
			w := mustWriter(t, FormatNew, 0x50)
			mustWrite(t, w,
				Record{Flags: FlagNoTime | FlagDynamic, PID: 5, Minor: 1, Major: 0x42, Data: []byte{0, 2, 0, 0x34, 0x12}},
				Record{Flags: FlagNoTime, PID: 0, Minor: 2, Major: 0x42},
				Record{Flags: FlagExternal, PID: 6, Minor: 3, Major: 0x42, Time: Timestamp{4, 1, 2, 3, 4}, Data: []byte{9}})
			return w.Bytes()
		}},
		{"end-marker-middle", func(t testing.TB) []byte {
			// Five records, then the trailer of the third (from the oldest)
			// turned into an end marker: only the two newest are read.
			w := mustWriter(t, FormatOld, 0x80)
			var offs []int
			for i := range 5 {
				r := Record{PID: uint16(i), Minor: uint16(0x10 + i), Major: 0x77, Time: Timestamp{Len: 2, Seconds: uint8(i), Hundredths: 10}, Data: bytes.Repeat([]byte{byte(i)}, i+1)}
				mustWrite(t, w, r)
				offs = append(offs, w.Next()) // end of record i
			}
			b := w.Bytes()
			tr := offs[2] - TrailerSize
			copy(b[tr:tr+TrailerSize], []byte{0x00, 0x02, 0x00, 0x12, 0x00, 0, 0, 0})
			return b
		}},
		{"tiled-full", func(t testing.TB) []byte {
			// Four records of 10 bytes (2 data bytes, no time stamp) in a
			// 48-byte area leave exactly the 8 bytes of the end marker.
			// Those are then overwritten with the trailer of a record with
			// no data and no time stamp: the five records fill the area,
			// and the walk stops cleanly when it is back at NEXT.
			w := mustWriter(t, FormatOld, FirstOld+48)
			if err := w.SetNext(FirstOld + 20); err != nil {
				t.Fatal(err)
			}
			for i := range 4 {
				mustWrite(t, w, Record{Flags: FlagNoTime, PID: 1, Minor: uint16(i), Major: 0x31, Data: []byte{byte(i), 0xAA}})
			}
			b := w.Bytes()
			end := FirstOld + 12 // 20 - 8: just below the oldest record
			if !bytes.Equal(b[end:end+8], make([]byte, 8)) {
				t.Fatalf("no end marker at %#x", end)
			}
			copy(b[end:end+8], []byte{FlagNoTime, 9, 0, 0x99, 0, 0, 0, 0x31})
			return b
		}},
		{"corrupt-no-end", func(t testing.TB) []byte {
			// The end marker overwritten with a record that claims 20
			// bytes of data: it would reach back past NEXT.
			w := mustWriter(t, FormatOld, 0x40)
			mustWrite(t, w, Record{PID: 1, Minor: 1, Major: 0x50, Time: Timestamp{Len: 2, Seconds: 1}, Data: []byte{1, 2, 3}})
			b := w.Bytes()
			// the end marker is the 8 bytes ending at LAST
			copy(b[0x38:], []byte{0x00, 1, 0, 2, 0, 40, 0, 0x50})
			return b
		}},
		{"corrupt-length", func(t testing.TB) []byte {
			w := mustWriter(t, FormatNew, 0x40)
			mustWrite(t, w,
				Record{Minor: 1, Major: 0x50, Time: Timestamp{4, 1, 1, 1, 1}, Data: []byte{1}},
				Record{Minor: 2, Major: 0x50, Time: Timestamp{4, 2, 2, 2, 2}, Data: []byte{2}},
			)
			b := w.Bytes()
			// the oldest record's trailer claims 0x1234 bytes
			copy(b[FirstNew+5+5:], []byte{0x34, 0x12})
			return b
		}},
		{"corrupt-next", func(t testing.TB) []byte {
			b := mustWriter(t, FormatOld, 0x40).Bytes()
			binary.LittleEndian.PutUint16(b[12:], 0x41)
			return b
		}},
		{"corrupt-last", func(t testing.TB) []byte {
			b := mustWriter(t, FormatNew, 0x40).Bytes()
			binary.LittleEndian.PutUint16(b[10:], 0x40)
			return b
		}},
	}
}

// genRecords returns n pseudo-random records for format f with data of up
// to maxData bytes.
func genRecords(rng *rand.Rand, f Format, n, maxData int) []Record {
	var recs []Record
	for range n {
		r := Record{
			Flags: byte(rng.IntN(0x20)),
			PID:   uint16(rng.IntN(0x100)),
			Minor: uint16(rng.IntN(0x10000)),
			Major: byte(1 + rng.IntN(0xFF)),
		}
		r.Data = make([]byte, rng.IntN(maxData+1))
		for i := range r.Data {
			r.Data[i] = byte(rng.IntN(256))
		}
		if r.Flags&FlagNoTime == 0 {
			r.Time.Len = uint8(f.TimeLen())
			r.Time.Seconds, r.Time.Hundredths = uint8(rng.IntN(60)), uint8(rng.IntN(100))
			if f == FormatNew {
				r.Time.Hours, r.Time.Minutes = uint8(rng.IntN(24)), uint8(rng.IntN(60))
			}
		}
		recs = append(recs, r)
	}
	return recs
}

// TestGolden builds every synthetic fixture, checks it against the copy in
// testdata (so a change in the Writer's layout shows), parses the copy and
// compares the dump with the golden file. Run with -update to rewrite both.
func TestGolden(t *testing.T) {
	for _, fx := range fixtures() {
		t.Run(fx.name, func(t *testing.T) {
			bin := filepath.Join("testdata", "synthetic-"+fx.name+".stda")
			gold := filepath.Join("testdata", "synthetic-"+fx.name+".golden")
			built := fx.build(t)
			golden.Check(t, bin, built)
			data, err := os.ReadFile(bin)
			if err != nil {
				t.Fatal(err)
			}
			b, err := Parse(data)
			got := "# synthetic fixture (built by stda_test.go, no real STDA is public)\n" + dump(b, err)
			golden.Check(t, gold, []byte(got))
		})
	}
}

func normalize(f Format, r Record) Record {
	r.Offset = 0
	if len(r.Data) == 0 {
		r.Data = nil
	}
	if r.Flags&FlagNoTime != 0 {
		r.Time = Timestamp{}
	} else {
		r.Time.Len = uint8(f.TimeLen())
		if f == FormatOld {
			r.Time.Hours, r.Time.Minutes = 0, 0
		}
	}
	return r
}

// TestRoundTrip writes pseudo-random records into buffers of both formats,
// several sizes and start positions, and checks that Parse gives back the
// records the Writer kept, oldest first, at the offsets they were written.
func TestRoundTrip(t *testing.T) {
	for _, f := range []Format{FormatOld, FormatNew} {
		for _, size := range []int{f.First() + 16, f.First() + 37, 0x100, 0x1000, MaxSize} {
			for seed := range uint64(6) {
				t.Run(fmt.Sprintf("%v/%d/%d", f, size, seed), func(t *testing.T) {
					rng := rand.New(rand.NewPCG(seed, uint64(size)))
					w := mustWriter(t, f, size)
					if seed%2 == 1 {
						if err := w.SetNext(f.First() + rng.IntN(size-f.First())); err != nil {
							t.Fatal(err)
						}
					}
					area := size - f.First()
					maxData := max(0, min(300, area-2*TrailerSize))
					var written []Record
					for _, r := range genRecords(rng, f, 200, maxData) {
						if r.Major == 0 && len(r.Data) == 0 {
							continue
						}
						r.Offset = int64(w.Next())
						err := w.Write(r)
						if RecordSize(f, &r)+TrailerSize > area {
							if !errors.Is(err, ErrTooLarge) {
								t.Fatalf("Write of a %d-byte record into a %d-byte area: err = %v, want ErrTooLarge", RecordSize(f, &r), area, err)
							}
							continue
						}
						if err != nil {
							t.Fatal(err)
						}
						written = append(written, r)
					}
					if w.Len()+w.Dropped() != len(written) {
						t.Fatalf("Len %d + Dropped %d != %d written", w.Len(), w.Dropped(), len(written))
					}
					b, err := Parse(w.Bytes())
					if err != nil {
						t.Fatal(err)
					}
					want := written[len(written)-w.Len():]
					if len(b.Records) != len(want) {
						t.Fatalf("read %d records, want %d", len(b.Records), len(want))
					}
					for i := range want {
						if b.Records[i].Offset != want[i].Offset {
							t.Errorf("record %d: offset %#x, want %#x", i, b.Records[i].Offset, want[i].Offset)
						}
						if g, w := normalize(f, b.Records[i]), normalize(f, want[i]); !reflect.DeepEqual(g, w) {
							t.Fatalf("record %d:\n got %+v\nwant %+v", i, g, w)
						}
					}
					if b.End < 0 {
						t.Errorf("no end marker found")
					}
				})
			}
		}
	}
}

func TestWrapEveryPart(t *testing.T) {
	// One record placed at every start position of a small area, so that
	// the wrap falls inside the data, the time stamp and the trailer in
	// turn (and on every boundary).
	for _, f := range []Format{FormatOld, FormatNew} {
		area := 40
		for start := range area {
			w := mustWriter(t, f, f.First()+area)
			if err := w.SetNext(f.First() + start); err != nil {
				t.Fatal(err)
			}
			r := Record{Flags: 0x05, PID: 0x1234, Minor: 0xABCD, Major: 0xEE, Time: Timestamp{4, 1, 2, 3, 4}, Data: []byte{1, 2, 3, 4, 5, 6, 7}}
			mustWrite(t, w, r)
			b, err := Parse(w.Bytes())
			if err != nil {
				t.Fatalf("%v start %d: %v", f, start, err)
			}
			if len(b.Records) != 1 {
				t.Fatalf("%v start %d: %d records", f, start, len(b.Records))
			}
			got := b.Records[0]
			if got.Offset != int64(f.First()+start) {
				t.Errorf("%v start %d: offset %d", f, start, got.Offset)
			}
			if g, w := normalize(f, got), normalize(f, r); !reflect.DeepEqual(g, w) {
				t.Errorf("%v start %d:\n got %+v\nwant %+v", f, start, g, w)
			}
		}
	}
}

func TestHeaderErrors(t *testing.T) {
	good := mustWriter(t, FormatOld, 0x40).Bytes()
	patch := func(off int, v uint16) []byte {
		b := append([]byte(nil), good...)
		binary.LittleEndian.PutUint16(b[off:], v)
		return b
	}
	tests := []struct {
		name    string
		data    []byte
		wantOff int64
		wantMsg string
	}{
		{"empty", nil, 0, "truncated header"},
		{"short", good[:13], 13, "truncated header"},
		{"magic", append([]byte("SYSTRACX"), good[8:]...), 0, "identifier"},
		{"first", patch(8, 0x10), 8, "FIRST is 0x0010"},
		{"last outside", patch(10, 0x40), 10, "LAST 0x0040 lies outside the 64-byte buffer"},
		{"last below first", patch(10, 0x0D), 10, "LAST 0x000d leaves"},
		{"area too small", patch(10, 0x14), 10, "less than 8 bytes"},
		{"next below first", patch(12, 0x0D), 12, "NEXT 0x000d lies outside"},
		{"next above last+1", patch(12, 0x41), 12, "NEXT 0x0041 lies outside"},
		{"new header truncated", patch(8, FirstNew)[:0x1C], 10, "LAST 0x003f lies outside the 28-byte buffer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := Parse(tt.data)
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("Parse: err = %v, want a *FormatError", err)
			}
			if b != nil {
				t.Errorf("Parse returned a Buffer with a header error")
			}
			if fe.Off != tt.wantOff || !strings.Contains(fe.Msg, tt.wantMsg) {
				t.Errorf("got %v (offset %d), want offset %d and %q", fe, fe.Off, tt.wantOff, tt.wantMsg)
			}
		})
	}
}

// TestNextAtLastPlusOne: NEXT may be LAST+1 (the newest record ends at
// LAST); the walk is the same as with NEXT at FIRST.
func TestNextAtLastPlusOne(t *testing.T) {
	w := mustWriter(t, FormatOld, 0x30)
	if err := w.SetNext(0x30 - 12); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, w, Record{Minor: 7, Major: 9, Time: Timestamp{Len: 2, Seconds: 3}, Data: []byte{1, 2}})
	b := w.Bytes()
	if w.Next() != FirstOld {
		t.Fatalf("Next = %#x, want FIRST", w.Next())
	}
	binary.LittleEndian.PutUint16(b[12:], 0x30)
	buf, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(buf.Records) != 1 || buf.Records[0].Minor != 7 || buf.Records[0].Offset != 0x30-12 {
		t.Errorf("records %+v", buf.Records)
	}
}

// TestExactFit: a record that takes exactly the bytes left before NEXT is
// read, and the walk ends cleanly there.
func TestExactFit(t *testing.T) {
	w := mustWriter(t, FormatOld, 0x40)
	mustWrite(t, w, Record{Minor: 1, Major: 0x50, Time: Timestamp{Len: 2}, Data: []byte{1}})
	b := w.Bytes()
	copy(b[0x38:], []byte{FlagNoTime, 0, 0, 9, 0, 31, 0, 0x51}) // 31 bytes remain
	buf, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(buf.Records) != 2 || buf.Records[0].Minor != 9 || len(buf.Records[0].Data) != 31 || buf.Records[0].Offset != 0x19 || buf.End != -1 {
		t.Errorf("got %d records, first %+v, End %d", len(buf.Records), buf.Records[0], buf.End)
	}
}

// TestWalkErrors: corrupt buffers end the walk with a positioned error, and
// the records read before it are kept.
func TestWalkErrors(t *testing.T) {
	tests := []struct {
		name     string
		build    func() []byte
		wantOff  int64
		wantMsg  string
		wantRecs int
	}{
		{"no end marker: 8-byte records do not tile a 44-byte area", func() []byte {
			// Without the bound on the walk this buffer would be read
			// round and round.
			b := make([]byte, FirstOld+44)
			copy(b, Magic)
			binary.LittleEndian.PutUint16(b[8:], FirstOld)
			binary.LittleEndian.PutUint16(b[10:], uint16(len(b)-1))
			binary.LittleEndian.PutUint16(b[12:], FirstOld+40)
			for i := FirstOld; i+8 <= len(b); i += 8 {
				copy(b[i:], []byte{FlagNoTime, 0, 0, 1, 0, 0, 0, 0x33})
			}
			return b
		}, FirstOld, "only 4 bytes remain", 5},
		{"length longer than the buffer", func() []byte {
			w := mustWriter(t, FormatOld, 0x40)
			mustWrite(t, w, Record{Minor: 1, Major: 0x50, Time: Timestamp{Len: 2}, Data: []byte{1}}, Record{Minor: 2, Major: 0x50, Time: Timestamp{Len: 2}, Data: []byte{2}})
			b := w.Bytes()
			binary.LittleEndian.PutUint16(b[FirstOld+1+2+5:], 0xFFFF)
			return b
		}, FirstOld + 3, "too long for the 50-byte circular area", 1},
		{"record reaching past NEXT", func() []byte {
			w := mustWriter(t, FormatOld, 0x40)
			mustWrite(t, w, Record{Minor: 1, Major: 0x50, Time: Timestamp{Len: 2}, Data: []byte{1}})
			b := w.Bytes()
			copy(b[0x38:], []byte{0, 0, 0, 9, 0, 38, 0, 0x51}) // needs 38+2 bytes, 50-11-8 = 31 remain
			return b
		}, 0x38, "would reach back past NEXT", 1},
		{"record one byte longer than what is left", func() []byte {
			w := mustWriter(t, FormatOld, 0x40)
			mustWrite(t, w, Record{Minor: 1, Major: 0x50, Time: Timestamp{Len: 2}, Data: []byte{1}})
			b := w.Bytes()
			copy(b[0x38:], []byte{FlagNoTime, 0, 0, 9, 0, 32, 0, 0x51}) // 31 bytes remain
			return b
		}, 0x38, "would reach back past NEXT", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := Parse(tt.build())
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v, want *FormatError", err)
			}
			if b == nil {
				t.Fatal("no Buffer returned with a walk error")
			}
			if fe.Off != tt.wantOff || !strings.Contains(fe.Msg, tt.wantMsg) {
				t.Errorf("got %v, want offset %#x and %q", fe, tt.wantOff, tt.wantMsg)
			}
			if len(b.Records) != tt.wantRecs {
				t.Errorf("kept %d records, want %d", len(b.Records), tt.wantRecs)
			}
		})
	}
}

func TestWriterErrors(t *testing.T) {
	if _, err := NewWriter(Format(0), 100); err == nil {
		t.Error("NewWriter accepted format 0")
	}
	if _, err := NewWriter(FormatOld, FirstOld+15); err == nil {
		t.Error("NewWriter accepted a 15-byte area")
	}
	if _, err := NewWriter(FormatNew, MaxSize+1); err == nil {
		t.Error("NewWriter accepted a size over 64 KiB")
	}
	w := mustWriter(t, FormatOld, FirstOld+30)
	if err := w.SetNext(FirstOld + 30); err == nil {
		t.Error("SetNext accepted LAST+1")
	}
	if err := w.Write(Record{Major: 0}); err == nil {
		t.Error("Write accepted a record that reads as the end marker")
	}
	if err := w.Write(Record{Major: 1, Data: make([]byte, 13)}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Write of 13+2+8 bytes into 30 (8 kept for the end marker): err = %v, want ErrTooLarge", err)
	}
	if err := w.Write(Record{Major: 1, Data: make([]byte, 12)}); err != nil {
		t.Errorf("Write of 12+2+8 bytes into 30: %v", err)
	}
	if err := w.SetNext(FirstOld); err == nil {
		t.Error("SetNext accepted after Write")
	}
	if err := w.Write(Record{Major: 1, Data: make([]byte, 0x10000)}); err == nil {
		t.Error("Write accepted 64 KiB of data")
	}
}

func TestFlagString(t *testing.T) {
	tests := []struct {
		f    byte
		want string
	}{
		{0x00, "kernel,real,static"},
		{0x0C, "kernel,protect,dynamic"},
		{0x1F, "external,protect,dynamic,no-time,incomplete"},
		{0xA2, "kernel,real,static,no-time,reserved=A0"},
	}
	for _, tt := range tests {
		if got := FlagString(tt.f); got != tt.want {
			t.Errorf("FlagString(%#x) = %q, want %q", tt.f, got, tt.want)
		}
	}
}

func TestTimestampString(t *testing.T) {
	tests := []struct {
		ts   Timestamp
		want string
	}{
		{Timestamp{}, "-"},
		{Timestamp{Len: 2, Seconds: 7, Hundredths: 5}, "07.05"},
		{Timestamp{4, 23, 59, 1, 99}, "23:59:01.99"},
	}
	for _, tt := range tests {
		if got := tt.ts.String(); got != tt.want {
			t.Errorf("%+v.String() = %q, want %q", tt.ts, got, tt.want)
		}
	}
}
