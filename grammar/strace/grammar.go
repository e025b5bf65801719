// Package strace is the participle grammar of Linux (GNU) strace output, one
// line at a time:
//
//	[pid N] or N   the pid prefix (-f), or none
//	TIME           -t, -tt, -ttt or -r, or none
//	name(args) = ret [ERRNO] [(text)] [<dur>]   a call
//	name(args <unfinished ...>                  its first half
//	<... name resumed>args) = ret ...           its second half
//	--- SIGNAME {siginfo} ---                   a signal
//	+++ exited with N +++                       the end of a process
//
// and two shapes with a grammar of their own: "strace: ..." messages (Process
// N attached) and the " > ..." stack frames of -k.
//
// ParseLine parses a line and turns the parse into the plain nodes of
// ast/strace: integers and time stamps get their values, strings their
// escapes decoded, operators their precedence. Pairing halves is the
// lowering's business.
//
// The grammar is plain participle struct tags, so that a parser generator
// can be run on it.
package strace

//go:generate go run ../internal/pgen

import (
	"strconv"
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	sast "github.com/tracekit/tracekit/ast/strace"
	"github.com/tracekit/tracekit/grammar/internal/chunk"
	"github.com/tracekit/tracekit/grammar/internal/lineconv"
)

// MaxDepth bounds how deeply brackets may nest; deeper lines are refused
// (strace.CodeDepth) before parsing.
const MaxDepth = lineconv.MaxDepth

// The lexer of the main grammar: the specification of its tokens (the
// parser runs on scanner, the same rules without regular expressions). The
// angle-bracket forms strace writes
// (<unfinished ...>, <... name resumed>, <0.000123>, fd decorations) are
// single tokens; a decoration is one token with its descriptor, so that
// "3</etc/passwd>" never reads as comparisons.
var (
	lineLexer = lexer.MustSimple([]lexer.SimpleRule{
		// The lexer tries the rules in order and takes the first that
		// matches, so the frequent tokens come first wherever no earlier
		// rule could take their text.
		{Name: "Space", Pattern: `\s+`},
		// "(deleted)" after a decoration: the file was removed
		// (3</tmp/x>(deleted)).
		{Name: "Deleted", Pattern: `\(deleted\)`},
		{Name: "Paren", Pattern: `[()]`},
		{Name: "Sep", Pattern: `[,{}\]]`},
		{Name: "String", Pattern: `"(?:[^"\\]|\\.)*"`},
		// A decoration ends at the first '>' that is not part of "->"
		// (-yy's TCP:[a->b]): strace writes a path's '<' and '>' as
		// \74 and \76, and its quote and backslash escaped; brackets
		// are plain characters (IPv6's [[::1]:80->[::1]:5555], a path's
		// lone '['). Tracking nested brackets instead made the merged
		// automaton too large (TestLexersMerged).
		{Name: "Fd", Pattern: `(?:-?\d+|[A-Za-z_][A-Za-z0-9_]*)(?: ?/\*[^*]*\*/)?<(?:\\.|->|[^<>"\\]|"(?:[^"\\]|\\.)*"|<[^<>]*>)*>`},
		// A hardware address strace writes bare, colon-separated hex
		// bytes (netlink's IFLA_ADDRESS, ifr_hwaddr, Bluetooth's
		// bdaddr): four bytes or more, so that a clock (three parts) is
		// never one.
		{Name: "HWAddr", Pattern: `[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){3,}`},
		{Name: "Clock", Pattern: `\d\d:\d\d:\d\d(?:\.\d+)?`},
		{Name: "Float", Pattern: `\d+\.\d+`},
		{Name: "Number", Pattern: `-?(?:0x[0-9a-fA-F]+|0X[0-9a-fA-F]+|\d+)[0-9A-Za-z_]*`},
		{Name: "Ident", Pattern: `[A-Za-z_][A-Za-z0-9_]*`},
		{Name: "PidTag", Pattern: `\[pid\s+\d+(?:<[^<>]*>)?\]`},
		{Name: "Comment", Pattern: `/\*.*?\*/`},
		{Name: "Ellipsis", Pattern: `\.\.\.`},
		{Name: "Unfinished", Pattern: `<unfinished \.\.\.>`},
		{Name: "Detached", Pattern: `<detached \.\.\.>`},
		{Name: "Unavailable", Pattern: `<unavailable>`},
		{Name: "Resumed", Pattern: `<\.\.\. [A-Za-z0-9_?]+ resumed>`},
		{Name: "Resuming", Pattern: `<\.\.\. [^<>]*\.\.\.>`},
		{Name: "Duration", Pattern: `<\d+(?:\.\d+)?>`},
		{Name: "Marker", Pattern: `---|\+\+\+`},
		{Name: "BinOp", Pattern: `=>|->|&&|\|\||==|!=|<<|>>|[-+*/%&|^]`},
		{Name: "Unary", Pattern: `[~!@]`},
		{Name: "Punct", Pattern: "[=\\[:?<>.';$#`\\\\]"},
	})

	lineParser = sync.OnceValue(func() *participle.Parser[line] {
		return participle.MustBuild[line](
			participle.Lexer(lineLexer),
			participle.Elide("Space"),
		)
	})

	// "strace: TEXT" (or "/usr/bin/strace: TEXT", as strace names itself
	// by the path it was started with), " > TEXT" (a -k frame) and
	// " | TEXT" (a line of a -e read=/write= hex dump): the text is taken
	// as written.
	restLexer = lexer.MustSimple([]lexer.SimpleRule{
		{Name: "Lead", Pattern: `[^\s>|]*strace:|>|\|`},
		{Name: "Old", Pattern: `Process \d+ (?:attached|detached)(?: .*)?`},
		{Name: "Rest", Pattern: `\S.*`},
		{Name: "Space", Pattern: `\s+`},
	})
	restParser = sync.OnceValue(func() *participle.Parser[restLine] {
		return participle.MustBuild[restLine](
			participle.Lexer(restLexer),
			participle.Elide("Space"),
		)
	})

	// The lines of the summary tables of -c, -C and -w: a header of
	// column names, a rule of dashes and rows of numbers and a name, all
	// words separated by blanks.
	tableLexer = lexer.MustSimple([]lexer.SimpleRule{
		{Name: "Word", Pattern: `\S+`},
		{Name: "Space", Pattern: `\s+`},
	})
	tableParser = sync.OnceValue(func() *participle.Parser[tableLine] {
		return participle.MustBuild[tableLine](
			participle.Lexer(tableLexer),
			participle.Elide("Space"),
		)
	})
)

// tableLine is a line of a summary table: its words.
type tableLine struct {
	Words []*word `parser:"@@+"`
}

// word is one word of a table line.
type word struct {
	Pos  lexer.Position
	Text string `parser:"@Word"`
}

// restLine is a message or a stack frame.
type restLine struct {
	Lead string  `parser:"( @Lead"`
	Rest *token  `parser:"  @@? )"`
	Old  *oldMsg `parser:"| @@"`
}

// token is one token with its position.
type token struct {
	Pos  lexer.Position
	Text string `parser:"@(Rest | Old)"`
}

// oldMsg is strace 4.x's "Process N attached - interrupt to quit" (also
// "attached with M threads - ...") or "Process N detached", written with
// no "strace: " before it.
type oldMsg struct {
	Pos  lexer.Position
	Text string `parser:"@Old"`
}

// prefixTok is a pid or a time stamp before the body.
type prefixTok struct {
	Pos  lexer.Position
	Text string `parser:"@(PidTag | Number | Clock | Float | Fd)"`
}

// ipTok is the instruction pointer of -i: [00007f0e3c3a0f3b], or
// [????????????????] when strace could not read it.
type ipTok struct {
	Pos     lexer.Position
	Hex     *string  `parser:"'[' ( @Number"`
	Unknown []string `parser:"    | @'?'+ ) ']'"`
}

// ident is a name with its position.
type ident struct {
	Pos  lexer.Position
	Text string `parser:"@Ident"`
}

// line is the parse of one line of the main grammar. The bracketed numbers
// after the time stamp are the syscall number of -n ("[  59]") and the
// instruction pointer of -i, in that order when both are there; which is
// which the converter tells by their digits. A line of arguments with no
// name before them (Cont) is the rest of a call strace broke off: with -z,
// or where its own message cut the line.
type line struct {
	PidTag  *prefixTok `parser:"( @@"`
	Time    *prefixTok `parser:"  @@? )?"`
	IP      *ipTok     `parser:"@@?"`
	IP2     *ipTok     `parser:"@@?"`
	Call    *call      `parser:"( @@"`
	Resumed *resumed   `parser:"| @@"`
	Signal  *signal    `parser:"| @@"`
	Exit    *exit      `parser:"| @@"`
	Mode    *modeLine  `parser:"| @@"`
	Cont    *cont      `parser:"| @@ )"`
}

// modeLine is "[ Process PID=N runs in MODE mode. ]", which strace writes
// when a process it traces changes personality (a 64-bit program execs a
// 32-bit one): MODE is "64 bit", "32 bit" or "x32". strace 6.1 writes it
// into the trace, after the pid and the time stamp, when the trace goes to
// its stderr (no -o); strace 4.x to its stderr alone.
type modeLine struct {
	Pos  lexer.Position
	PID  string   `parser:"'[' 'Process' 'PID' '=' @Number 'runs' 'in'"`
	Mode []string `parser:"( @Number @Ident | @Ident ) 'mode' '.' ']'"`
}

