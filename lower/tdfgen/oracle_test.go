package tdfgen_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/ast/tsf"
	"github.com/tracekit/tracekit/binfmt/lx"
	"github.com/tracekit/tracekit/binfmt/tdf"
	"github.com/tracekit/tracekit/grammar/mapfile"
	"github.com/tracekit/tracekit/lower/tdfgen"
	"github.com/tracekit/tracekit/lower/tdfgen/lxmap"
	"github.com/tracekit/tracekit/lower/tsfcheck"
	"github.com/tracekit/tracekit/lower/tsfcompile"
)

// oracleTDFs is how many oracle cases have a TDF among their outputs: 78 of
// the first 141 cases and 16 of the 49 x_ cases. The tests count the TDFs
// they compare, so that a case the loop skips by mistake is noticed.
const oracleTDFs = 94

// knownDiffs are the oracle cases whose TDF tracekit does not reproduce,
// with the reason; docs/compatibility.md lists the same. The test fails
// when one of them starts to match, so that the list stays true.
var knownDiffs = map[string]string{}

// noTDFAnyway are oracle cases that write no TDF and where tracekit writes
// one (docs/compatibility.md).
var noTDFAnyway = map[string]string{
	"e26w0": "TRCUST 3.05A drops the TDF when the last TRACE is a duplicate minor",
	"e26w1": "TRCUST 3.05A drops the TDF when the last TRACE is a duplicate minor",
	"e26w2": "TRCUST 3.05A drops the TDF when the last TRACE is a duplicate minor",
}

// emitrep is the module the oracle's dynamic cases trace, read through
// binfmt/lx and grammar/mapfile.
type emitrep struct {
	mod  lxmap.Module
	syms map[bool]*lxmap.Symbols // by IgnoreCase
}

func loadEmitrep(tb testing.TB) *emitrep {
	tb.Helper()
	f, err := lx.Open(corpus.Path(tb, "corpus", "os2", "lx", "osfree_emitrep.dll"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { f.Close() })
	m, _, err := mapfile.ParseFile(corpus.Path(tb, "corpus", "os2", "lx", "osfree_emitrep.map"))
	if err != nil {
		tb.Fatal(err)
	}
	return &emitrep{mod: lxmap.Module{File: f}, syms: map[bool]*lxmap.Symbols{
		false: lxmap.NewSymbols(m, false), true: lxmap.NewSymbols(m, true)}}
}

// run is one oracle case compiled by tracekit the way TRCUST ran it.
type run struct {
	tdfName  string // the TDF the oracle wrote, "" when none
	level    int    // /W level
	m        *tsfcheck.Module
	front    diag.List
	compiled diag.List
	linked   diag.List
	file     *tdf.File
	prog     *tdfgen.Program
}

// compileCase compiles a case's TSF with the switches of its command line.
func compileCase(t *testing.T, dir string, c corpus.OracleCase, e *emitrep) *run {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(dir, c.Case, c.Args[0]))
	if err != nil {
		t.Fatal(err)
	}
	r := &run{level: 2}
	var copt tsfcheck.Options
	opt := tdfgen.Options{ModulePath: `.\emitrep.dll`}
	ignoreCase, haveMap := false, false
	for _, a := range c.Args[1:] {
		switch u := strings.ToUpper(a); {
		case u == "/D":
			copt.AllowDuplicateMinors = true
		case u == "/P":
			opt.KeepPath = true
		case u == "/I":
			ignoreCase = true
		case strings.HasPrefix(u, "/M="):
			haveMap = true
		case u == "/W0" || u == "/W1" || u == "/W2":
			r.level = int(u[2] - '0')
		}
	}
	for n := range c.Outputs {
		if strings.EqualFold(filepath.Ext(n), ".tdf") {
			r.tdfName = n
		}
	}
	r.m, r.front = tsfcompile.Check(c.Args[0], src, copt)
	if r.front.Worst() >= diag.Severe {
		return r
	}
	var syms tdfgen.Symbols
	if haveMap {
		syms = e.syms[ignoreCase]
	}
	r.prog, r.compiled = tdfgen.Compile(r.m, syms, e.mod, opt)
	if r.compiled.Worst() >= diag.Severe {
		return r
	}
	r.file, r.linked = r.prog.TDF()
	return r
}

