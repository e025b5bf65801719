package filter

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/tracekit/tracekit/ast/golden"
	"github.com/tracekit/tracekit/lower/dialect"
	"github.com/tracekit/tracekit/lower/record"
)

// run writes the records of testdata/fork.strace that f keeps as text.
func run(t *testing.T, f *Filter, format string) string {
	t.Helper()
	data, err := os.ReadFile("testdata/fork.strace")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	w, _ := record.NewWriter(format, &out)
	sum, err := dialect.Records(context.Background(), dialect.Options{Dialect: "strace"},
		[]dialect.Input{{Name: "fork.strace", Reader: bytes.NewReader(data)}}, Writer(w, f), nil)
	if err != nil || sum.Incomplete() {
		t.Fatalf("%v %s", err, sum)
	}
	return out.String()
}

func ptr(t Time) *Time { return &t }

// TestFilters: each filter on a log the real strace wrote (testdata/mklog.sh),
// its output a golden; each keeps something and drops something.
func TestFilters(t *testing.T) {
	all := run(t, nil, "text")
	for _, tc := range []struct {
		name string
		f    Filter
	}{
		{"pid", Filter{PIDs: []uint64{30133}}},
		{"tid", Filter{TIDs: []uint64{30134}}},
		{"event", Filter{Events: []string{"open*", "CLOSE"}}},
		{"failed", Filter{Failed: true}},
		{"errno", Filter{Errnos: []string{"enoent"}}},
		{"mindur", Filter{MinDur: 100_000}},
		{"since-until", Filter{Since: ptr(Time{Ns: 10_000_000}), Until: ptr(Time{Ns: 15_000_000})}},
		{"clock", Filter{Since: ptr(Time{Ns: clock(t, "03:08:36.020"), Clock: true}), Until: ptr(Time{Ns: clock(t, "03:08:36.025"), Clock: true}), Events: []string{"*"}}},
		{"combined", Filter{PIDs: []uint64{30132}, Events: []string{"wait4", "exit*"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := run(t, &tc.f, "text")
			if got == "" || got == all {
				t.Errorf("the filter kept %d of %d bytes: nothing or everything", len(got), len(all))
			}
			golden.Check(t, "testdata/"+tc.name+".txt", []byte(got))
		})
	}
}

func clock(t *testing.T, s string) int64 {
	t.Helper()
	ns, ok := clockNs(s)
	if !ok {
		t.Fatalf("clock %q", s)
	}
	return ns
}

// TestPartsKept: the filtered writer still encodes on the pipeline's
// workers (record.Parts) and writes what one worker writes.
func TestPartsKept(t *testing.T) {
	w, _ := record.NewWriter("jsonl", &bytes.Buffer{})
	if _, ok := Writer(w, &Filter{Failed: true}).(record.Parts); !ok {
		t.Error("the filter hides the writer's Parts")
	}
	if Writer(w, &Filter{}) != w {
		t.Error("an empty filter wraps the writer")
	}
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Time
	}{
		{"1.5s", Time{Ns: 1_500_000_000}}, {"250ms", Time{Ns: 250_000_000}}, {"2", Time{Ns: 2_000_000_000}},
		{"12:00:01.5", Time{Ns: 43_201_500_000_000, Clock: true}}, {"00:01", Time{Ns: 60_000_000_000, Clock: true}},
	} {
		got, err := ParseTime(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseTime(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"25:00", "x", "1:2:3:4"} {
		if _, err := ParseTime(bad); err == nil {
			t.Errorf("ParseTime(%q) took it", bad)
		}
	}
	if d, err := ParseDuration("200us"); err != nil || d != 200_000 {
		t.Errorf("200us = %d %v", d, err)
	}
	if _, err := ParseDuration("-1s"); err == nil {
		t.Error("a negative duration was taken")
	}
	if err := (&Filter{Events: []string{"["}}).Check(); err == nil {
		t.Error("a malformed pattern was taken")
	}
}
