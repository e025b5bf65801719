// Package winstrace lowers the Windows strace output format to records
// (dialect "winstrace").
//
// A line without a marker is a whole call: a complete record. A ">" line
// (start) and a "<" line (end) with the same unique id are paired into one
// complete record, each argument taken from whichever side is not "???"
// (a value known on both sides and different becomes an in-out pair), the
// return value from the end. A half whose partner never comes stays an
// enter or exit record marked unpaired. Only open calls are held: a
// complete record is written when its end arrives, so records come out in
// the order calls end. With Config.NoPair every line is a record of its own.
package winstrace

import (
	"fmt"
	"regexp"
	"slices"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	wsast "github.com/tracekit/tracekit/ast/winstrace"
	grammar "github.com/tracekit/tracekit/grammar/winstrace"
	"github.com/tracekit/tracekit/lower/dialect/lowering"
	"github.com/tracekit/tracekit/lower/record"
)

// Name is the dialect's registry name.
const Name = "winstrace"

// Dialect returns the registry entry.
func Dialect() lowering.Dialect {
	return lowering.Dialect{
		Name:        Name,
		Description: "Windows strace output: [>|<] id [*] pid tid Name[n](args) [== ret], start and end halves paired",
		Patterns:    []string{"*.wst", "*.winstrace"},
		Sniff:       sniff,
		// A line's nodes are done with once it is lowered: the parser may
		// reuse them.
		NewLowerer: lowering.JoinedLowerer(NewJoiner, func(cfg lowering.Config, m lowering.MarkedOutput) lowering.Lowerer {
			return New(cfg, m, (&grammar.LineParser{Reuse: true}).Line)
		}),
		NewParser: func(string) lowering.Parser { return lowering.PerLine(grammar.ParseLine) },
		NewJoiner: NewJoiner,
	}
}

var lineRE = regexp.MustCompile(`^\s*[<>]?\s*\d+\s+(\*\s*)?\d+\s+\d+\s+[A-Za-z_][A-Za-z0-9_]*\s*\[\s*\d+\s*\]\s*\(`)

func sniff(head []byte) bool {
	lines := lowering.FirstLines(head, 4)
	if len(lines) == 0 {
		return false
	}
	for _, l := range lines {
		if !lineRE.Match(l) {
			return false
		}
	}
	return true
}

// Lowerer lowers each line of one trace to a record of its own, with a
// lowering.Mark that tells the Joiner (NewJoiner) whether it is a half to
// pair and its call id.
type Lowerer struct {
	cfg   lowering.Config
	out   lowering.MarkedOutput
	parse wsast.CallParser

	// The record, its integers and top-level arguments are reused from
	// record to record: the output copies them.
	rec      record.Record
	pid, tid uint64
	ret      record.Arg
	a        []record.Arg
	args     argStore
}

// New returns a lowering that parses lines with parse and passes each
// line's record and mark to out.
func New(cfg lowering.Config, out lowering.MarkedOutput, parse wsast.CallParser) *Lowerer {
	return &Lowerer{cfg: cfg, out: out, parse: parse, args: argStore{ext: out}}
}

func (l *Lowerer) warn(p ast.Pos, code diag.Code, msg string) {
	lowering.Warn(l.out, p, code, msg)
}

// Line lowers one line.
func (l *Lowerer) Line(pos ast.Pos, text string) error {
	c, diags := l.parse(pos, text)
	lowering.Report(l.out, diags)
	if c == nil {
		return nil
	}
	if c.Count.Mag != uint64(len(c.Args)) {
		l.warn(c.Count.Pos, wsast.CodeCount, fmt.Sprintf("[%s] announces %s arguments, the line has %d", c.Count.Text, c.Count.Text, len(c.Args)))
	}
	if c.Marker == wsast.Start && c.Ret != nil {
		l.warn(c.Ret.Position(), wsast.CodeRetOnEnter, "a return value on a start (>) line")
	}
	m := lowering.Mark{Kind: markEmit}
	if !l.cfg.NoPair && c.Marker != wsast.NoMarker {
		m = lowering.Mark{Kind: markStart, Key: c.ID.Mag, Pos: c.Pos}
		if c.Marker == wsast.End {
			m.Kind = markEnd
		}
		m.Cols = [2]int{c.ID.Pos.Offset - c.Pos.Offset, c.Count.Pos.Offset - c.Pos.Offset}
	}
	return l.out.RecordMark(l.single(c), m)
}

