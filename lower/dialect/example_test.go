package dialect_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/lower/dialect"
	"github.com/tracekit/tracekit/lower/record"
)

// Records reads traces in any registered dialect, told from their content
// here (a Windows strace, whose two halves of call 2 are paired into one
// record), and writes normalized records; a line it cannot read is a
// diagnostic and is skipped. (The text writer holds its lines until Records
// flushes it at the end, so the diagnostic prints first.)
func ExampleRecords() {
	trace := `> 2 100 201 NtReadFile[3](0x10, ???, 512)
< 2 100 201 NtReadFile[3](???, "data", ???) == 0
7 100 203 NtClose[1](0x30) == 0xC0000008
this is no call
`
	in := []dialect.Input{{Name: "t.wst", Reader: strings.NewReader(trace)}}
	w := record.NewText(os.Stdout)
	sum, err := dialect.Records(context.Background(), dialect.Options{KeepGoing: true}, in, w,
		func(d diag.Diagnostic) { fmt.Println(d) })
	fmt.Println(sum, err)
	// Output:
	// t.wst:4:1: error: not a call line: expected the call id (a call line is [>|<] ID [*] PID TID Name[n](arguments) [== result]), found "this" [WST001]
	// t.wst:1 #1 pid=100 tid=201 complete NtReadFile(0x10, "data", 512) = 0 {"exit_line":2,"id":2}
	// t.wst:3 #2 pid=100 tid=203 complete NtClose(0x30) = 0xC0000008 errno=0xC0000008 {"id":7}
	// 1 input, 4 lines, 2 records, 1 line skipped, 0 warnings <nil>
}
