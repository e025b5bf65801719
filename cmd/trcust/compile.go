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

// compile is "TRCUST tsf [tdf] [/M=mapfile] [/P] [/D] [/I] [/Wn]".
func compile(c *console, o options) {
	if len(o.files) == 0 {
		c.code(1, tsf.FatalNoTSF)
		return
	}
	name := o.files[0]
	if filepath.Ext(name) == "" {
		name += ".TSF"
	}
	path, shownName, ok := search(name)
	if !ok && strings.HasSuffix(name, ".TSF") {
		path, shownName, ok = search(strings.TrimSuffix(name, ".TSF") + ".tsf")
	}
	if !ok {
		c.code(1, tsf.FatalNotFound, o.files[0])
		return
	}
	c.line("\r\nUsing source file: %s", shownName)
	if o.mapFile != "" {
		upper := strings.ToUpper(o.mapFile)
		if !strings.EqualFold(filepath.Ext(o.mapFile), ".MAP") {
			c.code(1, tsf.FatalMapExtension, upper)
			return
		}
		if _, _, ok := search(o.mapFile); !ok {
			c.code(1, tsf.FatalNotFound, o.mapFile)
			return
		}
		c.line("Using map file: %s", display(upper))
	}
	src, err := os.ReadFile(path)
	if err != nil {
		c.code(1, tsf.FatalAccess, o.files[0])
		return
	}
	m, diags := tsfcompile.Check(path, src, tsfcheck.Options{AllowDuplicateMinors: o.dups})

	// TRCUST opens the module when it reads the first dynamic tracepoint:
	// its messages before that line come first.
	moduleAt := 0
	for _, s := range m.File.Stmts {
		if t, ok := s.(*tsf.Trace); ok && moduleAt == 0 {
			for _, f := range t.Fields {
				if tp, ok := f.(*tsf.TP); ok {
					if _, static := tp.Target.(*tsf.StaticTP); !static {
						moduleAt = tp.Pos.Line
					}
				}
			}
		}
	}
	moduleShown := false
	openModule := func() bool {
		moduleShown = true
		if m.ModName == "" {
			return true // the checker has reported message 33
		}
		if _, shownMod, ok := search(m.ModName); ok {
			c.line("Using module file: %s", shownMod)
			return true
		}
		c.code(moduleAt, tsf.FatalNotFound, m.ModName)
		return false
	}
	for _, d := range byLegacyLine(diags) {
		if moduleAt > 0 && !moduleShown && d.Legacy >= moduleAt && !openModule() {
			return
		}
		if shown(d) {
			c.msg(d.Legacy, d.Severity, d.Msg)
		}
	}
	if c.worst >= diag.Severe {
		return
	}
	if moduleAt > 0 && !moduleShown && !openModule() {
		return
	}
	for _, tp := range m.Tracepoints {
		if !tp.Static() {
			fmt.Fprintf(c.err, "trcust: %s: writing the TDF of dynamic tracepoints is not built yet\r\n", o.files[0])
			c.worst = diag.Fatal
			return
		}
	}
	t := tsfcompile.BuildTFF(m)
	if t == nil {
		return // TRCUST writes no TFF without a tracepoint (oracle e17)
	}
	data, err := t.MarshalBinary()
	if err != nil {
		c.code(1, tsf.FatalWrite, tsfcompile.TFFName(m.Major))
		return
	}
	tffName := tsfcompile.TFFName(m.Major)
	var set outfile.Set
	set.Add(tffName, data)
	if err := set.Commit(); err != nil {
		c.code(1, tsf.FatalWrite, tffName)
		return
	}
	c.line("Creating TFF file: %s \t # records = %d", display(tffName), len(t.Records))
}
