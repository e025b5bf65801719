package tsfcheck

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/ast/tsf"
	"github.com/tracekit/tracekit/binfmt/dyndata"
	"github.com/tracekit/tracekit/binfmt/tff"
)

// fmtLetters are the FMT control letters (binfmt/tff.ControlLetters):
// 3.05A stores %C too (oracle x_b01).
const fmtLetters = "BWDFQARSUXYPC"

// fmtLetter holds, for every byte, whether it is one of fmtLetters.
var fmtLetter = func() (t [256]bool) {
	for i := range len(fmtLetters) {
		t[fmtLetters[i]] = true
	}
	return t
}()

// RegisterBytes returns how many bytes REGS logs for a register name: 4
// for the E registers, 2 for the others (section 1.3.5.10), 4 for a C
// register variable.
func RegisterBytes(item *tsf.RegItem) int {
	if wide, _ := tsf.Register(item.Name); item.Variable || wide {
		return 4
	}
	return 2
}

// traceState is what the checker learns about one TRACE statement.
type traceState struct {
	t        *tsf.Trace
	tp       *Tracepoint
	errors   bool // an error discards the tracepoint
	minor    *tsf.Minor
	desc     *tsf.Desc
	fmts     []*tsf.Fmt
	seen     []string // the keywords given, in seenBuf while they fit
	seenBuf  [16]string
	abortOp  bool
	removeOp bool
	extra    []tsf.Field // fields a @STATIC tracepoint ignores
	mems     int
	counted  int // what TRCUST 3.05A counts against MAXDATALENGTH (see data)
}

func (c *checker) trace(t *tsf.Trace) {
	c.traces++
	// Whether TRACE statements give MINOR is decided by the first one
	// read to its end (endOfTrace): IBM's behaviour, tried with its
	// binary: after a first TRACE abandoned at an error (a bad address, a
	// MINOR that is not a number, a syntax error, a symbol not found),
	// with or without MINOR, the next one decides, and until then MINOR is
	// neither required nor refused.
	// A TRACE without MINOR is numbered after the tracepoints kept so
	// far: IBM's behaviour (TRCUST 3.05A gives 1 to the TRACE after a
	// first one it refused), where the reference says "for each
	// tracepoint definition it encounters".
	tp := c.newTracepoint()
	tp.Node, tp.Pos, tp.Minor = t, t.Pos, uint16(len(c.m.Tracepoints)+1)
	fmts := 0
	for _, f := range t.Fields {
		if _, ok := f.(*tsf.Fmt); ok {
			fmts++
		}
	}
	tp.Fmts = c.newStrings(fmts)
	// The state of the last TRACE is cleared for this one, keeping the
	// storage of its lists.
	s := &c.ts
	*s = traceState{t: t, tp: tp, fmts: s.fmts[:0], extra: s.extra[:0]}
	defer func() {
		if (s.errors || t.Broken) && s.tp.TPField != nil && !s.tp.Static() {
			if c.m.Refused == nil {
				c.m.Refused = make(map[*tsf.Trace]*Tracepoint)
			}
			c.m.Refused[t] = s.tp
		}
	}()
	s.seen = s.seenBuf[:0]
	if t.Broken {
		// The parser stopped at a syntax error. The fields before it are
		// checked all the same: IBM's behaviour is to report the first
		// error of the statement in source order, so an error in them
		// replaces the parser's (Module.Superseded), and the tracepoint
		// is dropped either way.
		for i, f := range t.Fields {
			c.field(s, i, f)
			if c.stopped() || s.errors {
				break
			}
		}
		if s.errors {
			c.m.Superseded = append(c.m.Superseded, t.BrokenAt)
		}
		return
	}
	for i, f := range t.Fields {
		c.field(s, i, f)
		if c.stopped() {
			return
		}
		if s.errors {
			// IBM's behaviour: after an error TRCUST 3.05A skips the rest
			// of the TRACE statement; it reports one error a tracepoint,
			// and nothing else of it (two refused MEM statements in one
			// TRACE give one message).
			return
		}
	}
	if t.PastEnd {
		// IBM's behaviour: the file ends where TRCUST 3.05A reads on for
		// another token (a ',' after a last TYPE or GROUP, a field after
		// the keyword TRACE, the value after "MINOR=") and no error came
		// before it in the statement: severe 34, at the end's line.
		d := tsf.SeverePrematureEOF.Diagnostic(t.End, t.End.Line)
		d.Detail = "the file ends where TRCUST 3.05A reads on for another token"
		c.report(d)
		s.errors = true // refused: Module.Refused keeps what was checked
		return
	}
	c.endOfTrace(s)
}

// err reports an error, which discards the tracepoint.
//
// Only the first error of a TRACE statement is reported, as TRCUST 3.05A
// reports it (IBM's behaviour); a later one returns a diagnostic that goes
// nowhere.
func (c *checker) err(s *traceState, code tsf.Code, n tsf.Node, legacy ast.Pos, args ...any) *diag.Diagnostic {
	if s.errors {
		return &diag.Diagnostic{}
	}
	s.errors = true
	return c.at(code, n, legacy, args...)
}

// incomplete reports "trace record incomplete, 'what' required" at n, as
// err does, found at the statement's end (tsf.FoundAt).
func (c *checker) incomplete(s *traceState, n tsf.Node, end ast.Pos, what string) {
	if d := c.err(s, tsf.ErrIncomplete, n, end, what); d.Code != "" {
		*d = tsf.FoundAtEnd(*d, end.Offset)
	}
}

