package tsfparse

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/kr/pretty"

	"github.com/tracekit/tracekit/ast/corpus"
	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/ast/tsf"
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
// end), with and without trailing tokens allowed; the generated ones both
// into new trees and into reused ones.
func compareAt(tb testing.TB, reused *reusedParsers, toks []lexer.Token, end lexer.Position) {
	tb.Helper()
	var hg headerParserGen
	var lg listParserGen
	var fg fieldParserGen
	for _, trailing := range []bool{true, false} {
		check(tb, theGrammar().header, toks, end, trailing, func() (*header, int, error) { return hg.ParseTokens(toks, end, trailing) })
		check(tb, theGrammar().list, toks, end, trailing, func() (*listStmt, int, error) { return lg.ParseTokens(toks, end, trailing) })
		check(tb, theGrammar().field, toks, end, trailing, func() (*field, int, error) { return fg.ParseTokens(toks, end, trailing) })
	}
	// The same parsers and trees once more, parsing into what the parses
	// above and the reused ones before left (the nodes of the slabs).
	for _, trailing := range []bool{true, false} {
		check(tb, theGrammar().header, toks, end, trailing, func() (*header, int, error) {
			return into(toks, end, trailing, &reused.header, reused.hg.ParseTokensInto)
		})
		check(tb, theGrammar().list, toks, end, trailing, func() (*listStmt, int, error) {
			return into(toks, end, trailing, &reused.list, reused.lg.ParseTokensInto)
		})
		check(tb, theGrammar().field, toks, end, trailing, func() (*field, int, error) {
			return into(toks, end, trailing, &reused.field, reused.fg.ParseTokensInto)
		})
	}
}

// reusedParsers are parsers and trees that the compareAt calls of a test
// parse into, so that each parse meets the nodes an earlier one left.
type reusedParsers struct {
	hg     headerParserGen
	lg     listParserGen
	fg     fieldParserGen
	header header
	list   listStmt
	field  field
}

// into is a ParseTokensInto as a ParseTokens: the tree, or nil on an error.
func into[T any](toks []lexer.Token, end lexer.Position, trailing bool, out *T, parse func([]lexer.Token, lexer.Position, bool, *T) (int, error)) (*T, int, error) {
	n, err := parse(toks, end, trailing, out)
	if err != nil {
		return nil, n, err
	}
	return out, n, nil
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
		var reused reusedParsers
		for _, stmt := range split(res.toks) {
			end := lexPos(res.eof)
			for i := range stmt {
				compareAt(t, &reused, stmt[i:], end)
			}
			compareAt(t, &reused, nil, end)
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
		var reused reusedParsers
		for _, stmt := range split(res.toks) {
			for i := range stmt {
				compareAt(t, &reused, stmt[i:], lexPos(res.eof))
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
		want, wd := parse(f, src, 0, true, nil)
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gd, wd) {
			t.Errorf("%s: the generated parsers' tree or diagnostics differ from participle's", f)
		}
	}
}

// batchParse is Parse as it was before it streamed: scan the whole file,
// split it into statements, parse them.
func batchParse(filename string, src []byte) (*tsf.File, diag.List) {
	res := scan(filename, src)
	p := &parser{g: theGrammar(), eof: res.eof, notes: res.notes}
	p.out = &tsf.File{Name: filename, EOF: res.eof}
	stmts := split(res.toks)
	var partial []lexer.Token
	if res.stopAt >= 0 {
		p.out.Aborted = true
		if len(stmts) > 0 {
			partial = stmts[len(stmts)-1]
			stmts = stmts[:len(stmts)-1]
		}
	}

	for i, st := range stmts {
		end, last := p.eof, i == len(stmts)-1
		switch {
		case !last:
			end = astPos(stmts[i+1][0].Pos)
		case len(partial) > 0:
			// The statement cut short follows it.
			end, last = astPos(partial[0].Pos), false
		}
		if s := p.statement(st, end, last); s != nil {
			p.out.Stmts = append(p.out.Stmts, s)
		}
	}
	// As parseBatched: the statement a severe lexical error cut is read up
	// to the cut, unless it is a header statement cut in its value.
	var cut tsf.Stmt
	if len(partial) > 0 && !isTrace(&partial[0]) {
		cut = cutHeader(partial, res.diags)
	}
	if cut != nil {
		p.out.Stmts = append(p.out.Stmts, cut)
	} else if len(partial) > 0 {
		p.partial, p.cut = true, res.cut
		if s := p.statement(partial, p.eof, true); s != nil {
			p.out.Stmts = append(p.out.Stmts, s)
		}
		p.partial = false
	}
	p.diags = append(p.diags, res.diags...)
	sawTrace := len(partial) > 0 && isTrace(&partial[0])
	for _, st := range stmts {
		sawTrace = sawTrace || isTrace(&st[0])
	}
	if !sawTrace && res.stopAt < 0 && !slices.ContainsFunc(p.diags, isPrematureEOF) && p.diags.Worst() < diag.Severe {
		// As parseBatched: none after a severe error, where TRCUST
		// stopped ("TYPELIST 0" is 35 alone).
		p.diags = append(p.diags, noTrace(res.eof))
	}
	p.diags.Sort()
	return p.out, p.diags
}

var streamSeeds = []string{
	"", "MAJOR = 1", "MAJOR = 1\nTRACE MINOR=1, TP=@STATIC,", "TRACE MINOR=1 /* unclosed", "MAJOR=1 TYPELIST NAME=A,ID=1, TRACE MINOR=2, GROUP=TRACE",
	"TYPELIST NAME=A,ID=1,\nTRACE MINOR=1, TP=@STATIC\nTRACE MINOR=2, TP=@STATIC, \"unclosed", "garbage = 3\nTRACE", "TRACE TRACE TRACE",
}

// TestStreamingParse: parsing as the file is scanned gives what scanning
// the whole file first gives.
func TestStreamingParse(t *testing.T) {
	var inputs [][]byte
	for _, f := range genFiles(t) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, src)
	}
	for _, s := range streamSeeds {
		inputs = append(inputs, []byte(s))
	}
	for _, src := range inputs {
		want, wd := batchParse("f.tsf", src)
		// The scanner's batches of statements, as parse makes them and
		// small, so that every statement boundary is a batch's too.
		for _, batch := range []int{batchStatements, 1, 2, 3} {
			for _, workers := range []int{1, 3} {
				got, gd := parseBatched("f.tsf", src, 0, false, nil, batch, workers)
				if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gd, wd) {
					t.Errorf("%.60q: streaming parse (batches of %d statements, %d workers) differs from the whole-file parse:\n%v\n%v", src, batch, workers, gd, wd)
				}
			}
		}
	}
}

