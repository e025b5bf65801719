// Package prf is the participle grammar of the Hitachi Application Server
// performance analysis (PRF) trace as cprfed prints it: the dump form, where
// a record is several "Key: value" lines and a hex dump, and the CSV form,
// one row a record under a header row. Both build the Record node of
// ast/prf, so the two forms lower alike.
//
// The dump form is read line by line (DumpParser): a "PRF:" line starts a
// record, which ends at the next "PRF:" line or at the end of the input, so
// only one record is ever held. The CSV form (CSVParser) reads one row a
// line.
package prf

//go:generate go run ../internal/pgen

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	prfast "github.com/tracekit/tracekit/ast/prf"
	"github.com/tracekit/tracekit/grammar/internal/chunk"
	"github.com/tracekit/tracekit/grammar/internal/lineconv"
)

// MaxDumpBytes bounds the hex dump of one record. The reference caps OPT at
// 514 characters; the limit leaves room for releases that print more while
// keeping memory bounded.
const MaxDumpBytes = 64 << 10

// The item keys of the dump form. A key is a token only as a whole
// white-space separated word; "Process:" inside another word is data.
var dumpLexer = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Key", Pattern: `(?:PRF|ProcessName|Process|Thread|Trace|Event|Time|Rc|ClientAP|RootAP|INT|OPR|SendSCD|ReceiveSCD|LookupName):`},
	{Name: "Word", Pattern: `[^ \t\n\v\f\r]+`},
	{Name: "Space", Pattern: `[ \t\n\v\f\r]+`},
})

var (
	dumpParser = sync.OnceValue(func() *participle.Parser[dumpLine] {
		return participle.MustBuild[dumpLine](participle.Lexer(dumpLexer), participle.Elide("Space"), participle.UseLookahead(2))
	})
	hexLexer = lexer.MustSimple([]lexer.SimpleRule{
		{Name: "Word", Pattern: `[^ \t\n\v\f\r]+`},
		{Name: "Space", Pattern: `[ \t\n\v\f\r]+`},
	})
	hexParser = sync.OnceValue(func() *participle.Parser[hexLine] {
		return participle.MustBuild[hexLine](participle.Lexer(hexLexer), participle.Elide("Space"))
	})
)

// dumpLine is any line of the dump form but the hex-dump lines.
type dumpLine struct {
	Head        *headLine   `parser:"  'PRF:' @@"`
	Trace       *item       `parser:"| 'Trace:' @@"`
	ProcessName *words      `parser:"| 'ProcessName:' @@"`
	Event       *eventLine  `parser:"| 'Event:' @@"`
	Rc          *item       `parser:"| 'Rc:' @@"`
	Client      *clientLine `parser:"| 'ClientAP:' @@"`
	Root        *apValue    `parser:"| 'RootAP:' @@"`
	Names       *namesLine  `parser:"| 'INT:' @@"`
	SCD         *scdLine    `parser:"| 'SendSCD:' @@"`
	Receive     *words      `parser:"| 'ReceiveSCD:' @@"`
	Lookup      *words      `parser:"| 'LookupName:' @@"`
	Offset      *offsetLine `parser:"| @@"`
}

// item is one word with its position.
type item struct {
	Pos  lexer.Position
	Text string `parser:"@Word"`
}

// words is the run of words up to the next key or the end of the line; the
// text is taken verbatim from the line.
type words struct {
	Pos   lexer.Position
	Words []string `parser:"@Word*"`
}

// key is a key token with its position.
type key struct {
	Pos  lexer.Position
	Text string `parser:"@Key"`
}

// headLine: PRF: status Process: pid Thread: thread.
type headLine struct {
	Status  item  `parser:"@@"`
	Process *item `parser:"( 'Process:' @@ )?"`
	Thread  *item `parser:"( 'Thread:' @@ )?"`
}

// eventLine: Event: id Time: date clock [subsecond]. The sub-second part may
// also stand alone on the next line, as the reference's layout shows it.
type eventLine struct {
	Event item      `parser:"@@"`
	Time  *timeItem `parser:"( 'Time:' @@ )?"`
}

type timeItem struct {
	Date  item  `parser:"@@"`
	Clock item  `parser:"@@"`
	Sub   *item `parser:"@@?"`
}

// clientLine: ClientAP: ip pid - commno, and in older releases RootAP on the
// same line.
type clientLine struct {
	Client apValue  `parser:"@@"`
	Root   *apValue `parser:"( 'RootAP:' @@ )?"`
}

// apValue: ip pid - commno, or nothing at all.
type apValue struct {
	Pos    lexer.Position
	IP     *item `parser:"( @@"`
	PID    *item `parser:"  @@ '-'"`
	CommNo *item `parser:"  @@ )?"`
}

