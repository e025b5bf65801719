// Package strace holds the syntax tree of Linux (GNU) strace output, one
// line at a time:
//
//	[PREFIX] [TIME] [[IP]] name(args) = ret [ERRNO (text)] [<dur>]
//	[PREFIX] [TIME] name(args <unfinished ...>
//	[PREFIX] [TIME] <... name resumed>args) = ret ...
//	[PREFIX] [TIME] --- SIGCHLD {si_signo=SIGCHLD, ...} ---
//	[PREFIX] [TIME] +++ exited with 0 +++
//	[PREFIX] [TIME] args) = ret ...     (the rest of a call broken off: -z, or strace's own message)
//	strace: Process 123 attached
//	 > /lib/libc.so.6(open+0x14) [0x7f...]      (a -k stack frame)
//	 | 00000  7f 45 4c 46 ...  .ELF |           (a -e read=/write= hex dump)
//	% time     seconds  usecs/call ...          (the summary table of -c, -C, -w)
//
// PREFIX is "[pid N]" or the bare pid column of -f -o FILE, either with the
// command name of -Y ("[pid N<comm>]", "N<comm>"); -n puts the syscall
// number "[ NR]" and -i the instruction pointer after the time stamp. A Line is one
// line; argument values form a small tree (Value). The participle grammar in
// grammar/strace builds these nodes; any parser that builds the same nodes
// can take its place (see LineParser). Pairing the halves of a call is the
// lowering's business.
package strace

import (
	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
)

// Diagnostic codes of the strace dialect.
const (
	CodeSyntax    diag.Code = "LST001" // error: the line has none of the shapes of strace output
	CodeNumber    diag.Code = "LST002" // error: a pid, time stamp, duration or exit status is malformed or too large
	CodeDepth     diag.Code = "LST003" // error: values nested too deeply (brackets, or unary operators in a row)
	CodeBracket   diag.Code = "LST004" // error: a bracket closed by the wrong kind ({ by ], [ by })
	CodeAdjacent  diag.Code = "LST005" // warning: arguments written side by side without a comma; both kept
	CodeInteger   diag.Code = "LST006" // warning: an integer does not fit in 64 bits or is malformed; kept as a symbol
	CodeReopened  diag.Code = "LST007" // warning: a call left unfinished while another of the same pid was open
	CodeMismatch  diag.Code = "LST008" // warning: a resumed call names another call than the open one; not paired
	CodeLoneFrame diag.Code = "LST009" // error: a -k stack frame line with no call before it
)

// PIDForm says how a line gave its pid.
type PIDForm int

// The pid forms.
const (
	NoPID      PIDForm = iota // no pid on the line
	BracketPID                // "[pid N]"
	ColumnPID                 // the bare pid column of -f -o FILE
)

// GoString keeps AST dumps readable.
func (f PIDForm) GoString() string {
	switch f {
	case BracketPID:
		return "BracketPID"
	case ColumnPID:
		return "ColumnPID"
	}
	return "NoPID"
}

// TimeForm says which time-stamp option wrote a time stamp.
type TimeForm int

// The time-stamp forms.
const (
	NoTime    TimeForm = iota
	ClockTime          // -t or -tt: HH:MM:SS[.frac], the time of day
	Seconds            // -ttt (seconds since the epoch) or -r (since the previous line): SECS.frac, or whole SECS (precision:s)
)

// GoString keeps AST dumps readable.
func (f TimeForm) GoString() string {
	switch f {
	case ClockTime:
		return "ClockTime"
	case Seconds:
		return "Seconds"
	}
	return "NoTime"
}

// Time is a time stamp: its text and its value in nanoseconds (of the day
// for ClockTime, of the epoch or since the previous line for Seconds).
type Time struct {
	Pos  ast.Pos
	Form TimeForm
	Text string
	Ns   int64
}

// Line is one line of strace output.
type Line struct {
	Pos     ast.Pos
	PIDForm PIDForm
	PID     uint64 // when PIDForm is not NoPID
	Comm    string // the command name of -Y, "" without one
	Time    *Time  // nil without a time stamp
	HasNr   bool   // -n gave the syscall number
	Nr      uint64 // the syscall number of -n, when HasNr
	IP      string // the instruction pointer of -i, hex digits as written ("?" when strace printed question marks), "" without one
	Body    Body
	// Inline is strace's own message written into the line ("write(3,
	// "x", 2strace: Process 5 attached"), where strace's stderr shares
	// the file: the body before it was broken off there (Unfinished).
	Inline *Message
}

