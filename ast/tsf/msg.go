package tsf

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tracekit/tracekit/ast/diag"
)

// Code is a TRCUST internal message number (reference section 1.6.2:
// 1-17 fatal, 33-43 severe, 65-106 error, 129-143 warning), or a tracekit
// number 200-299 for a check the reference does not number.
type Code int

// The message numbers used by tracekit, named after what they report. The
// texts are in Messages.
const (
	FatalNoTSF          Code = 1
	FatalNotFound       Code = 2
	FatalCannotOpen     Code = 3
	FatalAccess         Code = 4
	FatalWrite          Code = 5
	FatalMemory         Code = 6
	FatalTooManyTPs     Code = 7
	FatalRead           Code = 8
	FatalSeek           Code = 9
	FatalExeHeader      Code = 10
	FatalCombinePath    Code = 11
	FatalCombineMax     Code = 12
	FatalCombineMajor   Code = 13
	FatalMapExtension   Code = 14
	FatalNoTCF          Code = 15
	FatalNameTooLong    Code = 16
	FatalTokenTooLong   Code = 17
	SevereNoModName     Code = 33
	SeverePrematureEOF  Code = 34
	SevereMissing       Code = 35
	SevereNewLine       Code = 36
	SevereNUL           Code = 37
	SevereKeyword       Code = 38
	SevereNoSymbolInfo  Code = 39
	SevereMajorRedef    Code = 40
	SevereTDFIDRedef    Code = 41
	SevereMaxDataRedef  Code = 42
	SevereLineTooLong   Code = 43
	ErrNumber           Code = 65
	ErrUnexpected       Code = 66
	ErrMinorMissing     Code = 67
	ErrMinorRange       Code = 68
	ErrTypeListRedef    Code = 69
	ErrGroupListRedef   Code = 70
	ErrTPRedef          Code = 71
	ErrMinorRedef       Code = 72
	ErrOpcodeRedef      Code = 73
	ErrSyntax           Code = 74
	ErrOpcodeRange      Code = 75
	ErrOpcodeUntraced   Code = 76
	ErrOpcodeMismatch   Code = 77
	ErrRegister         Code = 78
	ErrSymbol           Code = 79
	ErrAddress          Code = 80
	ErrSegRegister      Code = 81
	ErrIncomplete       Code = 82
	ErrRPNTooLong       Code = 83
	ErrParameter        Code = 84
	ErrID               Code = 85
	ErrNameRedef        Code = 86
	ErrTypeIDRedef      Code = 87
	ErrGroupIDRedef     Code = 88
	ErrAddressSpec      Code = 89
	ErrLinePastEnd      Code = 90
	ErrNoDebugInfo      Code = 91
	ErrLineNumber       Code = 92
	ErrDebugFile        Code = 93
	ErrDupMinor         Code = 94
	ErrDupMinorFile     Code = 95
	ErrLenNotPreceding  Code = 96
	ErrRPNStack         Code = 97
	ErrFlatRegister     Code = 98
	ErrFmtTooLong       Code = 99
	ErrZeroLength       Code = 100
	ErrOrbitRedef       Code = 101
	ErrOrbitValue       Code = 102
	ErrOpcodeAfterAbort Code = 103
	ErrOpcodeAfterRem   Code = 104
	ErrDupTPAddress     Code = 105
	ErrDWithC           Code = 106
	WarnMaxDataRange    Code = 129
	WarnTypeName        Code = 130
	WarnGroupName       Code = 131
	WarnExtension       Code = 132
	WarnExpected        Code = 133
	WarnTooMany         Code = 134
	WarnNameTooLong     Code = 135
	WarnLineNum         Code = 136
	WarnObject          Code = 137
	WarnOffset          Code = 138
	WarnPage            Code = 139
	WarnMaxDataExceeded Code = 140
	WarnMajorRange      Code = 141
	WarnTDFIDRange      Code = 142
	WarnIndexTooLarge   Code = 143
	WarnNoReturnPoint   Code = 144 // 3.05A's, not in the V2.1 reference

	// Checks the reference does not number.
	SevereUnclosedComment Code = 201
	WarnModNameRedef      Code = 202
	ErrFieldRedef         Code = 203
	WarnStaticIgnored     Code = 204
	WarnFmtControl        Code = 205
	WarnFmtSkip           Code = 206
	WarnFmtPrefix         Code = 207
	WarnFmtStaticPrefix   Code = 208
	WarnNoTracepoints     Code = 209
	WarnExportsOnly       Code = 211
	WarnTrailingComma     Code = 212
	WarnIndirectSign      Code = 213
	WarnCommaAssumed      Code = 214
	WarnFmtNoPrefix       Code = 215
	ErrOpcodeWord         Code = 216
	ErrInvalidNumber      Code = 217 // 3.05A's, not in the V2.1 reference
	WarnOrbitIndex        Code = 218
	WarnLenUnused         Code = 219
	WarnMapUnknown        Code = 220
	ErrNoProcEnd          Code = 221 // 3.05A's, not in the V2.1 reference
	SevereRetEPCriteria   Code = 222 // 3.05A's, not in the V2.1 reference
)

