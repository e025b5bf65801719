package lx

import "strings"

// HeaderSize is the size in bytes of the LX header as linkers write it: the
// fields of the 1992 specification up to HeapSize (0xAC bytes), the StackSize
// field of the later IBM specification and 20 reserved bytes.
const HeaderSize = 0xC4

// Header mirrors the LX header field by field, in file order. All offsets
// called "LX-relative" count from the first byte of the header (the "LX"
// signature); "file-relative" offsets count from the start of the file.
type Header struct {
	Magic             [2]byte // "LX"
	ByteOrder         uint8   // 0 little endian, 1 big endian
	WordOrder         uint8   // 0 little endian, 1 big endian
	FormatLevel       uint32  // 0 for the initial format
	CPU               uint16  // CPU286, CPU386, CPU486
	OS                uint16  // OSUnknown, OSOS2, ...
	ModuleVersion     uint32  // set by the user at link time
	ModuleFlags       uint32  // Flag* and ModType* bits
	ModulePages       uint32  // number of entries in the object page table
	EIPObject         uint32  // object of the entry point (0 = none)
	EIP               uint32  // entry point offset in EIPObject
	ESPObject         uint32  // object of the initial stack
	ESP               uint32  // initial stack pointer offset
	PageSize          uint32  // 4096 in every known module
	PageShift         uint32  // shift applied to the page data offsets
	FixupSize         uint32  // size of the fixup section
	FixupChecksum     uint32  // 0 when not computed
	LoaderSize        uint32  // size of the loader section
	LoaderChecksum    uint32  // 0 when not computed
	ObjectTable       uint32  // LX-relative offset of the object table
	ObjectCount       uint32  // number of objects
	ObjectPageTable   uint32  // LX-relative offset of the object page table
	IterPages         uint32  // file-relative offset of the iterated pages (0 = same as DataPages)
	ResourceTable     uint32  // LX-relative offset of the resource table
	ResourceCount     uint32  // number of resource table entries
	ResidentNameTable uint32  // LX-relative offset of the resident name table
	EntryTable        uint32  // LX-relative offset of the entry table
	DirectiveTable    uint32  // LX-relative offset of the module format directives table
	DirectiveCount    uint32  // number of module format directives
	FixupPageTable    uint32  // LX-relative offset of the fixup page table
	FixupRecordTable  uint32  // LX-relative offset of the fixup record table
	ImportModuleTable uint32  // LX-relative offset of the import module name table
	ImportModCount    uint32  // number of import module names
	ImportProcTable   uint32  // LX-relative offset of the import procedure name table
	PageChecksumTable uint32  // LX-relative offset of the per-page checksum table
	DataPages         uint32  // file-relative offset of the data pages
	PreloadPages      uint32  // number of preload pages
	NonResNameTable   uint32  // file-relative offset of the non-resident name table
	NonResNamesLen    uint32  // size in bytes of the non-resident name table
	NonResChecksum    uint32  // checksum of the non-resident name table
	AutoDataObject    uint32  // auto data segment object (16-bit compatibility)
	DebugInfo         uint32  // offset of the debug information (see docs/lx.md)
	DebugLen          uint32  // length of the debug information
	InstancePreload   uint32  // instance pages in the preload section
	InstanceDemand    uint32  // instance pages in the demand section
	HeapSize          uint32  // heap added to the auto data object (16-bit compatibility)
	StackSize         uint32  // stack size (later specification; not in the 1992 text)
	Reserved          [20]byte
}

// CPU types (Header.CPU).
const (
	CPU286 uint16 = 1
	CPU386 uint16 = 2
	CPU486 uint16 = 3
)

// Operating system types (Header.OS).
const (
	OSUnknown uint16 = 0
	OSOS2     uint16 = 1
	OSWindows uint16 = 2
	OSDOS4    uint16 = 3
	OSWin386  uint16 = 4
)

