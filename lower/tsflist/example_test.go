package tsflist_test

import (
	"os"

	"github.com/tracekit/tracekit/binfmt/tff"
	"github.com/tracekit/tracekit/lower/tsflist"
)

// A TFF read back as the TSF that compiles to it, printed by the ast/tsf
// printer (IBM's TFFLST did the same).
func ExampleTFF() {
	f := &tff.File{Major: 0xC2, Records: []tff.Record{{
		Minor: 1, Desc: []byte(`open "file"`),
		Fmts: [][]byte{tff.EncodeFMT([]byte("handle = %W")), tff.EncodeFMT([]byte("%P %S"))},
	}}}
	l, err := tsflist.TFF(f)
	if err := tsflist.Write(os.Stdout, l, err); err != nil {
		panic(err)
	}
	// Output:
	// ; TSF listing of a trace format file: major 0x00C2, 1 records
	// MAJOR = 0x00C2
	//
	// TRACE MINOR=0x0001,
	//   TP=@STATIC,
	//   DESC="open \"file\"",
	//   FMT="handle = %W",
	//   FMT="%P%S"
}
