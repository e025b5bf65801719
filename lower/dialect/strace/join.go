package strace

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

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
	markCont              // the rest of a call broken off: Key the pid when flagPID
	markDump              // a line of a -e read=/write= hex dump: Text
	markTable             // a line of a summary table: Text the line, Num its sast.TableKind
	markTip               // a line of a --tips box: Text a tip line's text, Num its sast.TipPart
	kindMask       = 0xf
	flagTime       = 1 << 4 // Num is a time stamp's Ns
	flagUnfinished = 1 << 5 // a second half left unfinished again
	flagPID        = 1 << 6 // the line gave a pid (markCont)
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
	switch b := ln.Body.(type) {
	case *sast.Frame:
		out.Mark(lowering.Mark{Kind: markFrame, Pos: ln.Pos, Text: b.Text})
		return nil
	case *sast.Dump:
		out.Mark(lowering.Mark{Kind: markDump, Pos: ln.Pos, Text: b.Text})
		return nil
	case *sast.Table:
		out.Mark(lowering.Mark{Kind: markTable, Pos: ln.Pos, Text: tableText(b), Num: int64(b.Kind)})
		return nil
	case *sast.Tip:
		out.Mark(lowering.Mark{Kind: markTip, Pos: ln.Pos, Text: b.Text, Num: int64(b.Part)})
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
			if c.Undecoded {
				r.setAttr("undecoded", true)
			}
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
		if c.Undecoded {
			r.setAttr("undecoded", true)
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
	case *sast.Continued:
		r = l.base(ln, "?", record.Exit)
		r.rec.Unpaired = true
		r.addArgs(c.Args)
		if c.Unfinished {
			r.setAttr("unfinished", true)
		}
		if c.Detached {
			r.setAttr("detached", true)
		}
		if c.Undecoded {
			r.setAttr("undecoded", true)
		}
		r.setResult(c.Result)
		m.Kind = m.Kind&^kindMask | markCont
		if ln.PIDForm != sast.NoPID || l.filePID != nil {
			m.Kind |= flagPID
			m.Key = l.key(ln)
		}
		if c.Unfinished {
			m.Kind |= flagUnfinished
		}
	default:
		r = l.instant(ln)
	}
	if r == nil {
		m.Kind = m.Kind&^kindMask | markLine
		out.Mark(m)
		return nil
	}
	if err := out.RecordMark(&r.rec, m); err != nil || ln.Inline == nil {
		return err
	}
	// strace's message that cut the line: a record after the call's.
	r = l.message(ln, ln.Inline)
	r.setAttr("inline", true)
	return out.RecordMark(&r.rec, lowering.Mark{Kind: markEmit, Pos: ln.Inline.Pos})
}

// tableText is a table line rebuilt from its words, each at its column.
func tableText(t *sast.Table) string {
	var b []byte
	for _, w := range t.Words {
		for len(b) < w.Col {
			b = append(b, ' ')
		}
		b = append(b, w.Text...)
	}
	return string(b)
}

// NewJoiner returns the Joiner of the dialect's lowering on several
// goroutines: it pairs the halves of calls, sets ts_ns and joins the -k
// frames to their calls, as one lowering does.
func NewJoiner(cfg lowering.Config) lowering.Joiner {
	return &joiner{cfg: cfg, open: make(map[uint64]*pending), group: make(map[uint64]uint64)}
}

// joiner is the strace Joiner.
type joiner struct {
	cfg     lowering.Config
	open    map[uint64]*pending // unfinished calls by pid
	held    pending             // the last record, passed on at the next line (when hasHeld)
	hasHeld bool
	frames  *pending   // where the next -k frame goes: &held, an open call, or nil
	dumps   *pending   // where the next hex dump line goes, as frames
	fresh   []*pending // open calls whose records are in the chunk at hand
	last    *pending   // the call opened last, which a continuation line without a pid continues
	stamps  stamps
	// group is the thread group (the process) of each thread whose
	// creation was seen: clone/clone3 with CLONE_THREAD puts the new
	// thread in its creator's group; fork, vfork and clone without it
	// start a group of its own. Threads not in it are their own group.
	group map[uint64]uint64
	pids  []uint64 // storage of the pids of threads in a group (pidOf)
	table table
	tip   tip
}

// tip is a --tips box being read: the line of its top (0 when none is
// open) and its text lines.
type tip struct {
	first int
	lines []string
}

