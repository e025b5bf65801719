package main

import (
	"strings"

	"github.com/tracekit/tracekit/cmd/internal/outfile"
	"github.com/tracekit/tracekit/lower/dialect"
)

// traceFlags are what every command that reads traces takes (records,
// stats, tree): the dialect, how far to go past bad input, and the inputs.
type traceFlags struct {
	Dialect   string   `name:"dialect" placeholder:"D" completion-predictor:"dialect" help:"The dialect of every input: $${dialects} (see 'tracekit dialects'); default: told from each input's content and name."`
	KeepGoing bool     `name:"keep-going" help:"Exit 0 even when lines were skipped, and go on past inputs that cannot be read."`
	MaxErrors int      `name:"max-errors" default:"100" placeholder:"N" help:"Print at most N error diagnostics (0: all); the rest are counted in the summary."`
	Inputs    []string `arg:"" name:"file" completion-predictor:"trace" help:"Trace files, or - for standard input."`
}

// inputs checks --dialect and returns the inputs to read, standard input
// for "-".
func (f *traceFlags) inputs(e *env) ([]dialect.Input, error) {
	if f.Dialect != "" {
		if _, ok := dialect.Lookup(f.Dialect); !ok {
			return nil, usagef("unknown dialect %q: want one of %s (see 'tracekit dialects')", f.Dialect, strings.Join(dialect.Names(), ", "))
		}
	}
	var inputs []dialect.Input
	for _, name := range f.Inputs {
		in := dialect.Input{Name: name}
		if name == "-" {
			in.Reader = e.stdin
		}
		inputs = append(inputs, in)
	}
	return inputs, nil
}

// createOutput opens the output -o names, standard output when none.
func createOutput(e *env, name string) (*outfile.File, error) {
	if name == "" {
		name = outfile.Stdout
	}
	return e.outs.Create(name)
}
