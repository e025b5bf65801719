package stats

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/golden"
	"github.com/tracekit/tracekit/lower/dialect"
	"github.com/tracekit/tracekit/lower/record"
)

// splitSummary cuts a strace -C log into its trace and strace's own
// summary table, read here independently of tracekit's strace dialect:
// syscall → calls and errors.
func splitSummary(t *testing.T, data []byte) ([]byte, map[string][2]int64) {
	t.Helper()
	i := bytes.Index(data, []byte("% time "))
	if i < 0 {
		t.Fatal("no summary table")
	}
	want := map[string][2]int64{}
	sc := bufio.NewScanner(bytes.NewReader(data[i:]))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 5 || strings.HasPrefix(f[0], "%") || strings.HasPrefix(f[0], "-") || f[len(f)-1] == "total" {
			continue
		}
		calls, err := strconv.ParseInt(f[3], 10, 64)
		if err != nil {
			t.Fatalf("row %q", sc.Text())
		}
		var errs int64
		if len(f) == 6 {
			errs, _ = strconv.ParseInt(f[4], 10, 64)
		}
		want[f[len(f)-1]] = [2]int64{calls, errs}
	}
	return data[:i], want
}

// count runs the records of a strace log through a Table.
func count(t *testing.T, trace []byte, by ...string) *Table {
	t.Helper()
	tab, err := New(by)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := dialect.Records(context.Background(), dialect.Options{Dialect: "strace"},
		[]dialect.Input{{Name: "work.strace", Reader: bytes.NewReader(trace)}}, tab, nil)
	if err != nil || sum.Incomplete() {
		t.Fatalf("%v %s", err, sum)
	}
	return tab
}

// TestMatchesStraceSummary: on a log the real strace wrote with -f -C
// (testdata/mklogs.sh: fork, exec, a thread, failing opens), the calls and
// errors of every syscall equal strace's own table row for row; what
// strace does not count is only what never returns (exit, exit_group) and
// what is no call (signals, exits).
func TestMatchesStraceSummary(t *testing.T) {
	data, err := os.ReadFile("testdata/work.strace")
	if err != nil {
		t.Fatal(err)
	}
	trace, want := splitSummary(t, data)
	if len(want) < 10 {
		t.Fatalf("only %d rows in strace's table", len(want))
	}
	rows, _ := count(t, trace).Rows("name")
	got := map[string]*Row{}
	for _, r := range rows {
		got[r.Key[0]] = r
	}
	for name, w := range want {
		r := got[name]
		if r == nil {
			t.Errorf("%s: strace counts %d calls, tracekit none", name, w[0])
			continue
		}
		if r.Calls != w[0] || r.Errors != w[1] {
			t.Errorf("%s: calls %d errors %d, strace says %d and %d", name, r.Calls, r.Errors, w[0], w[1])
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			switch name {
			case "exit", "exit_group", "exited", "SIGCHLD":
			default:
				t.Errorf("%s: counted by tracekit, not in strace's table", name)
			}
		}
	}
}

// TestOutputs: the three formats of the same table (goldens).
func TestOutputs(t *testing.T) {
	data, _ := os.ReadFile("testdata/work.strace")
	trace, _ := splitSummary(t, data)
	tab := count(t, trace)
	rows, _ := tab.Rows("calls")
	for _, f := range Formats {
		var b bytes.Buffer
		if err := tab.Print(&b, f, rows); err != nil {
			t.Fatal(err)
		}
		if f == "json" {
			for _, l := range strings.Split(strings.TrimSpace(b.String()), "\n") {
				var obj map[string]any
				if err := json.Unmarshal([]byte(l), &obj); err != nil || obj["event"] == nil || obj["calls"] == nil {
					t.Errorf("json row %q: %v", l, err)
				}
			}
		}
		golden.Check(t, "testdata/work."+f, b.Bytes())
	}
}

// TestGroupsAndQuantiles: --by pid,errno groups, and the quantiles of a
// known set of durations lie within the histogram's 1/64.
func TestGroupsAndQuantiles(t *testing.T) {
	tab, _ := New([]string{"pid", "errno"})
	for i := 1; i <= 1000; i++ {
		d := int64(i) * 1000
		r := &record.Record{Event: "read", PID: record.Uint(uint64(i % 2)), DurNs: &d, Phase: record.Complete}
		if i%10 == 0 {
			r.Errno = "EAGAIN"
		}
		tab.Write(r)
	}
	rows, _ := tab.Rows("name")
	if len(rows) != 3 { // every tenth call is even: pid 1 never fails
		t.Fatalf("%d rows, want pid 0 × errno none/EAGAIN and pid 1", len(rows))
	}
	all := Total(rows)
	if all.Calls != 1000 || all.Errors != 100 || all.MaxNs != 1_000_000 {
		t.Errorf("total %+v", all)
	}
	for _, q := range []struct {
		q    float64
		want int64
	}{{0.5, 500_000}, {0.99, 990_000}} {
		got := all.Quantile(q.q)
		if diff := got - q.want; diff > q.want/64 || -diff > q.want/64 {
			t.Errorf("p%v = %d, want %d within 1/64", q.q*100, got, q.want)
		}
	}
	if _, err := New([]string{"nosuch"}); err == nil {
		t.Error("an unknown key was taken")
	}
}

// TestCheck: the whole -C log, trace and table, read by the strace dialect
// (the table as summary records): Check finds no row that differs; and a
// table that says otherwise is caught, row by row.
func TestCheck(t *testing.T) {
	data, err := os.ReadFile("testdata/work.strace")
	if err != nil {
		t.Fatal(err)
	}
	tab := count(t, data)
	bad, ok := tab.Check()
	if !ok || len(bad) != 0 {
		t.Errorf("Check: %v %v", bad, ok)
	}
	wrong := bytes.Replace(data, []byte("        13         8 openat"), []byte("        14         8 openat"), 1)
	if bytes.Equal(wrong, data) {
		t.Fatal("the openat row is not where the test expects it")
	}
	bad, _ = count(t, wrong).Check()
	if len(bad) != 1 || bad[0].Event != "openat" || bad[0].Calls != 13 || bad[0].WantCalls != 14 {
		t.Errorf("Check of a changed table: %+v", bad)
	}
	if _, ok := count(t, data[:bytes.Index(data, []byte("% time"))]).Check(); ok {
		t.Error("Check found a table in a log without one")
	}
}
