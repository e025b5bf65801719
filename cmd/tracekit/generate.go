package main

import (
	"bufio"
	"slices"
	"strings"

	"github.com/tracekit/tracekit/lower/dialect"
)

// generateCmd is "tracekit generate --dialect D --size N -o FILE": valid
// synthetic input for benchmarks.
type generateCmd struct {
	Dialect string `name:"dialect" required:"" placeholder:"D" completion-predictor:"generated" help:"The dialect to write: $${generated_dialects}."`
	Size    int64  `name:"size" default:"100000000" help:"How many bytes to write at most."`
	Output  string `short:"o" name:"output" required:"" placeholder:"FILE" help:"The file to write."`
}

// Run writes the file.
func (c *generateCmd) Run(e *env) error {
	if !slices.Contains(dialect.Generated(), c.Dialect) {
		return usagef("no generator for dialect %q: have %s", c.Dialect, strings.Join(dialect.Generated(), ", "))
	}
	f, err := e.outs.Create(c.Output)
	if err != nil {
		return err
	}
	defer f.Abort()
	w := bufio.NewWriterSize(f, 1<<20)
	if err := dialect.Generate(c.Dialect, w, c.Size); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Commit()
}
