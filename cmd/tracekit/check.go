package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/lower/astdump"
	"github.com/tracekit/tracekit/lower/tsfcheck"
	"github.com/tracekit/tracekit/lower/tsfcompile"
)

// diagFlags choose how diagnostics are printed.
type diagFlags struct {
	Diagnostics string `name:"diagnostics" enum:"text,json" default:"text" help:"Diagnostic format: text (FILE:LINE:COL: SEVERITY: TEXT [CODE]) or json (one object a line)."`
	Level       int    `short:"W" name:"level" enum:"0,1,2" default:"2" help:"Message level, as TRCUST /Wn: 0 fatal and severe, 1 adds errors, 2 adds warnings."`
}

// jsonDiagnostics reports whether diagnostics are JSON.
func (f diagFlags) jsonDiagnostics() bool { return f.Diagnostics == "json" }

// print writes the diagnostics at the chosen level and format. When the
// level hides errors that fail the file (-W 0 hides errors, as TRCUST /W0
// does), a text summary line says how many, so that a status of 1 never
// comes without a word: "FILE: 2 errors not shown at -W 0".
func (f diagFlags) print(e *env, l diag.List) error {
	min, err := diag.LevelMin(f.Level)
	if err != nil {
		return err
	}
	shown := l.Filter(min)
	if f.Diagnostics == "json" {
		return shown.WriteJSON(e.stderr)
	}
	if err := shown.WriteText(e.stderr); err != nil {
		return err
	}
	hidden, file := 0, ""
	for _, d := range l {
		if d.Severity >= diag.Error && d.Severity < min {
			if hidden++; file == "" {
				file = d.Pos.File
			}
		}
	}
	if hidden > 0 {
		noun := "errors"
		if hidden == 1 {
			noun = "error"
		}
		_, err = fmt.Fprintf(e.stderr, "%s: %d %s not shown at -W %d\n", file, hidden, noun, f.Level)
	}
	return err
}

// checkCmd is "tracekit check FILE.tsf...".
type checkCmd struct {
	diagFlags
	AllowDuplicates bool     `name:"allow-duplicate-minors" help:"Keep tracepoints whose minor code was used before (TRCUST /D)."`
	Files           []string `arg:"" name:"file" completion-predictor:"tsf" help:"Trace Source Files."`
}

// Run checks each file; the status is 1 when any has an error or worse.
func (c *checkCmd) Run(e *env) error {
	limitMemory(e)
	failed := false
	for _, name := range c.Files {
		src, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintf(e.stderr, "%s: fatal: %v\n", name, err)
			failed = true
			continue
		}
		_, diags := tsfcompile.Check(name, src, tsfcheck.Options{AllowDuplicateMinors: c.AllowDuplicates})
		if err := c.print(e, diags); err != nil {
			return err
		}
		failed = failed || diags.Failed()
	}
	if failed {
		return exitCode(exitError)
	}
	return nil
}

// astCmd is "tracekit ast FILE".
type astCmd struct {
	Dialect string `name:"dialect" default:"tsf" completion-predictor:"astdialect" help:"The language of the file: tsf, or a trace dialect ($${dialects})."`
	File    string `arg:"" name:"file" help:"The file to dump, or - for standard input (trace dialects)."`
}

// Run dumps the tree, with every diagnostic as a "// " comment line where
// it arises; the status is 1 when one is an error or worse.
func (c *astCmd) Run(e *env) error {
	var in io.Reader = e.stdin
	if c.File != "-" {
		f, err := os.Open(c.File)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	err := astdump.Dump(c.Dialect, c.File, in, e.stdout)
	var list diag.List
	if errors.As(err, &list) {
		return exitCode(exitError)
	}
	return err
}