// cont is the rest of a call continued on a line of its own; its
// arguments are separated by commas (no comma in Args), so that a line of
// words is not taken for one.
type cont struct {
	Pos   lexer.Position
	Comma bool    `parser:"@','?"`
	Args  []*elem `parser:"( @@ ( ',' @@ )* )?"`
	Tail  tail    `parser:"@@"`
}

type call struct {
	Pos  lexer.Position
	Name string  `parser:"@(Ident | '?'+) '('"`
	Args []*elem `parser:"@@*"`
	Tail tail    `parser:"@@"`
}

type resumed struct {
	Pos  lexer.Position
	Name string  `parser:"@Resumed"`
	Args []*elem `parser:"@@*"`
	Tail tail    `parser:"@@"`
}

type tail struct {
	Close      bool    `parser:"  ( @')'"`
	Result     *result `parser:"    @@? )"`
	Unfinished bool    `parser:"| ( @Unfinished"`
	Ended      *ended  `parser:"    @@? )"`
	Detached   bool    `parser:"| @Detached"`
}

// ended is the ") = ?" after "<unfinished ...>" that strace writes when the
// process ended inside the call (strace's print_event_exit: the thread
// exited, or another thread's exit_group or execve took it, before the
// call returned). "<unfinished ...>" there says that what the call's
// return would have decoded was never written; the result is always "?".
type ended struct {
	Pos    lexer.Position
	Result *endedResult `parser:"')' @@"`
}

// endedResult is the "= ?" of ended, with its position.
type endedResult struct {
	Pos     lexer.Position
	Unknown bool `parser:"'=' @'?'"`
}

type result struct {
	Pos         lexer.Position
	Unknown     bool    `parser:"'=' ( @'?'"`
	Value       *expr   `parser:"    | @@ )"`
	Comment     *string `parser:"@Comment?"`
	Errno       *ident  `parser:"@@?"`
	Notes       []*note `parser:"@@*"`
	Unavailable bool    `parser:"@Unavailable?"`
	Dur         *durTok `parser:"@@?"`
}

type durTok struct {
	Pos  lexer.Position
	Text string `parser:"@Duration"`
}

// note is a parenthesised text after a return value; its text is sliced
// from the line between the parentheses (see closeParen).
type note struct {
	Pos  lexer.Position
	Open string      `parser:"@'('"`
	Body []*noteItem `parser:"@@* ')'"`
}

type noteItem struct {
	Pos   lexer.Position
	Inner *note  `parser:"  @@"`
	Tok   string `parser:"| @(Ident | Number | Float | String | Comment | Fd | Deleted | Ellipsis | Sep | BinOp | Unary | Punct | Clock | PidTag | Resuming | Duration | Unfinished | Unavailable | Detached | Resumed)"`
}

// signal is "--- SIGNAME {siginfo} ---", "--- stopped by SIGNAME ---", the
// older "--- SIGNAME (text) @ 0 (0) ---" whose rest is kept as text, or
// strace 4.x's "--- {si_signo=SIGNAME, ...} (text) ---" with no name before
// the structure.
type signal struct {
	Pos     lexer.Position
	Words   []*ident    `parser:"'---' @@*"`
	Info    bool        `parser:"( @'{'"`
	Members []*elem     `parser:"  @@* '}' )?"`
	Rest    []*noteItem `parser:"@@*"`
	End     *dashes     `parser:"@@"`
}

// dashes is the "---" that closes a signal line.
type dashes struct {
	Pos  lexer.Position
	Text string `parser:"@'---'"`
}

type exit struct {
	Pos   lexer.Position
	Words []*exitWord `parser:"'+++' @@+ '+++'"`
}

type exitWord struct {
	Pos  lexer.Position
	Text string `parser:"@(Ident | Number | '(' | ')')"`
}

// elem is one element of an argument list: a separator, a comment, a
// value possibly labelled (the label is the value before "="; an empty
// value after it is an empty flag set, "c_iflag="), or a value after an
// operator with no operand before it: the "=> {...}" that a resumed half
// of clone3 starts with, the "|0x800" of -X raw.
type elem struct {
	Pos     lexer.Position
	Comma   bool     `parser:"  @','"`
	Left    *primary `parser:"| @@"`
	Right   []*binop `parser:"  @@*"`
	Eq      bool     `parser:"  ( @'='"`
	Assign  *expr    `parser:"    @@? )?"`
	Comment *string  `parser:"| @Comment"`
	Lead    *lead    `parser:"| @@"`
}

// lead is the operators and operands of a value that starts with an
// operator (a type of its own, so that an elem stays small).
type lead struct {
	Ops []*binop `parser:"@@+"`
}

// alts is the "or NAME" alternatives after a name.
type alts struct {
	Names []*ident `parser:"( 'or' @@ )+"`
}

// expr is operands joined by binary operators, precedence left to the
// conversion.
type expr struct {
	Pos   lexer.Position
	Left  *primary `parser:"@@"`
	Right []*binop `parser:"@@*"`
}

// binop is a binary operator and its right operand; the BinOp token is
// every binary operator, so that one token type stands for them all.
type binop struct {
	Op    string   `parser:"@BinOp"`
	Right *primary `parser:"@@"`
}

// primary is one value, after its unary operators; the alternatives are in
// the order of how often strace writes them, as each one tried costs.
type primary struct {
	Pos      lexer.Position
	Ops      []string `parser:"@(Unary | '&')*"`
	Ident    *string  `parser:"( @Ident"`
	Call     bool     `parser:"  ( @'('"`
	CallArgs []*elem  `parser:"    @@* ')' )?"`
	Or       *alts    `parser:"  @@?"`
	Number   *string  `parser:"| @Number"`
	String   *string  `parser:"| @String"`
	Trunc    bool     `parser:"  @'...'?"`
	Open     *string  `parser:"| @('{' | '[')"`
	Items    []*elem  `parser:"  @@*"`
	Close    string   `parser:"  @('}' | ']')"`
	Fd       *string  `parser:"| @Fd"`
	Deleted  bool     `parser:"  @Deleted?"`
	Float    *string  `parser:"| @Float"`
	HWAddr   *string  `parser:"| @HWAddr"`
	Ellipsis bool     `parser:"| @'...'"`
	Resuming *string  `parser:"| @Resuming"`
	Question bool     `parser:"| @'?'"`
	Paren    *expr    `parser:"| '(' @@ ')' )"`
	Comment  *string  `parser:"@Comment?"`
}

// converter turns positions relative to the line into ast positions and
// collects diagnostics.
type converter struct {
	lineconv.Converter
	text  string
	nodes *nodes     // where leaves come from; nil: one allocation each
	once  *lineNodes // the line's own nodes
}

// nodes hands out the frequent leaves of the syntax tree (nodes without
// pointers to other nodes) from chunks (grammar/internal/chunk), so that a
// line costs a fraction of an allocation a leaf. A nil *nodes allocates each
// leaf on its own (through a nil *chunk.Of, so that v does not escape when
// n is not nil). Nodes that point to others are never taken from chunks
// shared between lines: a chunk stays alive while any of its nodes is, and
// through their pointers would keep older chunks alive, without end. They
// are allocated a line (lineNodes), a list or an operator at a time.
type nodes struct {
	times  chunk.Of[sast.Time]
	durs   chunk.Of[sast.Duration]
	idents chunk.Of[sast.Ident]
	ints   chunk.Of[sast.Int]
	strs   chunk.Of[sast.String]
	elided chunk.Of[sast.Elided]
	notes  chunk.Slices[sast.Note]
	// Structures, arrays, resumed halves and signals point to other
	// nodes: they come from chunks only when the chunks are reset each
	// line (reuse, LineParser.Reuse), so that no chain of chunks can form.
	reuse    bool
	structs  chunk.Of[sast.Struct]
	arrays   chunk.Of[sast.Array]
	resumeds chunk.Of[sast.Resumed]
	signals  chunk.Of[sast.Signal]
	// The nodes with pointers: a line's own nodes, operators and the
	// blocks of argument lists (the arguments and the pointers to them).
	lines chunk.Of[lineNodes]
	ops   chunk.Of[opNodes]
	args  chunk.Slices[sast.Arg]
	argps chunk.Slices[*sast.Arg]
}

// reset hands out the nodes of the last chunks again (LineParser.Reuse).
func (n *nodes) reset() {
	n.times.Reset()
	n.durs.Reset()
	n.idents.Reset()
	n.ints.Reset()
	n.strs.Reset()
	n.elided.Reset()
	n.notes.Reset()
	n.structs.Reset()
	n.arrays.Reset()
	n.resumeds.Reset()
	n.signals.Reset()
	n.lines.Reset()
	n.ops.Reset()
	n.args.Reset()
	n.argps.Reset()
}

func (n *nodes) time(v sast.Time) *sast.Time {
	if n == nil {
		return (*chunk.Of[sast.Time])(nil).New(v)
	}
	return n.times.New(v)
}

