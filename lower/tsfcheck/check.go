// Package tsfcheck checks a parsed Trace Source File against every rule of
// the TRCUST reference (section 1.3, messages of section 1.6) that needs no
// executable module or MAP file, and produces the checked Module that the
// TFF and TDF writers take as their one input.
//
// Where TRCUST 3.05A (the oracle) and the V2.1 reference disagree, the
// checker follows 3.05A, unless 3.05A's behaviour is a plain bug; every
// such choice is listed in docs/diagnostics.md.
package tsfcheck

import (
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/ast/tsf"
)

// Limits and defaults from the reference and from TRCUST 3.05A.
const (
	DefaultMajor         = 1             // section 1.3.2
	DefaultMaxDataLength = 512           // section 1.3.2
	MinMaxDataLength     = 20            // section 1.3.2
	MaxMaxDataLength     = 4099          // TRCUST 3.05A (the reference says 512)
	MaxTypes             = tsf.MaxTypes  // section 1.3.3
	MaxGroups            = tsf.MaxGroups // section 1.3.4
	MaxNameLength        = 8             // sections 1.3.3 and 1.3.4
	MaxTracepoints       = 65535         // the most a TFF's record count holds
	// TRCUSTMaxTracepoints is the most TRCUST 3.05A keeps: reading the
	// next is fatal 7, "too many tracepoints in file", found at the end
	// of that tracepoint's statement (IBM's behaviour, session 19:
	// 65,502 static tracepoints compile, 65,503 are fatal at the line
	// after the last; refused statements do not count).
	TRCUSTMaxTracepoints = 65502
	MaxFmtBytes          = 4096 // message 99
)

// Options change what the checker accepts.
type Options struct {
	// AllowDuplicateMinors keeps tracepoints whose minor code was used
	// before, as TRCUST's undocumented /D switch does.
	AllowDuplicateMinors bool
	// Wrap16 keeps the low 16 bits of a MINOR, MAJOR, MAXDATALENGTH or
	// TDFID above 0xFFFF (and below 2^32) before its range check, as TRCUST
	// 3.05A does without a word (oracle x_h11: MINOR=70000 is minor
	// 0x1170; MAJOR=0x1FFFF writes TRCFFFF.TFF), instead of the range
	// errors of the reference (docs/compatibility.md).
	Wrap16 bool
	// Abandoned holds the offsets of TRACE statements that TRCUST
	// abandons at an error its back end finds before their end (a TP
	// symbol not found, an RPN stack overflow): such a statement does
	// not decide whether TRACE statements give MINOR (Module.ModeTrace).
	// The compile pipeline fills it in when the back end abandons the
	// statement that decided, and checks again.
	Abandoned map[int]bool
	// LoadModule says that the command line names the module to read
	// (TRCUST's /L=): without MODNAME, a TP=@file,line opens that one
	// instead of failing on the empty name (IBM's behaviour), and a TP
	// by symbol is still severe 33.
	LoadModule bool
	// MaxTracepoints is the most tracepoints kept; more is fatal 7 at
	// the end of the first statement over (0: MaxTracepoints).
	MaxTracepoints int
}

