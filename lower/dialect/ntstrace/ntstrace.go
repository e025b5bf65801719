// Package ntstrace lowers the original strace for NT output format
// (grammar/ntstrace) to records: a whole call is a complete record, its
// input arguments then its output arguments (named out0, out1, ...); a
// call under way (its first line ends after "...") is held until the line
// with the same call id completes it, or written as an unpaired enter
// record at the end of the input. Windows error names (STATUS_...) are the
// errno of a failed call.
package ntstrace

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tracekit/tracekit/ast"
	ntast "github.com/tracekit/tracekit/ast/ntstrace"
	grammar "github.com/tracekit/tracekit/grammar/ntstrace"
	"github.com/tracekit/tracekit/lower/dialect/lowering"
	"github.com/tracekit/tracekit/lower/record"
)

// Dialect returns the registry entry.
func Dialect() lowering.Dialect {
	return lowering.Dialect{
		Name:        "ntstrace",
		Description: "strace for NT output: id pid tid Name (in, ... out, ) == ret, a call under way completed by a later line of its id",
		Patterns:    []string{"*.nts", "*ntstrace*"},
		Sniff: func(head []byte) bool {
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
		},
		NewLowerer: func(cfg lowering.Config, out lowering.Output) lowering.Lowerer {
			return &lowerer{cfg: cfg, out: out, open: map[string]*held{}}
		},
		NewParser: func(string) lowering.Parser { return lowering.PerLine(grammar.ParseLine) },
	}
}

// lineRE is a line's start: three numbers and a name, then "(" or "..."
// (the Windows strace format has Name[n]( instead).
var lineRE = regexp.MustCompile(`^\s*\d+\s+\d+\s+\d+\s+[A-Za-z_][A-Za-z0-9_]*\s*(\(|\.\.\.)`)

// held is a call under way.
type held struct {
	rec  record.Record
	line ast.Pos
}

type lowerer struct {
	cfg    lowering.Config
	out    lowering.Output
	parser grammar.LineParser
	open   map[string]*held // calls under way, by call id
}

func (l *lowerer) Line(pos ast.Pos, text string) error {
	c, diags := l.parser.Line(pos, text)
	lowering.Report(l.out, diags)
	if c == nil {
		return nil
	}
	var nums [3]uint64
	for i, w := range []ntast.Word{c.ID, c.PID, c.TID} {
		v, err := strconv.ParseUint(w.Text, 10, 64)
		if err != nil {
			lowering.Fail(l.out, w.Pos, ntast.CodeNumber, strconv.Quote(w.Text)+" is not a decimal number", 1)
			return nil
		}
		nums[i] = v
	}
	r := record.Record{
		Dialect: l.cfg.Dialect, Source: l.cfg.Source, Line: pos.Line,
		PID: record.Uint(nums[1]), TID: record.Uint(nums[2]), Event: c.Name.Text,
		Attrs: record.Attrs{"id": nums[0]},
	}
	for _, v := range c.In {
		r.Args = append(r.Args, arg(v))
	}
	switch c.Half {
	case ntast.Whole:
		r.Phase = record.Complete
		l.finish(&r, c)
		return l.out.Record(&r)
	case ntast.Start:
		r.Phase = record.Enter
		if old, ok := l.open[c.ID.Text]; ok {
			lowering.Warn(l.out, c.ID.Pos, ntast.CodeReused, fmt.Sprintf("call id %s begun again while %s (line %d) was under way; that one stays unpaired", c.ID.Text, old.rec.Event, old.line.Line))
			delete(l.open, c.ID.Text)
			old.rec.Unpaired = true
			if err := l.out.Record(&old.rec); err != nil {
				return err
			}
		}
		if l.cfg.NoPair {
			return l.out.Record(&r)
		}
		l.open[c.ID.Text] = &held{rec: r, line: pos}
		return nil
	}
	// The end of a call under way.
	h, ok := l.open[c.ID.Text]
	if !ok || l.cfg.NoPair {
		r.Phase = record.Exit
		r.Unpaired = !ok && !l.cfg.NoPair
		l.finish(&r, c)
		return l.out.Record(&r)
	}
	delete(l.open, c.ID.Text)
	if h.rec.Event != c.Name.Text {
		lowering.Warn(l.out, c.Name.Pos, ntast.CodeMismatch, fmt.Sprintf("call id %s ends %s, but %s began it (line %d)", c.ID.Text, c.Name.Text, h.rec.Event, h.line.Line))
	}
	whole := h.rec
	whole.Phase = record.Complete
	whole.Attrs["end_line"] = pos.Line
	l.finish(&whole, c)
	return l.out.Record(&whole)
}

