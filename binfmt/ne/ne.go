// Package ne reads 16-bit OS/2 (and Windows) NE ("new executable",
// segmented) modules as far as tracekit needs them: the header, the module
// type, the segment table, the resident and non-resident name tables, the
// module reference table and the entry table, and the bytes of a segment.
//
// It is modelled on debug/pe: Header and SegmentHeader mirror the on-disk
// structures field by field; NewFile reads the tables; ReadSegment reads a
// segment's data on demand. The resource table and the per-segment
// relocation records are not read (ReadSegment returns the stored bytes
// without fixups). docs/lx.md describes the NE layout next to LX.
//
// Every count and offset is checked against the file size before it is
// used; bad input gives a *FormatError with the byte offset, never a panic.
package ne

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/tracekit/tracekit/binfmt/lx"
)

// FormatError reports a malformed or unsupported module. Off is the byte
// offset in the file where the problem was found.
type FormatError struct {
	Off int64
	Msg string
}

// Error returns "ne: MSG at offset 0xOFF".
func (e *FormatError) Error() string {
	return fmt.Sprintf("ne: %s at offset 0x%X", e.Msg, e.Off)
}

func errorf(off int64, format string, args ...any) error {
	return &FormatError{Off: off, Msg: fmt.Sprintf(format, args...)}
}

// HeaderSize is the size of the NE header.
const HeaderSize = 0x40

// Header mirrors the NE header field by field. Table offsets called
// "NE-relative" count from the "NE" signature.
type Header struct {
	Magic             [2]byte // "NE"
	LinkerVersion     uint8
	LinkerRevision    uint8
	EntryTable        uint16 // NE-relative offset of the entry table
	EntryTableLen     uint16 // entry table size in bytes
	CRC               uint32 // whole-file checksum (0 when not computed)
	Flags             uint16 // Flag* bits and the AppType field
	AutoDataSegment   uint16 // automatic data segment number (0 = none)
	HeapSize          uint16 // initial local heap size
	StackSize         uint16 // initial stack size
	IP                uint16 // entry point offset
	CS                uint16 // entry point segment number
	SP                uint16 // initial stack pointer
	SS                uint16 // stack segment number
	SegmentCount      uint16 // segment table entries
	ModuleRefCount    uint16 // module reference table entries
	NonResNamesLen    uint16 // non-resident name table size in bytes
	SegmentTable      uint16 // NE-relative offset of the segment table
	ResourceTable     uint16 // NE-relative offset of the resource table
	ResidentNameTable uint16 // NE-relative offset of the resident name table
	ModuleRefTable    uint16 // NE-relative offset of the module reference table
	ImportedNameTable uint16 // NE-relative offset of the imported name table
	NonResNameTable   uint32 // file-relative offset of the non-resident name table
	MovableEntryCount uint16 // movable entries in the entry table
	AlignShift        uint16 // segment sector shift (0 means 9)
	ResourceSegments  uint16 // number of resource segments
	TargetOS          uint8  // OS* value
	OtherFlags        uint8  // OS/2: long file names, protected-mode only, ...
	GangloadOffset    uint16 // fast-load area (sectors)
	GangloadLength    uint16 // fast-load area length (sectors)
	MinCodeSwap       uint16 // minimum code swap area size
	ExpectedVersion   uint16 // expected Windows version (Windows modules)
}

// Module flag bits (Header.Flags), named after OS/2's newexe.h.
const (
	FlagSingleData     uint16 = 0x0001 // NESOLO: one shared data segment
	FlagMultipleData   uint16 = 0x0002 // NEINST: one data segment per instance
	FlagPerProcessInit uint16 = 0x0004 // NEPPLI: per-process library initialisation
	FlagProtectedMode  uint16 = 0x0008 // NEPROT: runs in protected mode only
	Flag8086           uint16 = 0x0010 // NEI086
	Flag286            uint16 = 0x0020 // NEI286
	Flag386            uint16 = 0x0040 // NEI386
	FlagFloat          uint16 = 0x0080 // NEFLTP: floating-point instructions
	AppTypeMask        uint16 = 0x0700 // NEAPPTYP: one of the AppType values
	FlagBound          uint16 = 0x0800 // NEBOUND: bound family API application
	FlagLinkErrors     uint16 = 0x2000 // NEIERR: errors in the image
	FlagLibrary        uint16 = 0x8000 // NENOTP: a library (DLL), not a program
)

