// Package tff reads and writes OS/2 trace format files (TRCxxxx.TFF): the
// formatting records that IBM's Dynamic Trace Customizer (TRCUST) writes from
// the DESC and FMT keywords of a trace source file (TSF), one record per
// minor code, and that the trace formatter TRACEFMT reads to print a trace.
//
// A TFF is little-endian and has three parts:
//
//	0x00  Header       62 bytes: "TFF\x00", major code, record count,
//	                   index offset (always 0x3E), "Reserved -" + 40 NULs
//	0x3E  index        one 8-byte IndexEntry per record: minor, data length,
//	                   absolute offset of the data block
//	...   data blocks  one per record, contiguous, in index order
//
// The index and the data blocks are sorted by minor code, unsigned ascending.
// A data block is the DESC bytes, a NUL, every FMT line (its stored bytes and
// CR LF), and a closing NUL. The stored FMT bytes use the control byte 0x01
// followed by a letter where the TSF text has a % control; EncodeFMT and
// DecodeFMT convert between the two.
//
// MarshalBinary writes exactly the bytes TRCUST 3.05A writes, and Parse
// accepts exactly that canonical form, so that for every input Parse accepts,
// MarshalBinary of the result gives the input back. ParseLenient reads what
// it can of a damaged or non-canonical file and lists every problem.
//
// docs/tff.md in the repository describes the format in full.
package tff

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
)

// Layout constants.
const (
	// Magic is the signature at offset 0.
	Magic = "TFF\x00"
	// HeaderSize is the size of the fixed header.
	HeaderSize = 0x3E
	// IndexOffset is the offset of the index; TRCUST stores it in
	// Header.IndexOff, always with this value.
	IndexOffset = 0x3E
	// EntrySize is the size of one IndexEntry.
	EntrySize = 8
	// ReservedText opens the 50-byte reserved field of the header; the
	// remaining 40 bytes of the field are NUL.
	ReservedText = "Reserved -"
	// ReservedSize is the size of the reserved field.
	ReservedSize = 50
	// MaxRecords is the most records a TFF can hold (the count is a u16).
	MaxRecords = 0xFFFF
	// MaxBlockLen is the largest data block (the length is a u16).
	MaxBlockLen = 0xFFFF
	// MaxCombine is the most input files TRCUST's combine mode (/C=)
	// accepts; Merge leaves the check to its caller.
	MaxCombine = 50
)

// Ctrl is the byte that introduces a format control in a stored FMT line; the
// next byte is one of the control letters.
const Ctrl byte = 0x01

// The control letters: a stored FMT line holds Ctrl followed by one of them
// where the TSF text has % and the letter (in either case). The meanings are
// those of the TRCUST reference, section 1.3.5.7.
const (
	CtrlIgnore    byte = 'I' // %Innn: skip nnn bytes of trace data (digits follow)
	CtrlPrefix    byte = 'P' // %P: data prefix bytes of memory data
	CtrlByte      byte = 'B' // %B: a byte
	CtrlWord      byte = 'W' // %W: a word
	CtrlDword     byte = 'D' // %D: a double word
	CtrlFlat      byte = 'F' // %F: a flat 0:32 address
	CtrlQuad      byte = 'Q' // %Q: a quad word
	CtrlSegmented byte = 'A' // %A: a segmented 16:16 address
	CtrlRepeat    byte = 'R' // %R: repeat the next control to the end of the data
	CtrlString    byte = 'S' // %S: an ASCIIZ string
	CtrlRest      byte = 'U' // %U: the rest of the record as bytes
	CtrlMajor     byte = 'X' // %X: the major code
	CtrlMinor     byte = 'Y' // %Y: the minor code
	CtrlChar      byte = 'C' // %C: a byte as a character (a later TRACEFMT's control; 3.05A stores it)
)

// ControlLetters lists the letters that are a control after % whatever
// follows them. CtrlIgnore is a control only when a decimal digit follows it.
//
// 'C' (CtrlChar) is one: 3.05A stores %C and %c as Ctrl 'C' (oracle x_b01),
// though the V2.1 reference does not list it.
const ControlLetters = "BWDFQARSUXYPC"

// Header is the on-disk header at offset 0.
type Header struct {
	Magic    [4]byte            // Magic
	Major    uint16             // major event code
	Count    uint16             // number of index entries
	IndexOff uint32             // offset of the index: IndexOffset
	Reserved [ReservedSize]byte // ReservedText, then NULs
}

// IndexEntry is one on-disk entry of the index.
type IndexEntry struct {
	Minor uint16 // minor event code
	Len   uint16 // length of the data block
	Off   uint32 // absolute file offset of the data block
}

// Record is the formatting record of one minor code.
type Record struct {
	Minor uint16
	// Desc is the description, the first line TRACEFMT prints. It holds no
	// NUL byte.
	Desc []byte
	// Fmts are the stored FMT lines in source order, without the CR LF that
	// ends each in the file: the bytes EncodeFMT makes of the TSF text.
	Fmts [][]byte
}

