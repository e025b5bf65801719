package strace_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/lower/dialect"
	"github.com/tracekit/tracekit/lower/dialect/dialecttest"
	"github.com/tracekit/tracekit/lower/record"
	"github.com/tracekit/tracekit/lower/record/parquetout"
	"github.com/tracekit/tracekit/lower/record/recordtest"
)

var updateMatrix = flag.Bool("update-matrix", false, "rewrite testdata/matrix/matrix.golden")

// matrixFiles are the real strace 6.1 logs of testdata/matrix (gen.sh).
func matrixFiles(t *testing.T) []string {
	var out []string
	for _, g := range []string{"*.strace", "*.strace.*"} {
		m, err := filepath.Glob(filepath.Join("testdata", "matrix", g))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m...)
	}
	slices.Sort(out)
	if len(out) < 40 {
		t.Fatalf("only %d logs in testdata/matrix", len(out))
	}
	return out
}

// mrec is what the matrix tests read of a record.
type mrec struct {
	Line     int            `json:"line"`
	PID      *uint64        `json:"pid"`
	TID      *uint64        `json:"tid"`
	Event    string         `json:"event"`
	Phase    string         `json:"phase"`
	Unpaired bool           `json:"unpaired"`
	Errno    string         `json:"errno"`
	DurNs    *int64         `json:"dur_ns"`
	TSNs     *int64         `json:"ts_ns"`
	Args     []mArg         `json:"args"`
	Attrs    map[string]any `json:"attrs"`
}

type mArg struct {
	Name    string      `json:"name"`
	Int     json.Number `json:"int"`
	Sym     string      `json:"sym"`
	Path    string      `json:"path"`
	Deleted bool        `json:"deleted"`
}

