// Package prf lowers the Hitachi Application Server performance analysis
// (PRF) trace to records, in its dump form (dialect "prf") and its CSV form
// (dialect "prfcsv"). Both forms parse to the same syntax tree, so the same
// events give the same records in either form but for the dialect, the
// source and the line.
//
// A record is an instant event: event is the event id ("0x%04x"), pid the
// process, tid the thread (hex or decimal), process the process name,
// status ok or error (Rec or ErrRec), ret the return code, time the date and
// time as written and ts_ns the time from the first record of the input;
// data holds the OPT bytes and attrs the rest (trace, client_ap, root_ap,
// int, opr, ascii, send_scd, receive_scd, lookup_name, thread_hash).
package prf

import (
	"encoding/hex"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	prfast "github.com/tracekit/tracekit/ast/prf"
	grammar "github.com/tracekit/tracekit/grammar/prf"
	"github.com/tracekit/tracekit/lower/dialect/lowering"
	"github.com/tracekit/tracekit/lower/record"
)

// Names of the dialects.
const (
	DumpName = "prf"
	CSVName  = "prfcsv"
)

// MaxNameLength is the longest INT or OPR name the reference allows; longer
// names are cut to it with a "*".
const MaxNameLength = 33

// Dump returns the registry entry of the dump form.
func Dump() lowering.Dialect {
	return lowering.Dialect{
		Name:        DumpName,
		Description: "Hitachi Application Server PRF trace, dump form (cprfed -Dump): PRF:/Trace:/Event: lines and a hex dump a record",
		Patterns:    []string{"*.prf", "*prf*.txt", "*prf*.dump"},
		Sniff:       sniffDump,
		NewLowerer: func(cfg lowering.Config, out lowering.Output) lowering.Lowerer {
			return &dumpLowerer{lowerer: lowerer{cfg: cfg, out: out}}
		},
		NewParser: func(string) lowering.Parser { return &dumpParser{} },
	}
}

// CSV returns the registry entry of the CSV form.
func CSV() lowering.Dialect {
	return lowering.Dialect{
		Name:        CSVName,
		Description: "Hitachi Application Server PRF trace, CSV form (cprfed -CSV): a header row, then one row a record",
		Patterns:    []string{"*.csv"},
		Sniff:       sniffCSV,
		NewLowerer: func(cfg lowering.Config, out lowering.Output) lowering.Lowerer {
			return &csvLowerer{lowerer: lowerer{cfg: cfg, out: out}}
		},
		NewParser: func(string) lowering.Parser { return &csvParser{} },
	}
}

func sniffDump(head []byte) bool {
	lines := lowering.FirstLines(head, 1)
	return len(lines) == 1 && strings.HasPrefix(strings.TrimLeft(string(lines[0]), " \t"), "PRF:")
}

var csvRE = regexp.MustCompile(`^\s*(PRF\s*,\s*Process|Rec,|ErrRec,)`)

func sniffCSV(head []byte) bool {
	lines := lowering.FirstLines(head, 1)
	return len(lines) == 1 && csvRE.Match(lines[0])
}

// lowerer turns syntax-tree records into records; both forms share it.
type lowerer struct {
	cfg    lowering.Config
	out    lowering.Output
	origin int64 // time of the first record with a time, in ns
	seen   bool

	// The record and what it points to are reused from record to record
	// (lowering.Output.Record keeps nothing); event names are remembered.
	rec      record.Record
	attrs    record.Attrs
	apMaps   [2]map[string]any
	pid, tid uint64
	ts       int64
	ret      record.Arg
	data     []string
	events   map[uint64]string
}

// maxEvents bounds the remembered event names.
const maxEvents = 4096

// event is the event id written 0x%04x, remembered for the first maxEvents
// ids.
func (l *lowerer) event(ev uint64) string {
	if e, ok := l.events[ev]; ok {
		return e
	}
	e := fmt.Sprintf("0x%04x", ev)
	if l.events == nil {
		l.events = map[uint64]string{}
	}
	if len(l.events) < maxEvents {
		l.events[ev] = e
	}
	return e
}

