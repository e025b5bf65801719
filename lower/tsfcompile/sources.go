package tsfcompile

import (
	"bytes"
	"errors"
	"fmt"
	"os"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/ast/tsf"
	"github.com/tracekit/tracekit/binfmt/lx"
	"github.com/tracekit/tracekit/binfmt/ne"
	"github.com/tracekit/tracekit/grammar/mapfile"
	"github.com/tracekit/tracekit/lower/tdfgen"
	"github.com/tracekit/tracekit/lower/tdfgen/lxmap"
	"github.com/tracekit/tracekit/lower/tdfgen/nemodule"
	"github.com/tracekit/tracekit/lower/tsfcheck"
	"github.com/tracekit/tracekit/lower/x86ret"
)

// Sources are what a compile of dynamic tracepoints reads beside the TSF:
// the executable module and, for its symbols, the linker's MAP file.
type Sources struct {
	ModulePath string  // the module file, as the front end found it
	ModuleName string  // how messages name it (TRCUST: as DosSearchPath returned it); ModulePath when ""
	ModuleAt   ast.Pos // where the TSF names it (its MODNAME), for messages
	MapPath    string  // "" when there is no MAP file
	// MapLineMax is the longest MAP file line read, 0 for no limit: a
	// longer line ends the file (TRCUST 3.05A: MaxMapLine, severe 43 at
	// the MAP file named MapName, which does not stop the compile). With
	// a limit, a line also ends at a NUL, as a C string does (TRCUST:
	// "0001:0 emit<NUL>junk" is the symbol emit).
	MapLineMax int
	MapName    string
	// IgnoreCase looks symbols up in any case (TRCUST /I).
	IgnoreCase bool
	// KeepPath keeps MODNAME's path in the TDF header (TRCUST /P).
	KeepPath bool
	// UseExports resolves symbols through the module's exported names when
	// there is no MAP file (tracekit compile does; TRCUST 3.05A does not,
	// and says 39, oracle d68).
	UseExports bool
	// RetEP is how RETEP return points are searched (TRCUST /RMn, /RSnnn,
	// /RP); nil for TRCUST's default.
	RetEP *x86ret.Search
}

// Dynamic reports whether the module has a dynamic tracepoint, which needs
// the module and its symbols.
func Dynamic(m *tsfcheck.Module) bool {
	for _, tp := range m.Tracepoints {
		if !tp.Static() {
			return true
		}
	}
	return false
}

// Orbit reports whether a dynamic tracepoint of m has ORBIT, for which
// TRCUST 3.05A writes a .TMI file beside the TDF.
func Orbit(m *tsfcheck.Module) bool {
	for _, tp := range m.Tracepoints {
		if tp.Static() || tp.Node == nil {
			continue
		}
		for _, f := range tp.Node.Fields {
			if _, ok := f.(*tsf.Orbit); ok {
				return true
			}
		}
	}
	return false
}

// ModuleFile is an opened module: an LX module, or a 16-bit NE module,
// which TRCUST 3.05A compiles against too (IBM's behaviour, session 16:
// 2ine's hello16.exe and testargv16.exe give TDFs; nemodule.Module says
// how it reads them). One of LX and NE is set.
type ModuleFile struct {
	LX *lx.File
	NE *ne.File
	ne []byte // the NE module's bytes
}

// Close closes the module.
func (m *ModuleFile) Close() error {
	if m.LX != nil {
		return m.LX.Close()
	}
	return nil
}

// module returns the module's bytes as the back end reads them, with a
// page buffer of its own (lxmap.Module) or the byte read last
// (nemodule.Module).
func (m *ModuleFile) module() tdfgen.Module {
	if m.LX != nil {
		return lxmap.Module{File: m.LX, Buffer: new(lxmap.PageBuffer)}
	}
	return &nemodule.Module{File: m.NE, Data: m.ne}
}