// errAt reports d as the statement's error, as err does.
func (c *checker) errAt(s *traceState, d diag.Diagnostic) {
	if s.errors {
		return
	}
	s.errors = true
	c.report(d)
}

// once reports a keyword given twice in one TRACE.
func (c *checker) once(s *traceState, f tsf.Field) bool {
	kw := f.Keyword()
	if !slices.Contains(s.seen, kw) {
		s.seen = append(s.seen, kw)
		return true
	}
	switch kw {
	case "MINOR":
		c.err(s, tsf.ErrMinorRedef, f, f.Last())
	case "TP":
		c.err(s, tsf.ErrTPRedef, f, f.Last())
	case "ORBIT":
		c.err(s, tsf.ErrOrbitRedef, f, f.Last())
	case "DESC":
		// IBM's behaviour: TRCUST 3.05A's words for a second DESC.
		c.err(s, tsf.ErrUnexpected, f, f.Last(), "multiple DESC statements")
	default:
		c.err(s, tsf.ErrFieldRedef, f, f.Last(), kw)
	}
	return false
}

func (c *checker) field(s *traceState, i int, f tsf.Field) {
	// A data statement before the TP field, or after TP=@STATIC, is
	// refused at its keyword by the parser (tsfparse's refusedAtKeyword:
	// TRCUST 3.05A refuses it before it reads its address), and never
	// reaches here.
	switch f.(type) {
	case *tsf.Len, *tsf.Regs, *tsf.Mem, *tsf.Orbit:
		// IBM's behaviour: after ABORTOP or REMOVEOP, a statement that
		// makes RPN code is 103 "opcode defined after ABORT" or 104 "...
		// after REMOVE", at the end of the statement, as OPCODE is.
		switch {
		case s.abortOp:
			c.late(s, tsf.ErrOpcodeAfterAbort, f)
		case s.removeOp:
			c.late(s, tsf.ErrOpcodeAfterRem, f)
		}
	}
	if prev := c.prevLen(s, i); prev != nil {
		if m, ok := f.(*tsf.Mem); !ok || m.UseLen == nil {
			// The LEN before this field is not used by it (section 1.3.5:
			// "A DATA_STMT must immediately follow the LEN statement").
			// IBM's behaviour: TRCUST 3.05A resolves it, writes no code
			// for it and says nothing; the back end does the same.
			c.at(tsf.WarnLenUnused, prev, f.Last())
		}
	}
	switch f := f.(type) {
	case *tsf.Minor:
		if c.once(s, f) {
			c.minor(s, f)
		}
	case *tsf.TP:
		if c.once(s, f) {
			c.tpField(s, f)
		}
	case *tsf.Opcode:
		if s.tp.Opcode != nil && *s.tp.Opcode != 0 {
			// IBM's behaviour, tried with its binary: TRCUST 3.05A takes
			// an OPCODE as defined once its value is not 0, so that
			// "OPCODE=0, OPCODE=0x55" is 0x55 and "OPCODE=0, OPCODE=0"
			// the mismatch of 0 (fresh seed 1212295); after a value
			// that is not 0 a second OPCODE is 73.
			c.err(s, tsf.ErrOpcodeRedef, f, f.Last())
			return
		}
		switch {
		case f.Value.Value > 0xFF:
			// 3.05A's text has no place for the value (oracle x_h14); it
			// gives it at the line of the token after the field (IBM's
			// behaviour).
			legacy := f.Next
			if legacy.Line == 0 {
				legacy = f.End
			}
			d := c.err(s, tsf.ErrOpcodeRange, f.Value, legacy)
			d.Detail = f.Value.Text + " is above 0xFF"
		default:
			// After ABORTOP or REMOVEOP too (IBM's behaviour, tried with
			// its binary: "ABORTOP, OPCODE=0x55" is taken, "ABORTOP,
			// OPCODE=0x90" the opcode mismatch; the reference's 103 and
			// 104 are for ABORTOP with REMOVEOP and a data statement
			// after them).
			v := uint8(f.Value.Value)
			s.tp.Opcode = &v
		}
		s.extra = append(s.extra, f)
	case *tsf.Type:
		if c.once(s, f) {
			for _, n := range f.Names {
				if isKeyword(n.Text) {
					// IBM's behaviour (TRCUST 3.05A, measured with its
					// binary): a keyword in a TYPE list ends it, "syntax
					// error: missing ')' before 'MEM'", quoted as
					// written; the tracepoint is dropped.
					c.err(s, tsf.ErrSyntax, n, n.Pos, ")", n.Text)
					break
				}
				id, ok := lookup(c.m.Types, n.Text)
				if !ok {
					c.at(tsf.WarnTypeName, n, n.Pos, n.Text)
					continue
				}
				s.tp.TypeMask |= id
			}
		}
		s.extra = append(s.extra, f)
	case *tsf.Group:
		if c.once(s, f) {
			id, ok := lookup(c.m.Groups, f.Name.Text)
			if !ok {
				c.at(tsf.WarnGroupName, f.Name, f.End, f.Name.Text)
			}
			s.tp.Group = id
		}
		s.extra = append(s.extra, f)
	case *tsf.Desc:
		if c.once(s, f) {
			s.desc = f
			s.tp.Desc = f.Text.Value
		}
	case *tsf.Fmt:
		s.fmts = append(s.fmts, f)
		s.tp.Fmts = append(s.tp.Fmts, f.Text.Value)
	case *tsf.Len:
		if f.Cut {
			// The rest is the parser's syntax error (tsf.Len.Cut).
			c.address(s, f.Addr, f.End)
			c.lookup(s, f, f.Addr)
			break
		}
		c.lenField(s, f)
		c.data(s, f, 0)
	case *tsf.Regs:
		// IBM's behaviour (TRCUST 3.05A, tried with its binary): each name
		// is judged as it is read, at its own line, and the first wrong
		// one ends the list. A keyword is "missing ')' before 'MEM'" (D
		// and I too, as in a TYPE list); a register variable is the back
		// end's "symbol not found", before any name after it.
		bad := false
		for _, r := range f.Regs {
			if r.Variable {
				break
			}
			if isKeyword(r.Name) {
				c.err(s, tsf.ErrSyntax, r, r.Pos, ")", r.Name)
				bad = true
				break
			}
			if _, ok := tsf.Register(r.Name); !ok {
				c.err(s, tsf.ErrRegister, r, r.Pos, r.Name)
				bad = true
				break
			}
		}
		if f.Cut {
			// The rest is the parser's syntax error (tsf.Regs.Cut); the
			// back end reports a register variable and logs nothing.
			if !bad && slices.ContainsFunc(f.Regs, func(r *tsf.RegItem) bool { return r.Variable }) {
				s.tp.Data = append(s.tp.Data, Data{Field: f})
			}
			break
		}
		c.data(s, f, 0)
	case *tsf.Mem:
		c.mem(s, i, f)
	case *tsf.Orbit:
		// IBM's behaviour (TRCUST 3.05A, tried with its binary): a first
		// value 0 is 102, but in ORBIT=(0,1), and the tracepoint is
		// dropped; a second value above 0xFFFF is warned (3.05A's 143,
		// printed here) and kept.
		// ORBIT=(0,1) asks for a bit of the ORBIT table, and (0,0) after
		// one for that bit again; others with a 0 are 102 (IBM's
		// behaviour, tried with its binary; see Module.Orbits), also
		// after ABORTOP or REMOVEOP, where the ORBIT is 103 or 104 at the
		// end but is read all the same (it takes its bit).
		switch {
		case !c.once(s, f):
		case f.A.Value == 0 && !NewBit(f) && !(SameBit(f) && c.newBits > 0):
			c.err(s, tsf.ErrOrbitValue, f.A, f.End)
		case NewBit(f):
			c.newBits++
			c.orbit(s, f)
		case SameBit(f):
			c.orbit(s, f)
		case f.B != nil && f.B.Value > 0xFFFF:
			c.at(tsf.WarnOrbitIndex, f.B, f.End)
			c.orbit(s, f)
		default:
			c.orbit(s, f)
		}
		if s.tp.TPField != nil && s.tp.Static() {
			return
		}
		c.data(s, f, 0)
	case *tsf.OpFlag:
		// IBM's behaviour (TRCUST 3.05A, measured with its binary): each
		// flag once ("unexpected: multiple ABORTOP statements"), and not
		// both: the second is 103 "opcode defined after ABORT" or 104
		// "... after REMOVE", at the end of the statement; the tracepoint
		// is dropped.
		switch {
		case f.Name == "ABORTOP" && s.abortOp, f.Name == "REMOVEOP" && s.removeOp:
			c.err(s, tsf.ErrUnexpected, f, f.Last(), "multiple "+f.Name+" statements")
		case f.Name == "REMOVEOP" && s.abortOp:
			c.late(s, tsf.ErrOpcodeAfterAbort, f)
		case f.Name == "ABORTOP" && s.removeOp:
			c.late(s, tsf.ErrOpcodeAfterRem, f)
		}
		if f.Name == "ABORTOP" {
			s.abortOp = true
		} else {
			s.removeOp = true
		}
		c.data(s, f, 0)
	}
}