type dumpLowerer struct {
	lowerer
	p grammar.DumpParser
}

func (l *dumpLowerer) Line(pos ast.Pos, text string) error {
	return l.Lower(l.Parse(pos, text))
}

// parsedRecord is what Parse gives Lower: the record a line ends, if any,
// and the line's diagnostics.
type parsedRecord struct {
	r     *prfast.Record
	diags diag.List
}

// Parse parses one line (lowering.Staged); it touches only the parser.
func (l *dumpLowerer) Parse(pos ast.Pos, text string) any {
	done, diags := l.p.Line(pos, text)
	return parsedRecord{done, diags}
}

// Lower lowers the record a line ended, then reports the line's
// diagnostics.
func (l *dumpLowerer) Lower(p any) error {
	pr := p.(parsedRecord)
	var err error
	if pr.r != nil {
		err = l.emit(pr.r)
	}
	lowering.Report(l.out, pr.diags)
	return err
}

// ParseEnd takes the record open at the end of the input.
func (l *dumpLowerer) ParseEnd(ast.Pos) any { return parsedRecord{r: l.p.End()} }

// Finish lowers the record open at the end of the input.
func (l *dumpLowerer) Finish(p any, _ ast.Pos) error { return l.Lower(p) }

func (l *dumpLowerer) End(pos ast.Pos) error { return l.Finish(l.ParseEnd(pos), pos) }

type csvLowerer struct {
	lowerer
	p grammar.CSVParser
}

func (l *csvLowerer) Line(pos ast.Pos, text string) error {
	return l.Lower(l.Parse(pos, text))
}

// Parse parses one row (lowering.Staged); it touches only the parser.
func (l *csvLowerer) Parse(pos ast.Pos, text string) any {
	_, r, diags := l.p.Line(pos, text)
	return parsedRecord{r, diags}
}

// csvStore is the storage of one batch's rows (lowering.BatchStaged): their
// records' nodes and what ParseIn returns for each.
type csvStore struct {
	nodes grammar.Nodes
	// parsed grows to hold a batch's rows; when it moves, the rows
	// before stay where they were, unchanged, for Lower.
	parsed []parsedRecord
}

func (s *csvStore) Reset() {
	s.nodes.Reset()
	clear(s.parsed)
	s.parsed = s.parsed[:0]
}

// NewStore returns empty storage for a batch's rows (lowering.BatchStaged).
func (l *csvLowerer) NewStore() lowering.Store { return &csvStore{} }

// ParseIn is Parse with the row's record kept in s (lowering.BatchStaged):
// a row costs no allocation once the batch's storage has grown.
func (l *csvLowerer) ParseIn(s lowering.Store, pos ast.Pos, text string) any {
	st := s.(*csvStore)
	_, r, diags := l.p.LineIn(&st.nodes, pos, text)
	st.parsed = append(st.parsed, parsedRecord{r, diags})
	return &st.parsed[len(st.parsed)-1]
}

// Lower reports a row's diagnostics, then lowers its record.
func (l *csvLowerer) Lower(p any) error {
	var pr parsedRecord
	switch p := p.(type) {
	case parsedRecord:
		pr = p
	case *parsedRecord:
		pr = *p
	}
	lowering.Report(l.out, pr.diags)
	if pr.r != nil {
		return l.emit(pr.r)
	}
	return nil
}

// ParseEnd has nothing to parse at the end of the input.
func (l *csvLowerer) ParseEnd(ast.Pos) any { return nil }

// Finish ends the lowering.
func (l *csvLowerer) Finish(any, ast.Pos) error { return nil }

func (l *csvLowerer) End(ast.Pos) error { return nil }

