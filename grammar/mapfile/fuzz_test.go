package mapfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
)

// FuzzParse parses arbitrary text: no panic, no hang; an error is only
// ever ErrUnknownFormat, and every diagnostic has a MAP code and a
// position inside the input.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"synthetic_wlink.map", "synthetic_bad_link386.map"} {
		if b, err := os.ReadFile(filepath.Join("testdata", name)); err == nil {
			f.Add(b)
		}
	}
	if root := corpus.Root(); root != "" {
		for _, elem := range realMaps {
			if b, err := os.ReadFile(filepath.Join(append([]string{root}, elem...)...)); err == nil && len(b) < 4096 {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		m, ds, err := Parse("fuzz.map", src)
		if err != nil {
			if !errors.Is(err, ErrUnknownFormat) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		for _, d := range ds {
			if !strings.HasPrefix(string(d.Code), "MAP") || d.Pos.Line < 1 || d.Pos.Col < 1 || d.Pos.Offset > len(src) || d.Pos.File != "fuzz.map" {
				t.Fatalf("bad diagnostic %v (offset %d)", d, d.Pos.Offset)
			}
		}
		for _, s := range []string{"emit", "MAIN", m.Module} {
			m.Lookup(s, true)
		}
	})
}