func (n *nodes) dur(v sast.Duration) *sast.Duration {
	if n == nil {
		return (*chunk.Of[sast.Duration])(nil).New(v)
	}
	return n.durs.New(v)
}

func (n *nodes) ident(v sast.Ident) *sast.Ident {
	if n == nil {
		return (*chunk.Of[sast.Ident])(nil).New(v)
	}
	return n.idents.New(v)
}

func (n *nodes) int(v sast.Int) *sast.Int {
	if n == nil {
		return (*chunk.Of[sast.Int])(nil).New(v)
	}
	return n.ints.New(v)
}

func (n *nodes) str(v sast.String) *sast.String {
	if n == nil {
		return (*chunk.Of[sast.String])(nil).New(v)
	}
	return n.strs.New(v)
}

func (n *nodes) elide(pos ast.Pos) *sast.Elided {
	if n == nil {
		return (*chunk.Of[sast.Elided])(nil).New(sast.Elided{Pos: pos})
	}
	return n.elided.New(sast.Elided{Pos: pos})
}

// noteSlice returns an empty slice of notes with capacity size.
func (n *nodes) noteSlice(size int) []sast.Note {
	if n == nil {
		return make([]sast.Note, 0, size)
	}
	return n.notes.Make(size)
}

func (n *nodes) structure(v sast.Struct) *sast.Struct {
	if n == nil || !n.reuse {
		return (*chunk.Of[sast.Struct])(nil).New(v)
	}
	return n.structs.New(v)
}

func (n *nodes) array(v sast.Array) *sast.Array {
	if n == nil || !n.reuse {
		return (*chunk.Of[sast.Array])(nil).New(v)
	}
	return n.arrays.New(v)
}

func (n *nodes) resumed(v sast.Resumed) *sast.Resumed {
	if n == nil || !n.reuse {
		return (*chunk.Of[sast.Resumed])(nil).New(v)
	}
	return n.resumeds.New(v)
}

func (n *nodes) signal(v sast.Signal) *sast.Signal {
	if n == nil || !n.reuse {
		return (*chunk.Of[sast.Signal])(nil).New(v)
	}
	return n.signals.New(v)
}

func (n *nodes) lineNodes(pos ast.Pos) *lineNodes {
	if n == nil {
		return &lineNodes{line: sast.Line{Pos: pos}}
	}
	return n.lines.New(lineNodes{line: sast.Line{Pos: pos}})
}

// argBlock returns empty slices of arguments and of pointers to arguments
// with capacity n each.
func (n *nodes) argBlock(size int) ([]sast.Arg, []*sast.Arg) {
	if n == nil {
		return make([]sast.Arg, 0, size), make([]*sast.Arg, 0, size)
	}
	return n.args.Make(size), n.argps.Make(size)
}

// lineNodes are the nodes of a call line that it has once, in one
// allocation.
type lineNodes struct {
	line   sast.Line
	call   sast.Call
	result sast.Result
}

// opNodes is an operator node with room for two operands, in one
// allocation.
type opNodes struct {
	op       sast.Op
	operands [2]sast.Value
}

// newOp returns an operator node with the operands given.
func (c *converter) newOp(pos ast.Pos, op string, operands ...sast.Value) *sast.Op {
	var o *opNodes
	if c.nodes == nil {
		o = &opNodes{op: sast.Op{Pos: pos, Op: op}}
	} else {
		o = c.nodes.ops.New(opNodes{op: sast.Op{Pos: pos, Op: op}})
	}
	o.op.Operands = append(o.operands[:0:2], operands...)
	return &o.op
}

func (c *converter) syntax(err error) { c.ParseError(err, sast.CodeSyntax, "not strace output") }

// ParseLine parses one line of strace output. pos is where the line starts;
// the line has no line break. It returns nil and at least one error when the
// line is malformed, and warnings with a line.
func ParseLine(pos ast.Pos, text string) (*sast.Line, diag.List) {
	var lp LineParser
	return lp.line(pos, text, nil)
}

// LineParser parses lines with the parsers generated from the grammar
// (parsers_gen.go), keeping their buffers from line to line: a lowering
// makes one per input. The zero LineParser is ready to use; it is not safe
// for concurrent use. The lines it returns stay valid: their nodes come from
// chunks that are not reused, unless Reuse says so.
type LineParser struct {
	gen      lineParserGen
	restGen  restParserGen
	tableGen tableParserGen
	table    tableLine
	parsed   line
	rest     restLine
	// Reference parses with participle's reflective parsers instead, the
	// reference the generated ones are tested against.
	Reference bool
	// Reuse makes Line return lines that stay valid only until the next
	// call (their nodes' storage is reused): for a lowering that keeps no
	// node, so that a line costs no allocation of nodes.
	Reuse bool
	nodes nodes
}

// Line parses one line, as ParseLine does. Its nodes come from chunks the
// parser allocates 64 nodes at a time.
func (lp *LineParser) Line(pos ast.Pos, text string) (*sast.Line, diag.List) {
	if lp.Reuse {
		lp.nodes.reset()
	}
	lp.nodes.reuse = lp.Reuse
	return lp.line(pos, text, &lp.nodes)
}

func (lp *LineParser) line(pos ast.Pos, text string, nodes *nodes) (*sast.Line, diag.List) {
	c := &converter{Converter: lineconv.Converter{Base: pos, Words: lineWords}, text: text, nodes: nodes}
	// "strace: " is searched for only where it can be: at the start, after
	// the path strace was started by, or in a message that ends the line.
	si := -1
	switch {
	case strings.HasPrefix(text, "strace: "):
		si = 0
	case strings.HasPrefix(text, "/") || strings.HasSuffix(text, "attached") || strings.HasSuffix(text, "detached"):
		si = strings.Index(text, "strace: ")
	}
	if part, tip, ok := tipLine(text); ok {
		return &sast.Line{Pos: pos, Body: &sast.Tip{Pos: pos, Part: part, Text: tip}}, nil
	}
	if isRest(text, si) {
		c.Words = restWords
		return c.rest(lineconv.Parse(lp.Reference, restParser, &lp.restGen, text, &lp.rest))
	}
	if k, ok := tableKind(text); ok {
		c.Words = tableWords
		t, err := lineconv.Parse(lp.Reference, tableParser, &lp.tableGen, text, &lp.table)
		return c.table(k, t, err)
	}
	// strace's own message in the middle of the line: the line is parsed
	// up to it, as a call broken off there.
	var inline *sast.Message
	if i := inlineMessage(text, si); i > 0 {
		inline = message(c.At(i), text[i:])
		text = text[:i] + " <unfinished ...>"
		c.text = text
	}
	if off, ok := tooDeep(text); !ok {
		c.TooDeep(off, sast.CodeDepth)
		return nil, c.Diags
	}
	p, err := lineconv.Parse(lp.Reference, lineParser, &lp.gen, text, &lp.parsed)
	if err != nil {
		c.syntax(err)
		return nil, c.Diags
	}
	c.once = nodes.lineNodes(pos)
	l := &c.once.line
	l.Inline = inline
	if t := p.PidTag; t != nil && p.Time == nil && p.IP == nil && p.Cont != nil && p.Cont.Comma &&
		p.Cont.Pos.Offset == t.Pos.Offset+len(t.Text) && t.Text[0] >= '0' && t.Text[0] <= '9' {
		// strace 6.1 -Z (--failed-only) writes the rest of a call it left
		// unfinished, once the call failed, on a line of its own without
		// the pid: "0x7ffe4e848a20, 0)   = -1 ENOENT (...)". A number
		// right before the comma is the call's argument, not a pid (a
		// pid is followed by white space).
		num := t.Text
		first := &elem{Pos: t.Pos, Left: &primary{Pos: t.Pos, Number: &num}}
		p.Cont.Args = append([]*elem{first}, p.Cont.Args...)
		p.Cont.Comma, p.Cont.Pos, p.PidTag = false, t.Pos, nil
	}
	if p.PidTag != nil {
		c.prefix(l, p.PidTag, p.Time)
	}
	for _, ip := range [2]*ipTok{p.IP, p.IP2} {
		if ip != nil {
			c.bracketed(l, ip)
		}
	}
	switch {
	case p.Call != nil:
		l.Body = c.call(p.Call)
	case p.Resumed != nil:
		l.Body = c.resumed(p.Resumed)
	case p.Signal != nil:
		l.Body = c.signal(p.Signal)
	case p.Exit != nil:
		l.Body = c.exit(p.Exit)
	case p.Mode != nil:
		l.Body = c.mode(p.Mode)
	case p.Cont != nil:
		l.Body = c.cont(p.Cont)
	}
	if c.Diags.Failed() {
		return nil, c.Diags
	}
	return l, c.Diags
}