// Message is the catalogue entry of one Code.
type Message struct {
	Severity diag.Severity
	Text     string // a fmt format with %s verbs for the arguments
	// Silent305A is set for checks that TRCUST 3.05A does not report: a
	// legacy front end leaves them out to print what IBM printed.
	Silent305A bool
}

// Messages is the catalogue: IBM's texts as TRCUST 3.05A prints them (where
// the oracle shows a text that differs from the V2.1 reference, the
// oracle's text is used: 75, 91 and 105), and tracekit's own for 200-299.
var Messages = map[Code]Message{
	1:   {diag.Fatal, "TSF file not specified", false},
	2:   {diag.Fatal, "file not found or access denied : %s", false},
	3:   {diag.Fatal, "cannot open file : %s", false},
	4:   {diag.Fatal, "error accessing file : %s", false},
	5:   {diag.Fatal, "error writing to file : %s", false},
	6:   {diag.Fatal, "unable to allocate more memory", false},
	7:   {diag.Fatal, "too many tracepoints in file", false},
	8:   {diag.Fatal, "error reading file: %s, Rc = %s", false},
	9:   {diag.Fatal, "changing file pointer for: %s, Rc = %s", false},
	10:  {diag.Fatal, "unknown EXE header type for: %s", false},
	11:  {diag.Fatal, "invalid path specified in combine file", false},
	12:  {diag.Fatal, "max TFF files to combine is 50", false},
	13:  {diag.Fatal, "all TFFs not have same major code, file: %s", false},
	14:  {diag.Fatal, "invalid MAP file extension given in: %s", false},
	15:  {diag.Fatal, "TCF file not specified", false},
	16:  {diag.Fatal, "filename to long: %s", false},
	17:  {diag.Fatal, "token in TSF file exceeds %s bytes", false},
	33:  {diag.Severe, "module name not specified", false},
	34:  {diag.Severe, "premature end of file encountered", false},
	35:  {diag.Severe, "syntax error : missing '%s' before '%s'", false},
	36:  {diag.Severe, "new line in literal", false},
	37:  {diag.Severe, "NULL in literal", false},
	38:  {diag.Severe, "keyword '%s' expected, '%s' found", false},
	39:  {diag.Severe, "symbolic info not given for %s", false},
	40:  {diag.Severe, "MAJOR redefinition", false},
	41:  {diag.Severe, "TDFID redefinition", false},
	42:  {diag.Severe, "MAXDATALENGTH redefinition", false},
	43:  {diag.Severe, "line too long in input file: %s", false},
	65:  {diag.Error, "number expected, '%s' found", false},
	66:  {diag.Error, "unexpected: %s, ignored", false},
	67:  {diag.Error, "minor code not specified", false},
	68:  {diag.Error, "minor code out of range", false},
	69:  {diag.Error, "TYPELIST redefinition, ignored", false},
	70:  {diag.Error, "GROUPLIST redefinition, ignored", false},
	71:  {diag.Error, "TP redefinition, tracepoint ignored", false},
	72:  {diag.Error, "MINOR redefinition, tracepoint ignored", false},
	73:  {diag.Error, "OPCODE redefinition, tracepoint ignored", false},
	74:  {diag.Error, "syntax error: missing '%s' before '%s'", false},
	75:  {diag.Error, "opcode: out of range", false},
	76:  {diag.Error, "opcode at TP address cannot be traced", false},
	77:  {diag.Error, "opcode mismatch at address to apply TP", false},
	78:  {diag.Error, "register expected, '%s' found", false},
	79:  {diag.Error, "symbol not found: %s", false},
	80:  {diag.Error, "address not found", false},
	81:  {diag.Error, "segment register expected, '%s' found", false},
	82:  {diag.Error, "trace record incomplete, '%s' required", false},
	83:  {diag.Error, "RPN command record exceeds 255 bytes", false},
	84:  {diag.Error, "invalid parameter: '%s', ignored", false},
	85:  {diag.Error, "invalid ID: %s, ignored", false},
	86:  {diag.Error, "group/type redefinition: %s, ignored", false},
	87:  {diag.Error, "typeid redefinition: %s, ignored", false},
	88:  {diag.Error, "groupid redefinition: %s, ignored", false},
	89:  {diag.Error, "invalid address specified: %s", false},
	90:  {diag.Error, "line number past end of code for file %s", false},
	91:  {diag.Error, "CodeView info does not exist for: %s", false},
	92:  {diag.Error, "line number missing or invalid: %s", false},
	93:  {diag.Error, "filename %s not found in Debug info", false},
	94:  {diag.Error, "duplicate minor code = %s, ignored", false},
	95:  {diag.Error, "duplicate minor code = %s in file %s, ignored", false},
	96:  {diag.Error, "variable LEN parameter not preceding", false},
	97:  {diag.Error, "RPN stack limit of 16 exceeded", false},
	98:  {diag.Error, "invalid flat register specified: %s", false},
	99:  {diag.Error, "total FMT format specs above 4096 bytes", false},
	100: {diag.Error, "zero length specified, tracepoint ignored", false},
	101: {diag.Error, "ORBIT redefinition, tracepoint ignored", false},
	102: {diag.Error, "invalid ORBIT value, tracepoint ignored", false},
	103: {diag.Error, "opcode defined after ABORT", false},
	104: {diag.Error, "opcode defined after REMOVE", false},
	105: {diag.Error, "duplicate TP address %s, ignored", false},
	106: {diag.Error, "/D not allowed with /C, ignored", false},
	129: {diag.Warning, "MAXDATALENGTH out of range, 512 used", false},
	130: {diag.Warning, "typename unknown: %s, ignored", false},
	131: {diag.Warning, "groupname unknown: %s, ignored", false},
	132: {diag.Warning, "file: %s, extension invalid, using: %s", false},
	133: {diag.Warning, "'%s' expected before '%s', one assumed", false},
	134: {diag.Warning, "too many %s, first 16 types, 48 groups used", false},
	135: {diag.Warning, "name too long: %s, first 8 characters used", false},
	136: {diag.Warning, "linenum in file: %s not found, using #%s", false},
	137: {diag.Warning, "bad object number: %s used for file %s", false},
	138: {diag.Warning, "offset %s is invalid for object number %s", false},
	139: {diag.Warning, "page tracepoint to be applied at not valid", false},
	140: {diag.Warning, "MAXDATALENGTH to log could be exceeded", false},
	141: {diag.Warning, "MAJOR out of range, 1 used", false},
	142: {diag.Warning, "TDFID out of range, 0 used", false},
	// 3.05A keeps the low word of a length above 0xFFFF without a word (oracle
	// e33); tracekit keeps the same bytes but says so.
	143: {diag.Warning, "index too large, high word ignored", true},
	// TRCUST 3.05A prints it for a RETEP whose return point it cannot find
	// and leaves the tracepoint out; the V2.1 reference has no number for it.
	144: {diag.Warning, "unable to determine return point for %s", false},

	201: {diag.Severe, "unclosed comment", false},
	// TRCUST 3.05A uses the last MODNAME without a word.
	202: {diag.Warning, "MODNAME redefinition, the last one used", true},
	203: {diag.Error, "%s redefinition, tracepoint ignored", false},
	204: {diag.Warning, "%s has no effect on a @STATIC tracepoint, ignored", true},
	205: {diag.Warning, "unknown format control '%s', copied as is", true},
	206: {diag.Warning, "format control %%I needs a decimal byte count and a blank", true},
	207: {diag.Warning, "more %%P controls than memory data statements", true},
	208: {diag.Warning, "%%P in a @STATIC tracepoint: static data has no prefix", true},
	209: {diag.Warning, "no valid tracepoint: nothing written", true},
	211: {diag.Warning, "no MAP file: symbols resolved through the module's exports", true},
	// TRCUST 3.05A ends the statement there without a word (oracle x_h35).
	212: {diag.Warning, "the last statement ends with a comma at the end of the file", true},
	// TRCUST 3.05A adds an (i) term whatever its sign; so does tracekit.
	213: {diag.Warning, "-(%s) adds %s: TRCUST keeps no sign on an indirect offset", true},
	// TRCUST 3.05A assumes a missing ',' between two TRACE fields silently.
	214: {diag.Warning, "',' expected before '%s', one assumed", true},
	// Each memory item is logged after a status byte and a length (the
	// prefix %P formats); without a %P for it the prefix is formatted as
	// the item's data.
	215: {diag.Warning, "fewer %%P controls than memory data statements: a prefix is formatted as data", true},
	// TRCUST 3.05A drops a tracepoint whose OPCODE is a word without a
	// message (IBM's behaviour).
	216: {diag.Error, "OPCODE needs a number, '%s' found, tracepoint ignored", true},
	// TRCUST 3.05A prints it for an OPCODE whose number is malformed or
	// does not fit in 32 bits (OPCODE=1a, OPCODE=1.5); the V2.1 reference
	// has no number for it.
	217: {diag.Error, "invalid number found: %s", false},
	// 3.05A's 143, which it prints for an ORBIT value only (for a length
	// it says nothing: 143 above); it then writes 0x0016 as the value.
	218: {diag.Warning, "index too large, high word ignored", false},
	// TRCUST 3.05A resolves a LEN that no MEM or MEM32 right after it
	// uses, writes no code for it and says nothing (IBM's behaviour).
	219: {diag.Warning, "LEN is not used by a MEM or MEM32 right after it, ignored", true},
	// TRCUST 3.05A reads any text as a MAP file, taking each line of an
	// address and a name for a symbol, and says nothing (IBM's behaviour).
	220: {diag.Warning, "%s is no LINK, LINK386 or wlink MAP file: only its lines of an address and a name are read", true},
	// TRCUST 3.05A prints it instead of 79 for TP=.name,RETEP when the MAP
	// file has no such name (IBM's behaviour, tried with its binary); the
	// V2.1 reference has no number for it.
	221: {diag.Error, "unable to locate end of %s", false},
	// TRCUST 3.05A prints it for "RETEP=" after TP=.name (a form of
	// RETEP it does not have), at the line of the token after the '=',
	// as a severe message, but goes on as after an error: the statement
	// is skipped and the exit status stays 0 (IBM's behaviour, tried
	// with its binary). The parser gives it the severity of an error.
	222: {diag.Severe, "Invalid RETEP criteria specified", false},
}