// Module flag bits (Header.ModuleFlags).
const (
	FlagPerProcessInit        uint32 = 0x00000004 // library initialisation per process
	FlagInternalFixupsApplied uint32 = 0x00000010 // objects have preferred load addresses
	FlagExternalFixupsApplied uint32 = 0x00000020
	FlagPMIncompatible        uint32 = 0x00000100 // not compatible with PM windowing
	FlagPMCompatible          uint32 = 0x00000200 // compatible with PM windowing
	FlagPMUses                uint32 = 0x00000300 // uses the PM windowing API (a two-bit value)
	FlagPMMask                uint32 = 0x00000300
	FlagNotLoadable           uint32 = 0x00002000 // link errors or incremental link
	FlagPerProcessTerm        uint32 = 0x40000000 // library termination per process
	ModTypeMask               uint32 = 0x00038000 // selects one of the ModType values
)

// ModuleType is the module type field of the module flags (ModTypeMask).
type ModuleType uint32

// Module types.
const (
	ModProgram     ModuleType = 0x00000 // EXE
	ModLibrary     ModuleType = 0x08000 // DLL
	ModProtLibrary ModuleType = 0x18000 // protected-memory DLL
	ModPDD         ModuleType = 0x20000 // physical device driver
	ModVDD         ModuleType = 0x28000 // virtual device driver
)

// String returns "EXE", "DLL", "PMEMDLL", "PDD", "VDD", or the value in hex.
func (t ModuleType) String() string {
	switch t {
	case ModProgram:
		return "EXE"
	case ModLibrary:
		return "DLL"
	case ModProtLibrary:
		return "PMEMDLL"
	case ModPDD:
		return "PDD"
	case ModVDD:
		return "VDD"
	}
	return "MODTYPE(0x" + hex32(uint32(t)) + ")"
}

// ModuleType returns the module type encoded in the module flags.
func (h *Header) ModuleType() ModuleType { return ModuleType(h.ModuleFlags & ModTypeMask) }

// IsLibrary reports whether the module is a DLL (protected-memory or not).
func (h *Header) IsLibrary() bool {
	t := h.ModuleType()
	return t == ModLibrary || t == ModProtLibrary
}

// Object flag bits (ObjectHeader.Flags).
const (
	ObjRead       uint32 = 0x0001
	ObjWrite      uint32 = 0x0002
	ObjExec       uint32 = 0x0004
	ObjResource   uint32 = 0x0008
	ObjDiscard    uint32 = 0x0010
	ObjShared     uint32 = 0x0020
	ObjPreload    uint32 = 0x0040
	ObjInvalid    uint32 = 0x0080 // has invalid pages
	ObjTypeMask   uint32 = 0x0700 // a value, not bits: one of the five below
	ObjNormal     uint32 = 0x0000 // swappable
	ObjZeroFill   uint32 = 0x0100 // has zero-filled pages
	ObjResident   uint32 = 0x0200 // resident (VDDs and PDDs only)
	ObjContiguous uint32 = 0x0300 // resident and contiguous (VDDs and PDDs only)
	ObjLongLock   uint32 = 0x0400 // resident and long-lockable (VDDs and PDDs only)
	ObjReserved   uint32 = 0x0800
	ObjAlias16    uint32 = 0x1000 // 16:16 alias required
	ObjBig        uint32 = 0x2000 // big/default bit: a 32-bit object
	ObjConforming uint32 = 0x4000 // conforming code
	ObjIOPL       uint32 = 0x8000 // I/O privilege (16:16 alias objects)
)

var objFlagNames = []struct {
	bit  uint32
	name string
}{
	{ObjRead, "READ"}, {ObjWrite, "WRITE"}, {ObjExec, "EXEC"}, {ObjResource, "RESOURCE"},
	{ObjDiscard, "DISCARD"}, {ObjShared, "SHARED"}, {ObjPreload, "PRELOAD"},
	{ObjInvalid, "INVALID"}, {ObjReserved, "RESERVED"},
	{ObjAlias16, "ALIAS16"}, {ObjBig, "BIG"}, {ObjConforming, "CONFORM"}, {ObjIOPL, "IOPL"},
}