// bracketed reads a bracketed number after the time stamp: the syscall
// number of -n ("[  59]", decimal, printed in four columns) or the
// instruction pointer of -i ("[00007f0e3c3a0f3b]", hex, eight or sixteen
// digits, or question marks).
func (c *converter) bracketed(l *sast.Line, ip *ipTok) {
	if ip.Hex != nil && len(*ip.Hex) < 8 && isDigits(*ip.Hex) && !l.HasNr && l.IP == "" {
		l.HasNr, l.Nr = true, c.pid(&prefixTok{Pos: ip.Pos, Text: *ip.Hex}, *ip.Hex)
		return
	}
	if l.IP != "" {
		c.Report(c.Pos(ip.Pos), diag.Error, sast.CodeSyntax, "not strace output: a second instruction pointer")
		return
	}
	l.IP = "?"
	if ip.Hex != nil {
		l.IP = *ip.Hex
		if _, err := strconv.ParseUint(l.IP, 16, 64); err != nil {
			c.Report(c.Pos(ip.Pos), diag.Error, sast.CodeNumber, "instruction pointer "+strconv.Quote(l.IP)+" is not hex or too large")
		}
	}
}

// inlineMessage returns, given the offset i of "strace: " in text (-1:
// none), the offset of strace's own "Process N attached"
// or "detached" message written into the middle of a line (strace writes
// its messages to stderr; where the trace goes there too, a message cuts
// the line it comes in), or -1. strace names itself as it was started:
// "strace: " or "/usr/bin/strace: "; strace 4.x wrote the message with no
// name ("...|SIGCHLDProcess 5 attached").
func inlineMessage(text string, i int) int {
	if i < 0 && (strings.HasSuffix(text, "attached") || strings.HasSuffix(text, "detached")) {
		if j := strings.LastIndex(text, "Process "); j > 0 && isProcessMessage(text[j:]) {
			return j
		}
		return -1
	}
	if i <= 0 || !strings.HasPrefix(text[i:], "strace: Process ") {
		return -1
	}
	// A path before the name ("/usr/bin/strace: ") starts at the first
	// slash of the run of path characters before it (what comes before
	// the slash, "2/usr/bin/", is the cut line's).
	start := i
	if text[i-1] == '/' {
		j := i - 1
		for j > 0 && isPathByte(text[j-1]) {
			j--
		}
		start = j + strings.IndexByte(text[j:i], '/')
		if text[start-1] == '*' {
			// The slash closes a comment of the cut line, "/* 35
			// vars */strace: Process 5 detached" (-b execve): the
			// path, if any, starts after it.
			start++
		}
	}
	if start == 0 || !isProcessMessage(text[i+len("strace: "):]) {
		return -1
	}
	return start
}

// isPathByte reports whether b may be in the path strace was started by.
func isPathByte(b byte) bool {
	return b == '/' || b == '.' || b == '_' || b == '-' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// isProcessMessage reports whether s is "Process N attached" or
// "Process N detached", possibly followed by more.
func isProcessMessage(s string) bool {
	f := strings.Fields(s)
	return len(f) >= 3 && f[0] == "Process" && isDigits(f[1]) && (f[2] == "attached" || f[2] == "detached")
}

// isRest reports whether text, where "strace: " is at i (-1: nowhere),
// is a line of the rest grammar: a "strace: "
// message (also under the path strace was started with), strace 4.x's
// "Process N attached - interrupt to quit" or "Process N detached" with no
// "strace: " before it, a stack frame ("> ..." or ">" after blanks) or a
// line of a hex dump (" | ...").
func isRest(text string, i int) bool {
	if i >= 0 && (i == 0 || text[0] == '/' && strings.HasSuffix(text[:i], "/") && !strings.ContainsAny(text[:i], " \t")) {
		return true
	}
	b := 0
	for b < len(text) && (text[b] == ' ' || text[b] == '\t') {
		b++
	}
	t := text[b:]
	return strings.HasPrefix(t, "> ") || t == ">" || b > 0 && strings.HasPrefix(t, "| ") || b == 0 && strings.HasPrefix(t, "Process ") && isProcessMessage(t)
}

// The geometry of the box strace 6 writes with --tips (its src/strauss.c):
// a box of tipBox columns, its top and bottom a rule of tipRule underscores, the
// tip in tipWidth columns between a left edge of three characters and a
// right edge of five, the mascot drawn after them.
const (
	tipBox   = 52
	tipRule  = 46
	tipLeft  = 3
	tipRight = 5
	tipWidth = tipBox - tipLeft - tipRight
)

var (
	tipTop    = "  " + strings.Repeat("_", tipRule) + "    "
	tipBottom = " \\" + strings.Repeat("_", tipRule) + "/   "
	tipArt    = strings.Repeat(" ", tipBox)
)

// tipLine tells a line of the --tips box (sast.Tip) by its geometry, which
// no other line strace writes has: the top and bottom of the box (a rule
// of 46 underscores), a line of the tip (" | " or " / ", 44 columns, then
// one of the right edges), and the mascot's lines under it (52 blanks
// first). It returns the part and a tip line's text.
func tipLine(text string) (sast.TipPart, string, bool) {
	if len(text) <= tipBox || text[0] != ' ' {
		return 0, "", false
	}
	switch {
	case strings.HasPrefix(text, tipTop):
		return sast.TipTop, "", true
	case strings.HasPrefix(text, tipBottom):
		return sast.TipBottom, "", true
	case strings.HasPrefix(text, tipArt):
		return sast.TipArt, "", true
	case text[:tipLeft] == " | " || text[:tipLeft] == " / ":
		switch text[tipLeft+tipWidth : tipLeft+tipWidth+tipRight] {
		case " \\   ", " |   ", "  \\  ", "  _\\ ", " /   ":
			return sast.TipText, strings.TrimRight(text[tipLeft:tipLeft+tipWidth], " "), true
		}
	}
	return 0, "", false
}

// message is strace's message text, after "strace: ".
func message(pos ast.Pos, text string) *sast.Message {
	if i := strings.Index(text, "strace: "); i >= 0 {
		text = text[i+len("strace: "):]
	}
	m := &sast.Message{Pos: pos, Text: text}
	if f := strings.Fields(text); len(f) >= 3 && f[0] == "Process" && (f[2] == "attached" || f[2] == "detached") {
		if n, err := strconv.ParseUint(f[1], 10, 64); err == nil {
			m.Process, m.Verb = n, f[2]
		}
	}
	return m
}

// rest converts a "strace: " message, a " > " stack frame or a " | " line
// of a hex dump.
func (c *converter) rest(p *restLine, err error) (*sast.Line, diag.List) {
	if err != nil {
		c.syntax(err)
		return nil, c.Diags
	}
	l := &sast.Line{Pos: c.Base}
	body := ""
	bodyPos := c.Base
	if p.Rest != nil {
		body, bodyPos = p.Rest.Text, c.Pos(p.Rest.Pos)
	}
	switch p.Lead {
	case ">":
		l.Body = &sast.Frame{Pos: bodyPos, Text: body}
		return l, nil
	case "|":
		l.Body = &sast.Dump{Pos: bodyPos, Text: strings.TrimSpace(strings.TrimSuffix(body, "|"))}
		return l, nil
	}
	if p.Old != nil {
		body, bodyPos = p.Old.Text, c.Pos(p.Old.Pos)
	}
	m := message(bodyPos, body)
	l.Body = m
	return l, nil
}

// tableKind tells the lines of a summary table (-c, -C, -w) from the
// others: the header (the titles of the columns, "% time  seconds ..." or,
// with -U, those asked for, always with "syscall"), the rules of dashes,
// and the rows: words of digits (with a decimal point) and one name (the
// syscall or "total"), nothing else. With -U a row may be the name alone
// ("-U name", or "-U errors" and no error) or one number and the name.
// Such lines are no other strace output. Before the table of a second
// personality strace writes its title, "System call usage summary for 32
// bit mode:".
func tableKind(text string) (sast.TableKind, bool) {
	t := strings.TrimLeft(text, " ")
	if t == "" {
		return 0, false
	}
	switch {
	case t[0] == '-':
		// A rule is a run of dashes a column ("-U name": one run).
		if strings.Trim(t, "- ") == "" && strings.Count(t, "-") >= 6 {
			return sast.TableRule, true
		}
		return 0, false
	case isTableHeader(t):
		return sast.TableHeader, true
	case t[0] == 'S' && strings.HasPrefix(t, "System call usage summary for ") && strings.HasSuffix(t, " mode:"):
		return sast.TableTitle, true
	}
	// Only letters, digits, '_', '.' and blanks (a quick refusal of
	// every other line, with no allocation), then the words.
	for i := 0; i < len(t); i++ {
		b := t[i]
		if !(b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '_' || b == '.' || b == ' ' || b == '\t' || b >= 'A' && b <= 'Z') {
			return 0, false
		}
	}
	words, numbers := 0, 0
	for i := 0; i < len(t); {
		if t[i] == ' ' || t[i] == '\t' {
			i++
			continue
		}
		j := i
		for j < len(t) && t[j] != ' ' && t[j] != '\t' {
			j++
		}
		w := t[i:j]
		i = j
		words++
		switch {
		case isNumberWord(w):
			numbers++
		case !isName(w):
			return 0, false
		}
	}
	if words-numbers != 1 {
		return 0, false
	}
	return sast.TableRow, true
}

// tableTitles are the words of the titles strace gives the columns of its
// summary table (-U names them time-percent or time, total-time,
// avg-time, calls, errors, name, min-time, max-time).
var tableTitles = map[string]bool{"%": true, "time": true, "seconds": true, "usecs/call": true, "calls": true, "errors": true, "syscall": true, "shortest": true, "longest": true}

// isTableHeader reports whether t, a line without its leading blanks, is
// made of column titles only, among them "syscall" (strace always writes
// the name column).
func isTableHeader(t string) bool {
	switch t[0] {
	case '%', 's', 'u', 'c', 'e', 'l': // the first letters of the titles
	default:
		return false
	}
	first := t
	if i := strings.IndexAny(t, " \t"); i >= 0 {
		first = t[:i]
	}
	if !tableTitles[first] {
		return false // the quick refusal of every other line, before Fields allocates
	}
	name := false
	for _, w := range strings.Fields(t) {
		if !tableTitles[w] {
			return false
		}
		name = name || w == "syscall"
	}
	return name
}

// isNumberWord reports whether w is digits with at most one decimal point.
func isNumberWord(w string) bool {
	i := strings.IndexByte(w, '.')
	if i < 0 {
		return isDigits(w)
	}
	return isDigits(w[:i]) && isDigits(w[i+1:])
}

// table converts a line of a summary table.
func (c *converter) table(k sast.TableKind, p *tableLine, err error) (*sast.Line, diag.List) {
	if err != nil {
		c.syntax(err)
		return nil, c.Diags
	}
	t := &sast.Table{Pos: c.Base, Kind: k, Words: make([]sast.TableWord, len(p.Words))}
	for i, w := range p.Words {
		t.Words[i] = sast.TableWord{Col: w.Pos.Offset, Text: w.Text}
	}
	return &sast.Line{Pos: c.Base, Body: t}, nil
}

// prefix reads the pid and time stamp. The grammar takes the first of them
// in PidTag: a "[pid N]" tag, a bare pid (an integer) or a time stamp.
func (c *converter) prefix(l *sast.Line, first, second *prefixTok) {
	t := first
	switch {
	case strings.HasPrefix(first.Text, "[pid"):
		l.PIDForm = sast.BracketPID
		n := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(first.Text, "[pid"), "]"))
		if i := strings.IndexByte(n, '<'); i >= 0 {
			n, l.Comm = n[:i], n[i+1:len(n)-1]
		}
		l.PID = c.pid(first, n)
		t = second
	case strings.HasSuffix(first.Text, ">") && strings.IndexByte(first.Text, '<') > 0 && isDigits(first.Text[:strings.IndexByte(first.Text, '<')]):
		// -Y: the pid column with the command name, "123<comm>".
		i := strings.IndexByte(first.Text, '<')
		l.PIDForm = sast.ColumnPID
		l.PID = c.pid(first, first.Text[:i])
		l.Comm = first.Text[i+1 : len(first.Text)-1]
		t = second
	case isDigits(first.Text) && (second != nil || !wholeSeconds(first)):
		l.PIDForm = sast.ColumnPID
		l.PID = c.pid(first, first.Text)
		t = second
	case isDigits(first.Text):
		// A time stamp of whole seconds, with no pid column before it.
	default:
		if second != nil {
			c.Report(c.Pos(second.Pos), diag.Error, sast.CodeSyntax, "not strace output: "+strconv.Quote(second.Text)+" after the time stamp")
		}
	}
	if t == nil {
		return
	}
	p := c.Pos(t.Pos)
	switch {
	case strings.Contains(t.Text, ":"):
		ns, ok := clockNs(t.Text)
		if !ok {
			c.Report(p, diag.Error, sast.CodeNumber, "time stamp "+strconv.Quote(t.Text)+" is not a time of day")
		}
		l.Time = c.nodes.time(sast.Time{Pos: p, Form: sast.ClockTime, Text: t.Text, Ns: ns})
	case strings.Contains(t.Text, ".") || isDigits(t.Text):
		// SECS.frac, or whole seconds (precision:s).
		ns, ok := secondsNs(t.Text)
		if !ok {
			c.Report(p, diag.Error, sast.CodeNumber, "time stamp "+strconv.Quote(t.Text)+" is malformed or too large")
		}
		l.Time = c.nodes.time(sast.Time{Pos: p, Form: sast.Seconds, Text: t.Text, Ns: ns})
	default:
		c.Report(p, diag.Error, sast.CodeSyntax, "not strace output: "+strconv.Quote(t.Text)+" is neither a pid nor a time stamp")
	}
}