// File is a trace format file.
type File struct {
	Major uint16
	// Records are sorted by minor code when Parse made them; MarshalBinary
	// sorts them itself.
	Records []Record
}

// FormatError reports a malformed file: Off is the byte offset at which the
// problem lies and Msg says what is wrong.
type FormatError struct {
	Off int64
	Msg string
}

// Error implements error.
func (e *FormatError) Error() string {
	return fmt.Sprintf("tff: offset 0x%04X: %s", e.Off, e.Msg)
}

// blockLen returns the length of r's data block.
func (r *Record) blockLen() int {
	n := len(r.Desc) + 2
	for _, f := range r.Fmts {
		n += len(f) + 2
	}
	return n
}

// Parse reads a TFF in the canonical form TRCUST writes. It returns a
// *FormatError for anything else: a bad magic, a truncated header or index, an
// index offset other than 0x3E or changed reserved bytes, an entry whose data
// lies outside the file, data blocks that overlap, leave gaps or are out of
// index order, a record count that does not match the index, a block without
// its NUL terminators or with an FMT line not ended by CR LF or holding a NUL,
// unsorted or duplicate minors, and bytes after the last block.
//
// The returned File does not share memory with data.
func Parse(data []byte) (*File, error) {
	p := parser{data: data}
	f := p.parse()
	if len(p.probs) > 0 {
		return nil, p.probs[0]
	}
	return f, nil
}

// ParseLenient reads what it can of a damaged or non-canonical TFF, for
// tools that show a file rather than use it (tracekit dump). It checks what
// Parse checks but goes on after a problem: entries whose data lies outside
// the file or is too short are skipped, blocks that overlap others are read
// as they stand (up to a total of the file's size), a block without its
// terminators is read up to the end of its data, a count larger than the
// index room is cut down. The records keep index order, so they may be
// unsorted or hold a minor twice (MarshalBinary sorts, and rejects
// duplicates).
//
// It returns every problem in the order found; the File is nil only when
// the header cannot be read (too short, bad magic), and problems then holds
// that one error. When problems is empty, Parse would have returned the same
// File.
func ParseLenient(data []byte) (f *File, problems []*FormatError) {
	p := parser{data: data, lenient: true}
	f = p.parse()
	return f, p.probs
}

// Open reads and parses the named file with Parse.
func Open(name string) (*File, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	f, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return f, nil
}

// UnmarshalBinary implements encoding.BinaryUnmarshaler with Parse.
func (f *File) UnmarshalBinary(data []byte) error {
	g, err := Parse(data)
	if err != nil {
		return err
	}
	*f = *g
	return nil
}

var le = binary.LittleEndian

func decodeHeader(b []byte) Header {
	var h Header
	copy(h.Magic[:], b[0:4])
	h.Major = le.Uint16(b[4:])
	h.Count = le.Uint16(b[6:])
	h.IndexOff = le.Uint32(b[8:])
	copy(h.Reserved[:], b[12:HeaderSize])
	return h
}

func decodeEntry(b []byte) IndexEntry {
	return IndexEntry{Minor: le.Uint16(b[0:]), Len: le.Uint16(b[2:]), Off: le.Uint32(b[4:])}
}

// reserved returns the reserved field TRCUST writes.
func reserved() [ReservedSize]byte {
	var r [ReservedSize]byte
	copy(r[:], ReservedText)
	return r
}

// parser holds the state of one Parse or ParseLenient call.
type parser struct {
	data    []byte
	lenient bool
	probs   []*FormatError
}

// bad records a problem and reports whether parsing must stop (it must in
// strict mode).
func (p *parser) bad(off int64, format string, args ...any) bool {
	p.probs = append(p.probs, &FormatError{Off: off, Msg: fmt.Sprintf(format, args...)})
	return !p.lenient
}

