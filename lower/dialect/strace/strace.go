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
// The tid is the line's "[pid N]" or bare pid column; on lines without one,
// the ".PID" suffix of the input's name (strace -ff -o NAME writes NAME.PID).
// The pid is the tid's thread group where the log shows the call that made
// the thread (the Joiner learns it), else the tid. The rows of -c, -C and
// -w summary tables are summary records; -e read=/write= hex dumps join
// attrs.dump of their call as -k frames join attrs.stack.
package strace

import (
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/tracekit/tracekit/ast"
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
		// A line's nodes are done with once it is lowered: the parser may
		// reuse them.
		NewLowerer: lowering.JoinedLowerer(NewJoiner, func(cfg lowering.Config, m lowering.MarkedOutput) lowering.Lowerer {
			return New(cfg, m, (&grammar.LineParser{Reuse: true}).Line)
		}),
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

// recBuf is the storage of the record being made: the record, its integers
// and arguments, reused line after line once the output has copied the
// record; attrs maps and nested arguments come from the MarkedOutput,
// which keeps them.
type recBuf struct {
	out   lowering.MarkedOutput
	rec   record.Record
	pid   uint64
	dur   int64
	ret   record.Arg
	args  []record.Arg
	store argStore
}

// setAttr sets an attr of the record, in a map of the output's.
func (b *recBuf) setAttr(key string, v any) {
	if b.rec.Attrs == nil {
		b.rec.Attrs = b.out.Attrs()
	}
	b.rec.Attrs[key] = v
}

// argStore hands out the nested arguments of a record from the output.
type argStore struct{ out lowering.MarkedOutput }

// slice returns n zero arguments.
func (s *argStore) slice(n int) []record.Arg { return s.out.Args(n) }

// Lowerer lowers each line of one trace to a record of its own, with a
// lowering.Mark that tells the Joiner (NewJoiner) what the line is: the
// Joiner pairs the halves of calls, sets ts_ns and joins -k frames, in
// input order.
type Lowerer struct {
	cfg     lowering.Config
	out     lowering.MarkedOutput
	parse   sast.LineParser
	filePID *uint64 // from the input's name, for lines without a pid
	// buf is the storage of the line's record: the output copies the
	// record, so the next line reuses it. base sets the whole record and
	// arguments are appended zero and filled, so nothing old is read.
	buf recBuf
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
	sum      int64 // -r: the stamps added up
}

// New returns a lowering that parses lines with parse and passes each
// line's record and mark to out.
func New(cfg lowering.Config, out lowering.MarkedOutput, parse sast.LineParser) *Lowerer {
	l := &Lowerer{cfg: cfg, out: out, parse: parse, filePID: filePID(cfg.Source)}
	l.buf = recBuf{out: out, store: argStore{out: out}}
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

// Line lowers one line.
func (l *Lowerer) Line(pos ast.Pos, text string) error {
	ln, diags := l.parse(pos, text)
	lowering.Report(l.out, diags)
	return l.lower(ln)
}

// End does nothing: what spans lines is the Joiner's.
func (l *Lowerer) End(ast.Pos) error { return nil }

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
			r.setValue(b.Info)
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
			r.setValue(b.Superseded)
			r.setAttr("by", b.By)
		default:
			r.setValue(b.Status)
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
		if b.Mode != "" {
			r.setAttr("mode", b.Mode)
		}
		return r
	}
	return nil
}

// message is the record of strace's own message written into a line.
func (l *Lowerer) message(ln *sast.Line, m *sast.Message) *recBuf {
	msg := sast.Line{Pos: ln.Pos, Time: ln.Time, Body: m}
	return l.instant(&msg)
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

// base is a record with what every line gives: place, pid and time.
func (l *Lowerer) base(ln *sast.Line, event string, phase record.Phase) *recBuf {
	b := &l.buf
	b.args = b.args[:0]
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
		r.PID = &b.pid // the Joiner makes it the tid and sets the thread group
	case l.filePID != nil:
		b.pid = *l.filePID
		r.PID = &b.pid
	}
	if ln.Time != nil {
		r.Time = ln.Time.Text // the Joiner sets TSNs
	}
	if ln.IP != "" {
		b.setAttr("ip", ln.IP)
	}
	if ln.Comm != "" {
		r.Process = ln.Comm
	}
	if ln.HasNr {
		b.setAttr("nr", ln.Nr)
	}
	return b
}

