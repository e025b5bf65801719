package main

import (
	"context"
	"errors"

	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/lower/analysis/filter"
	"github.com/tracekit/tracekit/lower/analysis/tree"
	"github.com/tracekit/tracekit/lower/dialect"
)

// treeCmd is "tracekit tree FILE...": the process tree of a trace.
type treeCmd struct {
	diagFlags
	filterFlags
	traceFlags
	Threads bool   `name:"threads" help:"Show threads under their processes (otherwise their calls count for the process)."`
	Format  string `name:"format" enum:"text,json" default:"text" help:"Output: text (an indented tree) or json (one object a node: pid, ppid, tid, thread, argv, start_ns, end_ns, exit, signal, calls)."`
	Output  string `short:"o" name:"output" placeholder:"FILE" help:"Write the tree to FILE instead of standard output."`
}

// Run builds and prints the tree.
func (c *treeCmd) Run(e *env) error {
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
	out, err := createOutput(e, c.Output)
	if err != nil {
		return err
	}
	defer out.Abort()
	t := tree.New()
	rep := newReporter(e, "tree", c.diagFlags, min, c.MaxErrors)
	sum, err := dialect.Records(context.Background(), dialect.Options{Dialect: c.Dialect, KeepGoing: c.KeepGoing}, inputs, filter.Writer(t, flt), rep.report)
	rep.end(sum)
	var strict *dialect.StrictError
	if errors.As(err, &strict) {
		return exitCode(exitError)
	} else if err != nil {
		return err
	}
	if err := tree.Write(out, c.Format, t.Roots(c.Threads)); err != nil {
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
