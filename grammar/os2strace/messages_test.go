package os2strace

import (
	"testing"

	"github.com/tracekit/tracekit/grammar/internal/lineconv"
)

// TestWords: every point where the generated parsers can fail has words,
// and no words name a point that is gone (lineconv.Words).
func TestWords(t *testing.T) {
	for name, tc := range map[string]struct {
		words  lineconv.Words
		points []string
	}{
		"hook":   {hookWords, pgenExpect_hookParser[:]},
		"module": {moduleWords, pgenExpect_moduleParser[:]},
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
