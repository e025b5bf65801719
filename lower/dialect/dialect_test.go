package dialect_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/lower/dialect"
	"github.com/tracekit/tracekit/lower/record"
)

func TestRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, d := range dialect.List() {
		lines := d.NewLowerer != nil && d.NewParser != nil && d.Binary == nil
		binary := d.NewLowerer == nil && d.NewParser == nil && d.Binary != nil
		if d.Name == "" || d.Description == "" || len(d.Patterns) == 0 || d.Sniff == nil || !lines && !binary {
			t.Errorf("incomplete registry entry %+v", d)
		}
		if seen[d.Name] {
			t.Errorf("dialect %s registered twice", d.Name)
		}
		seen[d.Name] = true
		if got, ok := dialect.Lookup(d.Name); !ok || got.Name != d.Name {
			t.Errorf("Lookup(%q) = %v, %v", d.Name, got.Name, ok)
		}
	}
	// These stay registered, in this order (a new dialect may come
	// anywhere among them).
	want := []string{"os2strace", "os2mte", "winstrace", "prf", "prfcsv", "strace", "stda", "tracefmt"}
	var kept []string
	for _, n := range dialect.Names() {
		if slices.Contains(want, n) {
			kept = append(kept, n)
		}
	}
	if !slices.Equal(kept, want) {
		t.Errorf("Names() = %s, want %s among them", dialect.Names(), want)
	}
	if _, ok := dialect.Lookup("nosuch"); ok {
		t.Error("Lookup found a dialect that is not registered")
	}
	// Every line-oriented dialect has a generator for benchmarks (an STDA is
	// at most 64 KiB: the buffer dialects are measured by their own tests).
	for _, n := range want[:6] {
		var b bytes.Buffer
		if err := dialect.Generate(n, &b, 4096); err != nil || b.Len() == 0 || b.Len() > 4096 {
			t.Errorf("dialect.Generate(%s): %d bytes, %v", n, b.Len(), err)
		}
	}
	if !slices.Equal(dialect.Generated()[:6], want[:6]) {
		t.Errorf("Generated() = %v", dialect.Generated())
	}
	if err := dialect.Generate("stda", io.Discard, 10); err == nil {
		t.Error("Generate of a dialect without a generator did not fail")
	}
}

func TestDetect(t *testing.T) {
	tests := []struct {
		name, head, want string // want "" means an error
	}{
		{"x.out", " 102   13   29 9450:1545341324 0 fff37182 fff05c9c\n", "os2strace"},
		{"stdin", "3401   a8    3 9450:1546123683 2 -- strace.mte --\n 100 4 89 9450:1 0\n", "os2strace"},
		{"-", "0002 00020000 00004000 0000000d fb1e0828 E:\\OS2\\EPWMP.EXE\n", "os2mte"},
		{"a.txt", "> 1 * 100 200 NtOpenFile[1](???)\n< 1 100 200 NtOpenFile[1](0x7c) == 0\n", "winstrace"},
		{"a.txt", "7 100 200 NtClose[0]()\n", "winstrace"},
		{"a.txt", "\n\nPRF: Rec Process: 1 Thread: 0x1\nTrace: 1\n", "prf"},
		{"a.txt", "PRF,Process,Thread(hashcode),Trace\n", "prfcsv"},
		{"a.txt", "Rec,1,0x1,1,p,0x8000\n", "prfcsv"},
		{"a.txt", "\xef\xbb\xbfPRF: Rec Process: 1 Thread: 0x1\n", "prf"},
		{"t.2461545", "1389268407.589799 read(-1, 0x7fff95659f3f, 1) = -1 EBADF (Bad file descriptor)\n", "strace"},
		{"-", "[pid 12] 10:00:00.000001 close(3) = 0 <0.000010>\n > /lib/libc.so.6(close+0x1) [0x1]\n7 <... read resumed>\"\", 1) = 0\n", "strace"},
		{"strace.out", "strace: Process 1 attached\n--- SIGCHLD {si_signo=SIGCHLD} ---\n+++ exited with 0 +++\n", "strace"},
		{"x.strace", "garbage\n", "strace"},
		{"-", "10:00:00 [00007f3b0a9d3d87] close(3) = 0\n", "strace"},
		// Nothing sniffs; a pattern matched by one dialect decides.
		{"trace.mte", "garbage\n", "os2mte"},
		{"trace.csv", "", "prfcsv"},
		{"trace.txt", "RAW file    = strace.raw\n", ""},
		{"-", "", ""},
		// A line cut off by the end of the head is not judged.
		{"a", " 102   13   29 9450:1545341324 0 fff37182 fff05c9c\n 102 13", "os2strace"},
	}
	for _, tt := range tests {
		d, err := dialect.Detect(tt.name, []byte(tt.head))
		switch {
		case tt.want == "" && err == nil:
			t.Errorf("Detect(%q, %q) = %s, want an error", tt.name, tt.head, d.Name)
		case tt.want != "" && (err != nil || d.Name != tt.want):
			t.Errorf("Detect(%q, %q) = %s, %v; want %s", tt.name, tt.head, d.Name, err, tt.want)
		}
	}
}

