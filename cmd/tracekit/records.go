package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/cmd/internal/outfile"
	"github.com/tracekit/tracekit/lower/analysis/filter"
	"github.com/tracekit/tracekit/lower/dialect"
	"github.com/tracekit/tracekit/lower/record"
)

// recordsCmd is "tracekit records [--dialect D] FILE...".
type recordsCmd struct {
	diagFlags
	progressFlags
	filterFlags
	traceFlags
	Format  string  `name:"format" enum:"jsonl,csv,text,chrome,parquet" default:"jsonl" help:"Output format: jsonl, csv, text, chrome (Trace Event Format for Perfetto and chrome://tracing) or parquet (needs -o)."`
	Output  string  `short:"o" name:"output" placeholder:"FILE" help:"Write the records to FILE instead of standard output (-): a regular file is replaced whole at the end, or not at all; a FIFO or device is written as the records come."`
	NoPair  bool    `name:"no-pair" help:"Keep the start and end halves of calls as separate records ($${pairing_dialects})."`
	CPUHz   float64 `name:"cpu-hz" placeholder:"HZ" help:"Processor clock rate, to turn time-stamp counts into nanoseconds (os2strace)."`
	Strict  bool    `name:"strict" help:"Stop at the first malformed line."`
	Workers int     `name:"workers" placeholder:"N" help:"Goroutines that lower the lines of dialects that can be lowered in parallel ($${parallel_dialects}); 0: one a core. The output is the same."`
	Stats   bool    `name:"stats" help:"Also print the bytes read, the time, MB/s and the peak memory (resident set) on standard error."`
	Follow  bool    `name:"follow" short:"f" help:"Read FILE as 'tail -F' does: wait for it to grow (and follow it when it is truncated or replaced), writing records as lines arrive, until interrupted (Ctrl-C ends the run normally). A FIFO is read as it comes, to its writer's end."`
	Fields  string  `name:"fields" placeholder:"LIST" help:"Write only these fields, in this order (csv, jsonl, text, parquet): e.g. ts_ns,pid,event,ret,errno,dur_ns; the names are the CSV header's."`
}

// Run converts the inputs. Malformed lines are reported and skipped; the
// status is 1 when any was, unless --keep-going. The records read are
// written all the same (-o keeps them), except under --strict, which
// writes nothing after an error.
func (c *recordsCmd) Run(e *env) error {
	min, err := diag.LevelMin(c.Level)
	if err != nil {
		return err
	}
	streamMemory(e)
	inputs, err := c.inputs(e)
	if err != nil {
		return err
	}
	if c.Follow && (len(c.Inputs) != 1 || c.Inputs[0] == "-") {
		return usagef("--follow reads one file, not standard input (a pipe is read as it comes anyway)")
	}
	if err := c.checkFormat(); err != nil {
		return err
	}
	// A regular file is written to a temporary file beside it and renamed
	// into place at the end: memory stays flat, a failed run leaves
	// nothing. A FIFO or a device is written as the records come.
	out, err := createOutput(e, c.Output)
	if err != nil {
		return err
	}
	defer out.Abort()
	if c.Format == "parquet" && out.Kind() != outfile.KindReplace {
		return usagef("--format parquet needs -o naming a regular file: a Parquet file ends with its index, it is not a stream (%s is %s)", c.Output, out.Kind())
	}
	flt, err := c.filter()
	if err != nil {
		return err
	}
	w, err := c.newWriter(out)
	if err != nil {
		return err
	}
	w = filter.Writer(w, flt)
	rep := newReporter(e, "records", c.diagFlags, min, c.MaxErrors)
	opts := dialect.Options{Dialect: c.Dialect, NoPair: c.NoPair, CPUHz: c.CPUHz, KeepGoing: c.KeepGoing, Strict: c.Strict, Workers: c.Workers}
	if c.Fields != "" {
		// Work for a column not written is not done (the filters read no
		// arguments and no attrs).
		fields, _ := record.ParseFields(c.Fields) // checked by checkFormat
		opts.NoArgs = !slices.Contains(fields, "args")
		opts.NoAttrs = !slices.Contains(fields, "attrs")
	}
	if c.Follow {
		// The first signal ends the followed file as at its end; the run
		// then finishes and keeps what it wrote.
		stop := make(chan struct{})
		var once sync.Once
		e.signals.setSoft(func() { once.Do(func() { close(stop) }) })
		defer e.signals.setSoft(nil)
		opts.Follow = stop
	}
	start := time.Now()
	bar := c.startProgress(e, inputs)
	e.signals.setBar(bar)
	sum, err := dialect.Records(context.Background(), opts, inputs, w, rep.report)
	bar.Finish()
	e.signals.setBar(nil)
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	rep.end(sum)
	if c.Stats {
		printStats(e, c.Inputs, time.Since(start), c.Diagnostics == "json")
	}
	var strict *dialect.StrictError
	switch {
	case errors.As(err, &strict):
		return exitCode(exitError)
	case err != nil:
		return err
	}
	if err := out.Commit(); err != nil {
		return err
	}
	if sum.Incomplete() && !c.KeepGoing {
		return exitCode(exitError)
	}
	return nil
}

// dialectsCmd is "tracekit dialects".
type dialectsCmd struct{}

// Run lists the dialects of the registry.
func (dialectsCmd) Run(e *env) error {
	for _, d := range dialect.List() {
		fmt.Fprintf(e.stdout, "%-10s %s (%s)\n", d.Name, d.Description, strings.Join(d.Patterns, " "))
	}
	return nil
}

// printStats reports the throughput and the peak resident set size, as a
// text line or a JSON object.
func printStats(e *env, names []string, elapsed time.Duration, asJSON bool) {
	var size int64
	for _, n := range names {
		if st, err := os.Stat(n); err == nil {
			size += st.Size()
		}
	}
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	mb := float64(size) / 1e6
	if asJSON {
		fmt.Fprintf(e.stderr, "{\"stats\":{\"mb\":%.1f,\"seconds\":%.2f,\"mb_per_s\":%.2f,\"peak_rss_mib\":%d}}\n",
			mb, elapsed.Seconds(), mb/elapsed.Seconds(), ru.Maxrss/1024)
		return
	}
	fmt.Fprintf(e.stderr, "tracekit records: %.1f MB in %.2fs, %.2f MB/s, peak RSS %d MiB\n",
		mb, elapsed.Seconds(), mb/elapsed.Seconds(), ru.Maxrss/1024)
}