// problems collects the value errors of one record: the first drops the
// record's lines, the others count nothing.
type problems struct {
	out     lowering.Output
	lines   int
	dropped bool
}

func (p *problems) fail(at ast.Pos, code diag.Code, msg string) {
	n := 0
	if !p.dropped {
		n, p.dropped = p.lines, true
	}
	lowering.Fail(p.out, at, code, msg, n)
}

func (p *problems) warn(at ast.Pos, code diag.Code, msg string) {
	lowering.Warn(p.out, at, code, msg)
}

// emit lowers one record and writes it, unless its values are malformed.
func (l *lowerer) emit(r *prfast.Record) error {
	rec, ok := l.lower(r)
	if !ok {
		return nil
	}
	return l.out.Record(rec)
}

func (l *lowerer) lower(r *prfast.Record) (*record.Record, bool) {
	pb := &problems{out: l.out, lines: r.Lines}
	if l.attrs == nil {
		l.attrs = record.Attrs{}
	}
	clear(l.attrs)
	l.rec = record.Record{
		Dialect: l.cfg.Dialect,
		Source:  l.cfg.Source,
		Line:    r.Pos.Line,
		Phase:   record.Instant,
		Attrs:   l.attrs,
	}
	rec := &l.rec
	if !r.Event.Given() {
		pb.fail(r.Pos, prfast.CodeNoEvent, "record without an Event item; its lines are skipped")
		return nil, false
	}
	if ev, err := hexValue(r.Event.Text, 32); err != nil {
		pb.fail(r.Event.Pos, prfast.CodeValue, fmt.Sprintf("event id %q is not a hex number", r.Event.Text))
	} else {
		rec.Event = l.event(ev)
	}
	switch r.Status.Text {
	case "Rec":
		rec.Status = record.StatusOK
	case "ErrRec":
		rec.Status = record.StatusError
	default:
		at := r.Status.Pos
		if !at.IsValid() {
			at = r.Pos
		}
		pb.fail(at, prfast.CodeValue, fmt.Sprintf("record status %q is neither Rec nor ErrRec", r.Status.Text))
	}
	if r.Process.Given() {
		if v, err := grammar.Decimal(r.Process.Text); err != nil {
			pb.fail(r.Process.Pos, prfast.CodeValue, fmt.Sprintf("process id %q is not a decimal number", r.Process.Text))
		} else {
			l.pid = v
			rec.PID = &l.pid
		}
	}
	if r.Thread.Given() {
		l.thread(pb, r.Thread, rec)
	}
	if r.Trace.Given() {
		if v, err := grammar.Decimal(r.Trace.Text); err != nil {
			pb.fail(r.Trace.Pos, prfast.CodeValue, fmt.Sprintf("trace serial number %q is not a decimal number", r.Trace.Text))
		} else {
			rec.Attrs["trace"] = v
		}
	}
	rec.Process = r.ProcessName.Text
	if r.Date.Given() || r.Clock.Given() {
		l.time(pb, r, rec)
	}
	if r.Rc.Given() {
		neg := strings.HasPrefix(r.Rc.Text, "-")
		v, err := grammar.Decimal(strings.TrimPrefix(r.Rc.Text, "-"))
		if err != nil {
			pb.fail(r.Rc.Pos, prfast.CodeValue, fmt.Sprintf("return code %q is not a decimal number", r.Rc.Text))
		} else {
			l.ret = record.IntArg(neg, v, r.Rc.Text)
			rec.Ret = &l.ret
		}
	}
	for i, ap := range [...]struct {
		key string
		ap  *prfast.AP
	}{{"client_ap", r.ClientAP}, {"root_ap", r.RootAP}} {
		if ap.ap == nil {
			continue
		}
		if l.apMaps[i] == nil {
			l.apMaps[i] = map[string]any{}
		}
		m := l.apMaps[i]
		clear(m)
		if ap.ap.IP.Given() {
			m["ip"] = ap.ap.IP.Text
		}
		for _, f := range []struct {
			key string
			it  prfast.Item
		}{{"pid", ap.ap.PID}, {"comm_no", ap.ap.CommNo}} {
			if !f.it.Given() {
				continue
			}
			v, err := grammar.Decimal(f.it.Text)
			if err != nil {
				pb.fail(f.it.Pos, prfast.CodeValue, fmt.Sprintf("%s %s %q is not a decimal number", ap.key, f.key, f.it.Text))
				continue
			}
			m[f.key] = v
		}
		if len(m) > 0 {
			rec.Attrs[ap.key] = m
		}
	}
	for _, n := range []struct {
		key string
		it  prfast.Item
	}{{"int", r.INT}, {"opr", r.OPR}} {
		if !n.it.Given() {
			continue
		}
		rec.Attrs[n.key] = n.it.Text
		if len(n.it.Text) > MaxNameLength {
			pb.warn(n.it.Pos, prfast.CodeNameLength, fmt.Sprintf("%s name of %d characters; the reference cuts names at %d", strings.ToUpper(n.key), len(n.it.Text), MaxNameLength))
		}
	}
	for _, s := range []struct {
		key string
		it  prfast.Item
	}{{"send_scd", r.SendSCD}, {"receive_scd", r.ReceiveSCD}, {"lookup_name", r.LookupName}} {
		if s.it.Given() {
			rec.Attrs[s.key] = s.it.Text
		}
	}
	if r.OPT != nil && len(r.OPT.Data) > 0 {
		l.data = append(l.data[:0], hex.EncodeToString(r.OPT.Data))
		rec.Data = l.data
	}
	if r.ASCII != nil && len(r.ASCII.Data) > 0 {
		rec.Attrs["ascii"] = hex.EncodeToString(r.ASCII.Data)
	}
	for _, e := range r.Extra {
		rec.Attrs[e.Name] = e.Text
	}
	if pb.dropped {
		return nil, false
	}
	if len(rec.Attrs) == 0 {
		rec.Attrs = nil
	}
	return rec, true
}