// Module is a checked TSF: the header values with defaults applied, the
// valid type and group list entries, and the valid tracepoints in source
// order.
type Module struct {
	File *tsf.File
	// ModName is the module name as written, with ".DLL" appended when it
	// has no extension and is not OS2KRNL (section 1.3.2); "" when the TSF
	// has no MODNAME.
	ModName    string
	ModNamePos ast.Pos
	// ModNameText is the module name exactly as written (what TRCUST
	// names when it cannot find the module).
	ModNameText   string
	Major         uint16
	MaxDataLength uint16
	TDFID         uint16
	Types         []ListItem
	Groups        []ListItem
	// ListOrder holds, for each entry of Types and Groups in the order
	// they were read, true for a TYPELIST entry: a GROUPLIST before the
	// TYPELIST puts its entries first, and a second TYPELIST after a
	// GROUPLIST adds its entries after the GROUPLIST's (IBM's behaviour:
	// TRCUST 3.05A writes the list table in this order).
	ListOrder []bool
	// AutoMinors: the TRACE statements have no MINOR and are numbered
	// 1, 2, ... in the order of the tracepoints kept.
	AutoMinors bool
	// ModeTrace is the TRACE statement that decided whether TRACE
	// statements give MINOR: the first one read to its end, nil when
	// there is none.
	ModeTrace *tsf.Trace
	// DuplicateMinorsAllowed is Options.AllowDuplicateMinors: tracepoints
	// with one minor code are all kept (tdfgen.DedupeMinors finds them
	// otherwise, once the whole TSF is read, as TRCUST does).
	DuplicateMinorsAllowed bool
	Tracepoints            []*Tracepoint
	// Refused holds, for each dynamic TRACE statement refused for an
	// error (the checker's or the parser's), what the checker had made of
	// it when it stopped: its TP and the data statements checked before
	// the error. TRCUST 3.05A resolves the TP and assembles each data
	// statement as it reads it, so the back end can give what TRCUST
	// gives before the statement's error (tsfcompile).
	Refused map[*tsf.Trace]*Tracepoint
	// Superseded are the positions of the parser's diagnostics that a
	// checker error in the same TRACE statement, earlier in it, replaces
	// (TRCUST reports the first error of a statement); DropSuperseded
	// takes them out.
	Superseded []ast.Pos
	// Orbits are the ORBIT fields TRCUST 3.05A takes as it reads the TSF,
	// in source order: those of every TRACE statement, kept or refused,
	// that come before the statement's first error, with a value it takes
	// (not 102, not a second ORBIT), @STATIC tracepoints included. An
	// ORBIT=(0,1) asks for the next bit of the TDF's ORBIT table and an
	// ORBIT=(0,0) after one for the same bit again (IBM's behaviour); the
	// back end numbers them (tdfgen), as it alone knows which statements
	// TRCUST stopped reading at their TP.
	Orbits []OrbitField
}

// OrbitField is an ORBIT field TRCUST takes, and its TRACE statement.
type OrbitField struct {
	Orbit *tsf.Orbit
	Trace *tsf.Trace
}

// NewBit reports whether o is ORBIT=(0,1), which asks for a new bit.
func NewBit(o *tsf.Orbit) bool { return o.A.Value == 0 && o.B != nil && o.B.Value == 1 }

// SameBit reports whether o is ORBIT=(0,0), which takes the bit the last
// ORBIT=(0,1) was given.
func SameBit(o *tsf.Orbit) bool { return o.A.Value == 0 && o.B != nil && o.B.Value == 0 }

// DropSuperseded returns parsed without the errors at m.Superseded, and
// without a premature end of the file (34) there: an error before it in
// the statement made TRCUST 3.05A skip to the next TRACE, which at the end
// of the file is no error (IBM's behaviour: "MINOR=2, MINOR=3, TP=" at
// the end is only "MINOR redefinition").
func DropSuperseded(parsed diag.List, m *Module) diag.List {
	if len(m.Superseded) == 0 {
		return parsed
	}
	out := parsed[:0:0]
	for _, d := range parsed {
		code, _ := tsf.CodeOf(d)
		if (d.Severity == diag.Error || code == tsf.SeverePrematureEOF) && slices.Contains(m.Superseded, d.Pos) {
			continue
		}
		out = append(out, d)
	}
	return out
}

// ListItem is a valid TYPELIST or GROUPLIST entry.
type ListItem struct {
	Pos  ast.Pos
	Name string // at most MaxNameLength bytes, as written
	ID   uint16
}