// namesLine: INT: name OPR: name. Names are kept verbatim.
type namesLine struct {
	INT    words `parser:"@@"`
	OPRKey *key  `parser:"( @@"`
	OPR    words `parser:"  @@ )?"`
}

// scdLine: SendSCD: ... ReceiveSCD: ... (older releases).
type scdLine struct {
	Send       words `parser:"@@"`
	ReceiveKey *key  `parser:"( @@"`
	Receive    words `parser:"  @@ )?"`
}

// offsetLine: the header of the hex dump,
// Offset +0 +1 ... +f 0123456789abcdef.
type offsetLine struct {
	Pos     lexer.Position
	Columns []item `parser:"'Offset' @@+"`
}

// hexLine: the hex part of a dump line, an offset and up to 16 bytes.
type hexLine struct {
	Offset item   `parser:"@@"`
	Bytes  []item `parser:"@@*"`
}

var subSecondRE = regexp.MustCompile(`^\s*\d+/\d+/\d+\s*$`)

// DumpParser reads the dump form one line at a time. The zero DumpParser is
// ready to use.
type DumpParser struct {
	cur        *prfast.Record
	asciiCol   int           // column (0-based) of the ASCII part of dump lines; 0 until the Offset header
	nextOffset int           // offset the next dump line should carry
	wantSub    bool          // the last line was an Event line without its sub-second part
	dumpGen    dumpParserGen // the parsers generated from the grammar (parsers_gen.go)
	hexGen     hexParserGen
	dump       dumpLine
	hex        hexLine
	hexBuf     []byte // the bytes of the hex-dump line at hand
	nodes      nodes
	// Reference parses with participle's reflective parsers instead, the
	// reference the generated ones are tested against.
	Reference bool
}

// Line parses one line (without its line break) starting at pos. It returns
// the record that the line ends, if any (a "PRF:" line ends the record
// before it), and diagnostics. An error diagnostic means the line was
// skipped; every skipped line gets exactly one.
func (p *DumpParser) Line(pos ast.Pos, line string) (*prfast.Record, diag.List) {
	c := &converter{Converter: lineconv.Converter{Base: pos}, n: &p.nodes}
	var done *prfast.Record
	trimmed := strings.TrimLeft(line, " \t")
	if strings.HasPrefix(trimmed, "PRF:") {
		done = p.take()
		p.cur = c.record(prfast.Record{Pos: pos, Form: prfast.Dump})
	}
	if p.cur == nil {
		c.Errorf(pos, prfast.CodeOutside, "line outside a record: a record starts with a \"PRF:\" line")
		return done, c.Diags
	}
	r := p.cur
	switch {
	case p.wantSub && subSecondRE.MatchString(line):
		p.wantSub = false
		off := len(line) - len(trimmed)
		r.SubSecond = prfast.Item{Pos: c.At(off), Text: strings.TrimSpace(line)}
		r.Lines++
		return done, c.Diags
	case p.asciiCol > 0 && !startsWithKey(trimmed):
		p.wantSub = false
		p.dumpData(c, line)
		return done, c.Diags
	}
	p.wantSub = false
	dl, err := lineconv.Parse(p.Reference, dumpParser, &p.dumpGen, line, &p.dump)
	if err != nil {
		c.Words = dumpWords
		c.ParseError(err, prfast.CodeSyntax, "not a line of the PRF dump form")
		if r.Lines == 0 {
			// A malformed "PRF:" line opens nothing.
			p.cur = nil
		}
		return done, c.Diags
	}
	if p.apply(c, dl, line) {
		r.Lines++
	} else if r.Lines == 0 {
		p.cur = nil
	}
	return done, c.Diags
}

// End returns the record still open at the end of the input, if any.
func (p *DumpParser) End() *prfast.Record { return p.take() }

func (p *DumpParser) take() *prfast.Record {
	r := p.cur
	p.cur = nil
	p.asciiCol = 0
	p.nextOffset = 0
	p.wantSub = false
	return r
}

func startsWithKey(s string) bool {
	i := strings.IndexByte(s, ':')
	if i < 0 {
		return false
	}
	switch s[:i] {
	case "PRF", "ProcessName", "Process", "Thread", "Trace", "Event", "Time", "Rc", "ClientAP", "RootAP", "INT", "OPR", "SendSCD", "ReceiveSCD", "LookupName":
		return true
	}
	return false
}