// Application types (Header.Flags & AppTypeMask).
const (
	AppNotPMCompatible uint16 = 0x0100
	AppPMCompatible    uint16 = 0x0200
	AppPMUses          uint16 = 0x0300
)

// Target operating systems (Header.TargetOS).
const (
	OSUnknown uint8 = 0
	OSOS2     uint8 = 1
	OSWindows uint8 = 2
	OSDOS4    uint8 = 3
	OSWin386  uint8 = 4
)

// ModuleType is an NE module's type.
type ModuleType int

// Module types.
const (
	ModProgram ModuleType = iota // EXE
	ModLibrary                   // DLL
)

// String returns "EXE" or "DLL".
func (t ModuleType) String() string {
	if t == ModLibrary {
		return "DLL"
	}
	return "EXE"
}

// Segment flag bits (SegmentHeader.Flags), named after newexe.h.
const (
	SegTypeMask    uint16 = 0x0007 // NSTYPE
	SegData        uint16 = 0x0001 // NSDATA (type 0 is code)
	SegIterated    uint16 = 0x0008 // NSITER: data stored as iteration records
	SegMovable     uint16 = 0x0010 // NSMOVE
	SegShared      uint16 = 0x0020 // NSSHARED / pure
	SegPreload     uint16 = 0x0040 // NSPRELOAD
	SegReadOnly    uint16 = 0x0080 // NSEXRD: execute-only code or read-only data
	SegRelocs      uint16 = 0x0100 // NSRELOC: relocation records follow the data
	SegConforming  uint16 = 0x0200 // NSCONFORM
	SegDPLMask     uint16 = 0x0C00 // NSDPL: privilege level << 10
	SegDiscardable uint16 = 0x1000 // NSDISCARD
	Seg32Bit       uint16 = 0x2000 // NS32BIT
	SegHuge        uint16 = 0x4000 // NSHUGE
)

// SegmentHeader mirrors one 8-byte segment table entry.
type SegmentHeader struct {
	Sector   uint16 // data offset in sectors (<< alignment shift); 0 = no data
	Length   uint16 // bytes in the file; 0 means 65536 when Sector != 0
	Flags    uint16 // Seg* bits
	MinAlloc uint16 // bytes to allocate; 0 means 65536
}

// Segment is a segment table entry with its decoded sizes.
type Segment struct {
	SegmentHeader
	Number   int    // 1-based
	Offset   int64  // file offset of the data, 0 when the segment has none
	FileSize uint32 // bytes of data in the file (Length, 0 meaning 65536)
	Alloc    uint32 // memory size: the larger of MinAlloc (0 meaning 65536) and FileSize
}

// IsData reports whether the segment is a data segment.
func (s *Segment) IsData() bool { return s.Flags&SegTypeMask == SegData }

// IsCode reports whether the segment is a code segment.
func (s *Segment) IsCode() bool { return s.Flags&SegTypeMask == 0 }

// FlagsString names the segment flags, e.g. "CODE|MOVABLE|PRELOAD|DPL3".
func (s *Segment) FlagsString() string { return SegmentFlagsString(s.Flags) }

// SegmentFlagsString names segment flags.
func SegmentFlagsString(fl uint16) string {
	out := "CODE"
	switch fl & SegTypeMask {
	case 0:
	case SegData:
		out = "DATA"
	default:
		out = fmt.Sprintf("TYPE%d", fl&SegTypeMask)
	}
	for _, n := range []struct {
		bit  uint16
		name string
	}{
		{SegIterated, "ITERATED"}, {SegMovable, "MOVABLE"}, {SegShared, "SHARED"},
		{SegPreload, "PRELOAD"}, {SegReadOnly, "READONLY"}, {SegRelocs, "RELOCS"},
		{SegConforming, "CONFORM"}, {SegDiscardable, "DISCARD"}, {Seg32Bit, "32BIT"},
		{SegHuge, "HUGE"}, {0x8000, "0x8000"},
	} {
		if fl&n.bit != 0 {
			out += "|" + n.name
		}
	}
	return out + fmt.Sprintf("|DPL%d", (fl&SegDPLMask)>>10)
}

// Name is one entry of the resident or non-resident name table.
type Name struct {
	Name    string
	Ordinal uint16
}

