// Package tdf reads and writes OS/2 trace definition files (TDF): the
// dynamic tracepoints that IBM's Dynamic Trace Customizer (TRCUST) writes
// from the TRACE statements of a trace source file (TSF) whose TP is an
// address in a module. The dynamic trace facility (DTRACE) reads the file,
// patches each tracepoint address of the module, and runs the tracepoint's
// RPN program when the address is hit to collect the data it logs.
//
// A TDF is little-endian and has three parts:
//
//	0x000  Header        0x144 bytes: "TDF\x00", version 2, record bytes,
//	                     record count, first record offset, MAXDATALENGTH,
//	                     major code, module name (256 bytes), list count,
//	                     TDFID
//	0x144  list table    one 12-byte ListEntry (name, kind, id) per TYPELIST
//	                     entry, then one per GROUPLIST entry
//	...    records       one per tracepoint, sorted by (object, offset): a
//	                     22-byte RecordHeader and the RPN program
//
// MarshalBinary writes exactly the bytes TRCUST 3.05A writes, and Parse
// accepts exactly that canonical form, so that for every input Parse accepts,
// MarshalBinary of the result gives the input back. The RPN programs are
// kept as raw bytes; Disassemble decodes one into named operations.
//
// docs/tdf.md in the repository describes the format and the RPN machine.
package tdf

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"os"
	"slices"
)

// Layout constants.
const (
	// Magic is the signature at offset 0.
	Magic = "TDF\x00"
	// Version is the value TRCUST 3.05A stores at offset 4.
	Version = 2
	// HeaderSize is the size of the fixed header; the list table starts
	// there.
	HeaderSize = 0x144
	// ModNameSize is the size of the NUL-padded module name field; the name
	// itself is at most ModNameSize-1 bytes.
	ModNameSize = 256
	// ListEntrySize is the size of one ListEntry.
	ListEntrySize = 12
	// ListNameSize is the longest name of a ListEntry; its field holds one
	// more byte, the NUL that always ends the name.
	ListNameSize = 8
	// RecordHeaderSize is the size of the fixed part of a record, before the
	// RPN program.
	RecordHeaderSize = 22
	// MaxRPN is the longest RPN program TRCUST writes: one of 255 bytes
	// is already "RPN command record exceeds 255 bytes" (message 83; IBM's
	// behaviour, tried with its binary on programs of 253 to 256 bytes,
	// fresh seed 1072668). The format could hold more, and Parse accepts
	// more.
	MaxRPN = 254
	// MaxRPNStack is the depth of the RPN machine's stack (message 97).
	MaxRPNStack = 16
	// MaxRecordRPN is the longest RPN program a record can hold: its length
	// and the record length are u16.
	MaxRecordRPN = 0xFFFF - RecordHeaderSize
)

// ListKind tells TYPELIST and GROUPLIST entries apart in the list table.
type ListKind uint8

// The list kinds.
const (
	KindGroup ListKind = 1 // a GROUPLIST entry
	KindType  ListKind = 2 // a TYPELIST entry
)

// Header is the on-disk header at offset 0.
type Header struct {
	Magic         [4]byte           // Magic
	Version       uint32            // Version
	RecordBytes   uint32            // sum of the record lengths
	Count         uint32            // number of records
	FirstRecord   uint32            // HeaderSize + ListEntrySize * ListCount + 4 * OrbitWords
	OrbitWords    uint32            // dwords of the ORBIT table after the list table
	MaxDataLength uint16            // MAXDATALENGTH
	Reserved1A    uint16            // 0
	Major         uint16            // major code
	ModName       [ModNameSize]byte // module name, NUL-padded
	ListCount     uint16            // TYPELIST + GROUPLIST entries
	TDFID         uint16            // TDFID
	Reserved122   [34]byte          // zero
}

// ListEntry is one on-disk entry of the list table.
type ListEntry struct {
	Name [ListNameSize + 1]byte // NUL-padded; the last byte is always NUL
	Kind ListKind
	ID   uint16
}

// RecordHeader is the on-disk fixed part of a tracepoint record.
type RecordHeader struct {
	Len      uint16 // RecordHeaderSize + RPNLen
	TypeMask uint16 // OR of the TYPE ids
	Group    uint16 // GROUP id
	Object   uint32 // LX object number of the tracepoint address
	Offset   uint32 // offset of the tracepoint address in the object
	Minor    uint16
	Major    uint16
	RPNLen   uint16
	Opcode   uint8 // the byte the module has at the address
	Reserved uint8 // 0
}

