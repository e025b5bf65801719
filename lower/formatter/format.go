// Package formatter is tracekit's TRACEFMT: it formats trace records with
// the DESC and FMT strings of a trace format file (TFF), as the OS/2 trace
// formatter TRACEFMT does.
//
// A Format holds one tracepoint's DESC and FMT lines as the TFF stores
// them: every format control is the byte 0x01 (tff.Ctrl) followed by an
// upper-case letter, "%I" is 0x01 'I' followed by the decimal count and the
// rest of the text, and every other byte is literal text. The controls are
// those of TRCUST's FMT keyword (reference trcust-tsf-reference.txt section
// 1.3.5.7) plus %C from a later TRCUST edition; docs/formatter.md lists
// what each one prints.
//
// Apply formats a record with a Format; FormatRecord looks the format up in
// a set of Formats first and prints the record raw (in hex, with a note)
// when there is none. WriteBlock and WriteText render the results as text
// blocks, one per record. Problems with the data (too short for its FMT, a
// string with no NUL, an unknown prefix status) are returned as
// diagnostics (ast/diag), never printed and never fatal.
package formatter

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/binfmt/dyndata"
	"github.com/tracekit/tracekit/binfmt/stda"
	"github.com/tracekit/tracekit/binfmt/tff"
)

// Format is one tracepoint's formatting rule as stored in a TFF.
type Format struct {
	// Desc is the DESC string, printed as the first line. It holds no
	// controls. Trailing NUL, CR and LF bytes are ignored.
	Desc []byte
	// Fmts holds the FMT strings in TFF encoding, one output line each.
	// A trailing CR LF (or LF) is ignored; an element that holds several
	// CR LF-separated lines gives several output lines.
	Fmts [][]byte
}

// Formats finds the Format of a record.
type Formats interface {
	// Lookup returns the Format for (major, minor), or nil. haveMajor
	// reports whether formats for major are known at all (its TFF was
	// loaded), which tells "no TFF" from "minor not in the TFF".
	Lookup(major uint8, minor uint16) (f *Format, haveMajor bool)
}

// Map is a Formats held in memory: Map[major][minor]. A major present with
// a nil or empty inner map has a TFF with no records.
type Map map[uint8]map[uint16]*Format

// Lookup implements Formats.
func (m Map) Lookup(major uint8, minor uint16) (*Format, bool) {
	mm, ok := m[major]
	if !ok {
		return nil, false
	}
	return mm[minor], true
}

// Diagnostic codes of the formatter.
const (
	// CodeMajor: a TFF whose major does not fit the trace buffer's one-byte
	// major; the TFF is not used (warning).
	CodeMajor diag.Code = "FMT001"
	// CodeTFF: a TFF on the search path that cannot be read (warning).
	CodeTFF diag.Code = "FMT002"
	// CodeData is the code of the diagnostics FormatRecord returns: a
	// problem with a record's data (too short for its FMT, a string with no
	// NUL, an unknown prefix status).
	CodeData diag.Code = "FMT003"
)

// Result is a formatted record.
type Result struct {
	// Lines holds the output: the DESC line then one line per FMT line
	// reached; for a raw record, a note then a hex dump.
	Lines []string
	// Raw is set when no Format was applied.
	Raw bool
	// Stopped is set when formatting stopped before the end of the FMT
	// lines: after a prefix with a bad status, or when the data ran out.
	Stopped bool
	// Diags lists the problems found, in the order met: warnings with CodeData,
	// at the record's offset in its buffer (Pos.Offset; no file, no line),
	// the message "record @0xOOOO: FMT line N: data offset D: what".
	Diags diag.List
}

