package record

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestAppendCell: the fast cell writers of the fields rows give what
// appendCSV gives, for cells of every length up to 40 bytes (read 8 bytes
// at a time from 8 on), with each special byte at each place, and with
// little room left in the buffer.
func TestAppendCell(t *testing.T) {
	const alphabet = "ab09:/ ,\"\r\n\t\\.\x00\xc3\xa9\x85"
	rng := rand.New(rand.NewPCG(3, 4))
	cells := []string{"", `\.`, " a", "0123456789abcdef0123456789ab,def01", strings.Repeat("ab", 40), strings.Repeat("ab", 40) + "\"", "\ta", "a", "0xa8/0x1", "254:3417264209", "\u0085abcdefgh", "\u00a0abcdefgh", "abcdefg,", ",abcdefgh", "abcdefgh\"", "abcdefghijklmnop", "abcdefghijklmnopq"}
	for n := 0; n <= 40; n++ {
		base := []byte(strings.Repeat("abcdefghij", 4)[:n])
		for i := range n {
			for _, c := range []byte(",\"\r\n \t") {
				b := slices.Clone(base)
				b[i] = c
				cells = append(cells, string(b))
			}
		}
	}
	for range 20000 {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		cells = append(cells, string(b))
	}
	for _, s := range cells {
		for _, room := range []int{0, 3, 8, 16, 30, 60} {
			buf := make([]byte, 5, 5+room)
			copy(buf, "x,y,z")
			want := appendCSV(slices.Clone(buf), s)
			if got := appendCell(buf, s); !bytes.Equal(got, want) {
				t.Fatalf("appendCell(%q) with room %d = %q, want %q", s, room, got, want)
			}
		}
	}
	// The data cell: its words joined by blanks, quoted as a whole.
	f := &fieldsWriter{format: "csv", fields: []column{fData}}
	for i := 0; i+3 <= len(cells); i += 3 {
		words := cells[i : i+1+rng.IntN(3)]
		r := &Record{Data: words}
		got, err := f.appendCSVRow(make([]byte, 0, rng.IntN(64)), r, nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := appendCSV(nil, strings.Join(words, " ")); !bytes.Equal(got, want) {
			t.Fatalf("data %q: cell %q, want %q", words, got, want)
		}
	}
}
