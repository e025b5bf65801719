package recordtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// ChromeStats counts what a Chrome trace holds: events by phase ("X", "B",
// "E", "i", "M"), the Es that end a B whose own end never came (args
// "unended"), and the clock of each source named in otherData.
type ChromeStats struct {
	Phases  map[string]int
	Unended int
	Clocks  map[string]string
}

// micros is a ts or dur as tracekit writes it: microseconds with three
// fraction digits.
var micros = regexp.MustCompile(`^-?[0-9]+\.[0-9]{3}$`)

// chromeKeys are the top-level keys Perfetto's JSON importer knows; older
// releases stop reading at any other key.
var chromeKeys = map[string]bool{"traceEvents": true, "displayTimeUnit": true, "otherData": true, "metadata": true, "systemTraceEvents": true}

// CheckChrome checks a Trace Event Format file (JSON object form) the way
// chrome://tracing and Perfetto's JSON importer read it, and returns what it
// holds or every problem found:
//
//   - the file is one JSON object, starting with '{', whose keys are ones
//     Perfetto knows, displayTimeUnit first and "ns" or "ms", traceEvents
//     an array of objects, otherData.clocks naming every source's clock;
//   - no raw control character (DEL included) anywhere: Perfetto's
//     tokenizer fails the whole file on one;
//   - each event has a known ph, a name, pid and tid integers within 32
//     bits, a ts (all but "M") and an X a dur, both microseconds with three
//     fraction digits, dur ≥ 0; an "i" has scope "t"; args is an object; no
//     top-level member of an event is an array (Perfetto's tokenizer rejects
//     such an event dictionary); "M" events name a process or a thread;
//   - on each thread, events sorted by ts as Perfetto sorts them: every E
//     closes an open B, every B is closed, and slices (X, and B to E) nest
//     properly, never overlapping in part.
func CheckChrome(data []byte) (ChromeStats, error) {
	st := ChromeStats{Phases: map[string]int{}, Clocks: map[string]string{}}
	var errs []error
	fail := func(format string, args ...any) {
		if len(errs) < 50 {
			errs = append(errs, fmt.Errorf(format, args...))
		}
	}
	for i, c := range data {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' || c == 0x7f {
			fail("raw control character 0x%02x at byte %d", c, i)
		}
	}
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return st, errors.New("does not start with '{'")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil {
		return st, err
	}
	var events []json.RawMessage
	var other struct {
		Clocks map[string]string `json:"clocks"`
	}
	for i := 0; dec.More(); i++ {
		tok, err := dec.Token()
		if err != nil {
			return st, err
		}
		key, _ := tok.(string)
		if !chromeKeys[key] {
			fail("top-level key %q: Perfetto does not know it", key)
		}
		switch key {
		case "displayTimeUnit":
			var u string
			if err := dec.Decode(&u); err != nil || u != "ns" && u != "ms" {
				fail("displayTimeUnit %q, want \"ns\" or \"ms\" (%v)", u, err)
			}
			if i != 0 {
				fail("displayTimeUnit is key %d, not the first", i+1)
			}
		case "traceEvents":
			if err := dec.Decode(&events); err != nil {
				return st, fmt.Errorf("traceEvents: %w", err)
			}
		case "otherData":
			if err := dec.Decode(&other); err != nil {
				fail("otherData: %v", err)
			}
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return st, err
			}
		}
	}
	if _, err := dec.Token(); err != nil {
		return st, err
	}
	if _, err := dec.Token(); err != io.EOF {
		fail("data after the trace object")
	}
	if events == nil {
		fail("no traceEvents array")
	}
	for src, clock := range other.Clocks {
		st.Clocks[src] = clock
	}
	sources := map[string]bool{}
	threads := map[[2]uint64][]span{}
	for i, raw := range events {
		e, err := checkEvent(raw)
		if err != nil {
			fail("event %d: %v: %s", i, err, raw)
			continue
		}
		st.Phases[e.ph]++
		if e.unended {
			st.Unended++
		}
		if e.source != "" {
			sources[e.source] = true
		}
		if e.ph != "M" {
			k := [2]uint64{e.pid, e.tid}
			threads[k] = append(threads[k], span{e.ph, e.ts, e.dur, i})
		}
	}
	for src := range sources {
		if c := st.Clocks[src]; c != "ts_ns" && c != "line" {
			fail("otherData.clocks[%q] = %q, want ts_ns or line", src, c)
		}
	}
	for k, spans := range threads {
		if err := checkNesting(spans); err != nil {
			fail("pid %d tid %d: %v", k[0], k[1], err)
		}
	}
	return st, errors.Join(errs...)
}