// OpenModule opens the module, LX or NE. A file that cannot be read is
// fatal 2 or 8, one that is neither an LX nor an NE module (a PE or DOS
// program, text) fatal 10; each is one diagnostic at the MODNAME that
// names the module.
func OpenModule(src Sources) (*ModuleFile, diag.List) {
	f, err := lx.Open(src.ModulePath)
	if err == nil {
		return &ModuleFile{LX: f}, nil
	}
	// Not an LX module: read it whole once, for an NE module or for
	// what is wrong.
	var format lx.Format
	data, rerr := os.ReadFile(src.ModulePath)
	if rerr == nil {
		format, _, _ = lx.Identify(bytes.NewReader(data))
		if format == lx.FormatNE {
			if nf, err := ne.NewFile(bytes.NewReader(data)); err == nil {
				return &ModuleFile{NE: nf, ne: data}, nil
			}
		}
	}
	shown := src.ModuleName // as "Using module file" names it
	if shown == "" {
		shown = src.ModulePath
	}
	var fe *lx.FormatError
	var d diag.Diagnostic
	switch {
	case errors.Is(err, os.ErrNotExist):
		d = tsf.FatalNotFound.Diagnostic(src.ModuleAt, 0, src.ModulePath)
	case rerr == nil && format != lx.FormatLX && format != lx.FormatLE && format != lx.FormatNE:
		// No LX, LE or NE signature within the file (IBM's behaviour,
		// session 19: an empty file, text, or an MZ stub whose new header
		// lies past the end of the file is fatal 10, named as in "Using
		// module file"). One cut short after its signature TRCUST 3.05A
		// reads on; tracekit stops with fatal 8.
		d = tsf.FatalExeHeader.Diagnostic(src.ModuleAt, 0, shown)
		d.Detail = err.Error()
	case errors.As(err, &fe) && errors.Is(err, lx.ErrTruncated):
		d = tsf.FatalRead.Diagnostic(src.ModuleAt, 0, src.ModulePath, "EOF")
		d.Detail = fe.Error()
	case errors.As(err, &fe):
		d = tsf.FatalExeHeader.Diagnostic(src.ModuleAt, 0, shown)
		d.Detail = fe.Error()
	default:
		d = tsf.FatalAccess.Diagnostic(src.ModuleAt, 0, src.ModulePath)
		d.Detail = err.Error()
	}
	return nil, diag.List{d}
}

// OpenMap reads the MAP file: its own diagnostics, fatal 2 when it cannot
// be found and 4 when it cannot be read. Any text is a MAP file for TRCUST
// 3.05A, which takes each line of an address and a name for a symbol
// (mapfile.Map.Names) and says nothing else (IBM's behaviour, tried with
// its binary: a file of prose, or a map that lists no public symbol, gives
// "symbol not found" for each TP): a file that is no MAP file of a known
// flavour is read so, with tracekit's warning 220.
func OpenMap(src Sources) (*mapfile.Map, diag.List) {
	at := ast.Pos{File: src.MapPath}
	var (
		m     *mapfile.Map
		diags diag.List
		err   error
		cut   *diag.Diagnostic
	)
	if src.MapLineMax > 0 {
		var data []byte
		if data, err = os.ReadFile(src.MapPath); err == nil {
			if n, line := longLine(data, src.MapLineMax); n >= 0 {
				d := tsf.SevereLineTooLong.Diagnostic(ast.Pos{File: src.MapPath, Offset: n, Line: line, Col: 1}, 1, src.MapName)
				d.Severity = diag.Error // TRCUST goes on without the rest
				d.Detail = fmt.Sprintf("line %d is longer than %d bytes: the MAP file is read up to it", line, src.MapLineMax)
				cut, data = &d, data[:n]
			}
			m, diags, err = mapfile.Parse(src.MapPath, cutAtNUL(data))
		}
	} else {
		m, diags, err = mapfile.ParseFile(src.MapPath)
	}
	if cut != nil {
		diags = append(diags, *cut)
	}
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, append(diags, tsf.FatalNotFound.Diagnostic(at, 1, src.MapPath))
	case errors.Is(err, mapfile.ErrUnknownFormat):
		d := tsf.WarnMapUnknown.Diagnostic(at, 1, src.MapPath)
		return m, append(diags, d)
	case err != nil:
		d := tsf.FatalAccess.Diagnostic(at, 1, src.MapPath)
		d.Detail = err.Error()
		return nil, append(diags, d)
	}
	return m, diags
}

// Back is the back end's result: the tracepoints the module and the MAP
// file accept, and the TDF.
type Back struct {
	Program *tdfgen.Program
	// Compiled holds the messages of resolving and assembling the
	// tracepoints (TRCUST prints them while it reads the TSF); Written
	// those of laying out the TDF (105, printed after the TFF).
	Compiled, Written diag.List
}

// Compile runs the TDF back end over the checked module m with the module
// file and the MAP file (nil when there is none: a symbolic tracepoint is
// then severe 39, unless src.UseExports, which looks symbols up among the
// module's exported names instead, with warning 211).
func Compile(m *tsfcheck.Module, mod *ModuleFile, mp *mapfile.Map, src Sources) *Back {
	return compile(m, mod, mp, src, nil)
}

