package prf

import (
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

// The CSV lexer keeps white space: it belongs to the fields. A quoted field
// doubles its quotes.
var (
	csvLexer = lexer.MustSimple([]lexer.SimpleRule{
		{Name: "Quoted", Pattern: `"(?:[^"]|"")*"`},
		{Name: "Comma", Pattern: `,`},
		{Name: "Bare", Pattern: `[^,"]+`},
	})
	csvParser = sync.OnceValue(func() *participle.Parser[csvRow] {
		return participle.MustBuild[csvRow](participle.Lexer(csvLexer))
	})
)

// csvRow is the parse of one row: its tokens in order. Fields are the runs
// between commas; a field is empty, one bare run or one quoted run.
type csvRow struct {
	Parts []csvPart `parser:"@@*"`
}

type csvPart struct {
	Pos    lexer.Position
	Quoted *string `parser:"  @Quoted"`
	Bare   *string `parser:"| @Bare"`
	Comma  bool    `parser:"| @Comma"`
}

// The columns of the CSV form, in the order of the reference.
var defaultColumns = []string{
	"PRF", "Process", "Thread(hashcode)", "Trace", "ProcessName", "Event", "Date", "Time",
	"Time(msec/usec/nsec)", "Rc", "ClientAP IP", "ClientAP PID", "ClientAP CommNo.",
	"RootAP IP", "RootAP PID", "RootAP CommNo.", "INT", "OPR", "OPT", "ASCII",
}

// DefaultColumns returns the column names of the CSV form in the order of
// the reference; a file without a header row is read in this order.
func DefaultColumns() []string { return append([]string(nil), defaultColumns...) }

// column says where a column goes in a Record.
type column int

const (
	colExtra column = iota
	colStatus
	colProcess
	colThread
	colTrace
	colProcessName
	colEvent
	colDate
	colClock
	colSub
	colRc
	colClientIP
	colClientPID
	colClientComm
	colRootIP
	colRootPID
	colRootComm
	colINT
	colOPR
	colOPT
	colASCII
	colSendSCD
	colReceiveSCD
	colLookupName
)

var columnByName = map[string]column{
	"PRF": colStatus, "Process": colProcess, "Thread(hashcode)": colThread, "Thread": colThread,
	"Trace": colTrace, "ProcessName": colProcessName, "Event": colEvent, "Date": colDate,
	"Time": colClock, "Time(msec/usec/nsec)": colSub, "Rc": colRc,
	"ClientAP IP": colClientIP, "ClientAP PID": colClientPID, "ClientAP CommNo.": colClientComm,
	"RootAP IP": colRootIP, "RootAP PID": colRootPID, "RootAP CommNo.": colRootComm,
	"INT": colINT, "OPR": colOPR, "OPT": colOPT, "ASCII": colASCII,
	"SendSCD": colSendSCD, "ReceiveSCD": colReceiveSCD, "LookupName": colLookupName,
}

// CSVParser reads the CSV form one row at a time. A row whose first field
// is "PRF" is a header and sets the column order for the rows after it;
// rows before any header are read in DefaultColumns order. The zero
// CSVParser is ready to use.
type CSVParser struct {
	names []string
	cols  []column
	gen   csvParserGen // the parser generated from the grammar (parsers_gen.go)
	// scratch holds the fields of the row at hand; records copy what they
	// keep.
	scratch []prfast.Item
	nodes   nodes
	row     csvRow
	// Reference parses with participle's reflective parser instead, the
	// reference the generated one is tested against.
	Reference bool
}

// Line parses one row (without its line break) starting at pos. It returns
// the header or the record the row holds, and diagnostics; on an error the
// row was skipped and both results are nil.
func (p *CSVParser) Line(pos ast.Pos, line string) (*prfast.Header, *prfast.Record, diag.List) {
	return p.line(&p.nodes, pos, line)
}

// LineIn is Line with the record's nodes (the record, its APs, its bytes)
// in n instead of storage of the parser's own: for a caller that parses a
// batch of rows ahead of their use and reuses the storage of a batch
// (Nodes.Reset) once it is done with the batch's records.
func (p *CSVParser) LineIn(n *Nodes, pos ast.Pos, line string) (*prfast.Header, *prfast.Record, diag.List) {
	if n.via.kept == nil {
		n.via.kept = n
	}
	return p.line(&n.via, pos, line)
}

// Nodes is storage for the nodes of parsed rows (CSVParser.LineIn). Its
// zero value is ready to use.
type Nodes struct {
	records chunk.Kept[prfast.Record]
	aps     chunk.Kept[prfast.AP]
	bytes   chunk.Kept[prfast.Bytes]
	data    chunk.KeptBytes
	via     nodes // what the converter is given: nodes that point here
}

// Reset makes the storage of n hold new nodes: the records parsed into it
// before must no longer be used. It allocates nothing: the storage n grew
// to is used again.
func (n *Nodes) Reset() {
	n.records.Rewind()
	n.aps.Rewind()
	n.bytes.Rewind()
	n.data.Rewind()
}

func (p *CSVParser) line(n *nodes, pos ast.Pos, line string) (*prfast.Header, *prfast.Record, diag.List) {
	c := &converter{Converter: lineconv.Converter{Base: pos}, n: n}
	row, err := lineconv.Parse(p.Reference, csvParser, &p.gen, line, &p.row)
	if err != nil {
		c.ParseError(err, prfast.CodeSyntax, "not a row of the PRF CSV form")
		return nil, nil, c.Diags
	}
	fields, ok := c.fields(row, p.scratch[:0])
	p.scratch = fields
	if !ok {
		return nil, nil, c.Diags
	}
	if strings.TrimSpace(fields[0].Text) == "PRF" {
		return p.header(c, pos, append([]prfast.Item(nil), fields...)), nil, c.Diags
	}
	if p.cols == nil {
		p.setColumns(defaultColumns)
	}
	if len(fields) != len(p.cols) {
		c.Errorf(pos, prfast.CodeFields, strconv.Itoa(len(fields))+" fields where the header has "+strconv.Itoa(len(p.cols)))
		return nil, nil, c.Diags
	}
	r := c.record(prfast.Record{Pos: pos, Form: prfast.CSV, Lines: 1})
	for i, f := range fields {
		p.store(c, r, i, f)
	}
	if c.Diags.Failed() {
		return nil, nil, c.Diags
	}
	return nil, r, c.Diags
}

// fields groups the tokens of a row into fields. A field is given when it
// has text; quoted fields lose their quotes and doubled quotes.
func (c *converter) fields(row *csvRow, out []prfast.Item) ([]prfast.Item, bool) {
	cur := prfast.Item{}
	filled := false
	for _, part := range row.Parts {
		switch {
		case part.Comma:
			out = append(out, cur)
			cur, filled = prfast.Item{}, false
		case filled:
			c.Errorf(c.Pos(part.Pos), prfast.CodeSyntax, "text after a quoted field, or a quote inside a bare one")
			return out, false
		case part.Quoted != nil:
			q := *part.Quoted
			cur = prfast.Item{Pos: c.Pos(part.Pos), Text: strings.ReplaceAll(q[1:len(q)-1], `""`, `"`)}
			filled = true
		default:
			cur = prfast.Item{Pos: c.Pos(part.Pos), Text: *part.Bare}
			filled = true
		}
	}
	out = append(out, cur)
	return out, true
}

func (p *CSVParser) header(c *converter, pos ast.Pos, fields []prfast.Item) *prfast.Header {
	h := &prfast.Header{Pos: pos, Columns: fields}
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = strings.TrimSpace(f.Text)
		if _, ok := columnByName[names[i]]; !ok {
			at := f.Pos
			if !at.IsValid() {
				at = pos
			}
			c.Warnf(at, prfast.CodeColumn, "column "+strconv.Quote(names[i])+" is not one the reference names; its values go to attrs")
		}
	}
	p.setColumns(names)
	return h
}