// ObjectFlagsString names the set bits of object flags, e.g.
// "READ|EXEC|BIG", and the value of the ObjTypeMask field (ZEROFILL,
// RESIDENT, CONTIG, LONGLOCK); unknown bits are given in hex.
func ObjectFlagsString(fl uint32) string {
	var parts []string
	for _, n := range objFlagNames {
		if fl&n.bit != 0 {
			parts = append(parts, n.name)
		}
	}
	switch fl & ObjTypeMask {
	case ObjNormal:
	case ObjZeroFill:
		parts = append(parts, "ZEROFILL")
	case ObjResident:
		parts = append(parts, "RESIDENT")
	case ObjContiguous:
		parts = append(parts, "CONTIG")
	case ObjLongLock:
		parts = append(parts, "LONGLOCK")
	default:
		parts = append(parts, "OBJTYPE(0x"+hex32(fl&ObjTypeMask)+")")
	}
	if rest := fl &^ 0xFFFF; rest != 0 {
		parts = append(parts, "0x"+hex32(rest))
	}
	if len(parts) == 0 {
		return "0"
	}
	return strings.Join(parts, "|")
}

// ObjectHeader mirrors one 24-byte object table entry.
type ObjectHeader struct {
	VirtualSize    uint32 // size of the object in memory
	RelocBase      uint32 // preferred load address
	Flags          uint32 // Obj* bits
	PageTableIndex uint32 // first object page table entry (1-based)
	PageCount      uint32 // number of object page table entries
	Reserved       uint32
}

// Page flags (PageEntry.Flags).
const (
	PageLegal      uint16 = 0 // data in the file, zero-padded to the page size
	PageIterated   uint16 = 1 // EXEPACK1 iteration records
	PageInvalid    uint16 = 2 // no data; reads as zeros
	PageZeroFill   uint16 = 3 // no data; reads as zeros
	PageRange      uint16 = 4 // range of pages (not supported)
	PageCompressed uint16 = 5 // EXEPACK2 compressed data
)

// PageFlagString names a page flag: "legal", "iterated", "invalid",
// "zerofill", "range", "compressed" or the value.
func PageFlagString(fl uint16) string {
	switch fl {
	case PageLegal:
		return "legal"
	case PageIterated:
		return "iterated"
	case PageInvalid:
		return "invalid"
	case PageZeroFill:
		return "zerofill"
	case PageRange:
		return "range"
	case PageCompressed:
		return "compressed"
	}
	return "flag(" + hex32(uint32(fl)) + ")"
}

// PageEntry mirrors one 8-byte object page table entry.
type PageEntry struct {
	DataOffset uint32 // shifted left by Header.PageShift, see docs/lx.md
	DataSize   uint16 // bytes of page data in the file
	Flags      uint16 // Page* value
}

// Entry bundle types.
const (
	EntryUnused    uint8 = 0
	Entry16        uint8 = 1
	EntryCallGate  uint8 = 2
	Entry32        uint8 = 3
	EntryForwarder uint8 = 4
	EntryParamInfo uint8 = 0x80 // "parameter typing information present" bit
)

// Entry flag bits.
const (
	EntryExported      uint8 = 0x01 // 16-bit, call gate and 32-bit entries
	EntryParamMask     uint8 = 0xF8 // parameter word/dword count << 3
	ForwarderByOrdinal uint8 = 0x01 // forwarder imports by ordinal
)

func hex32(v uint32) string {
	const digits = "0123456789ABCDEF"
	if v == 0 {
		return "0"
	}
	var b [8]byte
	i := len(b)
	for v != 0 {
		i--
		b[i] = digits[v&15]
		v >>= 4
	}
	return string(b[i:])
}