// line takes a line of a --tips box; at its bottom the box becomes one
// record: event "tip", its text the tip's lines, blank ones at either end
// cut. The mascot's lines under the box make nothing.
func (t *tip) line(j *joiner, m *lowering.Mark, out lowering.Output) error {
	part := sast.TipPart(m.Num)
	if part == sast.TipArt {
		return nil
	}
	if t.first == 0 {
		t.first = m.Pos.Line
	}
	if part != sast.TipBottom {
		if part == sast.TipText {
			t.lines = append(t.lines, m.Text)
		}
		return nil
	}
	lines := t.lines
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	r := &record.Record{Dialect: j.cfg.Dialect, Source: j.cfg.Source, Line: t.first, Event: "tip", Phase: record.Instant}
	r.Attrs = record.Attrs{"type": "message", "text": strings.Join(lines, "\n")}
	*t = tip{}
	return out.Record(r)
}

// pending is a record held back: its stack frames, and for a call left
// unfinished, the lines of second halves left unfinished again.
type pending struct {
	rec     *record.Record
	key     uint64 // the pid of an open call
	line    ast.Pos
	stack   []string
	dump    []string
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
	if m.Kind&kindMask != markTable {
		j.table.orphans(out)
	}
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
	case markDump:
		if j.dumps == nil {
			out.Diag(diag.Diagnostic{Pos: m.Pos, Severity: diag.Error, Code: sast.CodeLoneFrame, Msg: "a line of a hex dump with no call before it; skipped"}, 1)
			return nil
		}
		p := j.dumps
		p.dump = append(p.dump, m.Text)
		p.setAttr(c, "dump", p.dump)
		return nil
	case markTable:
		if err := j.flush(out); err != nil {
			return err
		}
		return j.table.line(j, m, out)
	case markTip:
		if err := j.flush(out); err != nil {
			return err
		}
		return j.tip.line(j, m, out)
	}
	if err := j.flush(out); err != nil {
		return err
	}
	if m.Rec >= 0 {
		j.thread(&c.Records[m.Rec])
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
		j.frames, j.dumps = p, p
		j.last = p
	case markResumed:
		return j.resumed(c, m, out)
	case markCont:
		// The call continued: the open one of the line's pid, or the
		// last one opened.
		o := j.last
		if m.Kind&flagPID != 0 {
			o = j.open[m.Key]
		}
		if o == nil || j.open[o.key] != o {
			j.hold(&c.Records[m.Rec], m.Pos)
			return nil
		}
		c.Records[m.Rec].Event = o.rec.Event
		m.Key = o.key
		return j.resumed(c, m, out)
	}
	return nil
}

// thread sets the record's pid to its thread's group (its tid is the pid
// of its line), and learns groups from the calls that make threads and
// processes and from strace's "Process N attached" while one of them is
// open.
func (j *joiner) thread(r *record.Record) {
	if r.PID == nil {
		return
	}
	// The line's pid is the tid; one storage for both until the group
	// differs (the chunk's copy of the pid).
	r.TID = r.PID
	if len(j.group) == 0 && r.Event != "attached" {
		return
	}
	tid := *r.TID
	if g, ok := j.group[tid]; ok && g != tid {
		r.PID = j.pidOf(g)
	}
	if r.Event == "attached" && r.Phase == record.Instant && r.Attrs["type"] == "message" {
		// The one clone-family call open made it.
		var maker *pending
		for _, p := range j.open {
			if _, ok := cloneThread(p.rec); ok {
				if maker != nil {
					return // more than one: not known which
				}
				maker = p
			}
		}
		if maker != nil {
			j.made(maker.rec, tid)
		}
	}
}

// pidOf returns storage holding g, for a record's pid: a slab the joiner
// never reuses (records keep pointing to it), so that a pid costs no
// allocation of its own.
func (j *joiner) pidOf(g uint64) *uint64 {
	if len(j.pids) == cap(j.pids) {
		j.pids = make([]uint64, 0, 256)
	}
	j.pids = append(j.pids, g)
	return &j.pids[len(j.pids)-1]
}

// made learns the group of child, made by the call of rec.
func (j *joiner) made(rec *record.Record, child uint64) {
	thread, ok := cloneThread(rec)
	if !ok || rec.TID == nil {
		return
	}
	if _, known := j.group[child]; known {
		return
	}
	if !thread {
		j.group[child] = child
		return
	}
	parent := *rec.TID
	if g, ok := j.group[parent]; ok {
		parent = g
	}
	j.group[child] = parent
}

// learn learns the group of the thread or process a finished call made.
func (j *joiner) learn(rec *record.Record) {
	if rec.Ret == nil || rec.Errno != "" || rec.Ret.Neg || rec.Ret.Mag == 0 || (rec.Ret.Kind != record.KindInt && rec.Ret.Kind != record.KindFD) {
		return
	}
	j.made(rec, rec.Ret.Mag)
}