// apply stores the items of one parsed line in the current record. It
// reports false when the line was skipped (an item given twice).
func (p *DumpParser) apply(c *converter, dl *dumpLine, line string) bool {
	r := p.cur
	set := func(dst *prfast.Item, it prfast.Item, name string) bool {
		if dst.Given() {
			c.Errorf(it.Pos, prfast.CodeRepeated, name+" given twice in one record (first at "+dst.Pos.String()+")")
			return false
		}
		*dst = it
		return true
	}
	switch {
	case dl.Head != nil:
		// Line starts a new record for every "PRF:" line, so the status
		// is always the record's first item.
		r.Status = c.item(dl.Head.Status)
		if dl.Head.Process != nil {
			r.Process = c.item(*dl.Head.Process)
		}
		if dl.Head.Thread != nil {
			r.Thread = c.item(*dl.Head.Thread)
		}
		return true
	case dl.Trace != nil:
		return set(&r.Trace, c.item(*dl.Trace), "Trace")
	case dl.ProcessName != nil:
		return set(&r.ProcessName, c.verbatim(dl.ProcessName, len(line), line), "ProcessName")
	case dl.Event != nil:
		if r.Event.Given() {
			return set(&r.Event, c.item(dl.Event.Event), "Event")
		}
		r.Event = c.item(dl.Event.Event)
		if t := dl.Event.Time; t != nil {
			r.Date = c.item(t.Date)
			r.Clock = c.item(t.Clock)
			if t.Sub != nil {
				r.SubSecond = c.item(*t.Sub)
			} else {
				p.wantSub = true
			}
		}
		return true
	case dl.Rc != nil:
		return set(&r.Rc, c.item(*dl.Rc), "Rc")
	case dl.Client != nil:
		if r.ClientAP != nil || dl.Client.Root != nil && r.RootAP != nil {
			c.Errorf(c.Pos(dl.Client.Client.Pos), prfast.CodeRepeated, "ClientAP or RootAP given twice in one record")
			return false
		}
		r.ClientAP = c.ap(&dl.Client.Client)
		if dl.Client.Root != nil {
			r.RootAP = c.ap(dl.Client.Root)
		}
		return true
	case dl.Root != nil:
		if r.RootAP != nil {
			c.Errorf(c.Pos(dl.Root.Pos), prfast.CodeRepeated, "RootAP given twice in one record")
			return false
		}
		r.RootAP = c.ap(dl.Root)
		return true
	case dl.Names != nil:
		if r.INT.Given() || r.OPR.Given() {
			c.Errorf(c.Pos(dl.Names.INT.Pos), prfast.CodeRepeated, "INT given twice in one record")
			return false
		}
		end := len(line)
		if dl.Names.OPRKey != nil {
			end = dl.Names.OPRKey.Pos.Offset
			r.OPR = c.verbatim(&dl.Names.OPR, len(line), line)
		}
		r.INT = c.verbatim(&dl.Names.INT, end, line)
		return true
	case dl.SCD != nil:
		if r.SendSCD.Given() {
			c.Errorf(c.Pos(dl.SCD.Send.Pos), prfast.CodeRepeated, "SendSCD given twice in one record")
			return false
		}
		end := len(line)
		if dl.SCD.ReceiveKey != nil {
			end = dl.SCD.ReceiveKey.Pos.Offset
			if !set(&r.ReceiveSCD, c.verbatim(&dl.SCD.Receive, len(line), line), "ReceiveSCD") {
				return false
			}
		}
		r.SendSCD = c.verbatim(&dl.SCD.Send, end, line)
		return true
	case dl.Receive != nil:
		return set(&r.ReceiveSCD, c.verbatim(dl.Receive, len(line), line), "ReceiveSCD")
	case dl.Lookup != nil:
		return set(&r.LookupName, c.verbatim(dl.Lookup, len(line), line), "LookupName")
	case dl.Offset != nil:
		if r.OPT != nil {
			c.Errorf(c.Pos(dl.Offset.Pos), prfast.CodeRepeated, "a second hex dump in one record")
			return false
		}
		last := dl.Offset.Columns[len(dl.Offset.Columns)-1]
		p.asciiCol = last.Pos.Offset
		p.nextOffset = 0
		at := c.Pos(dl.Offset.Pos)
		r.OPT = c.newBytes(prfast.Bytes{Pos: at})
		r.ASCII = c.newBytes(prfast.Bytes{Pos: c.Pos(last.Pos)})
		return true
	}
	c.Errorf(c.Base, prfast.CodeSyntax, "not a line of the PRF dump form")
	return false
}

