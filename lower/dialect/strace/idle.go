package strace

import "github.com/tracekit/tracekit/lower/dialect/lowering"

// Idle implements lowering.Idler: the input has paused, so the last
// record, held in case -k stack frames follow it, is passed on. Calls left
// unfinished stay open for their resumed halves.
func (j *joiner) Idle(out lowering.Output) error {
	return j.flush(out)
}
