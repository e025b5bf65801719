// Package stats counts records as strace -c does, for any dialect: per
// event (or per pid, tid, error name, process, or a combination) the
// calls, the errors by name, and where the trace measured them the total,
// mean, largest, median and 99th-percentile durations and the share of
// the time. A Table is a record.Writer: it takes the records of a run as
// they stream, and holds one row per distinct key, never the records.
package stats

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/tracekit/tracekit/lower/analysis/filter"
	"github.com/tracekit/tracekit/lower/record"
)

// Keys are what rows can be grouped by.
var Keys = []string{"event", "pid", "tid", "errno", "process"}

// Row is the figures of one key.
type Row struct {
	Key     []string       // the values of the grouping keys, in the order asked
	Calls   int64          // calls (records but the second halves of paired calls)
	Errors  int64          // failed calls
	Errnos  map[string]int // failed calls by error name
	Timed   int64          // calls with a duration
	TotalNs int64
	MaxNs   int64
	hist    histogram
}

// MeanNs is the mean duration of the timed calls, 0 when none was timed.
func (r *Row) MeanNs() int64 {
	if r.Timed == 0 {
		return 0
	}
	return r.TotalNs / r.Timed
}

// Quantile returns the q-quantile (0 < q ≤ 1) of the durations, within
// the histogram's resolution (1/64 of the value, see histogram).
func (r *Row) Quantile(q float64) int64 { return r.hist.quantile(q, r.Timed) }

// Table is the rows of a run, grouped by By.
type Table struct {
	By   []string
	rows map[string]*Row
	// summary holds the rows of the summary tables the trace itself
	// carries (strace -c, -C): syscall → calls and errors, summed over
	// the tables.
	summary map[string][2]int64
}

// New returns an empty Table grouped by the keys by (default: event). It
// fails on an unknown key.
func New(by []string) (*Table, error) {
	if len(by) == 0 {
		by = []string{"event"}
	}
	for _, k := range by {
		if !slices.Contains(Keys, k) {
			return nil, fmt.Errorf("unknown --by %q: want one of %s", k, strings.Join(Keys, ", "))
		}
	}
	return &Table{By: by, rows: map[string]*Row{}}, nil
}

// keyOf returns the value of key k of r.
func keyOf(r *record.Record, k string) string {
	u := func(v *uint64) string {
		if v == nil {
			return ""
		}
		return strconv.FormatUint(*v, 10)
	}
	switch k {
	case "event":
		return r.Event
	case "pid":
		return u(r.PID)
	case "tid":
		return u(r.TID)
	case "errno":
		return r.Errno
	case "process":
		return r.Process
	}
	return ""
}

// summaryRow reads a summary record, a row of the table strace printed
// for -c or -C (docs/records.md): its syscall, calls and errors.
func summaryRow(r *record.Record) (event string, calls, errors int64, ok bool) {
	if r.Attrs["type"] != "summary" {
		return "", 0, 0, false
	}
	for _, a := range r.Args {
		if a.Kind != record.KindInt {
			continue
		}
		switch a.Name {
		case "calls":
			calls = int64(a.Mag)
		case "errors":
			errors = int64(a.Mag)
		}
	}
	return r.Event, calls, errors, true
}

// Write counts one record. A summary record (a row of strace's own
// table) is no call: it is kept for Check.
func (t *Table) Write(r *record.Record) error {
	if ev, calls, errs, ok := summaryRow(r); ok {
		if t.summary == nil {
			t.summary = map[string][2]int64{}
		}
		v := t.summary[ev]
		t.summary[ev] = [2]int64{v[0] + calls, v[1] + errs}
		return nil
	}
	if r.Phase == record.Exit && !r.Unpaired {
		return nil // the end half of a call already counted
	}
	var kb strings.Builder
	for i, k := range t.By {
		if i > 0 {
			kb.WriteByte(0)
		}
		kb.WriteString(keyOf(r, k))
	}
	row := t.rows[kb.String()]
	if row == nil {
		row = &Row{Errnos: map[string]int{}}
		for _, k := range t.By {
			row.Key = append(row.Key, keyOf(r, k))
		}
		t.rows[kb.String()] = row
	}
	row.Calls++
	if filter.Failed(r) {
		row.Errors++
		name := r.Errno
		if name == "" {
			name = string(r.Status)
		}
		row.Errnos[name]++
	}
	if r.DurNs != nil && *r.DurNs >= 0 {
		d := *r.DurNs
		row.Timed++
		row.TotalNs += d
		row.MaxNs = max(row.MaxNs, d)
		row.hist.add(d)
	}
	return nil
}

// Flush does nothing: a Table is read with Rows.
func (t *Table) Flush() error { return nil }

// Sorts are the orders Rows knows.
var Sorts = []string{"time", "calls", "errors", "mean", "max", "name"}

