package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/ast/tsf"
	"github.com/tracekit/tracekit/cmd/internal/osfile"
	"github.com/tracekit/tracekit/cmd/internal/outfile"
	"github.com/tracekit/tracekit/grammar/mapfile"
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
	m, diags := tsfcompile.Check(c.File, src, tsfcheck.Options{AllowDuplicateMinors: c.AllowDuplicates})
	bar.Add(1)
	bar.Describe("compile: building the TFF and TDF")
	var set outfile.Set
	if !diags.Failed() {
		diags = c.outputs(m, diags, &set)
	}
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

// outputs schedules the files to write, or adds the diagnostics that say
// why they cannot be.
func (c *compileCmd) outputs(m *tsfcheck.Module, diags diag.List, set *outfile.Set) diag.List {
	inputs := []string{c.File}
	var tdfData []byte
	kept := m
	if tsfcompile.Dynamic(m) {
		src := tsfcompile.Sources{ModuleAt: m.ModNamePos, IgnoreCase: c.IgnoreCase, KeepPath: c.KeepPath, UseExports: true}
		modName := c.Module
		if modName == "" {
			modName = m.ModName
		}
		var ok bool
		if src.ModulePath, ok = c.find(modName); !ok {
			return append(diags, tsf.FatalNotFound.Diagnostic(m.ModNamePos, 0, modName))
		}
		mod, ds := tsfcompile.OpenModule(src)
		if diags = append(diags, ds...); mod == nil {
			return diags
		}
		defer mod.Close()
		inputs = append(inputs, src.ModulePath)
		mapName := c.Map
		if mapName == "" {
			mapName = strings.TrimSuffix(modName, filepath.Ext(modName)) + ".MAP"
		}
		var mp *mapfile.Map
		if src.MapPath, ok = c.find(mapName); ok {
			mp, ds = tsfcompile.OpenMap(src)
			if diags = append(diags, ds...); mp == nil {
				return diags
			}
			inputs = append(inputs, src.MapPath)
		} else if c.Map != "" {
			return append(diags, tsf.FatalNotFound.Diagnostic(ast.Pos{File: c.Map}, 1, c.Map))
		}
		back := tsfcompile.Compile(m, mod, mp, src)
		if diags = append(diags, back.Compiled...); diags.Failed() {
			return diags
		}
		t, ds := back.Program.TDF()
		if diags = append(diags, ds...); diags.Failed() {
			return diags
		}
		data, err := t.MarshalBinary()
		if err != nil {
			return append(diags, tsf.FatalWrite.Diagnostic(m.File.EOF, 0, c.tdfName()))
		}
		tdfData, kept = data, back.Program.KeptModule()
	}
	t := tsfcompile.BuildTFF(kept)
	if t == nil {
		return append(diags, tsf.WarnNoTracepoints.Diagnostic(m.File.EOF, 0))
	}
	data, err := t.MarshalBinary()
	if err != nil {
		d := tsf.FatalWrite.Diagnostic(m.File.EOF, 0, tsfcompile.TFFName(m.Major))
		d.Detail = err.Error()
		return append(diags, d)
	}
	outputs := []string{filepath.Join(c.TFFDir, tsfcompile.TFFName(m.Major))}
	set.Add(outputs[0], data)
	if tdfData != nil {
		outputs = append(outputs, c.tdfName())
		set.Add(c.tdfName(), tdfData)
	}
	if c.Depfile != "" {
		set.Add(c.Depfile, depRule(outputs, inputs))
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
