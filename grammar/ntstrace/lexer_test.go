package ntstrace

import (
	"testing"

	"github.com/tracekit/tracekit/grammar/internal/difftest"
	"github.com/tracekit/tracekit/grammar/internal/pgen/pgenrt"
)

// TestLexersMerged: the lexer is one merged automaton in code, the fast
// path (difftest.Merged).
func TestLexersMerged(t *testing.T) {
	difftest.Merged(t, map[string]*pgenrt.Lexer{"callLexer": &pgenLexer_callLexer})
}