// ListItem is a TYPELIST or GROUPLIST entry.
type ListItem struct {
	Name string // at most ListNameSize bytes, no NUL
	ID   uint16
}

// Tracepoint is one tracepoint record.
type Tracepoint struct {
	TypeMask uint16
	Group    uint16
	Object   uint32
	Offset   uint32
	Minor    uint16
	Major    uint16 // the file's major code in every file TRCUST writes
	Opcode   uint8
	RPN      []byte
}

// File is a trace definition file.
type File struct {
	MaxDataLength uint16
	Major         uint16
	// ModName is the module the tracepoints apply to, as stored: TRCUST
	// strips the path unless /P is given.
	ModName string
	TDFID   uint16
	Types   []ListItem
	Groups  []ListItem
	// GroupsFirst: the GROUPLIST entries come before the TYPELIST entries
	// in the list table. TRCUST 3.05A writes the two lists in the order of
	// the TSF (IBM's behaviour: a GROUPLIST statement before the TYPELIST
	// gives its entries first).
	GroupsFirst bool
	// ListOrder, when not nil, is the kind of each list entry in the
	// order of the list table, for a table whose entries of one list do
	// not stand together: TRCUST 3.05A writes the entries in the order of
	// the TSF, so a second TYPELIST after a GROUPLIST puts its entries
	// after the GROUPLIST's (IBM's behaviour). It holds len(Types) KindType
	// and len(Groups) KindGroup; GroupsFirst is not used then.
	ListOrder []ListKind
	// Orbit is the ORBIT table, one dword for each ORBIT index from 0 to
	// the highest any ORBIT=(a,b) of the TSF names (b), written after the
	// list table. TRCUST 3.05A writes it, all zero, only when an
	// ORBIT=(0,1) asked it for a bit (IBM's behaviour; docs/tdf.md); nil
	// otherwise.
	Orbit []uint32
	// Tracepoints are sorted by (Object, Offset) when Parse made them;
	// MarshalBinary sorts them itself.
	Tracepoints []Tracepoint
}

// FormatError reports a malformed file: Off is the byte offset at which the
// problem lies and Msg says what is wrong.
type FormatError struct {
	Off int64
	Msg string
}

// Error implements error.
func (e *FormatError) Error() string {
	return fmt.Sprintf("tdf: offset 0x%04X: %s", e.Off, e.Msg)
}

func errorf(off int64, format string, args ...any) *FormatError {
	return &FormatError{Off: off, Msg: fmt.Sprintf(format, args...)}
}

var le = binary.LittleEndian

