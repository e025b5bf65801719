package main

import (
	"encoding/json"
	"fmt"

	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/lower/dialect"
)

// reporter prints the diagnostics of a records run on standard error: at
// the chosen level, as text or JSON, at most --max-errors errors (the rest
// counted), the progress bar cleared first; and the summary at the end, a
// JSON object too under --diagnostics=json, so that every line is JSON.
type reporter struct {
	e        *env
	min      diag.Severity
	json     bool
	maxErr   int
	errors   int
	withheld int
}

// reporter returns the reporter of the command's flags.
func (c *recordsCmd) reporter(e *env, min diag.Severity) *reporter {
	return &reporter{e: e, min: min, json: c.Diagnostics == "json", maxErr: c.MaxErrors}
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
	} else {
		l.WriteText(r.e.stderr)
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
		fmt.Fprintf(r.e.stderr, "tracekit records: %d more errors not shown (--max-errors %d)\n", r.withheld, r.maxErr)
	}
	fmt.Fprintf(r.e.stderr, "tracekit records: %s\n", sum)
}
