package tsfcompile

import (
	"maps"
	"slices"

	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/ast/tsf"
	"github.com/tracekit/tracekit/binfmt/tdf"
	"github.com/tracekit/tracekit/binfmt/tff"
	"github.com/tracekit/tracekit/binfmt/tmi"
	"github.com/tracekit/tracekit/grammar/mapfile"
	"github.com/tracekit/tracekit/grammar/tsfparse"
	"github.com/tracekit/tracekit/lower/tdfgen"
	"github.com/tracekit/tracekit/lower/tdfgen/lxmap"
	"github.com/tracekit/tracekit/lower/tmigen"
	"github.com/tracekit/tracekit/lower/tsfcheck"
)

// Request is one compile of a TSF: its text and how to find what a dynamic
// tracepoint needs beside it. Both command lines make one and call Run;
// they differ in where they look for the module and in how they print.
type Request struct {
	Name string // the TSF's name in diagnostics
	// Src is the TSF. Run's tree and messages share its memory: it must
	// not be changed after Run is called.
	Src   []byte
	Check tsfcheck.Options
	// Syntax says where the TSF is read as TRCUST 3.05A reads it
	// (tsfparse.Mode); zero for tracekit's reading.
	Syntax tsfparse.Mode
	// Locate finds the module and its MAP file for the checked module m:
	// Sources with ModulePath (and MapPath, "" for none) set, or the
	// diagnostics that say why they cannot be found. Run calls it at most
	// once, and only when the module is needed (see Eager).
	Locate func(m *tsfcheck.Module) (Sources, diag.List)
	// Eager opens the module whenever the TSF names a dynamic tracepoint
	// and no check was fatal or severe, as TRCUST 3.05A does when it reads
	// the first one (its messages then stand among the front end's). Without
	// it the module is opened only when every check passed and a dynamic
	// tracepoint is left: nothing is read that the outputs do not need.
	Eager bool
}

// Result is what a compile found and made, stage by stage. A stage that
// did not run leaves its fields zero.
type Result struct {
	// Module is the checked module. To keep the memory of a large TSF
	// small, Run checks each statement as it is parsed and keeps neither
	// the TRACE statement of a valid @STATIC tracepoint (not in
	// Module.File, Tracepoint.Node nil; Tracepoint.Pos says where it
	// stood) nor its TPField: the Tracepoint holds all its TFF record
	// needs.
	Module *tsfcheck.Module
	Front  diag.List // parse and checks, sorted, ending at the first fatal or severe one

	Sources Sources   // the module and the MAP file found (Locate)
	Located diag.List // why they could not be found or read; the module was not used then
	Opened  bool      // the module was read

	Back *Back // the TDF back end's work; nil when there was none

	// TFF is the trace format file of the tracepoints kept (nil when none
	// is left, TRCUST then writes no TFF); TDF the trace definition file
	// (nil without a dynamic tracepoint left), Written the messages of
	// laying it out (105).
	TFF     *tff.File
	TDF     *tdf.File
	Written diag.List
	// TMI is the .TMI file TRCUST 3.05A writes beside the TDF when
	// tracepoints carry ORBIT (package lower/tmigen), and without a TDF
	// when no tracepoint is dynamic but @STATIC ones carry ORBIT
	// (tmigen.BuildStatic; Back is nil then); nil when none does.
	TMI *tmi.File
	// Duplicates are the errors of the duplicate minor codes, found among
	// the tracepoints kept once the rest is done (tdfgen.DedupeMinors):
	// TRCUST 3.05A gives them after every other error, before the TFF.
	Duplicates diag.List

	mapFile *mapfile.Map // the MAP file read, for the TMI
}

// All returns every diagnostic of the compile, in the order of the stages.
func (r *Result) All() diag.List {
	var all diag.List
	all = append(all, r.Front...)
	all = append(all, r.Located...)
	if r.Back != nil {
		all = append(all, r.Back.Compiled...)
	}
	all = append(all, r.Duplicates...)
	return append(all, r.Written...)
}

// Inputs returns the files the compile read: the module and the MAP file
// when they were read (the TSF is the caller's).
func (r *Result) Inputs() []string {
	var in []string
	if r.Opened {
		in = append(in, r.Sources.ModulePath)
		if r.Sources.MapPath != "" {
			in = append(in, r.Sources.MapPath)
		}
	}
	return in
}