// finish adds a line's output arguments and result to r.
func (l *lowerer) finish(r *record.Record, c *ntast.Call) {
	for i, v := range c.Out {
		a := arg(v)
		if a.Name == "" {
			a.Name = "out" + strconv.Itoa(i)
		}
		r.Args = append(r.Args, a)
	}
	if c.Ret != nil {
		ret := arg(c.Ret)
		r.Ret = &ret
		if c.Ret.Kind == ntast.KindName && isError(c.Ret.Text) {
			r.Errno = c.Ret.Text
		} else if c.Ret.Kind == ntast.KindNumber && ret.Kind == record.KindInt && !ret.Neg && ret.Mag >= 0xC0000000 && ret.Mag <= 0xFFFFFFFF {
			// An NTSTATUS of severity error, written as a number.
			r.Errno = c.Ret.Text
		}
	}
}

// isError reports whether a symbolic NTSTATUS names a failure: the
// success and information codes are STATUS_SUCCESS, STATUS_PENDING,
// STATUS_TIMEOUT and the like, which are no errors.
func isError(name string) bool {
	if !strings.HasPrefix(name, "STATUS_") {
		return false
	}
	return !slices.Contains(successes, name)
}

// successes are the symbolic NTSTATUS values of success and information
// (severity 0 and 1) that a call returns without failing.
var successes = []string{
	"STATUS_SUCCESS", "STATUS_PENDING", "STATUS_TIMEOUT", "STATUS_WAIT_0", "STATUS_ABANDONED", "STATUS_USER_APC",
	"STATUS_ALERTED", "STATUS_REPARSE", "STATUS_MORE_ENTRIES", "STATUS_BUFFER_OVERFLOW", "STATUS_NO_MORE_FILES",
	"STATUS_NO_MORE_ENTRIES", "STATUS_OBJECT_NAME_EXISTS", "STATUS_IMAGE_NOT_AT_BASE",
}

// arg lowers a value.
func arg(v *ntast.Value) record.Arg {
	var a record.Arg
	switch v.Kind {
	case ntast.KindNumber:
		if n, ok := parseInt(v.Text); ok {
			a = n
		} else {
			a = record.SymArg(v.Text)
		}
	case ntast.KindString:
		a = record.StrArg(v.Text, `"`+v.Text+`"`)
	case ntast.KindName:
		a = record.SymArg(v.Text)
	default:
		fields := make([]record.Arg, len(v.Fields))
		for i, f := range v.Fields {
			fields[i] = arg(f)
		}
		a = record.StructArg(fields...)
	}
	a.Name = v.Label
	return a
}

// parseInt reads a decimal or 0x hex integer, with a minus sign.
func parseInt(text string) (record.Arg, bool) {
	s, neg := text, false
	if strings.HasPrefix(s, "-") {
		s, neg = s[1:], true
	}
	base := 10
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		s, base = s[2:], 16
	}
	v, err := strconv.ParseUint(s, base, 64)
	if err != nil {
		return record.Arg{}, false
	}
	return record.IntArg(neg, v, text), true
}

// End writes the calls still under way as unpaired enter records, in the
// order their first halves came.
func (l *lowerer) End(ast.Pos) error {
	rest := make([]*held, 0, len(l.open))
	for _, h := range l.open {
		rest = append(rest, h)
	}
	slices.SortFunc(rest, func(a, b *held) int { return a.line.Line - b.line.Line })
	for _, h := range rest {
		h.rec.Unpaired = true
		if err := l.out.Record(&h.rec); err != nil {
			return err
		}
	}
	return nil
}