// keywords are TRCUST 3.05A's keywords, in any case, that a TYPE list
// cannot hold (each tried with IBM's binary; STATIC is none, it is only
// ever @STATIC, and TRACE starts a statement of its own); D and I too, the
// short DIRECT and INDIRECT (IBM's behaviour: TYPE=(A,B,C,D) is "missing
// ')' before 'D'").
var keywords = []string{
	"MODNAME", "MAJOR", "MAXDATALENGTH", "MAXDATALEN", "TDFID", "TYPELIST", "GROUPLIST", "NAME", "ID",
	"MINOR", "TP", "DESC", "FMT", "TYPE", "GROUP", "REGS", "MEM", "MEM32", "ASCIIZ", "ASCIIZ32", "LEN",
	"ORBIT", "ABORTOP", "REMOVEOP", "OPCODE", "RETEP", "DIRECT", "INDIRECT", "IS", "IF", "D", "I",
}

// isKeyword reports whether a name is one of keywords, in any case.
func isKeyword(name string) bool {
	return slices.ContainsFunc(keywords, func(k string) bool { return strings.EqualFold(k, name) })
}

// prevLen returns the field before field i when it is a LEN.
func (c *checker) prevLen(s *traceState, i int) *tsf.Len {
	if i == 0 {
		return nil
	}
	l, _ := s.t.Fields[i-1].(*tsf.Len)
	return l
}

// minorOutOfRange reports whether minor code v is out of range: outside
// 1-0xFFFF, or with Options.Wrap16, when its low 16 bits are 0.
func (c *checker) minorOutOfRange(v uint64) bool {
	v = c.wrap(v)
	return v < 1 || v > 0xFFFF
}

