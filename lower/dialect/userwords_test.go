package dialect

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/lower/record"
	"github.com/tracekit/tracekit/lower/tsfcheck"
	"github.com/tracekit/tracekit/lower/tsfcompile"
)

// internals are what a diagnostic must never show: the parsers' insides
// (participle's and the generated parsers' error texts, grammar notation,
// names of grammar nodes) instead of the dialect's own words.
var internals = regexp.MustCompile(`lexer|participle|unexpected token|\(expected |<EOF>|expected Tail|<ident>|<colon>|<number>|<string>|\b(Elem|Expr|Tail|Word|Value|Item|Binop|Primary|NoteItem|Dashes|ExitWord|PrefixTok|IpTok|DurTok|HeadLine|EventLine|ApValue|TimeItem)[*+?]|\b[A-Z][A-Za-z]+ [A-Z][A-Za-z]+\*`)

// backticked finds the `code spans` of a Markdown line.
var backticked = regexp.MustCompile("`[^`]*`")

// userWordsProblem says what is wrong with a diagnostic's text, or "".
func userWordsProblem(text string) string {
	if m := internals.FindString(text); m != "" {
		return "parser internals " + strconv.Quote(m)
	}
	for i := 0; i < len(text); i++ {
		if c := text[i]; c < 0x20 || c == 0x7f {
			return "a raw control byte " + strconv.Quote(text[i:i+1])
		}
	}
	return ""
}

// TestDiagnosticsInUserWords runs every dialect over every input it might
// meet — the testdata of every dialect, the committed fuzz corpora, the
// shared corpus (when present), generated input damaged with every byte
// value, and the TSF testdata through the TSF checker — and checks that
// every diagnostic reads in the dialect's own words: no parser internals,
// no raw control byte (as printed, and in the message itself).
func TestDiagnosticsInUserWords(t *testing.T) {
	inputs := map[string][]byte{}
	add := func(name string, data []byte) { inputs[name] = data }
	filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.Contains(p, "testdata") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err == nil {
			add(p, fuzzValue(data))
		}
		return nil
	})
	for _, dir := range []string{"../../grammar"} {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.Contains(p, "testdata") {
				if data, err := os.ReadFile(p); err == nil {
					add(p, fuzzValue(data))
				}
			}
			return nil
		})
	}
	if root := corpus.Root(); root != "" {
		for _, pat := range []string{"corpus/linux-strace/*", "corpus/os2/strace/*", "corpus/prf/*"} {
			more, _ := filepath.Glob(filepath.Join(root, pat))
			for _, f := range more {
				if data, err := os.ReadFile(f); err == nil {
					add(f, data)
				}
			}
		}
	} else {
		t.Log("shared corpus absent: its files are not scanned")
	}
	var every bytes.Buffer
	for b := 0; b < 256; b++ {
		every.WriteString("1234  read(3, \"x\", 1) = 1 " + string(rune(0)) + "\n")
		every.Write([]byte{byte(b), 'a', byte(b), ' ', '"', byte(b), '\n'})
	}
	add("every-byte", every.Bytes())
	for _, d := range List() {
		if d.Binary != nil {
			continue
		}
		var buf bytes.Buffer
		Generate(d.Name, &buf, 16<<10)
		data := buf.Bytes()
		for i := 7; i < len(data); i += 97 {
			data[i] = byte(i * 31)
		}
		add(d.Name+":damaged", data)
	}
	checked := 0
	check := func(where string, dg diag.Diagnostic) {
		checked++
		// The text as printed (String) has no raw control byte; a TSF
		// message keeps the bytes IBM's TRCUST prints, which String
		// escapes.
		if m := internals.FindString(dg.Text()); m != "" {
			t.Errorf("%s: parser internals %q in %q", where, m, dg.Text())
		} else if p := userWordsProblem(dg.String()); p != "" {
			t.Errorf("%s: %s in %q", where, p, dg.String())
		}
	}
	for _, d := range List() {
		for name, data := range inputs {
			w, _ := record.NewWriter("jsonl", &bytes.Buffer{})
			Records(context.Background(), Options{Dialect: d.Name, KeepGoing: true},
				[]Input{{Name: name, Reader: bytes.NewReader(data)}}, w,
				func(dg diag.Diagnostic) { check(d.Name+" on "+name, dg) })
		}
	}
	tsfs, _ := filepath.Glob("../../lower/tsfcheck/testdata/*.tsf")
	more, _ := filepath.Glob("../../cmd/trcust/testdata/oraclediff/*/in/*.tsf")
	tsfs = append(tsfs, more...)
	if root := corpus.Root(); root != "" {
		more, _ := filepath.Glob(filepath.Join(root, "corpus/os2/tsf/*.tsf"))
		tsfs = append(tsfs, more...)
	}
	for _, f := range tsfs {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, src := range [][]byte{data, append(bytes.Clone(data), "\x7f TRACE MINOR=\x01 ,,, \"x"...)} {
			_, ds := tsfcompile.Check(f, src, tsfcheck.Options{})
			for _, dg := range ds {
				check("tsf "+f, dg)
			}
		}
	}
	if checked < 1000 {
		t.Errorf("only %d diagnostics checked", checked)
	}
	t.Logf("%d diagnostics of %d inputs checked", checked, len(inputs))
}

// fuzzValue returns the value of a Go fuzz corpus file ("go test fuzz v1"
// and one string(...) or []byte(...) line), or data as it is.
func fuzzValue(data []byte) []byte {
	s := string(data)
	if !strings.HasPrefix(s, "go test fuzz v1\n") {
		return data
	}
	line := strings.TrimSpace(strings.TrimPrefix(s, "go test fuzz v1\n"))
	for _, pre := range []string{"string(", "[]byte("} {
		if strings.HasPrefix(line, pre) && strings.HasSuffix(line, ")") {
			if v, err := strconv.Unquote(line[len(pre) : len(line)-1]); err == nil {
				return []byte(v)
			}
		}
	}
	return data
}

// TestGoldensInUserWords: no expected diagnostic in a golden file of any
// dialect, and no message in docs/diagnostics.md, shows parser internals.
func TestGoldensInUserWords(t *testing.T) {
	// Every golden of the repository that holds diagnostics: their lines
	// say "error:" or "warning:" (or are // comments of an AST dump).
	var files []string
	filepath.WalkDir("../..", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.Contains(p, "testdata") || strings.Contains(p, "/fuzz/") {
			return nil
		}
		switch filepath.Ext(p) {
		case ".diag", ".golden", ".ast", ".txt":
			files = append(files, p)
		}
		return nil
	})
	files = append(files, "../../docs/diagnostics.md")
	if len(files) < 5 {
		t.Fatalf("only %d files", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if strings.HasSuffix(f, ".md") {
				// The messages the document quotes, not its prose (which
				// speaks of TRCUST's lexer).
				line = strings.Join(backticked.FindAllString(line, -1), " ")
			} else if !strings.Contains(line, "error:") && !strings.Contains(line, "warning:") && !strings.HasPrefix(strings.TrimSpace(line), "//") {
				continue
			}
			if m := internals.FindString(line); m != "" {
				t.Errorf("%s:%d: parser internals %q", f, i+1, m)
			}
		}
	}
}
