package main

import (
	"context"
	"errors"
	"strings"

	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/cmd/internal/outfile"
	"github.com/tracekit/tracekit/lower/analysis/filter"
	"github.com/tracekit/tracekit/lower/analysis/tree"
	"github.com/tracekit/tracekit/lower/dialect"
)

// treeCmd is "tracekit tree FILE...": the process tree of a trace.
type treeCmd struct {
	diagFlags
	filterFlags
	Dialect   string   `name:"dialect" placeholder:"D" help:"The dialect of every input (see 'tracekit dialects'); default: told from each input's content and name."`
	Threads   bool     `name:"threads" help:"Show threads under their processes (otherwise their calls count for the process)."`
	Format    string   `name:"format" enum:"text,json" default:"text" help:"Output: text (an indented tree) or json (one object a node: pid, ppid, tid, thread, argv, start_ns, end_ns, exit, signal, calls)."`
	Output    string   `short:"o" name:"output" placeholder:"FILE" help:"Write the tree to FILE instead of standard output."`
	KeepGoing bool     `name:"keep-going" help:"Exit 0 even when lines were skipped."`
	MaxErrors int      `name:"max-errors" default:"100" placeholder:"N" help:"Print at most N error diagnostics (0: all)."`
	Inputs    []string `arg:"" name:"file" help:"Trace files, or - for standard input."`
}

// Run builds and prints the tree.
func (c *treeCmd) Run(e *env) error {
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