// Tracepoint is a valid TRACE statement.
type Tracepoint struct {
	// Node is the TRACE statement; nil once lower/tsfcompile has dropped
	// it (a valid @STATIC tracepoint holds all its TFF record needs).
	Node *tsf.Trace
	// Pos is where the TRACE statement starts (Node.Pos), also once Node
	// is dropped.
	Pos ast.Pos
	// MinorPos is where the MINOR value stands (the zero Pos when the
	// TRACE statements give none): a duplicate minor code is reported
	// there, also once the statement's fields are dropped.
	MinorPos ast.Pos
	// Target is *tsf.SymbolTP or *tsf.LineTP for a dynamic tracepoint, nil
	// for @STATIC.
	Target    tsf.TPTarget
	TPField   *tsf.TP
	Opcode    *uint8 // the expected opcode, when OPCODE is given
	Minor     uint16
	TypeMask  uint16 // OR of the TYPE ids
	Group     uint16
	Desc      string // as TRCUST stores it (see tsf.String)
	Fmts      []string
	Data      []Data // the statements that produce RPN code, in source order
	DataBytes int    // the most data one hit can log, prefixes included
	// Late is an error TRCUST 3.05A gives only after the back end's
	// checks of the statement (103 or 104 for ABORTOP, REMOVEOP, REGS,
	// MEM, LEN or ORBIT after ABORTOP or REMOVEOP): the back end reports
	// it, and drops the tracepoint, when it found no error of its own
	// (IBM's behaviour: an opcode mismatch or an RPN stack overflow is
	// given instead). Nil when there is none.
	Late *diag.Diagnostic
	// Orbit is the tracepoint's ORBIT field, nil when it has none; a
	// dynamic tracepoint has it among its Data too. A @STATIC tracepoint
	// may have one (IBM's behaviour: TRCUST 3.05A takes it and writes it
	// in the TMI file).
	Orbit *tsf.Orbit
}

// Static reports whether the tracepoint is TP=@STATIC.
func (t *Tracepoint) Static() bool { return t.Target == nil }

// Data is one statement of a tracepoint that becomes RPN code: *tsf.Len,
// *tsf.Regs, *tsf.Mem, *tsf.Orbit or *tsf.OpFlag.
type Data struct {
	Field tsf.Field
	// Length is the number of bytes a *tsf.Mem with a numeric length logs:
	// its low 16 bits, as TRCUST stores it.
	Length uint16
}

// Check checks f and returns the module and the diagnostics in the order
// found. Fatal and severe diagnostics stop the check, as they stop TRCUST.
func Check(f *tsf.File, opt Options) (*Module, diag.List) {
	c := NewChecker(opt)
	for _, s := range f.Stmts {
		c.Stmt(s)
	}
	return c.Finish(f)
}

// A Checker checks a TSF one statement at a time, as the parser hands them
// out (tsfparse.ParseEach): Check is NewChecker, Stmt for every statement
// of the file in source order, then Finish.
type Checker struct{ c *checker }

// NewChecker returns a Checker with nothing seen yet.
func NewChecker(opt Options) *Checker {
	return &Checker{&checker{opt: opt, m: &Module{Major: DefaultMajor, MaxDataLength: DefaultMaxDataLength, DuplicateMinorsAllowed: opt.AllowDuplicateMinors},
		names: map[string]bool{}, typeIDs: map[uint16]bool{}, groupIDs: map[uint16]bool{}}}
}

// Stmt checks the next statement of the file. It returns the tracepoint
// the statement makes, nil when it makes none (it is no TRACE, or not a
// valid one). Once a fatal or severe diagnostic was reported, it checks
// nothing more.
func (k *Checker) Stmt(s tsf.Stmt) *Tracepoint {
	c := k.c
	if c.stopped() {
		return nil
	}
	switch s := s.(type) {
	case *tsf.ModName:
		c.modName(s)
	case *tsf.Major:
		c.major(s)
	case *tsf.MaxDataLength:
		c.maxDataLength(s)
	case *tsf.TDFID:
		c.tdfid(s)
	case *tsf.TypeList:
		c.list(s.Pos, s.Entries, true)
	case *tsf.GroupList:
		c.list(s.Pos, s.Entries, false)
	case *tsf.Trace:
		n := len(c.m.Tracepoints)
		c.trace(s)
		if len(c.m.Tracepoints) > n {
			return c.m.Tracepoints[n]
		}
	}
	return nil
}

// Finish makes the checks that need the whole file f, whose statements
// were given to Stmt, and returns the module and the diagnostics in the
// order found.
func (k *Checker) Finish(f *tsf.File) (*Module, diag.List) {
	c := k.c
	c.m.File = f
	c.m.AutoMinors = c.firstTrace != nil && !c.minorMode
	return c.m, c.diags
}