func FuzzStreamingParse(f *testing.F) {
	for _, s := range streamSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		want, wd := batchParse("f.tsf", src)
		for _, batch := range []int{batchStatements, 1} {
			got, gd := parseBatched("f.tsf", src, 0, false, nil, batch, 2)
			if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gd, wd) {
				t.Fatalf("%q: streaming parse (batches of %d statements) differs from the whole-file parse:\n%v\n%v", src, batch, gd, wd)
			}
		}
	})
}

// TestParseEachReuse: a caller of ParseEach that drops the fields of every
// other statement (so that the parser reuses their nodes) sees each
// statement, when each is called, as Parse builds it, keeps the others as
// Parse builds them, and gets the same diagnostics.
func TestParseEachReuse(t *testing.T) {
	var inputs [][]byte
	for _, f := range genFiles(t) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, src)
	}
	for _, s := range streamSeeds {
		inputs = append(inputs, []byte(s))
	}
	var many []byte
	for i := range 300 {
		many = fmt.Appendf(many, "TRACE MINOR=%d, TP=@STATIC, DESC=\"d%d\", FMT=\"x%%W\", FMT=\"y\"\n", i+1, i)
		if i%7 == 0 {
			many = fmt.Appendf(many, "TRACE MINOR=%d, TP=.sym+%d, MEM32=(FEAX+4,DIRECT,8), DESC=\"k\"\n", 1000+i, i)
		}
	}
	inputs = append(inputs, many)
	for _, src := range inputs {
		checkEachReuse(t, src)
	}
}

func FuzzParseEachReuse(f *testing.F) {
	for _, s := range streamSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte("TRACE MINOR=1, TP=@STATIC, DESC=\"a\", FMT=\"%W\"\nTRACE MINOR=2, TP=.x, REGS=(EAX)\nTRACE MINOR=3, TP=@STATIC, FMT=\"y\", DESC=\"b\""))
	f.Fuzz(func(t *testing.T, src []byte) { checkEachReuse(t, src) })
}

// checkEachReuse is TestParseEachReuse on one input.
func checkEachReuse(t *testing.T, src []byte) {
	t.Helper()
	for _, batch := range []int{batchStatements, 1, 3} {
		checkEachReuseBatched(t, src, batch)
	}
}

// checkEachReuseBatched is checkEachReuse with batches of batch statements.
func checkEachReuseBatched(t *testing.T, src []byte, batch int) {
	t.Helper()
	want, wd := Parse("f.tsf", src)
	var got []string
	f, gd := parseBatched("f.tsf", src, 0, false, func(s tsf.Stmt) bool {
		got = append(got, fmt.Sprintf("%# v", pretty.Formatter(s)))
		// Every second statement is dropped, its fields' storage reused.
		return len(got)%2 == 1
	}, batch, 2)
	if len(got) != len(want.Stmts) {
		t.Fatalf("%.60q: ParseEach gave %d statements, Parse %d", src, len(got), len(want.Stmts))
	}
	if n := (len(want.Stmts) + 1) / 2; len(f.Stmts) != n {
		t.Fatalf("%.60q: %d statements joined the tree, want %d", src, len(f.Stmts), n)
	}
	for i, s := range want.Stmts {
		w := fmt.Sprintf("%# v", pretty.Formatter(s))
		if got[i] != w {
			t.Fatalf("%.60q: statement %d differs:\n%s\n%s", src, i, got[i], w)
		}
		if i%2 == 0 {
			if kept := fmt.Sprintf("%# v", pretty.Formatter(f.Stmts[i/2])); kept != w {
				t.Fatalf("%.60q: statement %d kept differs after the parse:\n%s\n%s", src, i, kept, w)
			}
		}
	}
	if !reflect.DeepEqual(gd, wd) {
		t.Errorf("%.60q: diagnostics differ:\n%v\n%v", src, gd, wd)
	}
}
