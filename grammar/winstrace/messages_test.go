package winstrace

import (
	"testing"

	"github.com/tracekit/tracekit/grammar/internal/lineconv"
)

// TestWords: every point where the generated parser can fail has words,
// and no words name a point that is gone (lineconv.Words).
func TestWords(t *testing.T) {
	missing, extra := lineconv.CheckWords(callWords, pgenExpect_callParser[:])
	for _, p := range missing {
		t.Errorf("no words for the failure point %q", p)
	}
	for _, p := range extra {
		t.Errorf("words for %q, which is no failure point", p)
	}
}
