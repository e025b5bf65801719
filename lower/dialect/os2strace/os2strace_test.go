package os2strace_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
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
}

// TestCorpus compares the records of the real STRACE POST samples with
// golden files. The console text of STRACE POST is not a trace: sniffing
// rejects it, and read as os2strace by force every line is reported.
func TestCorpus(t *testing.T) {
	v := recordtest.NewValidator(t)
	cases := []struct {
		file, golden string
		opts         dialect.Options
	}{
		{"smpadd_strace_sample.out", "smpadd_strace_sample.out", dialect.Options{}},
		// The CPU 0 rating that STRACE POST printed on the console of the
		// same session (smpadd_post_console.txt): 89.997898 MHz.
		{"smpadd_strace_sample.out", "smpadd_strace_sample.cpuhz", dialect.Options{CPUHz: 89.997898e6}},
		{"smpadd_hook_examples.out", "smpadd_hook_examples.out", dialect.Options{}},
		{"smpadd_strace_sample.mte", "smpadd_strace_sample.mte", dialect.Options{}},
		{"smpadd_post_console.txt", "smpadd_post_console.txt", dialect.Options{}},
		{"smpadd_post_console.txt", "smpadd_post_console.forced", dialect.Options{Dialect: "os2strace"}},
	}
	for _, c := range cases {
		t.Run(c.golden, func(t *testing.T) {
			path := corpus.Path(t, "corpus", "os2", "strace", c.file)
			dialecttest.Golden(t, v, dialecttest.Case{
				Input: path, Golden: filepath.Join("testdata", "corpus", c.golden), Opts: c.opts,
			})
		})
	}
}

type rec struct {
	Dialect string         `json:"dialect"`
	Line    int            `json:"line"`
	Event   string         `json:"event"`
	Major   *int           `json:"major"`
	Minor   *int           `json:"minor"`
	CPU     *int           `json:"cpu"`
	TSNs    *int64         `json:"ts_ns"`
	Data    []string       `json:"data"`
	Attrs   map[string]any `json:"attrs"`
}

func records(t *testing.T, jsonl []byte) []rec {
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

func readCorpus(t *testing.T, file string, opts dialect.Options) dialecttest.Result {
	t.Helper()
	path := corpus.Path(t, "corpus", "os2", "strace", file)
	data := mustRead(t, path)
	res := dialecttest.Run(opts, file, data)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	return res
}

// TestSample: smpadd_strace_sample.out gives 26 records, each with hook,
// major, minor and cpu, each valid against the schema.
func TestSample(t *testing.T) {
	res := readCorpus(t, "smpadd_strace_sample.out", dialect.Options{})
	v := recordtest.NewValidator(t)
	if n := v.JSONL(t, "sample", res.JSONL); n != 26 {
		t.Errorf("%d records, want 26", n)
	}
	rs := records(t, res.JSONL)
	for i, r := range rs {
		if r.Major == nil || r.Minor == nil || r.CPU == nil || r.Attrs["hook"] == nil {
			t.Errorf("record %d lacks hook, major, minor or cpu: %+v", i+1, r)
		}
		if r.Line != i+1 {
			t.Errorf("record %d has line %d", i+1, r.Line)
		}
		if r.TSNs != nil {
			t.Errorf("record %d has ts_ns without a CPU rate", i+1)
		}
	}
	// Spot checks against the published sample.
	if r := rs[6]; r.Attrs["hook"] != "0x3401" || r.Event != "0xa8/0x3" || *r.CPU != 2 || r.Attrs["marker"] != "-- strace.mte --" {
		t.Errorf("line 7 is the module-table marker on cpu 2, got %+v", r)
	}
	if r := rs[4]; len(r.Data) != 4 || r.Data[3] != "fff405a3" || *r.Major != 0x13 || *r.Minor != 0x4b {
		t.Errorf("line 5 is 104 13 4b with four words, got %+v", r)
	}
	if res.Summary.Skipped != 0 || len(res.Diags) != 0 {
		t.Errorf("diagnostics on the published sample: %v", res.Diags)
	}
}

// TestHookExamples: the start-up record decodes to 1 CPU at its rate,
// 1996-08-07 21:57:07.03, and the lines after it get ts_ns.
func TestHookExamples(t *testing.T) {
	res := readCorpus(t, "smpadd_hook_examples.out", dialect.Options{})
	rs := records(t, res.JSONL)
	if len(rs) != 6 {
		t.Fatalf("%d records, want 6", len(rs))
	}
	st, ok := rs[1].Attrs["startup"].(map[string]any)
	if !ok {
		t.Fatalf("record 2 has no attrs.startup: %+v", rs[1])
	}
	if st["cpus"] != float64(1) || st["date"] != "1996-08-07" || st["time"] != "21:57:07.03" || st["version"] != "20.30" {
		t.Errorf("start-up decoded as %v", st)
	}
	if hz, _ := st["cpu_hz"].([]any); len(hz) != 1 || hz[0] != float64(60001625) {
		t.Errorf("cpu_hz %v, want [60001625]", st["cpu_hz"])
	}
	if rs[0].TSNs != nil {
		t.Errorf("the time-high record before the start-up record has ts_ns %d", *rs[0].TSNs)
	}
	// 254:3419280448 is 2016239 cycles after the first hook; at 60001625 Hz
	// that is 33603073.3 ns.
	want := []int64{0, 19960859, 33603073, 33525425, 33598956}
	for i, w := range want {
		r := rs[i+1]
		if r.TSNs == nil || *r.TSNs != w {
			t.Errorf("line %d: ts_ns %v, want %d", r.Line, r.TSNs, w)
		}
	}
}

// TestCPUHzWins: --cpu-hz gives ts_ns to every line, the start-up record
// notwithstanding.
func TestCPUHzWins(t *testing.T) {
	res := readCorpus(t, "smpadd_hook_examples.out", dialect.Options{CPUHz: 1e9})
	for _, r := range records(t, res.JSONL) {
		if r.TSNs == nil {
			t.Errorf("line %d has no ts_ns", r.Line)
		}
	}
	rs := records(t, res.JSONL)
	if *rs[3].TSNs != 2016239 {
		t.Errorf("at 1 GHz a cycle is a nanosecond: got %d, want 2016239", *rs[3].TSNs)
	}
}

// TestConsoleIsNotATrace: the STRACE POST console output is not told as any
// dialect.
func TestConsoleIsNotATrace(t *testing.T) {
	path := corpus.Path(t, "corpus", "os2", "strace", "smpadd_post_console.txt")
	data := mustRead(t, path)
	if d, err := dialect.Detect("smpadd_post_console.txt", data); err == nil {
		t.Errorf("the console text was told as %s", d.Name)
	}
	// Forced, the first dialect.LeadingFailures lines fail: one INP004
	// stands for them and the rest is not read.
	res := dialecttest.Run(dialect.Options{Dialect: "os2strace"}, "console", data)
	if res.Summary.Records != 0 || res.Summary.Skipped != dialect.LeadingFailures || res.Summary.Failed != 1 {
		t.Errorf("forced os2strace: %d records, %d skipped, %d failed; want 0, %d, 1", res.Summary.Records, res.Summary.Skipped, res.Summary.Failed, dialect.LeadingFailures)
	}
	if len(res.Diags) != 1 || res.Diags[0].Code != dialect.CodeNotDialect {
		t.Errorf("diagnostics %v, want one INP004", res.Diags)
	}
}