func (c *checker) minor(s *traceState, f *tsf.Minor) {
	s.minor = f
	switch {
	case !c.minorMode && c.firstTrace != nil:
		// IBM's behaviour (TRCUST 3.05A, from the differential harness):
		// after a first TRACE without MINOR the keyword is unexpected,
		// quoted as written, and the tracepoint dropped, whatever its
		// value.
		d := c.err(s, tsf.ErrUnexpected, f, f.End, f.Written)
		d.Detail = fmt.Sprintf("the first TRACE (line %d) has no MINOR: give MINOR in every TRACE or in none", c.firstTrace.Pos.Line)
	case f.Bad != nil:
		d := c.err(s, tsf.ErrMinorMissing, f.Bad, f.End)
		d.Detail = fmt.Sprintf("%q is not a number", f.Bad.Text)
		if f.Bad.Text == "" {
			d.Detail = "no number after '='"
		}
	case c.minorOutOfRange(f.Value.Value):
		c.err(s, tsf.ErrMinorRange, f.Value, f.End)
	default:
		s.tp.Minor, s.tp.MinorPos = uint16(f.Value.Value), f.Value.Pos
		// A duplicate minor code is found once the whole TSF is read,
		// among the tracepoints kept (tdfgen.DedupeMinors).
	}
}

func (c *checker) tpField(s *traceState, f *tsf.TP) {
	s.tp.TPField = f
	switch t := f.Target.(type) {
	case *tsf.StaticTP:
		s.tp.Target = nil
	case *tsf.SymbolTP:
		s.tp.Target = t
		if n := t.BadOffset; n != nil && c.m.ModName != "" {
			// IBM's behaviour: after the symbol, TRCUST 3.05A says
			// "invalid number found" and "unexpected" of an offset that
			// is no number, and refuses the tracepoint.
			d := c.err(s, tsf.ErrInvalidNumber, n, n.Pos, n.Text)
			d.Detail = "a TP offset is a number"
			// The second as TRCUST reads the token again, after the TP
			// is resolved: placed at the token's end, so that a symbol
			// not found, which TRCUST reports instead, replaces it
			// (tsfcompile's applyRefused).
			at := n.Pos
			at.Offset, at.Col = at.Offset+len(n.Text), at.Col+len(n.Text)
			c.report(tsf.ErrUnexpected.Diagnostic(at, n.Pos.Line, n.Text))
		}
	case *tsf.LineTP:
		s.tp.Target = t
	}
	if _, static := f.Target.(*tsf.StaticTP); !static && c.m.ModName == "" && !c.warnedNoMod {
		_, line := f.Target.(*tsf.LineTP)
		if line && c.opt.LoadModule {
			// The module /L= names is read (IBM's behaviour, fresh seed
			// 923170: "Using module file", then the TP is resolved).
			return
		}
		// Section 1.3.2: dynamic tracepoints need the module.
		c.warnedNoMod = true
		if line {
			// IBM's behaviour: for TP=@file,line TRCUST 3.05A opens the
			// module at once, by the empty name: fatal 2.
			d := c.at(tsf.FatalNotFound, f, f.End, "")
			d.Detail = "no MODNAME is given, and TP=@file,line needs the module"
			return
		}
		c.at(tsf.SevereNoModName, f, f.End)
	}
}

// lenField checks LEN; an (i) term, which LEN does not take, is the
// parser's error (tsfparse's terms).
func (c *checker) lenField(s *traceState, f *tsf.Len) {
	switch f.Flag.Kind {
	case tsf.Direct, tsf.Indirect:
	default:
		// IBM's behaviour: TRCUST 3.05A says "syntax error: missing
		// 'DIRECT/INDIRECT' before 'IF'" for IS, IF or an unknown flag
		// in LEN.
		d := c.err(s, tsf.ErrSyntax, f.Flag, f.End, "DIRECT/INDIRECT", f.Flag.Spelling)
		d.Detail = "LEN takes DIRECT or INDIRECT"
		return
	}
	c.address(s, f.Addr, f.End)
	c.firstLevel(s, f.Addr, f.Flag, f.End)
	c.directChain(s, f.Flag, f.End)
}

// directChain refuses a '*' chain after DIRECT (IBM's behaviour, tried with
// its binary: TRCUST 3.05A says "unexpected: * after DIRECT, ignored" for
// MEM, MEM32 and LEN, after an (i) term's "indirect offset with DIRECT").
func (c *checker) directChain(s *traceState, fl *tsf.Flag, end ast.Pos) {
	if fl.Kind == tsf.Direct && len(fl.Chain) > 0 {
		d := c.err(s, tsf.ErrUnexpected, fl, end, "* after DIRECT")
		d.Detail = "DIRECT fetches nothing: a '*' level needs INDIRECT"
	}
}

