package record

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"
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
	if !f.header {
		if err := f.writeHeader(); err != nil {
			return err
		}
	}
	if f.format == "csv" {
		return f.writeCSVRow(r)
	}
	var (
		b   []byte
		err error
	)
	if f.format == "jsonl" {
		b, err = f.appendJSONRow(f.buf[:0], r, nil)
	} else {
		b, err = f.appendTextRow(f.buf[:0], r, nil)
	}
	if err != nil {
		return err
	}
	f.buf = append(b, '\n')
	_, err = f.w.Write(f.buf)
	return err
}

// rowRoom is the free space of the output buffer a CSV row is encoded
// into in place: a longer row is encoded elsewhere and copied.
const rowRoom = 1 << 10

// writeCSVRow encodes r's row straight into the output buffer.
func (f *fieldsWriter) writeCSVRow(r *Record) error {
	if f.w.Available() < rowRoom && f.w.Buffered() > 0 {
		if err := f.w.Flush(); err != nil {
			return err
		}
	}
	b, err := f.appendCSVRow(f.w.AvailableBuffer(), r, nil)
	if err != nil {
		return err
	}
	_, err = f.w.Write(append(b, '\n'))
	return err
}

// appendCSVRow appends the cells of r's fields, each encoded straight into
// the row: numbers as digits, strings quoted as encoding/csv would, JSON
// cells quoted in place. When h is not nil, the cells of seq and ts_ns
// are left as holes (AppendTemplate).
func (f *fieldsWriter) appendCSVRow(b []byte, r *Record, h *Holes) ([]byte, error) {
	start := len(b)
	for i, id := range f.fields {
		if i > 0 {
			b = append(b, ',')
		}
		switch id {
		case fTime:
			b = appendCell(b, r.Time)
		case fTSNs:
			if h != nil {
				h.TS = int32(len(b) - start)
				continue
			}
			b = appendOptIntDigits(b, r.TSNs)
		case fSeq:
			if h != nil {
				h.Seq = int32(len(b) - start)
				continue
			}
			b = appendInt(b, r.Seq)
		case fCPU:
			b = appendOptUintDigits(b, r.CPU)
		case fPID:
			b = appendOptUintDigits(b, r.PID)
		case fTID:
			b = appendOptUintDigits(b, r.TID)
		case fMajor:
			b = appendOptUintDigits(b, r.Major)
		case fMinor:
			b = appendOptUintDigits(b, r.Minor)
		case fEvent:
			b = appendCell(b, r.Event)
		case fData:
			if len(r.Data) == 0 {
				continue
			}
			start := len(b)
			// The cell is quoted when a word holds a special byte (the
			// blanks between words are none), or by how it starts: its
			// first rune (at most utf8.UTFMax bytes) tells, or it is \.
			// alone.
			plain := true
			for i, d := range r.Data {
				if i > 0 {
					b = append(b, ' ')
				}
				var ok bool
				b, ok = appendPlain(b, d)
				plain = plain && ok
			}
			if !plain || csvNeedsQuotes(b[start:min(len(b), start+utf8.UTFMax)]) {
				b = f.quoteCSVInPlace(b, start)
			}
		case fArgs, fRet, fAttrs:
			start := len(b)
			var err error
			if b, err = f.appendJSONValue(b, r, id); err != nil {
				return nil, err
			}
			b = f.quoteCSVInPlace(b, start)
		default:
			if s, ok := f.stringValue(r, id); ok {
				b = appendCSV(b, s)
			} else {
				b = appendNumberValue(b, r, id)
			}
		}
	}
	return b, nil
}

// appendCell is appendCSV(b, s), with the common cell of 8 bytes or more
// tested and copied 8 bytes at a time (appendPlain).
func appendCell(b []byte, s string) []byte {
	b, ok := appendPlain(b, s)
	if ok {
		return b
	}
	return appendCSV(b[:len(b)-len(s)], s)
}