// Body is what follows the prefix: *Call, *Resumed, *Continued, *Signal,
// *Exit, *Message, *Frame, *Dump, *Table or *Tip.
type Body interface {
	body()
}

// Call is a system call: whole (Result set), or its first half (Unfinished).
type Call struct {
	Pos        ast.Pos
	Name       *Ident
	Args       []*Arg
	Unfinished bool // ended by "<unfinished ...>"
	Detached   bool // ended by "<detached ...>": strace let the process go mid-call
	// Undecoded is set for "<unfinished ...>) = ?": the process ended
	// inside the call before it returned, and what strace decodes on the
	// return was never written; Result is "?".
	Undecoded bool
	Result    *Result // nil when unfinished or detached
}

// Resumed is the second half of a call: "<... name resumed>" and the rest.
type Resumed struct {
	Pos        ast.Pos
	Name       *Ident
	Args       []*Arg // the arguments after the resumption
	Unfinished bool   // interrupted again
	Detached   bool
	Undecoded  bool // as Call's
	Result     *Result
}

// Continued is the rest of a call on a line of its own, with no name: the
// line after one strace's own message broke off, or the second half -z
// writes without "<... name resumed>".
type Continued struct {
	Pos        ast.Pos
	Args       []*Arg
	Unfinished bool
	Detached   bool
	Undecoded  bool // as Call's
	Result     *Result
}

// Dump is one line of a -e read= or -e write= hex dump:
// " | 00000  7f 45 4c 46 ...  .ELF... |".
type Dump struct {
	Pos  ast.Pos
	Text string // between the bars, as written
}

// TipPart says which line of the box of strace's --tips a Tip is.
type TipPart int

// The lines of a --tips box.
const (
	TipTop    TipPart = iota // "  ______..." above the tip
	TipText                  // " | text   |": a line of the tip, or the blank one under the top
	TipBottom                // " \______/" under the tip
	TipArt                   // the rest of the mascot, under the box
)

// GoString keeps AST dumps readable.
func (k TipPart) GoString() string {
	switch k {
	case TipTop:
		return "TipTop"
	case TipBottom:
		return "TipBottom"
	case TipArt:
		return "TipArt"
	}
	return "TipText"
}

// Tip is a line of the box that strace 6 writes to its standard error at
// the end of a run with --tips: a tip in a box of 52 columns (44 for its
// text) beside the project's mascot drawn in characters. It is no trace output, and only
// in a log when the trace shares strace's standard error.
type Tip struct {
	Pos  ast.Pos
	Part TipPart
	Text string // a TipText line's text inside the box, trailing blanks cut
}

// TableKind says which line of a summary table a Table is.
type TableKind int

// The lines of a summary table.
const (
	TableRow    TableKind = iota // a syscall's row, or the total
	TableHeader                  // the column names
	TableRule                    // the dashes under the header and above the total
	// TableTitle is "System call usage summary for 32 bit mode:", which
	// strace writes before the table of each personality but the first
	// (a process that execs a program of another one).
	TableTitle
)

// GoString keeps AST dumps readable.
func (k TableKind) GoString() string {
	switch k {
	case TableHeader:
		return "TableHeader"
	case TableRule:
		return "TableRule"
	case TableTitle:
		return "TableTitle"
	}
	return "TableRow"
}

// Table is a line of the summary table of -c, -C or -w. Which column a
// word of a row is in the header says: the lowering reads them together.
type Table struct {
	Pos   ast.Pos
	Kind  TableKind
	Words []TableWord
}

// TableWord is a word of a table line with its column (0-based byte offset
// in the line).
type TableWord struct {
	Col  int
	Text string
}

// Result is what follows ")": "= value [ERRNO] [(note)...] [<dur>]".
type Result struct {
	Pos         ast.Pos
	Value       Value  // nil for "?"
	Errno       *Ident // the error symbol (ENOENT, ERESTARTSYS), or nil
	Notes       []Note // the parenthesised texts after the value, in order
	Unavailable bool   // "<unavailable>"
	Dur         *Duration
}

