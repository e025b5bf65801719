package stda

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzParse feeds arbitrary bytes to Parse. It must not panic or hang, the
// data it returns must fit in the input, and whatever it reads must come
// back unchanged after a trip through the Writer.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.stda"))
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("SYSTRACE\x0e\x00\x1d\x00\x0e\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := Parse(data)
		if b == nil {
			if err == nil {
				t.Fatal("nil Buffer and nil error")
			}
			return
		}
		total := 0
		for _, r := range b.Records {
			total += RecordSize(b.Format, &r)
			if r.Offset < int64(b.First) || r.Offset > int64(b.Last) {
				t.Fatalf("record offset %#x outside the area", r.Offset)
			}
		}
		if total > b.AreaSize() {
			t.Fatalf("records take %d bytes, the area has %d", total, b.AreaSize())
		}
		if err != nil {
			if _, ok := err.(*FormatError); !ok {
				t.Fatalf("error %T, want *FormatError", err)
			}
		}

		// Round trip: the records written again into a buffer of the same
		// size read back the same (the Writer keeps the newest that fit
		// beside its end marker).
		w, werr := NewWriter(b.Format, int(b.Last)+1)
		if werr != nil {
			return // area too small for the Writer's two trailers
		}
		var kept []Record
		for _, r := range b.Records {
			if err := w.Write(r); err != nil {
				continue
			}
			kept = append(kept, r)
		}
		kept = kept[len(kept)-w.Len():]
		b2, err := Parse(w.Bytes())
		if err != nil {
			t.Fatalf("re-read: %v", err)
		}
		if len(b2.Records) != len(kept) {
			t.Fatalf("re-read %d records, wrote %d", len(b2.Records), len(kept))
		}
		for i := range kept {
			if g, w := normalize(b.Format, b2.Records[i]), normalize(b.Format, kept[i]); !reflect.DeepEqual(g, w) {
				t.Fatalf("record %d:\n got %+v\nwant %+v", i, g, w)
			}
		}
	})
}