// hexValue reads a hex number with or without 0x.
func hexValue(s string, bits int) (uint64, error) {
	t := strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")
	if t == "" || strings.HasPrefix(t, "+") {
		return 0, strconv.ErrSyntax
	}
	return strconv.ParseUint(t, 16, bits)
}

// thread reads the thread id or hash value: hex with 0x, decimal without;
// an id may be followed by its hash value in parentheses.
func (l *lowerer) thread(pb *problems, it prfast.Item, rec *record.Record) {
	text, hash := it.Text, ""
	if i := strings.IndexByte(text, '('); i > 0 && strings.HasSuffix(text, ")") {
		text, hash = text[:i], text[i+1:len(text)-1]
	}
	v, ok := threadValue(text)
	if !ok {
		pb.fail(it.Pos, prfast.CodeValue, fmt.Sprintf("thread %q is neither hex (0x...) nor decimal", it.Text))
		return
	}
	l.tid = v
	rec.TID = &l.tid
	if hash != "" {
		h, ok := threadValue(hash)
		if !ok {
			pb.fail(it.Pos, prfast.CodeValue, fmt.Sprintf("thread hash value %q is neither hex (0x...) nor decimal", hash))
			return
		}
		rec.Attrs["thread_hash"] = h
	}
}

func threadValue(s string) (uint64, bool) {
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		v, err := hexValue(s, 64)
		return v, err == nil
	}
	if strings.HasPrefix(s, "+") {
		return 0, false
	}
	if v, err := strconv.ParseUint(s, 10, 64); err == nil {
		return v, true
	}
	v, err := strconv.ParseUint(s, 16, 64)
	return v, err == nil
}