const (
	day      = int64(86400e9)
	halfDay  = day / 2
	epochMin = int64(1e8) * 1e9 // -ttt stamps are after 1973; smaller ones are -r
)

// ns is ts_ns of a time stamp (its form and its Ns). Times of day (-t,
// -tt) count from the first one, in nanoseconds (the date is not in the
// trace); those that go back by more than 12 hours have passed midnight.
// Seconds before 1973 are -r (since the previous line) and are added up,
// from 0 at the first; others are -ttt or --timestamps=unix (since the
// epoch) and are kept as they are, so that the timeline shows the real date
// and two logs of one run line up.
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
			s.sum = 0
			if !s.relative {
				return tns
			}
			return 0
		}
		if s.relative {
			s.sum += tns
			return s.sum
		}
		return tns // -ttt, --timestamps=unix: since the epoch, kept
	}
}

// setResult fills the return value, errno, duration and result attrs.
func (b *recBuf) setResult(res *sast.Result) {
	if res == nil {
		return
	}
	r := &b.rec
	b.ret = record.Arg{}
	if res.Value != nil {
		b.store.valueInto(&b.ret, res.Value)
	} else {
		b.ret.Kind = record.KindUnknown
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

// setValue makes v, converted, the record's only argument.
func (b *recBuf) setValue(v sast.Value) {
	b.args = append(b.args[:0], record.Arg{})
	b.store.valueInto(&b.args[0], v)
	b.rec.Args = b.args
}

// addArgs appends the converted arguments as to the record's.
func (b *recBuf) addArgs(as []*sast.Arg) {
	n := len(b.args)
	b.args = append(b.args, make([]record.Arg, len(as))...)
	for i, a := range as {
		b.store.argInto(&b.args[n+i], a)
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
		s.argInto(&out[i], a)
	}
	return out
}

// argInto converts a into *d, which is the zero Arg.
func (s *argStore) argInto(d *record.Arg, a *sast.Arg) {
	s.valueInto(d, a.Value)
	if a.Label != nil {
		d.Name = a.Label.Name
	}
	if a.Comment != "" {
		d.Comment = a.Comment
	}
}

// valueInto converts a value of the syntax tree into *d, which is the zero
// Arg (filled a field at a time: an Arg is large, and copying one whole
// into the heap costs a write barrier on each of its pointers); what it
// holds goes into the store.
func (s *argStore) valueInto(d *record.Arg, v sast.Value) {
	switch v := v.(type) {
	case *sast.Int:
		d.SetInt(v.Neg, v.Mag, v.Text)
	case *sast.Float:
		d.Kind, d.Str = record.KindSym, v.Text
	case *sast.HWAddr:
		d.Kind, d.Bytes = record.KindBytes, v.Bytes
	case *sast.String:
		d.Kind, d.Str, d.Text, d.Truncated = record.KindStr, v.Value, v.Text, v.Truncated
	case *sast.Ident:
		if v.Name == "?" {
			d.Kind = record.KindUnknown
			return
		}
		d.Kind, d.Str = record.KindSym, v.Name
	case *sast.Struct:
		d.Kind, d.Fields = record.KindStruct, s.args(v.Members)
	case *sast.Array:
		d.Kind, d.Fields = record.KindArray, s.args(v.Items)
	case *sast.Op:
		ops := s.slice(len(v.Operands))
		for i, o := range v.Operands {
			s.valueInto(&ops[i], o)
		}
		if (v.Op == "=>" || v.Op == "->") && len(ops) == 2 {
			d.Kind, d.In, d.Out = record.KindInOut, &ops[0], &ops[1]
			return
		}
		d.Kind, d.Op, d.Fields = record.KindOp, v.Op, ops
	case *sast.FuncCall:
		d.Kind, d.Str, d.Fields = record.KindCall, v.Name, s.args(v.Args)
	case *sast.FD:
		d.Kind, d.Path, d.Deleted = record.KindFD, v.Path, v.Deleted
		if v.Comment != "" {
			d.Comment = v.Comment
		}
		switch n := v.FD.(type) {
		case *sast.Int:
			d.Neg, d.Mag, d.Text = n.Neg, n.Mag, n.Text
		case *sast.Ident:
			d.Str = n.Name
		}
	case *sast.Resuming:
		d.Kind, d.Comment = record.KindElided, v.Text
	default:
		d.Kind = record.KindElided
	}
}
