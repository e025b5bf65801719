// Package tsfcompile is the TSF compiler pipeline: Run parses a Trace
// Source File (grammar/tsfparse), checks it (lower/tsfcheck), finds and
// reads the module and its MAP file, and hands the checked module to the
// back ends that build the TFF and the TDF (lower/tdfgen). The modern
// command line (cmd/tracekit) and the TRCUST-compatible one (cmd/trcust)
// both call Run; they differ only in where they look for files and in how
// they print.
package tsfcompile

import (
	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/grammar/tsfparse"
	"github.com/tracekit/tracekit/lower/tsfcheck"
)

// Check parses and checks the TSF src, named name in diagnostics. The
// diagnostics are sorted by position and end at the first fatal or severe
// one, as TRCUST stops there.
func Check(name string, src []byte, opt tsfcheck.Options) (*tsfcheck.Module, diag.List) {
	f, parsed := tsfparse.Parse(name, src)
	m, checked := tsfcheck.Check(f, opt)
	return m, tsfcheck.Merge(parsed, checked)
}
