package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

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
	Dialect   string   `name:"dialect" placeholder:"D" help:"The dialect of every input (see 'tracekit dialects'); default: told from each input's content and name."`
	By        []string `name:"by" placeholder:"KEY" default:"event" help:"Group rows by these keys (repeatable or comma-separated): event, pid, tid, errno, process." sep:","`
	Sort      string   `name:"sort" default:"time" enum:"time,calls,errors,mean,max,name" help:"Order of the rows: time (total duration), calls, errors, mean, max or name."`
	Format    string   `name:"format" enum:"auto,table,json,csv" default:"auto" help:"Output: table (aligned, like strace -c), json (one object a row) or csv; auto is table on a terminal, json otherwise."`
	Output    string   `short:"o" name:"output" placeholder:"FILE" help:"Write the table to FILE instead of standard output."`
	NoPair    bool     `name:"no-pair" help:"Keep the halves of calls apart (winstrace, strace): each start half counts as a call."`
	Check     bool     `name:"check" help:"Compare the calls and errors of each syscall with the summary table the trace carries (strace -c or -C) and say which rows differ; exit status 1 when one does or there is no table."`
	KeepGoing bool     `name:"keep-going" help:"Exit 0 even when lines were skipped."`
	MaxErrors int      `name:"max-errors" default:"100" placeholder:"N" help:"Print at most N error diagnostics (0: all)."`
	Inputs    []string `arg:"" name:"file" help:"Trace files, or - for standard input."`
}

// Run counts the records of the inputs and prints the table.
func (c *statsCmd) Run(e *env) error {
	min, err := diag.LevelMin(c.Level)
	if err != nil {
		return err
	}
	if c.Dialect != "" {
		if _, ok := dialect.Lookup(c.Dialect); !ok {
			return usagef("unknown dialect %q: want one of %s (see 'tracekit dialects')", c.Dialect, strings.Join(dialect.Names(), ", "))
		}
	}
	flt, err := c.filter()
	if err != nil {
		return err
	}
	table, err := stats.New(c.By)
	if err != nil {
		return &usageError{err.Error()}
	}
	var inputs []dialect.Input
	for _, name := range c.Inputs {
		in := dialect.Input{Name: name}
		if name == "-" {
			in.Reader = e.stdin
		}
		inputs = append(inputs, in)
	}
	name := c.Output
	if name == "" {
		name = outfile.Stdout
	}
	out, err := e.outs.Create(name)
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