// dumpData reads one line of the hex dump: the hex part before the column
// of the header's "0123456789abcdef", the ASCII part from that column on.
func (p *DumpParser) dumpData(c *converter, line string) {
	r := p.cur
	hexPart, asciiPart := line, ""
	if len(line) > p.asciiCol {
		hexPart, asciiPart = line[:p.asciiCol], line[p.asciiCol:]
	}
	hl, err := lineconv.Parse(p.Reference, hexParser, &p.hexGen, hexPart, &p.hex)
	if err != nil {
		c.Words = hexWords
		c.ParseError(err, prfast.CodeDump, "not a hex-dump line")
		return
	}
	offPos := c.Pos(hl.Offset.Pos)
	off, err := strconv.ParseUint(strings.TrimPrefix(hl.Offset.Text, "0x"), 16, 32)
	if err != nil {
		c.Errorf(offPos, prfast.CodeDump, "hex-dump offset "+strconv.Quote(hl.Offset.Text)+" is not a hex number")
		return
	}
	if len(hl.Bytes) > 16 {
		c.Errorf(c.Pos(hl.Bytes[16].Pos), prfast.CodeDump, "more than 16 bytes on a hex-dump line")
		return
	}
	data := p.hexBuf[:0]
	defer func() { p.hexBuf = data[:0] }()
	for _, b := range hl.Bytes {
		v, err := strconv.ParseUint(b.Text, 16, 8)
		if err != nil || len(b.Text) != 2 {
			c.Errorf(c.Pos(b.Pos), prfast.CodeDump, "hex-dump byte "+strconv.Quote(b.Text)+" is not two hex digits")
			return
		}
		data = append(data, byte(v))
	}
	if len(r.OPT.Data)+len(data) > MaxDumpBytes {
		c.Errorf(offPos, prfast.CodeTooLong, "the record's hex dump is longer than "+strconv.Itoa(MaxDumpBytes)+" bytes")
		return
	}
	if int(off) != p.nextOffset {
		c.Warnf(offPos, prfast.CodeOffset, "hex-dump offset "+hl.Offset.Text+" where "+strconv.FormatInt(int64(p.nextOffset), 16)+" was due")
	}
	p.nextOffset = int(off) + len(data)
	r.OPT.Data = append(r.OPT.Data, data...)
	r.ASCII.Data = append(r.ASCII.Data, asciiPart...)
	r.Lines++
}

// converter turns positions relative to the line into ast positions and
// collects diagnostics.
type converter struct {
	lineconv.Converter
	n *nodes // where nodes come from; nil: one allocation each
}

// nodes hands out the records' nodes and bytes from chunks
// (grammar/internal/chunk), so that a line costs a fraction of an
// allocation a node.
type nodes struct {
	records chunk.Of[prfast.Record]
	aps     chunk.Of[prfast.AP]
	bytes   chunk.Of[prfast.Bytes]
	data    chunk.Bytes
	kept    *Nodes // when set, where the nodes come from instead (LineIn)
}

func (c *converter) record(r prfast.Record) *prfast.Record {
	if c.n == nil {
		return (*chunk.Of[prfast.Record])(nil).New(r)
	}
	if c.n.kept != nil {
		return c.n.kept.records.New(r)
	}
	return c.n.records.New(r)
}

func (c *converter) newAP(a prfast.AP) *prfast.AP {
	if c.n == nil {
		return (*chunk.Of[prfast.AP])(nil).New(a)
	}
	if c.n.kept != nil {
		return c.n.kept.aps.New(a)
	}
	return c.n.aps.New(a)
}

func (c *converter) newBytes(b prfast.Bytes) *prfast.Bytes {
	if c.n == nil {
		return (*chunk.Of[prfast.Bytes])(nil).New(b)
	}
	if c.n.kept != nil {
		return c.n.kept.bytes.New(b)
	}
	return c.n.bytes.New(b)
}

func (c *converter) byteSlice(n int) []byte {
	if c.n == nil {
		return make([]byte, 0, n)
	}
	if c.n.kept != nil {
		return c.n.kept.data.Make(n)
	}
	return c.n.data.Make(n)
}

func (c *converter) item(it item) prfast.Item {
	return prfast.Item{Pos: c.Pos(it.Pos), Text: it.Text}
}

// verbatim returns the text of a run of words as written, from its first
// word to end, trimmed. A run without words is an item not given.
func (c *converter) verbatim(w *words, end int, line string) prfast.Item {
	if len(w.Words) == 0 || w.Pos.Offset >= end {
		return prfast.Item{}
	}
	return prfast.Item{Pos: c.Pos(w.Pos), Text: strings.TrimSpace(line[w.Pos.Offset:end])}
}

func (c *converter) ap(v *apValue) *prfast.AP {
	a := c.newAP(prfast.AP{Pos: c.Pos(v.Pos)})
	if v.IP != nil {
		a.IP = c.item(*v.IP)
		a.PID = c.item(*v.PID)
		a.CommNo = c.item(*v.CommNo)
	}
	return a
}