// Run compiles req in TRCUST's order: parse and check the TSF (Check);
// find and open the module and its MAP file (Locate, OpenModule,
// OpenMap); resolve and assemble the dynamic tracepoints (Compile); build
// the TFF of the tracepoints kept (BuildTFF) and lay out the TDF
// (tdfgen.Program.TDF). It stops after a stage whose diagnostics are fatal
// or severe, as TRCUST does; errors only drop their tracepoint.
//
// The TRACE statement that decides whether TRACE statements give MINOR is
// the first one TRCUST reads to its end (Module.ModeTrace); when the back
// end abandons that one before its end (tdfgen.Program.Abandoned), Run
// checks and compiles the TSF again without it (tsfcheck.Options.
// Abandoned), as TRCUST only learns whether it can resolve and assemble a
// statement as it reads it (IBM's behaviour, tried with its binary: after
// a first TRACE with MINOR whose TP is not found, the next TRACE without
// MINOR is taken).
func Run(req Request) *Result {
	src := req.Src
	req.Src = nil
	for {
		r := run(req, src)
		t := r.Module.ModeTrace
		if t == nil || r.Back == nil || !r.Back.Program.Abandoned[t] {
			return r
		}
		abandoned := maps.Clone(req.Check.Abandoned)
		if abandoned == nil {
			abandoned = make(map[int]bool)
		}
		abandoned[t.Pos.Offset] = true
		req.Check.Abandoned = abandoned
	}
}

// run is one pass of Run over the TSF src.
func run(req Request, src []byte) *Result {
	r := &Result{}
	r.Module, r.Front = check(req.Name, src, req.Syntax|tsfparse.ShareSource, req.Check, true)
	m := r.Module
	need := !r.Front.Failed() && Dynamic(m)
	if req.Eager {
		// TRCUST opens the module when it reads the first dynamic TP
		// field, also when a severe error later in the file stops it
		// (IBM's behaviour, from the differential harness: its "Using
		// module file" line comes before that error).
		tp := FirstReadTPPos(m.File, r.Front)
		// Without MODNAME, only a TP=@file,line opens the module /L=
		// names; a TP by symbol is severe 33 first (tsfcheck).
		need = tp.Line > 0 && (m.ModName != "" || req.Check.LoadModule && !slices.ContainsFunc(r.Front, func(d diag.Diagnostic) bool {
			c, _ := tsf.CodeOf(d)
			return c == tsf.SevereNoModName && d.Pos.Offset <= tp.Offset
		})) && !StopsBefore(r.Front, tp)
	}
	kept := m
	if need {
		if !r.back(req) {
			return r
		}
		if r.Back != nil {
			kept = r.Back.Program.KeptModule()
		}
	}
	if r.Front.Worst() >= diag.Severe {
		return r
	}
	if r.Back == nil {
		// No back end found the duplicate minor codes (tdfgen.Compile).
		// A tracepoint with ORBIT that a duplicate minor code drops
		// writes the .TMI all the same (tdfgen.Program.OrbitSeen).
		orbitSeen := tdfgen.StaticOrbitKept(m.Tracepoints)
		r.Duplicates = dedupeMinors(m)
		kept = m
		if orbitSeen {
			// The module name as the TDF header would hold it once the
			// module was opened for a dynamic tracepoint the front end
			// then dropped (IBM's behaviour: none without).
			modName := ""
			if need && r.Sources.ModulePath != "" {
				modName = tdfgen.ModName(m.ModName, r.Sources.KeepPath)
			}
			r.TMI = tmigen.BuildStatic(m.Major, modName, m.TDFID, tdfgen.LoneStaticOrbits(m, m.Tracepoints))
		}
	} else {
		r.Duplicates = r.Back.Program.Duplicates
	}
	r.TFF = BuildTFF(kept)
	if r.Back != nil {
		t, written := r.Back.Program.TDF()
		r.Written = written
		// IBM's behaviour: a TDF is written when a dynamic tracepoint
		// was kept until the duplicate minor codes were dropped, also
		// when none is left ("# records = 0").
		if t != nil && (len(t.Tracepoints) > 0 || r.Back.Program.DynamicDuplicates > 0) {
			r.TDF = t
			if r.mapFile != nil {
				r.TMI = tmigen.Build(t, r.mapFile, tmiAddresses(r.Back.Program, lxmap.NewSymbols(r.mapFile, r.Sources.IgnoreCase)), r.Back.Program.StaticOrbits, r.Back.Program.OrbitSeen())
			}
		}
	}
	return r
}