// FormatRecord formats rec with its Format from fs (which may be nil). A
// record without a Format is printed raw with a note saying why.
func FormatRecord(rec *stda.Record, fs Formats) Result {
	var f *Format
	haveMajor := false
	if fs != nil {
		f, haveMajor = fs.Lookup(rec.Major, rec.Minor)
	}
	if f != nil {
		return Apply(rec, f)
	}
	note := fmt.Sprintf("no format: no TFF for major %02X (TRC00%02X.TFF)", rec.Major, rec.Major)
	if haveMajor {
		note = fmt.Sprintf("no format: minor %04X is not in the TFF for major %02X", rec.Minor, rec.Major)
	}
	return raw(rec, note)
}

// raw prints rec's data as a hex dump, 16 bytes a line, after note.
func raw(rec *stda.Record, note string) Result {
	res := Result{Raw: true, Lines: []string{note}}
	if len(rec.Data) == 0 {
		res.Lines = append(res.Lines, "(no data)")
	}
	for off := 0; off < len(rec.Data); off += 16 {
		end := min(off+16, len(rec.Data))
		res.Lines = append(res.Lines, fmt.Sprintf("%04x: %s", off, hexBytes(rec.Data[off:end])))
	}
	return res
}

// Apply formats rec with f: the DESC line, then each FMT line with its
// controls replaced by the data they describe. A nil f prints the record
// raw.
func Apply(rec *stda.Record, f *Format) Result {
	if f == nil {
		return raw(rec, "no format")
	}
	st := &state{}
	st.start(rec)
	lines := []string{string(trimEnd(f.Desc))}
	for _, ln := range splitLines(f.Fmts) {
		lines = append(lines, string(st.format(ln)))
		if st.stopped {
			break
		}
	}
	return Result{Lines: lines, Stopped: st.stopped, Diags: st.diags}
}

// start readies s for formatting rec, keeping its buffers.
func (s *state) start(rec *stda.Record) {
	*s = state{rec: rec, data: rec.Data, out: s.out[:0], diags: s.diags[:0]}
}

// format formats the next FMT line (an element of splitLines' result) and
// returns the output line, valid until the next call; after it, stopped
// says whether the record's lines end there.
func (s *state) format(ln []byte) []byte {
	s.line++
	s.out = s.out[:0]
	s.run(ln)
	return s.out
}

// Formatter formats records into text blocks as FormatRecord and
// WriteBlock do, byte for byte, without their allocations: it reuses its
// buffers from one record to the next and keeps the lines of each Format
// it has met (a Format must not change while a Formatter uses it). A
// Formatter is not safe for concurrent use; the zero value is ready.
type Formatter struct {
	st    state
	lines map[*Format]formatLines
	flags [256]string
}

type formatLines struct {
	desc []byte
	fmts [][]byte
}

// AppendBlock appends the text block WriteBlock writes for record number
// index, formatted with its Format from fs as FormatRecord formats it, to
// dst. It returns the longer dst and the record's diagnostics, which stay
// valid until the next call.
func (fm *Formatter) AppendBlock(dst []byte, index int, rec *stda.Record, fs Formats) ([]byte, diag.List) {
	dst = fm.appendHeader(dst, index, rec)
	var f *Format
	if fs != nil {
		f, _ = fs.Lookup(rec.Major, rec.Minor)
	}
	if f == nil {
		res := FormatRecord(rec, fs)
		for _, ln := range res.Lines {
			dst = appendBlockLine(dst, []byte(ln))
		}
		return append(dst, '\n'), res.Diags
	}
	if fm.lines == nil {
		fm.lines = map[*Format]formatLines{}
	}
	fl, ok := fm.lines[f]
	if !ok {
		fl = formatLines{desc: trimEnd(f.Desc), fmts: splitLines(f.Fmts)}
		fm.lines[f] = fl
	}
	st := &fm.st
	st.start(rec)
	dst = appendBlockLine(dst, fl.desc)
	for _, ln := range fl.fmts {
		dst = appendBlockLine(dst, st.format(ln))
		if st.stopped {
			break
		}
	}
	return append(dst, '\n'), st.diags
}