// Rows returns the rows in the order sort names: "time" (total duration,
// the default, then calls), "calls", "errors", "mean", "max" (each
// largest first) or "name" (by key); ties by key.
func (t *Table) Rows(sort string) ([]*Row, error) {
	if sort == "" {
		sort = "time"
	}
	if !slices.Contains(Sorts, sort) {
		return nil, fmt.Errorf("unknown --sort %q: want one of %s", sort, strings.Join(Sorts, ", "))
	}
	rows := make([]*Row, 0, len(t.rows))
	for _, r := range t.rows {
		rows = append(rows, r)
	}
	by := func(a, b *Row) int { return slices.Compare(a.Key, b.Key) }
	desc := func(f func(*Row) int64) func(a, b *Row) int {
		return func(a, b *Row) int {
			if c := cmp.Compare(f(b), f(a)); c != 0 {
				return c
			}
			return by(a, b)
		}
	}
	switch sort {
	case "time":
		slices.SortFunc(rows, func(a, b *Row) int {
			if c := cmp.Compare(b.TotalNs, a.TotalNs); c != 0 {
				return c
			}
			return desc(func(r *Row) int64 { return r.Calls })(a, b)
		})
	case "calls":
		slices.SortFunc(rows, desc(func(r *Row) int64 { return r.Calls }))
	case "errors":
		slices.SortFunc(rows, desc(func(r *Row) int64 { return r.Errors }))
	case "mean":
		slices.SortFunc(rows, desc(func(r *Row) int64 { return r.MeanNs() }))
	case "max":
		slices.SortFunc(rows, desc(func(r *Row) int64 { return r.MaxNs }))
	default:
		slices.SortFunc(rows, by)
	}
	return rows, nil
}

// Total returns the sum of rows, for the last line of a table.
func Total(rows []*Row) *Row {
	t := &Row{Errnos: map[string]int{}}
	for _, r := range rows {
		t.Calls += r.Calls
		t.Errors += r.Errors
		t.Timed += r.Timed
		t.TotalNs += r.TotalNs
		t.MaxNs = max(t.MaxNs, r.MaxNs)
		for k, v := range r.Errnos {
			t.Errnos[k] += v
		}
		t.hist.merge(&r.hist)
	}
	return t
}

// histogram counts durations in buckets of 1/64 of a power of two: a
// quantile read from it is within 1/64 (1.6%) of the true value, and it
// holds at most 64 × 64 counts whatever the number of calls.
type histogram struct {
	counts map[uint16]int64
}

const subBuckets = 64

func bucketOf(d int64) uint16 {
	if d < subBuckets {
		return uint16(d)
	}
	e := bits.Len64(uint64(d)) - 7 // d >> e lies in [64, 128)
	return uint16((e+1)*subBuckets) + uint16(d>>e) - subBuckets
}

// lowOf returns the smallest duration of bucket b.
func lowOf(b uint16) int64 {
	if b < subBuckets {
		return int64(b)
	}
	e := int(b)/subBuckets - 1
	m := int64(b)%subBuckets + subBuckets
	return m << e
}

func (h *histogram) add(d int64) {
	if h.counts == nil {
		h.counts = map[uint16]int64{}
	}
	h.counts[bucketOf(d)]++
}

func (h *histogram) merge(o *histogram) {
	for b, n := range o.counts {
		if h.counts == nil {
			h.counts = map[uint16]int64{}
		}
		h.counts[b] += n
	}
}

func (h *histogram) quantile(q float64, n int64) int64 {
	if n == 0 || len(h.counts) == 0 {
		return 0
	}
	keys := make([]uint16, 0, len(h.counts))
	for b := range h.counts {
		keys = append(keys, b)
	}
	slices.Sort(keys)
	rank := int64(q*float64(n) + 0.5)
	rank = max(1, min(rank, n))
	var seen int64
	for _, b := range keys {
		seen += h.counts[b]
		if seen >= rank {
			return lowOf(b)
		}
	}
	return lowOf(keys[len(keys)-1])
}

// Mismatch is a row where the counts differ from the trace's own table.
type Mismatch struct {
	Event                 string
	Calls, Errors         int64 // tracekit's
	WantCalls, WantErrors int64 // the table's
}

// Check compares the calls and errors of each syscall with the summary
// table the trace carries (strace -c or -C; rows grouped by event only).
// It returns the rows that differ, and false when the trace has no table.
// Calls strace does not count (exit and exit_group, which never return)
// and records that are no call (signals, exits) are not compared.
func (t *Table) Check() ([]Mismatch, bool) {
	if t.summary == nil {
		return nil, false
	}
	var out []Mismatch
	for ev, want := range t.summary {
		if ev == "total" {
			continue
		}
		var got Row
		if r := t.rows[ev]; r != nil {
			got = *r
		}
		if got.Calls != want[0] || got.Errors != want[1] {
			out = append(out, Mismatch{ev, got.Calls, got.Errors, want[0], want[1]})
		}
	}
	slices.SortFunc(out, func(a, b Mismatch) int { return strings.Compare(a.Event, b.Event) })
	return out, true
}
