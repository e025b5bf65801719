package stda

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Writer lays records out in an STDA of a fixed size the way the kernel
// fills its trace buffer: each record is written at NEXT, its bytes wrapping
// from LAST to FIRST, and NEXT moves past it. When the circular area is
// full the oldest records are given up, and their bytes stay in the buffer
// until newer records overwrite them.
//
// The Writer keeps room for an end marker: Bytes writes an 8-byte trailer
// of zeros just below the oldest record it kept, so that a backward walk
// from NEXT stops there. A Writer is used by tests and by simulators; the
// zero Writer is not usable, call NewWriter.
type Writer struct {
	format   Format
	buf      []byte
	lo, hi   int // circular area [lo, hi)
	next     int
	used     int   // bytes taken by the records kept
	sizes    []int // sizes of the records kept, oldest first
	dropped  int
	on, off  TraceTime
	anyWrite bool
}

// ErrTooLarge is returned by Writer.Write for a record that cannot fit in
// the circular area together with an end marker.
var ErrTooLarge = errors.New("stda: record too large for the circular area")

// NewWriter returns a Writer for an STDA of the given format that is size
// bytes long in all (header included, so LAST = size-1). size may be at most
// MaxSize and must leave room in the circular area for at least two
// trailers. NEXT starts at FIRST.
func NewWriter(f Format, size int) (*Writer, error) {
	first := f.First()
	if first == 0 {
		return nil, fmt.Errorf("stda: NewWriter: invalid format %v", f)
	}
	if size > MaxSize || size-first < 2*TrailerSize {
		return nil, fmt.Errorf("stda: NewWriter: size %d outside %d-%d", size, first+2*TrailerSize, MaxSize)
	}
	return &Writer{
		format: f,
		buf:    make([]byte, size),
		lo:     first,
		hi:     size,
		next:   first,
	}, nil
}

// SetNext moves NEXT, where the next record will be written, to off. It
// may be called only before the first Write; off must lie in [FIRST, LAST].
func (w *Writer) SetNext(off int) error {
	if w.anyWrite {
		return errors.New("stda: SetNext after Write")
	}
	if off < w.lo || off >= w.hi {
		return fmt.Errorf("stda: SetNext: offset %#04x outside the circular area %#04x-%#04x", off, w.lo, w.hi-1)
	}
	w.next = off
	return nil
}

// SetTraceTimes sets the trace-on and trace-off times written into a
// new-format header. They are ignored for the old format.
func (w *Writer) SetTraceTimes(on, off TraceTime) { w.on, w.off = on, off }

// Next returns the current NEXT offset.
func (w *Writer) Next() int { return w.next }

// Len returns the number of records the buffer holds.
func (w *Writer) Len() int { return len(w.sizes) }

// Dropped returns the number of records given up to make room for newer
// ones.
func (w *Writer) Dropped() int { return w.dropped }

// RecordSize returns the number of bytes r takes in an STDA of format f:
// its data, its time stamp when FlagNoTime is clear, and its trailer.
func RecordSize(f Format, r *Record) int {
	n := len(r.Data) + TrailerSize
	if r.Flags&FlagNoTime == 0 {
		n += f.TimeLen()
	}
	return n
}

// Write appends r at NEXT: its data, its time stamp (unless FlagNoTime is
// set; the fields of r.Time that the format stores are written, whatever
// r.Time.Len says) and its trailer. r.Offset is ignored. Oldest records are
// given up as needed. A record with major 0 and no data would read back as
// the end marker and is refused.
func (w *Writer) Write(r Record) error {
	if len(r.Data) > 0xFFFF {
		return fmt.Errorf("stda: record data is %d bytes, more than a 16-bit length", len(r.Data))
	}
	if r.Major == 0 && len(r.Data) == 0 {
		return errors.New("stda: a record with major 0 and no data would read as the end marker")
	}
	n := RecordSize(w.format, &r)
	area := w.hi - w.lo
	if n+TrailerSize > area {
		return ErrTooLarge
	}
	for w.used+n+TrailerSize > area {
		w.used -= w.sizes[0]
		w.sizes = w.sizes[1:]
		w.dropped++
	}
	w.anyWrite = true
	if w.next+n <= w.hi {
		// no wrap: the record's bytes written in place
		b := w.buf[w.next : w.next+n]
		k := copy(b, r.Data)
		if r.Flags&FlagNoTime == 0 {
			if w.format == FormatNew {
				b[k], b[k+1], b[k+2], b[k+3] = r.Time.Hours, r.Time.Minutes, r.Time.Seconds, r.Time.Hundredths
				k += 4
			} else {
				b[k], b[k+1] = r.Time.Seconds, r.Time.Hundredths
				k += 2
			}
		}
		putTrailer(b[k:], &r)
		w.next += n
		if w.next == w.hi {
			w.next = w.lo
		}
		w.sizes = append(w.sizes, n)
		w.used += n
		return nil
	}
	w.put(r.Data)
	if r.Flags&FlagNoTime == 0 {
		if w.format == FormatNew {
			w.put([]byte{r.Time.Hours, r.Time.Minutes, r.Time.Seconds, r.Time.Hundredths})
		} else {
			w.put([]byte{r.Time.Seconds, r.Time.Hundredths})
		}
	}
	var t [TrailerSize]byte
	putTrailer(t[:], &r)
	w.put(t[:])
	w.sizes = append(w.sizes, n)
	w.used += n
	return nil
}

// putTrailer writes r's trailer into t.
func putTrailer(t []byte, r *Record) {
	_ = t[TrailerSize-1]
	t[0] = r.Flags
	binary.LittleEndian.PutUint16(t[1:], r.PID)
	binary.LittleEndian.PutUint16(t[3:], r.Minor)
	binary.LittleEndian.PutUint16(t[5:], uint16(len(r.Data)))
	t[7] = r.Major
}

// put writes p at NEXT, wrapping from LAST to FIRST, and advances NEXT.
func (w *Writer) put(p []byte) {
	for len(p) > 0 {
		c := copy(w.buf[w.next:w.hi], p)
		p = p[c:]
		w.next += c
		if w.next == w.hi {
			w.next = w.lo
		}
	}
}

// Bytes returns the STDA: the header (with FIRST, LAST and NEXT, and for
// the new format the trace times), the circular area as written, and the
// end marker just below the oldest record kept. The Writer can go on being
// used; the result is a copy.
func (w *Writer) Bytes() []byte {
	out := append([]byte(nil), w.buf...)
	copy(out, Magic)
	binary.LittleEndian.PutUint16(out[offFirst:], uint16(w.lo))
	binary.LittleEndian.PutUint16(out[offLast:], uint16(w.hi-1))
	binary.LittleEndian.PutUint16(out[offNext:], uint16(w.next))
	if w.format == FormatNew {
		putTraceTime(out[offTraceOn:], w.on)
		putTraceTime(out[offTraceOff:], w.off)
	}
	area := w.hi - w.lo
	end := w.next - w.lo - w.used - TrailerSize
	end = ((end%area)+area)%area + w.lo
	for i := 0; i < TrailerSize; i++ {
		out[end] = 0
		end++
		if end == w.hi {
			end = w.lo
		}
	}
	return out
}
