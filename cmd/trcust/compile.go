package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/ast/tsf"
	"github.com/tracekit/tracekit/binfmt/tmi"
	"github.com/tracekit/tracekit/cmd/internal/osfile"
	"github.com/tracekit/tracekit/cmd/internal/outfile"
	"github.com/tracekit/tracekit/grammar/tsfparse"
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
	if os2Ext(name) == "" {
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
	mapMissing := false
	if o.mapFile != "" {
		// IBM's behaviour: a /M= name without an extension is read with
		// ".MAP" added (/M=sub\emitrep reads SUB\EMITREP.MAP), and named
		// as given when that is not found (/M=emx is "Map file not
		// found: EMX" even with a file emx there); another extension is
		// fatal 14.
		name := o.mapFile
		switch ext := os2Ext(name); {
		case ext == "":
			name += ".MAP"
		case !strings.EqualFold(ext, ".MAP"):
			c.code(1, tsf.FatalMapExtension, strings.ToUpper(name))
			return
		}
		if _, _, ok := search(name); ok {
			o.mapFile = name
			c.line("Using map file: %s", display(strings.ToUpper(name)))
		} else {
			// IBM's behaviour: TRCUST 3.05A says so and goes on without
			// a MAP file (a symbolic TP is then severe 39).
			c.line("Map file not found: %s", strings.ToUpper(o.mapFile))
			mapMissing = true
		}
	}
	src, err := os.ReadFile(path)
	if err != nil {
		c.code(1, tsf.FatalAccess, o.files[0])
		return
	}
	// TRCUST opens the module when it reads the first dynamic tracepoint,
	// and resolves and assembles each tracepoint as it reads it: the back
	// end's messages go among the front end's, by line.
	res := tsfcompile.Run(tsfcompile.Request{
		Name: path, Src: src,
		Check:  tsfcheck.Options{AllowDuplicateMinors: o.dups, Wrap16: true, LoadModule: o.loadMod != "", MaxTracepoints: tsfcheck.TRCUSTMaxTracepoints},
		Syntax: tsfparse.TRCUSTStrings | tsfparse.TRCUSTComments,
		Eager:  true,
		Locate: func(m *tsfcheck.Module) (tsfcompile.Sources, diag.List) {
			src := tsfcompile.Sources{ModuleAt: m.ModNamePos, IgnoreCase: o.caseless, KeepPath: o.keepPath, RetEP: o.retep,
				MapLineMax: tsfcompile.MaxMapLine, MapName: display(strings.ToUpper(o.mapFile))}
			if o.loadMod != "" {
				// IBM's behaviour: /L= names the module TRCUST reads
				// instead of MODNAME's (the TDF keeps MODNAME); it opens
				// the name upper-cased, as given, without a search, and
				// names it so.
				src.ModuleName = strings.ToUpper(o.loadMod)
				var ok bool
				if src.ModulePath, ok = findAsGiven(o.loadMod); !ok {
					// IBM's behaviour, session 19: TRCUST reads the MAP
					// file before it opens the /L= module (a line too long
					// is said before "file not found"; fresh seed 1550720).
					var ds diag.List
					if o.mapFile != "" && !mapMissing {
						src.MapPath, _, _ = search(o.mapFile)
						_, mds := tsfcompile.OpenMap(src)
						for _, d := range mds {
							if code, _ := tsf.CodeOf(d); code == tsf.SevereLineTooLong {
								ds = append(ds, d)
							}
						}
					}
					return src, append(ds, tsf.FatalNotFound.Diagnostic(m.ModNamePos, 0, src.ModuleName))
				}
			} else {
				var ok bool
				if src.ModulePath, src.ModuleName, ok = search(m.ModName); !ok {
					// IBM's behaviour: a module TRCUST 3.05A cannot find
					// is named as written, without the ".DLL" it looked
					// for, and no "Using module file" line comes first,
					// with or without a path.
					src.ModulePath, src.ModuleName = "", ""
					return src, diag.List{tsf.FatalNotFound.Diagnostic(m.ModNamePos, 0, m.ModNameText)}
				}
			}
			if o.mapFile != "" && !mapMissing {
				src.MapPath, _, _ = search(o.mapFile)
			}
			return src, nil
		},
	})
	m, diags := res.Module, res.Front
	if res.Back != nil {
		diags = append(diags, res.Back.Compiled...)
	}
	tpAt := tsfcompile.FirstReadTPPos(m.File, res.Front)
	moduleAt := tpAt.Line
	moduleShown := res.Sources.ModuleName
	var moduleErr diag.List
	if !res.Opened {
		moduleErr = res.Located // a MAP file's own messages are not TRCUST's
	}
	moduleDone := moduleAt == 0 || m.ModName == "" && o.loadMod == "" || tsfcompile.StopsBefore(res.Front, tpAt)
	openModule := func() bool {
		moduleDone = true
		if moduleShown != "" {
			c.line("Using module file: %s", moduleShown)
		}
		for _, d := range moduleErr {
			c.report(moduleAt, d)
		}
		if res.Opened {
			// The MAP file is read with the module: a line too long
			// (IBM's behaviour, session 19).
			for _, d := range res.Located {
				if code, _ := tsf.CodeOf(d); code == tsf.SevereLineTooLong {
					c.report(moduleAt, d)
				}
			}
		}
		return len(moduleErr) == 0
	}
	for _, d := range stopAtNoSymbols(byLegacyLine(diags)) {
		// The module is opened as the first dynamic TP field is read:
		// before what TRCUST reports at or after it.
		// A message TRCUST gives at that line for what it read before
		// the TP field (the end of the statement before it) comes first.
		after := tsf.LegacyLine(d) > moduleAt || tsf.LegacyLine(d) == moduleAt && !(d.Pos.File == tpAt.File && d.Pos.Offset < tpAt.Offset)
		if !moduleDone && after && !openModule() {
			return
		}
		if shown(d) {
			c.report(tsf.LegacyLine(d), d)
		}
	}
	if c.worst >= diag.Severe || !moduleDone && !openModule() {
		return
	}
	// The duplicate minor codes, found once all the rest is read (IBM's
	// behaviour: after every other error, before the TFF).
	for _, d := range res.Duplicates {
		if shown(d) {
			c.report(tsf.LegacyLine(d), d)
		}
	}
	// TRCUST writes no TFF without a record (oracle e17; a tracepoint
	// with no DESC and no FMT has none), but the TDF of the dynamic
	// tracepoints all the same.
	given := ""
	if len(o.files) > 1 {
		given = o.files[1]
	}
	tdfName := tdfFileName(o.files[0], given)
	out := outputs{c: c, line: 1}
	if m.File != nil {
		out.line = m.File.EOF.Line
	}
	defer out.commit()
	if t := res.TFF; t != nil {
		// The TFF goes to the TDF's folder, up to its last backslash,
		// whether a TDF is written or not (IBM's behaviour: "a.tsf
		// sub\o.tdf" writes sub\TRC0005.TFF; "a.tsf sub/o.tdf" the TFF
		// in the current folder).
		tffName := os2Dir(tdfName) + tsfcompile.TFFName(m.Major)
		if !out.add(tffName, t.MarshalBinary) {
			return
		}
		c.line("Creating TFF file: %s \t # records = %d", display(tffName), len(t.Records))
	}
	if res.Back == nil {
		if res.TMI != nil {
			// No dynamic tracepoint, @STATIC ones with ORBIT: the .TMI
			// without a TDF, named as beside one (IBM's behaviour: "T.TSF
			// OUT.TDF" writes OUT.TMI).
			out.addTMI(tdfName, res.TMI)
		}
		return
	}
	// TRCUST's lost TDF (tdfgen.Program.TDFLost): no TDF, but its .TMI
	// all the same (IBM's behaviour, fresh seed 970707).
	lost := res.Back.Program.TDFLost()
	if !lost {
		for _, d := range res.Written {
			c.msg(tsf.LegacyLine(d), d.Severity, d.Msg)
		}
	}
	tdfFile := res.TDF
	if tdfFile == nil {
		return
	}
	if !lost {
		if !out.add(tdfName, tdfFile.MarshalBinary) {
			return
		}
		c.line("Creating TDF file: %s\t # records = %d", display(tdfName), len(tdfFile.Tracepoints))
	}
	if res.TMI != nil {
		out.addTMI(tdfName, res.TMI)
	}
}