// Parse reads a TDF in the canonical form TRCUST writes. It returns a
// *FormatError for anything else: a bad magic or version, a truncated
// header, list table or record, reserved bytes that are not zero, a module
// name or list name with bytes after its NUL or a module name without one,
// a list kind other than 1 or 2 or a TYPELIST entry after a GROUPLIST
// entry, a first-record offset or record byte total that does not match, a
// record length that does not match its RPN length, records not sorted by
// (object, offset) or two at one address, and bytes after the last record.
// The RPN programs are not decoded.
//
// The returned File does not share memory with data.
func Parse(data []byte) (*File, error) {
	f, err := parse(data)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// ParsePartial is Parse for a damaged file: with the error it returns what
// was read before the problem (the header, the lists and the records before
// it), or nil when not even the header could be read, so that a dump can
// show it.
func ParsePartial(data []byte) (*File, error) {
	return parse(data)
}

// parse is Parse; after an error, f holds what was read before it.
func parse(data []byte) (*File, error) {
	size := int64(len(data))
	if len(data) < len(Magic) || string(data[:len(Magic)]) != Magic {
		return nil, errorf(0, "bad magic %q, want %q", data[:min(len(data), len(Magic))], Magic)
	}
	if size < HeaderSize {
		return nil, errorf(size, "truncated header: the file is %d bytes, the header needs %d", size, HeaderSize)
	}
	h := decodeHeader(data)
	if h.Version != Version {
		return nil, errorf(4, "version %d, want %d", h.Version, Version)
	}
	if h.Reserved1A != 0 {
		return nil, errorf(0x1A, "reserved field is 0x%X, want 0", h.Reserved1A)
	}
	if i := bytes.IndexFunc(h.Reserved122[:], func(r rune) bool { return r != 0 }); i >= 0 {
		return nil, errorf(0x122+int64(i), "reserved header byte is 0x%02X, want 0", h.Reserved122[i])
	}
	name, err := cString(h.ModName[:], 0x1E, "module name")
	if err != nil {
		return nil, err
	}
	if i := bytes.IndexByte(h.ModName[:], 0); i < 0 {
		return nil, errorf(0x1E+ModNameSize-1, "module name fills all %d bytes of its field and has no NUL", ModNameSize)
	}
	f := &File{MaxDataLength: h.MaxDataLength, Major: h.Major, ModName: name, TDFID: h.TDFID}

	lists := int64(HeaderSize) + ListEntrySize*int64(h.ListCount)
	if lists > size {
		return f, errorf(size, "truncated list table: %d entries need bytes 0x%X-0x%X, but the file is %d bytes", h.ListCount, HeaderSize, lists-1, size)
	}
	first := lists + 4*int64(h.OrbitWords)
	if first > size {
		return f, errorf(size, "truncated ORBIT table: %d dwords need bytes 0x%X-0x%X, but the file is %d bytes", h.OrbitWords, lists, first-1, size)
	}
	if int64(h.FirstRecord) != first {
		return f, errorf(0x10, "first record offset is 0x%X, want 0x%X after %d list entries and %d ORBIT dwords", h.FirstRecord, first, h.ListCount, h.OrbitWords)
	}
	var order []ListKind
	defer func() { f.GroupsFirst, f.ListOrder = ListLayout(order) }()
	for i := range int(h.ListCount) {
		off := int64(HeaderSize + i*ListEntrySize)
		e := decodeListEntry(data[off:])
		name, err := cString(e.Name[:], off, "list entry name")
		if err != nil {
			return f, err
		}
		if e.Name[ListNameSize] != 0 {
			return f, errorf(off+ListNameSize, "list entry name %q has no NUL in its %d bytes", e.Name[:], ListNameSize+1)
		}
		item := ListItem{Name: name, ID: e.ID}
		switch e.Kind {
		case KindType:
			f.Types = append(f.Types, item)
			order = append(order, KindType)
		case KindGroup:
			f.Groups = append(f.Groups, item)
			order = append(order, KindGroup)
		default:
			return f, errorf(off+9, "list entry %q has kind %d, want 1 (GROUPLIST) or 2 (TYPELIST)", name, e.Kind)
		}
	}

	if h.OrbitWords > 0 {
		f.Orbit = make([]uint32, h.OrbitWords)
		for i := range f.Orbit {
			f.Orbit[i] = le.Uint32(data[lists+4*int64(i):])
		}
	}

	// Every record takes at least RecordHeaderSize bytes: a count the file
	// cannot hold is rejected before anything is allocated.
	// The records that fit are still read, for ParsePartial.
	n := int(h.Count)
	var countErr error
	if room := (size - first) / RecordHeaderSize; int64(h.Count) > room {
		countErr = errorf(0x0C, "record count %d, but the %d bytes after the list table hold at most %d records", h.Count, size-first, room)
		n = int(room)
	}
	f.Tracepoints = make([]Tracepoint, 0, n)
	off := first
	for i := range n {
		if off+RecordHeaderSize > size {
			return f, firstErr(countErr, errorf(size, "record %d at 0x%X: truncated header (%d bytes left, want %d)", i, off, size-off, RecordHeaderSize))
		}
		r := decodeRecordHeader(data[off:])
		if int(r.Len) != RecordHeaderSize+int(r.RPNLen) {
			return f, firstErr(countErr, errorf(off, "record %d: length %d, want %d for an RPN program of %d bytes", i, r.Len, RecordHeaderSize+int(r.RPNLen), r.RPNLen))
		}
		if r.Reserved != 0 {
			return f, firstErr(countErr, errorf(off+21, "record %d: reserved byte is 0x%02X, want 0", i, r.Reserved))
		}
		end := off + int64(r.Len)
		if end > size {
			return f, firstErr(countErr, errorf(off+18, "record %d: RPN program of %d bytes runs past the end of the file (%d bytes)", i, r.RPNLen, size))
		}
		if i > 0 {
			p := &f.Tracepoints[i-1]
			switch c := compareAddr(p.Object, p.Offset, r.Object, r.Offset); {
			case c == 0:
				return f, firstErr(countErr, errorf(off+6, "record %d: a second tracepoint at %08X:%08X", i, r.Object, r.Offset))
			case c > 0:
				return f, firstErr(countErr, errorf(off+6, "record %d: address %08X:%08X follows %08X:%08X; records are sorted by object and offset", i, r.Object, r.Offset, p.Object, p.Offset))
			}
		}
		f.Tracepoints = append(f.Tracepoints, Tracepoint{
			TypeMask: r.TypeMask, Group: r.Group, Object: r.Object, Offset: r.Offset,
			Minor: r.Minor, Major: r.Major, Opcode: r.Opcode,
			RPN: bytes.Clone(data[off+RecordHeaderSize : end]),
		})
		off = end
	}
	if countErr != nil {
		return f, countErr
	}
	if sum := off - first; int64(h.RecordBytes) != sum {
		return f, errorf(0x08, "record byte total is 0x%X, the records take 0x%X", h.RecordBytes, sum)
	}
	if off < size {
		return f, errorf(off, "the file goes on for %d bytes after the last record", size-off)
	}
	return f, nil
}

// firstErr returns a when it is set, else b: a record count the file cannot
// hold is the problem to report, not the truncated record it leads to.
func firstErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
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

// cString returns the NUL-padded string in b, which starts at file offset
// off; bytes after the first NUL must be NUL too.
func cString(b []byte, off int64, what string) (string, error) {
	n := bytes.IndexByte(b, 0)
	if n < 0 {
		return string(b), nil
	}
	for i := n; i < len(b); i++ {
		if b[i] != 0 {
			return "", errorf(off+int64(i), "%s %q is followed by the byte 0x%02X after its NUL; the field is NUL-padded", what, b[:n], b[i])
		}
	}
	return string(b[:n]), nil
}

func compareAddr(obj1, off1, obj2, off2 uint32) int {
	if c := cmp.Compare(obj1, obj2); c != 0 {
		return c
	}
	return cmp.Compare(off1, off2)
}

func decodeHeader(b []byte) Header {
	var h Header
	copy(h.Magic[:], b[0:4])
	h.Version = le.Uint32(b[0x04:])
	h.RecordBytes = le.Uint32(b[0x08:])
	h.Count = le.Uint32(b[0x0C:])
	h.FirstRecord = le.Uint32(b[0x10:])
	h.OrbitWords = le.Uint32(b[0x14:])
	h.MaxDataLength = le.Uint16(b[0x18:])
	h.Reserved1A = le.Uint16(b[0x1A:])
	h.Major = le.Uint16(b[0x1C:])
	copy(h.ModName[:], b[0x1E:0x11E])
	h.ListCount = le.Uint16(b[0x11E:])
	h.TDFID = le.Uint16(b[0x120:])
	copy(h.Reserved122[:], b[0x122:HeaderSize])
	return h
}

func decodeListEntry(b []byte) ListEntry {
	var e ListEntry
	copy(e.Name[:], b[:ListNameSize+1])
	e.Kind = ListKind(b[9])
	e.ID = le.Uint16(b[10:])
	return e
}

func decodeRecordHeader(b []byte) RecordHeader {
	return RecordHeader{
		Len:      le.Uint16(b[0:]),
		TypeMask: le.Uint16(b[2:]),
		Group:    le.Uint16(b[4:]),
		Object:   le.Uint32(b[6:]),
		Offset:   le.Uint32(b[10:]),
		Minor:    le.Uint16(b[14:]),
		Major:    le.Uint16(b[16:]),
		RPNLen:   le.Uint16(b[18:]),
		Opcode:   b[20],
		Reserved: b[21],
	}
}

// SortByAddress puts f.Tracepoints in the order a TDF holds them: by
// (object, offset), keeping the given order for equal addresses. Write
// writes them in that order whatever the order in f.
func (f *File) SortByAddress() {
	order := f.sortedOrder()
	sorted := make([]Tracepoint, len(order))
	for k, i := range order {
		sorted[k] = f.Tracepoints[i]
	}
	copy(f.Tracepoints, sorted)
}

// sortedOrder returns the indexes of f.Tracepoints sorted by address, keeping
// source order for equal addresses.
func (f *File) sortedOrder() []int {
	order := make([]int, len(f.Tracepoints))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		x, y := &f.Tracepoints[a], &f.Tracepoints[b]
		return compareAddr(x.Object, x.Offset, y.Object, y.Offset)
	})
	return order
}

// ListLayout says how list entries of the kinds given, in table order,
// stand: all of one list then all of the other (groupsFirst when the
// GROUPLIST entries come first: File.GroupsFirst), or in another order,
// returned for File.ListOrder (nil otherwise).
func ListLayout(kinds []ListKind) (groupsFirst bool, order []ListKind) {
	changes := 0
	for i := 1; i < len(kinds); i++ {
		if kinds[i] != kinds[i-1] {
			changes++
		}
	}
	if changes > 1 {
		return false, kinds
	}
	return changes == 1 && kinds[0] == KindGroup, nil
}