func (p *parser) parse() *File {
	data := p.data
	size := int64(len(data))
	if len(data) < len(Magic) || string(data[:len(Magic)]) != Magic {
		n := min(len(data), len(Magic))
		p.bad(0, "bad magic %q, want %q", data[:n], Magic)
		return nil
	}
	if len(data) < HeaderSize {
		p.bad(size, "truncated header: the file is %d bytes, the header needs %d", size, HeaderSize)
		return nil
	}
	h := decodeHeader(data)
	f := &File{Major: h.Major}
	if h.IndexOff != IndexOffset {
		if p.bad(8, "index offset field is 0x%X, want 0x%X", h.IndexOff, IndexOffset) {
			return nil
		}
	}
	if want := reserved(); h.Reserved != want {
		i := 0
		for h.Reserved[i] == want[i] {
			i++
		}
		if p.bad(int64(12+i), "reserved header field differs from %q and NULs (byte 0x%02X, want 0x%02X)", ReservedText, h.Reserved[i], want[i]) {
			return nil
		}
	}

	n := int(h.Count)
	dataStart := int64(IndexOffset + n*EntrySize)
	if dataStart > size {
		room := (size - IndexOffset) / EntrySize
		if p.bad(size, "truncated index: the header says %d records, whose index needs bytes 0x%X-0x%X, but the file is %d bytes", n, IndexOffset, dataStart-1, size) {
			return nil
		}
		n = int(room)
		dataStart = int64(IndexOffset + n*EntrySize)
	}

	f.Records = make([]Record, 0, n)
	next := dataStart // where the next block should start
	var budget int64  // block bytes read so far (bounds memory in lenient mode)
	for i := range n {
		eoff := int64(IndexOffset + i*EntrySize)
		e := decodeEntry(data[eoff:])
		end := int64(e.Off) + int64(e.Len)
		switch {
		case end > size:
			hint := ""
			if bytes.Equal(data[eoff:eoff+EntrySize], data[8:16]) {
				hint = "; the entry is a copy of header bytes 0x08-0x0F, as TRCUST 3.05A writes under /D for a duplicate minor"
			}
			if p.bad(eoff+4, "index entry %d (minor 0x%04X): data block 0x%X+%d lies outside the file (%d bytes)%s", i, e.Minor, e.Off, e.Len, size, hint) {
				return nil
			}
			continue
		case e.Len < 2:
			if p.bad(eoff+2, "index entry %d (minor 0x%04X): data length %d, a block needs at least 2 bytes (DESC NUL and closing NUL)", i, e.Minor, e.Len) {
				return nil
			}
			continue
		}
		if int64(e.Off) != next {
			var stop bool
			switch {
			case i == 0 && e.Off >= IndexOffset && (e.Off-IndexOffset)%EntrySize == 0:
				stop = p.bad(eoff+4, "record count %d does not match the index: the first data block starts at 0x%X, which leaves room for %d index entries", h.Count, e.Off, (e.Off-IndexOffset)/EntrySize)
			case i == 0:
				stop = p.bad(eoff+4, "index entry 0 (minor 0x%04X): the first data block starts at 0x%X, want 0x%X right after the index", e.Minor, e.Off, next)
			case int64(e.Off) < next:
				stop = p.bad(eoff+4, "index entry %d (minor 0x%04X): data block at 0x%X overlaps the previous block or is out of index order (want 0x%X)", i, e.Minor, e.Off, next)
			default:
				stop = p.bad(eoff+4, "index entry %d (minor 0x%04X): data block at 0x%X leaves a gap of %d bytes after the previous block (want 0x%X)", i, e.Minor, e.Off, int64(e.Off)-next, next)
			}
			if stop {
				return nil
			}
		}
		if i > 0 {
			prev := decodeEntry(data[eoff-EntrySize:])
			switch {
			case e.Minor == prev.Minor:
				if p.bad(eoff, "index entry %d: duplicate minor 0x%04X", i, e.Minor) {
					return nil
				}
			case e.Minor < prev.Minor:
				if p.bad(eoff, "index entry %d: minor 0x%04X follows 0x%04X; the index must be sorted by minor", i, e.Minor, prev.Minor) {
					return nil
				}
			}
		}
		next = end
		budget += int64(e.Len)
		if budget > size {
			// Only overlapping blocks can get here.
			p.bad(eoff+4, "index entry %d (minor 0x%04X): skipped, the blocks read so far already exceed the file size", i, e.Minor)
			continue
		}
		r, ok := p.block(e, data[e.Off:end])
		if !ok {
			return nil
		}
		f.Records = append(f.Records, r)
	}
	if next < size {
		msg := "the file goes on for %d bytes after the last data block"
		if n == 0 {
			msg = "the header says 0 records, but the file goes on for %d bytes after it"
		}
		if p.bad(next, msg, size-next) {
			return nil
		}
	}
	return f
}

// block splits the data block b of entry e into a Record. It reports false
// when parsing must stop.
func (p *parser) block(e IndexEntry, b []byte) (Record, bool) {
	r := Record{Minor: e.Minor}
	base := int64(e.Off)
	last := len(b) - 1
	if b[last] != 0 {
		if p.bad(base+int64(last), "minor 0x%04X: data block does not end with a NUL", e.Minor) {
			return r, false
		}
		last = len(b)
	}
	body := b[:last] // without the closing NUL
	nul := bytes.IndexByte(body, 0)
	if nul < 0 {
		if p.bad(base+int64(len(body)), "minor 0x%04X: no NUL after the DESC text", e.Minor) {
			return r, false
		}
		nul = len(body) // lenient: the whole body is the DESC
	}
	r.Desc = bytes.Clone(body[:nul])
	pos := nul + 1
	for pos < len(body) {
		rest := body[pos:]
		i := bytes.Index(rest, []byte("\r\n"))
		line := rest
		if i < 0 {
			if p.bad(base+int64(len(body)), "minor 0x%04X: FMT line at 0x%X is not ended by CR LF", e.Minor, base+int64(pos)) {
				return r, false
			}
		} else {
			line = rest[:i]
		}
		if j := bytes.IndexByte(line, 0); j >= 0 {
			if p.bad(base+int64(pos+j), "minor 0x%04X: NUL inside an FMT line", e.Minor) {
				return r, false
			}
		}
		r.Fmts = append(r.Fmts, bytes.Clone(line))
		pos += len(line) + 2
	}
	return r, true
}