// tmiAddresses returns, for a tracepoint of the TDF, the address TRCUST
// 3.05A looks up for its .TMI record (IBM's behaviour, tried with its
// binary): the last symbol a MEM, MEM32, ASCIIZ or ASCIIZ32 statement of
// the TRACE names, with the symbol's displacements (not a LEN's, not an
// indirect offset or an (i) term), wherever ORBIT stands; else the
// tracepoint's own address (after RETEP).
func tmiAddresses(p *tdfgen.Program, syms tdfgen.Symbols) func(tdf.Tracepoint) (obj, off uint32) {
	type key struct {
		obj, off uint32
		minor    uint16
	}
	recs := map[key]*tdfgen.Record{}
	for i := range p.Records {
		r := &p.Records[i]
		recs[key{r.Object, r.Offset, r.TP.Minor}] = r
	}
	return func(tp tdf.Tracepoint) (uint32, uint32) {
		obj, off := tp.Object, tp.Offset
		r := recs[key{tp.Object, tp.Offset, tp.Minor}]
		if r == nil || r.TP.Node == nil || syms == nil {
			return obj, off
		}
		for _, f := range r.TP.Node.Fields {
			m, ok := f.(*tsf.Mem)
			if !ok {
				continue
			}
			a, ok := m.Addr.(*tsf.SymbolAddr)
			if !ok || a.Name == nil {
				continue
			}
			o, x, ok := syms.Lookup(a.Name.Text)
			if !ok {
				continue
			}
			for _, d := range a.Disps {
				x += uint32(d.Int())
			}
			obj, off = o, x
		}
		return obj, off
	}
}

// back finds, opens and compiles against the module; false when a fatal or
// severe diagnostic stops the compile.
func (r *Result) back(req Request) bool {
	src, ds := req.Locate(r.Module)
	r.Sources, r.Located = src, ds
	if ds.Worst() >= diag.Error {
		return false
	}
	mod, ds := OpenModule(src)
	if r.Located = append(r.Located, ds...); mod == nil {
		return false
	}
	defer mod.Close()
	var mp *mapfile.Map
	if src.MapPath != "" {
		if mp, ds = OpenMap(src); mp == nil {
			r.Located = append(r.Located, ds...)
			return false
		}
		r.Located = append(r.Located, ds...)
	}
	r.Opened = true
	r.mapFile = mp
	var refused []*tdfgen.Refused
	if req.Eager {
		// TRCUST resolves a TP as it reads the field, also in a statement
		// it then refuses.
		refused = refusedTPs(r.Module, r.Front)
		defer func() {
			early, kept := applyRefused(refused, r.Front, eofOf(r.Module))
			r.Front = tsfcheck.Merge(kept, early)
		}()
	}
	if !Dynamic(r.Module) {
		if len(refused) > 0 {
			compile(r.Module, mod, mp, src, refused)
		}
		return true // TRCUST opens the module for a tracepoint it then drops
	}
	r.Back = compile(r.Module, mod, mp, src, refused)
	if req.Eager {
		r.Front = dropUnread(r.Back.Program.Unread, r.Front, eofOf(r.Module))
		r.Front = dropUncounted(r.Back.Program.Abandoned, r.Back.Compiled, r.Front)
	}
	return r.Back.Compiled.Worst() < diag.Severe
}

// eofOf returns the offset of the end of m's TSF, -1 when there is none.
func eofOf(m *tsfcheck.Module) int {
	if m == nil || m.File == nil {
		return -1
	}
	return m.File.EOF.Offset
}

// dropUncounted returns front without the warnings 140 (MAXDATALENGTH to
// log could be exceeded) that TRCUST 3.05A never gives: those of the data
// statement the back end failed to assemble (an RPN stack overflow, a
// record too long) and of the statements after it in the TRACE. TRCUST
// counts a data statement's bytes once it has assembled it (IBM's
// behaviour: registers that overflow the stack give the overflow alone,
// fresh seed 943427; a memory statement before them that passed the limit
// gives its warning, fresh seed 952621). A data symbol not found is such
// a failure of its whole statement: TRCUST looks the symbol up as it reads
// the statement, before it counts a byte of it (IBM's behaviour:
// "MEM32=(FEAX,I,100), REGS=(.DX)" at MAXDATALENGTH=100 is "symbol not
// found: DX" alone, while "MEM32=(FEBP+8,D,300), MEM=(.nosuch,D,4)" warns
// for the MEM32 before it).
func dropUncounted(abandoned map[*tsf.Trace]bool, back, front diag.List) diag.List {
	if len(abandoned) == 0 {
		return front
	}
	var failed, lookups []diag.Diagnostic
	for _, d := range back {
		switch c, _ := tsf.CodeOf(d); c {
		case tsf.ErrRPNStack, tsf.ErrRPNTooLong:
			failed = append(failed, d)
		case tsf.ErrSymbol:
			lookups = append(lookups, d)
		}
	}
	var out diag.List
	for _, d := range front {
		if c, _ := tsf.CodeOf(d); c == tsf.WarnMaxDataExceeded && uncounted(abandoned, failed, lookups, d) {
			continue
		}
		out = append(out, d)
	}
	return out
}