// threeNumbers reads s as three runs of ASCII digits of lo[i] to hi[i]
// digits each, separated by single bytes that sep accepts; nothing else.
func threeNumbers(s string, lo, hi [3]int, sep func(byte) bool) ([3]int, bool) {
	var out [3]int
	i := 0
	for k := range 3 {
		if k > 0 {
			if i >= len(s) || !sep(s[i]) {
				return out, false
			}
			i++
		}
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' && i-start < hi[k] {
			out[k] = out[k]*10 + int(s[i]-'0')
			i++
		}
		if i-start < lo[k] {
			return out, false
		}
	}
	return out, i == len(s)
}

func dateSep(b byte) bool { return b == '/' || b == ':' || b == '-' }
func colon(b byte) bool   { return b == ':' }
func slash(b byte) bool   { return b == '/' }
func parseDate(s string) ([3]int, bool) {
	return threeNumbers(s, [3]int{4, 1, 1}, [3]int{4, 2, 2}, dateSep)
}
func parseClock(s string) ([3]int, bool) {
	return threeNumbers(s, [3]int{1, 1, 1}, [3]int{2, 2, 2}, colon)
}
func parseSub(s string) ([3]int, bool) {
	return threeNumbers(s, [3]int{1, 1, 1}, [3]int{3, 3, 3}, slash)
}

// time reads year/month/day hour:minute:second ms/us/ns into time and
// ts_ns (from the first record of the input that has a time).
func (l *lowerer) time(pb *problems, r *prfast.Record, rec *record.Record) {
	t := r.Date.Text + " " + r.Clock.Text
	if r.SubSecond.Given() {
		t += " " + r.SubSecond.Text
	}
	rec.Time = strings.TrimSpace(t)
	d, dok := parseDate(r.Date.Text)
	c, cok := parseClock(r.Clock.Text)
	if !dok || !cok {
		at := r.Date.Pos
		if !at.IsValid() {
			at = r.Clock.Pos
		}
		pb.fail(at, prfast.CodeValue, fmt.Sprintf("time %q is not year/month/day hour:minute:second", rec.Time))
		return
	}
	year, month, day := d[0], d[1], d[2]
	hour, minute, sec := c[0], c[1], c[2]
	nsec := 0
	if r.SubSecond.Given() {
		s, ok := parseSub(r.SubSecond.Text)
		if !ok {
			pb.fail(r.SubSecond.Pos, prfast.CodeValue, fmt.Sprintf("sub-second time %q is not millisecond/microsecond/nanosecond", r.SubSecond.Text))
			return
		}
		nsec = s[0]*1e6 + s[1]*1e3 + s[2]
	}
	tm := time.Date(year, time.Month(month), day, hour, minute, sec, nsec, time.UTC)
	if year < 1970 || year > 2199 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || sec > 60 || tm.Day() != day {
		pb.fail(r.Date.Pos, prfast.CodeValue, fmt.Sprintf("time %q is not a valid date and time", rec.Time))
		return
	}
	ns := tm.UnixNano()
	if !l.seen {
		l.origin, l.seen = ns, true
	}
	l.ts = ns - l.origin
	rec.TSNs = &l.ts
}

type dumpParser struct{ p grammar.DumpParser }

func (d *dumpParser) Line(pos ast.Pos, text string) ([]any, diag.List) {
	r, diags := d.p.Line(pos, text)
	if r == nil {
		return nil, diags
	}
	return []any{r}, diags
}

func (d *dumpParser) End(ast.Pos) ([]any, diag.List) {
	if r := d.p.End(); r != nil {
		return []any{r}, nil
	}
	return nil, nil
}

type csvParser struct{ p grammar.CSVParser }

func (c *csvParser) Line(pos ast.Pos, text string) ([]any, diag.List) {
	h, r, diags := c.p.Line(pos, text)
	switch {
	case h != nil:
		return []any{h}, diags
	case r != nil:
		return []any{r}, diags
	}
	return nil, diags
}

func (c *csvParser) End(ast.Pos) ([]any, diag.List) { return nil, nil }
