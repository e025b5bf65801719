// Package filter keeps the records a user asks for: by process, thread,
// event name, failure, error name, duration and time. A Filter wraps the
// record.Writer of a run, so records it drops are never encoded.
package filter

import (
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tracekit/tracekit/lower/record"
)

// Filter is a set of conditions, all of which a record must meet. The zero
// Filter keeps every record.
type Filter struct {
	PIDs   []uint64 // keep these processes (record.PID)
	TIDs   []uint64 // keep these threads (record.TID)
	Events []string // keep events matching one of these patterns (path.Match: * ? [...]), case-insensitively
	Failed bool     // keep failed calls only: an error name, or an error status
	Errnos []string // keep calls failed with one of these error names, case-insensitively
	MinDur int64    // keep calls that took at least this long (ns); records without a duration are dropped when set
	// Since and Until keep records whose time lies in [Since, Until];
	// records without one are dropped when either is set.
	Since, Until *Time
}

// Time is a bound of --since or --until: nanoseconds of ts_ns, or a time
// of day (Clock) compared with the time stamps as written (-t, -tt).
type Time struct {
	Ns    int64
	Clock bool
}

// of returns r's time in t's terms.
func (t *Time) of(r *record.Record) (int64, bool) {
	if t.Clock {
		return clockNs(r.Time)
	}
	if r.TSNs == nil {
		return 0, false
	}
	return *r.TSNs, true
}

// IsZero reports whether f keeps everything.
func (f *Filter) IsZero() bool {
	return f == nil || len(f.PIDs) == 0 && len(f.TIDs) == 0 && len(f.Events) == 0 && !f.Failed &&
		len(f.Errnos) == 0 && f.MinDur == 0 && f.Since == nil && f.Until == nil
}

// Check reports a malformed pattern.
func (f *Filter) Check() error {
	for _, p := range f.Events {
		if _, err := path.Match(p, ""); err != nil {
			return fmt.Errorf("--event %q: %v", p, err)
		}
	}
	return nil
}

// Keep reports whether r meets every condition.
func (f *Filter) Keep(r *record.Record) bool {
	if len(f.PIDs) > 0 && (r.PID == nil || !slices.Contains(f.PIDs, *r.PID)) {
		return false
	}
	if len(f.TIDs) > 0 && (r.TID == nil || !slices.Contains(f.TIDs, *r.TID)) {
		return false
	}
	if len(f.Events) > 0 {
		ev := strings.ToLower(r.Event)
		ok := false
		for _, p := range f.Events {
			if m, _ := path.Match(strings.ToLower(p), ev); m {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	if f.Failed && !Failed(r) {
		return false
	}
	if len(f.Errnos) > 0 && !slices.ContainsFunc(f.Errnos, func(e string) bool { return strings.EqualFold(e, r.Errno) }) {
		return false
	}
	if f.MinDur > 0 && (r.DurNs == nil || *r.DurNs < f.MinDur) {
		return false
	}
	if f.Since != nil {
		if v, ok := f.Since.of(r); !ok || v < f.Since.Ns {
			return false
		}
	}
	if f.Until != nil {
		if v, ok := f.Until.of(r); !ok || v > f.Until.Ns {
			return false
		}
	}
	return true
}

// Failed reports whether a record is a failed call: it has an error name
// (errno, NTSTATUS) or an error status (PRF ErrRec).
func Failed(r *record.Record) bool {
	return r.Errno != "" || r.Status == record.StatusError
}

// Writer passes the records f keeps on to w. It offers record.Parts when
// w does, so that kept records are still encoded on the pipeline's
// workers.
func Writer(w record.Writer, f *Filter) record.Writer {
	if f.IsZero() {
		return w
	}
	fw := &writer{w: w, f: f}
	if p, ok := w.(record.Parts); ok {
		return &partsWriter{writer: fw, parts: p}
	}
	return fw
}

type writer struct {
	w record.Writer
	f *Filter
}

func (w *writer) Write(r *record.Record) error {
	if !w.f.Keep(r) {
		return nil
	}
	return w.w.Write(r)
}

func (w *writer) Flush() error { return w.w.Flush() }

type partsWriter struct {
	*writer
	parts record.Parts
}

func (p *partsWriter) Part(w io.Writer) record.Writer {
	return &writer{w: p.parts.Part(w), f: p.f}
}

func (p *partsWriter) WriteEncoded(b []byte) error { return p.parts.WriteEncoded(b) }

// ParseDuration reads a duration as Go writes them ("1.5ms", "200us",
// "2s"), or a bare number of seconds ("0.001"), into nanoseconds.
func ParseDuration(s string) (int64, error) {
	if d, err := time.ParseDuration(s); err == nil {
		if d < 0 {
			return 0, fmt.Errorf("duration %q is negative", s)
		}
		return int64(d), nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("duration %q: want e.g. 1.5ms, 200us, 2s or seconds", s)
	}
	return int64(v * 1e9), nil
}

// ParseTime reads a bound for --since and --until: a time of day
// ("12:00:01.5", compared with the time stamps as written by strace -t and
// -tt), or how long after the start of the trace, as ts_ns counts it: a
// duration ("1.5s", "250ms"), seconds ("1.5"; for a log whose ts_ns is
// epoch time, seconds since the epoch) or nanoseconds ("1500000000ns").
func ParseTime(s string) (Time, error) {
	if strings.Contains(s, ":") {
		if ns, ok := clockNs(s); ok {
			return Time{Ns: ns, Clock: true}, nil
		}
		return Time{}, fmt.Errorf("time of day %q: want HH:MM[:SS[.fraction]]", s)
	}
	if d, err := time.ParseDuration(s); err == nil {
		return Time{Ns: int64(d)}, nil
	}
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		return Time{Ns: int64(v * 1e9)}, nil
	}
	return Time{}, fmt.Errorf("time %q: want a time of day (12:00:01.5), a duration from the start (1.5s) or seconds", s)
}

// clockNs reads "HH:MM[:SS[.fraction]]" into nanoseconds since midnight.
func clockNs(s string) (int64, bool) {
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, false
	}
	var ns int64
	for i, p := range parts[:2] {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 59 || i == 0 && n > 23 {
			return 0, false
		}
		ns = ns*60 + int64(n)
	}
	ns *= 60 * 1e9
	if len(parts) == 3 {
		sec, frac, _ := strings.Cut(parts[2], ".")
		n, err := strconv.Atoi(sec)
		if err != nil || n < 0 || n > 60 {
			return 0, false
		}
		ns += int64(n) * 1e9
		if frac != "" {
			if len(frac) > 9 {
				frac = frac[:9]
			}
			f, err := strconv.Atoi(frac)
			if err != nil {
				return 0, false
			}
			for i := len(frac); i < 9; i++ {
				f *= 10
			}
			ns += int64(f)
		}
	}
	return ns, true
}