// appendPlain appends s to b, and reports whether s holds none of the
// bytes that make a CSV cell quoted (a comma, a quote, CR, LF) and does
// not start with white space or make the cell \. alone: when it does,
// the cell is to be quoted. A string of 8 bytes or more is read and
// written 8 bytes at a time, the last 8 overlapping those before, with
// no test a byte.
func appendPlain(b []byte, s string) ([]byte, bool) {
	n := len(s)
	if n < 8 || cap(b)-len(b) < n || s[0] <= ' ' || s[0] >= utf8.RuneSelf {
		return append(b, s...), !csvNeedsQuotes(s)
	}
	at := len(b)
	b = b[:at+n]
	var special uint64
	for i := 0; i+8 < n; i += 8 {
		x := load64(s[i:])
		binary.LittleEndian.PutUint64(b[at+i:], x)
		special |= csvSpecialBytes(x)
	}
	x := load64(s[n-8:])
	binary.LittleEndian.PutUint64(b[at+n-8:], x)
	return b, special|csvSpecialBytes(x) == 0
}

// load64 reads the first 8 bytes of s, little-endian, in one load.
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// csvSpecialBytes is not zero when one of the 8 bytes in x is a comma, a
// quote, CR or LF: a byte made zero by the xor with one of them.
func csvSpecialBytes(x uint64) uint64 {
	c, q, r, n := x^(lsb*','), x^(lsb*'"'), x^(lsb*'\r'), x^(lsb*'\n')
	return ((c-lsb)&^c | (q-lsb)&^q | (r-lsb)&^r | (n-lsb)&^n) & msb
}

// appendOptIntDigits appends *v in decimal, nothing when v is nil.
func appendOptIntDigits(b []byte, v *int64) []byte {
	if v == nil {
		return b
	}
	return appendInt(b, *v)
}

// appendOptUintDigits appends *v in decimal, nothing when v is nil.
func appendOptUintDigits(b []byte, v *uint64) []byte {
	if v == nil {
		return b
	}
	return appendUint(b, *v)
}

// quoteCSVInPlace quotes the cell b[start:] when encoding/csv would.
func (f *fieldsWriter) quoteCSVInPlace(b []byte, start int) []byte {
	if !csvNeedsQuotes(b[start:]) {
		return b
	}
	f.val = append(f.val[:0], b[start:]...)
	return appendCSV(b[:start], f.val)
}

// appendJSONRow appends r's fields that have a value as members of one
// JSON object. When h is not nil, the value of seq and the member ts_ns
// are left as holes (AppendTemplate).
func (f *fieldsWriter) appendJSONRow(b []byte, r *Record, h *Holes) ([]byte, error) {
	start := len(b)
	b = append(b, '{')
	n := 0
	for _, id := range f.fields {
		if h != nil && id == fTSNs {
			h.TS, h.tsFirst = int32(len(b)-start), n == 0
			continue
		}
		if !hasValue(r, id) {
			continue
		}
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = appendString(b, csvColumns[id])
		b = append(b, ':')
		if h != nil && id == fSeq {
			h.Seq = int32(len(b) - start)
			continue
		}
		switch id {
		case fData:
			b = append(b, '[')
			for i, d := range r.Data {
				if i > 0 {
					b = append(b, ',')
				}
				b = appendString(b, d)
			}
			b = append(b, ']')
		case fArgs, fRet, fAttrs:
			var err error
			if b, err = f.appendJSONValue(b, r, id); err != nil {
				return nil, err
			}
		default:
			if s, ok := f.stringValue(r, id); ok {
				b = appendString(b, s)
			} else {
				b = appendNumberValue(b, r, id)
			}
		}
	}
	if h != nil && h.TS >= 0 {
		h.tsLast = int(h.TS) == len(b)-start
	}
	return append(b, '}'), nil
}

