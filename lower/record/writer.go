package record

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// Writer prints records one at a time. Write may buffer bytes but must not
// keep r or anything it points to after it returns (callers reuse records);
// Flush writes out what is buffered and must be called once at the end.
type Writer interface {
	Write(r *Record) error
	Flush() error
}

// Parts is offered by the writers NewWriter returns, for writing records
// encoded on several goroutines: Part returns a writer of the same format
// that encodes into w (without the CSV header), and WriteEncoded writes, in
// order, bytes that parts encoded, after the header when one is due.
type Parts interface {
	Part(w io.Writer) Writer
	WriteEncoded(p []byte) error
}

// The output formats NewWriter knows.
var formats = map[string]func(io.Writer) Writer{
	"jsonl":  NewJSONL,
	"csv":    NewCSV,
	"text":   NewText,
	"chrome": NewChrome,
}

// Formats returns the names NewWriter accepts, sorted.
func Formats() []string {
	names := make([]string, 0, len(formats))
	for n := range formats {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// NewWriter returns the writer for a format name: "jsonl", "csv", "text" or
// "chrome".
func NewWriter(format string, w io.Writer) (Writer, error) {
	mk, ok := formats[format]
	if !ok {
		return nil, fmt.Errorf("unknown output format %q (want one of %s)", format, strings.Join(Formats(), ", "))
	}
	return mk(w), nil
}

// jsonlWriter prints one JSON object a line.
type jsonlWriter struct {
	w    *bufio.Writer
	buf  []byte
	head jsonHead
}

// NewJSONL returns a writer printing one JSON object a line, in the form
// docs/record.schema.json describes.
func NewJSONL(w io.Writer) Writer { return &jsonlWriter{w: bufio.NewWriterSize(w, 64<<10)} }

func (j *jsonlWriter) Write(r *Record) error {
	b, err := r.appendJSON(j.buf[:0], nil, &j.head)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	j.buf = b
	_, err = j.w.Write(b)
	return err
}

func (j *jsonlWriter) Flush() error { return j.w.Flush() }

// Part returns a JSONL writer into w.
func (j *jsonlWriter) Part(w io.Writer) Writer { return NewJSONL(w) }

// WriteEncoded writes records a part encoded.
func (j *jsonlWriter) WriteEncoded(p []byte) error {
	_, err := j.w.Write(p)
	return err
}

// CSVColumns are the columns of the CSV form, in order.
var csvColumns = []string{
	"dialect", "source", "line", "seq", "time", "ts_ns", "cpu", "pid", "tid", "process",
	"event", "major", "minor", "phase", "unpaired", "dur_ns", "errno", "args", "ret", "status", "data", "attrs",
}

// CSVColumns returns the header of the CSV form.
func CSVColumns() []string { return append([]string(nil), csvColumns...) }

// csvWriter prints a header row, then one row a record, as encoding/csv
// would (comma separated, fields quoted when they hold a quote, a comma, a
// line break or start with white space, LF line ends), appending each row
// into a reused buffer.
type csvWriter struct {
	w      *bufio.Writer
	header bool
	buf    []byte
	json   []byte

	// The first two cells of the last row, encoded: they rarely change.
	dialect, source string
	head            []byte

	// The attrs cells of the last records that gave their attrs as JSON,
	// by where the JSON is (a lowering shares a few encodings among its
	// records: os2strace one a hook type).
	attrs [1 << attrsBits]attrsCell
}

// attrsBits sets how many attrs cells a CSV writer keeps.
const attrsBits = 8

// attrsCell is the CSV cell of the attrs JSON whose first byte is of.
type attrsCell struct {
	of   *byte // the JSON's first byte
	n    int   // and its length
	cell []byte
}

// NewCSV returns a writer printing a header row (CSVColumns) and one row a
// record. args, ret and attrs are cells of JSON; data is its words joined by
// blanks.
func NewCSV(w io.Writer) Writer { return &csvWriter{w: bufio.NewWriterSize(w, 64<<10)} }

func (c *csvWriter) writeHeader() error {
	c.header = true
	b := c.buf[:0]
	for i, col := range csvColumns {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendCSVField(b, col)
	}
	b = append(b, '\n')
	c.buf = b
	_, err := c.w.Write(b)
	return err
}

func (c *csvWriter) Write(r *Record) error {
	if !c.header {
		if err := c.writeHeader(); err != nil {
			return err
		}
	}
	b, err := c.appendRow(c.buf[:0], r, nil)
	if err != nil {
		return err
	}
	c.buf = b
	_, err = c.w.Write(b)
	return err
}

// appendRow appends r's row to b, with holes where seq and ts_ns go when
// h is not nil (AppendTemplate).
func (c *csvWriter) appendRow(b []byte, r *Record, h *Holes) ([]byte, error) {
	start := len(b)
	if c.head == nil || r.Dialect != c.dialect || r.Source != c.source {
		c.dialect, c.source = r.Dialect, r.Source
		c.head = appendCSVField(c.head[:0], r.Dialect)
		c.head = append(c.head, ',')
		c.head = appendCSVField(c.head, r.Source)
		c.head = append(c.head, ',')
	}
	b = append(b, c.head...)
	b = appendInt(b, int64(r.Line))
	b = append(b, ',')
	if h != nil {
		h.Seq = int32(len(b) - start)
	} else {
		b = appendInt(b, r.Seq)
	}
	b = append(b, ',')
	b = appendCSVField(b, r.Time)
	b = append(b, ',')
	if h != nil {
		h.TS = int32(len(b) - start)
	} else if r.TSNs != nil {
		b = appendInt(b, *r.TSNs)
	}
	b = append(b, ',')
	b = appendOptUintCSV(b, r.CPU)
	b = appendOptUintCSV(b, r.PID)
	b = appendOptUintCSV(b, r.TID)
	if r.Process != "" {
		b = appendCSVField(b, r.Process)
	}
	b = append(b, ',')
	b = appendCSVField(b, r.Event)
	b = append(b, ',')
	b = appendOptUintCSV(b, r.Major)
	b = appendOptUintCSV(b, r.Minor)
	switch r.Phase {
	case Instant, Enter, Exit, Complete:
		b = append(b, r.Phase...) // plain words: never quoted
	default:
		b = appendCSVField(b, string(r.Phase))
	}
	b = append(b, ',')
	if r.Unpaired {
		b = append(b, "true"...)
	}
	b = append(b, ',')
	if r.DurNs != nil {
		b = appendInt(b, *r.DurNs)
	}
	b = append(b, ',')
	if r.Errno != "" {
		b = appendCSVField(b, r.Errno)
	}
	b = append(b, ',')
	if len(r.Args) > 0 {
		b = appendArgsCSV(b, r.Args)
	}
	b = append(b, ',')
	if r.Ret != nil {
		b = appendArgCSV(b, r.Ret)
	}
	b = append(b, ',')
	if r.Status != "" {
		b = appendCSVField(b, string(r.Status))
	}
	b = append(b, ',')
	if len(r.Data) > 0 {
		// Joined in the row, then quoted there when encoding/csv would.
		cell := len(b)
		for i, d := range r.Data {
			if i > 0 {
				b = append(b, ' ')
			}
			b = append(b, d...)
		}
		if csvNeedsQuotes(b[cell:]) {
			c.json = append(c.json[:0], b[cell:]...)
			b = appendCSVBytes(b[:cell], c.json)
		}
	}
	b = append(b, ',')
	switch {
	case len(r.Attrs) == 0:
	case len(r.AttrsJSON) > 0:
		// Its bytes never change: the cell of the same bytes (held, so
		// never reused for others) is the one encoded before.
		a := &c.attrs[uint64(uintptr(unsafe.Pointer(&r.AttrsJSON[0])))*0x9E3779B97F4A7C15>>(64-attrsBits)]
		if &r.AttrsJSON[0] != a.of || len(r.AttrsJSON) != a.n {
			a.of, a.n = &r.AttrsJSON[0], len(r.AttrsJSON)
			a.cell = appendCSVBytes(a.cell[:0], r.AttrsJSON)
		}
		b = append(b, a.cell...)
	default:
		// A map with keys: the cell is always quoted.
		b = append(b, '"')
		var err error
		if b, err = appendJSONMap(b, r.Attrs, true); err != nil {
			return nil, err
		}
		b = append(b, '"')
	}
	return append(b, '\n'), nil
}

func appendOptUintCSV(b []byte, v *uint64) []byte {
	if v != nil {
		b = appendUint(b, *v)
	}
	return append(b, ',')
}

// appendCSVField appends a field as encoding/csv's Writer writes it.
func appendCSVField(b []byte, s string) []byte { return appendCSV(b, s) }

// appendCSVBytes is appendCSVField for a field held in bytes.
func appendCSVBytes(b, s []byte) []byte { return appendCSV(b, s) }

// appendCSV appends a field, quoted when csvNeedsQuotes says so, with its
// quotes doubled in one pass (JSON cells hold many).
func appendCSV[T string | []byte](b []byte, s T) []byte {
	if !csvNeedsQuotes(s) {
		return append(b, s...)
	}
	n := len(b)
	b = slices.Grow(b, 2*len(s)+2)[:n+2*len(s)+2] // room for every byte doubled
	b[n] = '"'
	j := n + 1
	for i := 0; i < len(s); i++ {
		c := s[i]
		b[j] = c
		j++
		if c == '"' {
			b[j] = '"'
			j++
		}
	}
	b[j] = '"'
	return b[:j+1]
}

// appendDoubled appends s with its quotes doubled. Each byte is written
// with a quote after it, and the next byte goes after the quote when it is
// one, over it when not: no branch a byte (a JSON cell's quotes come every
// few bytes).
func appendDoubled(b, s []byte) []byte {
	n := len(b)
	b = slices.Grow(b, 2*len(s))[:n+2*len(s)]
	j := n
	for _, c := range s {
		b[j], b[j+1] = c, '"'
		j += 1 + int(isQuote[c])
	}
	return b[:j]
}

// isQuote is 1 for the quote, 0 for the other bytes.
var isQuote = [256]uint8{'"': 1}

// csvSpecial marks the bytes that make encoding/csv quote a field.
var csvSpecial = [256]bool{',': true, '"': true, '\r': true, '\n': true}

// csvNeedsQuotes is encoding/csv's rule: a field is quoted when it holds a
// comma, a quote, CR or LF, when it is \. alone, or when it starts with a
// white-space character.
func csvNeedsQuotes[T string | []byte](s T) bool {
	if len(s) == 0 {
		return false
	}
	switch c := s[0]; {
	case c == ' ' || c >= '\t' && c <= '\r':
		return true
	case c >= utf8.RuneSelf:
		var r rune
		switch v := any(s).(type) {
		case string:
			r, _ = utf8.DecodeRuneInString(v)
		case []byte:
			r, _ = utf8.DecodeRune(v)
		}
		if unicode.IsSpace(r) {
			return true
		}
	case c == '\\' && len(s) == 2 && s[1] == '.':
		return true
	}
	if len(s) >= 8 {
		// Eight bytes at a time, the last eight overlapping the word
		// before: no byte left to test one by one.
		for i := 0; i+8 <= len(s); i += 8 {
			if csvSpecialWord(s, i) {
				return true
			}
		}
		return len(s)%8 != 0 && csvSpecialWord(s, len(s)-8)
	}
	for i := 0; i < len(s); i++ {
		if csvSpecial[s[i]] {
			return true
		}
	}
	return false
}

// csvSpecialWord reports whether one of the eight bytes of s from i on is
// a byte csvSpecial marks.
func csvSpecialWord[T string | []byte](s T, i int) bool {
	s = s[i:]
	_ = s[7] // one bounds check: the eight bytes below are one load
	x := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
	return csvSpecialBytes(x) != 0
}

// Part returns a CSV writer into w that writes no header.
func (c *csvWriter) Part(w io.Writer) Writer {
	return &csvWriter{w: bufio.NewWriterSize(w, 64<<10), header: true}
}

// WriteEncoded writes rows a part encoded, after the header.
func (c *csvWriter) WriteEncoded(p []byte) error {
	if !c.header {
		if err := c.writeHeader(); err != nil {
			return err
		}
	}
	_, err := c.w.Write(p)
	return err
}

func (c *csvWriter) Flush() error {
	if !c.header {
		if err := c.writeHeader(); err != nil {
			return err
		}
	}
	return c.w.Flush()
}

// textWriter prints one line a record for people.
type textWriter struct {
	w  *bufio.Writer
	sb strings.Builder
}

// NewText returns a writer printing one line a record:
//
//	SOURCE:LINE #SEQ [TIME] [+TSns] [cpu=N] [pid=N] [tid=N] [process=NAME] PHASE EVENT(ARGS) [= RET] [errno=E] [dur=Nns] [status=S] [unpaired] [data=W,W] [ATTRS]
//
// with arguments as Arg.String renders them and attrs as JSON.
func NewText(w io.Writer) Writer { return &textWriter{w: bufio.NewWriterSize(w, 64<<10)} }

func (t *textWriter) Write(r *Record) error {
	sb := &t.sb
	sb.Reset()
	fmt.Fprintf(sb, "%s:%d #%d", r.Source, r.Line, r.Seq)
	if r.Time != "" {
		sb.WriteString(" " + r.Time)
	}
	if r.TSNs != nil {
		fmt.Fprintf(sb, " %+dns", *r.TSNs)
	}
	for _, f := range []struct {
		name string
		v    *uint64
	}{{"cpu", r.CPU}, {"pid", r.PID}, {"tid", r.TID}} {
		if f.v != nil {
			fmt.Fprintf(sb, " %s=%d", f.name, *f.v)
		}
	}
	if r.Process != "" {
		sb.WriteString(" process=" + strconv.Quote(r.Process))
	}
	sb.WriteString(" " + string(r.Phase) + " " + r.Event + "(")
	for i := range r.Args {
		if i > 0 {
			sb.WriteString(", ")
		}
		r.Args[i].writeText(sb)
	}
	sb.WriteByte(')')
	if r.Ret != nil {
		sb.WriteString(" = ")
		r.Ret.writeText(sb)
	}
	if r.Errno != "" {
		sb.WriteString(" errno=" + r.Errno)
	}
	if r.DurNs != nil {
		fmt.Fprintf(sb, " dur=%dns", *r.DurNs)
	}
	if r.Status != "" {
		sb.WriteString(" status=" + string(r.Status))
	}
	if r.Unpaired {
		sb.WriteString(" unpaired")
	}
	if len(r.Data) > 0 {
		sb.WriteString(" data=" + strings.Join(r.Data, ","))
	}
	if len(r.Attrs) > 0 {
		b, err := appendRecordAttrs(nil, r)
		if err != nil {
			return err
		}
		sb.WriteByte(' ')
		sb.Write(b)
	}
	sb.WriteByte('\n')
	_, err := t.w.WriteString(sb.String())
	return err
}

func (t *textWriter) Flush() error { return t.w.Flush() }

// Part returns a text writer into w.
func (t *textWriter) Part(w io.Writer) Writer { return NewText(w) }

// WriteEncoded writes lines a part encoded.
func (t *textWriter) WriteEncoded(p []byte) error {
	_, err := t.w.Write(p)
	return err
}