// End does nothing: what spans lines is the Joiner's.
func (l *Lowerer) End(ast.Pos) error { return nil }

// single is the record of one line.
func (l *Lowerer) single(c *wsast.Call) *record.Record {
	r := l.base(c)
	switch c.Marker {
	case wsast.Start:
		r.Phase = record.Enter
	case wsast.End:
		r.Phase = record.Exit
	default:
		r.Phase = record.Complete
	}
	l.a = l.appendArgs(l.a[:0], c.Args)
	if len(l.a) > 0 {
		r.Args = l.a
	}
	if c.Ret != nil {
		l.ret = record.Arg{}
		l.arg(&l.ret, c.Ret)
		r.Ret = &l.ret
		r.Errno = ntError(l.ret)
	}
	return r
}

func (l *Lowerer) base(c *wsast.Call) *record.Record {
	attrs := l.out.Attrs()
	attrs["id"] = c.ID.Mag
	l.pid, l.tid = c.PID.Mag, c.TID.Mag
	l.rec = record.Record{
		Dialect: l.cfg.Dialect,
		Source:  l.cfg.Source,
		Line:    c.Pos.Line,
		PID:     &l.pid,
		TID:     &l.tid,
		Event:   c.Name.Name,
		Attrs:   attrs,
	}
	r := &l.rec
	if c.Kernel {
		r.Attrs["kernel"] = true
	}
	return r
}

// ntError returns the errno of a return value: a numeric NTSTATUS of error
// severity (its top two bits set: 0xC0000000 to 0xFFFFFFFF, or the same
// 32-bit value written negative) as 0x and eight upper-case hex digits; ""
// for anything else. A symbolic status is not judged: its name does not say
// its severity (STATUS_TIMEOUT and STATUS_PENDING are successes,
// STATUS_BUFFER_OVERFLOW a warning), and tracekit carries no table of them.
func ntError(ret record.Arg) string {
	if ret.Kind != record.KindInt {
		return ""
	}
	v := ret.Mag
	if ret.Neg {
		if v > 1<<31 {
			return ""
		}
		v = 1<<32 - v
	}
	if v < 0xC0000000 || v > 0xFFFFFFFF {
		return ""
	}
	// "0x%08X", without fmt's cost on every error return.
	const digits = "0123456789ABCDEF"
	b := [10]byte{'0', 'x'}
	for i := 9; i >= 2; i-- {
		b[i] = digits[v&0xF]
		v >>= 4
	}
	return string(b[:])
}

// mergeArgs merges the arguments of a start, a, and of its end, b, one by
// one (merge), into the store.
func (s *argStore) mergeArgs(a, b []record.Arg) []record.Arg {
	n := max(len(a), len(b))
	args := s.slice(n)
	for i := range n {
		switch {
		case i >= len(a):
			args[i] = b[i]
		case i >= len(b):
			args[i] = a[i]
		default:
			s.merge(&args[i], &a[i], &b[i])
		}
	}
	return args
}

