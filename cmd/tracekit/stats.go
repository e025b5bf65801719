package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/cmd/internal/outfile"
	"github.com/tracekit/tracekit/cmd/internal/progress"
	"github.com/tracekit/tracekit/lower/analysis/filter"
	"github.com/tracekit/tracekit/lower/analysis/stats"
	"github.com/tracekit/tracekit/lower/dialect"
)

// statsCmd is "tracekit stats FILE...": calls, errors and durations per
// event, like strace -c, for any dialect.
type statsCmd struct {
	diagFlags
	filterFlags
	traceFlags
	By     []string `name:"by" placeholder:"KEY" default:"event" help:"Group rows by these keys (repeatable or comma-separated): event, pid, tid, errno, process." sep:","`
	Sort   string   `name:"sort" default:"time" enum:"time,calls,errors,mean,max,name" help:"Order of the rows: time (total duration), calls, errors, mean, max or name."`
	Format string   `name:"format" enum:"auto,table,json,csv" default:"auto" help:"Output: table (aligned, like strace -c), json (one object a row) or csv; auto is table on a terminal, json otherwise."`
	Output string   `short:"o" name:"output" placeholder:"FILE" help:"Write the table to FILE instead of standard output."`
	NoPair bool     `name:"no-pair" help:"Keep the halves of calls apart (winstrace, strace): each start half counts as a call."`
	Check  bool     `name:"check" help:"Compare the calls and errors of each syscall with the summary table the trace carries (strace -c or -C) and say which rows differ; exit status 1 when one does or there is no table."`
}

// Run counts the records of the inputs and prints the table.
func (c *statsCmd) Run(e *env) error {
	min, err := diag.LevelMin(c.Level)
	if err != nil {
		return err
	}
	inputs, err := c.inputs(e)
	if err != nil {
		return err
	}
	flt, err := c.filter()
	if err != nil {
		return err
	}
	table, err := stats.New(c.By)
	if err != nil {
		return &usageError{err.Error()}
	}
	out, err := createOutput(e, c.Output)
	if err != nil {
		return err
	}
	defer out.Abort()
	format := c.Format
	if format == "auto" {
		format = "json"
		if out.Kind() == outfile.KindStdout && progress.IsTerminal(e.stdout) {
			format = "table"
		}
	}
	rep := newReporter(e, "stats", c.diagFlags, min, c.MaxErrors)
	opts := dialect.Options{Dialect: c.Dialect, NoPair: c.NoPair, KeepGoing: c.KeepGoing}
	sum, err := dialect.Records(context.Background(), opts, inputs, filter.Writer(table, flt), rep.report)
	rep.end(sum)
	var strict *dialect.StrictError
	if errors.As(err, &strict) {
		return exitCode(exitError)
	} else if err != nil {
		return err
	}
	rows, err := table.Rows(c.Sort)
	if err != nil {
		return &usageError{err.Error()}
	}
	if err := table.Print(out, format, rows); err != nil {
		return err
	}
	if err := out.Commit(); err != nil {
		return err
	}
	if c.Check {
		bad, ok := table.Check()
		switch {
		case !ok:
			fmt.Fprintln(e.stderr, "tracekit stats: --check: the input carries no summary table (strace -c or -C)")
			return exitCode(exitError)
		case len(bad) > 0:
			for _, m := range bad {
				fmt.Fprintf(e.stderr, "tracekit stats: --check: %s: %d calls, %d errors; strace's table says %d and %d\n", m.Event, m.Calls, m.Errors, m.WantCalls, m.WantErrors)
			}
			return exitCode(exitError)
		}
		fmt.Fprintln(e.stderr, "tracekit stats: --check: every row equals strace's own table")
	}
	if sum.Incomplete() && !c.KeepGoing {
		return exitCode(exitError)
	}
	return nil
}
