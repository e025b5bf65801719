package tff

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
)

// addOracleSeeds adds every distinct oracle TFF to the fuzz corpus, read at
// run time from the shared folder (nothing is copied into testdata).
func addOracleSeeds(f *testing.F) {
	if corpus.Root() == "" {
		return
	}
	dir := corpus.Path(f, "corpus", "os2", "trcust-oracle")
	paths, err := filepath.Glob(filepath.Join(dir, "*", "*.TFF"))
	if err != nil {
		f.Fatal(err)
	}
	seen := map[string]bool{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		if !seen[string(data)] {
			seen[string(data)] = true
			f.Add(data)
		}
	}
}

// FuzzParse: Parse and ParseLenient never panic; what Parse accepts writes
// back to the same bytes; ParseLenient agrees with Parse; the views of a
// lenient File do not panic, and what it writes is canonical.
func FuzzParse(f *testing.F) {
	addOracleSeeds(f)
	ex, err := synthExample().MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(ex)
	f.Add([]byte{})
	f.Add([]byte(Magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse(data)
		lf, probs := ParseLenient(data)
		if err == nil {
			out, err := file.MarshalBinary()
			if err != nil {
				t.Fatalf("MarshalBinary of a parsed file: %v", err)
			}
			if !bytes.Equal(out, data) {
				t.Fatalf("Parse accepted a file that does not write back the same\n in %x\nout %x", data, out)
			}
			if len(probs) != 0 {
				t.Fatalf("ParseLenient found %v where Parse found nothing", probs)
			}
		} else if len(probs) == 0 || probs[0].Error() != err.Error() {
			t.Fatalf("Parse: %v; ParseLenient: %v", err, probs)
		}
		if lf == nil {
			return
		}
		total := 0
		for _, r := range lf.Records {
			total += contentLen(r)
		}
		if total > len(data) {
			t.Fatalf("lenient records hold %d bytes, input is %d", total, len(data))
		}
		if err := lf.WriteText(io.Discard); err != nil {
			t.Fatal(err)
		}
		if _, err := json.Marshal(lf); err != nil {
			t.Fatal(err)
		}
		if out, err := lf.MarshalBinary(); err == nil {
			if _, err := Parse(out); err != nil {
				t.Fatalf("MarshalBinary wrote a file Parse rejects: %v", err)
			}
		}
	})
}

// FuzzFMT: EncodeFMT(DecodeFMT(x)) == x for every x = EncodeFMT(s) of a
// text s without a Ctrl byte, and
// neither function panics on any input.
func FuzzFMT(f *testing.F) {
	for _, tt := range encodeTests {
		f.Add([]byte(tt.in))
	}
	f.Fuzz(func(t *testing.T, s []byte) {
		enc := EncodeFMT(s)
		if len(enc) > len(s)+len(s)/3 {
			t.Fatalf("EncodeFMT(%q) = %q grew more than AppendFMT says", s, enc)
		}
		dec := DecodeFMT(enc)
		// A raw Ctrl byte in the TSF text can store what no text
		// decodes back to (a "%R" kept as text before a Ctrl 'A' of the
		// source's own); lower/tsflist reports such a record.
		if back := EncodeFMT([]byte(dec)); !bytes.Equal(back, enc) && bytes.IndexByte(s, Ctrl) < 0 {
			t.Fatalf("s=%q: EncodeFMT %q, DecodeFMT %q, back %q", s, enc, dec, back)
		}
		_ = DecodeFMT(s)
	})
}