// appendHeader appends BlockHeader(index, rec) and a line end.
func (fm *Formatter) appendHeader(dst []byte, index int, rec *stda.Record) []byte {
	dst = append(dst, '#')
	dst = strconv.AppendInt(dst, int64(index), 10)
	dst = append(dst, "  @"...)
	if rec.Offset >= 0 && rec.Offset <= 0xFFFF {
		dst = appendHex(dst, uint64(rec.Offset), 4)
	} else {
		dst = fmt.Appendf(dst, "%04X", rec.Offset)
	}
	dst = append(dst, "  "...)
	switch t := rec.Time; t.Len {
	case 4:
		dst = appendDec2(dst, t.Hours)
		dst = append(dst, ':')
		dst = appendDec2(dst, t.Minutes)
		dst = append(dst, ':')
		dst = appendDec2(dst, t.Seconds)
		dst = append(dst, '.')
		dst = appendDec2(dst, t.Hundredths)
	case 2:
		dst = appendDec2(dst, t.Seconds)
		dst = append(dst, '.')
		dst = appendDec2(dst, t.Hundredths)
	default:
		dst = append(dst, t.String()...)
	}
	dst = append(dst, "  pid "...)
	dst = appendHex(dst, uint64(rec.PID), 4)
	if rec.PID == 0 {
		dst = append(dst, " (interrupt)"...)
	}
	dst = append(dst, "  flags "...)
	dst = appendHex(dst, uint64(rec.Flags), 2)
	dst = append(dst, ' ')
	if fm.flags[rec.Flags] == "" {
		fm.flags[rec.Flags] = stda.FlagString(rec.Flags)
	}
	dst = append(dst, fm.flags[rec.Flags]...)
	dst = append(dst, "  major "...)
	dst = appendHex(dst, uint64(rec.Major), 2)
	dst = append(dst, "  minor "...)
	dst = appendHex(dst, uint64(rec.Minor), 4)
	return append(dst, '\n')
}

// appendBlockLine appends one formatted line as WriteBlock writes it: each
// piece between LFs indented, a CR before its end dropped.
func appendBlockLine(dst, ln []byte) []byte {
	for {
		i := bytes.IndexByte(ln, '\n')
		piece := ln
		if i >= 0 {
			piece = ln[:i]
		}
		if n := len(piece); n > 0 && piece[n-1] == '\r' {
			piece = piece[:n-1]
		}
		dst = append(dst, Indent...)
		dst = append(dst, piece...)
		dst = append(dst, '\n')
		if i < 0 {
			return dst
		}
		ln = ln[i+1:]
	}
}

const hexDigits = "0123456789ABCDEF"

// appendHex appends v in upper-case hex, at least width digits (as
// fmt's %0*X).
func appendHex(dst []byte, v uint64, width int) []byte {
	if width > 0 && width <= 16 && v>>(4*uint(width)) == 0 {
		// exactly width digits, written in place
		n := len(dst)
		dst = slices.Grow(dst, width)[:n+width]
		for i := n + width - 1; i >= n; i-- {
			dst[i] = hexDigits[v&15]
			v >>= 4
		}
		return dst
	}
	var b [16]byte
	i := len(b)
	for v != 0 || i > len(b)-width {
		i--
		b[i] = hexDigits[v&15]
		v >>= 4
	}
	return append(dst, b[i:]...)
}

// appendDec2 appends v in decimal, at least two digits (as fmt's %02d).
func appendDec2(dst []byte, v uint8) []byte {
	if v < 10 {
		dst = append(dst, '0')
	}
	return strconv.AppendUint(dst, uint64(v), 10)
}

// trimEnd drops trailing NUL, CR and LF bytes.
func trimEnd(b []byte) []byte {
	return bytes.TrimRight(b, "\x00\r\n")
}

