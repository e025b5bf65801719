package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/lower/dialect"
)

// reporter prints the diagnostics of a records run on standard error: at
// the chosen level, as text or JSON, at most --max-errors errors (the rest
// counted), the progress bar cleared first; and the summary at the end, a
// JSON object too under --diagnostics=json, so that every line is JSON.
type reporter struct {
	e        *env
	name     string // the command, for the summary line
	min      diag.Severity
	json     bool
	maxErr   int
	errors   int
	withheld int
	files    map[string]*os.File // the inputs sourceLine reads lines from
}

// newReporter returns the reporter of a command's flags.
func newReporter(e *env, name string, f diagFlags, min diag.Severity, maxErrors int) *reporter {
	return &reporter{e: e, name: name, min: min, json: f.Diagnostics == "json", maxErr: maxErrors}
}

// report prints one diagnostic.
func (r *reporter) report(d diag.Diagnostic) {
	if d.Severity < r.min {
		return
	}
	if d.Severity >= diag.Error {
		r.errors++
		if r.maxErr > 0 && r.errors > r.maxErr {
			r.withheld++
			return
		}
	}
	r.e.signals.clearBar()
	l := diag.List{d}
	if r.json {
		l.WriteJSON(r.e.stderr)
		return
	}
	l.WriteText(r.e.stderr)
	if line, ok := r.sourceLine(d.Pos); ok {
		diag.WriteSource(r.e.stderr, line, d.Pos.Col)
	}
}

// maxSourceLine is the most of a line shown under a diagnostic.
const maxSourceLine = 200

// sourceLine reads the line a diagnostic is on from its file, for the
// caret display: only from a regular file (not standard input or a pipe,
// which cannot be read again), and only when the position is a line and
// column within it.
func (r *reporter) sourceLine(p ast.Pos) (string, bool) {
	if p.File == "" || p.File == "-" || p.Line < 1 || p.Col < 1 || p.Offset < p.Col-1 {
		return "", false
	}
	if r.files == nil {
		r.files = map[string]*os.File{}
	}
	f, seen := r.files[p.File]
	if !seen {
		if st, err := os.Stat(p.File); err == nil && st.Mode().IsRegular() {
			f, _ = os.Open(p.File)
		}
		r.files[p.File] = f
	}
	if f == nil {
		return "", false
	}
	buf := make([]byte, maxSourceLine+1)
	n, _ := f.ReadAt(buf, int64(p.Offset-(p.Col-1)))
	line := buf[:n]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	} else if n > maxSourceLine {
		line = line[:maxSourceLine]
	}
	line = bytes.TrimSuffix(line, []byte("\r"))
	if p.Col-1 > len(line) {
		return "", false
	}
	return string(line), true
}

// close closes the files sourceLine opened.
func (r *reporter) close() {
	for _, f := range r.files {
		if f != nil {
			f.Close()
		}
	}
}

// summaryJSON is the summary line under --diagnostics=json.
type summaryJSON struct {
	Summary struct {
		Inputs   int   `json:"inputs"`
		Lines    int64 `json:"lines"`
		Records  int64 `json:"records"`
		Skipped  int64 `json:"skipped"`
		Warnings int64 `json:"warnings"`
		Errors   int64 `json:"errors"`
		Failed   int   `json:"failed"`
		Withheld int   `json:"errors_not_shown"`
	} `json:"summary"`
}

// end prints the summary of the run.
func (r *reporter) end(sum dialect.Summary) {
	r.close()
	if r.e.signals != nil && r.e.signals.ended.Load() {
		// The run is ending on a signal, its outputs removed: counts of
		// records no file holds would mislead.
		return
	}
	if r.json {
		var s summaryJSON
		s.Summary.Inputs, s.Summary.Lines, s.Summary.Records = len(sum.Inputs), sum.Lines, sum.Records
		s.Summary.Skipped, s.Summary.Warnings, s.Summary.Errors = sum.Skipped, sum.Warnings, sum.Errors
		s.Summary.Failed, s.Summary.Withheld = sum.Failed, r.withheld
		b, _ := json.Marshal(s)
		fmt.Fprintf(r.e.stderr, "%s\n", b)
		return
	}
	if r.withheld > 0 {
		fmt.Fprintf(r.e.stderr, "tracekit %s: %d more errors not shown (--max-errors %d)\n", r.name, r.withheld, r.maxErr)
	}
	fmt.Fprintf(r.e.stderr, "tracekit %s: %s\n", r.name, sum)
}
