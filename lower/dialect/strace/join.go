package strace

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	sast "github.com/tracekit/tracekit/ast/strace"
	"github.com/tracekit/tracekit/lower/dialect/lowering"
	"github.com/tracekit/tracekit/lower/record"
)

// The kinds of lowering.Mark a lowering for the Joiner passes on, and the
// flags beside them; a time stamp's form is Kind>>formShift.
const (
	markSkipped    = iota // a line that was skipped
	markFrame             // a -k frame: Text
	markLine              // a line that makes no record
	markEmit              // a record as it is
	markOpen              // a call left unfinished: Key the pid
	markResumed           // a second half: Key the pid
	kindMask       = 0xf
	flagTime       = 1 << 4 // Num is a time stamp's Ns
	flagUnfinished = 1 << 5 // a second half left unfinished again
	formShift      = 8
)

// lower lowers a line for the Joiner: a record of the line on its own,
// with a mark that says what the Joiner is to do with it.
func (l *Lowerer) lower(ln *sast.Line) error {
	out := l.out
	if ln == nil {
		out.Mark(lowering.Mark{Kind: markSkipped})
		return nil
	}
	if f, ok := ln.Body.(*sast.Frame); ok {
		out.Mark(lowering.Mark{Kind: markFrame, Pos: ln.Pos, Text: f.Text})
		return nil
	}
	m := lowering.Mark{Kind: markEmit, Pos: ln.Pos}
	if ln.Time != nil {
		m.Kind |= flagTime | int(ln.Time.Form)<<formShift
		m.Num = ln.Time.Ns
	}
	var r *recBuf
	switch c := ln.Body.(type) {
	case *sast.Call:
		r = l.base(ln, c.Name.Name, record.Complete)
		r.addArgs(c.Args)
		switch {
		case c.Detached:
			r.rec.Phase, r.rec.Unpaired = record.Enter, true
			r.setAttr("detached", true)
		case c.Unfinished && l.cfg.NoPair:
			r.rec.Phase = record.Enter
		case c.Unfinished:
			m.Kind = m.Kind&^kindMask | markOpen
			m.Key = l.key(ln)
			m.Cols[0] = c.Pos.Offset - ln.Pos.Offset
		default:
			r.setResult(c.Result)
		}
	case *sast.Resumed:
		r = l.base(ln, c.Name.Name, record.Exit)
		r.rec.Unpaired = !l.cfg.NoPair
		r.addArgs(c.Args)
		if c.Unfinished {
			r.setAttr("unfinished", true)
		}
		if c.Detached {
			r.setAttr("detached", true)
		}
		r.setResult(c.Result)
		if !l.cfg.NoPair {
			m.Kind = m.Kind&^kindMask | markResumed
			m.Key = l.key(ln)
			m.Cols[0] = c.Name.Pos.Offset - ln.Pos.Offset
			if c.Unfinished {
				m.Kind |= flagUnfinished
			}
		}
	default:
		r = l.instant(ln)
	}
	if r == nil {
		m.Kind = m.Kind&^kindMask | markLine
		out.Mark(m)
		return nil
	}
	return out.RecordMark(&r.rec, m)
}

// NewJoiner returns the Joiner of the dialect's lowering on several
// goroutines: it pairs the halves of calls, sets ts_ns and joins the -k
// frames to their calls, as one lowering does.
func NewJoiner(cfg lowering.Config) lowering.Joiner {
	return &joiner{open: make(map[uint64]*pending)}
}

// joiner is the strace Joiner.
type joiner struct {
	open    map[uint64]*pending // unfinished calls by pid
	held    pending             // the last record, passed on at the next line (when hasHeld)
	hasHeld bool
	frames  *pending   // where the next -k frame goes: &held, an open call, or nil
	fresh   []*pending // open calls whose records are in the chunk at hand
	stamps  stamps
}

// pending is a record held back: its stack frames, and for a call left
// unfinished, the lines of second halves left unfinished again.
type pending struct {
	rec     *record.Record
	key     uint64 // the pid of an open call
	line    ast.Pos
	stack   []string
	resumed []int
	own     bool // rec is a lowering.Clone, not in a chunk
}

// clone makes the record the pending one's own.
func (p *pending) clone() {
	cl := lowering.Clone(p.rec)
	p.rec, p.own = &cl, true
}

// setAttr sets an attr of the pending record; a map it needs comes from c
// while the record is in c.
func (p *pending) setAttr(c *lowering.Chunk, key string, v any) {
	if p.rec.Attrs == nil {
		if p.own {
			p.rec.Attrs = record.Attrs{}
		} else {
			p.rec.Attrs = c.Attrs()
		}
	}
	p.rec.Attrs[key] = v
	p.rec.AttrsJSON = nil
}

// Join settles the records of a chunk.
func (j *joiner) Join(c *lowering.Chunk, out lowering.Output) error {
	di := 0
	for i := range c.Marks {
		for ; di < len(c.Diags) && c.Diags[di].Marks <= i; di++ {
			if err := j.diag(&c.Diags[di], out); err != nil {
				return err
			}
		}
		if err := j.mark(c, &c.Marks[i], out); err != nil {
			return err
		}
	}
	for ; di < len(c.Diags); di++ {
		if err := j.diag(&c.Diags[di], out); err != nil {
			return err
		}
	}
	// What is held must outlive the chunk.
	if j.hasHeld && !j.held.own {
		j.held.clone()
	}
	for _, p := range j.fresh {
		if !p.own && j.open[p.key] == p { // still open
			p.clone()
		}
	}
	clear(j.fresh)
	j.fresh = j.fresh[:0]
	return nil
}