// Legacy is what TRCUST 3.05A would say of a diagnostic beyond the
// tool-neutral fields of diag.Diagnostic: the TSF line its parser stood on
// when it printed the message, and, when it is not the diagnostic's
// position, the byte offset where it found what the message reports.
// ast/tsf keeps it in the diagnostic's Extra.
type Legacy struct {
	Line  int
	Found int // 0: at Pos; see FoundAt
}

// LegacyLine returns the line TRCUST names for d, or 0 when d carries none.
func LegacyLine(d diag.Diagnostic) int {
	if l, ok := d.Extra.(Legacy); ok {
		return l.Line
	}
	return 0
}

// FoundAt returns the byte offset in d's file where TRCUST 3.05A found what
// d reports, which orders d among the messages it prints at one line: a
// TRACE statement incomplete is found at its end (after its TP field was
// resolved), though d points at the field that wants the missing one.
func FoundAt(d diag.Diagnostic) int {
	if l, ok := d.Extra.(Legacy); ok && l.Found > 0 {
		return l.Found
	}
	return d.Pos.Offset
}

// FoundAtEnd returns d found at offset end (FoundAt).
func FoundAtEnd(d diag.Diagnostic, end int) diag.Diagnostic {
	l, _ := d.Extra.(Legacy)
	l.Found = end
	d.Extra = l
	return d
}

