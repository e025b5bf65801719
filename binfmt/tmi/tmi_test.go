package tmi

import (
	"bytes"
	"os"
	"reflect"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
)

// TestKey checks the key against what TRCUST 3.05A wrote for ORBIT=(a,b)
// (one tracepoint on emit, each pair tried with IBM's binary).
func TestKey(t *testing.T) {
	for _, tc := range []struct{ a, b, key uint32 }{
		{1, 2, 0x40}, {3, 4, 0x81}, {7, 9, 0x122}, {2, 1, 0x21}, {1, 1, 0x20}, {5, 2, 0x42},
		{2, 5, 0xA1}, {100, 1, 0x26}, {1, 100, 0xC80}, {3, 1, 0x21}, {6, 1, 0x22}, {9, 1, 0x23},
		{1, 3, 0x60}, {1, 4, 0x80}, {65535, 1, 0x2F}, {1, 65535, 0xFFE0}, {10, 10, 0x143}, {2, 0, 0x01},
		{0x10000, 1, 0x30}, {0x30000, 2, 0x51}, {0x8000, 2, 0x4F}, {1 << 31, 1, 0x3F},
	} {
		if got := Key(tc.a, tc.b); got != tc.key {
			t.Errorf("Key(%d, %d) = %#x, want %#x", tc.a, tc.b, got, tc.key)
		}
	}
}

// TestOracleD83 reads and rewrites the TMI of the TRCUST oracle's d83.
func TestOracleD83(t *testing.T) {
	data, err := os.ReadFile(corpus.Path(t, "corpus", "os2", "trcust-oracle", "d83_orbit2p", "d83.TMI"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	want := &File{Major: 0x42, ModName: "emitrep.dll", Records: []Record{{Key: 0x40, Object: 1, Offset: 0, Size: NoSize, Name: "emit"}}}
	if !reflect.DeepEqual(f, want) {
		t.Errorf("%+v, want %+v", f, want)
	}
	out, err := f.MarshalBinary()
	if err != nil || !bytes.Equal(out, data) {
		t.Errorf("rewritten: %v\n% X\nwant\n% X", err, out, data)
	}
}

// TestRoundTrip writes and reads a file of several records.
func TestRoundTrip(t *testing.T) {
	f := &File{Major: 0xFFFF, ModName: `C:\OS2\DLL\X.DLL`, Records: []Record{
		{Key: 0x40, Object: 1, Offset: 0xC58, Size: 0x37CA, Name: "@BSSPRTEMSG.C"},
		{Key: 0xFFEF, Object: 2, Offset: 0x8B0, Size: NoSize, Name: "2:8b0"},
	}}
	data, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if len(data) != HeaderSize+2*RecordFixedSize+14+6 {
		t.Errorf("%d bytes", len(data))
	}
	g, err := Parse(data)
	if err != nil || !reflect.DeepEqual(f, g) {
		t.Errorf("%v\n%+v\nwant %+v", err, g, f)
	}
}

// TestParseErrors checks the byte offsets of malformed files.
func TestParseErrors(t *testing.T) {
	good, _ := (&File{Major: 1, ModName: "m", Records: []Record{{Name: "ab"}}}).MarshalBinary()
	for _, tc := range []struct {
		name string
		data []byte
		off  int64
	}{
		{"short", good[:10], 10},
		{"magic", append([]byte("TDF\x00"), good[4:]...), 0},
		{"truncated record", good[:HeaderSize+10], HeaderSize},
		{"name past the end", good[:len(good)-1], HeaderSize + 16},
		{"no NUL", append(append([]byte{}, good[:len(good)-1]...), 'x'), int64(len(good) - 1)},
		{"trailing bytes", append(append([]byte{}, good...), 0), int64(len(good))},
		{"module name without NUL", func() []byte {
			b := append([]byte{}, good...)
			for i := 8; i < 8+ModNameSize; i++ {
				b[i] = 'm'
			}
			return b
		}(), 8 + ModNameSize - 1},
	} {
		_, err := Parse(tc.data)
		fe, ok := err.(*FormatError)
		if !ok || fe.Off != tc.off {
			t.Errorf("%s: %v, want an error at offset %d", tc.name, err, tc.off)
		}
	}
	if _, err := (&File{ModName: string(make([]byte, ModNameSize))}).MarshalBinary(); err == nil {
		t.Error("a module name that fills the field was written")
	}
}

// FuzzParse checks that Parse never panics and that what it reads writes
// back to the same bytes.
func FuzzParse(f *testing.F) {
	good, _ := (&File{Major: 1, ModName: "m", Records: []Record{{Key: 1, Name: "ab"}}}).MarshalBinary()
	f.Add(good)
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := Parse(data)
		if err != nil {
			return
		}
		out, err := g.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if g2, err := Parse(out); err != nil || !reflect.DeepEqual(g, g2) {
			t.Fatalf("round trip: %v", err)
		}
	})
}

// TestTDFID checks that the TDFID stands after the 256-byte module name
// (at 0x108, as TRCUST 3.05A writes it) and is read back.
func TestTDFID(t *testing.T) {
	data, err := (&File{Major: 1, ModName: "emitrep.dll", TDFID: 0x1234}).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if data[0x108] != 0x34 || data[0x109] != 0x12 {
		t.Errorf("bytes at 0x108: % x", data[0x108:0x10A])
	}
	f, err := Parse(data)
	if err != nil || f.TDFID != 0x1234 || f.ModName != "emitrep.dll" {
		t.Errorf("read back %+v, %v", f, err)
	}
}
