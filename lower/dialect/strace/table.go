package strace

import (
	"slices"
	"strconv"
	"strings"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	sast "github.com/tracekit/tracekit/ast/strace"
	"github.com/tracekit/tracekit/lower/dialect/lowering"
	"github.com/tracekit/tracekit/lower/record"
)

// table reads the summary tables of -c, -C and -w (strace's
// count_syscall report): a header of column names, a rule of dashes whose
// runs are the columns, rows, a rule and the total row. Each row becomes a
// summary record (docs/records.md).
type table struct {
	mode    string // the personality of the table after a title ("32 bit"), until its total row
	header  []word // the header's words
	cols    []column
	pending []int   // the lines of headers and rules since the last row
	first   ast.Pos // where the first of them starts
}

// orphans reports the header and rule lines no row came after, as
// skipped.
func (t *table) orphans(out lowering.Output) {
	if len(t.pending) == 0 {
		return
	}
	out.Diag(diag.Diagnostic{Pos: t.first, Severity: diag.Error, Code: sast.CodeSyntax, Msg: "a summary table's header or rule with no row after it; skipped"}, len(t.pending))
	t.pending = t.pending[:0]
}

// column is a column of the table: its byte span in the line (the run of
// dashes under it) and its name from the header.
type column struct {
	from, to int
	name     string
}

// word is a word of a table line and its column.
type word struct {
	col  int
	text string
}

// words splits a line into its words with their columns.
func words(s string) []word {
	var out []word
	for i := 0; i < len(s); {
		if s[i] == ' ' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] != ' ' {
			j++
		}
		out = append(out, word{i, s[i:j]})
		i = j
	}
	return out
}

// The names of the columns strace writes (-U names them otherwise:
// time, total-time, avg-time, min-time, max-time), and the argument each
// becomes.
var columnArgs = map[string]string{
	"% time":     "percent_time",
	"seconds":    "seconds",
	"usecs/call": "usecs_per_call",
	"calls":      "calls",
	"errors":     "errors",
	"syscall":    "syscall",
	"shortest":   "min_seconds",
	"longest":    "max_seconds",
	"avg":        "usecs_per_call",
	"total":      "seconds",
}

func (t *table) line(j *joiner, m *lowering.Mark, out lowering.Output) error {
	ws := words(m.Text)
	switch sast.TableKind(m.Num) {
	case sast.TableHeader, sast.TableRule, sast.TableTitle:
		if len(t.pending) == 0 {
			t.first = m.Pos
		}
		t.pending = append(t.pending, m.Pos.Line)
	}
	switch sast.TableKind(m.Num) {
	case sast.TableTitle:
		// "System call usage summary for 32 bit mode:"
		t.mode = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(m.Text), "System call usage summary for "), " mode:")
		return nil
	case sast.TableHeader:
		t.header, t.cols = ws, nil
		return nil
	case sast.TableRule:
		if t.header == nil {
			return nil // the rule above the total row
		}
		t.cols = t.cols[:0]
		for _, w := range ws {
			c := column{from: w.col, to: w.col + len(w.text)}
			var names []string
			for _, h := range t.header {
				if h.col < c.to && h.col+len(h.text) > c.from {
					names = append(names, h.text)
				}
			}
			c.name = strings.Join(names, " ")
			t.cols = append(t.cols, c)
		}
		t.header = nil
		return nil
	}
	if len(t.cols) == 0 {
		msg := "a row of a summary table with no header before it; skipped"
		if len(ws) < 3 {
			// A word or two (-U rows can be that short) is as likely a
			// line cut short.
			msg = "not strace output: " + strconv.Quote(strings.TrimSpace(m.Text)) + " is no call, and no row of a summary table (no header before it); skipped"
		}
		out.Diag(diag.Diagnostic{Pos: m.Pos, Severity: diag.Error, Code: sast.CodeSyntax, Msg: msg}, 1)
		return nil
	}
	r := &record.Record{Dialect: j.cfg.Dialect, Source: j.cfg.Source, Line: m.Pos.Line, Phase: record.Instant}
	r.Attrs = record.Attrs{"type": "summary"}
	args := make([]record.Arg, 0, len(t.cols))
	for _, w := range ws {
		// The column the word overlaps most.
		best, most := -1, 0
		for i, c := range t.cols {
			o := min(c.to, w.col+len(w.text)) - max(c.from, w.col)
			if o > most {
				best, most = i, o
			}
		}
		if best < 0 {
			out.Diag(diag.Diagnostic{Pos: m.Pos, Severity: diag.Error, Code: sast.CodeSyntax, Msg: "a word of a summary table row under no column: " + strconv.Quote(w.text) + "; row skipped"}, 1)
			return nil
		}
		name := t.cols[best].name
		if n, ok := columnArgs[name]; ok {
			name = n
		}
		switch name {
		case "syscall":
			r.Event = w.text
			continue
		case "calls", "errors", "usecs_per_call":
			v, err := strconv.ParseUint(w.text, 10, 64)
			if err != nil {
				out.Diag(diag.Diagnostic{Pos: m.Pos, Severity: diag.Error, Code: sast.CodeNumber, Msg: name + " " + strconv.Quote(w.text) + " is not a count; row skipped"}, 1)
				return nil
			}
			args = append(args, record.Arg{Name: name, Kind: record.KindInt, Mag: v, Text: w.text})
		default:
			if name == "seconds" {
				if ns, ok := grammarSecondsNs(w.text); ok {
					r.DurNs = &ns
				}
			}
			args = append(args, record.Arg{Name: name, Kind: record.KindSym, Str: w.text})
		}
	}
	if r.Event == "" {
		out.Diag(diag.Diagnostic{Pos: m.Pos, Severity: diag.Error, Code: sast.CodeSyntax, Msg: "a summary table row with no syscall name; skipped"}, 1)
		return nil
	}
	// A row without errors leaves the column blank.
	has := false
	for _, a := range args {
		has = has || a.Name == "errors"
	}
	if !has {
		for _, c := range t.cols {
			if c.name == "errors" {
				args = append(args, record.Arg{Name: "errors", Kind: record.KindInt, Text: "0"})
			}
		}
	}
	r.Args = args
	if t.mode != "" {
		r.Attrs["mode"] = t.mode
		if r.Event == "total" {
			t.mode = ""
		}
	}
	// The header and rule lines before the row go with it; a row
	// skipped for an error leaves them to the next row, or to orphans.
	if len(t.pending) > 0 {
		r.Attrs["table_lines"] = slices.Clone(t.pending)
		t.pending = t.pending[:0]
	}
	return out.Record(r)
}

// grammarSecondsNs reads SECS.frac as nanoseconds.
func grammarSecondsNs(s string) (int64, bool) {
	sec, frac, _ := strings.Cut(s, ".")
	a, err := strconv.ParseInt(sec, 10, 64)
	if err != nil || len(frac) > 9 || a > 9e9 {
		return 0, false
	}
	f := int64(0)
	for i := 0; i < 9; i++ {
		f *= 10
		if i < len(frac) {
			if frac[i] < '0' || frac[i] > '9' {
				return 0, false
			}
			f += int64(frac[i] - '0')
		}
	}
	return a*1e9 + f, true
}
