package record

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/lower/record/recordtest"
)

// chromeEvents writes records with the Chrome writer, checks the output's
// structure and returns its events other than "M", in order.
func chromeEvents(t *testing.T, recs ...*Record) []map[string]any {
	t.Helper()
	var out bytes.Buffer
	w := NewChrome(&out)
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	// Records' run flushes, and so does the command after it.
	for range 2 {
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := recordtest.CheckChrome(out.Bytes()); err != nil {
		t.Fatalf("%v\n%s", err, out.Bytes())
	}
	var doc struct{ TraceEvents []map[string]any }
	d := json.NewDecoder(&out)
	d.UseNumber()
	if err := d.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	var evs []map[string]any
	for _, e := range doc.TraceEvents {
		if e["ph"] != "M" {
			evs = append(evs, e)
		}
	}
	return evs
}

// field renders an event member as its JSON text.
func field(e map[string]any, k string) string {
	b, _ := json.Marshal(e[k])
	return strings.Trim(string(b), `"`)
}

// TestChromeTimes: ts keeps nanoseconds (µs with three fraction digits, a
// negative one too), dur_ns becomes an X's dur, records without ts_ns after
// one sit at the last ts_ns, and records before any on the line clock.
func TestChromeTimes(t *testing.T) {
	evs := chromeEvents(t,
		&Record{Dialect: "d", Source: "a", Line: 1, Seq: 1, Time: "t", Event: "early", Phase: Instant},
		&Record{Dialect: "d", Source: "a", Line: 2, Seq: 2, TSNs: Int(1234567), Event: "e", Phase: Instant},
		&Record{Dialect: "d", Source: "a", Line: 3, Seq: 3, Event: "late", Phase: Instant},
		&Record{Dialect: "d", Source: "a", Line: 4, Seq: 4, TSNs: Int(-5), DurNs: Int(1001), Event: "call", Phase: Complete},
		&Record{Dialect: "d", Source: "a", Line: 5, Seq: 5, TSNs: Int(7000), Event: "nodur", Phase: Complete},
	)
	want := []string{"i 1.000 ", "i 1234.567 ", "i 1234.567 ", "X -0.005 1.001", "X 7.000 0.000"}
	for i, e := range evs {
		if got := field(e, "ph") + " " + field(e, "ts") + " " + strings.ReplaceAll(field(e, "dur"), "null", ""); got != want[i] {
			t.Errorf("event %d: %q, want %q", i, got, want[i])
		}
	}
}

// TestChromeLineClock: without time stamps a call lasts from its line to
// the end of its exit line; with the halves kept, B opens at the enter's
// line and E closes at the end of the exit's; an unpaired half is an
// instant.
func TestChromeLineClock(t *testing.T) {
	pid, tid := Uint(1), Uint(2)
	evs := chromeEvents(t,
		&Record{Dialect: "w", Source: "p", Line: 3, Seq: 1, PID: pid, TID: tid, Event: "inner", Phase: Complete, Attrs: Attrs{"exit_line": 4}},
		&Record{Dialect: "w", Source: "p", Line: 1, Seq: 2, PID: pid, TID: tid, Event: "outer", Phase: Complete, Attrs: Attrs{"exit_line": 6}},
		&Record{Dialect: "w", Source: "p", Line: 7, Seq: 3, PID: pid, TID: tid, Event: "half", Phase: Enter},
		&Record{Dialect: "w", Source: "p", Line: 8, Seq: 4, PID: pid, TID: tid, Event: "half", Phase: Exit},
		&Record{Dialect: "w", Source: "p", Line: 9, Seq: 5, PID: pid, TID: tid, Event: "lone", Phase: Enter, Unpaired: true},
	)
	want := []string{"X 3.000 2.000", "X 1.000 6.000", "B 7.000 ", "E 9.000 ", "i 9.000 "}
	for i, e := range evs {
		if got := field(e, "ph") + " " + field(e, "ts") + " " + strings.ReplaceAll(field(e, "dur"), "null", ""); got != want[i] {
			t.Errorf("event %d: %q, want %q", i, got, want[i])
		}
	}
	if a := evs[4]["args"].(map[string]any); a["unpaired"] != true || a["phase"] != "enter" {
		t.Errorf("unpaired half's args %v", a)
	}
}

// TestChromeIDs: ids over 32 bits get stand-ins named with the real id;
// records without a pid share their input's stand-in process, one thread a
// processor.
func TestChromeIDs(t *testing.T) {
	var out bytes.Buffer
	w := NewChrome(&out)
	for _, r := range []*Record{
		{Dialect: "d", Source: "s", Line: 1, Seq: 1, PID: Uint(1 << 40), TID: Uint(7), Event: "a\x7fb", Phase: Instant},
		{Dialect: "d", Source: "s", Line: 2, Seq: 2, CPU: Uint(0), Event: "c0", Phase: Instant},
		{Dialect: "d", Source: "s", Line: 3, Seq: 3, CPU: Uint(1), Event: "c1", Phase: Instant},
		{Dialect: "d", Source: "s", Line: 4, Seq: 4, CPU: Uint(0), Event: "c0", Phase: Instant},
	} {
		w.Write(r)
	}
	w.Flush()
	if _, err := recordtest.CheckChrome(out.Bytes()); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{
		`"args":{"name":"pid 1099511627776"}`,
		`"name":"a\u007fb"`,
		`{"name":"process_name","ph":"M","pid":4294967294,"tid":4294967294,"args":{"name":"s (d)"}}`,
		`{"name":"thread_name","ph":"M","pid":4294967294,"tid":4294967293,"args":{"name":"cpu 0"}}`,
		`{"name":"thread_name","ph":"M","pid":4294967294,"tid":4294967292,"args":{"name":"cpu 1"}}`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %s in\n%s", want, s)
		}
	}
	if n := strings.Count(s, `"thread_name"`); n != 2 {
		t.Errorf("%d thread names, want 2", n)
	}
	if err := w.Write(&Record{Dialect: "d", Source: "s", Line: 5, Seq: 5, Event: "x", Phase: Instant}); err == nil {
		t.Error("a write after the end was accepted")
	}
}