// splitLines turns the FMT strings into output lines: each element is cut
// at LF (dropping a CR before it); a final LF does not start a new line.
func splitLines(fmts [][]byte) [][]byte {
	var out [][]byte
	for _, f := range fmts {
		f = bytes.TrimRight(f, "\x00")
		parts := bytes.Split(f, []byte("\n"))
		if len(parts) > 1 && len(parts[len(parts)-1]) == 0 {
			parts = parts[:len(parts)-1]
		}
		for _, p := range parts {
			out = append(out, bytes.TrimSuffix(p, []byte("\r")))
		}
	}
	return out
}

// state is the formatter's position in one record.
type state struct {
	rec     *stda.Record
	data    []byte
	pos     int    // next data byte
	haveIt  bool   // a %P prefix opened an item
	fresh   bool   // nothing has been read since that prefix
	itemEnd int    // end of that item's data
	line    int    // current FMT line, 1-based
	out     []byte // current output line
	stopped bool
	diags   diag.List
}

func (s *state) diag(off int, format string, args ...any) {
	var sb strings.Builder
	fmt.Fprintf(&sb, "record @%#04x: ", s.rec.Offset)
	if s.line > 0 {
		fmt.Fprintf(&sb, "FMT line %d: ", s.line)
	}
	fmt.Fprintf(&sb, "data offset %d: ", off)
	fmt.Fprintf(&sb, format, args...)
	s.diags.Add(diag.Diagnostic{Pos: ast.Pos{Offset: int(s.rec.Offset)}, Severity: diag.Warning, Code: CodeData, Msg: sb.String()})
}

// dataSize gives the bytes each value control reads.
func dataSize(op byte) int {
	switch op {
	case tff.CtrlByte, tff.CtrlChar:
		return 1
	case tff.CtrlWord:
		return 2
	case tff.CtrlDword, tff.CtrlFlat, tff.CtrlSegmented:
		return 4
	case tff.CtrlQuad:
		return 8
	}
	return 0
}

// run formats one FMT line into s.out.
func (s *state) run(ln []byte) {
	for j := 0; j < len(ln) && !s.stopped; {
		if ln[j] != tff.Ctrl {
			k := bytes.IndexByte(ln[j:], tff.Ctrl)
			if k < 0 {
				k = len(ln) - j
			}
			s.out = append(s.out, ln[j:j+k]...)
			j += k
			continue
		}
		if j+1 >= len(ln) {
			s.diag(s.pos, "control byte 0x01 at the end of the line")
			return
		}
		op := ln[j+1]
		j += 2
		switch op {
		case tff.CtrlByte, tff.CtrlWord, tff.CtrlDword, tff.CtrlFlat, tff.CtrlQuad, tff.CtrlSegmented, tff.CtrlChar:
			if s.need(dataSize(op), op) {
				s.value(op)
			}
		case tff.CtrlPrefix:
			s.prefix()
		case tff.CtrlString:
			s.str()
		case tff.CtrlRest:
			s.out = appendHexBytes(s.out, s.data[s.pos:])
			s.pos = len(s.data)
			s.fresh = false
		case tff.CtrlMajor:
			s.out = appendHex(s.out, uint64(s.rec.Major), 4)
		case tff.CtrlMinor:
			s.out = appendHex(s.out, uint64(s.rec.Minor), 4)
		case tff.CtrlIgnore:
			j = s.ignore(ln, j)
		case tff.CtrlRepeat:
			if j+1 < len(ln) && ln[j] == tff.Ctrl && dataSize(ln[j+1]) > 0 {
				s.repeat(ln[j+1])
				j += 2
			} else {
				s.diag(s.pos, "%%R is not followed by a value control (B W D F Q A C); ignored")
			}
		default:
			s.diag(s.pos, "unknown control 0x01 %q; ignored", op)
		}
	}
}

// need reports whether n bytes are left for control op. If not, it prints
// what is left, records a diagnostic and stops the record.
func (s *state) need(n int, op byte) bool {
	left := len(s.data) - s.pos
	if left >= n {
		return true
	}
	s.diag(s.pos, "data too short: %%%c needs %d bytes, %d left", op, n, left)
	s.short()
	return false
}

