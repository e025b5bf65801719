package winstrace

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	"github.com/tracekit/tracekit/ast"
	wsast "github.com/tracekit/tracekit/ast/winstrace"
	"github.com/tracekit/tracekit/lower/dialect/lowering"
	"github.com/tracekit/tracekit/lower/record"
)

// The kinds of lowering.Mark a lowering for the Joiner passes on with each
// record; a start or an end has Key the call id, Pos the call's, and Cols
// the places of the id and of the argument count.
const (
	markEmit  = iota // a record as it is
	markStart        // a start half
	markEnd          // an end half
)

// NewJoiner returns the Joiner of the dialect's lowering on several
// goroutines: it pairs the halves of calls by id, as one lowering does.
func NewJoiner(cfg lowering.Config) lowering.Joiner {
	return &joiner{open: make(map[uint64]*pending)}
}

// joiner is the winstrace Joiner.
type joiner struct {
	open  map[uint64]*pending // start halves waiting for their end, by call id
	fresh []*pending          // starts whose records are in the chunk at hand
	free  []*pending          // pendings done with, for reuse
}

// Open returns the number of calls started and not yet ended.
func (j *joiner) Open() int { return len(j.open) }

// newPending returns a pending start, reusing one done with.
func (j *joiner) newPending(r *record.Record, id uint64, pos ast.Pos) *pending {
	var p *pending
	if n := len(j.free); n > 0 {
		p, j.free = j.free[n-1], j.free[:n-1]
	} else {
		p = new(pending)
	}
	*p = pending{rec: r, key: id, pos: pos}
	return p
}

// done keeps p for reuse; its record is passed on.
func (j *joiner) done(p *pending) {
	*p = pending{}
	j.free = append(j.free, p)
}

// pending is a start half waiting for its end.
type pending struct {
	rec *record.Record
	key uint64  // the call id
	pos ast.Pos // the call's
	own bool    // rec is a lowering.Clone, not in a chunk
}

// Join pairs the records of a chunk.
func (j *joiner) Join(c *lowering.Chunk, out lowering.Output) error {
	di := 0
	for i := range c.Marks {
		for ; di < len(c.Diags) && c.Diags[di].Marks <= i; di++ {
			out.Diag(c.Diags[di].Diag, c.Diags[di].Skipped)
		}
		if err := j.mark(c, &c.Marks[i], out); err != nil {
			return err
		}
	}
	for ; di < len(c.Diags); di++ {
		out.Diag(c.Diags[di].Diag, c.Diags[di].Skipped)
	}
	for _, p := range j.fresh {
		if !p.own && j.open[p.key] == p { // still open
			cl := lowering.Clone(p.rec)
			p.rec, p.own = &cl, true
		}
	}
	clear(j.fresh)
	j.fresh = j.fresh[:0]
	return nil
}

func (j *joiner) mark(c *lowering.Chunk, m *lowering.Mark, out lowering.Output) error {
	r := &c.Records[m.Rec]
	id := m.Key
	switch m.Kind {
	case markStart:
		if prev, ok := j.open[id]; ok {
			lowering.Warn(out, m.At(0), wsast.CodeReopened, fmt.Sprintf("call id %d started again before it ended (first start at %s); the earlier start stays unpaired", id, prev.pos))
			prev.rec.Unpaired = true
			err := out.Record(prev.rec)
			j.done(prev)
			if err != nil {
				return err
			}
		}
		p := j.newPending(r, id, m.Pos)
		j.open[id] = p
		j.fresh = append(j.fresh, p)
		return nil
	case markEnd:
		start, ok := j.open[id]
		if !ok {
			r.Unpaired = true
			return out.Record(r)
		}
		delete(j.open, id)
		s := start.rec
		if *s.PID != *r.PID || *s.TID != *r.TID || s.Event != r.Event {
			lowering.Warn(out, m.At(0), wsast.CodeMismatch, fmt.Sprintf("the halves of call id %d disagree (start at %s: pid %d tid %d %s; end: pid %d tid %d %s); both stay unpaired",
				id, start.pos, *s.PID, *s.TID, s.Event, *r.PID, *r.TID, r.Event))
			s.Unpaired = true
			if err := out.Record(s); err != nil {
				return err
			}
			r.Unpaired = true
			return out.Record(r)
		}
		err := out.Record(pair(c, start, r, m, out))
		j.done(start)
		return err
	}
	return out.Record(r)
}

// pair is the complete record of a start and its end (r, marked m); its
// arguments are in c.
func pair(c *lowering.Chunk, start *pending, r *record.Record, m *lowering.Mark, out lowering.Output) *record.Record {
	p := start.rec
	p.Phase = record.Complete
	if p.Attrs == nil {
		p.Attrs = c.Attrs()
	}
	p.Attrs["exit_line"] = m.Pos.Line
	if r.Attrs["kernel"] == true {
		p.Attrs["kernel"] = true
	}
	p.AttrsJSON = nil
	a, b := p.Args, r.Args
	if len(a) != len(b) {
		lowering.Warn(out, m.At(1), wsast.CodeHalfArgs, fmt.Sprintf("the start of call id %d (%s) has %d arguments, its end %d", m.Key, start.pos, len(a), len(b)))
	}
	s := argStore{ext: c}
	p.Args = s.mergeArgs(a, b)
	if r.Ret != nil {
		p.Ret = r.Ret
	}
	p.Errno = ""
	if p.Ret != nil {
		p.Errno = ntError(*p.Ret)
	}
	return p
}

// End passes on the starts whose end never came, in line order, as
// unpaired enter records.
func (j *joiner) End(out lowering.Output) error {
	rest := slices.SortedFunc(maps.Values(j.open), func(a, b *pending) int { return cmp.Compare(a.pos.Offset, b.pos.Offset) })
	clear(j.open)
	for _, p := range rest {
		p.rec.Unpaired = true
		if err := out.Record(p.rec); err != nil {
			return err
		}
	}
	return nil
}