// chromeEvent is what the checks need of one event.
type chromeEvent struct {
	ph       string
	pid, tid uint64
	ts, dur  int64
	source   string
	unended  bool
}

// span is an event on one thread's timeline, in nanoseconds.
type span struct {
	ph      string
	ts, dur int64
	index   int
}

func checkEvent(raw json.RawMessage) (chromeEvent, error) {
	var e chromeEvent
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return e, err
	}
	for k, v := range m {
		if bytes.HasPrefix(bytes.TrimSpace(v), []byte("[")) {
			return e, fmt.Errorf("member %q is an array", k)
		}
	}
	str := func(k string) string {
		var s string
		json.Unmarshal(m[k], &s)
		return s
	}
	e.ph = str("ph")
	switch e.ph {
	case "X", "B", "E", "i", "M":
	default:
		return e, fmt.Errorf("ph %q", e.ph)
	}
	if str("name") == "" {
		return e, errors.New("no name")
	}
	id := func(k string) (uint64, error) {
		n, err := strconv.ParseUint(string(m[k]), 10, 64)
		if err != nil || n > math.MaxUint32 {
			return 0, fmt.Errorf("%s %s is not an integer of 32 bits", k, m[k])
		}
		return n, nil
	}
	var err error
	if e.pid, err = id("pid"); err != nil {
		return e, err
	}
	if e.tid, err = id("tid"); err != nil {
		return e, err
	}
	if args, ok := m["args"]; ok {
		var a map[string]json.RawMessage
		if err := json.Unmarshal(args, &a); err != nil || a == nil {
			return e, fmt.Errorf("args is not an object")
		}
		json.Unmarshal(a["source"], &e.source)
		json.Unmarshal(a["unended"], &e.unended)
	}
	if e.ph == "M" {
		var a struct{ Name string }
		json.Unmarshal(m["args"], &a)
		if n := str("name"); n != "process_name" && n != "thread_name" || a.Name == "" {
			return e, fmt.Errorf("metadata event %q with name %q", n, a.Name)
		}
		return e, nil
	}
	ns := func(k string) (int64, error) {
		s := string(m[k])
		if !micros.MatchString(s) {
			return 0, fmt.Errorf("%s %q is not microseconds with three fraction digits", k, s)
		}
		neg := s[0] == '-'
		n, err := strconv.ParseInt(strings.NewReplacer("-", "", ".", "").Replace(s), 10, 64)
		if neg {
			n = -n
		}
		return n, err
	}
	if e.ts, err = ns("ts"); err != nil {
		return e, err
	}
	switch e.ph {
	case "X":
		if e.dur, err = ns("dur"); err != nil {
			return e, err
		}
		if e.dur < 0 {
			return e, errors.New("negative dur")
		}
	case "i":
		if s := str("s"); s != "t" {
			return e, fmt.Errorf("instant scope %q, want \"t\"", s)
		}
	}
	return e, nil
}

// checkNesting replays one thread's events as Perfetto's slice tracker
// does: sorted by ts (stably), B opens, E closes the innermost open B, X is
// a whole slice; every slice must lie within the one it starts inside.
func checkNesting(spans []span) error {
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].ts < spans[j].ts })
	type open struct {
		end   int64 // -1: a B not yet closed
		index int
	}
	var stack []open
	var slices []span
	for _, s := range spans {
		switch s.ph {
		case "B":
			stack = append(stack, open{-1, s.index})
			slices = append(slices, span{"B", s.ts, -1, s.index})
		case "E":
			if len(stack) == 0 {
				return fmt.Errorf("event %d: E without an open B", s.index)
			}
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for i := range slices {
				if slices[i].index == top.index {
					slices[i].dur = s.ts - slices[i].ts
				}
			}
		case "X":
			slices = append(slices, s)
		}
	}
	if len(stack) > 0 {
		return fmt.Errorf("event %d: B never closed", stack[len(stack)-1].index)
	}
	sort.SliceStable(slices, func(i, j int) bool {
		if slices[i].ts != slices[j].ts {
			return slices[i].ts < slices[j].ts
		}
		return slices[i].dur > slices[j].dur
	})
	var ends []int64
	for _, s := range slices {
		end := s.ts + s.dur
		for len(ends) > 0 && ends[len(ends)-1] <= s.ts {
			ends = ends[:len(ends)-1]
		}
		if len(ends) > 0 && end > ends[len(ends)-1] {
			return fmt.Errorf("event %d [%d, %d] ns overlaps the slice it starts in, which ends at %d", s.index, s.ts, end, ends[len(ends)-1])
		}
		ends = append(ends, end)
	}
	return nil
}
