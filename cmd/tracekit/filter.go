package main

import (
	"github.com/tracekit/tracekit/lower/analysis/filter"
)

// filterFlags choose the records a command keeps (lower/analysis/filter);
// they are applied before anything is encoded or counted.
type filterFlags struct {
	PID    []uint64 `name:"pid" placeholder:"PID" help:"Keep the records of these processes (repeat, or comma-separated)." sep:","`
	TID    []uint64 `name:"tid" placeholder:"TID" help:"Keep the records of these threads." sep:","`
	Event  []string `name:"event" placeholder:"GLOB" help:"Keep events matching a pattern (* ? [..], any case; repeatable): --event 'open*'."`
	Failed bool     `name:"failed" help:"Keep failed calls only (an error name or an error status)."`
	Errno  []string `name:"errno" placeholder:"NAME" help:"Keep calls failed with these error names (ENOENT, STATUS_ACCESS_DENIED)." sep:","`
	MinDur string   `name:"min-dur" placeholder:"DURATION" help:"Keep calls that took at least this long (1.5ms, 200us, 2s)."`
	Since  string   `name:"since" placeholder:"TIME" help:"Keep records from this time on: a time of day (12:00:01.5, for -t/-tt logs) or a time from the start of the trace (1.5s)."`
	Until  string   `name:"until" placeholder:"TIME" help:"Keep records up to this time (as --since)."`
}

// filter returns the Filter of the flags, or a usage error.
func (f *filterFlags) filter() (*filter.Filter, error) {
	out := &filter.Filter{PIDs: f.PID, TIDs: f.TID, Events: f.Event, Failed: f.Failed, Errnos: f.Errno}
	if err := out.Check(); err != nil {
		return nil, usagef("%v", err)
	}
	if f.MinDur != "" {
		d, err := filter.ParseDuration(f.MinDur)
		if err != nil {
			return nil, usagef("--min-dur: %v", err)
		}
		out.MinDur = d
	}
	for _, b := range []struct {
		flag, s string
		dst     **filter.Time
	}{{"--since", f.Since, &out.Since}, {"--until", f.Until, &out.Until}} {
		if b.s == "" {
			continue
		}
		t, err := filter.ParseTime(b.s)
		if err != nil {
			return nil, usagef("%s: %v", b.flag, err)
		}
		*b.dst = &t
	}
	return out, nil
}
