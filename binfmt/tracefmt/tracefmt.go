// Package tracefmt reads and writes the TRACEFMT save file: the unformatted
// system trace buffer (STDA) that the OS/2 trace formatter saves for
// formatting later.
//
// The layout follows the reference os2-stda-trace-buffer.txt ("TRACEFMT
// Unformatted Trace Buffer") and its clean reading in the reference README;
// docs/stda.md gives it in our own words. All values are little-endian:
//
//	0x00  ULONG     length of the STDA (its LAST + 1)
//	0x04  DATETIME  11 bytes: when the buffer was saved
//	0x0F  11 bytes  check key: the DATETIME bytes XORed with "TRCFMTBUFF$"
//	0x1A            the STDA itself (see package stda)
//
// A wrong check key is reported as a *CheckKeyError beside a fully read
// File, so a caller can print it as a diagnostic and go on.
package tracefmt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/tracekit/tracekit/binfmt/stda"
)

// Offsets and sizes of the save-file header.
const (
	OffLength    = 0x00
	OffDateTime  = 0x04
	OffCheckKey  = 0x0F
	STDAOffset   = 0x1A // where the STDA starts; also the header size
	DateTimeSize = 11
)

// KeyMask is XORed bytewise with the DATETIME to give the check key.
const KeyMask = "TRCFMTBUFF$"

// DateTime is the on-disk OS/2 DATETIME structure (11 bytes).
type DateTime struct {
	Hours      uint8
	Minutes    uint8
	Seconds    uint8
	Hundredths uint8
	Day        uint8
	Month      uint8
	Year       uint16
	TimeZone   int16 // minutes from UTC; -1 when undefined
	Weekday    uint8 // 0 = Sunday
}

// String formats the time as "YYYY-MM-DD hh:mm:ss.hh".
func (d DateTime) String() string {
	return fmt.Sprintf("%04d-%02d-%02d %02d:%02d:%02d.%02d",
		d.Year, d.Month, d.Day, d.Hours, d.Minutes, d.Seconds, d.Hundredths)
}

// Bytes returns the 11-byte on-disk form of d.
func (d DateTime) Bytes() [DateTimeSize]byte {
	var b [DateTimeSize]byte
	b[0], b[1], b[2], b[3], b[4], b[5] = d.Hours, d.Minutes, d.Seconds, d.Hundredths, d.Day, d.Month
	binary.LittleEndian.PutUint16(b[6:], d.Year)
	binary.LittleEndian.PutUint16(b[8:], uint16(d.TimeZone))
	b[10] = d.Weekday
	return b
}

// Key returns the check key that belongs to d: its bytes XORed with KeyMask.
func (d DateTime) Key() [DateTimeSize]byte {
	k := d.Bytes()
	for i := range k {
		k[i] ^= KeyMask[i]
	}
	return k
}

func readDateTime(p []byte) DateTime {
	return DateTime{
		Hours: p[0], Minutes: p[1], Seconds: p[2], Hundredths: p[3],
		Day: p[4], Month: p[5],
		Year:     binary.LittleEndian.Uint16(p[6:]),
		TimeZone: int16(binary.LittleEndian.Uint16(p[8:])),
		Weekday:  p[10],
	}
}

// Header is the on-disk save-file header (0x1A bytes).
type Header struct {
	Length   uint32             // bytes of STDA that follow
	DateTime DateTime           // when the buffer was saved
	CheckKey [DateTimeSize]byte // DateTime XOR KeyMask
}

// File is a parsed save file.
type File struct {
	Header
	// STDA is the trace buffer. Its record offsets and errors count from
	// the start of the STDA, which is file offset STDAOffset.
	STDA *stda.Buffer
}

// FormatError reports a malformed save file. Off is the file offset the
// problem was found at; Err, when not nil, is the *stda.FormatError it
// came from (whose offset counts from the STDA).
type FormatError struct {
	Off int64
	Msg string
	Err error
}

// Error returns "tracefmt: offset 0xOOOO: message".
func (e *FormatError) Error() string {
	return fmt.Sprintf("tracefmt: offset %#04x: %s", e.Off, e.Msg)
}

// Unwrap returns the underlying STDA error, if any.
func (e *FormatError) Unwrap() error { return e.Err }

// CheckKeyError reports a check key that does not match the DATETIME. It
// does not stop the reading: the File is complete.
type CheckKeyError struct {
	Off  int64              // file offset of the check key (OffCheckKey)
	Want [DateTimeSize]byte // the key the DATETIME gives
	Got  [DateTimeSize]byte // the key in the file
}

// Error describes the mismatch.
func (e *CheckKeyError) Error() string {
	return fmt.Sprintf("tracefmt: offset %#04x: check key % x does not match the save time (want % x)", e.Off, e.Got[:], e.Want[:])
}

