package lowering

import (
	"maps"
	"slices"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/lower/record"
)

// Mark is what a lowering run for a Joiner passes on for one line: with a
// record (Chunk.RecordMark) or without one (Chunk.Mark, e.g. a line that
// only adds to an earlier record). Its meaning is the dialect's own.
type Mark struct {
	Kind int
	Rec  int     // the index of its record in Chunk.Records; -1 for none
	Key  uint64  // e.g. what pairs the halves of a call
	Num  int64   // e.g. a time stamp
	Pos  ast.Pos // where the line, or its node, starts
	Cols [2]int  // other places on the same line, as byte distances from Pos
	Text string
}

// At returns the place on the mark's line Cols[i] bytes after Pos.
func (m *Mark) At(i int) ast.Pos {
	p := m.Pos
	p.Offset += m.Cols[i]
	p.Col += m.Cols[i]
	return p
}

// MarkedOutput is the Output of a lowering run on several goroutines for a
// Joiner (Dialect.NewJoiner): it takes each record with its mark, marks
// without a record, and gives storage for what records point to that stays
// valid until the records are written (a lowering may not reuse its own
// for them). The lowering leaves what spans lines to the Joiner.
type MarkedOutput interface {
	Output
	// RecordMark passes a record on with its mark (its Rec is set).
	RecordMark(r *record.Record, m Mark) error
	// Mark passes a mark on without a record.
	Mark(m Mark)
	// Attrs returns an empty map for a record's attrs.
	Attrs() record.Attrs
	// Args returns n zero arguments, for nested ones.
	Args(n int) []record.Arg
}

// Joiner sees the chunks of one input, lowered on several goroutines
// through MarkedOutputs, in input order, and does the work that spans
// lines: it pairs the halves of calls and passes the records on.
type Joiner interface {
	// Join takes the chunk of the next lines and passes its diagnostics
	// (in order with its marks: Before counts marks) and the records on to
	// out, in output order. It may hold records back for later chunks and
	// pass on records held from earlier ones. out keeps the records it is
	// given (the pointers), and what they point to, until c is reset: the
	// Joiner must not change or reuse them before. So before it returns,
	// Join copies what it holds out of c (Clone).
	Join(c *Chunk, out Output) error
	// End passes on what is still held at the end of the input; out keeps
	// nothing.
	End(out Output) error
}

// RecordMark copies r into the chunk with its mark.
func (c *Chunk) RecordMark(r *record.Record, m Mark) error {
	m.Rec = len(c.Records)
	c.Marks = append(c.Marks, m)
	return c.RecordNote(r, Note{})
}

// Mark adds a mark without a record.
func (c *Chunk) Mark(m Mark) {
	m.Rec = -1
	c.Marks = append(c.Marks, m)
}

// Attrs returns an empty map, from the chunk's storage until Reset.
func (c *Chunk) Attrs() record.Attrs {
	if c.nattrs == len(c.attrs) {
		c.attrs = append(c.attrs, make(record.Attrs, 4))
	}
	m := c.attrs[c.nattrs]
	c.nattrs++
	return m
}

// Args returns n zero arguments, from the chunk's storage until Reset. The
// storage grows by new arrays, so that earlier slices stay valid.
func (c *Chunk) Args(n int) []record.Arg {
	if len(c.nested)+n > cap(c.nested) {
		c.nested = make([]record.Arg, 0, max(1024, 2*cap(c.nested), n))
	}
	start := len(c.nested)
	c.nested = c.nested[:start+n]
	x := c.nested[start : start+n : start+n]
	clear(x)
	return x
}

// Clone returns a deep copy of r: its arguments, integers and attrs
// (strings, integers, bools and slices of them) are its own.
func Clone(r *record.Record) record.Record {
	cp := *r
	cp.TSNs, cp.DurNs = cloneInt(r.TSNs), cloneInt(r.DurNs)
	cp.CPU, cp.PID, cp.TID, cp.Major, cp.Minor = cloneUint(r.CPU), cloneUint(r.PID), cloneUint(r.TID), cloneUint(r.Major), cloneUint(r.Minor)
	cp.Args = cloneArgs(r.Args)
	if r.Ret != nil {
		ret := cloneArg(*r.Ret)
		cp.Ret = &ret
	}
	cp.Data = slices.Clone(r.Data)
	if r.Attrs != nil {
		cp.Attrs = make(record.Attrs, len(r.Attrs))
		for k, v := range r.Attrs {
			switch v := v.(type) {
			case []string:
				cp.Attrs[k] = slices.Clone(v)
			case []int:
				cp.Attrs[k] = slices.Clone(v)
			case map[string]any:
				cp.Attrs[k] = maps.Clone(v)
			default:
				cp.Attrs[k] = v
			}
		}
	}
	cp.AttrsJSON = slices.Clone(r.AttrsJSON)
	return cp
}