func lowerMatrix(t *testing.T, in string) ([]mrec, dialecttest.Result) {
	t.Helper()
	data, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	res := dialecttest.Run(dialectOpts(), filepath.Base(in), data)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	var recs []mrec
	for _, l := range bytes.Split(bytes.TrimSpace(res.JSONL), []byte("\n")) {
		var r mrec
		if err := json.Unmarshal(l, &r); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	return recs, res
}

// TestMatrix reads every log of the matrix: no diagnostic at all, every
// record valid by the schema, and a digest of each (records per event and
// phase, pids and tids) equal to testdata/matrix/matrix.golden
// (-update-matrix rewrites it; the logs' pids change when gen.sh is run).
// A few small logs have whole goldens beside them.
func TestMatrix(t *testing.T) {
	v := recordtest.NewValidator(t)
	var digest bytes.Buffer
	for _, in := range matrixFiles(t) {
		name := filepath.Base(in)
		recs, res := lowerMatrix(t, in)
		if len(res.Diags) != 0 || res.Summary.Skipped != 0 {
			t.Errorf("%s: %d lines skipped, diagnostics:\n%s", name, res.Summary.Skipped, res.DiagText())
		}
		if n := v.JSONL(t, name, res.JSONL); n == 0 {
			t.Errorf("%s: no records", name)
		}
		counts := map[string]int{}
		threads := map[string]bool{}
		for _, r := range recs {
			counts[r.Event+"/"+r.Phase]++
			if r.PID != nil {
				threads[fmt.Sprintf("%d/%d", *r.PID, *r.TID)] = true
			}
		}
		fmt.Fprintf(&digest, "%s: %d records, %d pid/tid pairs\n", name, len(recs), len(threads))
		keys := slices.Sorted(func(yield func(string) bool) {
			for k := range counts {
				if !yield(k) {
					return
				}
			}
		})
		for _, k := range keys {
			fmt.Fprintf(&digest, "\t%s %d\n", k, counts[k])
		}
	}
	golden := filepath.Join("testdata", "matrix", "matrix.golden")
	if *updateMatrix {
		if err := os.WriteFile(golden, digest.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, digest.Bytes()) {
		t.Errorf("the matrix digest differs from %s (go test -update-matrix rewrites it)", golden)
	}
	for _, n := range []string{"threads.strace", "threads-C.strace", "cwU.strace", "ended.strace", "ended-status.strace"} {
		in := filepath.Join("testdata", "matrix", n)
		dialecttest.Golden(t, v, dialecttest.Case{Input: in, Golden: filepath.Join("testdata", "matrix", "golden", n)})
	}
}

// A scan of a log independent of the grammar and the lowering: the prefix
// (pid, -Y name, time, -n number, -i pointer) taken off by a regular
// expression, then calls, resumed halves, signals and exits told by their
// first characters, and the errno of every finished call.
var (
	scanPrefix = regexp.MustCompile(`^(\[pid +\d+(<[^>]*>)?\] |\d+(<[^>]*>)? +)?([\d:.]+ +)?(\[ *\d+\] )?(\[[0-9a-f?]+\] )?`)
	// The time stamp of -r without -f, right-aligned: "     0 brk(".
	scanRelative = regexp.MustCompile(`^ +\d+(\.\d+)? [a-z<+-]`)
	scanErrno    = regexp.MustCompile(`\) += (?:-1|\?) (E[A-Z0-9_]+) `)
	scanSigno    = regexp.MustCompile(`si_signo=(SIG[A-Z0-9]+)`)
	scanMsg      = regexp.MustCompile(`(/usr/bin/)?strace: Process \d+ (attached|detached)`)
)

type mscan struct {
	calls   map[string]int // calls started, per name
	errnos  map[string]int
	signals map[string]int
	exits   int
}

func scanMatrix(t *testing.T, in string) mscan {
	data, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	s := mscan{calls: map[string]int{}, errnos: map[string]int{}, signals: map[string]int{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if scanRelative.MatchString(line) {
			line = strings.TrimLeft(line, " ")
		}
		if strings.HasPrefix(line, " ") || strings.HasPrefix(line, "strace:") || strings.HasPrefix(line, "/usr/bin/strace:") {
			if m := scanErrno.FindStringSubmatch(line + " "); m != nil {
				s.errnos[m[1]]++
			}
			continue
		}
		line = scanMsg.ReplaceAllString(line, "")
		line = line[len(scanPrefix.FindString(line)):]
		if m := scanErrno.FindStringSubmatch(line + " "); m != nil {
			s.errnos[m[1]]++
		}
		switch {
		case strings.HasPrefix(line, "--- SIG"):
			s.signals[strings.Fields(line)[1]]++
		case strings.HasPrefix(line, "--- {"):
			s.signals[scanSigno.FindStringSubmatch(line)[1]]++
		case strings.HasPrefix(line, "+++ exited") || strings.HasPrefix(line, "+++ killed"):
			s.exits++
		case strings.HasPrefix(line, "<..."):
		default:
			if i := strings.IndexByte(line, '('); i > 0 && regexp.MustCompile(`^[a-z_0-9?]+$`).MatchString(line[:i]) {
				s.calls[line[:i]]++
			}
		}
	}
	return s
}

// TestMatrixCounts compares the records of every log with the scan:
// calls per name, errno per symbol, signals per name, exits.
func TestMatrixCounts(t *testing.T) {
	for _, in := range matrixFiles(t) {
		name := filepath.Base(in)
		t.Run(name, func(t *testing.T) {
			want := scanMatrix(t, in)
			recs, _ := lowerMatrix(t, in)
			got := mscan{calls: map[string]int{}, errnos: map[string]int{}, signals: map[string]int{}}
			for _, r := range recs {
				switch {
				case r.Attrs["type"] == "summary":
				case r.Attrs["type"] == "signal":
					got.signals[r.Event]++
				case r.Attrs["type"] == "exit":
					if r.Event != "superseded" {
						got.exits++
					}
				case r.Phase == "complete" || r.Phase == "enter":
					got.calls[r.Event]++
				}
				if r.Errno != "" {
					got.errnos[r.Errno]++
				}
			}
			for _, m := range []struct {
				what      string
				got, want map[string]int
			}{{"calls", got.calls, want.calls}, {"errno", got.errnos, want.errnos}, {"signals", got.signals, want.signals}} {
				if fmt.Sprint(m.got) != fmt.Sprint(m.want) {
					t.Errorf("%s: records %v, scan %v", m.what, m.got, m.want)
				}
			}
			if got.exits != want.exits {
				t.Errorf("exits: records %d, scan %d", got.exits, want.exits)
			}
		})
	}
}

// TestMatrixThreads: the program of src/threads.c makes four threads;
// traced with -f they are four tids of one pid.
func TestMatrixThreads(t *testing.T) {
	for _, tt := range []struct {
		log  string
		tids int
	}{
		// src/threads.c: the main thread and four.
		{"threads.strace", 5},
		{"threads-C.strace", 5},
		// src/ended.c: the main thread and two. A new thread's first
		// call comes before its creator's clone3 returns: its record
		// still gets the process.
		{"ended.strace", 3},
		{"ended-status.strace", 3},
	} {
		recs, _ := lowerMatrix(t, filepath.Join("testdata", "matrix", tt.log))
		pids, tids := map[uint64]bool{}, map[uint64]bool{}
		for _, r := range recs {
			if r.Attrs["type"] == "summary" { // -C's table
				continue
			}
			if r.PID == nil || r.TID == nil {
				t.Fatalf("%s: line %d: no pid or tid", tt.log, r.Line)
			}
			pids[*r.PID], tids[*r.TID] = true, true
		}
		if len(pids) != 1 || len(tids) != tt.tids {
			t.Errorf("%s: %d pids, %d tids; want 1 pid and %d tids", tt.log, len(pids), len(tids), tt.tids)
		}
	}
}

// TestMatrixEnded: the calls the process ended in (src/ended.c) are
// complete records with the result "?" and attrs.undecoded, whichever way
// strace wrote them.
func TestMatrixEnded(t *testing.T) {
	for _, log := range []string{"ended.strace", "ended-status.strace", "ended-ff.strace.*"} {
		files, err := filepath.Glob(filepath.Join("testdata", "matrix", log))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no log (%v)", log, err)
		}
		got := map[string]int{}
		for _, f := range files {
			recs, _ := lowerMatrix(t, f)
			for _, r := range recs {
				if r.Attrs["undecoded"] == true {
					if r.Phase != "complete" {
						t.Errorf("%s:%d: %s undecoded in phase %s", f, r.Line, r.Event, r.Phase)
					}
					got[r.Event]++
				}
			}
		}
		if want := map[string]int{"clock_nanosleep": 1, "read": 1}; !maps.Equal(got, want) {
			t.Errorf("%s: undecoded calls %v, want %v", log, got, want)
		}
	}
}

// TestMatrixSummary: the rows of the -c tables (threads-c.strace, the -U
// columns of cwU.strace, Uname.strace and Ucallserrors.strace, the 32-bit
// table of cmode.strace) read back as strace printed them, and the -C
// table of threads-C.strace counts the calls and errors of the trace
// above it.
func TestMatrixSummary(t *testing.T) {
	for _, n := range []string{"threads-c.strace", "cwU.strace", "c.strace", "threads-C.strace", "C.strace", "Uname.strace", "Ucallserrors.strace", "cmode.strace"} {
		in := filepath.Join("testdata", "matrix", n)
		recs, _ := lowerMatrix(t, in)
		data, _ := os.ReadFile(in)
		// The rows as strace wrote them: name, calls and errors by the
		// header's columns.
		rows := map[string][2]uint64{}
		var cols []string
		for _, l := range strings.Split(string(data), "\n") {
			f := strings.Fields(l)
			switch {
			case len(f) > 0 && (f[0] == "%" || f[0] == "syscall" || f[0] == "calls"):
				cols = strings.Fields(strings.Replace(l, "% time", "%time", 1))
			case len(f) > 0 && f[0] == "System":
				// "System call usage summary for 32 bit mode:": the
				// rows of that table are the same syscalls again.
				rows = map[string][2]uint64{}
			case cols != nil && len(f) > 0 && len(f) >= len(cols)-1 && !strings.HasPrefix(f[0], "-"):
				byName := map[string]string{}
				k := 0
				for _, c := range cols {
					if c == "errors" && len(f) == len(cols)-1 {
						byName[c] = "0"
						continue
					}
					byName[c] = f[k]
					k++
				}
				calls, _ := strconv.ParseUint(byName["calls"], 10, 64)
				errs, _ := strconv.ParseUint(byName["errors"], 10, 64)
				rows[byName["syscall"]] = [2]uint64{calls, errs}
			}
		}
		got := map[string][2]uint64{}
		traced := map[string][2]uint64{}
		titled := false
		for _, r := range recs {
			if r.Attrs["type"] == "summary" {
				if r.Attrs["mode"] != nil && !titled {
					// The table of the title, as rows holds it.
					got, titled = map[string][2]uint64{}, true
				}
				var v [2]uint64
				for _, a := range r.Args {
					switch a.Name {
					case "calls":
						v[0], _ = strconv.ParseUint(string(a.Int), 10, 64)
					case "errors":
						v[1], _ = strconv.ParseUint(string(a.Int), 10, 64)
					}
				}
				got[r.Event] = v
				continue
			}
			if r.Phase == "complete" {
				v := traced[r.Event]
				v[0]++
				if r.Errno != "" {
					v[1]++
				}
				traced[r.Event] = v
			}
		}
		if len(rows) < 5 || fmt.Sprint(got) != fmt.Sprint(rows) {
			t.Errorf("%s: summary records %v\nstrace's rows %v", n, got, rows)
		}
		if n == "C.strace" || n == "threads-C.strace" {
			for name, v := range rows {
				if name != "total" && traced[name] != v {
					t.Errorf("%s: %s: strace's table says calls, errors %v, the trace above it %v", n, name, v, traced[name])
				}
			}
		}
	}
}

// TestMatrixChromeThreads: in the Chrome/Perfetto timeline of
// threads.strace the program is one process with its five threads under it.
func TestMatrixChromeThreads(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "matrix", "threads.strace"))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	w := record.NewChrome(&out)
	if _, err := dialect.Records(context.Background(), dialectOpts(), []dialect.Input{{Name: "threads.strace", Reader: bytes.NewReader(data)}}, w, func(d diag.Diagnostic) { t.Error(d) }); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	var trace struct {
		TraceEvents []struct {
			Ph  string `json:"ph"`
			PID uint64 `json:"pid"`
			TID uint64 `json:"tid"`
		} `json:"traceEvents"`
	}
	if err := json.Unmarshal(out.Bytes(), &trace); err != nil {
		t.Fatal(err)
	}
	pids, tids := map[uint64]bool{}, map[uint64]bool{}
	for _, e := range trace.TraceEvents {
		if e.Ph == "M" {
			continue
		}
		pids[e.PID], tids[e.TID] = true, true
	}
	if len(pids) != 1 || len(tids) != 5 {
		t.Errorf("the timeline has %d processes and %d threads; want 1 process and 5 threads", len(pids), len(tids))
	}
}