// Parse reads a save file.
//
// It returns a nil File and an error when the header is truncated, the
// STDA is shorter than the length field says, or the STDA header is bad.
// Otherwise the File is returned complete, with an error that joins, in
// file order, the problems that did not stop the reading: a length field
// that differs from the STDA's LAST+1 or leaves bytes over (*FormatError),
// a wrong check key (*CheckKeyError) and a problem met during the STDA walk
// (*FormatError wrapping the *stda.FormatError; the records read before it
// are kept). Use errors.As to pick them out.
func Parse(data []byte) (*File, error) {
	if len(data) < STDAOffset {
		return nil, &FormatError{Off: int64(len(data)), Msg: fmt.Sprintf("truncated header: %d bytes, need %d", len(data), STDAOffset)}
	}
	f := &File{}
	f.Length = binary.LittleEndian.Uint32(data[OffLength:])
	f.DateTime = readDateTime(data[OffDateTime:])
	copy(f.CheckKey[:], data[OffCheckKey:])
	avail := uint64(len(data) - STDAOffset)
	if uint64(f.Length) > avail {
		return nil, &FormatError{Off: OffLength, Msg: fmt.Sprintf("length %d is more than the %d bytes after the header", f.Length, avail)}
	}
	body := data[STDAOffset : STDAOffset+int(f.Length)]
	var errs []error
	b, err := stda.Parse(body)
	if b == nil {
		return nil, wrapSTDA(err)
	}
	f.STDA = b
	if want := uint32(b.Last) + 1; f.Length != want {
		errs = append(errs, &FormatError{Off: OffLength, Msg: fmt.Sprintf("length %d differs from the STDA's LAST+1 = %d", f.Length, want)})
	}
	if extra := avail - uint64(f.Length); extra > 0 {
		errs = append(errs, &FormatError{Off: int64(STDAOffset) + int64(f.Length), Msg: fmt.Sprintf("%d bytes follow the STDA", extra)})
	}
	if want := f.DateTime.Key(); want != f.CheckKey {
		errs = append(errs, &CheckKeyError{Off: OffCheckKey, Want: want, Got: f.CheckKey})
	}
	if err != nil {
		errs = append(errs, wrapSTDA(err))
	}
	switch len(errs) {
	case 0:
		return f, nil
	case 1:
		return f, errs[0]
	}
	return f, errors.Join(errs...)
}

func wrapSTDA(err error) error {
	var se *stda.FormatError
	if errors.As(err, &se) {
		return &FormatError{Off: STDAOffset + se.Off, Msg: "STDA: " + se.Msg, Err: se}
	}
	return err
}

// Marshal returns a save file holding the STDA data, saved at dt, with the
// correct check key. data must be a whole STDA: its header must be valid
// and its length must be LAST+1.
func Marshal(dt DateTime, data []byte) ([]byte, error) {
	b, err := stda.ParseHeader(data)
	if err != nil {
		return nil, err
	}
	if len(data) != int(b.Last)+1 {
		return nil, fmt.Errorf("tracefmt: STDA is %d bytes, its LAST+1 is %d", len(data), int(b.Last)+1)
	}
	out := make([]byte, STDAOffset, STDAOffset+len(data))
	binary.LittleEndian.PutUint32(out[OffLength:], uint32(len(data)))
	d := dt.Bytes()
	copy(out[OffDateTime:], d[:])
	k := dt.Key()
	copy(out[OffCheckKey:], k[:])
	return append(out, data...), nil
}

// Kind is what Detect found a file to be.
type Kind int

// The kinds Detect tells apart.
const (
	KindUnknown  Kind = iota // neither an STDA nor a save file
	KindSTDA                 // a bare STDA: starts with "SYSTRACE"
	KindSaveFile             // a TRACEFMT save file: "SYSTRACE" at 0x1A
)

// String returns "unknown", "stda" or "savefile".
func (k Kind) String() string {
	switch k {
	case KindSTDA:
		return "stda"
	case KindSaveFile:
		return "savefile"
	}
	return "unknown"
}

// Detect tells an STDA, a save file and anything else apart by content:
// an STDA starts with its identifier "SYSTRACE", a save file has it at
// offset 0x1A. Only the identifiers are looked at; a save file with a wrong
// check key is still a save file.
func Detect(data []byte) Kind {
	if bytes.HasPrefix(data, []byte(stda.Magic)) {
		return KindSTDA
	}
	if len(data) >= STDAOffset && bytes.HasPrefix(data[STDAOffset:], []byte(stda.Magic)) {
		return KindSaveFile
	}
	return KindUnknown
}