func (p *CSVParser) setColumns(names []string) {
	p.names = names
	p.cols = make([]column, len(names))
	for i, n := range names {
		p.cols[i] = columnByName[n]
	}
}

// store puts field i of a row in the record. INT, OPR and the ASCII column are
// kept verbatim; other fields lose surrounding blanks. An empty field is an
// item not given.
func (p *CSVParser) store(c *converter, r *prfast.Record, i int, f prfast.Item) {
	col := p.cols[i]
	switch col {
	case colINT, colOPR, colASCII:
	default:
		if n := len(f.Text); n == 0 || plainEdge(f.Text[0]) && plainEdge(f.Text[n-1]) {
			break // nothing to trim: the common case
		}
		lead := len(f.Text) - len(strings.TrimLeft(f.Text, " \t"))
		f.Text = strings.TrimSpace(f.Text)
		f.Pos.Offset += lead
		f.Pos.Col += lead
	}
	if f.Text == "" {
		return
	}
	ap := func(a **prfast.AP) *prfast.AP {
		if *a == nil {
			*a = c.newAP(prfast.AP{Pos: f.Pos})
		}
		return *a
	}
	switch col {
	case colStatus:
		r.Status = f
	case colProcess:
		r.Process = f
	case colThread:
		r.Thread = f
	case colTrace:
		r.Trace = f
	case colProcessName:
		r.ProcessName = f
	case colEvent:
		r.Event = f
	case colDate:
		r.Date = f
	case colClock:
		r.Clock = f
	case colSub:
		r.SubSecond = f
	case colRc:
		r.Rc = f
	case colClientIP:
		ap(&r.ClientAP).IP = f
	case colClientPID:
		ap(&r.ClientAP).PID = f
	case colClientComm:
		ap(&r.ClientAP).CommNo = f
	case colRootIP:
		ap(&r.RootAP).IP = f
	case colRootPID:
		ap(&r.RootAP).PID = f
	case colRootComm:
		ap(&r.RootAP).CommNo = f
	case colINT:
		r.INT = f
	case colOPR:
		r.OPR = f
	case colOPT:
		data, ok := parseHex(c.byteSlice(len(f.Text)/2), f.Text)
		if !ok {
			c.Errorf(f.Pos, prfast.CodeDump, "OPT "+strconv.Quote(f.Text)+" is not hex bytes")
			return
		}
		r.OPT = c.newBytes(prfast.Bytes{Pos: f.Pos, Data: data})
	case colASCII:
		r.ASCII = c.newBytes(prfast.Bytes{Pos: f.Pos, Data: append(c.byteSlice(len(f.Text)), f.Text...)})
	case colSendSCD:
		r.SendSCD = f
	case colReceiveSCD:
		r.ReceiveSCD = f
	case colLookupName:
		r.LookupName = f
	default:
		r.Extra = append(r.Extra, prfast.Extra{Name: p.names[i], Item: f})
	}
}

