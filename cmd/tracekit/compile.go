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
	OutDir          string   `name:"out-dir" placeholder:"DIR" xor:"tffdir" help:"Where to write every output: TRC00xx.TFF and the TDF (-o still names the TDF)."`
	TFFDir          string   `name:"tff-dir" placeholder:"DIR" xor:"tffdir" help:"Where to write TRC00xx.TFF (default: the current directory)."`
	Output          string   `short:"o" name:"output" placeholder:"FILE" help:"The TDF to write (default: the TSF's name with .TDF, as TRCUST does, in --out-dir when given)."`
	PrintOutputs    bool     `name:"print-outputs" help:"Print the names of the files the compile writes (TFF, TDF, depfile), one a line, and write nothing; the TFF's name comes from MAJOR in the file."`
	Module          string   `name:"module" placeholder:"FILE" completion-predictor:"module" help:"The executable module (default: MODNAME, looked for beside the TSF, in the current directory, then along --path)."`
	Map             string   `name:"map" placeholder:"FILE" completion-predictor:"map" help:"The module's MAP file (default: the module's name with .MAP, looked for as the module is)."`
	Path            []string `name:"path" sep:":" placeholder:"DIR:DIR" help:"Directories to look for the module and the MAP file in."`
	KeepPath        bool     `name:"keep-path" help:"Keep MODNAME's path in the TDF (TRCUST /P)."`
	IgnoreCase      bool     `name:"ignore-case" help:"Look symbols up in any case (TRCUST /I)."`
	Depfile         string   `name:"depfile" placeholder:"FILE" help:"Also write a make rule: the outputs (and FILE) depend on every input read, each input but the TSF a phony target (as gcc -MP)."`
	AllowDuplicates bool     `name:"allow-duplicate-minors" help:"Keep tracepoints whose minor code was used before (TRCUST /D)."`
	File            string   `arg:"" name:"file" completion-predictor:"tsf" help:"The Trace Source File."`
}

// Run compiles the TSF. Nothing is written unless the whole compile
// succeeds: exit status 1 and no output after an error or worse.
func (c *compileCmd) Run(e *env) error {
	compileMemory(e)
	src, err := os.ReadFile(c.File)
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: fatal: %v\n", c.File, err)
		return exitCode(exitError)
	}
	if c.PrintOutputs {
		return c.printOutputs(e, src)
	}
	for flag, dir := range map[string]string{"--out-dir": c.OutDir, "--tff-dir": c.TFFDir} {
		if dir == "" {
			continue
		}
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			fmt.Fprintf(e.stderr, "%s: fatal: %s %s: no such directory\n", c.File, flag, dir)
			return exitCode(exitOutput)
		}
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

// lookedIn says where find looked for name, for a message.
func (c *compileCmd) lookedIn(name string) string {
	name = strings.ReplaceAll(name, `\`, string(filepath.Separator))
	if filepath.Base(name) != name || strings.Contains(name, ":") {
		return "in " + filepath.Dir(name)
	}
	dirs := append([]string{filepath.Dir(c.File), "."}, c.Path...)
	return "in " + strings.Join(slices.Compact(dirs), ", ") + ", ignoring case"
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
		d := tsf.FatalNotFound.Diagnostic(m.ModNamePos, 0, modName)
		d.Detail = "looked " + c.lookedIn(modName) + "; name the module with --module FILE or its directory with --path DIR"
		return src, diag.List{d}
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
	if diags = append(diags, res.Duplicates...); diags.Failed() {
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
		outputs = append(outputs, c.tffName(m.Major))
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
	if res.TMI != nil {
		// The .TMI file TRCUST 3.05A writes for ORBIT tracepoints.
		data, err := res.TMI.MarshalBinary()
		if err != nil {
			d := tsf.FatalWrite.Diagnostic(m.File.EOF, 0, c.tmiName())
			d.Detail = err.Error()
			return append(diags, d)
		}
		outputs = append(outputs, c.tmiName())
		set.Add(c.tmiName(), data)
	}
	if c.Depfile != "" {
		set.Add(c.Depfile, depRule(append(outputs, c.Depfile), c.File, res.Inputs()))
	}
	return diags
}

// printOutputs prints the names of the files a compile of the TSF writes,
// one a line, and writes nothing (--print-outputs): the TFF (named by MAJOR,
// when a tracepoint is defined), the TDF (when one is dynamic) and the
// depfile. The names are printed whenever MAJOR could be read, so that a
// makefile names its targets even while the TSF has errors; the errors are
// printed as check prints them, and the status is then 1, as compile's.
func (c *compileCmd) printOutputs(e *env, src []byte) error {
	m, diags := tsfcompile.Check(c.File, src, tsfcheck.Options{AllowDuplicateMinors: c.AllowDuplicates})
	if m != nil && diags.Worst() < diag.Severe {
		if len(m.Tracepoints) > 0 {
			fmt.Fprintln(e.stdout, c.tffName(m.Major))
		}
		if tsfcompile.Dynamic(m) {
			fmt.Fprintln(e.stdout, c.tdfName())
			if tsfcompile.Orbit(m) {
				fmt.Fprintln(e.stdout, c.tmiName())
			}
		}
		if c.Depfile != "" {
			fmt.Fprintln(e.stdout, c.Depfile)
		}
	}
	if err := c.print(e, diags); err != nil {
		return err
	}
	if diags.Failed() {
		return exitCode(exitError)
	}
	return nil
}

// tffName is the TFF to write: TRC00xx.TFF in --out-dir, --tff-dir or the
// current directory.
func (c *compileCmd) tffName(major uint16) string {
	dir := c.OutDir
	if dir == "" {
		dir = c.TFFDir
	}
	return filepath.Join(dir, tsfcompile.TFFName(major))
}

// tdfName is the TDF to write: -o, or the TSF's name with .TDF (in
// --out-dir when given, else beside the TSF, as TRCUST does).
func (c *compileCmd) tdfName() string {
	name := tdfgen.FileName(c.File, c.Output)
	if c.Output == "" && c.OutDir != "" {
		name = filepath.Join(c.OutDir, filepath.Base(name))
	}
	return name
}

// tmiName is the .TMI file written beside the TDF for ORBIT tracepoints:
// the TDF's name with .TMI, as TRCUST 3.05A names it.
func (c *compileCmd) tmiName() string {
	name := c.tdfName()
	return strings.TrimSuffix(name, filepath.Ext(name)) + ".TMI"
}

// depRule is the depfile's text: one make rule saying that the targets
// depend on the TSF and every other input read, then an empty rule for
// each other input (as gcc -MP writes), so that make does not stop when a
// module or MAP file the last compile read has since been deleted; the
// compile then runs again and finds what is there now.
func depRule(targets []string, tsfName string, inputs []string) []byte {
	var b strings.Builder
	b.WriteString(depNames(targets) + ": " + depNames(append([]string{tsfName}, inputs...)) + "\n")
	for _, in := range inputs {
		b.WriteString("\n" + depNames([]string{in}) + ":\n")
	}
	return []byte(b.String())
}

// depNames escapes names for a make rule and joins them with blanks.
func depNames(names []string) string {
	var out []string
	for _, n := range names {
		n = strings.ReplaceAll(n, "$", "$$")
		n = strings.ReplaceAll(n, " ", `\ `)
		n = strings.ReplaceAll(n, "#", `\#`)
		out = append(out, n)
	}
	return strings.Join(out, " ")
}