// compile is Compile, resolving the TP fields of refused among the
// tracepoints (tdfgen.Options.Refused).
func compile(m *tsfcheck.Module, mod *ModuleFile, mp *mapfile.Map, src Sources, refused []*tdfgen.Refused) *Back {
	syms, notes := symbols(mod, mp, src)
	p, diags := tdfgen.Compile(m, syms, mod.module(),
		tdfgen.Options{KeepPath: src.KeepPath, ModulePath: moduleName(src), Refused: refused, RetEP: src.RetEP})
	return &Back{Program: p, Compiled: append(notes, diags...)}
}

// symbols returns where the back end looks symbols up: the MAP file, or
// with src.UseExports the exported names of an LX module (with warning
// 211); nil when neither.
func symbols(mod *ModuleFile, mp *mapfile.Map, src Sources) (tdfgen.Symbols, diag.List) {
	switch {
	case mp != nil:
		return lxmap.NewSymbols(mp, src.IgnoreCase), nil
	case src.UseExports && mod.LX != nil:
		d := tsf.WarnExportsOnly.Diagnostic(src.ModuleAt, 0)
		d.Detail = "looked up among the exported names of " + src.ModulePath
		return lxmap.Exports{File: mod.LX, IgnoreCase: src.IgnoreCase}, diag.List{d}
	}
	return nil, nil
}

func moduleName(src Sources) string {
	if src.ModuleName != "" {
		return src.ModuleName
	}
	return src.ModulePath
}

// refusedTPs returns the TRACE statements of m that the front end refused
// for an error after their TP field (a code address), in source order:
// TRCUST 3.05A resolves a TP as it reads the field, so their TP fields are
// resolved too (tdfgen.Options.Refused). A statement where TRCUST stopped
// before the TP field is not among them.
func refusedTPs(m *tsfcheck.Module, front diag.List) []*tdfgen.Refused {
	accepted := make(map[*tsf.Trace]bool, len(m.Tracepoints))
	for _, tp := range m.Tracepoints {
		accepted[tp.Node] = true
	}
	var out []*tdfgen.Refused
	for _, st := range m.File.Stmts {
		t, ok := st.(*tsf.Trace)
		if !ok || accepted[t] {
			continue
		}
		tpf := dynamicTP(t)
		if tpf == nil {
			continue
		}
		at := tsf.FoundAt
		first := -1
		for i, d := range front {
			if badOffset(tpf, d) {
				// Reported as the offset is read; TRCUST resolves the TP
				// after it all the same (IBM's behaviour: "invalid number
				// found", then "symbol not found").
				continue
			}
			if lexical(d) {
				// TRCUST 3.05A reads on after a NUL in a string: the
				// symbols after it are looked up until the statement's
				// first other error (IBM's behaviour, fresh seed 1323974:
				// REGS=(.EFLAGS) after DESC="\0" is "symbol not found"
				// before the error of an ASCIIZ=(FESI,...) after it).
				continue
			}
			if (inStmt(t, d) || cutByToken(t, d)) && d.Severity >= diag.Error && (first < 0 || at(d) < at(front[first])) {
				first = i
			}
		}
		if first >= 0 {
			if c, _ := tsf.CodeOf(front[first]); c == tsf.SevereRetEPCriteria {
				// "RETEP=": TRCUST read the TP's symbol, wanting the
				// symbolic information (39 without it), and stopped at
				// the '=' before it looked the symbol up (IBM's
				// behaviour: TP=.nosuch,RETEP=5 is that message alone).
				out = append(out, &tdfgen.Refused{Trace: t, TP: tpf, Point: m.Refused[t], Before: at(front[first]), Unlooked: true})
				continue
			}
		}
		before := -1
		switch {
		case first >= 0:
			before = at(front[first])
		case t.PastEnd && len(t.Fields) > 0 && t.Fields[len(t.Fields)-1] == tsf.Field(tpf):
			// TP=.name+ at the end of the file: TRCUST reads past the end
			// for the offset's number (34) and never resolves the TP
			// (IBM's behaviour, fresh seed 850413).
		case t.PastEnd:
			// Refused for reading past the end of the file (34), at the
			// statement's end.
			before = t.End.Offset
		case t.Broken:
			// Cut where the file stopped being read (a token too long,
			// 17): TRCUST read the TP before it (IBM's behaviour, fresh
			// seed 870916: without a MAP file, severe 39 at the TP
			// comes first).
			before = t.End.Offset
		}
		if before < 0 || before <= resolvedAt(tpf) {
			// TRCUST stopped before the TP field, or never at all. A
			// severe error after it (a string broken later in the
			// statement) comes after the TP's messages.
			continue
		}
		rf := &tdfgen.Refused{Trace: t, TP: tpf, Point: m.Refused[t], Before: before}
		if st, ok := tpf.Target.(*tsf.SymbolTP); ok && st.RetEP == nil && first >= 0 && cutByToken(t, front[first]) && t.Fields[len(t.Fields)-1] == tsf.Field(tpf) {
			// The token too long is the one after the TP field's ','
			// (IBM's behaviour, session 16: "TP=.nosuch, FOO...", or
			// TP=.emit-4, is the token too long alone with a MAP file).
			rf.Unlooked = true
		}
		out = append(out, rf)
	}
	return out
}

