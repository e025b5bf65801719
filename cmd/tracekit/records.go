package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/cmd/internal/outfile"
	"github.com/tracekit/tracekit/lower/dialect"
)

// recordsCmd is "tracekit records [--dialect D] FILE...".
type recordsCmd struct {
	diagFlags
	progressFlags
	Dialect   string   `name:"dialect" placeholder:"D" completion-predictor:"dialect" help:"The dialect of every input: ${dialects} (see 'tracekit dialects'); default: told from each input's content and name."`
	Format    string   `name:"format" enum:"jsonl,csv,text,chrome,parquet" default:"jsonl" help:"Output format: jsonl, csv, text, chrome (Trace Event Format for Perfetto and chrome://tracing) or parquet (needs -o)."`
	Output    string   `short:"o" name:"output" placeholder:"FILE" help:"Write the records to FILE (whole, or not at all) instead of standard output."`
	NoPair    bool     `name:"no-pair" help:"Keep the start and end halves of calls as separate records (${pairing_dialects})."`
	CPUHz     float64  `name:"cpu-hz" placeholder:"HZ" help:"Processor clock rate, to turn time-stamp counts into nanoseconds (os2strace)."`
	KeepGoing bool     `name:"keep-going" help:"Exit 0 even when lines were skipped, and go on past inputs that cannot be read."`
	Strict    bool     `name:"strict" help:"Stop at the first malformed line."`
	Workers   int      `name:"workers" placeholder:"N" help:"Goroutines that lower the lines of dialects that can be lowered in parallel (${parallel_dialects}); 0: one a core. The output is the same."`
	Stats     bool     `name:"stats" help:"Also print the bytes read, the time, MB/s and the peak memory (resident set) on standard error."`
	Inputs    []string `arg:"" name:"file" completion-predictor:"trace" help:"Trace files, or - for standard input."`
}

// Run converts the inputs. Malformed lines are reported and skipped; the
// status is 1 when any was, unless --keep-going.
func (c *recordsCmd) Run(e *env) error {
	min, err := diag.LevelMin(c.Level)
	if err != nil {
		return err
	}
	var inputs []dialect.Input
	for _, name := range c.Inputs {
		in := dialect.Input{Name: name}
		if name == "-" {
			in.Reader = e.stdin
		}
		inputs = append(inputs, in)
	}
	if err := c.checkFormat(); err != nil {
		return err
	}
	dest := e.stdout
	var stream *outfile.Stream
	if c.Output != "" {
		// Streamed to a temporary file beside the target and renamed into
		// place at the end: memory stays flat, a failed run leaves nothing.
		if stream, err = outfile.Create(c.Output); err != nil {
			return err
		}
		defer stream.Abort()
		dest = stream
	}
	w, err := c.newWriter(dest)
	if err != nil {
		return err
	}
	report := func(d diag.Diagnostic) {
		if d.Severity < min {
			return
		}
		l := diag.List{d}
		if c.Diagnostics == "json" {
			l.WriteJSON(e.stderr)
		} else {
			l.WriteText(e.stderr)
		}
	}
	opts := dialect.Options{Dialect: c.Dialect, NoPair: c.NoPair, CPUHz: c.CPUHz, KeepGoing: c.KeepGoing, Strict: c.Strict, Workers: c.Workers}
	start := time.Now()
	bar := c.startProgress(e, inputs)
	sum, err := dialect.Records(context.Background(), opts, inputs, w, report)
	bar.Finish()
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	fmt.Fprintf(e.stderr, "tracekit records: %s\n", sum)
	if c.Stats {
		printStats(e, c.Inputs, time.Since(start))
	}
	var strict *dialect.StrictError
	switch {
	case errors.As(err, &strict):
		return exitCode(exitError)
	case err != nil:
		return err
	}
	if stream != nil {
		if err := stream.Commit(); err != nil {
			return err
		}
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

// printStats reports the throughput and the peak resident set size.
func printStats(e *env, names []string, elapsed time.Duration) {
	var size int64
	for _, n := range names {
		if st, err := os.Stat(n); err == nil {
			size += st.Size()
		}
	}
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	mb := float64(size) / 1e6
	fmt.Fprintf(e.stderr, "tracekit records: %.1f MB in %.2fs, %.2f MB/s, peak RSS %d MiB\n",
		mb, elapsed.Seconds(), mb/elapsed.Seconds(), ru.Maxrss/1024)
}