// Entry is one entry point of the entry table.
type Entry struct {
	Ordinal uint16
	Movable bool   // from a movable bundle (the entry has an INT 3Fh thunk)
	Segment uint8  // segment number; 0xFE for a constant (absolute) entry
	Flags   uint8  // EntryExported, EntrySharedData, parameter words << 3
	Offset  uint16 // offset in Segment, or the constant value
}

// Entry flag bits.
const (
	EntryExported   uint8 = 0x01
	EntrySharedData uint8 = 0x02 // uses the shared (global) data segment
	EntryParamMask  uint8 = 0xF8 // parameter words << 3 (ring-transition entries)
)

// ConstantSegment is the segment indicator of constant (absolute) entries.
const ConstantSegment = 0xFE

// File is an open NE module.
type File struct {
	Header
	HeaderOffset int64 // file offset of the "NE" signature
	Size         int64 // input size in bytes

	Segments         []*Segment // Segments[0] is segment 1
	ModuleName       string     // first resident name entry
	Description      string     // first non-resident name entry
	ResidentNames    []Name     // after the module name
	NonResidentNames []Name     // after the description
	ImportModules    []string   // module reference table; index 0 is module 1
	Entries          []Entry    // by ordinal

	r      io.ReaderAt
	closer io.Closer
}

// Open opens the named file and reads it as an NE module.
func Open(name string) (*File, error) {
	fh, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	f, err := NewFile(fh)
	if err != nil {
		fh.Close()
		return nil, err
	}
	f.closer = fh
	return f, nil
}

// Close closes the file opened by Open; it does nothing for NewFile.
func (f *File) Close() error {
	if f.closer == nil {
		return nil
	}
	err := f.closer.Close()
	f.closer = nil
	return err
}

// NewFile reads an NE module from r, which must stay readable while the
// File is used.
func NewFile(r io.ReaderAt) (*File, error) {
	size, err := lx.Size(r)
	if err != nil {
		return nil, err
	}
	kind, off, err := lx.Identify(io.NewSectionReader(r, 0, size))
	if err != nil {
		if fe, ok := err.(*lx.FormatError); ok {
			return nil, &FormatError{Off: fe.Off, Msg: fe.Msg}
		}
		return nil, err
	}
	switch kind {
	case lx.FormatNE:
	case lx.FormatLX, lx.FormatLE, lx.FormatPE:
		return nil, errorf(off, "%s, not an NE module", kind)
	case lx.FormatDOS:
		return nil, errorf(0, "not an NE module: DOS MZ executable without an NE header")
	default:
		return nil, errorf(0, "not an NE module: no MZ or NE signature")
	}
	f := &File{HeaderOffset: off, Size: size, r: r}
	b, err := f.read(off, HeaderSize, "NE header")
	if err != nil {
		return nil, err
	}
	if _, err := binary.Decode(b, binary.LittleEndian, &f.Header); err != nil {
		return nil, errorf(off, "decoding NE header: %v", err)
	}
	if f.AlignShift > 16 {
		return nil, errorf(off+0x32, "segment alignment shift %d is larger than 16", f.AlignShift)
	}
	for _, step := range []func() error{f.readSegments, f.readNames, f.readModuleRefs, f.readEntries} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return f, nil
}

func (f *File) read(off, n int64, what string) ([]byte, error) {
	if off < 0 || n < 0 || off > f.Size || n > f.Size-off {
		return nil, errorf(off, "truncated: %s needs %d bytes at 0x%X, the file has %d", what, n, off, f.Size)
	}
	b := make([]byte, n)
	if n == 0 {
		return b, nil
	}
	if _, err := f.r.ReadAt(b, off); err != nil {
		return nil, errorf(off, "reading %s: %v", what, err)
	}
	return b, nil
}

func (f *File) neOff(rel uint16) int64 { return f.HeaderOffset + int64(rel) }

// shift returns the segment sector shift (0 in the header means 9).
func (f *File) shift() uint {
	if f.AlignShift == 0 {
		return 9
	}
	return uint(f.AlignShift)
}