// firstLevel reports an address whose first level of indirection has two
// offsets: the (i) term and the offset of the INDIRECT chain's first *.
// Both would be added after the first fetch; 3.05A refuses the pair with
// "unexpected: two indirect offsets for first level, ignored" and drops
// the tracepoint, however many levels follow (oracle x_b04, x_g01), at the
// statement's last line.
func (c *checker) firstLevel(s *traceState, a tsf.Address, fl *tsf.Flag, end ast.Pos) {
	in := a.IndirectDisp()
	if in == nil {
		return
	}
	if fl.Kind == tsf.Direct {
		// IBM's behaviour: an (i) term needs a fetch to follow; with
		// DIRECT TRCUST 3.05A says "unexpected: indirect offset with
		// DIRECT, ignored" and drops the tracepoint.
		d := c.err(s, tsf.ErrUnexpected, in.Num, end, "indirect offset with DIRECT")
		d.Detail = "an (i) term is added after a fetch: DIRECT fetches nothing"
		return
	}
	if in.Neg {
		// IBM's behaviour: TRCUST 3.05A adds the (i) term whatever its
		// sign; tracekit writes the same bytes and says so.
		c.at(tsf.WarnIndirectSign, in, end, in.Num.Text, in.Num.Text)
	}
	if fl.Kind == tsf.Direct || len(fl.Chain) == 0 || fl.Chain[0].Offset == nil || fl.Chain[0].Offset.Num.Value == 0 || in.Num.Value == 0 {
		// IBM's behaviour: an (i) term of 0 is no offset beside the
		// first *'s, nor a *-0 beside an (i) term (TRCUST 3.05A takes
		// MEM32=(FEBX+(0),I*+2*,n); with DIRECT it is refused all the
		// same).
		return
	}
	d := c.err(s, tsf.ErrUnexpected, fl.Chain[0].Offset.Num, end, "two indirect offsets for first level")
	d.Detail = "the (i) term and the first level's *offset both apply after the first fetch: write their sum in one of them"
}

// mem checks MEM32, MEM, ASCIIZ32 and ASCIIZ (sections 1.3.5.11-14).
func (c *checker) mem(s *traceState, i int, f *tsf.Mem) {
	s.mems++
	flat := f.Kind.Flat()
	switch a := f.Addr.(type) {
	case *tsf.FlatAddr:
		if !flat {
			// 3.05A's argument says what to write instead (oracle x_h19).
			// At the base register's line: TRCUST 3.05A checks it as it
			// reads it (IBM's behaviour).
			d := c.err(s, tsf.ErrAddressSpec, a, a.Base.Pos, "use segmented Regs with MEM/ASCIIZ")
			d.Detail = "F" + a.Base.Text + " is a flat register address; " + f.Kind.String() + " takes a symbol or a segment register address (R<sreg>)"
		}
	case *tsf.SegAddr:
		if flat {
			// Oracle x_h20.
			d := c.err(s, tsf.ErrAddressSpec, a, a.Seg.Pos, "use Flat reg with MEM32/ASCIIZ32")
			d.Detail = "R" + a.Seg.Text + " is a segmented address; " + f.Kind.String() + " takes a symbol or a flat register address (F<reg>)"
		}
	}
	c.address(s, f.Addr, f.End)
	if f.Cut {
		c.lookup(s, f, f.Addr)
	}
	if f.Cut && f.Flag == nil {
		// The rest is the parser's syntax error (tsf.Mem.Cut).
		return
	}
	if f.Flag.Kind == 0 {
		// IBM's behaviour: an unknown flag is TRCUST 3.05A's syntax error,
		// not the reference's 84.
		c.err(s, tsf.ErrSyntax, f.Flag, f.End, "DIRECT/INDIRECT", f.Flag.Spelling)
	}
	// IS and IF name the kind of the pointer fetched, not of the statement:
	// 3.05A takes IS on MEM (oracle x_h21, a far pointer fetched at a
	// segmented address, as INDIRECT would) and so, by the same reading,
	// IF on MEM32 (a flat pointer at a flat address). docs/tdf.md.
	c.firstLevel(s, f.Addr, f.Flag, f.End)
	c.directChain(s, f.Flag, f.End)
	if f.BadLength != nil {
		// After the address (IBM's behaviour), whose symbol TRCUST looks
		// up first: one not found is the statement's error instead
		// (session 19: MEM=(.nosuch-4,DIRECT,-5) is "symbol not found:
		// nosuch"; fresh seed 1553524).
		c.lookup(s, f, f.Addr)
		c.errAt(s, *f.BadLength)
		return
	}
	// A statement broken after its length (f.Cut) has the length checked
	// as it is read (IBM's behaviour: "MEM32=(FEBP,DIRECT,LEN x" is
	// "variable LEN parameter not preceding", "MEM32=(.emit,DIRECT,0 x"
	// "zero length specified"); the rest is the parser's syntax error.
	if f.UseLen != nil {
		// ASCIIZ and ASCIIZ32 take LEN too, as their maximum length (IBM's
		// behaviour: TRCUST 3.05A writes the LEN program, then the
		// address and 23 or 24).
		if c.prevLen(s, i) == nil {
			c.err(s, tsf.ErrLenNotPreceding, f.UseLen, f.End)
		}
		if !f.Cut {
			c.data(s, f, 0)
		}
		return
	}
	if f.Length == nil {
		return // f.Cut before its length
	}
	v := f.Length.Value
	if v > 0xFFFF {
		// TRCUST 3.05A keeps the low 16 bits without a word (oracle e33).
		d := c.at(tsf.WarnIndexTooLarge, f.Length, f.End)
		d.Detail = fmt.Sprintf("the length %s is logged as %d", f.Length.Text, v&0xFFFF)
		v &= 0xFFFF
	}
	if v == 0 {
		c.err(s, tsf.ErrZeroLength, f.Length, f.End)
	}
	if !f.Cut || v != 0 {
		// A statement broken after its length counts its bytes as they
		// are read, before the error (IBM's behaviour, fresh seed 1354419:
		// "MEM=(RDS+SI,IF,600 x)" and "MEM=(RDS+SI,IF,600" at the end of
		// the file warn 140 before the syntax error and severe 34).
		c.data(s, f, uint16(v))
	}
}