func cloneInt(v *int64) *int64 {
	if v == nil {
		return nil
	}
	x := *v
	return &x
}

func cloneUint(v *uint64) *uint64 {
	if v == nil {
		return nil
	}
	x := *v
	return &x
}

func cloneArgs(as []record.Arg) []record.Arg {
	if as == nil {
		return nil
	}
	out := make([]record.Arg, len(as))
	for i := range as {
		out[i] = cloneArg(as[i])
	}
	return out
}

func cloneArg(a record.Arg) record.Arg {
	a.Bytes = slices.Clone(a.Bytes)
	a.Fields = cloneArgs(a.Fields)
	if a.In != nil {
		in := cloneArg(*a.In)
		a.In = &in
	}
	if a.Out != nil {
		out := cloneArg(*a.Out)
		a.Out = &out
	}
	return a
}

// Joined returns the lowering of one input on one goroutine for a dialect
// lowered for a Joiner (Dialect.NewJoiner), so that the work that spans
// lines has one home, the Joiner, whatever the number of goroutines:
// newLow makes the line lowering, which passes its records and marks to a
// chunk, and j joins the chunk into out every joinedLines lines, at once
// after a line with an error (so that a strict run stops where it must),
// after a line the registry skips (SkipLine) and at the end.
func Joined(out Output, j Joiner, newLow func(MarkedOutput) Lowerer) Lowerer {
	x := &joined{out: out, j: j}
	x.low = newLow(&x.c)
	return x
}

// JoinedLowerer returns the NewLowerer of a dialect lowered for a Joiner:
// given a MarkedOutput (a worker of the registry's), the line lowering
// newLow makes; given another Output, that lowering Joined with a Joiner
// of newJoiner's.
func JoinedLowerer(newJoiner func(Config) Joiner, newLow func(Config, MarkedOutput) Lowerer) func(Config, Output) Lowerer {
	return func(cfg Config, out Output) Lowerer {
		if m, ok := out.(MarkedOutput); ok {
			return newLow(cfg, m)
		}
		return Joined(out, newJoiner(cfg), func(m MarkedOutput) Lowerer { return newLow(cfg, m) })
	}
}

// joinedLines is how many lines Joined lowers into its chunk before it
// joins them: the Joiner copies what it holds out of each chunk, so joining
// every line would copy every record it holds until the next line.
const joinedLines = 256

// LineSkipper is offered by a lowering that holds lowered lines back
// (Joined): SkipLine reports a line the registry skipped itself (too long)
// in order with the lines before it, and passes them on.
type LineSkipper interface {
	SkipLine(d diag.Diagnostic, skipped int) error
}

// Idler is offered by a Joiner, or a Lowerer, that holds records back
// only in case later lines add to them (a strace call held for its -k
// stack frames): Idle says the input has paused (a live input, quiet for a
// while), so what is held that way is passed on to out now. Records held
// because they are incomplete (a call whose end has not come) stay held.
type Idler interface {
	Idle(out Output) error
}

// Idle joins the lines lowered so far and lets the Joiner pass on what it
// holds for later lines (Idler); out is the Output Joined was given.
func (x *joined) Idle(Output) error {
	if err := x.flush(); err != nil {
		return err
	}
	if i, ok := x.j.(Idler); ok {
		return i.Idle(x.out)
	}
	return nil
}

// joined is the Lowerer Joined returns.
type joined struct {
	c     Chunk
	low   Lowerer
	j     Joiner
	out   Output
	lines int // lines in c
}

func (x *joined) Line(pos ast.Pos, text string) error {
	before := len(x.c.Diags)
	if err := x.low.Line(pos, text); err != nil {
		return err
	}
	x.lines++
	failed := false
	for _, d := range x.c.Diags[before:] {
		failed = failed || d.Diag.Severity >= diag.Error
	}
	if x.lines >= joinedLines || failed {
		return x.flush()
	}
	return nil
}

func (x *joined) End(pos ast.Pos) error {
	if err := x.low.End(pos); err != nil {
		return err
	}
	if err := x.flush(); err != nil {
		return err
	}
	return x.j.End(x.out)
}

// SkipLine implements LineSkipper.
func (x *joined) SkipLine(d diag.Diagnostic, skipped int) error {
	x.c.Diag(d, skipped)
	return x.flush()
}

// flush joins the lines lowered so far into out and empties the chunk.
func (x *joined) flush() error {
	err := x.j.Join(&x.c, x.out)
	x.c.Reset()
	x.lines = 0
	return err
}
