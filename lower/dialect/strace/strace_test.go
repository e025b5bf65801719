package strace_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
	"github.com/tracekit/tracekit/lower/dialect"
	"github.com/tracekit/tracekit/lower/dialect/dialecttest"
	"github.com/tracekit/tracekit/lower/record/recordtest"
)

// TestSynthetic compares the records and diagnostics of the synthetic
// inputs in testdata with their golden files.
func TestSynthetic(t *testing.T) {
	v := recordtest.NewValidator(t)
	for _, in := range dialecttest.Inputs(t, "testdata") {
		t.Run(filepath.Base(in), func(t *testing.T) {
			dialecttest.Golden(t, v, dialecttest.Case{Input: in})
		})
	}
	t.Run("pairs.strace/nopair", func(t *testing.T) {
		in := filepath.Join("testdata", "pairs.strace")
		dialecttest.Golden(t, v, dialecttest.Case{Input: in, Golden: in + ".nopair", Opts: dialect.Options{NoPair: true}})
	})
}

// corpusFiles lists the real traces of the shared corpus (skipping the test
// when it is absent).
func corpusFiles(t *testing.T) []string {
	dir := corpus.Path(t, "corpus", "linux-strace")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() && e.Name() != "README.md" {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	if len(out) == 0 {
		t.Fatal("no traces in the shared corpus folder linux-strace")
	}
	return out
}

// garbage is the one line of the corpus that is not strace output, on
// purpose: tracecode's error-recovery fixture.
const garbageFile, garbageLine = "tracecode_bug1_t.2461545", 6

// TestCorpus reads every real trace of the shared corpus: golden records
// and diagnostics under testdata/corpus, and no line skipped but the
// deliberate garbage line, reported at its position.
func TestCorpus(t *testing.T) {
	v := recordtest.NewValidator(t)
	for _, in := range corpusFiles(t) {
		name := filepath.Base(in)
		t.Run(name, func(t *testing.T) {
			res := dialecttest.Golden(t, v, dialecttest.Case{Input: in, Name: name, Golden: filepath.Join("testdata", "corpus", name)})
			want := int64(0)
			if name == garbageFile {
				want = 1
			}
			if res.Summary.Skipped != want {
				t.Errorf("%d lines skipped, want %d:\n%s", res.Summary.Skipped, want, res.DiagText())
			}
			for _, d := range res.Diags {
				if d.Severity >= 2 && (name != garbageFile || d.Pos.Line != garbageLine || d.Pos.Col != 6 || d.Pos.File != name) {
					t.Errorf("unexpected error %v", d)
				}
			}
		})
	}
}

// scanned is what plain string scanning finds in a trace, without the
// parser: the calls started per name, the resumed halves per name, and the
// unfinished/resumed pairs (per pid, same name).
type scanned struct {
	starts, resumed map[string]int
	unfinished      int
	pairs           int
}

var (
	pidTag   = regexp.MustCompile(`^\[pid +(\d+)\] *`)
	resumeRE = regexp.MustCompile(`<\.\.\. ([a-z0-9_]+) resumed>`)
)

func scan(t *testing.T, path string) scanned {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := scanned{starts: map[string]int{}, resumed: map[string]int{}}
	open := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimLeft(sc.Text(), " ")
		pid := ""
		if m := pidTag.FindStringSubmatch(line); m != nil {
			pid, line = m[1], line[len(m[0]):]
		}
		// Drop the pid column and time stamp: leading fields of digits,
		// colons and dots.
		for {
			f, rest, _ := strings.Cut(line, " ")
			if f == "" || strings.Trim(f, "0123456789:.") != "" {
				break
			}
			if pid == "" && !strings.ContainsAny(f, ":.") {
				pid = f
			}
			line = strings.TrimLeft(rest, " ")
		}
		unfinished := strings.HasSuffix(line, "<unfinished ...>")
		if m := resumeRE.FindStringSubmatch(line); m != nil && strings.HasPrefix(line, "<...") {
			s.resumed[m[1]]++
			if open[pid] == m[1] {
				s.pairs++
			}
			delete(open, pid)
			continue
		}
		name, _, ok := strings.Cut(line, "(")
		if !ok || strings.ContainsAny(name, " -+") || name == "" {
			continue
		}
		s.starts[name]++
		if unfinished {
			s.unfinished++
			open[pid] = name
		}
	}
	return s
}

// TestCounts checks the records of each corpus trace against string
// scanning: calls started per name, resumed halves per name, unfinished
// calls, and pairs.
func TestCounts(t *testing.T) {
	for _, in := range corpusFiles(t) {
		name := filepath.Base(in)
		t.Run(name, func(t *testing.T) {
			want := scan(t, in)
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			res := dialecttest.Run(dialectOpts(), name, data)
			got := scanned{starts: map[string]int{}, resumed: map[string]int{}}
			for _, l := range bytes.Split(bytes.TrimSpace(res.JSONL), []byte("\n")) {
				var r struct {
					Event    string         `json:"event"`
					Phase    string         `json:"phase"`
					Unpaired bool           `json:"unpaired"`
					Attrs    map[string]any `json:"attrs"`
				}
				if err := json.Unmarshal(l, &r); err != nil {
					t.Fatal(err)
				}
				paired := r.Attrs["exit_line"] != nil
				switch r.Phase {
				case "complete", "enter":
					got.starts[r.Event]++
				case "exit":
					got.resumed[r.Event]++
				}
				if paired {
					got.resumed[r.Event]++
					got.pairs++
				}
				if paired || r.Phase == "enter" {
					got.unfinished++
				}
			}
			if len(want.starts) == 0 {
				t.Fatal("the scan found no calls")
			}
			for _, m := range []struct {
				what      string
				got, want map[string]int
			}{{"started", got.starts, want.starts}, {"resumed", got.resumed, want.resumed}} {
				for n, c := range m.want {
					if m.got[n] != c {
						t.Errorf("%s %s: %d records, %d by scanning", n, m.what, m.got[n], c)
					}
				}
				for n, c := range m.got {
					if m.want[n] != c {
						t.Errorf("%s %s: %d records, %d by scanning", n, m.what, c, m.want[n])
					}
				}
			}
			if got.unfinished != want.unfinished || got.pairs != want.pairs {
				t.Errorf("unfinished %d, pairs %d; by scanning unfinished %d, pairs %d", got.unfinished, got.pairs, want.unfinished, want.pairs)
			}
			t.Logf("%d names, %d unfinished, %d pairs", len(want.starts), want.unfinished, want.pairs)
		})
	}
}