// address checks the register names of an address.
func (c *checker) address(s *traceState, a tsf.Address, legacy ast.Pos) {
	switch a := a.(type) {
	case *tsf.FlatAddr:
		// A flat register address is made of 32-bit registers, ESP no
		// index, and a segment register address is indexed by 16-bit
		// ones (tsf.Register).
		if wide, _ := tsf.Register(a.Base.Text); !wide {
			c.err(s, tsf.ErrFlatRegister, a.Base, legacy, a.Base.Text)
		}
		for _, r := range a.Index {
			if wide, _ := tsf.Register(r.Reg.Text); !wide || strings.EqualFold(r.Reg.Text, "ESP") {
				// TRCUST 3.05A takes what is not an index register for a
				// missing displacement (oracle d66: FEBX+ESP).
				c.err(s, tsf.ErrSyntax, r.Reg, legacy, "number", r.Reg.Text)
			}
		}
	case *tsf.SegAddr:
		if !tsf.SegmentRegister(a.Seg.Text) {
			c.err(s, tsf.ErrSegRegister, a.Seg, legacy, a.Seg.Text)
		}
		for _, r := range a.Regs {
			if wide, ok := tsf.Register(r.Reg.Text); !ok || wide {
				c.err(s, tsf.ErrSyntax, r.Reg, legacy, "number", r.Reg.Text)
			}
		}
		for _, d := range append(append([]*tsf.Signed{}, a.Disps...), a.Indirect) {
			if d != nil && d.Num.Value > 0xFFFF {
				c.at(tsf.WarnIndexTooLarge, d.Num, legacy)
			}
		}
	}
}

// orbit records an ORBIT field taken (Module.Orbits, Tracepoint.Orbit).
func (c *checker) orbit(s *traceState, f *tsf.Orbit) {
	s.tp.Orbit = f
	c.m.Orbits = append(c.m.Orbits, OrbitField{Orbit: f, Trace: s.t})
}

// data records a statement that becomes RPN code and adds up what it can
// log (section 1.3.5.9: the combined data "cannot exceed MAXDATALENGTH"; a
// warning when it might).
func (c *checker) data(s *traceState, f tsf.Field, length uint16) {
	s.tp.Data = append(s.tp.Data, Data{Field: f, Length: length})
	s.extra = append(s.extra, f)
	// TRCUST 3.05A warns (140) when one byte a register and the length of
	// each memory item, without their prefixes, add up to more than
	// MAXDATALENGTH (IBM's behaviour, tried with its binary: 21 registers
	// alone warn at 20, REGS=(EAX,EBX) and 19 bytes too, 20 bytes alone
	// do not). DataBytes is what a hit logs.
	switch f := f.(type) {
	case *tsf.Regs:
		for _, r := range f.Regs {
			s.tp.DataBytes += RegisterBytes(r)
		}
		// Counted a run at a time: each run of registers of one width
		// is one logging opcode (tdfgen's regs), and TRCUST 3.05A checks
		// the count after each (IBM's behaviour, tried with its binary:
		// at MAXDATALENGTH=100, MEM 100, REGS=(EDX,EBP,DS,EAX), MEM 100
		// warns twice, the runs EDX,EBP / DS / EAX counting 2, 1 and 1;
		// REGS=(EDX,EBP) there warns once; at 20 a REGS of 44 registers
		// in four runs of 8, 14, 8 and 14 warns twice).
		for i := 0; i < len(f.Regs); {
			wide := RegisterBytes(f.Regs[i]) == 4
			j := i + 1
			for j < len(f.Regs) && (RegisterBytes(f.Regs[j]) == 4) == wide {
				j++
			}
			s.counted += j - i
			c.dataCheck(s, f)
			i = j
		}
	case *tsf.Mem:
		s.tp.DataBytes += dyndata.PrefixSize + int(length)
		s.counted += int(length)
		c.dataCheck(s, f)
	}
}

// lookup gives the back end the symbol of the address a of f, a data
// statement that broke (tsf.Mem.Cut, tsf.Len.Cut), to look up: TRCUST 3.05A
// looks a symbol up as it reads it, so that its "symbol not found" comes
// before any error later in the statement (IBM's behaviour:
// "MEM=(.nosuch,,4)" and "LEN=(nosuch+EAX,D)" are "symbol not found"). The
// back end assembles nothing else of f (tdfgen).
func (c *checker) lookup(s *traceState, f tsf.Field, a tsf.Address) {
	if _, ok := a.(*tsf.SymbolAddr); ok {
		s.tp.Data = append(s.tp.Data, Data{Field: f})
	}
}

// dataCheck warns (140) when what the statements of the TRACE so far can
// log passes MAXDATALENGTH, and starts the count again.
func (c *checker) dataCheck(s *traceState, f tsf.Field) {
	if !s.errors && s.counted > int(c.m.MaxDataLength) {
		// Not for a statement refused for an error: TRCUST 3.05A checks
		// the statement first and counts its bytes only when it is taken
		// (IBM's behaviour).
		// IBM's behaviour: the count starts again after the warning,
		// which a later statement can give again (21 bytes twice at
		// MAXDATALENGTH=20 warn twice; 21 then 1 once; 25 then 18 once).
		s.counted = 0
		d := c.at(tsf.WarnMaxDataExceeded, f, f.Last())
		d.Detail = fmt.Sprintf("up to %d bytes with their prefixes, MAXDATALENGTH is %d", s.tp.DataBytes, c.m.MaxDataLength)
	}
}

