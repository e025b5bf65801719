// Package stda reads and writes the OS/2 system trace buffer (STDA), the
// snapshot of the kernel's circular trace buffer that DosGetSTDA returns and
// that TRACEFMT formats or saves.
//
// The layout follows the reference os2-stda-trace-buffer.txt and its clean
// reading in the reference README ("STDA, read cleanly"); docs/stda.md gives
// it in our own words. All values are little-endian.
//
// An STDA starts with a header: the ASCII identifier "SYSTRACE" and three
// 16-bit offsets FIRST, LAST and NEXT. FIRST and LAST bound the circular
// area (both inclusive); NEXT is the next free byte, so the newest record
// ends just below it. The old format (FIRST = 0x0E) has 2-byte record time
// stamps; the new format (FIRST = 0x1E, OS/2 2.11 fix pack 91 and 3.0 fix
// pack 8 onwards) adds the trace-on and trace-off times to the header and
// has 4-byte record time stamps.
//
// A record is laid out, in memory order, as its data, its time stamp
// (present when FlagNoTime is clear) and an 8-byte Trailer. Records are
// read backwards from NEXT; each of the three parts may wrap from FIRST to
// LAST. A trailer with major code 0 and length 0 ends the data.
//
// Parse never panics, never loops and allocates no more than a small
// multiple of its input: the walk stops once it has gone once round the
// circular area.
package stda

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Magic is the identifier at the start of every STDA.
const Magic = "SYSTRACE"

// Offsets and sizes fixed by the format.
const (
	HeaderSize    = 14   // SYSTRACE, FIRST, LAST, NEXT
	NewHeaderSize = 0x1E // HeaderSize plus the trace-on and trace-off times
	FirstOld      = 0x0E // FIRST of an old-format STDA
	FirstNew      = 0x1E // FIRST of a new-format STDA
	TrailerSize   = 8    // bytes in a Trailer
	TraceTimeSize = 8    // bytes in a TraceTime
	// MaxSize is the largest STDA: LAST is a 16-bit offset.
	MaxSize = 0x10000
)

// Offsets of the header fields.
const (
	offFirst    = 8
	offLast     = 10
	offNext     = 12
	offTraceOn  = 0x0E
	offTraceOff = 0x16
)

// Record flag bits (the Trailer's Flags byte).
const (
	FlagExternal   = 0x01 // set: not generated internally by the kernel
	FlagNoTime     = 0x02 // set: the record has no time stamp
	FlagProtect    = 0x04 // set: generated in protect mode (clear: real mode)
	FlagDynamic    = 0x08 // set: dynamic trace record (clear: static)
	FlagIncomplete = 0x10 // set: incomplete dynamic trace record
	FlagReserved   = 0xE0 // bits 5-7, reserved
)

// Format tells the two STDA layouts apart.
type Format uint8

// The STDA formats. The zero Format is not a valid format.
const (
	FormatOld Format = iota + 1 // FIRST = 0x0E, 2-byte time stamps
	FormatNew                   // FIRST = 0x1E, trace-on/off times, 4-byte time stamps
)

// String returns "old", "new" or "format(n)".
func (f Format) String() string {
	switch f {
	case FormatOld:
		return "old"
	case FormatNew:
		return "new"
	}
	return "format(" + strconv.Itoa(int(f)) + ")"
}

// First returns the FIRST offset of the format, or 0 for an invalid format.
func (f Format) First() int {
	switch f {
	case FormatOld:
		return FirstOld
	case FormatNew:
		return FirstNew
	}
	return 0
}

// TimeLen returns the size of a record time stamp in the format: 2 for the
// old format, 4 for the new, 0 for an invalid format.
func (f Format) TimeLen() int {
	switch f {
	case FormatOld:
		return 2
	case FormatNew:
		return 4
	}
	return 0
}

// Header is the on-disk STDA header: the first 14 bytes of every STDA.
type Header struct {
	Magic [8]byte // "SYSTRACE"
	First uint16  // offset of the first byte of the circular area
	Last  uint16  // offset of the last byte of the circular area
	Next  uint16  // offset of the next free byte
}