func (f *File) readSegments() error {
	if f.SegmentCount == 0 {
		return nil
	}
	tab := f.neOff(f.SegmentTable)
	b, err := f.read(tab, int64(f.SegmentCount)*8, "segment table")
	if err != nil {
		return err
	}
	f.Segments = make([]*Segment, f.SegmentCount)
	for i := range f.Segments {
		e := b[i*8:]
		s := &Segment{Number: i + 1}
		s.Sector = binary.LittleEndian.Uint16(e)
		s.Length = binary.LittleEndian.Uint16(e[2:])
		s.Flags = binary.LittleEndian.Uint16(e[4:])
		s.MinAlloc = binary.LittleEndian.Uint16(e[6:])
		if s.Sector != 0 {
			s.Offset = int64(s.Sector) << f.shift()
			s.FileSize = uint32(s.Length)
			if s.FileSize == 0 {
				s.FileSize = 0x10000
			}
			if s.Offset > f.Size || int64(s.FileSize) > f.Size-s.Offset {
				return errorf(s.Offset, "truncated: segment %d needs %d bytes at 0x%X, the file has %d", i+1, s.FileSize, s.Offset, f.Size)
			}
		}
		s.Alloc = uint32(s.MinAlloc)
		if s.Alloc == 0 {
			s.Alloc = 0x10000
		}
		if s.Flags&SegIterated == 0 && s.FileSize > s.Alloc {
			s.Alloc = s.FileSize
		}
		f.Segments[i] = s
	}
	return nil
}

// nameTable reads length-prefixed names with ordinals from [off, end).
func (f *File) nameTable(off, end int64, what string) ([]Name, error) {
	if end > f.Size {
		end = f.Size
	}
	var names []Name
	for off < end {
		b, err := f.read(off, 1, what)
		if err != nil {
			return nil, err
		}
		n := int64(b[0])
		if n == 0 {
			break
		}
		if n+3 > end-off {
			return nil, errorf(off, "truncated: %s entry of %d bytes runs past 0x%X", what, n, end)
		}
		e, err := f.read(off+1, n+2, what)
		if err != nil {
			return nil, err
		}
		names = append(names, Name{Name: string(e[:n]), Ordinal: binary.LittleEndian.Uint16(e[n:])})
		off += 1 + n + 2
	}
	return names, nil
}

func (f *File) readNames() error {
	if f.ResidentNameTable != 0 {
		names, err := f.nameTable(f.neOff(f.ResidentNameTable), f.Size, "resident name table")
		if err != nil {
			return err
		}
		if len(names) > 0 {
			f.ModuleName, f.ResidentNames = names[0].Name, names[1:]
		}
	}
	if f.NonResNameTable != 0 && f.NonResNamesLen != 0 {
		start := int64(f.NonResNameTable)
		end := start + int64(f.NonResNamesLen)
		if start > f.Size || end > f.Size {
			return errorf(start, "truncated: non-resident name table needs %d bytes at 0x%X, the file has %d", f.NonResNamesLen, start, f.Size)
		}
		names, err := f.nameTable(start, end, "non-resident name table")
		if err != nil {
			return err
		}
		if len(names) > 0 {
			f.Description, f.NonResidentNames = names[0].Name, names[1:]
		}
	}
	return nil
}

func (f *File) readModuleRefs() error {
	if f.ModuleRefCount == 0 {
		return nil
	}
	b, err := f.read(f.neOff(f.ModuleRefTable), int64(f.ModuleRefCount)*2, "module reference table")
	if err != nil {
		return err
	}
	base := f.neOff(f.ImportedNameTable)
	for i := 0; i < int(f.ModuleRefCount); i++ {
		at := base + int64(binary.LittleEndian.Uint16(b[i*2:]))
		n, err := f.read(at, 1, "imported name table")
		if err != nil {
			return err
		}
		s, err := f.read(at+1, int64(n[0]), "imported name table")
		if err != nil {
			return err
		}
		f.ImportModules = append(f.ImportModules, string(s))
	}
	return nil
}

func (f *File) readEntries() error {
	if f.EntryTableLen == 0 {
		return nil
	}
	start := f.neOff(f.EntryTable)
	b, err := f.read(start, int64(f.EntryTableLen), "entry table")
	if err != nil {
		return err
	}
	ord := 1
	for i := 0; i < len(b); {
		cnt := int(b[i])
		if cnt == 0 {
			break
		}
		if i+1 >= len(b) {
			return errorf(start+int64(i), "truncated: entry bundle header runs past the entry table")
		}
		seg := b[i+1]
		i += 2
		if ord+cnt-1 > 0xFFFF {
			return errorf(start+int64(i-2), "entry table: ordinals run past 65535")
		}
		size := 3
		switch seg {
		case 0:
			ord += cnt
			continue
		case 0xFF:
			size = 6
		}
		if cnt*size > len(b)-i {
			return errorf(start+int64(i-2), "truncated: entry bundle of %d entries runs past the entry table", cnt)
		}
		for k := 0; k < cnt; k++ {
			e := Entry{Ordinal: uint16(ord), Flags: b[i], Segment: seg}
			if seg == 0xFF {
				e.Movable = true
				e.Segment = b[i+3]
				e.Offset = binary.LittleEndian.Uint16(b[i+4:])
			} else {
				e.Offset = binary.LittleEndian.Uint16(b[i+1:])
			}
			f.Entries = append(f.Entries, e)
			i += size
			ord++
		}
	}
	return nil
}