// cutByToken reports whether d is a token too long (fatal 17) where the
// scan stopped, at the end of t, the statement it stopped in: a word too
// long right after the TP field stops TRCUST after it resolved the TP
// (IBM's behaviour, session 16: "TP=.emit, FOO..." with 300 characters,
// without a MAP file, is severe 39 at the TP alone, as for a string too
// long).
func cutByToken(t *tsf.Trace, d diag.Diagnostic) bool {
	c, _ := tsf.CodeOf(d)
	return c == tsf.FatalTokenTooLong && d.Pos.File == t.Pos.File && d.Pos.Offset == t.End.Offset
}

// lexical reports whether d is a message of TRCUST's lexer that it gives
// as it reads on, also in a statement it skips: a NUL in a string (37,
// printed as severe, an error for what follows; IBM's behaviour, fresh
// seed 870370).
func lexical(d diag.Diagnostic) bool {
	c, _ := tsf.CodeOf(d)
	return c == tsf.SevereNUL
}

// badOffset reports whether d is the "invalid number found" of tpf's
// offset that is no number (tsf.SymbolTP.BadOffset).
func badOffset(tpf *tsf.TP, d diag.Diagnostic) bool {
	st, ok := tpf.Target.(*tsf.SymbolTP)
	if !ok || st.BadOffset == nil {
		return false
	}
	c, _ := tsf.CodeOf(d)
	return c == tsf.ErrInvalidNumber && d.Pos.Offset == st.BadOffset.Pos.Offset
}

// applyRefused returns the messages of resolving the refused statements'
// TP fields, and front without the errors and warnings TRCUST never
// reports: those after the TP field of a statement whose TP cannot be
// resolved, or after the error of a data statement assembled before the
// statement's first error (a statement has one error; IBM's behaviour:
// "TYPE=(V), LEN=(nosuch,D), MEM=(FS:BX,D,LEN)" warns of V, then "symbol
// not found: nosuch", and never judges the MEM's address).
func applyRefused(refused []*tdfgen.Refused, front diag.List, eof int) (early, kept diag.List) {
	kept = front
	for _, rf := range refused {
		early = append(early, rf.Diags...)
		if !rf.Failed {
			continue
		}
		var out diag.List
		for _, d := range kept {
			stop := resolvedAt(rf.TP)
			if rf.DataAt > 0 {
				stop = rf.DataAt
			}
			if inStmtOrEnd(rf.Trace, eof, d) && d.Severity <= diag.Error && tsf.FoundAt(d) > stop && !lexical(d) || pastEnd(rf.Trace, d) {
				continue
			}
			out = append(out, d)
		}
		kept = out
	}
	return early, kept
}

// dropUnread returns front without what it says of the statements of the
// tracepoints refused as their TP field was resolved after that field
// (warning 140 of a later MEM, say): TRCUST 3.05A read no further.
func dropUnread(unread []*tsfcheck.Tracepoint, front diag.List, eof int) diag.List {
	if len(unread) == 0 {
		return front
	}
	var out diag.List
	for _, d := range front {
		drop := false
		for _, tp := range unread {
			if inStmtOrEnd(tp.Node, eof, d) && d.Severity <= diag.Error && d.Pos.Offset > resolvedAt(tp.TPField) && !lexical(d) {
				drop = true
				break
			}
			// Nor does it read past the end of the file.
			if pastEnd(tp.Node, d) {
				drop = true
				break
			}
		}
		if !drop {
			out = append(out, d)
		}
	}
	return out
}