// outputs are the files a compile writes: all or none. TRCUST 3.05A opens
// each as it comes to it, and when one cannot be opened it says "cannot
// open file" (fatal 3, the name as written, at the TSF's last line) and
// removes those it wrote before (IBM's behaviour, tried with its binary: a
// folder a.TDF leaves no TRC0005.TFF, though "Creating TFF file" was
// said). trcust checks each as it comes to it and writes them together at
// the end.
type outputs struct {
	c     *console
	line  int // the line of the messages: the end of the TSF
	set   outfile.Set
	names map[string]string // the name TRCUST gives each path
	fatal bool
}

// add stages the file name, the bytes marshal makes, and reports whether
// the run goes on.
func (w *outputs) add(name string, marshal func() ([]byte, error)) bool {
	data, err := marshal()
	if err != nil {
		w.c.code(w.line, tsf.FatalWrite, name)
		w.fatal = true
		return false
	}
	path := localPath(name)
	if outfile.Check(path) != nil {
		w.c.code(w.line, tsf.FatalCannotOpen, name)
		w.fatal = true
		return false
	}
	if w.names == nil {
		w.names = map[string]string{}
	}
	w.names[path] = name
	w.set.Add(path, data)
	return true
}

// addTMI stages the .TMI file of the TDF named tdfName: the TDF's name
// with .TMI for its extension (IBM's behaviour).
func (w *outputs) addTMI(tdfName string, f *tmi.File) {
	tmiName := strings.TrimSuffix(tdfName, os2Ext(tdfName)) + ".TMI"
	if w.add(tmiName, f.MarshalBinary) {
		w.c.line("Creating TMI file: %s\t # records = %d", display(tmiName), len(f.Records))
	}
}

