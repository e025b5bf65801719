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
	var out []byte
	for _, ln := range splitLines(f.Fmts) {
		out = st.format(out[:0], compileLine(ln))
		lines = append(lines, string(out))
		if st.stopped {
			break
		}
	}
	return Result{Lines: lines, Stopped: st.stopped, Diags: st.diags}
}

// start readies s for formatting rec, keeping its buffers.
func (s *state) start(rec *stda.Record) {
	s.rec, s.data, s.pos = rec, rec.Data, 0
	s.haveIt, s.fresh, s.itemEnd, s.line, s.stopped = false, false, 0, 0, false
	if len(s.diags) > 0 {
		s.diags = s.diags[:0]
	}
}

// format appends the next FMT line of the record, compiled, to dst and
// returns the longer dst; after it, stopped says whether the record's
// lines end there.
func (s *state) format(dst []byte, ln []piece) []byte {
	s.line++
	s.out = dst
	s.run(ln)
	dst, s.out = s.out, nil
	return dst
}

// Formatter formats records into text blocks as FormatRecord and
// WriteBlock do, byte for byte, without their allocations: it reuses its
// buffers from one record to the next and compiles each Format it meets
// once (a Format must not change while a Formatter uses it). A Formatter
// is not safe for concurrent use; the zero value is ready.
type Formatter struct {
	st      state
	formats map[*Format]*compiled
	flags   [256]string
	line    []byte // a formatted line holding LF, set aside
}

// compiled is a Format ready to run: its DESC line as a text block shows
// it, and its FMT lines compiled.
type compiled struct {
	desc []byte // the DESC line, indented, with its line end
	fmts [][]piece
	// lf[k]: fmts[k] holds a %S, which may put an LF or a CR in the line
	lf []bool
	// the end of the header of the last record formatted with it: from
	// "  flags", for its flags, major and minor
	tail                []byte
	tailFlags, tailMajr uint8
	tailMinor           uint16
}

// AppendBlock appends the text block WriteBlock writes for record number
// index, formatted with its Format from fs as FormatRecord formats it, to
// dst. It returns the longer dst and the record's diagnostics, which stay
// valid until the next call.
func (fm *Formatter) AppendBlock(dst []byte, index int, rec *stda.Record, fs Formats) ([]byte, diag.List) {
	var f *Format
	if fs != nil {
		f, _ = fs.Lookup(rec.Major, rec.Minor)
	}
	if f == nil {
		dst = fm.appendHeader(dst, index, rec)
		dst = fm.appendTail(dst, rec)
		res := FormatRecord(rec, fs)
		for _, ln := range res.Lines {
			dst = appendBlockLine(dst, []byte(ln))
		}
		return append(dst, '\n'), res.Diags
	}
	if fm.formats == nil {
		fm.formats = map[*Format]*compiled{}
	}
	c := fm.formats[f]
	if c == nil {
		c = &compiled{desc: appendBlockLine(nil, trimEnd(f.Desc))}
		for _, ln := range splitLines(f.Fmts) {
			pcs := compileLine(ln)
			lf := false
			for _, p := range pcs {
				lf = lf || p.kind == pString
			}
			c.fmts, c.lf = append(c.fmts, pcs), append(c.lf, lf)
		}
		fm.formats[f] = c
	}
	dst = fm.appendHeader(dst, index, rec)
	if c.tail == nil || c.tailFlags != rec.Flags || c.tailMajr != rec.Major || c.tailMinor != rec.Minor {
		c.tail = fm.appendTail(c.tail[:0], rec)
		c.tailFlags, c.tailMajr, c.tailMinor = rec.Flags, rec.Major, rec.Minor
	}
	dst = append(dst, c.tail...)
	dst = append(dst, c.desc...)
	st := &fm.st
	st.start(rec)
	for k, ln := range c.fmts {
		// formatted in place, then cut at LF as appendBlockLine cuts
		// when the data put one in
		start := len(dst)
		dst = append(dst, Indent...)
		dst = st.format(dst, ln)
		if c.lf[k] && bytes.IndexByte(dst[start+len(Indent):], '\n') >= 0 {
			fm.line = append(fm.line[:0], dst[start+len(Indent):]...)
			dst = appendBlockLine(dst[:start], fm.line)
		} else {
			if n := len(dst); n > start+len(Indent) && dst[n-1] == '\r' {
				dst = dst[:n-1]
			}
			dst = append(dst, '\n')
		}
		if st.stopped {
			break
		}
	}
	return append(dst, '\n'), st.diags
}

