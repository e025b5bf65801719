package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/ast/tsf"
	"github.com/tracekit/tracekit/cmd/internal/osfile"
	"github.com/tracekit/tracekit/cmd/internal/outfile"
	"github.com/tracekit/tracekit/lower/tdfgen"
	"github.com/tracekit/tracekit/lower/tsfcheck"
	"github.com/tracekit/tracekit/lower/tsfcompile"
)

// compileCmd is "tracekit compile FILE.tsf".
type compileCmd struct {
	diagFlags
	progressFlags
	TFFDir          string   `name:"tff-dir" default:"." placeholder:"DIR" help:"Where to write TRC00xx.TFF."`
	Output          string   `short:"o" name:"output" placeholder:"FILE" help:"The TDF to write (default: the TSF's name with .TDF, as TRCUST does)."`
	Module          string   `name:"module" placeholder:"FILE" help:"The executable module (default: MODNAME, looked for beside the TSF, in the current directory, then along --path)."`
	Map             string   `name:"map" placeholder:"FILE" help:"The module's MAP file (default: the module's name with .MAP, looked for as the module is)."`
	Path            []string `name:"path" sep:":" placeholder:"DIR:DIR" help:"Directories to look for the module and the MAP file in."`
	KeepPath        bool     `name:"keep-path" help:"Keep MODNAME's path in the TDF (TRCUST /P)."`
	IgnoreCase      bool     `name:"ignore-case" help:"Look symbols up in any case (TRCUST /I)."`
	Depfile         string   `name:"depfile" placeholder:"FILE" help:"Also write a make rule naming the outputs and every input read."`
	AllowDuplicates bool     `name:"allow-duplicate-minors" help:"Keep tracepoints whose minor code was used before (TRCUST /D)."`
	File            string   `arg:"" name:"file" help:"The Trace Source File."`
}

// Run compiles the TSF. Nothing is written unless the whole compile
// succeeds: exit status 1 and no output after an error or worse.
func (c *compileCmd) Run(e *env) error {
	src, err := os.ReadFile(c.File)
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: fatal: %v\n", c.File, err)
		return exitCode(exitError)
	}
	bar := c.startProgress(e)
	defer bar.Finish()
	res := tsfcompile.Run(tsfcompile.Request{
		Name: c.File, Src: src,
		Check:  tsfcheck.Options{AllowDuplicateMinors: c.AllowDuplicates},
		Locate: c.locate,
	})
	bar.Add(1)
	set := e.outs.NewSet()
	diags := c.outputs(res, set)
	bar.Finish()
	diags.Sort()
	if err := c.print(e, diags); err != nil {
		return err
	}
	if diags.Failed() {
		return exitCode(exitError)
	}
	return set.Commit()
}

// find looks for name: as given when it has a directory, else beside the
// TSF, in the current directory, then along --path; in any case, as OS/2
// file systems ignore case.
func (c *compileCmd) find(name string) (string, bool) {
	if name == "" {
		return "", false
	}
	name = strings.ReplaceAll(name, `\`, string(filepath.Separator))
	if filepath.Base(name) != name || strings.Contains(name, ":") {
		return osfile.Find(filepath.Dir(name), filepath.Base(name))
	}
	for _, d := range append([]string{filepath.Dir(c.File), "."}, c.Path...) {
		if p, ok := osfile.Find(d, name); ok {
			return p, true
		}
	}
	return "", false
}

// locate finds the module MODNAME names (or --module), beside the TSF, in
// the current directory, then along --path, and its MAP file (--map, or
// the module's name with .MAP looked for the same way; without one the
// module's exported names stand in, warning 211).
func (c *compileCmd) locate(m *tsfcheck.Module) (tsfcompile.Sources, diag.List) {
	src := tsfcompile.Sources{ModuleAt: m.ModNamePos, IgnoreCase: c.IgnoreCase, KeepPath: c.KeepPath, UseExports: true}
	modName := c.Module
	if modName == "" {
		modName = m.ModName
	}
	var ok bool
	if src.ModulePath, ok = c.find(modName); !ok {
		return src, diag.List{tsf.FatalNotFound.Diagnostic(m.ModNamePos, 0, modName)}
	}
	mapName := c.Map
	if mapName == "" {
		mapName = strings.TrimSuffix(modName, filepath.Ext(modName)) + ".MAP"
	}
	if src.MapPath, ok = c.find(mapName); !ok && c.Map != "" {
		return src, diag.List{tsf.FatalNotFound.Diagnostic(ast.Pos{File: c.Map}, 1, c.Map)}
	}
	return src, nil
}

// outputs schedules the files of a compile to write, or returns the
// diagnostics that say why there are none: after an error or worse
// nothing is written.
func (c *compileCmd) outputs(res *tsfcompile.Result, set *outfile.Set) diag.List {
	diags := slices.Concat(res.Front, res.Located)
	if res.Back != nil {
		diags = append(diags, res.Back.Compiled...)
	}
	if diags.Failed() {
		return diags
	}
	if diags = append(diags, res.Written...); diags.Failed() {
		return diags
	}
	m := res.Module
	if res.TFF == nil && res.TDF == nil {
		return append(diags, tsf.WarnNoTracepoints.Diagnostic(m.File.EOF, 0))
	}
	var outputs []string
	if res.TFF != nil {
		// No TFF when no tracepoint has a DESC or FMT (TRCUST 3.05A
		// writes none), but the TDF all the same.
		data, err := res.TFF.MarshalBinary()
		if err != nil {
			d := tsf.FatalWrite.Diagnostic(m.File.EOF, 0, tsfcompile.TFFName(m.Major))
			d.Detail = err.Error()
			return append(diags, d)
		}
		outputs = append(outputs, filepath.Join(c.TFFDir, tsfcompile.TFFName(m.Major)))
		set.Add(outputs[0], data)
	}
	if res.TDF != nil {
		data, err := res.TDF.MarshalBinary()
		if err != nil {
			d := tsf.FatalWrite.Diagnostic(m.File.EOF, 0, c.tdfName())
			d.Detail = err.Error()
			return append(diags, d)
		}
		outputs = append(outputs, c.tdfName())
		set.Add(c.tdfName(), data)
	}
	if c.Depfile != "" {
		set.Add(c.Depfile, depRule(outputs, append([]string{c.File}, res.Inputs()...)))
	}
	return diags
}

// tdfName is the TDF to write: -o, or the TSF's name with .TDF.
func (c *compileCmd) tdfName() string {
	return tdfgen.FileName(c.File, c.Output)
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
