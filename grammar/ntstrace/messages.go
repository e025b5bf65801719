package ntstrace

import "github.com/tracekit/tracekit/grammar/internal/lineconv"

// callWords says what each failure point of a line expects, in the words
// of the strace for NT format (TestWords keeps it complete): a line is
// "ID PID TID Name (in, ... out, ) == result", or a half of one.
var callWords = lineconv.Words{
	`"="`:   "'=' after a field's name",
	`Value`: "a value (a number, a name, a string or {fields})",
	`Number Number Identifier "("? (Arg ","?)* <ellipsis>? (Arg ","?)* ")"? ("==" Value)?`: "the process id after the call id (a line is ID PID TID Name (in, ... out, ) == result)",
	`Number Identifier "("? (Arg ","?)* <ellipsis>? (Arg ","?)* ")"? ("==" Value)?`:        "the thread id after the process id",
	`Identifier "("? (Arg ","?)* <ellipsis>? (Arg ","?)* ")"? ("==" Value)?`:               "the name of the call after the thread id",
	`"("? (Arg ","?)* <ellipsis>? (Arg ","?)* ")"? ("==" Value)?`:                          "'(' and the arguments, or '...', after the call's name",
	`","?`: "',' or the next argument",
	`(Arg ","?)* <ellipsis>? (Arg ","?)* ")"? ("==" Value)?`: "an argument, '...', ')' or the end of the line",
	`<ellipsis>? (Arg ","?)* ")"? ("==" Value)?`:             "'...' between the input and the output arguments",
	`(Arg ","?)* ")"? ("==" Value)?`:                         "an output argument or ')'",
	`")"? ("==" Value)?`:                                     "')' after the arguments",
	`("==" Value)?`:                                          "'== result' or the end of the line",
	`(Arg ","?)* "}"`:                                        "a field or '}'",
	`"}"`:                                                    "'}' closing the structure",
}
