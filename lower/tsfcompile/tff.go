package tsfcompile

import (
	"fmt"

	"github.com/tracekit/tracekit/binfmt/tff"
	"github.com/tracekit/tracekit/lower/tsfcheck"
)

// TFFName returns the name TRCUST gives the TFF of a major code: "TRC", the
// major as four upper-case hex digits, ".TFF" (TRC00C2.TFF; TRCUST 3.05A
// writes TRC0100.TFF for major 256, oracle e08b).
func TFFName(major uint16) string { return fmt.Sprintf("TRC%04X.TFF", major) }

// BuildTFF makes the trace format file of a checked module: one record per
// valid tracepoint, @STATIC and dynamic alike, holding its DESC and its FMT
// lines encoded as TRCUST stores them. It returns nil when the module has no
// tracepoint (TRCUST then writes no TFF, oracle e17).
//
// Tracepoints kept with the same minor code (TRCUST's /D) share one format
// record, the first one's: a TFF holds one record per minor code, and the
// malformed file TRCUST 3.05A writes in that case (oracle e26d) is not
// reproduced (docs/compatibility.md).
//
// The records' bytes share one buffer, and their FMT lines one slice, each
// record's cut to its own capacity: a large module makes a few large
// allocations, not three a tracepoint.
func BuildTFF(m *tsfcheck.Module) *tff.File {
	if len(m.Tracepoints) == 0 {
		return nil
	}
	size, lines := 0, 0
	for _, tp := range m.Tracepoints {
		size += len(tp.Desc)
		for _, s := range tp.Fmts {
			size += len(s) + len(s)/3 // AppendFMT adds at most this
		}
		lines += len(tp.Fmts)
	}
	buf := make([]byte, 0, size)
	fmts := make([][]byte, 0, lines)
	f := &tff.File{Major: m.Major, Records: make([]tff.Record, 0, len(m.Tracepoints))}
	var seen [1 << 16]bool
	for _, tp := range m.Tracepoints {
		if seen[tp.Minor] {
			continue
		}
		if tp.Desc == "" && len(tp.Fmts) == 0 {
			// IBM's behaviour: a tracepoint with nothing to format (no DESC,
			// or DESC="", and no FMT) gets no TFF record and is not counted
			// in "# records"; its TDF record is written (a TSF with only
			// such tracepoints gets a TDF and no TFF).
			continue
		}
		seen[tp.Minor] = true
		start := len(buf)
		buf = append(buf, tp.Desc...)
		r := tff.Record{Minor: tp.Minor, Desc: buf[start:len(buf):len(buf)]}
		first := len(fmts)
		for _, s := range tp.Fmts {
			start := len(buf)
			buf = tff.AppendFMT(buf, s)
			fmts = append(fmts, buf[start:len(buf):len(buf)])
		}
		if len(fmts) > first {
			r.Fmts = fmts[first:len(fmts):len(fmts)]
		}
		f.Records = append(f.Records, r)
	}
	if len(f.Records) == 0 {
		return nil
	}
	return f
}