// short prints the marker for data that ran out and stops the record.
func (s *state) short() {
	s.out = append(s.out, "<data too short"...)
	s.rest()
}

// rest prints what is left of the data as ": HEX>" (or just ">" when
// nothing is) after a marker opened by the caller, and stops the record.
func (s *state) rest() {
	if s.pos < len(s.data) {
		s.out = append(s.out, ": "...)
		s.out = appendHexBytes(s.out, s.data[s.pos:])
	}
	s.out = append(s.out, '>')
	s.pos = len(s.data)
	s.stopped = true
}

// value prints one value of control op (whose bytes are known to be there).
func (s *state) value(op byte) {
	b := s.data[s.pos : s.pos+dataSize(op)]
	s.pos += len(b)
	s.fresh = false
	le16 := binary.LittleEndian.Uint16
	le32 := binary.LittleEndian.Uint32
	switch op {
	case tff.CtrlByte:
		s.out = appendHex(s.out, uint64(b[0]), 2)
	case tff.CtrlChar:
		if b[0] >= 0x20 && b[0] <= 0x7F {
			s.out = append(s.out, b[0])
		} else {
			s.out = append(s.out, '.')
		}
	case tff.CtrlWord:
		s.out = appendHex(s.out, uint64(le16(b)), 4)
	case tff.CtrlDword:
		s.out = appendHex(s.out, uint64(le16(b[2:])), 4)
		s.out = append(s.out, ' ')
		s.out = appendHex(s.out, uint64(le16(b)), 4)
	case tff.CtrlFlat:
		s.out = appendHex(s.out, uint64(le32(b)), 8)
	case tff.CtrlQuad:
		s.out = appendHex(s.out, uint64(le32(b)), 8)
		s.out = append(s.out, ' ')
		s.out = appendHex(s.out, uint64(le32(b[4:])), 8)
	case tff.CtrlSegmented:
		s.out = appendHex(s.out, uint64(le16(b[2:])), 4)
		s.out = append(s.out, ':')
		s.out = appendHex(s.out, uint64(le16(b)), 4)
	}
}

// prefix reads a 3-byte prefix (%P). A valid one opens an item; a bad one
// prints the pointer logged in place of the data and stops the record.
func (s *state) prefix() {
	if !s.need(dyndata.PrefixSize, tff.CtrlPrefix) {
		return
	}
	at := s.pos
	pr, _ := dyndata.ParsePrefix(s.data[at:])
	st, n := pr.Status, int(pr.Length)
	s.pos += dyndata.PrefixSize
	switch {
	case st == dyndata.StatusValid, st == dyndata.StatusString:
		if left := len(s.data) - s.pos; n > left {
			s.diag(at, "prefix gives length %d, only %d bytes left", n, left)
			n = left
		}
		s.haveIt, s.fresh, s.itemEnd = true, true, s.pos+n
	case st.Bad():
		s.haveIt = false
		p := s.data[s.pos:min(s.pos+dyndata.PointerSize, len(s.data))]
		s.pos += len(p)
		var ptr string
		switch {
		case len(p) < dyndata.PointerSize:
			s.diag(at, "prefix status %02X: pointer needs %d bytes, %d left", byte(st), dyndata.PointerSize, len(p))
			ptr = hexBytes(p)
		case st.Flat():
			ptr = fmt.Sprintf("%08X", binary.LittleEndian.Uint32(p))
		default:
			ptr = fmt.Sprintf("%04X:%04X", binary.LittleEndian.Uint16(p[2:]), binary.LittleEndian.Uint16(p))
		}
		s.out = fmt.Appendf(s.out, "<status %02X %s, pointer %s>", byte(st), st, ptr)
		s.stopped = true
	default:
		s.diag(at, "unknown prefix status %02X", byte(st))
		s.out = fmt.Appendf(s.out, "<status %02X unknown", byte(st))
		s.rest()
	}
}