// TestOracleTDF compiles the TSF of every oracle case that ran against the
// emitrep DLL and compares the TDF with the oracle's byte for byte.
func TestOracleTDF(t *testing.T) {
	dir, cases := corpus.Oracle(t)
	e := loadEmitrep(t)
	matched, withTDF := 0, 0
	for _, c := range cases {
		if !c.UsesEmitrep || !strings.EqualFold(filepath.Ext(c.Args[0]), ".tsf") || c.Case == "e19_badmapext" {
			continue // e19: TRCUST stops at the MAP file's name, a command-line check
		}
		t.Run(c.Case, func(t *testing.T) {
			r := compileCase(t, dir, c, e)
			var got []byte
			if r.file != nil {
				var err error
				if got, err = r.file.MarshalBinary(); err != nil {
					t.Fatal(err)
				}
			}
			if r.tdfName == "" {
				if got != nil && noTDFAnyway[c.Case] == "" {
					t.Errorf("TRCUST writes no TDF, tracekit writes %d bytes", len(got))
				}
				if got == nil && noTDFAnyway[c.Case] != "" {
					t.Errorf("listed in noTDFAnyway, but tracekit writes no TDF either")
				}
				return
			}
			withTDF++
			want, err := os.ReadFile(filepath.Join(dir, c.Case, r.tdfName))
			if err != nil {
				t.Fatal(err)
			}
			same := bytes.Equal(got, want)
			switch why, known := knownDiffs[c.Case]; {
			case same && known:
				t.Errorf("matches the oracle, but knownDiffs says %q: update the list and docs/compatibility.md", why)
			case !same && !known:
				t.Errorf("TDF differs from the oracle (diagnostics %v)\n got %x\nwant %x", slices.Concat(r.compiled, r.linked), got, want)
			case same:
				matched++
			}
		})
	}
	if withTDF != oracleTDFs {
		t.Errorf("%d oracle cases with a TDF, want %d", withTDF, oracleTDFs)
	}
	t.Logf("%d of %d oracle TDFs match byte for byte", matched, withTDF)
}

// legacy renders diagnostics as TRCUST 3.05A prints them at message level
// w, leaving out what 3.05A does not report.
func legacy(l diag.List, w int) []string {
	min, _ := diag.LevelMin(w)
	var out []string
	for _, d := range l {
		code, _ := tsf.CodeOf(d)
		if d.Severity == diag.Warning && (tsf.Messages[code].Silent305A || code >= 200) {
			continue
		}
		if d.Severity < min {
			continue
		}
		out = append(out, fmt.Sprintf("TRCUST(%d) %s: %s", tsf.LegacyLine(d), strings.ToUpper(d.Severity.String()), d.Msg))
	}
	return out
}

// TestOracleMessages compares the messages of the front end and the back
// end, in TRCUST's order (the TDF linker's after the TFF), with the
// console of every oracle case that ran against the emitrep DLL: the text
// and the line TRCUST names.
func TestOracleMessages(t *testing.T) {
	dir, cases := corpus.Oracle(t)
	e := loadEmitrep(t)
	for _, c := range cases {
		if !c.UsesEmitrep && c.Case != "d68_nomap" || c.Case == "e19_badmapext" {
			continue // e19: the MAP file name is the command line's business
		}
		t.Run(c.Case, func(t *testing.T) {
			r := compileCase(t, dir, c, e)
			all := tsfcheck.Merge(r.front)
			all = append(all, r.compiled...)
			all = append(all, r.linked...)
			got := legacy(all, r.level)
			console, err := os.ReadFile(filepath.Join(dir, c.Case, "console.txt"))
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, line := range strings.Split(strings.ReplaceAll(string(console), "\r", ""), "\n") {
				if strings.HasPrefix(line, "TRCUST(") {
					want = append(want, line)
				}
			}
			if d, ok := corpus.OracleDefect(c.Case); ok {
				if !slices.Contains(got, d.Message) {
					t.Errorf("messages %q lack %q (%s)", got, d.Message, d.Why)
				}
				return
			}
			if _, known := knownDiffs[c.Case]; known {
				if slices.Equal(got, want) {
					t.Errorf("messages match, but knownDiffs lists the case")
				}
				return
			}
			if !slices.Equal(got, want) {
				t.Errorf("messages differ\n--- tracekit\n%s\n--- TRCUST 3.05A\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}
