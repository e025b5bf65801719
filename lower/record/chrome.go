package record

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"math"
	"slices"
	"strconv"
)

// The clocks a Chrome trace places an input's records on, as named in the
// output's otherData.
const (
	// ChromeClockNs: ts is the record's ts_ns (µs with three fraction
	// digits, so no nanosecond is lost).
	ChromeClockNs = "ts_ns"
	// ChromeClockLine: the input has no time stamps (or none convertible
	// to ts_ns); the source line is the clock, one line one microsecond,
	// and a call lasts from its first line to the end of its last.
	ChromeClockLine = "line"
)

// chromeWriter prints the Trace Event Format (the JSON object form) that
// chrome://tracing and Perfetto load. Events are written as they come; it
// holds the names it wrote last (at most chromeNames of each kind: past
// that it forgets them and writes them again when needed, which only
// repeats an M event), the threads with a B not yet ended, and the
// stand-ins of ids over 32 bits.
type chromeWriter struct {
	w       *bufio.Writer
	buf     []byte
	events  int64
	closed  bool
	sources map[string]*chromeSource
	order   []string                 // sources, in the order first seen
	procs   map[uint32]string        // pid → the process name last written
	named   map[uint64]bool          // pid<<32|tid → thread name written
	threads map[uint64]*chromeThread // pid<<32|tid → open Bs, for threads with any
	big     map[[2]uint64]uint32     // (kind, id) over 32 bits → stand-in id
	next    uint32                   // next stand-in id, counting down from 2³²−1
}

// chromeNames is how many process names, and how many thread names, the
// writer remembers: traces name a few hundred processes, but a synthetic
// one may name a new one every record.
const chromeNames = 1 << 16

// chromeThread is what the writer knows of a thread with Bs not yet ended:
// their names, innermost last, and the latest time seen on the thread.
type chromeThread struct {
	pid, tid uint32
	open     []string
	last     int64
}

// chromeSource is what the writer knows of one input.
type chromeSource struct {
	clock  string // ChromeClockNs or ChromeClockLine
	lastNs int64  // the last ts_ns seen (time-stamped inputs)
	pid    uint32 // stand-in process of records without a pid
	cpus   map[uint64]uint32
}

// NewChrome returns a writer printing the Trace Event Format in its JSON
// object form, {"displayTimeUnit":"ns","traceEvents":[…],"otherData":{…}},
// for chrome://tracing and Perfetto's UI. A complete call is an "X" event
// with its duration, an enter a "B", an exit the "E" of the innermost open
// B of its name on its thread, an instant an "i" (thread scope); an
// unpaired half and an exit with no open B are instants, and a B left open
// is ended by an outer E or at the end, as neither tool accepts a B that
// never ends or an E that never began. Process and thread names are "M"
// events. ts and dur are microseconds written with three fraction digits.
// The record's other fields are in args. docs/records.md describes the
// mapping, the clocks and the ids.
func NewChrome(w io.Writer) Writer {
	return &chromeWriter{
		w:       bufio.NewWriterSize(w, 64<<10),
		sources: map[string]*chromeSource{},
		procs:   map[uint32]string{},
		named:   map[uint64]bool{},
		threads: map[uint64]*chromeThread{},
		big:     map[[2]uint64]uint32{},
		next:    math.MaxUint32,
	}
}

const chromeHead = `{"displayTimeUnit":"ns","traceEvents":[`

func (c *chromeWriter) Write(r *Record) error {
	if c.closed {
		return errors.New("chrome trace: write after the end was written")
	}
	b := c.buf[:0]
	src := c.source(r)
	pid, tid, pidName, tidName := c.ids(src, r)
	if pidName != "" && c.procs[pid] != pidName {
		if len(c.procs) >= chromeNames {
			clear(c.procs)
		}
		c.procs[pid] = pidName
		b = c.meta(b, "process_name", pid, pid, pidName)
	}
	key := uint64(pid)<<32 | uint64(tid)
	if tidName != "" && !c.named[key] {
		if len(c.named) >= chromeNames {
			clear(c.named)
		}
		c.named[key] = true
		b = c.meta(b, "thread_name", pid, tid, tidName)
	}
	ts, dur, hasDur := src.times(r)
	th := c.threads[key]
	ph := "i"
	switch {
	case r.Unpaired:
	case r.Phase == Complete:
		ph = "X"
	case r.Phase == Enter:
		ph = "B"
		if th == nil {
			th = &chromeThread{pid: pid, tid: tid}
			c.threads[key] = th
		}
		th.open = append(th.open, r.Event)
	case r.Phase == Exit && th != nil:
		// An E ends the innermost open B of its thread: one with no open
		// B of its name is an instant; the Bs opened inside the one it
		// ends are ended with it.
		k := len(th.open) - 1
		for k >= 0 && th.open[k] != r.Event {
			k--
		}
		if k >= 0 {
			ph = "E"
			if src.clock == ChromeClockLine {
				ts += 1000 // the end of the exit's line, where the call ends
			}
			for len(th.open) > k+1 {
				b = c.end(b, th, ts)
			}
			th.open = th.open[:k]
			if k == 0 {
				delete(c.threads, key)
			}
		}
	}
	if th != nil {
		th.last = max(th.last, ts, ts+dur)
	}
	b = c.comma(b)
	b = append(b, `{"name":`...)
	b = appendString(b, r.Event)
	b = appendMember(b, `,"cat":`, r.Dialect)
	b = append(b, `,"ph":"`...)
	b = append(b, ph...)
	b = append(b, `","ts":`...)
	b = appendMicros(b, ts)
	if ph == "X" {
		if !hasDur {
			dur = 0
		}
		b = append(b, `,"dur":`...)
		b = appendMicros(b, dur)
	}
	if ph == "i" {
		b = append(b, `,"s":"t"`...)
	}
	b = append(b, `,"pid":`...)
	b = appendUint(b, uint64(pid))
	b = append(b, `,"tid":`...)
	b = appendUint(b, uint64(tid))
	var err error
	if b, err = appendChromeArgs(b, r); err != nil {
		return err
	}
	b = append(b, '}')
	c.buf = b
	_, err = c.w.Write(escapeDEL(b))
	return err
}

