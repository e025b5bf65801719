package prf

import "github.com/tracekit/tracekit/grammar/internal/lineconv"

// dumpWords says what each failure point of a line of the dump form
// (cprfed -Dump) expects, in the words of the PRF trace (TestWords keeps it
// complete).
var dumpWords = lineconv.Words{
	`Item "-" Item`:                        "a client as IP address, process id - communication number",
	`"-" Item`:                             "'-' and the communication number after the process id",
	`Item`:                                 "a word",
	`ApValue`:                              "an AP value: IP address, process id - communication number",
	`("RootAP:" ApValue)?`:                 "'RootAP:' or the end of the line",
	`HeadLine`:                             "the record's status after 'PRF:'",
	`Words`:                                "words",
	`EventLine`:                            "the event id after 'Event:'",
	`ClientLine`:                           "the client AP after 'ClientAP:'",
	`NamesLine`:                            "the INT name",
	`ScdLine`:                              "the SendSCD value",
	`TimeItem`:                             "the date and the clock time after 'Time:'",
	`("Time:" TimeItem)?`:                  "'Time:' or the end of the line",
	`("Process:" Item)? ("Thread:" Item)?`: "'Process:', 'Thread:' or the end of the line",
	`("Thread:" Item)?`:                    "'Thread:' or the end of the line",
	`(Key Words)?`:                         "a key (OPR:, ReceiveSCD:) or the end of the line",
	`Item+`:                                "the column headings (+0 … +f) after 'Offset'",
	`Item Item?`:                           "the clock time after the date",
	`Item?`:                                "the sub-second part or the end of the line",
}

// hexWords says what each failure point of a hex-dump line expects.
var hexWords = lineconv.Words{
	`Item*`: "hex bytes after the offset",
}