// TestChromeEmpty: no record still makes a loadable trace.
func TestChromeEmpty(t *testing.T) {
	if evs := chromeEvents(t); len(evs) != 0 {
		t.Errorf("%d events", len(evs))
	}
}

// TestCheckChromeCatches: the structure check fails what Perfetto rejects.
func TestCheckChromeCatches(t *testing.T) {
	head := `{"displayTimeUnit":"ns","traceEvents":[`
	tail := `],"otherData":{"clocks":{}}}`
	ok := `{"name":"a","ph":"X","ts":1.000,"dur":5.000,"pid":1,"tid":1}`
	if _, err := recordtest.CheckChrome([]byte(head + ok + tail)); err != nil {
		t.Fatalf("a good trace fails: %v", err)
	}
	for _, bad := range []string{
		ok + `,{"name":"b","ph":"X","ts":2.000,"dur":5.000,"pid":1,"tid":1}`,
		`{"name":"b","ph":"E","ts":2.000,"pid":1,"tid":1}`,
		`{"name":"b","ph":"B","ts":2.000,"pid":1,"tid":1}`,
		`{"name":"b","ph":"i","ts":2.000,"s":"t","pid":1,"tid":1,"data":[1]}`,
		`{"name":"b","ph":"i","ts":2,"s":"t","pid":1,"tid":1}`,
		`{"name":"b","ph":"i","ts":2.000,"pid":1,"tid":1}`,
		`{"name":"b","ph":"X","ts":2.000,"pid":1,"tid":1}`,
		`{"name":"b","ph":"i","ts":2.000,"s":"t","pid":4294967296,"tid":1}`,
		`{"name":"b\u007f","ph":"i","ts":2.000,"s":"t","pid":1,"tid":1}`,
		`{"name":"b","ph":"i","ts":2.000,"s":"t","pid":1,"tid":1,"args":{"source":"nowhere"}}`,
	} {
		doc := strings.Replace(head+bad+tail, `\u007f`, "\x7f", 1)
		if _, err := recordtest.CheckChrome([]byte(doc)); err == nil {
			t.Errorf("not caught: %s", bad)
		}
	}
	if _, err := recordtest.CheckChrome([]byte(`{"traceEvents":[],"extra":1,"displayTimeUnit":"us"}`)); err == nil {
		t.Error("an unknown key and a bad unit are not caught")
	}
}

// TestChromeHalves: an E ends the innermost open B of its name on its
// thread and the Bs opened inside it; an exit half with no open B is an
// instant; a B never ended is ended at the thread's last time.
func TestChromeHalves(t *testing.T) {
	rec := func(line int, tid uint64, event string, ph Phase) *Record {
		return &Record{Dialect: "w", Source: "h", Line: line, Seq: int64(line), PID: Uint(1), TID: Uint(tid), Event: event, Phase: ph}
	}
	evs := chromeEvents(t,
		rec(1, 2, "stray", Exit),
		rec(2, 2, "outer", Enter),
		rec(3, 2, "inner", Enter),
		rec(4, 2, "outer", Exit),
		rec(5, 3, "open", Enter),
		rec(6, 3, "x", Complete),
	)
	var got []string
	for _, e := range evs {
		got = append(got, field(e, "ph")+" "+field(e, "name")+" "+field(e, "ts"))
	}
	want := "i stray 1.000, B outer 2.000, B inner 3.000, E inner 5.000, E outer 5.000, B open 5.000, X x 6.000, E open 7.000"
	if strings.Join(got, ", ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, ", "), want)
	}
}

// TestChromeProcessNames: a process is named when a record first gives its
// name, and again when the name changes (a pid used again); a thread
// without a name of its own gets no M event.
func TestChromeProcessNames(t *testing.T) {
	var out bytes.Buffer
	w := NewChrome(&out)
	for i, name := range []string{"", "a", "a", "b"} {
		w.Write(&Record{Dialect: "d", Source: "s", Line: i + 1, Seq: int64(i + 1), PID: Uint(9), Process: name, Event: "e", Phase: Instant})
	}
	w.Flush()
	s := out.String()
	if strings.Count(s, `"process_name"`) != 2 || !strings.Contains(s, `"args":{"name":"a"}`) || !strings.Contains(s, `"args":{"name":"b"}`) || strings.Contains(s, `"thread_name"`) {
		t.Errorf("names:\n%s", s)
	}
}