// Decimal reads a decimal field of a record (a process id, a trace serial
// number, a return code's digits) as strconv.ParseUint(s, 10, 64) does,
// without it in the common case (lineconv.Decimal).
func Decimal(s string) (uint64, error) {
	if v, ok := lineconv.Decimal(s); ok {
		return v, nil
	}
	return strconv.ParseUint(s, 10, 64)
}

// plainEdge reports whether a field that begins or ends with c keeps that
// end when trimmed: c is ASCII and no space (strings.TrimSpace trims the
// other ASCII spaces and, of the bytes from 0x80 on, those that begin or
// end some Unicode space).
func plainEdge(c byte) bool { return c > ' ' && c < 0x80 }

// parseHex reads dump information written as hex digits, with an optional
// 0x and optional blanks between bytes: two hex digits a byte, nothing
// else.
func parseHex(out []byte, s string) ([]byte, bool) {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")
	for i := 0; i < len(s); {
		if s[i] == ' ' || s[i] == '\t' {
			i++
			continue
		}
		if i+1 >= len(s) {
			return nil, false
		}
		hi, lo := nibble[s[i]], nibble[s[i+1]]
		if hi|lo > 0x0F {
			return nil, false
		}
		out = append(out, hi<<4|lo)
		i += 2
	}
	return out, true
}

// nibble is the value of a hex digit, 0xFF for any other byte.
var nibble = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xFF
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = byte(c - '0')
	}
	for c := 'a'; c <= 'f'; c++ {
		t[c] = byte(c-'a') + 10
		t[c-'a'+'A'] = byte(c-'a') + 10
	}
	return t
}()
