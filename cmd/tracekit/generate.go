package main

import (
	"bufio"
	"os"

	"github.com/tracekit/tracekit/lower/dialect"
)

// generateCmd is "tracekit generate --dialect D --size N -o FILE": valid
// synthetic input for benchmarks.
type generateCmd struct {
	Dialect string `name:"dialect" required:"" placeholder:"D" completion-predictor:"generated" help:"The dialect to write: ${generated_dialects}."`
	Size    int64  `name:"size" default:"100000000" help:"How many bytes to write at most."`
	Output  string `short:"o" name:"output" required:"" placeholder:"FILE" help:"The file to write."`
}

// Run writes the file.
func (c *generateCmd) Run(e *env) error {
	f, err := os.Create(c.Output)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	err = dialect.Generate(c.Dialect, w, c.Size)
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
