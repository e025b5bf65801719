package winstrace_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	grammar "github.com/tracekit/tracekit/grammar/winstrace"
	"github.com/tracekit/tracekit/lower/dialect"
	"github.com/tracekit/tracekit/lower/dialect/dialecttest"
	"github.com/tracekit/tracekit/lower/dialect/gen"
	"github.com/tracekit/tracekit/lower/dialect/lowering"
	"github.com/tracekit/tracekit/lower/dialect/winstrace"
	"github.com/tracekit/tracekit/lower/record"
	"github.com/tracekit/tracekit/lower/record/recordtest"
)

// TestSynthetic compares the records and diagnostics of the synthetic
// inputs in testdata with their golden files, paired and (for pairs.wst)
// unpaired.
func TestSynthetic(t *testing.T) {
	v := recordtest.NewValidator(t)
	for _, in := range dialecttest.Inputs(t, "testdata") {
		t.Run(filepath.Base(in), func(t *testing.T) {
			dialecttest.Golden(t, v, dialecttest.Case{Input: in})
		})
	}
	t.Run("pairs.wst/nopair", func(t *testing.T) {
		in := filepath.Join("testdata", "pairs.wst")
		dialecttest.Golden(t, v, dialecttest.Case{Input: in, Golden: in + ".nopair", Opts: dialect.Options{NoPair: true}})
	})
}

type rec struct {
	Line     int    `json:"line"`
	Event    string `json:"event"`
	Phase    string `json:"phase"`
	Unpaired bool   `json:"unpaired"`
	PID      uint64 `json:"pid"`
	TID      uint64 `json:"tid"`
	Args     []struct {
		Kind string `json:"kind"`
		Int  int64  `json:"int"`
	} `json:"args"`
	Ret *struct {
		Kind string `json:"kind"`
		Int  int64  `json:"int"`
		Sym  string `json:"sym"`
	} `json:"ret"`
	Attrs struct {
		ID       int64 `json:"id"`
		ExitLine int   `json:"exit_line"`
		Kernel   bool  `json:"kernel"`
	} `json:"attrs"`
}

func decode(t *testing.T, jsonl []byte) []rec {
	t.Helper()
	var out []rec
	for _, l := range bytes.Split(bytes.TrimSpace(jsonl), []byte("\n")) {
		if len(l) == 0 {
			continue
		}
		var r rec
		if err := json.Unmarshal(l, &r); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		out = append(out, r)
	}
	return out
}

func run(t *testing.T, file string, opts dialect.Options) ([]rec, dialecttest.Result) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	res := dialecttest.Run(opts, file, data)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	return decode(t, res.JSONL), res
}

// TestThreadsPairEveryCall: with the halves of 40 calls interleaved over
// four threads, every call becomes one complete record whose start and end
// belong together: the first argument (from the start) and the return
// value (from the end) both carry the call id.
func TestThreadsPairEveryCall(t *testing.T) {
	rs, res := run(t, "threads.wst", dialect.Options{})
	if len(rs) != 40 {
		t.Fatalf("%d records, want 40", len(rs))
	}
	seen := map[int64]bool{}
	for _, r := range rs {
		id := r.Attrs.ID
		switch {
		case r.Phase != "complete" || r.Unpaired:
			t.Errorf("call %d: phase %s unpaired %v", id, r.Phase, r.Unpaired)
		case len(r.Args) != 2 || r.Args[0].Int != id || r.Args[1].Int != id+1000:
			t.Errorf("call %d: arguments %+v", id, r.Args)
		case r.Ret == nil || r.Ret.Int != 10*id:
			t.Errorf("call %d: return %+v, want %d", id, r.Ret, 10*id)
		case r.Attrs.ExitLine <= r.Line:
			t.Errorf("call %d: exit line %d not after start line %d", id, r.Attrs.ExitLine, r.Line)
		}
		if seen[id] {
			t.Errorf("call %d twice", id)
		}
		seen[id] = true
	}
	if len(res.Diags) != 0 {
		t.Errorf("diagnostics: %v", res.Diags)
	}
}

// TestPairs checks the pairing cases one by one.
func TestPairs(t *testing.T) {
	rs, _ := run(t, "pairs.wst", dialect.Options{})
	byID := map[int64][]rec{}
	for _, r := range rs {
		byID[r.Attrs.ID] = append(byID[r.Attrs.ID], r)
	}
	tests := []struct {
		id     int64
		phases string // phases in output order, "!" marks unpaired
	}{
		{1, "complete"},
		{2, "complete"},
		{3, "complete"},
		{4, "enter!"}, // never ends
		{5, "exit!"},  // never started
		{6, "enter! enter! exit!"},
		{7, "complete"},
		{8, "complete"},
		{9, "complete"},
	}
	for _, tt := range tests {
		var got []string
		for _, r := range byID[tt.id] {
			p := r.Phase
			if r.Unpaired {
				p += "!"
			}
			got = append(got, p)
		}
		if g := strings.Join(got, " "); g != tt.phases {
			t.Errorf("call %d: %q, want %q", tt.id, g, tt.phases)
		}
	}
	// Call 2 ends before call 1: records come out in the order calls end.
	if rs[0].Attrs.ID != 2 || rs[1].Attrs.ID != 7 || rs[2].Attrs.ID != 1 {
		t.Errorf("output order %d %d %d, want 2 7 1", rs[0].Attrs.ID, rs[1].Attrs.ID, rs[2].Attrs.ID)
	}
	if c := byID[3][0]; !c.Attrs.Kernel || c.Ret == nil || c.Ret.Sym != "STATUS_TIMEOUT" {
		t.Errorf("call 3: %+v", c)
	}
}

// TestNoPair keeps every line as it is: no record is complete-by-pairing
// and none is marked unpaired.
func TestNoPair(t *testing.T) {
	rs, res := run(t, "pairs.wst", dialect.Options{NoPair: true})
	if int64(len(rs)) != res.Summary.Lines {
		t.Errorf("%d records for %d lines", len(rs), res.Summary.Lines)
	}
	for i, r := range rs {
		if r.Unpaired || r.Line != i+1 || r.Attrs.ExitLine != 0 {
			t.Errorf("record %d: %+v", i+1, r)
		}
	}
}

// TestOpenCallsOnly: the Joiner holds the calls that are open and no
// more, however long the trace (counted after each joined chunk).
func TestOpenCallsOnly(t *testing.T) {
	out := &sink{}
	cfg := lowering.Config{Dialect: "winstrace", Source: "gen"}
	j := winstrace.NewJoiner(cfg)
	l := lowering.Joined(out, j, func(m lowering.MarkedOutput) lowering.Lowerer { return winstrace.New(cfg, m, grammar.ParseLine) })
	open := j.(interface{ Open() int })
	var in bytes.Buffer
	if err := gen.WinStrace(&in, 200_000); err != nil {
		t.Fatal(err)
	}
	most := 0
	_, end, err := lowering.Lines(context.Background(), &in, "gen", 0, func(pos ast.Pos, text string) error {
		err := l.Line(pos, text)
		most = max(most, open.Open())
		return err
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if most > 8 {
		t.Errorf("%d calls held at once; the generator keeps at most 8 open", most)
	}
	if err := l.End(end); err != nil || open.Open() != 0 || out.skipped != 0 || out.records < 1000 {
		t.Errorf("end: %v, %d open, %d records, %d skipped", err, open.Open(), out.records, out.skipped)
	}
}

type sink struct{ records, skipped int }

func (s *sink) Record(*record.Record) error         { s.records++; return nil }
func (s *sink) Diag(_ diag.Diagnostic, skipped int) { s.skipped += skipped }