// TraceTime is the on-disk form of the new format's trace-on and trace-off
// times (bytes 0x0E-0x15 and 0x16-0x1D of the header).
type TraceTime struct {
	Year       uint16
	Month      uint8
	Day        uint8
	Hour       uint8
	Minute     uint8
	Second     uint8
	Hundredths uint8
}

// String formats the time as "YYYY-MM-DD hh:mm:ss.hh".
func (t TraceTime) String() string {
	return fmt.Sprintf("%04d-%02d-%02d %02d:%02d:%02d.%02d",
		t.Year, t.Month, t.Day, t.Hour, t.Minute, t.Second, t.Hundredths)
}

// Trailer is the on-disk 8-byte event trailer that ends every record.
type Trailer struct {
	Flags  uint8  // Flag* bits
	PID    uint16 // process ID; 0 means interrupt time
	Minor  uint16 // minor event code
	Length uint16 // bytes of data before the time stamp
	Major  uint8  // major event code
}

// IsEnd reports whether the trailer is the end-of-data marker: major code 0
// and length 0.
func (t Trailer) IsEnd() bool { return t.Major == 0 && t.Length == 0 }

// Timestamp is a record's time stamp. Len tells which fields were stored:
// 0 means the record has none (FlagNoTime), 2 means the old format's
// seconds and hundredths, 4 the new format's hours, minutes, seconds and
// hundredths.
type Timestamp struct {
	Len        uint8
	Hours      uint8
	Minutes    uint8
	Seconds    uint8
	Hundredths uint8
}

// String formats the time stamp as "hh:mm:ss.hh" (new format), "ss.hh"
// (old format) or "-" (none).
func (t Timestamp) String() string {
	switch t.Len {
	case 4:
		return fmt.Sprintf("%02d:%02d:%02d.%02d", t.Hours, t.Minutes, t.Seconds, t.Hundredths)
	case 2:
		return fmt.Sprintf("%02d.%02d", t.Seconds, t.Hundredths)
	}
	return "-"
}

// Record is one trace event, as read from or written to an STDA.
type Record struct {
	Flags  byte      // Flag* bits
	PID    uint16    // process ID; 0 means interrupt time
	Minor  uint16    // minor event code
	Major  uint8     // major event code
	Time   Timestamp // time stamp; Time.Len is 0 when FlagNoTime is set
	Data   []byte    // the traced data
	Offset int64     // offset in the STDA of the record's first byte (in memory order)
}

// HasTime reports whether the record carries a time stamp.
func (r *Record) HasTime() bool { return r.Flags&FlagNoTime == 0 }

// Buffer is a parsed STDA.
type Buffer struct {
	Header
	Format   Format
	TraceOn  TraceTime // new format only
	TraceOff TraceTime // new format only
	// Records holds the records, oldest first.
	Records []Record
	// End is the offset of the end-marker trailer that ended the walk, or
	// -1 when the walk ended otherwise (it went exactly once round the
	// circular area, or it failed).
	End int64
}

// AreaSize returns the number of bytes in the circular area.
func (b *Buffer) AreaSize() int { return int(b.Last) + 1 - int(b.First) }

// FormatError reports a malformed STDA. Off is the byte offset, from the
// start of the STDA, that the problem was found at.
type FormatError struct {
	Off int64
	Msg string
}

// Error returns "stda: offset 0xOOOO: message".
func (e *FormatError) Error() string {
	return fmt.Sprintf("stda: offset %#04x: %s", e.Off, e.Msg)
}