// pidLimit is PID_MAX_LIMIT, the most /proc/sys/kernel/pid_max may be
// on 64-bit Linux: every pid is below it.
const pidLimit = 1 << 22

// wholeSeconds reports whether the one number before the body, t, is a
// time stamp of whole seconds, which strace 6 writes for
// --relative-timestamps=s and --timestamps=unix,s, rather than the pid
// column of -f: strace writes that column at the start of the line
// ("%-5d "), where the relative time stamp is right-aligned in six
// columns ("%6ld"), and no pid reaches pidLimit, where seconds since the
// epoch are ten digits.
func wholeSeconds(t *prefixTok) bool {
	if t.Pos.Offset > 0 {
		return true
	}
	v, ok := decimal(t.Text)
	return !ok || v >= pidLimit
}

func (c *converter) pid(t *prefixTok, digits string) uint64 {
	if v, ok := decimal(digits); ok {
		return v
	}
	v, err := strconv.ParseUint(digits, 10, 64)
	if err != nil {
		c.Report(c.Pos(t.Pos), diag.Error, sast.CodeNumber, "pid "+strconv.Quote(digits)+" is malformed or too large")
	}
	return v
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// clockNs reads HH:MM:SS[.frac] as nanoseconds of the day.
func clockNs(s string) (int64, bool) {
	if len(s) < 8 {
		return 0, false
	}
	h, err1 := strconv.Atoi(s[0:2])
	m, err2 := strconv.Atoi(s[3:5])
	sec, err3 := strconv.Atoi(s[6:8])
	if err1 != nil || err2 != nil || err3 != nil || h > 23 || m > 59 || sec > 60 {
		return 0, false
	}
	frac := int64(0)
	if len(s) > 8 {
		var ok bool
		if frac, ok = fracNs(s[9:]); !ok {
			return 0, false
		}
	}
	return (int64(h)*3600+int64(m)*60+int64(sec))*1e9 + frac, true
}

// secondsNs reads SECS.frac, or the whole SECS of strace 6's precision:s,
// as nanoseconds.
func secondsNs(s string) (int64, bool) {
	whole, frac, dotted := strings.Cut(s, ".")
	var sec int64
	if v, ok := decimal(whole); ok {
		if v > 9e9 {
			return 0, false
		}
		sec = int64(v)
	} else if v, err := strconv.ParseInt(whole, 10, 64); err == nil && v <= 9e9 {
		sec = v
	} else {
		return 0, false
	}
	var ns int64
	if dotted {
		var ok bool
		if ns, ok = fracNs(frac); !ok {
			return 0, false
		}
	}
	return sec*1e9 + ns, true
}

// fracNs reads the digits after a decimal point as nanoseconds (up to nine
// digits).
func fracNs(d string) (int64, bool) {
	if d == "" || len(d) > 9 || !isDigits(d) {
		return 0, false
	}
	v := int64(0)
	for i := 0; i < len(d); i++ {
		v = v*10 + int64(d[i]-'0')
	}
	for range 9 - len(d) {
		v *= 10
	}
	return v, true
}

func (c *converter) call(p *call) *sast.Call {
	out := &c.once.call
	pos := c.Pos(p.Pos)
	*out = sast.Call{Pos: pos, Name: c.nodes.ident(sast.Ident{Pos: pos, Name: p.Name})}
	out.Args = c.list(p.Args, true)
	out.Unfinished, out.Detached, out.Undecoded, out.Result = c.tail(&p.Tail)
	return out
}

func (c *converter) resumed(p *resumed) *sast.Resumed {
	name := strings.TrimSuffix(strings.TrimPrefix(p.Name, "<... "), " resumed>")
	out := c.nodes.resumed(sast.Resumed{Pos: c.Pos(p.Pos), Name: c.nodes.ident(sast.Ident{Pos: c.At(p.Pos.Offset + 5), Name: name})})
	out.Args = c.list(p.Args, true)
	out.Unfinished, out.Detached, out.Undecoded, out.Result = c.tail(&p.Tail)
	return out
}

func (c *converter) cont(p *cont) *sast.Continued {
	out := &sast.Continued{Pos: c.Pos(p.Pos)}
	// The grammar took the commas between the arguments: list wants
	// them back.
	elems := make([]*elem, 0, 2*len(p.Args))
	for i, e := range p.Args {
		if i > 0 {
			elems = append(elems, &elem{Comma: true})
		}
		elems = append(elems, e)
	}
	out.Args = c.list(elems, true)
	out.Unfinished, out.Detached, out.Undecoded, out.Result = c.tail(&p.Tail)
	return out
}

// tail returns what the end of a call, a second half or the rest of a call
// says: whether it was left unfinished or detached, whether the process
// ended inside the call before strace decoded its return ("<unfinished
// ...>) = ?": undecoded, not unfinished, with the result "?"), and the
// result.
func (c *converter) tail(t *tail) (unfinished, detached, undecoded bool, r *sast.Result) {
	switch {
	case t.Ended != nil:
		r = &c.once.result
		*r = sast.Result{Pos: c.Pos(t.Ended.Result.Pos)}
		return false, false, true, r
	case t.Result != nil:
		return t.Unfinished, t.Detached, false, c.result(t.Result)
	}
	return t.Unfinished, t.Detached, false, nil
}

func (c *converter) result(p *result) *sast.Result {
	r := &c.once.result
	*r = sast.Result{Pos: c.Pos(p.Pos), Unavailable: p.Unavailable}
	if p.Value != nil {
		r.Value = c.expr(p.Value)
	}
	if p.Errno != nil {
		r.Errno = c.nodes.ident(sast.Ident{Pos: c.Pos(p.Errno.Pos), Name: p.Errno.Text})
		if !isErrno(p.Errno.Text) {
			c.Report(r.Errno.Pos, diag.Error, sast.CodeSyntax, "not strace output: "+strconv.Quote(p.Errno.Text)+" after the return value is not an error symbol (E...)")
		}
	}
	if len(p.Notes) > 0 {
		r.Notes = c.nodes.noteSlice(len(p.Notes))
	}
	for _, n := range p.Notes {
		r.Notes = append(r.Notes, sast.Note{Pos: c.Pos(n.Pos), Text: c.text[n.Pos.Offset+1 : c.closeParen(n)]})
	}
	if p.Dur != nil {
		d := strings.TrimSuffix(strings.TrimPrefix(p.Dur.Text, "<"), ">")
		ns, ok := secondsNs(d)
		if !ok {
			c.Report(c.Pos(p.Dur.Pos), diag.Error, sast.CodeNumber, "duration "+strconv.Quote(d)+" is malformed or too large")
		}
		r.Dur = c.nodes.dur(sast.Duration{Pos: c.Pos(p.Dur.Pos), Text: d, Ns: ns})
	}
	return r
}

// closeParen returns the offset of the ")" that closes n: the first
// character that is not white space after its last item (only white space
// is elided between tokens, and a token's text is as written).
func (c *converter) closeParen(n *note) int {
	end := n.Pos.Offset + len(n.Open)
	if len(n.Body) > 0 {
		last := n.Body[len(n.Body)-1]
		if last.Inner != nil {
			end = c.closeParen(last.Inner) + 1
		} else {
			end = last.Pos.Offset + len(last.Tok)
		}
	}
	return c.skipSpace(end)
}

func (c *converter) signal(p *signal) *sast.Signal {
	s := c.nodes.signal(sast.Signal{Pos: c.Pos(p.Pos)})
	if len(p.Words) == 0 {
		return c.oldSignal(s, p)
	}
	last := p.Words[len(p.Words)-1]
	s.Name = c.nodes.ident(sast.Ident{Pos: c.Pos(last.Pos), Name: last.Text})
	switch {
	case len(p.Words) == 3 && p.Words[0].Text == "stopped" && p.Words[1].Text == "by":
		s.Stopped = true
	case len(p.Words) != 1:
		c.Report(c.Pos(p.Words[0].Pos), diag.Error, sast.CodeSyntax, "not strace output: a signal line is --- SIGNAME {...} --- or --- stopped by SIGNAME ---")
	}
	if !strings.HasPrefix(last.Text, "SIG") || !isName(last.Text) {
		c.Report(c.Pos(last.Pos), diag.Error, sast.CodeSyntax, "not strace output: "+strconv.Quote(last.Text)+" is not a signal name")
	}
	if p.Info {
		from := last.Pos.Offset + len(last.Text)
		s.Info = c.nodes.structure(sast.Struct{Pos: c.At(from + strings.IndexByte(c.text[from:], '{')), Members: c.list(p.Members, false)})
	}
	if len(p.Rest) > 0 {
		from := p.Rest[0].Pos.Offset
		s.Text = strings.TrimSpace(c.text[from:p.End.Pos.Offset])
	}
	return s
}

// oldSignal converts strace 4.x's "--- {si_signo=SIGCHLD, ...} (text) ---":
// the name is the structure's si_signo.
func (c *converter) oldSignal(s *sast.Signal, p *signal) *sast.Signal {
	if !p.Info {
		c.Report(c.Pos(p.Pos), diag.Error, sast.CodeSyntax, "not strace output: a signal line is --- SIGNAME {...} --- or --- stopped by SIGNAME ---")
		return s
	}
	open := p.Pos.Offset + strings.IndexByte(c.text[p.Pos.Offset:], '{')
	s.Info = c.nodes.structure(sast.Struct{Pos: c.At(open), Members: c.list(p.Members, false)})
	for _, m := range s.Info.Members {
		if id, ok := m.Value.(*sast.Ident); ok && m.Label != nil && m.Label.Name == "si_signo" {
			s.Name = c.nodes.ident(sast.Ident{Pos: id.Pos, Name: id.Name})
		}
	}
	if s.Name == nil || !strings.HasPrefix(s.Name.Name, "SIG") {
		c.Report(c.At(open), diag.Error, sast.CodeSyntax, "not strace output: a signal structure without si_signo=SIGNAME")
		s.Name = &sast.Ident{Pos: c.At(open)}
	}
	if len(p.Rest) > 0 {
		s.Text = strings.TrimSpace(c.text[p.Rest[0].Pos.Offset:p.End.Pos.Offset])
	}
	return s
}

// mode makes the message of a personality line: its text is what stands
// between the brackets.
func (c *converter) mode(p *modeLine) *sast.Message {
	v, err := strconv.ParseUint(p.PID, 10, 64)
	if err != nil {
		c.Report(c.Pos(p.Pos), diag.Error, sast.CodeNumber, "pid "+strconv.Quote(p.PID)+" is malformed or too large")
	}
	mode := strings.Join(p.Mode, " ")
	return &sast.Message{Pos: c.Pos(p.Pos), Text: "Process PID=" + p.PID + " runs in " + mode + " mode.", Process: v, Verb: "personality", Mode: mode}
}

func (c *converter) exit(p *exit) *sast.Exit {
	e := &sast.Exit{Pos: c.Pos(p.Pos)}
	w := p.Words
	bad := func() *sast.Exit {
		c.Report(c.Pos(w[0].Pos), diag.Error, sast.CodeSyntax, "not strace output: an exit line is +++ exited with N +++, +++ killed by SIGNAME [(core dumped)] +++ or +++ superseded by CALL in pid N +++")
		return e
	}
	switch {
	case len(w) == 3 && w[0].Text == "exited" && w[1].Text == "with":
		v, err := strconv.ParseInt(w[2].Text, 10, 64)
		if err != nil {
			c.Report(c.Pos(w[2].Pos), diag.Error, sast.CodeNumber, "exit status "+strconv.Quote(w[2].Text)+" is malformed or too large")
		}
		e.Status = &sast.Int{Pos: c.Pos(w[2].Pos), Text: w[2].Text, Neg: v < 0, Mag: uint64(max(v, -v))}
	case len(w) == 6 && w[0].Text == "superseded" && w[1].Text == "by" && w[3].Text == "in" && w[4].Text == "pid" && isDigits(w[5].Text):
		v, err := strconv.ParseUint(w[5].Text, 10, 64)
		if err != nil {
			c.Report(c.Pos(w[5].Pos), diag.Error, sast.CodeNumber, "pid "+strconv.Quote(w[5].Text)+" is too large")
		}
		e.Superseded = &sast.Int{Pos: c.Pos(w[5].Pos), Text: w[5].Text, Mag: v}
		e.By = w[2].Text
	case len(w) >= 3 && w[0].Text == "killed" && w[1].Text == "by" && isName(w[2].Text):
		e.Killed = true
		e.Signal = &sast.Ident{Pos: c.Pos(w[2].Pos), Name: w[2].Text}
		switch {
		case len(w) == 3:
		case len(w) == 7 && w[3].Text == "(" && w[4].Text == "core" && w[5].Text == "dumped" && w[6].Text == ")":
			e.Core = true
		default:
			return bad()
		}
	default:
		return bad()
	}
	return e
}

// isErrno reports whether s looks like an error symbol: E and upper-case
// letters or digits (ENOENT, ERESTARTSYS, E2BIG).
func isErrno(s string) bool {
	if len(s) < 2 || s[0] != 'E' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !(s[i] >= 'A' && s[i] <= 'Z' || s[i] >= '0' && s[i] <= '9' || s[i] == '_') {
			return false
		}
	}
	return true
}