// pastEnd reports whether d is the premature end of file (34) at the end
// of t, the file's last statement: the parser's, for a statement the end
// of the file cuts, or the checker's, for reading past the end for a ','
// after its last TYPE or GROUP (tsf.Trace.PastEnd). TRCUST 3.05A never
// gets there when it stops reading t before (IBM's behaviour: "TP=.nosuch,
// REGS=(EAX" and "MEM=(.nosuch+4" at the end of the file are only "symbol
// not found").
func pastEnd(t *tsf.Trace, d diag.Diagnostic) bool {
	code, _ := tsf.CodeOf(d)
	return code == tsf.SeverePrematureEOF && d.Pos.Offset == t.End.Offset
}

// inStmtOrEnd reports whether d stands in the statement t or, when t is
// the file's last statement, at the end of the file eof (an offset), where
// what the end cuts is reported: TRCUST 3.05A reads no further than a
// statement's TP when it refuses the tracepoint there, and never meets
// that end (IBM's behaviour, session 16: "MEM32=(F" cut by the end after
// a RETEP without a return point is nothing for it, as "MEM32=(FXX," is).
func inStmtOrEnd(t *tsf.Trace, eof int, d diag.Diagnostic) bool {
	return inStmt(t, d) || d.Pos.File == t.Pos.File && d.Pos.Offset == eof && t.End.Offset == eof
}

// inStmt reports whether d stands in the statement t.
func inStmt(t *tsf.Trace, d diag.Diagnostic) bool {
	return d.Pos.File == t.Pos.File && d.Pos.Offset >= t.Pos.Offset && d.Pos.Offset < t.End.Offset
}

// resolvedAt returns the offset at which TRCUST 3.05A resolves the TP
// field tpf: its last token, or an offset that is no number, where it
// stops reading the field before a RETEP after it (IBM's behaviour:
// "symbol not found" for TP=.nosuch+1x, RETEP, and nothing more).
func resolvedAt(tpf *tsf.TP) int {
	if st, ok := tpf.Target.(*tsf.SymbolTP); ok && st.BadOffset != nil {
		return st.BadOffset.Pos.Offset
	}
	return tpf.Last().Offset
}

// dynamicTP returns the first TP field of t, when it names a code address;
// a TP=@file whose line number is missing or invalid too: TRCUST 3.05A
// wants the symbolic information before it reads the line (IBM's
// behaviour: without a MAP file, TP=@emit.c,fmt is severe 39, not "line
// number missing or invalid"; tdfgen.ResolveRefused).
func dynamicTP(t *tsf.Trace) *tsf.TP {
	for _, f := range t.Fields {
		if tp, ok := f.(*tsf.TP); ok {
			if _, static := tp.Target.(*tsf.StaticTP); static {
				return nil
			}
			return tp
		}
	}
	return nil
}

// MaxMapLine is the longest line of a MAP file TRCUST 3.05A reads, its end
// of line not counted (IBM's behaviour, session 19: 258 bytes are read,
// with LF, CR LF or none; 259 are "line too long in input file", and the
// lines from there on are not read: their symbols are not found).
const MaxMapLine = 258

// longLine returns the offset and the number of the first line of data
// longer than max bytes, its LF or CR LF not counted; -1 when there is none.
func longLine(data []byte, max int) (off, line int) {
	for line = 1; len(data[off:]) > 0; line++ {
		rest := data[off:]
		n := bytes.IndexByte(rest, '\n')
		next := n + 1
		if n < 0 {
			n, next = len(rest), len(rest)
		}
		if n > 0 && rest[n-1] == '\r' && n < len(rest) {
			n--
		}
		if n > max {
			return off, line
		}
		off += next
	}
	return -1, 0
}

// cutAtNUL returns data with each line's bytes from a NUL to its end of
// line (LF, or CR LF when the CR is after the NUL) dropped.
func cutAtNUL(data []byte) []byte {
	if bytes.IndexByte(data, 0) < 0 {
		return data
	}
	out := make([]byte, 0, len(data))
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line = data[:i+1]
		}
		data = data[len(line):]
		if z := bytes.IndexByte(line, 0); z >= 0 {
			eol := len(line)
			if bytes.HasSuffix(line, []byte("\n")) {
				eol--
				if eol-1 > z && line[eol-1] == '\r' {
					eol--
				}
			}
			out = append(append(out, line[:z]...), line[eol:]...)
			continue
		}
		out = append(out, line...)
	}
	return out
}