// cloneFlag is CLONE_THREAD's bit (linux/sched.h).
const cloneFlag = 0x10000

// cloneThread reports whether rec is a call that makes a thread or a
// process (ok), and whether it makes a thread (CLONE_THREAD among its
// flags: clone's flags= argument, clone3's structure's flags= member).
func cloneThread(rec *record.Record) (thread, ok bool) {
	switch rec.Event {
	case "fork", "vfork":
		return false, true
	case "clone", "clone2", "clone3":
	default:
		return false, false
	}
	var flags func(a *record.Arg) bool
	flags = func(a *record.Arg) bool {
		switch a.Kind {
		case record.KindSym:
			return a.Str == "CLONE_THREAD"
		case record.KindInt:
			return a.Mag&cloneFlag != 0
		case record.KindOp:
			for i := range a.Fields {
				if flags(&a.Fields[i]) {
					return true
				}
			}
		}
		return false
	}
	for i := range rec.Args {
		a := &rec.Args[i]
		if a.Kind == record.KindInOut && a.In != nil {
			a = a.In // clone3's {flags=...} => {parent_tid=[N]}
		}
		if a.Name == "flags" {
			return flags(a), true
		}
		if a.Kind == record.KindStruct {
			for k := range a.Fields {
				if a.Fields[k].Name == "flags" {
					return flags(&a.Fields[k]), true
				}
			}
		}
	}
	return false, true
}

// hold holds r until the next line.
func (j *joiner) hold(r *record.Record, line ast.Pos) {
	j.held = pending{rec: r, line: line}
	j.hasHeld = true
	j.frames, j.dumps = &j.held, &j.held
	if r.Phase == record.Complete {
		j.learn(r)
	}
}

// flush passes the held record on.
func (j *joiner) flush(out lowering.Output) error {
	j.frames, j.dumps = nil, nil
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
	if !ok {
		o, ok = j.untagged(m.Key, r.Event)
	}
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
		var args []record.Arg
		if first := r.Args[0]; first.Kind == record.KindInOut && first.In != nil && first.In.Kind == record.KindElided && first.In.Comment == "" && len(o.rec.Args) > 0 {
			// "<... clone3 resumed> => {parent_tid=[N]}": the value
			// the first half ended with goes in.
			n := len(o.rec.Args) - 1
			args = c.Args(n + len(r.Args))
			copy(args, o.rec.Args[:n])
			copy(args[n:], r.Args)
			in := c.Args(1)
			in[0] = o.rec.Args[n]
			args[n].In = &in[0]
		} else {
			args = c.Args(len(o.rec.Args) + len(r.Args))
			copy(args[copy(args, o.rec.Args):], r.Args)
		}
		o.rec.Args = args
		if o.own {
			// The arguments are in the chunk now: o is cloned again.
			o.own = false
			j.fresh = append(j.fresh, o)
		}
	}
	if m.Kind&flagUnfinished != 0 {
		o.resumed = append(o.resumed, m.Pos.Line)
		j.frames, j.dumps = o, o
		return nil
	}
	delete(j.open, o.key)
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
	if r.PID != r.TID {
		// The thread's process became known while the call was open:
		// strace wrote the new thread's first call before its creator's
		// clone3 returned (thread gives a pid of a group its own
		// storage).
		o.rec.PID = r.PID
	}
	j.held = *o
	j.held.own = false // the result is in the chunk
	j.hasHeld = true
	j.frames, j.dumps = &j.held, &j.held
	j.learn(o.rec)
	return nil
}

// untagged finds the open call a second half of pid key continues when
// one of them has no pid: strace -f writing to stderr leaves "[pid N]" out
// while it traces one process only, so a call opened then may be resumed
// with a pid, and one opened with a pid resumed without (key 0). It is the
// open call of that name, when there is exactly one.
func (j *joiner) untagged(key uint64, event string) (*pending, bool) {
	if key != 0 {
		o, ok := j.open[0]
		return o, ok && o.rec.Event == event
	}
	var found *pending
	for _, p := range j.open {
		if p.rec.Event == event {
			if found != nil {
				return nil, false
			}
			found = p
		}
	}
	return found, found != nil
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
	j.table.orphans(out)
	rest := slices.SortedFunc(maps.Values(j.open), func(a, b *pending) int { return cmp.Compare(a.line.Offset, b.line.Offset) })
	clear(j.open)
	for _, p := range rest {
		if err := out.Record(p.unpairedEnter(nil)); err != nil {
			return err
		}
	}
	return nil
}
