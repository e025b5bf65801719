package prf

import (
	"testing"

	"github.com/tracekit/tracekit/grammar/internal/lineconv"
)

// TestWords: every point where the generated parsers can fail has words,
// and no words name a point that is gone (lineconv.Words). The CSV form's
// parser has none: its rows fail in the converter's own words.
func TestWords(t *testing.T) {
	for name, tc := range map[string]struct {
		words  lineconv.Words
		points []string
	}{
		"dump": {dumpWords, pgenExpect_dumpParser[:]},
		"hex":  {hexWords, pgenExpect_hexParser[:]},
		"csv":  {nil, pgenExpect_csvParser[:]},
	} {
		missing, extra := lineconv.CheckWords(tc.words, tc.points)
		for _, p := range missing {
			t.Errorf("%s: no words for the failure point %q", name, p)
		}
		for _, p := range extra {
			t.Errorf("%s: words for %q, which is no failure point", name, p)
		}
	}
}
