package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/ast/tsf"
	"github.com/tracekit/tracekit/cmd/internal/outfile"
	"github.com/tracekit/tracekit/lower/tsfcheck"
	"github.com/tracekit/tracekit/lower/tsfcompile"
)

// compileCmd is "tracekit compile FILE.tsf".
type compileCmd struct {
	diagFlags
	TFFDir          string `name:"tff-dir" default:"." placeholder:"DIR" help:"Where to write TRC00xx.TFF."`
	Output          string `short:"o" name:"output" placeholder:"FILE" help:"The TDF to write (default: the TSF's name with .TDF, as TRCUST does)."`
	Depfile         string `name:"depfile" placeholder:"FILE" help:"Also write a make rule naming the outputs and every input read."`
	AllowDuplicates bool   `name:"allow-duplicate-minors" help:"Keep tracepoints whose minor code was used before (TRCUST /D)."`
	File            string `arg:"" name:"file" help:"The Trace Source File."`
}

// tdfName is the default TDF name: the TSF's name with the extension .TDF.
func tdfName(tsfPath string) string {
	return strings.TrimSuffix(tsfPath, filepath.Ext(tsfPath)) + ".TDF"
}

// Run compiles the TSF. Nothing is written unless the whole compile
// succeeds: exit status 1 and no output after an error or worse.
func (c *compileCmd) Run(e *env) error {
	src, err := os.ReadFile(c.File)
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: fatal: %v\n", c.File, err)
		return exitCode(exitError)
	}
	m, diags := tsfcompile.Check(c.File, src, tsfcheck.Options{AllowDuplicateMinors: c.AllowDuplicates})
	var set outfile.Set
	if !diags.Failed() {
		diags = c.outputs(m, diags, &set)
	}
	if err := c.print(e, diags); err != nil {
		return err
	}
	if diags.Failed() {
		return exitCode(exitError)
	}
	if err := set.Commit(); err != nil {
		return err
	}
	return nil
}

// outputs schedules the files to write, or adds the diagnostic that says
// why they cannot be.
func (c *compileCmd) outputs(m *tsfcheck.Module, diags diag.List, set *outfile.Set) diag.List {
	for _, tp := range m.Tracepoints {
		if !tp.Static() {
			d := diag.Diagnostic{Pos: tp.TPField.Pos, Severity: diag.Fatal, Code: "TRC000",
				Msg: "tracekit cannot write TDF files yet: only @STATIC tracepoints can be compiled"}
			return append(diags, d)
		}
	}
	t := tsfcompile.BuildTFF(m)
	if t == nil {
		return append(diags, tsf.WarnNoTracepoints.Diagnostic(m.File.EOF, 0))
	}
	data, err := t.MarshalBinary()
	if err != nil {
		return append(diags, diag.Diagnostic{Pos: m.File.EOF, Severity: diag.Fatal, Code: tsf.FatalWrite.String(), Msg: err.Error()})
	}
	outputs := []string{filepath.Join(c.TFFDir, tsfcompile.TFFName(m.Major))}
	set.Add(outputs[0], data)
	if c.Depfile != "" {
		set.Add(c.Depfile, depRule(outputs, []string{c.File}))
	}
	return diags
}

// depRule is a make rule: the outputs depend on every input read.
func depRule(outputs, inputs []string) []byte {
	esc := func(names []string) string {
		var out []string
		for _, n := range names {
			n = strings.ReplaceAll(n, "$", "$$")
			n = strings.ReplaceAll(n, " ", `\ `)
			n = strings.ReplaceAll(n, "#", `\#`)
			out = append(out, n)
		}
		return strings.Join(out, " ")
	}
	return []byte(esc(outputs) + ": " + esc(inputs) + "\n")
}