// uncounted reports whether the warning w stands at or after a data
// statement of its TRACE that failed to assemble (failed), or that holds a
// symbol not found (lookups).
func uncounted(abandoned map[*tsf.Trace]bool, failed, lookups []diag.Diagnostic, w diag.Diagnostic) bool {
	for t := range abandoned {
		if !inStmt(t, w) {
			continue
		}
		for _, f := range lookups {
			if inStmt(t, f) && fieldAt(t, f.Pos.Offset) <= w.Pos.Offset {
				return true
			}
		}
		for _, f := range failed {
			if inStmt(t, f) && f.Pos.Offset <= w.Pos.Offset {
				return true
			}
		}
	}
	return false
}

// fieldAt returns where the field of t that holds offset off starts (off
// itself when none does).
func fieldAt(t *tsf.Trace, off int) int {
	for _, f := range t.Fields {
		if f.Position().Offset <= off && off <= f.Last().Offset {
			return f.Position().Offset
		}
	}
	return off
}

// FirstDynamicTP returns the line of the first TP field that names a code
// address (a symbol or an offset, not @STATIC): where TRCUST opens the
// module, or 0 when there is none. FirstDynamicTPPos gives its position.
func FirstDynamicTP(f *tsf.File) int { return FirstDynamicTPPos(f).Line }

// FirstDynamicTPPos returns the position of the first TP field that names
// a code address, or the zero position when there is none.
func FirstDynamicTPPos(f *tsf.File) tsf.Pos {
	for _, s := range f.Stmts {
		t, ok := s.(*tsf.Trace)
		if !ok {
			continue
		}
		for _, fl := range t.Fields {
			if tp, ok := fl.(*tsf.TP); ok {
				if _, static := tp.Target.(*tsf.StaticTP); !static {
					return tp.Pos
				}
			}
		}
	}
	return tsf.Pos{}
}

// FirstReadTPPos returns the position of the first TP field that names a
// code address and that TRCUST reads: one in a statement with an error
// before it is skipped with the rest of that statement (IBM's behaviour:
// after "MINOR redefinition" TRCUST never opens the module for that TP).
// front holds the parse and check diagnostics.
func FirstReadTPPos(f *tsf.File, front diag.List) tsf.Pos {
	for _, s := range f.Stmts {
		t, ok := s.(*tsf.Trace)
		if !ok {
			continue
		}
		var tp *tsf.TP
		for _, fl := range t.Fields {
			if x, ok := fl.(*tsf.TP); ok {
				if _, static := x.Target.(*tsf.StaticTP); !static {
					tp = x
				}
				break
			}
		}
		if tp == nil {
			continue
		}
		skipped := false
		for _, d := range front {
			if lexical(d) {
				// Printed, but TRCUST 3.05A goes on reading the statement
				// (tsfparse.TRCUSTStrings).
				continue
			}
			if d.Severity >= diag.Error && inStmt(t, d) && tsf.FoundAt(d) < tp.Pos.Offset {
				skipped = true
				break
			}
		}
		if !skipped {
			return tp.Pos
		}
	}
	return tsf.Pos{}
}

// StopsBefore reports whether a fatal or severe diagnostic of l, where
// TRCUST stops, comes before pos (by TRCUST's line, then by place): TRCUST
// then never reads what is at pos.
func StopsBefore(l diag.List, pos tsf.Pos) bool {
	for _, d := range l {
		if d.Severity < diag.Severe {
			continue
		}
		if line := tsf.LegacyLine(d); line < pos.Line || line == pos.Line && d.Pos.Line == pos.Line && d.Pos.Offset < pos.Offset {
			return true
		}
	}
	return false
}