// Merge joins the parser's and the checker's diagnostics, sorted by
// position, and drops everything after the first fatal or severe one:
// TRCUST stops there, so what follows is not reliable.
func Merge(lists ...diag.List) diag.List {
	var all diag.List
	for _, l := range lists {
		all = append(all, l...)
	}
	all.Sort()
	for i, d := range all {
		if d.Severity >= diag.Severe {
			j := i + 1
			for j < len(all) && all[j].Pos.File == d.Pos.File && all[j].Pos.Offset == d.Pos.Offset {
				j++
			}
			return all[:j]
		}
	}
	return all
}

type checker struct {
	opt   Options
	m     *Module
	diags diag.List

	seenModName, seenMajor, seenMaxData, seenTDFID bool
	seenTypes, seenGroups                          bool
	names                                          map[string]bool // type and group names, upper case
	typeIDs, groupIDs                              map[uint16]bool

	traces      int  // TRACE statements seen, for automatic minor codes
	minorMode   bool // the first TRACE gave a MINOR
	firstTrace  *tsf.Trace
	warnedNoMod bool
	newBits     int // ORBIT=(0,1) fields taken

	// Storage reused from TRACE to TRACE, or handed out a chunk at a time
	// (see newTracepoint), so that a large TSF is checked with few
	// allocations.
	ts          traceState
	tracepoints []Tracepoint // where newTracepoint takes the next from
	strs        []string     // where the FMT lines of tracepoints are cut from
	fmtOut      []byte       // scratch for an FMT as stored

	worst   diag.Severity // the worst severity of diags[:scanned]
	scanned int
}

func (c *checker) report(d diag.Diagnostic) { c.diags.Add(d) }

// tracepointChunk and stringChunk are how many tracepoints and FMT lines
// newTracepoint and newStrings allocate at a time: as many tracepoints as
// fill 16 KiB, one of the allocator's size classes, so that a chunk wastes
// little of its block (64 of 224 bytes would take a block of 16 KiB for
// 14 KiB).
const (
	tracepointChunk = 16 << 10 / int(unsafe.Sizeof(Tracepoint{}))
	stringChunk     = 256
)

// newTracepoint returns a new Tracepoint. Tracepoints are allocated a chunk
// at a time: most are kept in the module.
func (c *checker) newTracepoint() *Tracepoint {
	if len(c.tracepoints) == 0 {
		c.tracepoints = make([]Tracepoint, tracepointChunk)
	}
	tp := &c.tracepoints[0]
	c.tracepoints = c.tracepoints[1:]
	return tp
}

// newStrings returns an empty slice of strings with room for n, cut from a
// chunk when n is small (its capacity is n: an append past it
// reallocates).
func (c *checker) newStrings(n int) []string {
	if n == 0 {
		return nil
	}
	if n > stringChunk/8 {
		return make([]string, 0, n)
	}
	if len(c.strs) < n {
		c.strs = make([]string, stringChunk)
	}
	s := c.strs[:0:n]
	c.strs = c.strs[n:]
	return s
}

// stopped reports whether a severe diagnostic or worse was reported. It
// looks only at the diagnostics added since it last looked (and the last
// one, which at may have handed out), so a file with a diagnostic a
// tracepoint is checked in linear time.
func (c *checker) stopped() bool {
	for i := max(0, c.scanned-1); i < len(c.diags); i++ {
		c.worst = max(c.worst, c.diags[i].Severity)
	}
	c.scanned = len(c.diags)
	return c.worst >= diag.Severe
}

// maxTracepoints is the most tracepoints kept (Options.MaxTracepoints).
func (c *checker) maxTracepoints() int {
	if c.opt.MaxTracepoints > 0 {
		return c.opt.MaxTracepoints
	}
	return MaxTracepoints
}

// at reports code at n, attributed (for TRCUST's line numbers) to the line
// of legacy.
func (c *checker) at(code tsf.Code, n tsf.Node, legacy ast.Pos, args ...any) *diag.Diagnostic {
	c.report(code.Diagnostic(n.Position(), legacy.Line, args...))
	return &c.diags[len(c.diags)-1]
}