// diag passes a diagnostic of the chunk on. One that skips a line first
// passes the held record on: no -k frame can join it past a skipped line,
// and a strict run, which that diagnostic ends, writes it.
func (j *joiner) diag(d *lowering.ChunkDiag, out lowering.Output) error {
	if d.Skipped > 0 {
		if err := j.flush(out); err != nil {
			return err
		}
	}
	out.Diag(d.Diag, d.Skipped)
	return nil
}

func (j *joiner) mark(c *lowering.Chunk, m *lowering.Mark, out lowering.Output) error {
	switch m.Kind & kindMask {
	case markSkipped:
		j.frames = nil // a frame after a skipped line has no call
		return nil
	case markFrame:
		if j.frames == nil {
			out.Diag(diag.Diagnostic{Pos: m.Pos, Severity: diag.Error, Code: sast.CodeLoneFrame, Msg: "a -k stack frame with no call before it; skipped"}, 1)
			return nil
		}
		p := j.frames
		p.stack = append(p.stack, m.Text)
		p.setAttr(c, "stack", p.stack)
		return nil
	}
	if err := j.flush(out); err != nil {
		return err
	}
	if m.Kind&flagTime != 0 {
		ns := j.stamps.ns(sast.TimeForm(m.Kind>>formShift), m.Num)
		if m.Rec >= 0 {
			c.TS[m.Rec] = ns
			c.Records[m.Rec].TSNs = &c.TS[m.Rec]
		}
	}
	switch m.Kind & kindMask {
	case markEmit:
		j.hold(&c.Records[m.Rec], m.Pos)
	case markOpen:
		r := &c.Records[m.Rec]
		if prev, ok := j.open[m.Key]; ok {
			lowering.Warn(out, m.At(0), sast.CodeReopened, fmt.Sprintf("%s left unfinished while %s (line %d) of the same pid was open; that one stays unpaired", r.Event, prev.rec.Event, prev.line.Line))
			if err := out.Record(prev.unpairedEnter(c)); err != nil {
				return err
			}
		}
		p := &pending{rec: r, key: m.Key, line: m.Pos}
		j.open[m.Key] = p
		j.fresh = append(j.fresh, p)
		j.frames = p
	case markResumed:
		return j.resumed(c, m, out)
	}
	return nil
}

// hold holds r until the next line.
func (j *joiner) hold(r *record.Record, line ast.Pos) {
	j.held = pending{rec: r, line: line}
	j.hasHeld = true
	j.frames = &j.held
}

// flush passes the held record on.
func (j *joiner) flush(out lowering.Output) error {
	j.frames = nil
	if !j.hasHeld {
		return nil
	}
	j.hasHeld = false
	err := out.Record(j.held.rec)
	j.held = pending{}
	return err
}

func (j *joiner) resumed(c *lowering.Chunk, m *lowering.Mark, out lowering.Output) error {
	r := &c.Records[m.Rec]
	o, ok := j.open[m.Key]
	if ok && o.rec.Event != r.Event {
		lowering.Warn(out, m.At(0), sast.CodeMismatch, fmt.Sprintf("%s resumed while %s (line %d) was open for the pid; neither is paired", r.Event, o.rec.Event, o.line.Line))
		delete(j.open, m.Key)
		if err := out.Record(o.unpairedEnter(c)); err != nil {
			return err
		}
		ok = false
	}
	if !ok {
		j.hold(r, m.Pos)
		return nil
	}
	if len(r.Args) > 0 {
		args := c.Args(len(o.rec.Args) + len(r.Args))
		copy(args[copy(args, o.rec.Args):], r.Args)
		o.rec.Args = args
		if o.own {
			// The arguments are in the chunk now: o is cloned again.
			o.own = false
			j.fresh = append(j.fresh, o)
		}
	}
	if m.Kind&flagUnfinished != 0 {
		o.resumed = append(o.resumed, m.Pos.Line)
		j.frames = o
		return nil
	}
	delete(j.open, m.Key)
	o.setAttr(c, "exit_line", m.Pos.Line)
	if len(o.resumed) > 0 {
		o.setAttr(c, "resumed_lines", o.resumed)
	}
	for k, v := range r.Attrs {
		switch k {
		case "ip", "unfinished":
		default: // detached and what the result gives
			o.setAttr(c, k, v)
		}
	}
	o.rec.Ret, o.rec.Errno, o.rec.DurNs = r.Ret, r.Errno, r.DurNs
	j.held = *o
	j.held.own = false // the result is in the chunk
	j.hasHeld = true
	j.frames = &j.held
	return nil
}

// unpairedEnter is the record of a call whose second half never came.
func (p *pending) unpairedEnter(c *lowering.Chunk) *record.Record {
	p.rec.Phase, p.rec.Unpaired = record.Enter, true
	if len(p.resumed) > 0 {
		p.setAttr(c, "resumed_lines", p.resumed)
	}
	return p.rec
}

// End passes on the held record, then the calls never resumed, in line
// order.
func (j *joiner) End(out lowering.Output) error {
	if err := j.flush(out); err != nil {
		return err
	}
	rest := slices.SortedFunc(maps.Values(j.open), func(a, b *pending) int { return cmp.Compare(a.line.Offset, b.line.Offset) })
	clear(j.open)
	for _, p := range rest {
		if err := out.Record(p.unpairedEnter(nil)); err != nil {
			return err
		}
	}
	return nil
}
