package strace

import "github.com/tracekit/tracekit/grammar/internal/lineconv"

// lineWords says what each failure point of a line of strace output
// expects, in strace's own terms (TestWords keeps it complete): a line is
// [pid] [time] [ip] then a call "name(args) = result", a resumed half
// "<... name resumed> args) = result", the rest of a call continued on a
// line of its own, a signal "--- SIGNAME {...} ---" or an exit
// "+++ exited with N +++".
var lineWords = lineconv.Words{
	`((<ident> ("(" Elem* ")")? Alts?) | <number> | (<string> "..."?) | (("{" | "[") Elem* ("}" | "]")) | (<fd> <deleted>?) | <float> | <hwaddr> | "..." | <resuming> | "?" | ("(" Expr ")")) <comment>?`: "a value (a number, a string, a name, a flag, {...}, [...] or a call)",
	`<deleted>?`:               "(deleted) or the end of the descriptor",
	`Ident`:                    "a name",
	`Elem`:                     "an argument",
	`("," Elem)*`:              "',' and another argument, or the end of the arguments",
	`(Elem ("," Elem)*)? Tail`: "the rest of the continued call: arguments, then ')' and the result",
	`Primary`:                  "a value after the operator",
	`"(" Elem* Tail`:           "'(' and the arguments after the call's name",
	`Elem* Tail`:               "an argument, ')' or <unfinished ...>",
	`Tail`:                     "')' and the result, or <unfinished ...>",
	`Binop* ("=" Expr?)?`:      "an operator, '=' or the end of the value",
	`Expr?`:                    "a value after '=', or nothing",
	`("=" Expr?)?`:             "'=' and a value, or the end of the value",
	`ExitWord+ "+++"`:          "what ended the process (exited with N, killed by SIGNAME) after '+++'",
	`"+++"`:                    "'+++' closing the exit line",
	`Binop*`:                   "an operator or the end of the value",
	`(<number> | "?"+) "]"`:    "the instruction pointer after '['",
	`"]"`:                      "']' after the instruction pointer",
	`PrefixTok?`:               "a time stamp or the call",
	`IpTok? IpTok? (Call | Resumed | Signal | Exit | ModeLine | Cont)`: "a call, a resumed half (<... name resumed>), a signal (---), an exit (+++) or the rest of a continued call",
	`IpTok? (Call | Resumed | Signal | Exit | ModeLine | Cont)`:        "a call, a resumed half (<... name resumed>), a signal (---), an exit (+++) or the rest of a continued call",
	`(Call | Resumed | Signal | Exit | ModeLine | Cont)`:               "a call, a resumed half (<... name resumed>), a signal (---), an exit (+++) or the rest of a continued call",
	`NoteItem* ")"`:          "')' closing the note",
	`")"`:                    "')'",
	`Elem* ")"`:              "an argument or ')'",
	`("(" Elem* ")")? Alts?`: "'(' and arguments, 'or' and another name, or the end of the name",
	`Alts?`:                  "'or' and another name, or the end of the value",
	`<comment>?`:             "a comment /* ... */ or the end of the value",
	`"..."?`:                 "'...' or the end of the string",
	`Elem* ("}" | "]")`:      "a member, '}' or ']'",
	`("}" | "]")`:            "'}' or ']' closing the structure or array",
	`Expr ")"`:               "a value and ')'",
	`("?" | Expr) <comment>? Ident? Note* <unavailable>? DurTok?`: "the return value after '='",
	`<comment>? Ident? Note* <unavailable>? DurTok?`:              "an error name (E...), a note in parentheses, <unavailable>, the time spent <...> or the end of the line after the return value",
	`Ident? Note* <unavailable>? DurTok?`:                         "an error name (E...), a note in parentheses, the time spent <...> or the end of the line",
	`Note* <unavailable>? DurTok?`:                                "a note in parentheses, the time spent <...> or the end of the line",
	`<unavailable>? DurTok?`:                                      "the time spent <...> or the end of the line",
	`DurTok?`:                                                     "the time spent <...> or the end of the line",
	`Ident* ("{" Elem* "}")? NoteItem* Dashes`:                    "the signal's name or its information {...} after '---'",
	`Elem* "}"`:                         "a member of the signal's information or '}'",
	`"}"`:                               "'}' closing the signal's information",
	`("{" Elem* "}")? NoteItem* Dashes`: "the signal's information {...} or '---'",
	`NoteItem* Dashes`:                  "'---' closing the signal line",
	`Dashes`:                            "'---' closing the signal line",
	`Result?`:                           "'= result' or the end of the line after ')'",
	`"Process" "PID" "=" <number> "runs" "in" ((<number> <ident>) | <ident>) "mode" "." "]"`: "'Process PID=N runs in MODE mode. ]' after '[' (the personality line [ Process PID=N runs in MODE mode. ])",
	`"PID" "=" <number> "runs" "in" ((<number> <ident>) | <ident>) "mode" "." "]"`:           "'PID=N' after '[ Process' (the personality line [ Process PID=N runs in MODE mode. ])",
	`"=" <number> "runs" "in" ((<number> <ident>) | <ident>) "mode" "." "]"`:                 "'=N' after '[ Process PID' (the personality line [ Process PID=N runs in MODE mode. ])",
	`<number> "runs" "in" ((<number> <ident>) | <ident>) "mode" "." "]"`:                     "the pid after '[ Process PID=' (the personality line [ Process PID=N runs in MODE mode. ])",
	`"runs" "in" ((<number> <ident>) | <ident>) "mode" "." "]"`:                              "'runs in' after the pid (the personality line [ Process PID=N runs in MODE mode. ])",
	`"in" ((<number> <ident>) | <ident>) "mode" "." "]"`:                                     "'in' after 'runs' (the personality line [ Process PID=N runs in MODE mode. ])",
	`((<number> <ident>) | <ident>) "mode" "." "]"`:                                          "the mode (64 bit, 32 bit, x32) after 'runs in' (the personality line [ Process PID=N runs in MODE mode. ])",
	`<ident>`:        "a word",
	`"mode" "." "]"`: "'mode. ]' after the mode (the personality line [ Process PID=N runs in MODE mode. ])",
	`"." "]"`:        "'. ]' after 'mode' (the personality line [ Process PID=N runs in MODE mode. ])",
	`Ended?`:         "')' and '= ?' (the process ended in the call), or the end of the line after <unfinished ...>",
	`EndedResult`:    "'= ?' after '<unfinished ...>)'",
	`"?"`:            "'?' after '<unfinished ...>) =' (the process ended in the call)",
}

// restWords says what each failure point of a message line ("strace:
// TEXT") or a -k stack frame (" > TEXT") expects.
var restWords = lineconv.Words{
	`Token?`: "the text of the message or frame",
}

// tableWords says what each failure point of a line of strace's summary
// table (-c, -C) expects: its parser has none (the converter names a row
// that does not read, in its own words).
var tableWords = lineconv.Words{}
