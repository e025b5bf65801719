package main

import (
	"os"

	"github.com/tracekit/tracekit/cmd/internal/progress"
	"github.com/tracekit/tracekit/lower/dialect"
)

// progressFlags is --quiet, for the commands that show a progress bar.
type progressFlags struct {
	Quiet bool `name:"quiet" short:"q" help:"Show no progress bar (one is shown on standard error when it is a terminal and the input is 32 MiB or more)."`
}

// inputSize is the total size of the named files (those that exist).
func inputSize(names ...string) int64 {
	var n int64
	for _, name := range names {
		if st, err := os.Stat(name); err == nil && st.Mode().IsRegular() {
			n += st.Size()
		}
	}
	return n
}

// startProgress shows a bar of the bytes read from the input files, when
// progress.Start says so, by reading the files through it. It returns nil
// when no bar is shown.
func (c *recordsCmd) startProgress(e *env, inputs []dialect.Input) *progress.Bar {
	bar := progress.Start(e.stderr, inputSize(c.Inputs...), "records", c.Quiet)
	if bar == nil {
		return nil
	}
	for i := range inputs {
		if inputs[i].Reader == nil && inputs[i].Name != "-" {
			inputs[i].Reader = bar.File(inputs[i].Name)
		}
	}
	return bar
}

// startProgress shows a bar of compile's two steps, checking and building,
// when one is shown for the TSF and the module named by --module.
func (c *compileCmd) startProgress(e *env) *progress.Bar {
	if !progress.Show(e.stderr, inputSize(c.File, c.Module), c.Quiet) {
		return nil
	}
	return progress.New(e.stderr, 2, "compile: checking the TSF", false)
}
