package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/ast/tsf"
	"github.com/tracekit/tracekit/binfmt/tff"
)

// combineCmd is "tracekit combine LIST|FILE... -o DEST.TFF", TRCUST's /C=.
type combineCmd struct {
	diagFlags
	Output string   `short:"o" name:"output" required:"" placeholder:"DEST.TFF" help:"The combined TFF to write."`
	Inputs []string `arg:"" name:"input" completion-predictor:"tff" help:"TFF files to combine, or one file listing their names separated by white space."`
}

// inputs returns the TFF names: the arguments, or the names listed in the
// one argument when it is not a TFF itself.
func (c *combineCmd) inputs() ([]string, error) {
	if len(c.Inputs) != 1 {
		return c.Inputs, nil
	}
	data, err := os.ReadFile(c.Inputs[0])
	if err != nil {
		return nil, err
	}
	if bytes.HasPrefix(data, []byte(tff.Magic)) {
		return c.Inputs, nil
	}
	return strings.Fields(string(data)), nil
}

// Run merges the inputs: all of one major, at most 50, the first record of
// a duplicate minor kept and each duplicate reported (TRC095), the output
// sorted by minor. The output is written unless a fatal error occurred.
func (c *combineCmd) Run(e *env) error {
	names, err := c.inputs()
	if err != nil {
		return err
	}
	var diags diag.List
	fatal := func(code tsf.Code, file string, args ...any) error {
		diags.Add(code.Diagnostic(ast.Pos{File: file}, 1, args...))
		c.print(e, diags)
		return exitCode(exitError)
	}
	if len(names) == 0 {
		return fatal(tsf.FatalNoTSF, c.Inputs[0])
	}
	if len(names) > tff.MaxCombine {
		return fatal(tsf.FatalCombineMax, c.Inputs[0])
	}
	var files []*tff.File
	for _, name := range names {
		f, err := tff.Open(name)
		if os.IsNotExist(err) {
			return fatal(tsf.FatalNotFound, name, name)
		}
		if err != nil {
			d := tsf.FatalAccess.Diagnostic(ast.Pos{File: name}, 1, name)
			d.Detail = err.Error()
			diags.Add(d)
			c.print(e, diags)
			return exitCode(exitError)
		}
		files = append(files, f)
	}
	out, dups, err := tff.Merge(files)
	if mm, ok := err.(*tff.MajorMismatchError); ok {
		return fatal(tsf.FatalCombineMajor, names[mm.Input], names[mm.Input])
	}
	if err != nil {
		return err
	}
	for _, d := range dups {
		diags.Add(tsf.ErrDupMinorFile.Diagnostic(ast.Pos{File: names[d.Input]}, 1,
			fmt.Sprintf("%04X", d.Minor), names[d.Input]))
	}
	data, err := out.MarshalBinary()
	if err != nil {
		return err
	}
	if err := c.print(e, diags); err != nil {
		return err
	}
	set := e.outs.NewSet()
	set.Add(c.Output, data)
	return set.Commit()
}
