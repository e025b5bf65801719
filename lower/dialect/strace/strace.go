// Package strace lowers Linux (GNU) strace output to records (dialect
// "strace").
//
// A whole call is a complete record. A call left "<unfinished ...>" and its
// "<... name resumed>" of the same pid are paired into one complete record,
// written when the second half arrives: arguments of both halves in order,
// result, errno and -T duration from the second half, line and time stamp
// from the first. A half whose partner never comes is an enter or exit
// record marked unpaired (open calls are written at the end of the input, in
// line order). Signals, process exits and strace's own messages are instant
// records. The stack frames of -k become attrs.stack of the call before
// them, so each record is written one line late. With Config.NoPair the
// halves stay records of their own (enter and exit, not marked unpaired).
//
// The pid is the line's "[pid N]" or bare pid column; on lines without one,
// the ".PID" suffix of the input's name (strace -ff -o NAME writes NAME.PID).
package strace

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	sast "github.com/tracekit/tracekit/ast/strace"
	grammar "github.com/tracekit/tracekit/grammar/strace"
	"github.com/tracekit/tracekit/lower/dialect/lowering"
	"github.com/tracekit/tracekit/lower/record"
)

// Name is the dialect's registry name.
const Name = "strace"

// Dialect returns the registry entry.
func Dialect() lowering.Dialect {
	return lowering.Dialect{
		Name:        Name,
		Description: "Linux strace output (-f, -ff, -t/-tt/-ttt/-r, -T, -i, -y, -k): calls, unfinished/resumed halves paired, signals, exits",
		Patterns:    []string{"*.strace", "*.strace.*"},
		Sniff:       sniff,
		NewLowerer: func(cfg lowering.Config, out lowering.Output) lowering.Lowerer {
			// For the Joiner, a line's nodes are done with once it is
			// lowered: the parser may reuse them.
			_, marked := out.(lowering.MarkedOutput)
			return New(cfg, out, (&grammar.LineParser{Reuse: marked}).Line)
		},
		NewParser: func(string) lowering.Parser { return lowering.PerLine(new(grammar.LineParser).Line) },
		NewJoiner: NewJoiner,
	}
}

// lineRE is the start of a line of strace output: the optional pid and time
// stamp, then a call, a resumed half, a signal, an exit or a message.
var lineRE = regexp.MustCompile(`^(\[pid\s+\d+\]\s+|\d+\s+)?(\d\d:\d\d:\d\d(\.\d+)?\s+|\s*\d+\.\d+\s+)?(\[[0-9a-f?]+\]\s+)?([a-z_][a-z0-9_]*\(|<\.\.\. [a-z0-9_]+ resumed>|--- |\+\+\+ )|^strace: `)

// frameRE is a -k stack frame line.
var frameRE = regexp.MustCompile(`^\s+> \S`)

func sniff(head []byte) bool {
	lines := lowering.FirstLines(head, 4)
	if len(lines) == 0 || !lineRE.Match(lines[0]) {
		return false
	}
	for _, l := range lines[1:] {
		if !lineRE.Match(l) && !frameRE.Match(l) {
			return false
		}
	}
	return true
}

// suffixRE is the ".PID" suffix strace -ff gives its output files.
var suffixRE = regexp.MustCompile(`\.(\d+)$`)

// open is a call left unfinished, waiting for its second half. It keeps
// what it needs of the syntax tree, not the tree: the nodes come from
// chunks, which a long-open call would keep alive with their neighbours.
type open struct {
	name    string
	line    ast.Pos // where the call's line starts
	rec     *recBuf
	resumed []int // lines of second halves that were left unfinished again
}

// recBuf is the storage of one record being made: the record, its attrs,
// integers and arguments. It goes back to the lowering's free list once
// the record is passed on (lowering.Output.Record keeps nothing), so that
// records cost no allocations of their own. With a MarkedOutput (ext),
// attrs maps and nested arguments come from it instead: it keeps them.
type recBuf struct {
	ext   lowering.MarkedOutput
	rec   record.Record
	attrs record.Attrs
	pid   uint64
	ts    int64
	dur   int64
	ret   record.Arg
	args  []record.Arg
	stack []string
	store argStore
}

// setAttr sets an attr of the record, in the buffer's map.
func (b *recBuf) setAttr(key string, v any) {
	if b.rec.Attrs == nil && b.ext != nil {
		b.rec.Attrs = b.ext.Attrs()
	}
	if b.rec.Attrs == nil {
		if b.attrs == nil {
			b.attrs = record.Attrs{}
		}
		b.rec.Attrs = b.attrs
	}
	b.rec.Attrs[key] = v
}

