package record

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// column is one member of a record, as --fields names it.
type column int

const (
	fDialect column = iota
	fSource
	fLine
	fSeq
	fTime
	fTSNs
	fCPU
	fPID
	fTID
	fProcess
	fEvent
	fMajor
	fMinor
	fPhase
	fUnpaired
	fDurNs
	fErrno
	fArgs
	fRet
	fStatus
	fData
	fAttrs
)

// ParseFields reads a --fields list ("ts_ns,pid,event"): names of the
// CSV columns (CSVColumns), which are the JSON keys too, in the order to
// write them. An unknown or repeated name is an error naming the valid
// ones.
func ParseFields(list string) ([]string, error) {
	var out []string
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if !slices.Contains(csvColumns, name) {
			return nil, fmt.Errorf("unknown field %q: want some of %s", name, strings.Join(csvColumns, ","))
		}
		if slices.Contains(out, name) {
			return nil, fmt.Errorf("field %q given twice", name)
		}
		out = append(out, name)
	}
	return out, nil
}

// FieldFormats are the formats that take a column list.
var FieldFormats = []string{"csv", "jsonl", "text"}

// NewFieldsWriter returns a writer of format (csv, jsonl or text) that
// writes only the named fields, in their order: CSV with those columns;
// JSONL objects with those keys (each left out, as in full JSONL, when the
// record has no value for it); text as "name=value" pairs. Only the work
// the fields need is done: no arguments are encoded unless args is asked.
func NewFieldsWriter(format string, w io.Writer, fields []string) (Writer, error) {
	var ids []column
	for _, f := range fields {
		i := slices.Index(csvColumns, f)
		if i < 0 {
			return nil, fmt.Errorf("unknown field %q", f)
		}
		ids = append(ids, column(i))
	}
	if !slices.Contains(FieldFormats, format) {
		return nil, fmt.Errorf("--fields: format %s takes no column list (want one of %s)", format, strings.Join(FieldFormats, ", "))
	}
	return &fieldsWriter{w: bufio.NewWriterSize(w, 64<<10), format: format, fields: ids}, nil
}

// fieldsWriter is the writer NewFieldsWriter returns.
type fieldsWriter struct {
	w      *bufio.Writer
	format string
	fields []column
	header bool // CSV: written
	buf    []byte
	val    []byte
}

// Part returns a writer of the same fields into w, with no CSV header.
func (f *fieldsWriter) Part(w io.Writer) Writer {
	return &fieldsWriter{w: bufio.NewWriterSize(w, 64<<10), format: f.format, fields: f.fields, header: true}
}

// WriteEncoded writes what parts encoded, after the header when one is due.
func (f *fieldsWriter) WriteEncoded(p []byte) error {
	if err := f.writeHeader(); err != nil {
		return err
	}
	_, err := f.w.Write(p)
	return err
}

func (f *fieldsWriter) writeHeader() error {
	if f.header || f.format != "csv" {
		return nil
	}
	f.header = true
	b := f.buf[:0]
	for i, id := range f.fields {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, csvColumns[id]...)
	}
	f.buf = append(b, '\n')
	_, err := f.w.Write(f.buf)
	return err
}

func (f *fieldsWriter) Flush() error {
	if err := f.writeHeader(); err != nil {
		return err
	}
	return f.w.Flush()
}

func (f *fieldsWriter) Write(r *Record) error {
	if err := f.writeHeader(); err != nil {
		return err
	}
	b := f.buf[:0]
	if f.format == "jsonl" {
		b = append(b, '{')
	}
	n := 0
	for _, id := range f.fields {
		v, json, ok, err := f.value(r, id)
		if err != nil {
			return err
		}
		switch f.format {
		case "csv":
			if n > 0 {
				b = append(b, ',')
			}
			if ok {
				b = appendCSVBytes(b, v)
			}
			n++
		case "jsonl":
			if !ok {
				continue
			}
			if n > 0 {
				b = append(b, ',')
			}
			b = appendString(b, csvColumns[id])
			b = append(b, ':')
			if json {
				b = append(b, v...)
			} else {
				b = appendString(b, string(v))
			}
			n++
		default: // text
			if !ok {
				continue
			}
			if n > 0 {
				b = append(b, ' ')
			}
			b = append(b, csvColumns[id]...)
			b = append(b, '=')
			b = append(b, v...)
			n++
		}
	}
	if f.format == "jsonl" {
		b = append(b, '}')
	}
	f.buf = append(b, '\n')
	_, err := f.w.Write(f.buf)
	return err
}

// value returns a column's value: its text (a number, a string, or JSON
// when json is set), and whether the record has one.
func (f *fieldsWriter) value(r *Record, id column) (v []byte, json, ok bool, err error) {
	b := f.val[:0]
	defer func() { f.val = v }()
	num := func(n int64) ([]byte, bool, bool, error) { return strconv.AppendInt(b, n, 10), true, true, nil }
	unum := func(p *uint64) ([]byte, bool, bool, error) {
		if p == nil {
			return b, false, false, nil
		}
		return strconv.AppendUint(b, *p, 10), true, true, nil
	}
	str := func(s string) ([]byte, bool, bool, error) { return append(b, s...), false, s != "", nil }
	switch id {
	case fDialect:
		return str(r.Dialect)
	case fSource:
		return str(r.Source)
	case fLine:
		return num(int64(r.Line))
	case fSeq:
		return num(r.Seq)
	case fTime:
		return str(r.Time)
	case fTSNs:
		if r.TSNs == nil {
			return b, false, false, nil
		}
		return num(*r.TSNs)
	case fCPU:
		return unum(r.CPU)
	case fPID:
		return unum(r.PID)
	case fTID:
		return unum(r.TID)
	case fProcess:
		return str(r.Process)
	case fEvent:
		return str(r.Event)
	case fMajor:
		return unum(r.Major)
	case fMinor:
		return unum(r.Minor)
	case fPhase:
		return str(string(r.Phase))
	case fUnpaired:
		if !r.Unpaired {
			return b, false, false, nil
		}
		return append(b, "true"...), true, true, nil
	case fDurNs:
		if r.DurNs == nil {
			return b, false, false, nil
		}
		return num(*r.DurNs)
	case fErrno:
		return str(r.Errno)
	case fArgs:
		if len(r.Args) == 0 {
			return b, false, false, nil
		}
		return appendArgs(b, r.Args), true, true, nil
	case fRet:
		if r.Ret == nil {
			return b, false, false, nil
		}
		return r.Ret.appendJSON(b), true, true, nil
	case fStatus:
		return str(string(r.Status))
	case fData:
		if len(r.Data) == 0 {
			return b, false, false, nil
		}
		if f.format == "jsonl" {
			b = append(b, '[')
			for i, d := range r.Data {
				if i > 0 {
					b = append(b, ',')
				}
				b = appendString(b, d)
			}
			return append(b, ']'), true, true, nil
		}
		return append(b, strings.Join(r.Data, " ")...), false, true, nil
	case fAttrs:
		if len(r.Attrs) == 0 {
			return b, false, false, nil
		}
		out, err := appendRecordAttrs(b, r)
		return out, true, true, err
	}
	return b, false, false, fmt.Errorf("field %d", id)
}