// endOfTrace makes the checks that need the whole statement, and keeps the
// tracepoint when it has no error.
func (c *checker) endOfTrace(s *traceState) {
	t, tp := s.t, s.tp
	end := t.End
	if n := len(t.Fields); n > 0 {
		if l, ok := t.Fields[n-1].(*tsf.Len); ok {
			c.at(tsf.WarnLenUnused, l, end) // as above
		}
	}
	if c.firstTrace == nil && !c.opt.Abandoned[t.Pos.Offset] {
		// The first TRACE statement TRCUST reads to its end decides
		// whether TRACE statements give MINOR, whatever it finds there
		// (IBM's behaviour, from the differential harness: a first TRACE
		// with MINOR and without DESC makes MINOR required); one it
		// abandons at an error before (the front end's, or the back
		// end's: Options.Abandoned) decides nothing.
		c.firstTrace, c.minorMode = t, s.minor != nil
		c.m.ModeTrace = t
	}
	// The TP first, then MINOR (IBM's behaviour: a TRACE with neither is
	// "'trace point address' required"; fresh seed 961328).
	// Each "trace record incomplete" is found at the statement's end
	// (tsf.FoundAt): after the messages of resolving its TP, which TRCUST
	// gives as it reads the token after the TP field, at the line of the
	// next TRACE when the TP field ends the statement (IBM's behaviour,
	// fresh seed 1404103: warnings 137 and 139 of TP=.fflush, then 'trace
	// description' required, where the FMT came before the TP).
	if tp.TPField == nil {
		c.incomplete(s, t, end, "trace point address")
	}
	if c.minorMode && s.minor == nil {
		c.incomplete(s, t, end, "minor code")
	}
	noDesc := len(s.fmts) > 0 && s.desc == nil
	staticOpcode := tp.TPField != nil && tp.Static() && slices.ContainsFunc(s.extra, func(f tsf.Field) bool {
		_, ok := f.(*tsf.Opcode)
		return ok
	})
	switch {
	case noDesc && !s.errors && staticOpcode:
		// IBM's behaviour: the OPCODE of a @STATIC tracepoint, refused
		// below, is reported instead of the missing DESC (TRCUST 3.05A
		// compares the opcode first; fresh seed 911068).
	case noDesc && !s.errors && tp.TPField != nil && !tp.Static():
		// IBM's behaviour (tried with its binary): TRCUST 3.05A finds a
		// missing DESC after the back end's checks of the statement (an
		// opcode mismatch is reported instead; a RETEP without a return
		// point is a warning and nothing more): the statement's last
		// error (Tracepoint.Late). It is reported instead of 103 or 104
		// (a flag or a data statement after ABORTOP or REMOVEOP), which
		// TRCUST finds after it (fresh seed 1092398).
		if tp.Late == nil || abortConflict(tp.Late) {
			d := tsf.FoundAtEnd(tsf.ErrIncomplete.Diagnostic(s.fmts[0].Position(), end.Line, "trace description"), end.Offset)
			tp.Late = &d
		}
	case noDesc:
		c.incomplete(s, s.fmts[0], end, "trace description")
	}
	if s.errors {
		return
	}
	if !noDesc {
		c.fmtChecks(s)
	}
	if tp.TPField != nil && tp.Static() {
		for _, f := range s.extra {
			if _, ok := f.(*tsf.OpFlag); ok {
				// Taken, and nothing to abort or remove (tracekit's
				// warning; TRCUST says nothing).
				c.at(tsf.WarnStaticIgnored, f, f.Last(), f.Keyword())
				continue
			}
			if staticTakes(f) {
				continue
			}
			if _, ok := f.(*tsf.Opcode); ok {
				// IBM's behaviour: TRCUST 3.05A compares the OPCODE of a
				// @STATIC tracepoint with no byte and refuses it, "opcode
				// mismatch at address to apply TP", at the end of the
				// statement.
				c.err(s, tsf.ErrOpcodeMismatch, f, end)
				continue
			}
			if !isData(f) {
				c.at(tsf.WarnStaticIgnored, f, f.Last(), f.Keyword())
				continue
			}
			// A static tracepoint logs what its caller passes: a statement
			// that would make RPN code is an error and the tracepoint is
			// dropped (oracle x_h33, "unexpected: REGS with STATIC
			// tracepoint, ignored", at the statement's line; TYPE and GROUP
			// merely have no effect, s07). TRCUST can only tell once it has
			// read both the statement and the TP: the later one's line.
			legacy := f.Last()
			if l := tp.TPField.Last(); l.Offset > legacy.Offset {
				legacy = l
			}
			c.err(s, tsf.ErrUnexpected, f, legacy, f.Keyword()+" with STATIC tracepoint")
		}
		tp.Data, tp.Opcode, tp.TypeMask, tp.Group, tp.DataBytes = nil, nil, 0, 0, 0
	}
	if s.errors {
		return
	}
	if tp.Late != nil && tp.Static() {
		// No back end will check the statement: the error is given now.
		c.report(*tp.Late)
		return
	}
	if len(c.m.Tracepoints) == c.maxTracepoints() {
		// One too many: fatal, found once its statement is read.
		c.report(tsf.FatalTooManyTPs.Diagnostic(t.End, 0))
		return
	}
	c.m.Tracepoints = append(c.m.Tracepoints, tp)
}

// late keeps the first of the errors TRCUST gives after the back end's
// checks (Tracepoint.Late), at the end of the statement.
func (c *checker) late(s *traceState, code tsf.Code, f tsf.Field) {
	if s.tp.Late == nil {
		d := code.Diagnostic(f.Position(), s.t.End.Line)
		s.tp.Late = &d
	}
}