func TestMatches(t *testing.T) {
	d, _ := dialect.Lookup("os2mte")
	for name, want := range map[string]bool{"STRACE.MTE": true, `C:\TRACE\STRACE.MTE`: true, "dir/x.mte": true, "x.mte.gz": false} {
		if got := dialect.Matches(d, name); got != want {
			t.Errorf("Matches(os2mte, %q) = %v", name, got)
		}
	}
}

type collect struct {
	recs  []record.Record
	fail  int // fail on this write (1-based); 0 never
	flush int
}

var errWrite = errors.New("disk full")

func (c *collect) Write(r *record.Record) error {
	if c.fail > 0 && len(c.recs)+1 == c.fail {
		return errWrite
	}
	c.recs = append(c.recs, *r)
	return nil
}

func (c *collect) Flush() error { c.flush++; return nil }

const hooks = " 102 13 29 9450:1 0 fff37182 fff05c9c\n" +
	" 102 13 29 9450:2 0 zz\n" +
	"\n" +
	" 101 13 29 9450:3 0 00000001\n"

func TestRecordsOptions(t *testing.T) {
	ctx := context.Background()
	in := func(name, s string) dialect.Input { return dialect.Input{Name: name, Reader: strings.NewReader(s)} }

	t.Run("skipped lines are counted", func(t *testing.T) {
		var w collect
		var ds diag.List
		sum, err := dialect.Records(ctx, dialect.Options{}, []dialect.Input{in("a.out", hooks)}, &w, ds.Add)
		if err != nil || sum.Records != 2 || sum.Skipped != 1 || sum.Lines != 4 || !sum.Incomplete() || len(ds) != 1 || w.flush != 1 {
			t.Errorf("%+v %v %v flush=%d", sum, err, ds, w.flush)
		}
		if w.recs[0].Seq != 1 || w.recs[1].Seq != 2 || w.recs[1].Line != 4 {
			t.Errorf("seq and line: %+v", w.recs)
		}
		if ds[0].Pos.String() != "a.out:2:21" || ds[0].Code != "STR003" {
			t.Errorf("diagnostic %v", ds[0])
		}
		if got, want := sum.String(), "1 input, 4 lines, 2 records, 1 line skipped, 0 warnings"; got != want {
			t.Errorf("summary %q, want %q", got, want)
		}
	})
	t.Run("strict stops at the first error", func(t *testing.T) {
		var w collect
		sum, err := dialect.Records(ctx, dialect.Options{Strict: true}, []dialect.Input{in("a.out", hooks), in("b.out", hooks)}, &w, nil)
		var se *dialect.StrictError
		if !errors.As(err, &se) || se.Diag.Code != "STR003" || len(w.recs) != 1 || len(sum.Inputs) != 1 {
			t.Errorf("%v %+v %d records", err, sum, len(w.recs))
		}
	})
	t.Run("unknown dialect", func(t *testing.T) {
		if _, err := dialect.Records(ctx, dialect.Options{Dialect: "nosuch"}, nil, &collect{}, nil); err == nil {
			t.Error("no error for an unknown dialect")
		}
	})
	t.Run("missing file ends the run", func(t *testing.T) {
		var w collect
		missing := filepath.Join(t.TempDir(), "missing.out")
		sum, err := dialect.Records(ctx, dialect.Options{}, []dialect.Input{{Name: missing}, in("b.out", hooks)}, &w, nil)
		if err == nil || sum.Failed != 1 || len(sum.Inputs) != 1 {
			t.Errorf("%v %+v", err, sum)
		}
	})
	t.Run("keep going past a missing file and an unknown dialect", func(t *testing.T) {
		var w collect
		var ds diag.List
		missing := filepath.Join(t.TempDir(), "missing.out")
		sum, err := dialect.Records(ctx, dialect.Options{KeepGoing: true}, []dialect.Input{{Name: missing}, in("x.txt", "hello\n"), in("b.out", hooks)}, &w, ds.Add)
		if err != nil || sum.Failed != 2 || sum.Records != 2 || !sum.Incomplete() {
			t.Errorf("%v %+v", err, sum)
		}
		if len(ds) != 3 || ds[0].Code != "INP003" || ds[1].Code != "INP002" {
			t.Errorf("diagnostics %v", ds)
		}
	})
	t.Run("files are opened by name", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "t.out")
		if err := os.WriteFile(path, []byte(hooks), 0o644); err != nil {
			t.Fatal(err)
		}
		var w collect
		sum, err := dialect.Records(ctx, dialect.Options{}, []dialect.Input{{Name: path}}, &w, nil)
		if err != nil || sum.Records != 2 || w.recs[0].Source != path {
			t.Errorf("%v %+v", err, sum)
		}
	})
	t.Run("long lines are skipped", func(t *testing.T) {
		var w collect
		var ds diag.List
		long := " 101 13 29 9450:1 0 " + strings.Repeat("0", 200) + "\n"
		sum, err := dialect.Records(ctx, dialect.Options{MaxLine: 100}, []dialect.Input{in("a.out", hooks+long+hooks)}, &w, ds.Add)
		if err != nil || sum.Records != 4 || sum.Skipped != 3 || ds[1].Code != "INP001" || ds[1].Pos.Line != 5 {
			t.Errorf("%v %+v %v", err, sum, ds)
		}
	})
	t.Run("writer errors end the run", func(t *testing.T) {
		w := collect{fail: 2}
		_, err := dialect.Records(ctx, dialect.Options{}, []dialect.Input{in("a.out", hooks)}, &w, nil)
		if !errors.Is(err, errWrite) {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("a done context ends the run", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		_, err := dialect.Records(cctx, dialect.Options{}, []dialect.Input{in("a.out", hooks)}, &collect{}, nil)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("a failing reader is reported after what it gave", func(t *testing.T) {
		var w collect
		var ds diag.List
		r := io.MultiReader(strings.NewReader(hooks), errReader{})
		sum, err := dialect.Records(ctx, dialect.Options{Dialect: "os2strace", KeepGoing: true}, []dialect.Input{{Name: "r", Reader: r}}, &w, ds.Add)
		if err != nil || sum.Records != 2 || sum.Failed != 1 || ds[len(ds)-1].Code != "INP003" {
			t.Errorf("%v %+v %v", err, sum, ds)
		}
	})
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("device error") }

// stopWriter counts records and fails once it has seen enough.
type stopWriter struct {
	n, stop int
	heap    []uint64 // heap in use at a few points
}

var errEnough = errors.New("enough")

func (s *stopWriter) Write(*record.Record) error {
	s.n++
	if s.n == s.stop/2 || s.n == s.stop-1 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		s.heap = append(s.heap, m.HeapInuse)
	}
	if s.n >= s.stop {
		return errEnough
	}
	return nil
}

func (s *stopWriter) Flush() error { return nil }

// TestStreaming feeds every dialect an endless input: records must come out
// while it is being read, and the heap must not grow with the input.
func TestStreaming(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	// The heap is first measured at stop/2 records: past the time the
	// parallel path fills its 2×workers batches and their storage grows to
	// its working size (a few thousand lines), so that what is measured is
	// growth with the input, not the pipeline filling.
	stop := 100000 // 50,000 records between the two points: holding them would pass 8 MiB
	if raceEnabled {
		stop = 24000
	}
	for _, name := range dialect.Generated() {
		t.Run(name, func(t *testing.T) {
			pr, pw := io.Pipe()
			done := make(chan struct{})
			go func() {
				defer close(done)
				err := dialect.Generate(name, pw, 1<<62)
				pw.CloseWithError(err)
			}()
			w := &stopWriter{stop: stop}
			_, err := dialect.Records(context.Background(), dialect.Options{Dialect: name}, []dialect.Input{{Name: name, Reader: pr}}, w, nil)
			pr.Close()
			<-done
			if !errors.Is(err, errEnough) {
				t.Fatalf("err = %v after %d records", err, w.n)
			}
			if len(w.heap) == 2 && w.heap[1] > w.heap[0]+8<<20 {
				t.Errorf("heap grew from %d to %d bytes between record %d and %d", w.heap[0], w.heap[1], stop/2, stop-1)
			}
		})
	}
}

// TestStrictJoined checks a strict run of the dialects whose work across
// lines is a Joiner's (lowered on one goroutine through lowering.Joined):
// every record of the lines before the first skipped line is written —
// the last one too, which the Joiner holds for -k frames — and none after;
// the same for a line too long, which the registry skips itself.
func TestStrictJoined(t *testing.T) {
	var good strings.Builder
	const n = 300 // more than Joined lowers before it joins
	for i := range n {
		fmt.Fprintf(&good, "[pid %d] close(%d) = 0\n", 100+i%3, i)
	}
	for _, tc := range []struct{ name, bad, code string }{
		{"malformed line", "[pid 7] THIS IS NOT strace\n", "LST001"},
		{"line too long", "[pid 7] write(1, \"" + strings.Repeat("x", 300) + "\", 300) = 300\n", "INP001"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := good.String() + tc.bad + "[pid 9] close(1) = 0\n"
			var w collect
			var ds diag.List
			_, err := dialect.Records(context.Background(), dialect.Options{Dialect: "strace", Strict: true, MaxLine: 200},
				[]dialect.Input{{Name: "s", Reader: strings.NewReader(in)}}, &w, ds.Add)
			var se *dialect.StrictError
			if !errors.As(err, &se) || se.Diag.Code != diag.Code(tc.code) || se.Diag.Pos.Line != n+1 {
				t.Fatalf("err = %v, want a strict stop with %s at line %d", err, tc.code, n+1)
			}
			if len(w.recs) != n || w.recs[n-1].Line != n {
				t.Errorf("%d records written, the last of line %d; want %d, the last of line %d", len(w.recs), w.recs[len(w.recs)-1].Line, n, n)
			}
			if len(ds) != 1 {
				t.Errorf("diagnostics %v, want the one that stopped the run", ds)
			}
		})
	}
}
