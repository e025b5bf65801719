package record

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Writer prints records one at a time. Write may buffer; Flush writes out
// what is buffered and must be called once at the end.
type Writer interface {
	Write(r *Record) error
	Flush() error
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
	w   *bufio.Writer
	buf []byte
}

// NewJSONL returns a writer printing one JSON object a line, in the form
// docs/record.schema.json describes.
func NewJSONL(w io.Writer) Writer { return &jsonlWriter{w: bufio.NewWriterSize(w, 64<<10)} }

func (j *jsonlWriter) Write(r *Record) error {
	b, err := r.AppendJSON(j.buf[:0])
	if err != nil {
		return err
	}
	b = append(b, '\n')
	j.buf = b
	_, err = j.w.Write(b)
	return err
}

func (j *jsonlWriter) Flush() error { return j.w.Flush() }

// CSVColumns are the columns of the CSV form, in order.
var csvColumns = []string{
	"dialect", "source", "line", "seq", "time", "ts_ns", "cpu", "pid", "tid", "process",
	"event", "major", "minor", "phase", "unpaired", "dur_ns", "errno", "args", "ret", "status", "data", "attrs",
}

// CSVColumns returns the header of the CSV form.
func CSVColumns() []string { return append([]string(nil), csvColumns...) }

// csvWriter prints a header row, then one row a record.
type csvWriter struct {
	w      *csv.Writer
	header bool
	row    []string
}

// NewCSV returns a writer printing a header row (CSVColumns) and one row a
// record. args, ret and attrs are cells of JSON; data is its words joined by
// blanks.
func NewCSV(w io.Writer) Writer { return &csvWriter{w: csv.NewWriter(w)} }

func (c *csvWriter) Write(r *Record) error {
	if !c.header {
		c.header = true
		if err := c.w.Write(csvColumns); err != nil {
			return err
		}
	}
	attrs := ""
	if len(r.Attrs) > 0 {
		b, err := appendAttrs(nil, r.Attrs)
		if err != nil {
			return err
		}
		attrs = string(b)
	}
	args := ""
	if len(r.Args) > 0 {
		args = string(appendArgs(nil, r.Args))
	}
	ret := ""
	if r.Ret != nil {
		ret = string(r.Ret.appendJSON(nil))
	}
	unpaired := ""
	if r.Unpaired {
		unpaired = "true"
	}
	c.row = append(c.row[:0],
		r.Dialect, r.Source, strconv.Itoa(r.Line), strconv.FormatInt(r.Seq, 10), r.Time,
		optInt(r.TsNs), optUint(r.CPU), optUint(r.PID), optUint(r.TID), r.Process,
		r.Event, optUint(r.Major), optUint(r.Minor), string(r.Phase), unpaired,
		optInt(r.DurNs), r.Errno, args, ret, string(r.Status), strings.Join(r.Data, " "), attrs)
	return c.w.Write(c.row)
}

func (c *csvWriter) Flush() error {
	if !c.header {
		c.header = true
		if err := c.w.Write(csvColumns); err != nil {
			return err
		}
	}
	c.w.Flush()
	return c.w.Error()
}

func optUint(v *uint64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatUint(*v, 10)
}

func optInt(v *int64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatInt(*v, 10)
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
	if r.TsNs != nil {
		fmt.Fprintf(sb, " %+dns", *r.TsNs)
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
		b, err := appendAttrs(nil, r.Attrs)
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