// String returns the code as printed: "TRC094".
func (c Code) String() string { return fmt.Sprintf("TRC%03d", int(c)) }

// CodeOf returns the TSF message number of d, and false when d's code is
// not one of ast/tsf's ("TRC" and three or more digits).
func CodeOf(d diag.Diagnostic) (Code, bool) {
	s, ok := strings.CutPrefix(string(d.Code), "TRC")
	if !ok || len(s) < 3 {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, false
	}
	return Code(n), true
}

// Diagnostic builds the diagnostic for code c at pos with the message's
// arguments. legacy is the line TRCUST 3.05A would name (0 for pos.Line).
func (c Code) Diagnostic(pos Pos, legacy int, args ...any) diag.Diagnostic {
	m, ok := Messages[c]
	if !ok {
		m = Message{diag.Error, "unknown message %v", false}
		args = []any{int(c)}
	}
	if legacy == 0 {
		legacy = pos.Line
	}
	copied := false
	for i, a := range args {
		// TRCUST 3.05A prints its arguments as C strings: a NUL ends
		// one (IBM's behaviour: a NUL byte between fields is
		// "unexpected: , ignored").
		if s, ok := a.(string); ok {
			if j := strings.IndexByte(s, 0); j >= 0 {
				if !copied {
					args, copied = append([]any(nil), args...), true
				}
				args[i] = s[:j]
			}
		}
	}
	text := fmt.Sprintf(m.Text, args...)
	return diag.Diagnostic{Pos: pos, Severity: m.Severity, Code: diag.Code(c.String()), Msg: text, Extra: Legacy{Line: legacy}}
}
