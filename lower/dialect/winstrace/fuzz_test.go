package winstrace_test

import (
	"testing"

	"github.com/tracekit/tracekit/lower/dialect"
	"github.com/tracekit/tracekit/lower/dialect/dialecttest"
	"github.com/tracekit/tracekit/lower/record/recordtest"
)

// FuzzLower: paired or not, every line of any input ends up in exactly one
// record (a paired record holds two) or is skipped, and every record is
// valid.
func FuzzLower(f *testing.F) {
	f.Add([]byte("> 1 * 100 200 NtOpenFile[2](???, {a=1})\n< 1 100 200 NtOpenFile[2](5, <1|???>) == STATUS_SUCCESS\n< 2 1 1 F[0]()\n> 3 1 1 G[1](\"x\\y\")\n"), false)
	f.Add([]byte("> 1 1 1 F[1](<1|2>)\n< 1 1 1 F[1](<3|???>)\n> 1 1 1 F[0]()\n> 1 1 2 F[0]()\n< 1 1 3 F[0]()\n"), true)
	v := recordtest.NewValidator(f)
	f.Fuzz(func(t *testing.T, data []byte, noPair bool) {
		res := dialecttest.CheckRun(t, v, "winstrace", dialect.Options{NoPair: noPair}, data)
		lines := res.Summary.Skipped
		for _, r := range res.Records {
			lines++
			if attrs, ok := r["attrs"].(map[string]any); ok && attrs["exit_line"] != nil {
				lines++
				if noPair {
					t.Fatalf("a paired record with NoPair: %v", r)
				}
			}
		}
		if n := int64(dialecttest.NonBlank(data)); lines != n {
			t.Fatalf("%d lines accounted for, %d in the input", lines, n)
		}
	})
}