// FlagString names the flag bits of a record: "kernel" or "external",
// "real" or "protect", "static" or "dynamic", then "no-time",
// "incomplete" and "reserved=XX" when those bits are set.
func FlagString(flags byte) string {
	var parts []string
	if flags&FlagExternal != 0 {
		parts = append(parts, "external")
	} else {
		parts = append(parts, "kernel")
	}
	if flags&FlagProtect != 0 {
		parts = append(parts, "protect")
	} else {
		parts = append(parts, "real")
	}
	if flags&FlagDynamic != 0 {
		parts = append(parts, "dynamic")
	} else {
		parts = append(parts, "static")
	}
	if flags&FlagNoTime != 0 {
		parts = append(parts, "no-time")
	}
	if flags&FlagIncomplete != 0 {
		parts = append(parts, "incomplete")
	}
	if r := flags & FlagReserved; r != 0 {
		parts = append(parts, fmt.Sprintf("reserved=%02X", r))
	}
	return strings.Join(parts, ",")
}

// ParseHeader reads and checks the fixed header of an STDA: the identifier,
// FIRST (which gives the format), LAST (which must lie inside data) and
// NEXT (which must lie in [FIRST, LAST+1]). For the new format it also
// returns the trace-on and trace-off times in b; b.Records is empty.
func ParseHeader(data []byte) (*Buffer, error) {
	if len(data) < HeaderSize {
		return nil, &FormatError{int64(len(data)), fmt.Sprintf("truncated header: %d bytes, need %d", len(data), HeaderSize)}
	}
	b := &Buffer{End: -1}
	copy(b.Magic[:], data)
	if string(b.Magic[:]) != Magic {
		return nil, &FormatError{0, fmt.Sprintf("identifier is %q, want %q", b.Magic[:], Magic)}
	}
	b.First = binary.LittleEndian.Uint16(data[offFirst:])
	b.Last = binary.LittleEndian.Uint16(data[offLast:])
	b.Next = binary.LittleEndian.Uint16(data[offNext:])
	switch b.First {
	case FirstOld:
		b.Format = FormatOld
	case FirstNew:
		b.Format = FormatNew
	default:
		return nil, &FormatError{offFirst, fmt.Sprintf("FIRST is %#04x, want %#04x (old format) or %#04x (new format)", b.First, FirstOld, FirstNew)}
	}
	if int(b.Last) >= len(data) {
		return nil, &FormatError{offLast, fmt.Sprintf("LAST %#04x lies outside the %d-byte buffer", b.Last, len(data))}
	}
	if b.Last < b.First || b.AreaSize() < TrailerSize {
		return nil, &FormatError{offLast, fmt.Sprintf("LAST %#04x leaves a circular area of less than %d bytes after FIRST %#04x", b.Last, TrailerSize, b.First)}
	}
	if b.Next < b.First || int(b.Next) > int(b.Last)+1 {
		return nil, &FormatError{offNext, fmt.Sprintf("NEXT %#04x lies outside the circular area %#04x-%#04x", b.Next, b.First, b.Last)}
	}
	if b.Format == FormatNew {
		b.TraceOn = readTraceTime(data[offTraceOn:])
		b.TraceOff = readTraceTime(data[offTraceOff:])
	}
	return b, nil
}

func readTraceTime(p []byte) TraceTime {
	return TraceTime{
		Year:       binary.LittleEndian.Uint16(p),
		Month:      p[2],
		Day:        p[3],
		Hour:       p[4],
		Minute:     p[5],
		Second:     p[6],
		Hundredths: p[7],
	}
}

func putTraceTime(p []byte, t TraceTime) {
	binary.LittleEndian.PutUint16(p, t.Year)
	p[2], p[3], p[4], p[5], p[6], p[7] = t.Month, t.Day, t.Hour, t.Minute, t.Second, t.Hundredths
}

// backReader walks the circular area backwards. pos is the exclusive end of
// the part still to be read; it stays in [lo, hi].
type backReader struct {
	data   []byte
	lo, hi int // circular area [lo, hi)
	pos    int
	budget int // bytes left before the walk comes back round to NEXT
}

