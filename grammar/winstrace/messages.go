package winstrace

import "github.com/tracekit/tracekit/grammar/internal/lineconv"

// callWords says what each failure point of a call line expects, in the
// words of the Windows strace format (TestWords keeps it complete): a call
// line is "[>|<] ID [*] PID TID Name[n](args) [== ret]".
var callWords = lineconv.Words{
	`Number "*"? Number Number Identifier "[" Number "]" "(" (Value ("," Value)*)? ")" ("==" Value)?`: "the call id (a call line is [>|<] ID [*] PID TID Name[n](arguments) [== result])",
	`"*"? Number Number Identifier "[" Number "]" "(" (Value ("," Value)*)? ")" ("==" Value)?`:        "the process id (or '*') after the call id",
	`Number Number Identifier "[" Number "]" "(" (Value ("," Value)*)? ")" ("==" Value)?`:             "the process id after the call id",
	`Number Identifier "[" Number "]" "(" (Value ("," Value)*)? ")" ("==" Value)?`:                    "the thread id after the process id",
	`Identifier "[" Number "]" "(" (Value ("," Value)*)? ")" ("==" Value)?`:                           "the name of the call after the thread id",
	`"[" Number "]" "(" (Value ("," Value)*)? ")" ("==" Value)?`:                                      "'[' and the argument count after the call's name",
	`Number "]" "(" (Value ("," Value)*)? ")" ("==" Value)?`:                                          "the argument count after '['",
	`"]" "(" (Value ("," Value)*)? ")" ("==" Value)?`:                                                 "']' after the argument count",
	`"(" (Value ("," Value)*)? ")" ("==" Value)?`:                                                     "'(' and the arguments after the argument count",
	`Value`:        "a value (a number, a string, a name, {fields} or <in|out>)",
	`("," Value)*`: "',' and another argument, or ')'",
	`(Value ("," Value)*)? ")" ("==" Value)?`: "an argument or ')'",
	`")" ("==" Value)?`:                       "')' after the arguments",
	`("==" Value)?`:                           "'== result' or the end of the line after ')'",
	`("=" Value)?`:                            "'= value' or the next field",
	`Value "|" Value ">"`:                     "the in value of <in|out>",
	`"|" Value ">"`:                           "'|' between the in and out values",
	`Value ">"`:                               "the out value after '|'",
	`">"`:                                     "'>' closing <in|out>",
	`Field`:                                   "a field of the structure",
	`("," Field)*`:                            "',' and another field, or '}'",
	`(Field ("," Field)*)? "}"`:               "a field or '}'",
	`"}"`:                                     "'}' closing the structure",
}