// abortConflict reports whether d is 103 or 104, "opcode defined after
// ABORT" or "... after REMOVE".
func abortConflict(d *diag.Diagnostic) bool {
	code, _ := tsf.CodeOf(*d)
	return code == tsf.ErrOpcodeAfterAbort || code == tsf.ErrOpcodeAfterRem
}

// staticTakes reports whether a @STATIC tracepoint takes f, a statement
// that makes RPN code in a dynamic one: ORBIT (written in the TMI file,
// Tracepoint.Orbit), ABORTOP and REMOVEOP, without a word (IBM's
// behaviour, tried with its binary: the tracepoint is kept, before or
// after TP=@STATIC).
func staticTakes(f tsf.Field) bool {
	switch f.(type) {
	case *tsf.Orbit, *tsf.OpFlag:
		return true
	}
	return false
}

// isData reports whether f is a statement that becomes RPN code.
func isData(f tsf.Field) bool {
	switch f.(type) {
	case *tsf.Len, *tsf.Regs, *tsf.Mem, *tsf.Orbit, *tsf.OpFlag:
		return true
	}
	return false
}

// fmtChecks checks the FMT controls of section 1.3.5.7 and the size of a
// tracepoint's format text (message 99). The size is that of the TFF
// record's data as TRCUST builds it in source order: the DESC with its NUL,
// then each FMT as stored (binfmt/tff.EncodeFMT) with its CR LF. The FMT
// that takes it above 4096 bytes is the one reported, at its own line
// (oracle x_h24: DESC="x" and 126-byte FMTs, 3.05A names the 32nd, where
// 2 + 32 × 128 = 4098 bytes).
func (c *checker) fmtChecks(s *traceState) {
	total, prefixes := 0, 0
	var over *tsf.Fmt // the FMT that takes the total above the limit
	for _, f := range s.t.Fields {
		switch f := f.(type) {
		case *tsf.Desc:
			if f == s.desc {
				total += len(f.Text.Value) + 1
			}
		case *tsf.Fmt:
			c.fmtOut = tff.AppendFMT(c.fmtOut[:0], f.Text.Value)
			total += len(c.fmtOut) + 2
			prefixes += c.fmtControls(f.Text)
			if total > MaxFmtBytes && over == nil {
				over = f
			}
		}
	}
	if over != nil {
		d := c.err(s, tsf.ErrFmtTooLong, over, over.Last())
		d.Detail = fmt.Sprintf("%d bytes with the DESC", total)
	}
	switch {
	case prefixes == 0:
	case s.tp.TPField != nil && s.tp.Static():
		c.at(tsf.WarnFmtStaticPrefix, s.fmts[0], s.fmts[0].End)
	case prefixes > s.mems:
		d := c.at(tsf.WarnFmtPrefix, s.fmts[0], s.fmts[0].End)
		d.Detail = fmt.Sprintf("%d %%P, %d memory statements", prefixes, s.mems)
	}
	// %R reads an item's prefix itself; %U prints every byte left, prefixes
	// included, on purpose (docs/formatter.md).
	readers, dumps := 0, false
	for _, f := range s.fmts {
		r, u := prefixReaders(f.Text.Value)
		readers += r
		dumps = dumps || u
	}
	if !dumps && prefixes+readers < s.mems && len(s.fmts) > 0 && !(s.tp.TPField != nil && s.tp.Static()) {
		d := c.at(tsf.WarnFmtNoPrefix, s.fmts[0], s.fmts[0].End)
		d.Detail = fmt.Sprintf("%d %%P, %d memory statements; put %%P before the control of each memory item", prefixes, s.mems)
	}
}

// prefixReaders counts the %R controls of an FMT text (each reads a memory
// item's prefix when no %P did) and says whether it has a %U.
func prefixReaders(text string) (r int, u bool) {
	for i := 0; i+1 < len(text); i++ {
		if text[i] != '%' {
			continue
		}
		switch text[i+1] {
		case 'R', 'r':
			r++
		case 'U', 'u':
			u = true
		}
		i++ // "%%" is one character
	}
	return r, u
}

// fmtControls checks one FMT string and returns how many %P it holds. The
// controls are read from the raw text, so that positions are exact; a \"
// escape does not touch a control.
func (c *checker) fmtControls(str *tsf.String) int {
	raw := str.Raw
	prefixes := 0
	at := func(i int) *tsf.Word {
		p := str.Pos
		p.Offset += 1 + i
		p.Col += 1 + i
		return &tsf.Word{Pos: p}
	}
	for i := 0; i < len(raw); i++ {
		if raw[i] != '%' {
			continue
		}
		if i+1 == len(raw) {
			c.at(tsf.WarnFmtControl, at(i), str.Pos, "%")
			break
		}
		l := raw[i+1]
		if l >= 'a' && l <= 'z' {
			l -= 'a' - 'A'
		}
		switch {
		case fmtLetter[l]:
			if l == 'P' {
				prefixes++
			}
			i++
		case l == 'I':
			j := i + 2
			for j < len(raw) && raw[j] >= '0' && raw[j] <= '9' {
				j++
			}
			if j == i+2 || j >= len(raw) || raw[j] != ' ' {
				d := c.at(tsf.WarnFmtSkip, at(i), str.Pos)
				d.Detail = fmt.Sprintf("%q", raw[i:min(j+1, len(raw))])
			}
			i = j - 1
		default:
			// The % is copied as text and the scan goes on with the next
			// byte, as the TFF writer does: in "%%W" the second % starts a
			// %W control.
			c.at(tsf.WarnFmtControl, at(i), str.Pos, raw[i:i+2])
		}
	}
	return prefixes
}