// argStore holds the nested arguments of a record; it grows by new arrays,
// so that earlier slices stay valid, and is emptied when its record is
// done. With ext set, they come from ext instead.
type argStore struct {
	buf []record.Arg
	ext lowering.MarkedOutput
}

func (s *argStore) reset() {
	clear(s.buf)
	s.buf = s.buf[:0]
}

// slice returns n zero arguments.
func (s *argStore) slice(n int) []record.Arg {
	if s.ext != nil {
		return s.ext.Args(n)
	}
	if len(s.buf)+n > cap(s.buf) {
		s.buf = make([]record.Arg, 0, max(32, 2*cap(s.buf), n))
	}
	start := len(s.buf)
	s.buf = s.buf[:start+n]
	return s.buf[start : start+n : start+n]
}

// Lowerer lowers the lines of one trace.
type Lowerer struct {
	cfg     lowering.Config
	out     lowering.Output
	parse   sast.LineParser
	marked  lowering.MarkedOutput // out, when a Joiner pairs the halves
	filePID *uint64               // from the input's name, for lines without a pid
	open    map[uint64]*open      // unfinished calls by pid (0 without one)
	held    *recBuf               // the last record, written at the next line so -k frames can join it
	frames  *recBuf               // where the next -k frame goes: held, or an open call's record
	free    []*recBuf             // record buffers done with, for reuse
	stamps  stamps
	tsNs    int64 // ts_ns of the line being lowered
}

// stamps turns the time stamps of lines, in order, into ts_ns.
type stamps struct {
	clock clockState
	secs  secondsState
}

type clockState struct {
	seen   bool
	origin int64 // time of day of the first stamp, ns
	day    int64 // days passed (midnight rollovers)
	prev   int64 // the previous stamp, rollovers included
}

type secondsState struct {
	seen     bool
	relative bool  // -r: each stamp counts from the previous line
	origin   int64 // -ttt: the first stamp, ns since the epoch
	sum      int64 // -r: the stamps added up
}

// New returns a lowering that parses lines with parse. When out is a
// lowering.MarkedOutput, the lowering makes a record of each line on its
// own and leaves the pairing, the time stamps and the -k frames to the
// Joiner (NewJoiner).
func New(cfg lowering.Config, out lowering.Output, parse sast.LineParser) *Lowerer {
	l := &Lowerer{cfg: cfg, out: out, parse: parse, open: make(map[uint64]*open), filePID: filePID(cfg.Source)}
	l.marked, _ = out.(lowering.MarkedOutput)
	return l
}