func isName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		if !(b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z') {
			return false
		}
	}
	return true
}

// list converts the elements of an argument list, a structure, an array or
// a macro's arguments. A comment right after a value (no comma between)
// belongs to it; a lone comment stands for values strace left out. At the top
// level (topLevel), values written side by side without a comma are a
// warning.
func (c *converter) list(elems []*elem, topLevel bool) []*sast.Arg {
	if len(elems) == 0 {
		return nil
	}
	n := 0
	for _, e := range elems {
		if !e.Comma {
			n++
		}
	}
	// The list's nodes, in one block of capacity n: appending never moves
	// them, so the pointers to them stay valid.
	block, out := c.nodes.argBlock(n)
	// newArg returns the next argument of the block, its fields set a
	// field at a time (a whole Arg copied into the heap is a bulk write
	// barrier). The block may hold the arguments of an earlier line
	// (LineParser.Reuse): every field is set.
	newArg := func(pos ast.Pos, adjacent bool) *sast.Arg {
		block = block[:len(block)+1]
		a := &block[len(block)-1]
		a.Pos, a.Label, a.Value, a.Comment, a.Adjacent = pos, nil, nil, "", adjacent
		return a
	}
	comma := true
	for _, e := range elems {
		switch {
		case e.Comma:
			comma = true
			continue
		case e.Comment != nil:
			text := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(*e.Comment, "/*"), "*/"))
			if !comma && len(out) > 0 && out[len(out)-1].Comment == "" {
				out[len(out)-1].Comment = text
				continue
			}
			p := c.Pos(e.Pos)
			a := newArg(p, !comma && len(out) > 0)
			a.Value, a.Comment = c.nodes.elide(p), text
			out = append(out, a)
		case e.Lead != nil:
			// An operand after an operator with nothing before it.
			a := newArg(c.Pos(e.Pos), !comma && len(out) > 0)
			a.Value, a.Comment = c.operands(&primary{Pos: e.Pos, Ops: leadMark}, e.Lead.Ops)
			out = append(out, a)
		default:
			a := newArg(c.Pos(e.Pos), !comma && len(out) > 0)
			if e.Eq {
				if id, ok := bareIdent(c.text, e.Left, e.Right); ok {
					a.Label = c.nodes.ident(sast.Ident{Pos: c.Pos(e.Pos), Name: id})
				} else {
					c.Report(c.Pos(e.Pos), diag.Error, sast.CodeSyntax, "not strace output: the label before = must be a name")
				}
				switch {
				case e.Assign != nil && len(e.Assign.Right) == 0:
					a.Value = c.unary(e.Assign.Left)
					if e.Assign.Left.Comment != nil {
						a.Comment = comment(e.Assign.Left)
					}
				case e.Assign != nil:
					var cm string
					if a.Value, cm = c.operands(e.Assign.Left, e.Assign.Right); cm != "" {
						a.Comment = cm
					}
				default:
					// "c_iflag=": a flag set with no flag set, 0.
					a.Value = c.nodes.int(sast.Int{Pos: a.Pos})
				}
			} else if len(e.Right) == 0 {
				// The common case, without operands' work.
				a.Value = c.unary(e.Left)
				if e.Left.Comment != nil {
					a.Comment = comment(e.Left)
				}
			} else {
				var cm string
				if a.Value, cm = c.operands(e.Left, e.Right); cm != "" {
					a.Comment = cm
				}
			}
			if a.Adjacent && topLevel {
				c.Report(a.Pos, diag.Warning, sast.CodeAdjacent, "an argument written right after the previous one without a comma; both kept")
			}
			out = append(out, a)
		}
		comma = false
	}
	return out
}