// TestMatrixParquetDuckDB: DuckDB reads the Parquet file of threads.strace
// as one pid with five tids, and the timestamps of ttt.strace (-ttt) and
// unixns.strace (--timestamps=unix,ns) in the year they were made.
func TestMatrixParquetDuckDB(t *testing.T) {
	db := recordtest.NewDuckDB(t)
	dir := t.TempDir()
	var stmts []string
	for _, n := range []string{"threads.strace", "ttt.strace", "unixns.strace"} {
		data, err := os.ReadFile(filepath.Join("testdata", "matrix", n))
		if err != nil {
			t.Fatal(err)
		}
		pq := filepath.Join(dir, n+".parquet")
		f, err := os.Create(pq)
		if err != nil {
			t.Fatal(err)
		}
		w := parquetout.New(f)
		if _, err := dialect.Records(context.Background(), dialectOpts(), []dialect.Input{{Name: n, Reader: bytes.NewReader(data)}}, w, func(d diag.Diagnostic) { t.Error(d) }); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		stmts = append(stmts, fmt.Sprintf("SELECT count(DISTINCT pid) AS pids, count(DISTINCT tid) AS tids, CAST(min(year(ts)) AS INTEGER) AS year FROM '%s'", pq))
	}
	res := db.Query(t, stmts...)
	if got := fmt.Sprint(res[0][0]["pids"], " ", res[0][0]["tids"]); got != "1 5" {
		t.Errorf("threads.strace: pids and tids %s, want 1 5", got)
	}
	for i, n := range []string{"ttt.strace", "unixns.strace"} {
		if y := fmt.Sprint(res[i+1][0]["year"]); y < "2025" {
			t.Errorf("%s: the first time stamp is in %s, want the year the log was made", n, y)
		}
	}
}