// Note is a parenthesised text after a return value: the errno's text
// "(No such file or directory)", "(flags O_RDONLY)", "(Timeout)".
type Note struct {
	Pos  ast.Pos
	Text string // between the parentheses, as written
}

// Duration is the -T suffix "<0.000123>".
type Duration struct {
	Pos  ast.Pos
	Text string // the digits, without the angle brackets
	Ns   int64
}

// Signal is "--- SIGNAME {siginfo} ---", "--- stopped by SIGNAME ---", or
// the older "--- SIGNAME (Child exited) @ 0 (0) ---".
type Signal struct {
	Pos     ast.Pos
	Name    *Ident
	Stopped bool    // "stopped by"
	Info    *Struct // the siginfo structure, or nil
	Text    string  // what follows the name or the structure, as written (older strace releases), or ""
}

// Exit is "+++ exited with N +++", "+++ killed by SIGNAME [(core dumped)] +++"
// or "+++ superseded by execve in pid N +++" (a thread replaced by another
// thread's execve).
type Exit struct {
	Pos        ast.Pos
	Killed     bool
	Status     *Int   // exited: the status
	Signal     *Ident // killed: the signal
	Core       bool   // killed: "(core dumped)"
	Superseded *Int   // superseded: the pid that made the call
	By         string // superseded: the call (execve)
}

// Message is a line strace wrote about itself: "strace: Process N attached",
// or a personality line "[ Process PID=N runs in 32 bit mode. ]".
type Message struct {
	Pos     ast.Pos
	Text    string // after "strace: " (between the brackets of a personality line)
	Process uint64 // the N of "Process N attached", "Process N detached" or "Process PID=N runs in MODE mode."
	Verb    string // "attached", "detached", "personality", or "" for another message
	Mode    string // a personality line's MODE: "64 bit", "32 bit", "x32"
}

// Frame is one -k stack frame line " > text".
type Frame struct {
	Pos  ast.Pos
	Text string // after "> ", as written
}

func (*Call) body()      {}
func (*Continued) body() {}
func (*Dump) body()      {}
func (*Tip) body()       {}
func (*Table) body()     {}
func (*Resumed) body()   {}
func (*Signal) body()    {}
func (*Exit) body()      {}
func (*Message) body()   {}
func (*Frame) body()     {}

// Arg is one argument or member: a value, possibly labelled ("flags=..."),
// possibly followed by a comment ("/* 30 vars */").
type Arg struct {
	Pos      ast.Pos
	Label    *Ident // nil when unlabelled
	Value    Value
	Comment  string // the text of a comment after the value, without /* */; "" when none
	Adjacent bool   // written after the previous one without a comma
}

// Value is an argument or return value: *Int, *Float, *String, *Ident,
// *HWAddr, *Struct, *Array, *Op, *FuncCall, *FD, *Elided or *Resuming.
type Value interface {
	// Position returns where the value starts.
	Position() ast.Pos
	value()
}

// Int is an integer: decimal, hex (0x...) or octal (0...), possibly negative.
type Int struct {
	Pos  ast.Pos
	Text string
	Neg  bool
	Mag  uint64
}

// Float is a number with a fraction (kept as written).
type Float struct {
	Pos  ast.Pos
	Text string
}

// HWAddr is a hardware (link-layer) address strace writes bare, as
// colon-separated hex bytes: 00:16:3e:5a:01:02 (netlink's IFLA_ADDRESS and
// IFLA_BROADCAST, ifr_hwaddr, Bluetooth addresses).
type HWAddr struct {
	Pos   ast.Pos
	Text  string // as written
	Bytes []byte // the address
}

// String is a C string literal; Truncated when strace cut it ("..."...).
type String struct {
	Pos       ast.Pos
	Text      string // as written, quotes included, without the trailing ...
	Value     string // escapes decoded
	Truncated bool
}

// Ident is a symbol (NULL, O_RDONLY, SIGCHLD) or a name.
type Ident struct {
	Pos  ast.Pos
	Name string
}

// Struct is "{...}": members, labelled or not.
type Struct struct {
	Pos     ast.Pos
	Members []*Arg
}