// ModuleType returns ModLibrary for a DLL and ModProgram otherwise.
func (f *File) ModuleType() ModuleType {
	if f.Flags&FlagLibrary != 0 {
		return ModLibrary
	}
	return ModProgram
}

// Segment returns segment n (1-based), or nil.
func (f *File) Segment(n int) *Segment {
	if n < 1 || n > len(f.Segments) {
		return nil
	}
	return f.Segments[n-1]
}

// EntryByOrdinal returns the entry with the given ordinal.
func (f *File) EntryByOrdinal(ord uint16) (Entry, bool) {
	i := sort.Search(len(f.Entries), func(i int) bool { return f.Entries[i].Ordinal >= ord })
	if i < len(f.Entries) && f.Entries[i].Ordinal == ord {
		return f.Entries[i], true
	}
	return Entry{}, false
}

// Export is an exported name resolved through the entry table.
type Export struct {
	Name     string
	Ordinal  uint16
	Resident bool
	Segment  int    // 0 when the ordinal has no entry; ConstantSegment for constants
	Offset   uint16 // offset in Segment (or the constant value)
	Found    bool   // the ordinal has an entry
}

// Exports returns the names of both name tables resolved through the entry
// table, sorted by ordinal and name.
func (f *File) Exports() []Export {
	var out []Export
	for _, t := range []struct {
		names    []Name
		resident bool
	}{{f.ResidentNames, true}, {f.NonResidentNames, false}} {
		for _, n := range t.names {
			x := Export{Name: n.Name, Ordinal: n.Ordinal, Resident: t.resident}
			if e, ok := f.EntryByOrdinal(n.Ordinal); ok {
				x.Segment, x.Offset, x.Found = int(e.Segment), e.Offset, true
			}
			out = append(out, x)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Ordinal != out[j].Ordinal {
			return out[i].Ordinal < out[j].Ordinal
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// ReadSegment returns n bytes of segment seg (1-based) at offset off, as
// loaded before relocation: the stored data (iterated segments expanded)
// followed by zeros up to the allocation size. The range must lie inside
// the segment's allocation (Segment.Alloc).
func (f *File) ReadSegment(seg int, off uint32, n int) ([]byte, error) {
	s := f.Segment(seg)
	if s == nil {
		return nil, fmt.Errorf("ne: segment %d does not exist (the module has %d segments)", seg, len(f.Segments))
	}
	if n < 0 || uint64(off)+uint64(n) > uint64(s.Alloc) {
		return nil, fmt.Errorf("ne: segment %d: range 0x%X..0x%X is outside the segment (size 0x%X)", seg, off, uint64(off)+uint64(max(n, 0)), s.Alloc)
	}
	data, err := f.segmentData(s)
	if err != nil {
		return nil, err
	}
	out := make([]byte, n)
	if uint64(off) < uint64(len(data)) {
		copy(out, data[off:])
	}
	return out, nil
}

// segmentData returns the segment's bytes as stored (expanded when
// iterated), at most Alloc bytes.
func (f *File) segmentData(s *Segment) ([]byte, error) {
	if s.Offset == 0 {
		return nil, nil
	}
	raw, err := f.read(s.Offset, int64(s.FileSize), fmt.Sprintf("segment %d", s.Number))
	if err != nil {
		return nil, err
	}
	if s.Flags&SegIterated == 0 {
		return raw, nil
	}
	buf := make([]byte, s.Alloc)
	if _, err := lx.UnpackIterated(buf, raw); err != nil {
		if fe, ok := err.(*lx.FormatError); ok {
			return nil, errorf(s.Offset+fe.Off, "segment %d iterated data: %s", s.Number, fe.Msg)
		}
		return nil, err
	}
	return buf, nil
}
