package tsfparse

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/tracekit/tracekit/ast/corpus"
	"github.com/tracekit/tracekit/grammar/internal/difftest"
)

// genFiles are the TSF files of the differential tests: the example, the
// shared corpus and every TSF of the TRCUST oracle's cases.
func genFiles(tb testing.TB) []string {
	files := []string{"../../testdata/example.tsf"}
	if root := corpus.Root(); root != "" {
		for _, pat := range []string{"corpus/os2/tsf/*.tsf", "corpus/os2/trcust-oracle/*/*.tsf", "corpus/os2/trcust-oracle/*/*.TSF"} {
			more, _ := filepath.Glob(filepath.Join(root, pat))
			files = append(files, more...)
		}
	} else {
		tb.Log("shared corpus is absent; the example alone is read")
	}
	return files
}

// compareAt runs the three parsers of both engines on toks[i:] (ending at
// end), with and without trailing tokens allowed.
func compareAt(tb testing.TB, toks []lexer.Token, end lexer.Position) {
	tb.Helper()
	var hg headerParserGen
	var lg listParserGen
	var fg fieldParserGen
	for _, trailing := range []bool{true, false} {
		check(tb, theGrammar.header, toks, end, trailing, func() (*header, int, error) { return hg.ParseTokens(toks, end, trailing) })
		check(tb, theGrammar.list, toks, end, trailing, func() (*listStmt, int, error) { return lg.ParseTokens(toks, end, trailing) })
		check(tb, theGrammar.field, toks, end, trailing, func() (*field, int, error) { return fg.ParseTokens(toks, end, trailing) })
	}
}

func check[T any](tb testing.TB, ref *participle.Parser[T], toks []lexer.Token, end lexer.Position, trailing bool, gen func() (*T, int, error)) {
	tb.Helper()
	pl, _ := lexer.Upgrade(&sliceLexer{toks: toks, eof: end})
	rt, rerr := ref.ParseFromLexer(pl, participle.AllowTrailing(trailing))
	gt, n, gerr := gen()
	if d := difftest.CompareResults(rt, rerr, gt, gerr); d != "" {
		tb.Errorf("%v (trailing %v): %s", toks, trailing, d)
		return
	}
	if rerr == nil && n != pl.MakeCheckpoint().Cursor() {
		tb.Errorf("%v: generated took %d tokens, participle %d", toks, n, pl.MakeCheckpoint().Cursor())
	}
}

// TestGeneratedMatchesParticiple: on every statement of every file, from
// every token on, the generated parsers build participle's trees and fail
// where and as participle does.
func TestGeneratedMatchesParticiple(t *testing.T) {
	for _, f := range genFiles(t) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		res := scan(f, src)
		for _, stmt := range split(res.toks) {
			end := lexPos(res.eof)
			for i := range stmt {
				compareAt(t, stmt[i:], end)
			}
			compareAt(t, nil, end)
		}
	}
}

func FuzzGeneratedParsers(f *testing.F) {
	for _, name := range genFiles(f) {
		if src, err := os.ReadFile(name); err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte("MAJOR = 0x00C2\nTRACE MINOR=1, TP=.x+4, TYPE=(PRE), LEN=(SS:ESP+(8), IND32), MEM=(FS:[EAX]*+2,DIRECT,4)"))
	f.Fuzz(func(t *testing.T, src []byte) {
		res := scan("f.tsf", src)
		for _, stmt := range split(res.toks) {
			for i := range stmt {
				compareAt(t, stmt[i:], lexPos(res.eof))
			}
		}
	})
}

// TestParseMatchesReference: whole files give the same tree and
// diagnostics with either engine.
func TestParseMatchesReference(t *testing.T) {
	for _, f := range genFiles(t) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, gd := Parse(f, src)
		want, wd := parse(f, src, true)
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gd, wd) {
			t.Errorf("%s: the generated parsers' tree or diagnostics differ from participle's", f)
		}
	}
}
