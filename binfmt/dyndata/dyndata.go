// Package dyndata is the layout of what a dynamic tracepoint logs for each
// memory statement (MEM, MEM32, ASCIIZ, ASCIIZ32): a 3-byte prefix, a
// status byte and a 16-bit little-endian length, then the data; on a bad
// status the pointer that could not be read is logged instead of the data,
// and nothing more for that hit (the STDA reference, "Dynamic trace data";
// TRCUST reference section 1.3.5.7, %P). REGS data has no prefix.
//
// The TDF programs that write it are in binfmt/tdf, the simulator that
// runs them in lower/simulate, and the formatter that reads it (the %P
// control) in lower/formatter; this package is the one definition of the
// bytes they share.
package dyndata

import (
	"encoding/binary"
	"fmt"
)

// Sizes of the parts of a logged memory item.
const (
	PrefixSize  = 3 // the status byte and the 16-bit length
	PointerSize = 4 // a 16:16 or a 0:32 pointer, logged after a bad status
)

// Status is the first byte of a prefix.
type Status byte

// The statuses.
const (
	StatusValid              Status = 0x00 // the data follows
	StatusString             Status = 0x01 // an ASCIIZ string follows, without its NUL
	StatusInvalidSelector    Status = 0xFF // the 16:16 pointer follows instead of the data
	StatusSelectorNotPresent Status = 0xFE // the 16:16 pointer follows instead of the data
	StatusPageNotPresent     Status = 0xFD // the 0:32 pointer follows instead of the data
)

var statusNames = map[Status]string{
	StatusValid:              "valid",
	StatusString:             "string",
	StatusInvalidSelector:    "invalid selector",
	StatusSelectorNotPresent: "selector not present",
	StatusPageNotPresent:     "page not present",
}

// String names the status: "selector not present"; an unknown one as
// "status 0x42".
func (s Status) String() string {
	if n, ok := statusNames[s]; ok {
		return n
	}
	return fmt.Sprintf("status 0x%02X", byte(s))
}

// Known reports whether s is one of the statuses above.
func (s Status) Known() bool {
	_, ok := statusNames[s]
	return ok
}

// Bad reports whether s says the data could not be read, so that the
// pointer follows instead of it.
func (s Status) Bad() bool {
	return s == StatusInvalidSelector || s == StatusSelectorNotPresent || s == StatusPageNotPresent
}

// Flat reports whether the pointer logged after the bad status s is a 0:32
// one (page not present); the others are 16:16, offset first.
func (s Status) Flat() bool { return s == StatusPageNotPresent }

// Prefix is a decoded prefix.
type Prefix struct {
	Status Status
	Length uint16 // of the data that follows; PointerSize after a bad status
}

// ParsePrefix reads a prefix at the start of b; ok is false when b is
// shorter than PrefixSize.
func ParsePrefix(b []byte) (p Prefix, ok bool) {
	if len(b) < PrefixSize {
		return Prefix{}, false
	}
	return Prefix{Status: Status(b[0]), Length: binary.LittleEndian.Uint16(b[1:])}, true
}

// Append appends the prefix's bytes to b.
func (p Prefix) Append(b []byte) []byte {
	return binary.LittleEndian.AppendUint16(append(b, byte(p.Status)), p.Length)
}