// appendTextRow appends "name=value" pairs of r's fields that have a
// value, separated by blanks. When h is not nil, the value of seq and the
// pair of ts_ns are left as holes (AppendTemplate).
func (f *fieldsWriter) appendTextRow(b []byte, r *Record, h *Holes) ([]byte, error) {
	start := len(b)
	n := 0
	for _, id := range f.fields {
		if h != nil && id == fTSNs {
			h.TS, h.tsFirst = int32(len(b)-start), n == 0
			continue
		}
		if !hasValue(r, id) {
			continue
		}
		if n > 0 {
			b = append(b, ' ')
		}
		n++
		b = append(b, csvColumns[id]...)
		b = append(b, '=')
		if h != nil && id == fSeq {
			h.Seq = int32(len(b) - start)
			continue
		}
		switch id {
		case fData:
			for i, d := range r.Data {
				if i > 0 {
					b = append(b, ' ')
				}
				b = append(b, d...)
			}
		case fArgs, fRet, fAttrs:
			var err error
			if b, err = f.appendJSONValue(b, r, id); err != nil {
				return nil, err
			}
		default:
			if s, ok := f.stringValue(r, id); ok {
				b = append(b, s...)
			} else {
				b = appendNumberValue(b, r, id)
			}
		}
	}
	if h != nil && h.TS >= 0 {
		h.tsLast = int(h.TS) == len(b)-start
	}
	return b, nil
}

// hasValue reports whether r has a value for the field.
func hasValue(r *Record, id column) bool {
	switch id {
	case fDialect:
		return r.Dialect != ""
	case fSource:
		return r.Source != ""
	case fLine, fSeq:
		return true
	case fTime:
		return r.Time != ""
	case fTSNs:
		return r.TSNs != nil
	case fCPU:
		return r.CPU != nil
	case fPID:
		return r.PID != nil
	case fTID:
		return r.TID != nil
	case fProcess:
		return r.Process != ""
	case fEvent:
		return r.Event != ""
	case fMajor:
		return r.Major != nil
	case fMinor:
		return r.Minor != nil
	case fPhase:
		return r.Phase != ""
	case fUnpaired:
		return r.Unpaired
	case fDurNs:
		return r.DurNs != nil
	case fErrno:
		return r.Errno != ""
	case fArgs:
		return len(r.Args) > 0
	case fRet:
		return r.Ret != nil
	case fStatus:
		return r.Status != ""
	case fData:
		return len(r.Data) > 0
	case fAttrs:
		return len(r.Attrs) > 0
	}
	return false
}

// stringValue returns the value of a field that is a string; false for
// the other fields.
func (f *fieldsWriter) stringValue(r *Record, id column) (string, bool) {
	switch id {
	case fDialect:
		return r.Dialect, true
	case fSource:
		return r.Source, true
	case fTime:
		return r.Time, true
	case fProcess:
		return r.Process, true
	case fEvent:
		return r.Event, true
	case fPhase:
		return string(r.Phase), true
	case fErrno:
		return r.Errno, true
	case fStatus:
		return string(r.Status), true
	}
	return "", false
}

// appendNumberValue appends the value of a number field (or unpaired's
// "true"), nothing when r has none.
func appendNumberValue(b []byte, r *Record, id column) []byte {
	var u *uint64
	switch id {
	case fLine:
		return appendInt(b, int64(r.Line))
	case fSeq:
		return appendInt(b, r.Seq)
	case fTSNs:
		if r.TSNs != nil {
			b = appendInt(b, *r.TSNs)
		}
		return b
	case fDurNs:
		if r.DurNs != nil {
			b = appendInt(b, *r.DurNs)
		}
		return b
	case fUnpaired:
		if r.Unpaired {
			b = append(b, "true"...)
		}
		return b
	case fCPU:
		u = r.CPU
	case fPID:
		u = r.PID
	case fTID:
		u = r.TID
	case fMajor:
		u = r.Major
	case fMinor:
		u = r.Minor
	}
	if u != nil {
		b = appendUint(b, *u)
	}
	return b
}

// appendJSONValue appends the JSON of args, ret or attrs, nothing when r
// has none.
func (f *fieldsWriter) appendJSONValue(b []byte, r *Record, id column) ([]byte, error) {
	switch id {
	case fArgs:
		if len(r.Args) > 0 {
			b = appendArgs(b, r.Args)
		}
	case fRet:
		if r.Ret != nil {
			b = r.Ret.appendJSON(b)
		}
	case fAttrs:
		if len(r.Attrs) > 0 {
			return appendRecordAttrs(b, r)
		}
	}
	return b, nil
}