// filePID is the pid the ".PID" suffix of an input's name gives, or nil.
func filePID(source string) *uint64 {
	base := path.Base(strings.ReplaceAll(source, `\`, "/"))
	if m := suffixRE.FindStringSubmatch(base); m != nil {
		if v, err := strconv.ParseUint(m[1], 10, 64); err == nil {
			return &v
		}
	}
	return nil
}

// Open returns the number of calls left unfinished and not yet resumed.
func (l *Lowerer) Open() int { return len(l.open) }

func (l *Lowerer) warn(p ast.Pos, code diag.Code, msg string) {
	lowering.Warn(l.out, p, code, msg)
}

// newRec returns an empty record buffer.
func (l *Lowerer) newRec() *recBuf {
	if n := len(l.free); n > 0 {
		b := l.free[n-1]
		l.free = l.free[:n-1]
		return b
	}
	return &recBuf{ext: l.marked, store: argStore{ext: l.marked}}
}

// write passes b's record on and keeps b for reuse.
func (l *Lowerer) write(b *recBuf) error {
	err := l.out.Record(&b.rec)
	l.recycle(b)
	return err
}

// recycle keeps b for reuse.
func (l *Lowerer) recycle(b *recBuf) {
	b.rec = record.Record{}
	clear(b.attrs)
	clear(b.args)
	clear(b.stack)
	b.args, b.stack = b.args[:0], b.stack[:0]
	b.store.reset()
	l.free = append(l.free, b)
}

// flush writes the held record.
func (l *Lowerer) flush() error {
	r := l.held
	l.held, l.frames = nil, nil
	if r == nil {
		return nil
	}
	return l.write(r)
}

// emit holds r until the next line.
func (l *Lowerer) emit(r *recBuf) error {
	if err := l.flush(); err != nil {
		return err
	}
	l.held, l.frames = r, r
	return nil
}

// Line lowers one line.
func (l *Lowerer) Line(pos ast.Pos, text string) error {
	return l.Lower(l.Parse(pos, text))
}

// parsed is what Parse gives Lower: a line or nil, and the diagnostics; a
// line without diagnostics is given as its *sast.Line alone (no
// allocation).
type parsed struct {
	ln    *sast.Line
	diags diag.List
}

func newParsed(ln *sast.Line, diags diag.List) any {
	if len(diags) == 0 && ln != nil {
		return ln
	}
	return parsed{ln, diags}
}

// Parse parses one line (lowering.Staged); it touches only the parser.
func (l *Lowerer) Parse(pos ast.Pos, text string) any {
	return newParsed(l.parse(pos, text))
}

// ParseEnd has nothing to parse at the end of the input.
func (l *Lowerer) ParseEnd(ast.Pos) any { return nil }

// Finish ends the lowering, as End does.
func (l *Lowerer) Finish(_ any, pos ast.Pos) error { return l.End(pos) }

// Lower lowers what Parse returned.
func (l *Lowerer) Lower(p any) error {
	ln, ok := p.(*sast.Line)
	if !ok {
		pr := p.(parsed)
		ln = pr.ln
		lowering.Report(l.out, pr.diags)
	}
	if l.marked != nil {
		return l.lowerMarked(ln)
	}
	if ln == nil {
		l.frames = nil // a frame after a skipped line has no call
		return nil
	}
	if f, ok := ln.Body.(*sast.Frame); ok {
		if l.frames == nil {
			l.out.Diag(diag.Diagnostic{Pos: ln.Pos, Severity: diag.Error, Code: sast.CodeLoneFrame, Msg: "a -k stack frame with no call before it; skipped"}, 1)
			return nil
		}
		b := l.frames
		b.stack = append(b.stack, f.Text)
		b.setAttr("stack", b.stack)
		return nil
	}
	if err := l.flush(); err != nil {
		return err
	}
	// Every stamp counts, a resumed half's too: -r stamps add up, and
	// midnight is passed between any two lines.
	l.tsNs = 0
	if ln.Time != nil {
		l.tsNs = l.stamps.ns(ln.Time.Form, ln.Time.Ns)
	}
	switch b := ln.Body.(type) {
	case *sast.Call:
		return l.call(ln, b)
	case *sast.Resumed:
		return l.resumed(ln, b)
	}
	if r := l.instant(ln); r != nil {
		return l.emit(r)
	}
	return nil
}

// instant is the record of a signal, exit or message line; nil for other
// lines.
func (l *Lowerer) instant(ln *sast.Line) *recBuf {
	switch b := ln.Body.(type) {
	case *sast.Signal:
		r := l.base(ln, b.Name.Name, record.Instant)
		r.setAttr("type", "signal")
		if b.Stopped {
			r.setAttr("stopped", true)
		}
		if b.Info != nil {
			r.setArgs(r.store.value(b.Info))
		}
		if b.Text != "" {
			r.setAttr("text", b.Text)
		}
		return r
	case *sast.Exit:
		r := l.base(ln, "exited", record.Instant)
		r.setAttr("type", "exit")
		switch {
		case b.Killed:
			r.rec.Event = "killed"
			r.setArgs(record.SymArg(b.Signal.Name))
			if b.Core {
				r.setAttr("core_dumped", true)
			}
		case b.Superseded != nil:
			r.rec.Event = "superseded"
			r.setArgs(r.store.value(b.Superseded))
			r.setAttr("by", b.By)
		default:
			r.setArgs(r.store.value(b.Status))
		}
		return r
	case *sast.Message:
		event := b.Verb
		if event == "" {
			event = "message"
		}
		r := l.base(ln, event, record.Instant)
		r.setAttr("type", "message")
		r.setAttr("text", b.Text)
		if b.Verb != "" {
			r.pid = b.Process
			r.rec.PID = &r.pid
		}
		return r
	}
	return nil
}

func (l *Lowerer) key(ln *sast.Line) uint64 {
	if ln.PIDForm != sast.NoPID {
		return ln.PID
	}
	if l.filePID != nil {
		return *l.filePID
	}
	return 0
}

func (l *Lowerer) call(ln *sast.Line, c *sast.Call) error {
	r := l.base(ln, c.Name.Name, record.Complete)
	r.addArgs(c.Args)
	switch {
	case c.Detached:
		r.rec.Phase, r.rec.Unpaired = record.Enter, true
		r.setAttr("detached", true)
		return l.emit(r)
	case c.Unfinished && l.cfg.NoPair:
		r.rec.Phase = record.Enter
		return l.emit(r)
	case c.Unfinished:
		k := l.key(ln)
		if prev, ok := l.open[k]; ok {
			l.warn(c.Pos, sast.CodeReopened, fmt.Sprintf("%s left unfinished while %s (line %d) of the same pid was open; that one stays unpaired", c.Name.Name, prev.name, prev.line.Line))
			if err := l.write(l.unpairedEnter(prev)); err != nil {
				return err
			}
		}
		l.open[k] = &open{name: c.Name.Name, line: ln.Pos, rec: r}
		l.frames = r
		return nil
	}
	r.setResult(c.Result)
	return l.emit(r)
}

func (l *Lowerer) resumed(ln *sast.Line, c *sast.Resumed) error {
	if l.cfg.NoPair {
		r := l.base(ln, c.Name.Name, record.Exit)
		r.addArgs(c.Args)
		if c.Unfinished {
			r.setAttr("unfinished", true)
		}
		if c.Detached {
			r.setAttr("detached", true)
		}
		r.setResult(c.Result)
		return l.emit(r)
	}
	k := l.key(ln)
	o, ok := l.open[k]
	if ok && o.name != c.Name.Name {
		l.warn(c.Name.Pos, sast.CodeMismatch, fmt.Sprintf("%s resumed while %s (line %d) was open for the pid; neither is paired", c.Name.Name, o.name, o.line.Line))
		delete(l.open, k)
		if err := l.write(l.unpairedEnter(o)); err != nil {
			return err
		}
		ok = false
	}
	if !ok {
		r := l.base(ln, c.Name.Name, record.Exit)
		r.rec.Unpaired = true
		r.addArgs(c.Args)
		if c.Detached {
			r.setAttr("detached", true)
		}
		if c.Unfinished {
			r.setAttr("unfinished", true)
		}
		r.setResult(c.Result)
		return l.emit(r)
	}
	r := o.rec
	r.addArgs(c.Args)
	if c.Unfinished {
		o.resumed = append(o.resumed, ln.Pos.Line)
		l.frames = r
		return nil
	}
	delete(l.open, k)
	r.setAttr("exit_line", ln.Pos.Line)
	if len(o.resumed) > 0 {
		r.setAttr("resumed_lines", o.resumed)
	}
	if c.Detached {
		r.setAttr("detached", true)
	}
	r.setResult(c.Result)
	return l.emit(r)
}

// unpairedEnter is the record of a call whose second half never came.
func (l *Lowerer) unpairedEnter(o *open) *recBuf {
	r := o.rec
	r.rec.Phase, r.rec.Unpaired = record.Enter, true
	if len(o.resumed) > 0 {
		r.setAttr("resumed_lines", o.resumed)
	}
	return r
}

// End writes the held record, then the calls never resumed, in line order.
func (l *Lowerer) End(ast.Pos) error {
	if err := l.flush(); err != nil {
		return err
	}
	rest := make([]*open, 0, len(l.open))
	for _, o := range l.open {
		rest = append(rest, o)
	}
	sort.Slice(rest, func(i, j int) bool { return rest[i].line.Offset < rest[j].line.Offset })
	clear(l.open)
	for _, o := range rest {
		if err := l.write(l.unpairedEnter(o)); err != nil {
			return err
		}
	}
	return nil
}

// base is a record with what every line gives: place, pid and time.
func (l *Lowerer) base(ln *sast.Line, event string, phase record.Phase) *recBuf {
	b := l.newRec()
	b.rec = record.Record{
		Dialect: l.cfg.Dialect,
		Source:  l.cfg.Source,
		Line:    ln.Pos.Line,
		Event:   event,
		Phase:   phase,
	}
	r := &b.rec
	switch {
	case ln.PIDForm != sast.NoPID:
		b.pid = ln.PID
		r.PID = &b.pid
	case l.filePID != nil:
		b.pid = *l.filePID
		r.PID = &b.pid
	}
	if ln.Time != nil {
		r.Time = ln.Time.Text
		if l.marked == nil { // else the Joiner sets it
			b.ts = l.tsNs
			r.TSNs = &b.ts
		}
	}
	if ln.IP != "" {
		b.setAttr("ip", ln.IP)
	}
	return b
}

const (
	day      = int64(86400e9)
	halfDay  = day / 2
	epochMin = int64(1e8) * 1e9 // -ttt stamps are after 1973; smaller ones are -r
)

// ns is the distance of a time stamp (its form and its Ns) from the first
// one, in nanoseconds. Times of day (-t, -tt) that go back by more than 12
// hours have passed midnight. Seconds before 1973 are -r (since the
// previous line) and are added up; others are -ttt (since the epoch).
func (st *stamps) ns(form sast.TimeForm, tns int64) int64 {
	switch form {
	case sast.ClockTime:
		c := &st.clock
		if !c.seen {
			c.seen, c.origin, c.prev = true, tns, tns
			return 0
		}
		abs := c.day*day + tns
		if abs < c.prev-halfDay {
			c.day++
			abs += day
		}
		c.prev = abs
		return abs - c.origin
	default:
		s := &st.secs
		if !s.seen {
			s.seen, s.relative = true, tns < epochMin
			if !s.relative {
				s.origin = tns
			}
			s.sum = 0
			return 0
		}
		if s.relative {
			s.sum += tns
			return s.sum
		}
		return tns - s.origin
	}
}

// setResult fills the return value, errno, duration and result attrs.
func (b *recBuf) setResult(res *sast.Result) {
	if res == nil {
		return
	}
	r := &b.rec
	b.ret = record.UnknownArg()
	if res.Value != nil {
		b.ret = b.store.value(res.Value)
	}
	r.Ret = &b.ret
	notes := res.Notes
	if res.Errno != nil {
		r.Errno = res.Errno.Name
		if len(notes) > 0 {
			b.setAttr("errno_text", notes[0].Text)
			notes = notes[1:]
		}
	}
	if len(notes) > 0 {
		texts := make([]string, len(notes))
		for i, n := range notes {
			texts[i] = n.Text
		}
		b.setAttr("ret_note", strings.Join(texts, "; "))
	}
	if res.Unavailable {
		b.setAttr("unavailable", true)
	}
	if res.Dur != nil {
		b.dur = res.Dur.Ns
		r.DurNs = &b.dur
	}
}

// setArgs makes a the record's only argument.
func (b *recBuf) setArgs(a record.Arg) {
	b.args = append(b.args[:0], a)
	b.rec.Args = b.args
}

// addArgs appends the converted arguments as to the record's.
func (b *recBuf) addArgs(as []*sast.Arg) {
	for _, a := range as {
		b.args = append(b.args, b.store.arg(a))
	}
	if len(b.args) > 0 {
		b.rec.Args = b.args
	}
}

// args converts a list of arguments into the store; nil when empty.
func (s *argStore) args(as []*sast.Arg) []record.Arg {
	if len(as) == 0 {
		return nil
	}
	out := s.slice(len(as))
	for i, a := range as {
		out[i] = s.arg(a)
	}
	return out
}

func (s *argStore) arg(a *sast.Arg) record.Arg {
	v := s.value(a.Value)
	if a.Label != nil {
		v.Name = a.Label.Name
	}
	if a.Comment != "" {
		v.Comment = a.Comment
	}
	return v
}

// value converts a value of the syntax tree; what it holds goes into the
// store.
func (s *argStore) value(v sast.Value) record.Arg {
	switch v := v.(type) {
	case *sast.Int:
		return record.IntArg(v.Neg, v.Mag, v.Text)
	case *sast.Float:
		return record.SymArg(v.Text)
	case *sast.String:
		a := record.StrArg(v.Value, v.Text)
		a.Truncated = v.Truncated
		return a
	case *sast.Ident:
		if v.Name == "?" {
			return record.UnknownArg()
		}
		return record.SymArg(v.Name)
	case *sast.Struct:
		return record.StructArg(s.args(v.Members)...)
	case *sast.Array:
		return record.ArrayArg(s.args(v.Items)...)
	case *sast.Op:
		ops := s.slice(len(v.Operands))
		for i, o := range v.Operands {
			ops[i] = s.value(o)
		}
		if (v.Op == "=>" || v.Op == "->") && len(ops) == 2 {
			return record.Arg{Kind: record.KindInOut, In: &ops[0], Out: &ops[1]}
		}
		return record.OpArg(v.Op, ops...)
	case *sast.FuncCall:
		return record.CallArg(v.Name, s.args(v.Args)...)
	case *sast.FD:
		fd := record.Arg{Kind: record.KindFD, Path: v.Decor}
		switch n := v.FD.(type) {
		case *sast.Int:
			fd.Neg, fd.Mag, fd.Text = n.Neg, n.Mag, n.Text
		case *sast.Ident:
			fd.Str = n.Name
		}
		return fd
	case *sast.Resuming:
		e := record.ElidedArg()
		e.Comment = v.Text
		return e
	}
	return record.ElidedArg()
}