// read returns the n bytes below pos, in memory order, and the offset of
// the first of them. When the part is longer than the distance down to
// FIRST its remainder is taken from the top of the area, ending at LAST.
// The caller guarantees n <= budget.
func (r *backReader) read(n int) ([]byte, int) {
	r.budget -= n
	if n <= r.pos-r.lo {
		r.pos -= n
		return r.data[r.pos : r.pos+n], r.pos
	}
	k := r.pos - r.lo // bytes available just below pos
	start := r.hi - (n - k)
	out := make([]byte, 0, n)
	out = append(out, r.data[start:r.hi]...)
	out = append(out, r.data[r.lo:r.pos]...)
	r.pos = start
	return out, start
}

// Parse reads an STDA. data holds the STDA from its first byte; bytes past
// LAST are ignored.
//
// The walk starts at NEXT and goes backwards. It ends cleanly at an end
// marker (a trailer with major 0 and length 0; Buffer.End gives its offset)
// or when the records fill the circular area exactly. A header problem
// returns a nil Buffer. A problem met during the walk (a record longer than
// the area, or a record or trailer that would reach back past NEXT, so that
// the walk would go round again) ends the walk with a *FormatError: the
// Buffer is still returned, holding the records read before the problem,
// oldest first.
func Parse(data []byte) (*Buffer, error) {
	b, err := ParseHeader(data)
	if err != nil {
		return nil, err
	}
	area := b.AreaSize()
	r := &backReader{
		data:   data,
		lo:     int(b.First),
		hi:     int(b.Last) + 1,
		pos:    int(b.Next),
		budget: area,
	}
	tsLen := b.Format.TimeLen()
	recs := make([]Record, 0, area/32) // newest first while walking
	// The records' data, copied into one block: together they fit the area.
	arena := make([]byte, 0, area)
	var werr error
	for r.budget > 0 {
		if r.budget < TrailerSize {
			werr = &FormatError{int64(r.pos), fmt.Sprintf("only %d bytes remain before the walk comes back to NEXT %#04x: no room for a trailer and no end marker", r.budget, b.Next)}
			break
		}
		tb, toff := r.read(TrailerSize)
		t := Trailer{
			Flags:  tb[0],
			PID:    binary.LittleEndian.Uint16(tb[1:]),
			Minor:  binary.LittleEndian.Uint16(tb[3:]),
			Length: binary.LittleEndian.Uint16(tb[5:]),
			Major:  tb[7],
		}
		if t.IsEnd() {
			b.End = int64(toff)
			break
		}
		n := int(t.Length)
		if t.Flags&FlagNoTime == 0 {
			n += tsLen
		}
		if int(t.Length)+TrailerSize > area {
			werr = &FormatError{int64(toff), fmt.Sprintf("trailer (major %#02x minor %#04x) gives length %d, too long for the %d-byte circular area", t.Major, t.Minor, t.Length, area)}
			break
		}
		if n > r.budget {
			werr = &FormatError{int64(toff), fmt.Sprintf("record (major %#02x minor %#04x length %d) would reach back past NEXT %#04x: the walk would go round again", t.Major, t.Minor, t.Length, b.Next)}
			break
		}
		rec := Record{Flags: t.Flags, PID: t.PID, Minor: t.Minor, Major: t.Major, Offset: int64(toff)}
		if t.Flags&FlagNoTime == 0 {
			ts, off := r.read(tsLen)
			rec.Offset = int64(off)
			if tsLen == 4 {
				rec.Time = Timestamp{Len: 4, Hours: ts[0], Minutes: ts[1], Seconds: ts[2], Hundredths: ts[3]}
			} else {
				rec.Time = Timestamp{Len: 2, Seconds: ts[0], Hundredths: ts[1]}
			}
		}
		d, off := r.read(int(t.Length))
		if t.Length > 0 {
			rec.Offset = int64(off)
		}
		if len(d) > 0 {
			at := len(arena)
			arena = append(arena, d...)
			rec.Data = arena[at:len(arena):len(arena)]
		}
		recs = append(recs, rec)
	}
	slices.Reverse(recs)
	b.Records = recs
	if b.Records == nil {
		b.Records = []Record{}
	}
	return b, werr
}