// Flush writes the end of the trace, the first time, and flushes.
func (c *chromeWriter) Flush() error {
	if !c.closed {
		c.closed = true
		b := c.buf[:0]
		keys := make([]uint64, 0, len(c.threads))
		for k := range c.threads {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			th := c.threads[k]
			for len(th.open) > 0 {
				b = c.end(b, th, th.last)
			}
		}
		if c.events == 0 {
			b = append(b, chromeHead...)
		}
		b = append(b, "\n],\"otherData\":{\"generator\":\"tracekit\",\"clocks\":{"...)
		for i, name := range c.order {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, name)
			b = append(b, ':')
			b = appendString(b, c.sources[name].clock)
		}
		b = append(b, "}}}\n"...)
		c.buf = b
		if _, err := c.w.Write(escapeDEL(b)); err != nil {
			return err
		}
	}
	return c.w.Flush()
}

// comma starts the next event: the head before the first, a comma and a
// new line before the others.
func (c *chromeWriter) comma(b []byte) []byte {
	if c.events == 0 {
		b = append(b, chromeHead...)
		b = append(b, '\n')
	} else {
		b = append(b, ",\n"...)
	}
	c.events++
	return b
}

// end appends an E ending the thread's innermost open B, whose own E never
// came, at ts: args.unended says so.
func (c *chromeWriter) end(b []byte, th *chromeThread, ts int64) []byte {
	name := th.open[len(th.open)-1]
	th.open = th.open[:len(th.open)-1]
	b = c.comma(b)
	b = append(b, `{"name":`...)
	b = appendString(b, name)
	b = append(b, `,"ph":"E","ts":`...)
	b = appendMicros(b, ts)
	b = append(b, `,"pid":`...)
	b = appendUint(b, uint64(th.pid))
	b = append(b, `,"tid":`...)
	b = appendUint(b, uint64(th.tid))
	return append(b, `,"args":{"unended":true}}`...)
}

// meta appends an "M" event naming a process or a thread.
func (c *chromeWriter) meta(b []byte, what string, pid, tid uint32, name string) []byte {
	b = c.comma(b)
	b = append(b, `{"name":"`...)
	b = append(b, what...)
	b = append(b, `","ph":"M","pid":`...)
	b = appendUint(b, uint64(pid))
	b = append(b, `,"tid":`...)
	b = appendUint(b, uint64(tid))
	b = append(b, `,"args":{"name":`...)
	b = appendString(b, name)
	return append(b, "}}"...)
}

// source returns the state of the record's input, making it on its first
// record. The clock is the line until a record has a ts_ns, then ts_ns:
// records after that without one (os2strace before its rate is known, an
// STDA record without a time) are placed at the last ts_ns.
func (c *chromeWriter) source(r *Record) *chromeSource {
	s, ok := c.sources[r.Source]
	if !ok {
		s = &chromeSource{clock: ChromeClockLine}
		c.sources[r.Source] = s
		c.order = append(c.order, r.Source)
	}
	if r.TSNs != nil {
		s.clock = ChromeClockNs
	}
	return s
}