// bareIdent returns the label of a labelled value: a name, or a name with
// a size in parentheses as old strace releases wrote it (msg_iov(3)=[...]),
// which is kept as written.
func bareIdent(text string, p *primary, right []*binop) (string, bool) {
	if len(right) > 0 || len(p.Ops) > 0 || p.Comment != nil {
		return "", false
	}
	if p.Open != nil && *p.Open == "[" && p.Close == "]" && simpleIndex(p.Items) {
		// An index, kept as written: -v's c_cc=[[VINTR]=0x3, ...],
		// netlink's [[IPV4_DEVCONF_FORWARDING-1]=0, ...], and with -X
		// verbose [[0 /* IPV4_DEVCONF_FORWARDING-1 */]=0, ...].
		if end := indexEnd(text, p.Pos.Offset); end > 0 {
			return text[p.Pos.Offset:end], true
		}
	}
	if p.Ident == nil || p.Or != nil {
		return "", false
	}
	if !p.Call {
		return *p.Ident, true
	}
	if len(p.CallArgs) != 1 || p.CallArgs[0].Left == nil || p.CallArgs[0].Assign != nil {
		return "", false
	}
	v := p.CallArgs[0]
	if len(v.Right) > 0 || len(v.Left.Ops) > 0 || v.Left.Number == nil {
		return "", false
	}
	return *p.Ident + "(" + *v.Left.Number + ")", true
}

// simpleIndex reports whether items, the inside of "[...]", are an index:
// names and numbers, with binary operators and comments between them
// ("IPV4_DEVCONF_FORWARDING-1" is a name and the number -1).
func simpleIndex(items []*elem) bool {
	if len(items) == 0 {
		return false
	}
	for _, in := range items {
		if in.Left == nil || in.Eq || !simpleOperand(in.Left) {
			return false
		}
		for _, r := range in.Right {
			if !simpleOperand(r.Right) {
				return false
			}
		}
	}
	return true
}

// simpleOperand reports whether p is a bare name or number.
func simpleOperand(p *primary) bool {
	return len(p.Ops) == 0 && !p.Call && p.Or == nil && (p.Ident != nil || p.Number != nil)
}

// indexEnd returns the offset just past the ']' that closes the index
// opened at text[open], comments skipped; 0 when there is none.
func indexEnd(text string, open int) int {
	for i := open + 1; i < len(text); i++ {
		switch {
		case text[i] == ']':
			return i + 1
		case strings.HasPrefix(text[i:], "/*"):
			j := strings.Index(text[i+2:], "*/")
			if j < 0 {
				return 0
			}
			i += j + 3
		}
	}
	return 0
}

// precedence returns the precedence of a binary operator, C's order; "=>"
// and "->" (a value given and a value returned) bind loosest. A switch, not
// a map: it is asked twice an operator.
func precedence(op string) int {
	switch op {
	case "=>", "->":
		return 1
	case "||":
		return 2
	case "&&":
		return 3
	case "|":
		return 4
	case "^":
		return 5
	case "&":
		return 6
	case "==", "!=":
		return 7
	case "<<", ">>":
		return 8
	case "+", "-":
		return 9
	case "*", "/", "%":
		return 10
	}
	return 0
}

// expr converts operands and operators into a tree by precedence; a chain of
// one operator at one level is one Op with all its operands (A|B|C). A
// comment after the expression is dropped.
func (c *converter) expr(e *expr) sast.Value {
	if len(e.Right) == 0 {
		return c.unary(e.Left) // the common case, without operands' work
	}
	v, _ := c.operands(e.Left, e.Right)
	return v
}

// operands converts the operand left and the operators and operands right
// of an expression, as expr does. It returns the value, and the comment
// after it when it is a lone operand (a comment after an operand of an
// operator goes to the operator's Comments). A left whose Ops are leadMark
// is the Elided operand before a leading operator.
func (c *converter) operands(left *primary, right []*binop) (sast.Value, string) {
	if len(right) == 0 {
		return c.unary(left), comment(left)
	}
	operands := make([]sast.Value, 0, len(right)+1)
	var comments []string
	if len(left.Ops) > 0 && &left.Ops[0] == &leadMark[0] {
		operands = append(operands, c.nodes.elide(c.Pos(left.Pos)))
	} else {
		operands = append(operands, c.unary(left))
		comments = addComment(comments, 0, comment(left))
	}
	for i, b := range right {
		operands = append(operands, c.unary(b.Right))
		comments = addComment(comments, i+1, comment(b.Right))
	}
	if comments != nil {
		comments = append(comments, make([]string, len(operands)-len(comments))...)
	}
	v, _ := c.climb(operands, comments, right, 0, 0)
	return v, ""
}

// leadMark marks the primary that stands for nothing before a leading
// operator (operands).
var leadMark = []string{""}

// comment is the text of the comment after a primary value, without /* */.
func comment(p *primary) string {
	if p.Comment == nil {
		return ""
	}
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(*p.Comment, "/*"), "*/"))
}

// addComment sets comments[i] to text, growing comments, when text is not
// empty.
func addComment(comments []string, i int, text string) []string {
	if text == "" {
		return comments
	}
	for len(comments) <= i {
		comments = append(comments, "")
	}
	comments[i] = text
	return comments
}

// climb builds the tree of operands[i:] whose operators bind at least as
// tightly as minPrec; it returns the value and the index of the next
// operand. comments (nil, or one an operand) are the comments after the
// operands: each goes to the operator the operand is directly under.
func (c *converter) climb(operands []sast.Value, comments []string, ops []*binop, i, minPrec int) (sast.Value, int) {
	left := operands[i]
	leftLeaf := i
	i++
	for i-1 < len(ops) {
		op := ops[i-1].Op
		prec := precedence(op)
		if prec < minPrec {
			break
		}
		var right sast.Value
		start := i
		right, i = c.climb(operands, comments, ops, i, prec+1)
		rc := ""
		if comments != nil && i-start == 1 {
			rc = comments[start]
		}
		if o, ok := left.(*sast.Op); ok && o.Op == op && len(o.Operands) > 1 && leftLeaf < 0 {
			o.Operands = append(o.Operands, right)
			if o.Comments != nil || rc != "" {
				o.Comments = addComment(o.Comments, len(o.Operands)-1, rc)
				o.Comments = append(o.Comments, make([]string, len(o.Operands)-len(o.Comments))...)
			}
			continue
		}
		lc := ""
		if comments != nil && leftLeaf >= 0 {
			lc = comments[leftLeaf]
		}
		left = c.newOp(left.Position(), op, left, right)
		if lc != "" || rc != "" {
			o := left.(*sast.Op)
			o.Comments = []string{lc, rc}
		}
		leftLeaf = -1
	}
	return left, i
}