// modName records MODNAME and applies the default extension. A second
// MODNAME replaces the first: IBM's behaviour (TRCUST 3.05A uses the last
// one without a word, whatever the names); tracekit warns (202).
func (c *checker) modName(s *tsf.ModName) {
	if c.seenModName {
		d := c.at(tsf.WarnModNameRedef, s, s.Path.Pos)
		d.Detail = fmt.Sprintf("the first at line %d is not used", c.m.ModNamePos.Line)
	}
	c.seenModName = true
	name := s.Path.Text
	base := tsf.ModuleFile(name)
	if !strings.Contains(base, ".") && !strings.EqualFold(base, "OS2KRNL") {
		name += ".DLL" // upper case, as TRCUST 3.05A writes it (oracle d45)
	}
	c.m.ModName, c.m.ModNamePos, c.m.ModNameText = name, s.Path.Pos, s.Path.Text
}

func (c *checker) major(s *tsf.Major) {
	// A redefinition is reported on the keyword's line (IBM's
	// behaviour, tried with its binary: "MAJOR\n=5" and "MAJOR=\n5" are
	// at the line of MAJOR): TRCUST 3.05A checks right after the keyword;
	// so are MAXDATALENGTH's and TDFID's.
	if c.seenMajor {
		c.at(tsf.SevereMajorRedef, s, s.Pos)
		return
	}
	if s.Cut {
		return // the value was never read (tsf.Major.Cut)
	}
	c.seenMajor = true
	switch v := c.wrap(s.Value.Value); {
	case v == 0:
		c.at(tsf.WarnMajorRange, s.Value, s.Value.Pos)
	case v > 0xFFFF:
		// TRCUST 3.05A accepts majors above 255 (oracle e08b, e08c) but would
		// keep only the low 16 bits of a larger one.
		d := c.at(tsf.WarnMajorRange, s.Value, s.Value.Pos)
		d.Detail = "a major code is at most 0xFFFF"
	default:
		c.m.Major = uint16(v)
	}
}

func (c *checker) maxDataLength(s *tsf.MaxDataLength) {
	if c.seenMaxData {
		c.at(tsf.SevereMaxDataRedef, s, s.Pos)
		return
	}
	if s.Cut {
		return // the value was never read (tsf.Major.Cut)
	}
	c.seenMaxData = true
	if v := c.wrap(s.Value.Value); v < MinMaxDataLength || v > MaxMaxDataLength {
		d := c.at(tsf.WarnMaxDataRange, s.Value, s.Value.Pos)
		d.Detail = fmt.Sprintf("the range is %d to %d", MinMaxDataLength, MaxMaxDataLength)
		return
	}
	c.m.MaxDataLength = uint16(c.wrap(s.Value.Value))
}

func (c *checker) tdfid(s *tsf.TDFID) {
	if c.seenTDFID {
		c.at(tsf.SevereTDFIDRedef, s, s.Pos)
		return
	}
	if s.Cut {
		return // the value was never read (tsf.Major.Cut)
	}
	c.seenTDFID = true
	// TDFID=0 is out of range too (IBM's behaviour: "TDFID out of range, 0
	// used" for TDFID=0 and 0x0); the reference gives no range.
	if v := c.wrap(s.Value.Value); v == 0 || v > 0xFFFF {
		c.at(tsf.WarnTDFIDRange, s.Value, s.Value.Pos)
		return
	}
	c.m.TDFID = uint16(s.Value.Value)
}

// wrap returns v, or with Options.Wrap16 its low 16 bits.
func (c *checker) wrap(v uint64) uint64 {
	if c.opt.Wrap16 {
		return v & 0xFFFF
	}
	return v
}