// commit writes the files staged, none when one could not be opened; a
// file that fails to be written is fatal 5.
func (w *outputs) commit() {
	if w.fatal {
		return
	}
	if err := w.set.Commit(); err != nil {
		name := ""
		var oe *outfile.Error
		if errors.As(err, &oe) {
			name = w.names[oe.Name]
		}
		w.c.code(w.line, tsf.FatalWrite, name)
	}
}

// findAsGiven finds a file named as on OS/2 (a relative or absolute path
// with \ or /, any case) without a search: the name to open.
func findAsGiven(name string) (string, bool) {
	dir, base := filepath.Split(localPath(name))
	if dir == "" {
		dir = "."
	}
	return osfile.Find(dir, base)
}

// report prints the front end's diagnostic d at line. A NUL in a string
// (37) is printed as the severe message it is in TRCUST's catalogue, but
// TRCUST 3.05A goes on after it as after an error (tsfparse.TRCUSTStrings
// gives it that severity).
func (c *console) report(line int, d diag.Diagnostic) {
	if code, ok := tsf.CodeOf(d); ok && tsf.Messages[code].Severity == diag.Severe && d.Severity < diag.Severe {
		c.worst = max(c.worst, d.Severity)
		if diag.Severe >= c.min {
			c.line("TRCUST(%d) SEVERE: %s", line, d.Msg)
		}
		return
	}
	c.msg(line, d.Severity, d.Msg)
}

// stopAtNoSymbols cuts l (in TRCUST's order) at the first severe 39
// ("symbolic info not given"): TRCUST 3.05A gives it as it reads the first
// symbolic TP without a MAP file and reads nothing after it (IBM's
// behaviour), so a message later on that TP's line is not given either.
func stopAtNoSymbols(l diag.List) diag.List {
	for i, s := range l {
		if code, _ := tsf.CodeOf(s); code != tsf.SevereNoSymbolInfo {
			continue
		}
		var out diag.List
		for _, d := range l[:i] {
			if tsf.LegacyLine(d) < tsf.LegacyLine(s) || d.Pos.Offset < s.Pos.Offset {
				out = append(out, d)
			}
		}
		return append(out, s)
	}
	return l
}