// skipSpace returns the offset of the first character at or after off that
// is not white space (as the lexer's Space rule has it).
func (c *converter) skipSpace(off int) int {
	for off < len(c.text) && isSpace(c.text[off]) {
		off++
	}
	return off
}

// unary converts a primary value and applies its unary operators, the
// innermost first.
func (c *converter) unary(u *primary) sast.Value {
	if len(u.Ops) > MaxDepth {
		c.Report(c.Pos(u.Pos), diag.Error, sast.CodeDepth, "more than "+strconv.Itoa(MaxDepth)+" unary operators in a row")
		return c.primary(u)
	}
	v := c.primary(u)
	for i := len(u.Ops) - 1; i >= 0; i-- {
		v = c.newOp(c.Pos(u.Pos), u.Ops[i], v)
	}
	return v
}

func (c *converter) primary(p *primary) sast.Value {
	// The value starts after its unary operators (one character each).
	off := p.Pos.Offset
	for range p.Ops {
		off = c.skipSpace(off) + 1
	}
	pos := c.At(c.skipSpace(off))
	switch {
	case p.Fd != nil:
		text := *p.Fd
		i := strings.IndexByte(text, '<')
		decor := text[i+1 : len(text)-1]
		fd := &sast.FD{Pos: pos, Decor: decor, Path: decor, Deleted: p.Deleted}
		if strings.HasPrefix(decor, "/") {
			// A file's path, escaped as a string is; a description
			// (-yy's TCP:[...], UNIX-STREAM:[...,"path"], pipe:[...])
			// is kept as written, quoted strings and all.
			fd.Path = unescape(decor)
		}
		name := text[:i]
		if j := strings.Index(name, "/*"); j >= 0 {
			// -X verbose with -y: "-100 /* AT_FDCWD */</home>".
			fd.Comment = strings.TrimSpace(name[j+2 : len(name)-2])
			name = strings.TrimSpace(name[:j])
		}
		if isName(name) {
			fd.FD = &sast.Ident{Pos: pos, Name: name}
		} else {
			fd.FD = c.integer(pos, name)
		}
		return fd
	case p.Number != nil:
		return c.integer(pos, *p.Number)
	case p.Float != nil:
		return &sast.Float{Pos: pos, Text: *p.Float}
	case p.HWAddr != nil:
		return &sast.HWAddr{Pos: pos, Text: *p.HWAddr, Bytes: hwBytes(*p.HWAddr)}
	case p.String != nil:
		return c.nodes.str(sast.String{Pos: pos, Text: *p.String, Value: unescape((*p.String)[1 : len(*p.String)-1]), Truncated: p.Trunc})
	case p.Ident != nil && p.Call:
		return &sast.FuncCall{Pos: pos, Name: *p.Ident, Args: c.list(p.CallArgs, false)}
	case p.Ident != nil:
		if p.Or != nil {
			return c.alternatives(pos, *p.Ident, p.Or)
		}
		return c.nodes.ident(sast.Ident{Pos: pos, Name: *p.Ident})
	case p.Open != nil:
		if want := closing(*p.Open); p.Close != want {
			c.Report(pos, diag.Error, sast.CodeBracket, "not strace output: "+strconv.Quote(*p.Open)+" closed by "+strconv.Quote(p.Close))
		}
		if *p.Open == "{" {
			return c.nodes.structure(sast.Struct{Pos: pos, Members: c.list(p.Items, false)})
		}
		return c.nodes.array(sast.Array{Pos: pos, Items: c.list(p.Items, false)})
	case p.Ellipsis:
		return c.nodes.elide(pos)
	case p.Resuming != nil:
		return &sast.Resuming{Pos: pos, Text: strings.TrimSuffix(strings.TrimPrefix(*p.Resuming, "<... "), " ...>")}
	case p.Question:
		return &sast.Ident{Pos: pos, Name: "?"}
	case p.Paren != nil:
		return c.expr(p.Paren)
	}
	return &sast.Elided{Pos: pos}
}

// alternatives converts "SNDCTL_TMR_START or TCSETS" (strace could not
// tell which) into the operator "or".
func (c *converter) alternatives(pos ast.Pos, first string, or *alts) sast.Value {
	vs := make([]sast.Value, 0, len(or.Names)+1)
	vs = append(vs, c.nodes.ident(sast.Ident{Pos: pos, Name: first}))
	for _, o := range or.Names {
		vs = append(vs, c.nodes.ident(sast.Ident{Pos: c.Pos(o.Pos), Name: o.Text}))
	}
	return c.newOp(pos, "or", vs...)
}

// closing is the bracket that closes open ("{" or "["); "" for others.
func closing(open string) string {
	switch open {
	case "{":
		return "}"
	case "[":
		return "]"
	}
	return ""
}

// integer reads decimal, hex (0x) or octal (leading 0); a malformed or too
// large one is a warning and stays a symbol.
func (c *converter) integer(p ast.Pos, text string) sast.Value {
	digits := text
	neg := strings.HasPrefix(digits, "-")
	if neg {
		digits = digits[1:]
	}
	if v, ok := decimal(digits); ok {
		return c.nodes.int(sast.Int{Pos: p, Text: text, Neg: neg && v != 0, Mag: v})
	}
	base := 10
	switch {
	case strings.HasPrefix(digits, "0x") || strings.HasPrefix(digits, "0X"):
		base, digits = 16, digits[2:]
	case len(digits) > 1 && digits[0] == '0':
		base, digits = 8, digits[1:]
	}
	v, err := strconv.ParseUint(digits, base, 64)
	if err != nil || digits == "" || strings.ContainsAny(digits, "_+") {
		c.Report(p, diag.Warning, sast.CodeInteger, "integer "+strconv.Quote(text)+" is malformed or does not fit in 64 bits; kept as a symbol")
		return &sast.Ident{Pos: p, Name: text}
	}
	return c.nodes.int(sast.Int{Pos: p, Text: text, Neg: neg && v != 0, Mag: v})
}

// decimal reads the short decimal integers most values are (no leading 0,
// at most 19 digits, so no overflow) without strconv; false for others.
func decimal(s string) (uint64, bool) {
	if len(s) > 1 && s[0] == '0' {
		return 0, false
	}
	return lineconv.Decimal(s)
}

// unescape decodes the escapes strace writes in strings: \\ \" \n \t \r \v
// \f \a \b, \xHH (-x, -xx) and octal \NNN. Anything else keeps its
// backslash.
func unescape(body string) string {
	if strings.IndexByte(body, '\\') < 0 {
		return body
	}
	var b strings.Builder
	b.Grow(len(body))
	for i := 0; i < len(body); {
		ch := body[i]
		if ch != '\\' || i+1 >= len(body) {
			b.WriteByte(ch)
			i++
			continue
		}
		e := body[i+1]
		switch e {
		case '\\', '"', '\'', '?':
			b.WriteByte(e)
			i += 2
		case 'a', 'b', 'f', 'n', 'r', 't', 'v':
			b.WriteByte(simpleEscapes[e])
			i += 2
		case 'x':
			j := i + 2
			for j < len(body) && j < i+4 && isHex(body[j]) {
				j++
			}
			if j == i+2 {
				b.WriteByte('\\')
				i++
				continue
			}
			v := byte(0)
			for _, h := range []byte(body[i+2 : j]) {
				v = v<<4 | unhex(h)
			}
			b.WriteByte(v)
			i = j
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i + 1
			for j < len(body) && j < i+4 && body[j] >= '0' && body[j] <= '7' {
				j++
			}
			v := 0
			for k := i + 1; k < j; k++ {
				v = v<<3 | int(body[k]-'0')
			}
			b.WriteByte(byte(v))
			i = j
		default:
			b.WriteByte('\\')
			i++
		}
	}
	return b.String()
}

var simpleEscapes = [256]byte{'a': '\a', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v'}

// hwBytes returns the bytes of a hardware address written as the HWAddr
// token is: two hex digits a byte, a colon between them.
func hwBytes(text string) []byte {
	b := make([]byte, 0, (len(text)+1)/3)
	for i := 0; i+1 < len(text); i += 3 {
		b = append(b, unhex(text[i])<<4|unhex(text[i+1]))
	}
	return b
}

// unhex is the value of the hex digit b.
func unhex(b byte) byte {
	switch {
	case b >= 'a':
		return b - 'a' + 10
	case b >= 'A':
		return b - 'A' + 10
	}
	return b - '0'
}

func isHex(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F'
}

// tooDeep scans the line for brackets nested more than MaxDepth deep.
func tooDeep(line string) (int, bool) { return lineconv.Depth(line, "{[(", "}])") }

// isSpace reports whether b is white space as the lexer's Space rule (\s)
// has it.
func isSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\f' || b == '\r'
}