// TestMatrixPersonality: the child of src/mode.c execs a 32-bit program;
// strace's "[ Process PID=N runs in 32 bit mode. ]" is one personality
// record of that process, after its execve.
func TestMatrixPersonality(t *testing.T) {
	recs, res := lowerMatrix(t, filepath.Join("testdata", "matrix", "mode.strace"))
	if len(res.Diags) != 0 {
		t.Fatalf("diagnostics:\n%s", res.DiagText())
	}
	var execve *mrec
	n := 0
	for i, r := range recs {
		switch {
		case r.Event == "execve" && r.TID != nil && r.PID != nil && *r.TID != *r.PID:
			t.Errorf("line %d: execve of a thread", r.Line)
		case r.Event == "execve":
			execve = &recs[i]
		case r.Event == "personality":
			n++
			if r.Phase != "instant" || r.Attrs["mode"] != "32 bit" || r.Attrs["type"] != "message" {
				t.Errorf("line %d: %+v", r.Line, r)
			}
			if execve == nil || *execve.PID != *r.PID {
				t.Errorf("line %d: personality of pid %d, not after the execve of that process", r.Line, *r.PID)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d personality records, want 1", n)
	}
}

// TestMatrixNames: the paths of the -y and -yy decorations of
// src/names.c's writes are its file names, strace's escapes decoded (a
// quote, a backslash, < and >, brackets alone, "->", a newline, a tab, a
// space, a name ending in '-'); a removed file and a memfd are marked
// deleted; -yy's descriptions are as written, an IPv6 connection's with
// nested brackets, an abstract socket's with its quoted name.
func TestMatrixNames(t *testing.T) {
	want := []string{"names-q\"x", "names-b\\s", "names-a<b>c", "names-u[nb", "names-u]nb",
		"names-a->b", "names-nl\nx", "names-t\ttab", "names-sp ace", "names-x-", "names-removed (deleted)"}
	for _, log := range []string{"ynames.strace", "yynames.strace"} {
		recs, _ := lowerMatrix(t, filepath.Join("testdata", "matrix", log))
		var files, others []string
		for _, r := range recs {
			if (r.Event != "write" && r.Event != "read") || len(r.Args) == 0 || r.Args[0].Path == "" {
				continue
			}
			a := r.Args[0]
			p := a.Path
			if a.Deleted {
				p += " (deleted)"
			}
			if i := strings.LastIndex(p, "/names-"); i >= 0 {
				files = append(files, p[i+1:])
			} else if !strings.HasPrefix(p, "/usr/") && !strings.HasPrefix(p, "/lib") {
				others = append(others, p)
			}
		}
		if !slices.Equal(files, want) {
			t.Errorf("%s: files written %q, want %q", log, files, want)
		}
		got := strings.Join(others, " ")
		re := regexp.MustCompile(`^socket:\[\d+\] socket:\[\d+\] /memfd:names mem"fd \(deleted\) anon_inode:\[eventfd\] socket:\[\d+\]$`)
		if log == "yynames.strace" {
			re = regexp.MustCompile(`^TCPv6:\[\[::1\]:\d+->\[::1\]:\d+\] TCPv6:\[\[::1\]:\d+->\[::1\]:\d+\] /memfd:names mem"fd \(deleted\) anon_inode:\[eventfd\] UNIX-STREAM:\[\d+,@"names\\"abs"\]$`)
		}
		if !re.MatchString(got) {
			t.Errorf("%s: other decorations %q", log, got)
		}
	}
}

// TestMatrixExotic reads the netlink dump of src/exotic.c in four forms:
// the hardware addresses strace writes bare (00:00:00:00:00:00) are bytes
// in every form but -X verbose, which writes them as strings; the indexed
// arrays of -v are labelled by their index as written, which -X verbose
// and -X raw write differently.
func TestMatrixExotic(t *testing.T) {
	for _, c := range []struct {
		log, index string
		hwaddrs    bool
	}{
		{"exotic.strace", "", true},
		{"exoticv.strace", "[IPV4_DEVCONF_FORWARDING-1]", true},
		{"exoticX.strace", "[0 /* IPV4_DEVCONF_FORWARDING-1 */]", false},
		{"exoticXr.strace", "[0]", false},
	} {
		_, res := lowerMatrix(t, filepath.Join("testdata", "matrix", c.log))
		var dump map[string]any
		for _, l := range bytes.Split(bytes.TrimSpace(res.JSONL), []byte("\n")) {
			var r map[string]any
			if err := json.Unmarshal(l, &r); err != nil {
				t.Fatal(err)
			}
			if r["event"] == "recvfrom" {
				dump = r
				break
			}
		}
		if dump == nil {
			t.Errorf("%s: no recvfrom record", c.log)
			continue
		}
		// Every value of the dump's arguments, walked depth first.
		var hexes, names []string
		var walk func(v any)
		walk = func(v any) {
			switch v := v.(type) {
			case []any:
				for _, e := range v {
					walk(e)
				}
			case map[string]any:
				if v["kind"] == "bytes" {
					hexes = append(hexes, v["hex"].(string))
				}
				if n, ok := v["name"].(string); ok && strings.HasPrefix(n, "[") {
					names = append(names, n)
				}
				walk(v["fields"])
			}
		}
		walk(dump["args"])
		// The loopback interface comes first: its address and broadcast
		// address are all zeros.
		if c.hwaddrs && (len(hexes) < 2 || hexes[0] != "000000000000" || hexes[1] != "000000000000") {
			t.Errorf("%s: hardware addresses %q, want the loopback's zeros first", c.log, hexes)
		}
		if !c.hwaddrs && len(hexes) != 0 {
			t.Errorf("%s: bytes %q, want none (the addresses are strings or elided)", c.log, hexes)
		}
		if c.index == "" {
			if len(names) != 0 {
				t.Errorf("%s: indexed labels %q, want none without -v", c.log, names[:min(3, len(names))])
			}
		} else if len(names) == 0 || names[0] != c.index {
			t.Errorf("%s: first indexed label %q, want %q", c.log, names[:min(1, len(names))], c.index)
		}
	}
}

// TestMatrixTips reads the logs strace wrote with --tips to the stream of
// its trace: the box at the end is one record, event "tip", with the tip's
// text, and none of its lines (the mascot's included) is an error.
func TestMatrixTips(t *testing.T) {
	for _, c := range []struct{ log, first, last string }{
		{"tips.strace", "You can use -o|COMMAND to redirect strace's", "as it is usually interpreted by the shell."},
		{"tipsc.strace", "It's possible to display timestamps", "precision."},
	} {
		recs, res := lowerMatrix(t, filepath.Join("testdata", "matrix", c.log))
		if len(res.Diags) != 0 {
			t.Errorf("%s: diagnostics:\n%s", c.log, res.DiagText())
		}
		var tips []mrec
		for _, r := range recs {
			if r.Event == "tip" {
				tips = append(tips, r)
			}
		}
		if len(tips) != 1 || recs[len(recs)-1].Event != "tip" {
			t.Errorf("%s: %d tip records, want one, the last record", c.log, len(tips))
			continue
		}
		text, _ := tips[0].Attrs["text"].(string)
		lines := strings.Split(text, "\n")
		if lines[0] != c.first || lines[len(lines)-1] != c.last || tips[0].Attrs["type"] != "message" {
			t.Errorf("%s: tip %q (type %v), want from %q to %q", c.log, text, tips[0].Attrs["type"], c.first, c.last)
		}
	}
}