// merge combines the two sides of one argument into dst, a zero argument
// of the store: whichever is not unknown; in-out pairs and structures of
// the same shape part by part; a value known on both sides and different
// becomes the in-out pair <start|end>. It fills dst in place: an Arg
// copied whole into the heap costs a write barrier on each of its pointers.
func (s *argStore) merge(dst, a, b *record.Arg) {
	switch {
	case a.Kind == record.KindUnknown:
		*dst = *b
		return
	case b.Kind == record.KindUnknown:
		*dst = *a
		return
	case a.Kind == record.KindInOut && b.Kind == record.KindInOut:
		x := s.pair(dst, a.Name)
		s.merge(&x[0], side(a.In), side(b.In))
		s.merge(&x[1], side(a.Out), side(b.Out))
		return
	case a.Kind == record.KindInOut:
		x := s.pair(dst, a.Name)
		x[0] = *side(a.In)
		s.merge(&x[1], side(a.Out), b)
		return
	case b.Kind == record.KindInOut:
		x := s.pair(dst, a.Name)
		s.merge(&x[0], a, side(b.In))
		x[1] = *side(b.Out)
		return
	case a.Kind == record.KindStruct && b.Kind == record.KindStruct && sameShape(a, b):
		fields := s.slice(len(a.Fields))
		for i := range a.Fields {
			s.merge(&fields[i], &a.Fields[i], &b.Fields[i])
			fields[i].Name = a.Fields[i].Name
		}
		dst.Kind, dst.Fields, dst.Name = record.KindStruct, fields, a.Name
		return
	case a.Equal(b):
		*dst = *a
		return
	}
	x := s.pair(dst, a.Name)
	x[0], x[1] = *a, *b
	x[0].Name, x[1].Name = "", ""
}

// pair makes dst, a zero argument, the in-out pair named name of two zero
// arguments of the store, and returns them (in, out) to be filled.
func (s *argStore) pair(dst *record.Arg, name string) []record.Arg {
	x := s.slice(2)
	dst.Kind, dst.In, dst.Out, dst.Name = record.KindInOut, &x[0], &x[1], name
	return x
}

// argStore hands out the nested arguments of a record from ext, which
// keeps them (a chunk).
type argStore struct {
	ext interface{ Args(n int) []record.Arg }
}

// slice returns n zero arguments.
func (s *argStore) slice(n int) []record.Arg { return s.ext.Args(n) }

// unknownArg is the unknown value, read only.
var unknownArg = record.UnknownArg()

// side returns one side of an in-out pair, unknown when missing; it is
// only read.
func side(a *record.Arg) *record.Arg {
	if a == nil {
		return &unknownArg
	}
	return a
}

func sameShape(a, b *record.Arg) bool {
	if len(a.Fields) != len(b.Fields) {
		return false
	}
	for i := range a.Fields {
		if a.Fields[i].Name != b.Fields[i].Name {
			return false
		}
	}
	return true
}

// appendArgs appends the converted values to out.
func (l *Lowerer) appendArgs(out []record.Arg, vs []wsast.Value) []record.Arg {
	n := len(out)
	out = slices.Grow(out, len(vs))[:n+len(vs)]
	for i, v := range vs {
		a := &out[n+i]
		*a = record.Arg{}
		l.arg(a, v)
	}
	return out
}

// arg converts a value of the syntax tree into dst, a zero argument, in
// place (see merge).
func (l *Lowerer) arg(dst *record.Arg, v wsast.Value) {
	switch v := v.(type) {
	case *wsast.Int:
		dst.SetInt(v.Neg, v.Mag, v.Text)
	case *wsast.String:
		dst.Kind, dst.Str, dst.Text = record.KindStr, v.Value, v.Text
	case *wsast.Ident:
		dst.Kind, dst.Str = record.KindSym, v.Name
	case *wsast.Struct:
		fields := l.args.slice(len(v.Fields))
		for i, f := range v.Fields {
			l.arg(&fields[i], f.Value)
			if f.Label != nil {
				fields[i].Name = f.Label.Name
			}
		}
		dst.Kind, dst.Fields = record.KindStruct, fields
	case *wsast.InOut:
		x := l.args.pair(dst, "")
		l.arg(&x[0], v.In)
		l.arg(&x[1], v.Out)
	default:
		dst.Kind = record.KindUnknown
	}
}