// times returns the record's ts and, where known, its duration, in
// nanoseconds.
func (s *chromeSource) times(r *Record) (ts, dur int64, hasDur bool) {
	if s.clock == ChromeClockLine {
		ts = int64(r.Line) * 1000
		end := int64(r.Line)
		if n, ok := attrInt(r.Attrs["exit_line"]); ok && n >= end {
			end = n
		}
		if r.Phase == Complete {
			return ts, (end - int64(r.Line) + 1) * 1000, true
		}
		return ts, 0, false
	}
	if r.TSNs != nil {
		s.lastNs = *r.TSNs
	}
	if r.DurNs != nil {
		return s.lastNs, *r.DurNs, true
	}
	return s.lastNs, 0, false
}

// ids returns the pid and tid of the record's events, and the names to
// give them when first seen ("" for none). A record without a pid belongs
// to a stand-in process named after its input; without a tid, to a
// stand-in thread per processor ("cpu N"), or else to the process's main
// thread (tid = pid). Ids over 32 bits (Perfetto's limit) get stand-ins
// too, named with the real id.
func (c *chromeWriter) ids(s *chromeSource, r *Record) (pid, tid uint32, pidName, tidName string) {
	if r.PID != nil {
		pid = c.small(0, *r.PID)
		pidName = r.Process
		if pidName == "" && uint64(pid) != *r.PID {
			pidName = "pid " + strconv.FormatUint(*r.PID, 10)
		}
	} else {
		if s.pid == 0 {
			s.pid = c.standIn()
		}
		pid, pidName = s.pid, r.Source+" ("+r.Dialect+")"
		if r.Process != "" {
			pidName = r.Process
		}
	}
	switch {
	case r.TID != nil:
		tid = c.small(1, *r.TID)
		if uint64(tid) != *r.TID {
			tidName = "tid " + strconv.FormatUint(*r.TID, 10)
		}
	case r.CPU != nil:
		if s.cpus == nil {
			s.cpus = map[uint64]uint32{}
		}
		t, ok := s.cpus[*r.CPU]
		if !ok {
			t = c.standIn()
			s.cpus[*r.CPU] = t
		}
		tid, tidName = t, "cpu "+strconv.FormatUint(*r.CPU, 10)
	default:
		tid = pid
	}
	return pid, tid, pidName, tidName
}

// small returns id when it fits 32 bits, else its stand-in.
func (c *chromeWriter) small(kind uint64, id uint64) uint32 {
	if id <= math.MaxUint32 && id < uint64(c.next) {
		return uint32(id)
	}
	k := [2]uint64{kind, id}
	if v, ok := c.big[k]; ok {
		return v
	}
	v := c.standIn()
	c.big[k] = v
	return v
}

// standIn returns a fresh id, counting down from 2³²−1, clear of the real
// ids of traced systems.
func (c *chromeWriter) standIn() uint32 {
	v := c.next
	c.next--
	return v
}

// appendChromeArgs appends the event's args: every record field the event
// itself does not say.
func appendChromeArgs(b []byte, r *Record) ([]byte, error) {
	b = append(b, `,"args":{"source":`...)
	b = appendString(b, r.Source)
	b = append(b, `,"line":`...)
	b = appendInt(b, int64(r.Line))
	b = append(b, `,"seq":`...)
	b = appendInt(b, r.Seq)
	b = appendMember(b, `,"phase":`, string(r.Phase))
	if r.Unpaired {
		b = append(b, `,"unpaired":true`...)
	}
	b = appendOptString(b, `,"time":`, r.Time)
	b = appendOptInt(b, `,"ts_ns":`, r.TSNs)
	b = appendOptInt(b, `,"dur_ns":`, r.DurNs)
	b = appendPlace(b, r)
	b = appendOptUint(b, `,"major":`, r.Major)
	b = appendOptUint(b, `,"minor":`, r.Minor)
	b = appendCall(b, r)
	b = appendOptString(b, `,"errno":`, r.Errno)
	return appendStatusDataAttrs(b, r)
}

// appendMicros appends ns as microseconds with three fraction digits.
func appendMicros(b []byte, ns int64) []byte {
	u := uint64(ns)
	if ns < 0 {
		b = append(b, '-')
		u = -u
	}
	b = appendUint(b, u/1000)
	f := u % 1000
	return append(b, '.', byte('0'+f/100), byte('0'+f/10%10), byte('0'+f%10))
}

// attrInt reads an integer attribute.
func attrInt(v any) (int64, bool) {
	switch n := v.(type) {
	case int:
		return int64(n), true
	case int64:
		return n, true
	case uint64:
		if n <= math.MaxInt64 {
			return int64(n), true
		}
	}
	return 0, false
}

// escapeDEL writes U+007F as \u007f: Perfetto's JSON tokenizer takes every
// control character in a string, DEL included, for a fatal error. It can
// only occur inside strings, where the escape means the same.
func escapeDEL(b []byte) []byte {
	if bytes.IndexByte(b, 0x7f) < 0 {
		return b
	}
	return bytes.ReplaceAll(b, []byte{0x7f}, []byte(`\u007f`))
}
