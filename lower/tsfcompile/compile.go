// Package tsfcompile is the TSF compiler pipeline: Run parses a Trace
// Source File (grammar/tsfparse), checks it (lower/tsfcheck), finds and
// reads the module and its MAP file, and hands the checked module to the
// back ends that build the TFF and the TDF (lower/tdfgen). The modern
// command line (cmd/tracekit) and the TRCUST-compatible one (cmd/trcust)
// both call Run; they differ only in where they look for files and in how
// they print.
package tsfcompile

import (
	"slices"

	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/ast/tsf"
	"github.com/tracekit/tracekit/grammar/tsfparse"
	"github.com/tracekit/tracekit/lower/tdfgen"
	"github.com/tracekit/tracekit/lower/tsfcheck"
)

// Check parses and checks the TSF src, named name in diagnostics. The
// diagnostics are sorted by position and end at the first fatal or severe
// one, as TRCUST stops there.
func Check(name string, src []byte, opt tsfcheck.Options) (*tsfcheck.Module, diag.List) {
	// Compact, as Run: the tree of a large TSF is not held whole.
	m, diags := check(name, src, 0, opt, true)
	// Without the back end, the errors it would give last are given here
	// (tsfcheck.Tracepoint.Late), so that check reports what compile
	// would.
	kept := m.Tracepoints[:0:0]
	var late diag.List
	for _, tp := range m.Tracepoints {
		if tp.Late != nil {
			late = append(late, *tp.Late)
			continue
		}
		kept = append(kept, tp)
	}
	if len(late) > 0 {
		m.Tracepoints = kept
		diags = tsfcheck.Merge(diags, late)
	}
	// And the duplicate minor codes, found among the tracepoints kept.
	return m, append(diags, dedupeMinors(m)...)
}

// dedupeMinors drops the tracepoints of m whose minor code another one has
// (tdfgen.DedupeMinors) and returns the errors.
func dedupeMinors(m *tsfcheck.Module) diag.List {
	dropped, diags := tdfgen.DedupeMinors(m, m.Tracepoints)
	if len(dropped) > 0 {
		m.Tracepoints = slices.DeleteFunc(slices.Clone(m.Tracepoints), func(tp *tsfcheck.Tracepoint) bool { return dropped[tp] })
	}
	return diags
}

// check is Check with the scanner's mode; with compact, it checks every statement as soon as it is
// parsed and drops each valid @STATIC TRACE statement, from the tree and
// from its tracepoint, once the tracepoint holds what the TFF needs (see
// Result.Module), so that the syntax tree of a large TSF is not held
// whole.
func check(name string, src []byte, mode tsfparse.Mode, opt tsfcheck.Options, compact bool) (*tsfcheck.Module, diag.List) {
	if !compact {
		f, parsed := tsfparse.ParseMode(name, src, mode)
		m, checked := tsfcheck.Check(f, opt)
		return m, tsfcheck.Merge(tsfcheck.DropSuperseded(parsed, m), checked)
	}
	c := tsfcheck.NewChecker(opt)
	f, parsed := tsfparse.ParseEach(name, src, mode, func(s tsf.Stmt) bool {
		tp := c.Stmt(s)
		if tp == nil || !tp.Static() {
			return true
		}
		// Its ORBIT node, if any, is none the parser reuses.
		tp.Node, tp.TPField = nil, nil
		return false
	})
	m, checked := c.Finish(f)
	return m, tsfcheck.Merge(tsfcheck.DropSuperseded(parsed, m), checked)
}