// list checks a TYPELIST (types) or GROUPLIST.
func (c *checker) list(pos ast.Pos, entries []*tsf.ListEntry, types bool) {
	kw, seen, ids, max := "GROUPLIST", &c.seenGroups, c.groupIDs, MaxGroups
	// what is the argument of message 134: 3.05A prints "too many
	// typenames" (oracle x_h06); "groupnames" is its twin for GROUPLIST.
	redef, idRedef, what := tsf.ErrGroupListRedef, tsf.ErrGroupIDRedef, "groupnames"
	if types {
		kw, seen, ids, max = "TYPELIST", &c.seenTypes, c.typeIDs, MaxTypes
		redef, idRedef, what = tsf.ErrTypeListRedef, tsf.ErrTypeIDRedef, "typenames"
	}
	var items []ListItem
	if *seen {
		// IBM's behaviour: TRCUST 3.05A says so and reads the entries
		// all the same, into the same list (a used ID is 87, a new name
		// is taken).
		n := &tsf.Word{Pos: pos, Text: kw}
		c.at(redef, n, pos)
		items = c.m.Groups
		if types {
			items = c.m.Types
		}
	}
	*seen = true
	for i, e := range entries {
		if i == max {
			// IBM's behaviour: TRCUST 3.05A counts the entries of the
			// statement, refused ones too (a 17th type after a redefined
			// ID is too many), before it reads the entry's name or ID;
			// a second TYPELIST counts its own (1 entry, then 16 more
			// in a second TYPELIST are all taken, 17 types; fresh seed
			// 881229).
			// At the line of the entry's NAME (IBM's behaviour: "NAME"
			// then the name on the next line is the warning at NAME's
			// line; fresh seeds 1200180, 1203871).
			c.at(tsf.WarnTooMany, e, e.Pos, what)
			break
		}
		name := e.Name.Text
		if len(name) > MaxNameLength {
			c.at(tsf.WarnNameTooLong, e.Name, e.Name.Pos, name)
			name = name[:MaxNameLength]
		}
		if e.ID == nil {
			// Broken after its name (IBM's behaviour: "NAME=LONGGROUPNAME
			// ID=3" warns of the name before the missing ','): nothing
			// is defined.
			continue
		}
		// In a TYPELIST the ID is checked first, then the name; in a
		// GROUPLIST the name first; then whether the ID is taken (IBM's
		// behaviour, tried with its binary: a type name given before with
		// ID=3 is "invalid ID: 3", a group name given before with ID=0
		// "group/type redefinition"). With Wrap16 an ID above 0xFFFF
		// keeps its low 16 bits: 0x10002 after ID=2 is "typeid
		// redefinition: 0x10002".
		id := c.wrap(e.ID.Value)
		key := strings.ToUpper(name)
		if !types && c.names[key] {
			c.at(tsf.ErrNameRedef, e.ID, e.ID.Pos, name)
			continue
		}
		valid := id >= 1 && id <= 0xFFFF
		if types {
			valid = id != 0 && id <= 0x8000 && id&(id-1) == 0
		}
		if !valid {
			d := c.at(tsf.ErrID, e.ID, e.ID.Pos, e.ID.Text)
			if types {
				d.Detail = "a type ID is a power of two from 1 to 0x8000"
			} else {
				d.Detail = "a group ID is 1 to 65535"
			}
			continue
		}
		if c.names[key] {
			c.at(tsf.ErrNameRedef, e.ID, e.ID.Pos, name)
			continue
		}
		if ids[uint16(id)] {
			c.at(idRedef, e.ID, e.ID.Pos, e.ID.Text)
			continue
		}
		c.names[key] = true
		ids[uint16(id)] = true
		items = append(items, ListItem{Pos: e.Pos, Name: name, ID: uint16(id)})
		c.m.ListOrder = append(c.m.ListOrder, types)
	}
	if types {
		c.m.Types = items
	} else {
		c.m.Groups = items
	}
}

// lookup finds a type or group name; names compare in any case. The list
// keeps the first 8 characters of a longer name (e22: TYPE=(VERYLONG) finds
// VERYLONGNAME), and a longer name in TYPE or GROUP finds nothing (IBM's
// behaviour: TYPE=(VERYLONGNAME) is "typename unknown").
func lookup(items []ListItem, name string) (uint16, bool) {
	for _, it := range items {
		if strings.EqualFold(it.Name, name) {
			return it.ID, true
		}
	}
	return 0, false
}