// inItem reports whether a prefixed item is current: opened by %P and
// either not read from yet or not used up.
func (s *state) inItem() bool {
	return s.haveIt && (s.fresh || s.pos < s.itemEnd)
}

// str prints a string (%S): the current item's bytes for a dynamic record,
// up to a NUL otherwise.
func (s *state) str() {
	dynamic := s.rec.Flags&stda.FlagDynamic != 0
	if dynamic && s.inItem() {
		b := s.data[s.pos:max(s.pos, s.itemEnd)]
		if i := bytes.IndexByte(b, 0); i >= 0 {
			b = b[:i]
		}
		s.out = append(s.out, b...)
		s.pos = max(s.pos, s.itemEnd)
		s.fresh = false
		return
	}
	if dynamic {
		s.diag(s.pos, "%%S in a dynamic record without a %%P prefix: reading up to a NUL")
	}
	if !s.need(1, tff.CtrlString) {
		return
	}
	b := s.data[s.pos:]
	if i := bytes.IndexByte(b, 0); i >= 0 {
		s.out = append(s.out, b[:i]...)
		s.pos += i + 1
	} else {
		s.diag(s.pos, "string has no terminating NUL")
		s.out = append(s.out, b...)
		s.pos = len(s.data)
	}
	s.fresh = false
}

// maxSkip bounds the %I count so that parsing it cannot overflow.
const maxSkip = 1 << 20

// ignore handles %I: it reads the decimal count at ln[j:] and the blank
// that ends it, skips that many data bytes and returns the new j.
func (s *state) ignore(ln []byte, j int) int {
	n, digits := 0, 0
	for j < len(ln) && ln[j] >= '0' && ln[j] <= '9' {
		if n < maxSkip {
			n = n*10 + int(ln[j]-'0')
		}
		j++
		digits++
	}
	if digits == 0 {
		s.diag(s.pos, "%%I without a decimal count; ignored")
		return j
	}
	if j < len(ln) && ln[j] == ' ' {
		j++
	}
	if left := len(s.data) - s.pos; n > left {
		s.diag(s.pos, "data too short: %%I%d skips %d bytes, %d left", n, n, left)
		s.short()
		return j
	}
	s.pos += n
	s.fresh = false
	return j
}

// repeat handles %R followed by value control op: op is printed again and
// again, separated by blanks, over the rest of the current item. With no
// current item a dynamic record's next prefix is read first (%R stands in
// place of %P); a static record's item is the rest of the data.
func (s *state) repeat(op byte) {
	var end int
	switch {
	case s.inItem():
		end = s.itemEnd
	case s.rec.Flags&stda.FlagDynamic != 0:
		s.prefix()
		if s.stopped {
			return
		}
		end = s.itemEnd
	default:
		end = len(s.data)
	}
	end = max(end, s.pos)
	size := dataSize(op)
	first := true
	for end-s.pos >= size {
		if !first {
			s.out = append(s.out, ' ')
		}
		first = false
		s.value(op)
	}
	if s.pos < end {
		s.diag(s.pos, "%%R%%%c: %d bytes left over", op, end-s.pos)
		if !first {
			s.out = append(s.out, ' ')
		}
		s.out = appendHexBytes(s.out, s.data[s.pos:end])
		s.pos = end
	}
	s.fresh = false
}

// hexBytes prints bytes as lower-case hex pairs separated by blanks, as %U
// does.
func hexBytes(b []byte) string {
	return string(appendHexBytes(make([]byte, 0, 3*len(b)), b))
}

// appendHexBytes appends hexBytes(b).
func appendHexBytes(dst, b []byte) []byte {
	const lower = "0123456789abcdef"
	for i, c := range b {
		if i > 0 {
			dst = append(dst, ' ')
		}
		dst = append(dst, lower[c>>4], lower[c&15])
	}
	return dst
}
