package os2strace

import "github.com/tracekit/tracekit/grammar/internal/lineconv"

// hookWords says what each failure point of a hook line expects, in the
// words of the STRACE POST dump (TestWords keeps it complete): a hook line
// is "TYPE MAJOR MINOR HIGH:LOW CPU DATA...", hex words but for the time
// stamp's decimal halves.
var hookWords = lineconv.Words{
	"Word Word Word <colon> Word Word Word*": "the hook type (a hook line is TYPE MAJOR MINOR HIGH:LOW CPU DATA..., hex but for the time stamp)",
	"Word Word <colon> Word Word Word*":      "the major code (a hex word) after the hook type",
	"Word <colon> Word Word Word*":           "the minor code (a hex word) after the major code",
	"<colon> Word Word Word*":                "a time stamp HIGH:LOW (two decimal halves joined by ':') after the minor code",
	"Word Word Word*":                        "the time stamp's low half after ':'",
	"Word Word*":                             "the processor number after the time stamp",
	"Word*":                                  "data words (hex) or the end of the line",
}

// moduleWords says what each failure point of a module-table line
// (STRACE.MTE) expects: "SEGMENT LINEAR SIZE PID PTDA MODULE".
var moduleWords = lineconv.Words{
	"Word Word Word Word Word*": "the segment (a module-table line is SEGMENT LINEAR SIZE PID PTDA MODULE, in hex)",
	"Word Word Word Word*":      "the linear address (hex) after the segment",
	"Word Word Word*":           "the size (hex) after the linear address",
	"Word Word*":                "the process id (hex) after the size",
	"Word*":                     "the PTDA address (hex) and the module name",
}
