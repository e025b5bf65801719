package tsfcompile_test

import (
	"fmt"
	"os"

	"github.com/tracekit/tracekit/lower/tsfcheck"
	"github.com/tracekit/tracekit/lower/tsfcompile"
)

// The compiler's front end and TFF back end on a TSF of static
// tracepoints (no executable module needed): check, then build the TFF
// TRCUST would write, with its name. A TSF with dynamic tracepoints goes
// on through OpenModule, OpenMap and Compile to the TDF.
func Example() {
	src := []byte(`MODNAME = example.dll
MAJOR = 0xC2
TRACE MINOR=1, TP=@STATIC, DESC="open", FMT="handle = %W"
TRACE MINOR=2, TP=@STATIC, TYPE=(PRE), DESC="close", FMT="rc = %W"
`)
	m, diags := tsfcompile.Check("example.tsf", src, tsfcheck.Options{})
	if err := diags.WriteText(os.Stdout); err != nil || diags.Failed() {
		return
	}
	tff := tsfcompile.BuildTFF(m)
	data, _ := tff.MarshalBinary()
	fmt.Printf("%s: %d records, %d bytes\n", tsfcompile.TFFName(m.Major), len(tff.Records), len(data))
	// Output:
	// example.tsf:4:28: warning: TYPE has no effect on a @STATIC tracepoint, ignored [TRC204]
	// example.tsf:4:34: warning: typename unknown: PRE, ignored [TRC130]
	// TRC00C2.TFF: 2 records, 113 bytes
}
