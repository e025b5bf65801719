package os2strace_test

import (
	"testing"

	"github.com/tracekit/tracekit/lower/dialect"
	"github.com/tracekit/tracekit/lower/dialect/dialecttest"
	"github.com/tracekit/tracekit/lower/record/recordtest"
)

// FuzzStrace: every line of any input is a record or a skipped line, and
// every record is valid.
func FuzzStrace(f *testing.F) {
	f.Add([]byte(" 1101 a8 1 254:3417264209 0 000000fe\n 2218 a8 2 254:3417264209 0 141e000708000000cc0715390703000001000000598d9303\n 101 14 9 254:3419280448 1 0000000c\n"), 0.0)
	f.Add([]byte("3401 a8 3 1:2 0 -- strace.mte --\n 803 12 1 0:0 2 2600 0100 0002\n 2201 a8 2 0:0 0 ff\n"), 1e6)
	v := recordtest.NewValidator(f)
	f.Fuzz(func(t *testing.T, data []byte, hz float64) {
		res := dialecttest.CheckRun(t, v, "os2strace", dialect.Options{CPUHz: hz}, data)
		if n := int64(dialecttest.NonBlank(data)); res.Summary.Records+res.Summary.Skipped != n {
			t.Fatalf("%d records + %d skipped != %d lines", res.Summary.Records, res.Summary.Skipped, n)
		}
	})
}

// FuzzMTE: as FuzzStrace, for the module table.
func FuzzMTE(f *testing.F) {
	f.Add([]byte("0002 00020000 00004000 0000000d fb1e0828 E:\\OS2\\EPWMP.EXE\n0001 1 2 3 4\n"))
	v := recordtest.NewValidator(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		res := dialecttest.CheckRun(t, v, "os2mte", dialect.Options{}, data)
		if n := int64(dialecttest.NonBlank(data)); res.Summary.Records+res.Summary.Skipped != n {
			t.Fatalf("%d records + %d skipped != %d lines", res.Summary.Records, res.Summary.Skipped, n)
		}
	})
}