// Array is "[...]": items separated by commas or blanks (signal and fd sets).
type Array struct {
	Pos   ast.Pos
	Items []*Arg
}

// Op is an operator applied to operands: a flag set "A|B|C" (Op "|", three
// operands; the empty set "c_iflag=" is the Int 0 with no Text), alternatives strace could
// not tell apart "SNDCTL_TMR_START or TCSETS" (Op "or"), an operand after
// an operator with nothing before it (-X raw "|0x800", the "=> {...}" a
// resumed half starts with: the first operand is Elided), "WIFEXITED(s) && WEXITSTATUS(s) == 0", a bit set's complement
// "~[...]" (one operand), "in => out".
type Op struct {
	Pos      ast.Pos
	Op       string
	Operands []Value
	// Comments are the comments after operands (-X verbose:
	// "0x1200000 /* CLONE_CHILD_CLEARTID|... */|17 /* SIGCHLD */"), one an
	// operand, "" where none; nil when there are none.
	Comments []string
}

// FuncCall is a macro or function strace writes: htons(80), makedev(0x1, 0x3).
type FuncCall struct {
	Pos  ast.Pos
	Name string
	Args []*Arg
}

// FD is a file descriptor with its -y decoration: 3</etc/passwd>,
// 5<TCP:[1.2.3.4:80->5.6.7.8:9]>, AT_FDCWD</home>.
type FD struct {
	Pos   ast.Pos
	FD    Value  // *Int or *Ident
	Decor string // between the angle brackets, as written
	// Path is a file's path (a Decor that starts with '/') with strace's
	// escapes decoded, as in strings: "/tmp/a<b" is written "/tmp/a\74b",
	// a quote \", a backslash \\; any other Decor (-yy's descriptions:
	// TCP:[...], UNIX-STREAM:[...,"path"], pipe:[...]) as written.
	Path string
	// Deleted says that "(deleted)" followed the decoration: the file
	// was removed (3</tmp/x>(deleted)).
	Deleted bool
	Comment string // -X verbose: the comment between the number and the decoration ("-100 /* AT_FDCWD */</home>"), or ""
}

// Elided is "..." (strace left members out) or a lone comment ([/* 22 vars */]).
type Elided struct {
	Pos ast.Pos
}

// Resuming is restart_syscall's "<... resuming interrupted poll ...>".
type Resuming struct {
	Pos  ast.Pos
	Text string // between "<... " and " ...>": "resuming interrupted poll"
}

// Position returns where the value starts.
func (v *Int) Position() ast.Pos { return v.Pos }

// Position returns where the value starts.
func (v *Float) Position() ast.Pos { return v.Pos }

// Position returns where the value starts.
func (v *HWAddr) Position() ast.Pos { return v.Pos }

// Position returns where the value starts.
func (v *String) Position() ast.Pos { return v.Pos }

// Position returns where the value starts.
func (v *Ident) Position() ast.Pos { return v.Pos }

// Position returns where the value starts.
func (v *Struct) Position() ast.Pos { return v.Pos }

// Position returns where the value starts.
func (v *Array) Position() ast.Pos { return v.Pos }

// Position returns where the value starts.
func (v *Op) Position() ast.Pos { return v.Pos }

// Position returns where the value starts.
func (v *FuncCall) Position() ast.Pos { return v.Pos }

// Position returns where the value starts.
func (v *FD) Position() ast.Pos { return v.Pos }

// Position returns where the value starts.
func (v *Elided) Position() ast.Pos { return v.Pos }

// Position returns where the value starts.
func (v *Resuming) Position() ast.Pos { return v.Pos }

func (*Int) value()      {}
func (*Float) value()    {}
func (*HWAddr) value()   {}
func (*String) value()   {}
func (*Ident) value()    {}
func (*Struct) value()   {}
func (*Array) value()    {}
func (*Op) value()       {}
func (*FuncCall) value() {}
func (*FD) value()       {}
func (*Elided) value()   {}
func (*Resuming) value() {}

// LineParser parses one line. It returns nil and at least one error
// diagnostic when the line is not strace output; it may return warnings with
// a line. grammar/strace.ParseLine is one.
type LineParser func(pos ast.Pos, line string) (*Line, diag.List)
