package strace

import "github.com/tracekit/tracekit/grammar/internal/lineconv"

// lineWords says what each failure point of a line of strace output
// expects, in strace's own terms (TestWords keeps it complete): a line is
// [pid] [time] [ip] then a call "name(args) = result", a resumed half
// "<... name resumed> args) = result", a signal "--- SIGNAME {...} ---" or
// an exit "+++ exited with N +++".
var lineWords = lineconv.Words{
	`((<ident> ("(" Elem* ")")?) | <number> | (<string> "..."?) | (("{" | "[") Elem* ("}" | "]")) | <fd> | <float> | "..." | <resuming> | "?" | ("(" Expr ")"))`: "a value (a number, a string, a name, a flag, {...}, [...] or a call)",
	`Primary`:               "a value after the operator",
	`"(" Elem* Tail`:        "'(' and the arguments after the call's name",
	`Elem* Tail`:            "an argument, ')' or <unfinished ...>",
	`Tail`:                  "')' and the result, or <unfinished ...>",
	`Binop* ("=" Expr)?`:    "an operator, '=' or the end of the value",
	`Expr`:                  "a value",
	`("=" Expr)?`:           "'=' and a value, or the end of the value",
	`ExitWord+ "+++"`:       "what ended the process (exited with N, killed by SIGNAME) after '+++'",
	`"+++"`:                 "'+++' closing the exit line",
	`Binop*`:                "an operator or the end of the value",
	`(<number> | "?"+) "]"`: "the instruction pointer after '['",
	`"]"`:                   "']' after the instruction pointer",
	`PrefixTok?`:            "a time stamp or the call",
	`IpTok? (Call | Resumed | Signal | Exit)`: "a call, a resumed half (<... name resumed>), a signal (---) or an exit (+++)",
	`(Call | Resumed | Signal | Exit)`:        "a call, a resumed half (<... name resumed>), a signal (---) or an exit (+++)",
	`NoteItem* ")"`:                           "')' closing the note",
	`")"`:                                     "')'",
	`Elem* ")"`:                               "an argument or ')'",
	`("(" Elem* ")")?`:                        "'(' and arguments, or the end of the name",
	`"..."?`:                                  "'...' or the end of the string",
	`Elem* ("}" | "]")`:                       "a member, '}' or ']'",
	`("}" | "]")`:                             "'}' or ']' closing the structure or array",
	`Expr ")"`:                                "a value and ')'",
	`("?" | Expr) <comment>? Ident? Note* <unavailable>? DurTok?`: "the return value after '='",
	`<comment>? Ident? Note* <unavailable>? DurTok?`:              "an error name (E...), a note in parentheses, <unavailable>, the time spent <...> or the end of the line after the return value",
	`Ident? Note* <unavailable>? DurTok?`:                         "an error name (E...), a note in parentheses, the time spent <...> or the end of the line",
	`Note* <unavailable>? DurTok?`:                                "a note in parentheses, the time spent <...> or the end of the line",
	`<unavailable>? DurTok?`:                                      "the time spent <...> or the end of the line",
	`DurTok?`:                                                     "the time spent <...> or the end of the line",
	`Ident+ ("{" Elem* "}")? NoteItem* Dashes`:                    "the signal's name after '---'",
	`Elem* "}"`:                         "a member of the signal's information or '}'",
	`"}"`:                               "'}' closing the signal's information",
	`("{" Elem* "}")? NoteItem* Dashes`: "the signal's information {...} or '---'",
	`NoteItem* Dashes`:                  "'---' closing the signal line",
	`Dashes`:                            "'---' closing the signal line",
	`Result?`:                           "'= result' or the end of the line after ')'",
}

// restWords says what each failure point of a message line ("strace:
// TEXT") or a -k stack frame (" > TEXT") expects.
var restWords = lineconv.Words{
	`Token?`: "the text of the message or frame",
}