// appendHeader appends BlockHeader(index, rec) up to the flags (see
// appendTail).
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
	dst = appendHex4(dst, rec.PID)
	if rec.PID == 0 {
		dst = append(dst, " (interrupt)"...)
	}
	return dst
}

// appendTail appends the rest of BlockHeader(index, rec), from the flags
// on, and a line end.
func (fm *Formatter) appendTail(dst []byte, rec *stda.Record) []byte {
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
	if v < 100 {
		return append(dst, '0'+v/10, '0'+v%10)
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

// piece is one step of a compiled FMT line (compileLine): literal text,
// then what to do for the control after it.
type piece struct {
	lit  []byte
	kind pieceKind
	op   byte // the control letter; %R: the value control repeated
	n    int  // %I: the count of bytes to skip; a value control: its size
}

// pieceKind is what a piece does after its text.
type pieceKind uint8

const (
	pNone      pieceKind = iota // nothing: the text ends the line
	pValue                      // a value control (B W D F Q A C)
	pPrefix                     // %P
	pString                     // %S
	pRest                       // %U
	pMajor                      // %X
	pMinor                      // %Y
	pIgnore                     // %I and its count
	pIgnoreBad                  // %I without digits
	pRepeat                     // %R and the value control after it
	pRepeatBad                  // %R not followed by a value control
	pUnknown                    // a control byte and a letter that is no control
	pCtrlEnd                    // a control byte at the end of the line
)

// compileLine cuts an FMT line (an element of splitLines' result) into
// pieces: the text up to each control byte and the control, its operands
// read (the count of %I, the control %R repeats), once for every record
// formatted with it.
func compileLine(ln []byte) []piece {
	var out []piece
	for j := 0; j < len(ln); {
		k := bytes.IndexByte(ln[j:], tff.Ctrl)
		if k < 0 {
			k = len(ln) - j
		}
		p := piece{lit: ln[j : j+k]}
		j += k
		switch {
		case j == len(ln):
		case j+1 == len(ln):
			p.kind = pCtrlEnd
			j++
		default:
			op := ln[j+1]
			j += 2
			p.op = op
			switch op {
			case tff.CtrlByte, tff.CtrlWord, tff.CtrlDword, tff.CtrlFlat, tff.CtrlQuad, tff.CtrlSegmented, tff.CtrlChar:
				p.kind, p.n = pValue, dataSize(op)
			case tff.CtrlPrefix:
				p.kind = pPrefix
			case tff.CtrlString:
				p.kind = pString
			case tff.CtrlRest:
				p.kind = pRest
			case tff.CtrlMajor:
				p.kind = pMajor
			case tff.CtrlMinor:
				p.kind = pMinor
			case tff.CtrlIgnore:
				// the decimal count and the blank that ends it
				n, digits := 0, 0
				for j < len(ln) && ln[j] >= '0' && ln[j] <= '9' {
					if n < maxSkip {
						n = n*10 + int(ln[j]-'0')
					}
					j++
					digits++
				}
				p.kind, p.n = pIgnore, n
				if digits == 0 {
					p.kind = pIgnoreBad
				} else if j < len(ln) && ln[j] == ' ' {
					j++
				}
			case tff.CtrlRepeat:
				if j+1 < len(ln) && ln[j] == tff.Ctrl && dataSize(ln[j+1]) > 0 {
					p.kind, p.op = pRepeat, ln[j+1]
					j += 2
				} else {
					p.kind = pRepeatBad
				}
			default:
				p.kind = pUnknown
			}
		}
		out = append(out, p)
	}
	return out
}

// run formats one compiled FMT line onto s.out.
func (s *state) run(ln []piece) {
	for i := range ln {
		if s.stopped {
			return
		}
		p := &ln[i]
		s.out = append(s.out, p.lit...)
		switch p.kind {
		case pValue:
			if len(s.data)-s.pos >= p.n || s.need(p.n, p.op) {
				s.value(p.op)
			}
		case pPrefix:
			s.prefix()
		case pString:
			s.str()
		case pRest:
			s.out = appendHexBytes(s.out, s.data[s.pos:])
			s.pos = len(s.data)
			s.fresh = false
		case pMajor:
			s.out = appendHex4(s.out, uint16(s.rec.Major))
		case pMinor:
			s.out = appendHex4(s.out, s.rec.Minor)
		case pIgnore:
			s.skip(p.n)
		case pIgnoreBad:
			s.diag(s.pos, "%%I without a decimal count; ignored")
		case pRepeat:
			s.repeat(p.op)
		case pRepeatBad:
			s.diag(s.pos, "%%R is not followed by a value control (B W D F Q A C); ignored")
		case pUnknown:
			s.diag(s.pos, "unknown control 0x01 %q; ignored", p.op)
		case pCtrlEnd:
			s.diag(s.pos, "control byte 0x01 at the end of the line")
			return
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
	b := s.data[s.pos:]
	le16 := binary.LittleEndian.Uint16
	le32 := binary.LittleEndian.Uint32
	switch op {
	case tff.CtrlByte:
		s.out = appendHex2(s.out, b[0])
		s.pos++
	case tff.CtrlChar:
		if b[0] >= 0x20 && b[0] <= 0x7F {
			s.out = append(s.out, b[0])
		} else {
			s.out = append(s.out, '.')
		}
		s.pos++
	case tff.CtrlWord:
		s.out = appendHex4(s.out, le16(b))
		s.pos += 2
	case tff.CtrlDword:
		s.out = appendHex4(s.out, le16(b[2:]))
		s.out = append(s.out, ' ')
		s.out = appendHex4(s.out, le16(b))
		s.pos += 4
	case tff.CtrlFlat:
		s.out = appendHex8(s.out, le32(b))
		s.pos += 4
	case tff.CtrlQuad:
		s.out = appendHex8(s.out, le32(b))
		s.out = append(s.out, ' ')
		s.out = appendHex8(s.out, le32(b[4:]))
		s.pos += 8
	case tff.CtrlSegmented:
		s.out = appendHex4(s.out, le16(b[2:]))
		s.out = append(s.out, ':')
		s.out = appendHex4(s.out, le16(b))
		s.pos += 4
	}
	s.fresh = false
}

// hexPairs holds the two upper-case hex digits of each byte value.
const hexPairs = "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F" +
	"202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F" +
	"404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F" +
	"606162636465666768696A6B6C6D6E6F707172737475767778797A7B7C7D7E7F" +
	"808182838485868788898A8B8C8D8E8F909192939495969798999A9B9C9D9E9F" +
	"A0A1A2A3A4A5A6A7A8A9AAABACADAEAFB0B1B2B3B4B5B6B7B8B9BABBBCBDBEBF" +
	"C0C1C2C3C4C5C6C7C8C9CACBCCCDCECFD0D1D2D3D4D5D6D7D8D9DADBDCDDDEDF" +
	"E0E1E2E3E4E5E6E7E8E9EAEBECEDEEEFF0F1F2F3F4F5F6F7F8F9FAFBFCFDFEFF"

// appendHex2, appendHex4 and appendHex8 append v in upper-case hex, 2, 4
// and 8 digits (as fmt's %02X, %04X, %08X on a byte, a word, a dword).
func appendHex2(dst []byte, v uint8) []byte {
	return append(dst, hexPairs[2*int(v)], hexPairs[2*int(v)+1])
}

func appendHex4(dst []byte, v uint16) []byte {
	h, l := 2*int(v>>8), 2*int(v&0xFF)
	return append(dst, hexPairs[h], hexPairs[h+1], hexPairs[l], hexPairs[l+1])
}

func appendHex8(dst []byte, v uint32) []byte {
	a, b, c, d := 2*int(v>>24), 2*int(v>>16&0xFF), 2*int(v>>8&0xFF), 2*int(v&0xFF)
	return append(dst, hexPairs[a], hexPairs[a+1], hexPairs[b], hexPairs[b+1], hexPairs[c], hexPairs[c+1], hexPairs[d], hexPairs[d+1])
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

// skip handles %I with its count n: it skips n data bytes.
func (s *state) skip(n int) {
	if left := len(s.data) - s.pos; n > left {
		s.diag(s.pos, "data too short: %%I%d skips %d bytes, %d left", n, n, left)
		s.short()
		return
	}
	s.pos += n
	s.fresh = false
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
	switch op {
	case tff.CtrlByte, tff.CtrlWord:
		// the most common, without value's dispatch: "XX XX" or
		// "XXXX XXXX"
		d := s.data[:end]
		out := s.out
		for ; end-s.pos >= size; s.pos += size {
			if !first {
				out = append(out, ' ')
			}
			first = false
			if op == tff.CtrlByte {
				out = appendHex2(out, d[s.pos])
			} else {
				out = appendHex4(out, binary.LittleEndian.Uint16(d[s.pos:]))
			}
		}
		s.out = out
	default:
		for end-s.pos >= size {
			if !first {
				s.out = append(s.out, ' ')
			}
			first = false
			s.value(op)
		}
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
