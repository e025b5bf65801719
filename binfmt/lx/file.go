// Package lx reads OS/2 LX (Linear eXecutable) modules: 32-bit EXEs, DLLs
// and device drivers (PDD, VDD).
//
// It is modelled on debug/pe and debug/elf. The on-disk structures (Header,
// ObjectHeader, PageEntry) mirror the IBM "LX - Linear eXecutable Module
// Format" description field by field; NewFile reads the MZ stub, the LX
// header and every table the TRCUST work needs (objects, object pages,
// resident and non-resident names, the entry table, resources and import
// module names), and ReadObject returns the bytes of an object as the loader
// would see them before fixups: legal pages, EXEPACK1 iterated pages,
// EXEPACK2 compressed pages, zero-filled and invalid pages. docs/lx.md
// describes the layout as this package reads it.
//
// Not read: the fixup page and fixup record tables (ReadObject returns the
// bytes stored in the file, without applying fixups), the import procedure
// name table, module format directives, per-page checksums and debug
// information. Big-endian modules (byte or word order 1) are rejected.
//
// Every count and offset is checked against the file size before anything
// is allocated or looped over; decompression never writes more than one page;
// bad input gives an error carrying the byte offset (*FormatError), never a
// panic.
package lx

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrTruncated is the kind of a FormatError for a file that ends before the
// bytes a structure needs: errors.Is(err, ErrTruncated).
var ErrTruncated = errors.New("truncated")

// FormatError reports a malformed or unsupported module. Off is the byte
// offset in the file where the problem was found.
type FormatError struct {
	Off int64
	Msg string
	Err error // the kind, for errors.Is: ErrTruncated, or nil
}

// Error returns "lx: MSG at offset 0xOFF".
func (e *FormatError) Error() string {
	return fmt.Sprintf("lx: %s at offset 0x%X", e.Msg, e.Off)
}

// Unwrap returns the kind of the error.
func (e *FormatError) Unwrap() error { return e.Err }

func errorf(off int64, format string, args ...any) error {
	return &FormatError{Off: off, Msg: fmt.Sprintf(format, args...)}
}

// truncatedf reports a file that ends too early: "truncated: ...".
func truncatedf(off int64, format string, args ...any) error {
	return &FormatError{Off: off, Msg: "truncated: " + fmt.Sprintf(format, args...), Err: ErrTruncated}
}

// Format names the kind of executable found by Identify.
type Format int

// The formats Identify tells apart.
const (
	FormatUnknown Format = iota // no MZ, LX or NE signature
	FormatDOS                   // MZ executable without a new-format header
	FormatLX                    // OS/2 2.x+ linear executable
	FormatLE                    // linear executable, LE variant (Windows VxD, early OS/2 VDDs)
	FormatNE                    // 16-bit segmented executable
	FormatPE                    // Win32 portable executable
)

// String returns a short description, e.g. "NE (16-bit) module".
func (f Format) String() string {
	switch f {
	case FormatDOS:
		return "DOS MZ executable"
	case FormatLX:
		return "LX module"
	case FormatLE:
		return "LE module"
	case FormatNE:
		return "NE (16-bit) module"
	case FormatPE:
		return "PE (Win32) module"
	}
	return "unknown format"
}

// Identify looks at the start of r: the MZ stub and the signature its e_lfanew
// field (offset 0x3C) points at, or a bare "LX"/"NE" signature at offset 0.
// It returns the format and the offset of the new-format header (0 for
// FormatDOS and FormatUnknown). The error is a *FormatError saying
// "truncated" when the file ends before the fields it needs.
func Identify(r io.ReaderAt) (Format, int64, error) {
	size, err := Size(r)
	if err != nil {
		return FormatUnknown, 0, err
	}
	return identify(r, size)
}

func identify(r io.ReaderAt, size int64) (Format, int64, error) {
	if size < 2 {
		return FormatUnknown, 0, truncatedf(0, "file is %d bytes, too short for a signature", size)
	}
	var sig [2]byte
	if _, err := r.ReadAt(sig[:], 0); err != nil {
		return FormatUnknown, 0, errorf(0, "reading signature: %v", err)
	}
	switch string(sig[:]) {
	case "LX":
		return FormatLX, 0, nil
	case "LE":
		return FormatLE, 0, nil
	case "NE":
		return FormatNE, 0, nil
	case "MZ":
	default:
		return FormatUnknown, 0, nil
	}
	if size < 0x40 {
		return FormatUnknown, 0, truncatedf(0x3C, "MZ stub is %d bytes, the new-header offset (e_lfanew) at 0x3C is missing", size)
	}
	var b [4]byte
	if _, err := r.ReadAt(b[:], 0x3C); err != nil {
		return FormatUnknown, 0, errorf(0x3C, "reading e_lfanew: %v", err)
	}
	off := int64(binary.LittleEndian.Uint32(b[:]))
	if off == 0 {
		return FormatDOS, 0, nil
	}
	if off > size-2 {
		return FormatUnknown, 0, truncatedf(off, "the new-format header (e_lfanew = 0x%X) lies beyond the end of the file (%d bytes)", off, size)
	}
	if _, err := r.ReadAt(sig[:], off); err != nil {
		return FormatUnknown, 0, errorf(off, "reading signature: %v", err)
	}
	switch string(sig[:]) {
	case "LX":
		return FormatLX, off, nil
	case "LE":
		return FormatLE, off, nil
	case "NE":
		return FormatNE, off, nil
	case "PE":
		return FormatPE, off, nil
	}
	return FormatDOS, 0, nil
}

// Size finds the size of r: through Size() or Stat() when r has them,
// otherwise by probing with one-byte reads (a few dozen ReadAt calls). The
// NE reader uses it too.
func Size(r io.ReaderAt) (int64, error) {
	switch v := r.(type) {
	case interface{ Size() int64 }:
		return v.Size(), nil
	case interface{ Stat() (fs.FileInfo, error) }:
		fi, err := v.Stat()
		if err != nil {
			return 0, err
		}
		return fi.Size(), nil
	}
	var b [1]byte
	has := func(off int64) bool {
		n, _ := r.ReadAt(b[:], off)
		return n == 1
	}
	if !has(0) {
		return 0, nil
	}
	lo, hi := int64(0), int64(1) // has(lo) is true
	for has(hi) {
		lo = hi
		if hi >= 1<<40 {
			return 0, fmt.Errorf("lx: input larger than 1 TiB")
		}
		hi *= 2
	}
	for hi-lo > 1 { // has(lo) && !has(hi)
		mid := lo + (hi-lo)/2
		if has(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi, nil
}

// File is an open LX module.
type File struct {
	Header
	HeaderOffset int64 // file offset of the "LX" signature (e_lfanew)
	Size         int64 // size of the input in bytes

	Objects []*Object   // object table; Objects[0] is object 1
	Pages   []PageEntry // object page table; Pages[0] is logical page 1

	ModuleName       string // first resident name entry
	Description      string // first non-resident name entry (the DESCRIPTION text)
	ResidentNames    []Name // resident names after the module name
	NonResidentNames []Name // non-resident names after the description
	Entries          []Entry
	Resources        []Resource
	ImportModules    []string // import module name table; index 0 is module ordinal 1

	r      io.ReaderAt
	closer io.Closer
}

// Object is one entry of the object table together with its page entries.
type Object struct {
	ObjectHeader
	Number int         // 1-based object number
	Pages  []PageEntry // the object's page table entries, in logical order
}

// Readable reports whether the object is readable.
func (o *Object) Readable() bool { return o.Flags&ObjRead != 0 }

// Writable reports whether the object is writable.
func (o *Object) Writable() bool { return o.Flags&ObjWrite != 0 }

// Executable reports whether the object holds code.
func (o *Object) Executable() bool { return o.Flags&ObjExec != 0 }

// Is32Bit reports whether the big/default bit is set: 32-bit code or a
// 32-bit stack.
func (o *Object) Is32Bit() bool { return o.Flags&ObjBig != 0 }

// FlagsString names the object flags, e.g. "READ|EXEC|BIG".
func (o *Object) FlagsString() string { return ObjectFlagsString(o.Flags) }

// Name is one entry of the resident or non-resident name table.
type Name struct {
	Name     string
	Ordinal  uint16
	Overload bool // bit 7 of the length byte ("parameter typing" overload bit)
}

// Resource mirrors one 14-byte resource table entry.
type Resource struct {
	TypeID uint16
	NameID uint16
	Size   uint32
	Object uint16
	Offset uint32
}

// Open opens the named file and reads it as an LX module.
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

// Close closes the file opened by Open. It does nothing for a File made by
// NewFile.
func (f *File) Close() error {
	if f.closer == nil {
		return nil
	}
	err := f.closer.Close()
	f.closer = nil
	return err
}

// NewFile reads an LX module from r. r must stay readable while the File
// is used (ReadObject reads page data on demand).
func NewFile(r io.ReaderAt) (*File, error) {
	size, err := Size(r)
	if err != nil {
		return nil, err
	}
	kind, off, err := identify(r, size)
	if err != nil {
		return nil, err
	}
	switch kind {
	case FormatLX:
	case FormatNE:
		return nil, errorf(off, "NE (16-bit) module, not an LX module")
	case FormatLE:
		return nil, errorf(off, "LE module, not an LX module")
	case FormatPE:
		return nil, errorf(off, "PE (Win32) module, not an LX module")
	case FormatDOS:
		return nil, errorf(0, "not an LX module: DOS MZ executable without an LX header")
	default:
		return nil, errorf(0, "not an LX module: no MZ or LX signature")
	}
	f := &File{HeaderOffset: off, Size: size, r: r}
	if err := f.readHeader(); err != nil {
		return nil, err
	}
	if err := f.readObjects(); err != nil {
		return nil, err
	}
	if err := f.readNames(); err != nil {
		return nil, err
	}
	if err := f.readEntries(); err != nil {
		return nil, err
	}
	if err := f.readResources(); err != nil {
		return nil, err
	}
	if err := f.readImportModules(); err != nil {
		return nil, err
	}
	return f, nil
}

// read returns n bytes at file offset off, or a "truncated" FormatError
// naming what was being read.
func (f *File) read(off int64, n int64, what string) ([]byte, error) {
	if off < 0 || n < 0 || off > f.Size || n > f.Size-off {
		return nil, truncatedf(off, "%s needs %d bytes at 0x%X, the file has %d", what, n, off, f.Size)
	}
	b := make([]byte, n)
	if _, err := f.r.ReadAt(b, off); err != nil && !(err == io.EOF && n == 0) {
		return nil, errorf(off, "reading %s: %v", what, err)
	}
	return b, nil
}

// lxOff converts an LX-relative table offset to a file offset.
func (f *File) lxOff(rel uint32) int64 { return f.HeaderOffset + int64(rel) }

func (f *File) readHeader() error {
	b, err := f.read(f.HeaderOffset, HeaderSize, "LX header")
	if err != nil {
		return err
	}
	if _, err := binary.Decode(b, binary.LittleEndian, &f.Header); err != nil {
		return errorf(f.HeaderOffset, "decoding LX header: %v", err)
	}
	h := &f.Header
	if h.ByteOrder != 0 || h.WordOrder != 0 {
		return errorf(f.HeaderOffset+2, "big-endian LX modules are not supported (byte order %d, word order %d)", h.ByteOrder, h.WordOrder)
	}
	if h.PageSize < 512 || h.PageSize > 65536 || h.PageSize&(h.PageSize-1) != 0 {
		return errorf(f.HeaderOffset+0x28, "page size %d is not a power of two between 512 and 65536", h.PageSize)
	}
	if h.PageShift > 31 {
		return errorf(f.HeaderOffset+0x2C, "page offset shift %d is larger than 31", h.PageShift)
	}
	return nil
}

const (
	objectEntrySize = 24
	pageEntrySize   = 8
)

func (f *File) readObjects() error {
	h := &f.Header
	// The page table first, so that objects can take their slices of it.
	if h.ModulePages > 0 {
		b, err := f.read(f.lxOff(h.ObjectPageTable), int64(h.ModulePages)*pageEntrySize, "object page table")
		if err != nil {
			return err
		}
		f.Pages = make([]PageEntry, h.ModulePages)
		for i := range f.Pages {
			e := b[i*pageEntrySize:]
			f.Pages[i] = PageEntry{
				DataOffset: binary.LittleEndian.Uint32(e),
				DataSize:   binary.LittleEndian.Uint16(e[4:]),
				Flags:      binary.LittleEndian.Uint16(e[6:]),
			}
			if err := f.checkPage(i); err != nil {
				return err
			}
		}
	}
	if h.ObjectCount == 0 {
		return nil
	}
	tab := f.lxOff(h.ObjectTable)
	b, err := f.read(tab, int64(h.ObjectCount)*objectEntrySize, "object table")
	if err != nil {
		return err
	}
	f.Objects = make([]*Object, h.ObjectCount)
	for i := range f.Objects {
		e := b[i*objectEntrySize:]
		o := &Object{Number: i + 1}
		o.VirtualSize = binary.LittleEndian.Uint32(e)
		o.RelocBase = binary.LittleEndian.Uint32(e[4:])
		o.Flags = binary.LittleEndian.Uint32(e[8:])
		o.PageTableIndex = binary.LittleEndian.Uint32(e[12:])
		o.PageCount = binary.LittleEndian.Uint32(e[16:])
		o.Reserved = binary.LittleEndian.Uint32(e[20:])
		if o.PageCount > 0 {
			first := uint64(o.PageTableIndex)
			last := first + uint64(o.PageCount) - 1
			if first == 0 || last > uint64(len(f.Pages)) {
				return errorf(tab+int64(i)*objectEntrySize+12,
					"object %d: pages %d..%d are outside the object page table (%d entries)",
					i+1, first, last, len(f.Pages))
			}
			o.Pages = f.Pages[first-1 : last : last]
		}
		f.Objects[i] = o
	}
	return nil
}

// pageFileOffset returns the file offset of the data of page p.
func (f *File) pageFileOffset(p PageEntry) int64 {
	base := f.DataPages
	if p.Flags == PageIterated && f.IterPages != 0 {
		base = f.IterPages
	}
	return int64(base) + int64(p.DataOffset)<<f.PageShift
}

// checkPage verifies that the data of logical page i+1 lies inside the file.
func (f *File) checkPage(i int) error {
	p := f.Pages[i]
	entry := f.lxOff(f.ObjectPageTable) + int64(i)*pageEntrySize
	switch p.Flags {
	case PageLegal, PageIterated, PageCompressed:
		if p.Flags == PageLegal && uint32(p.DataSize) > f.PageSize {
			return errorf(entry, "page %d: data size %d is larger than the page size %d", i+1, p.DataSize, f.PageSize)
		}
		start := f.pageFileOffset(p)
		if start > f.Size || int64(p.DataSize) > f.Size-start {
			return truncatedf(start, "page %d (%s) needs %d bytes at 0x%X, the file has %d",
				i+1, PageFlagString(p.Flags), p.DataSize, start, f.Size)
		}
	case PageInvalid, PageZeroFill, PageRange:
	default:
		// Unknown flags are reported when the page is read, so that the
		// rest of the module stays usable.
	}
	return nil
}

// Object returns object n (1-based), or nil.
func (f *File) Object(n int) *Object {
	if n < 1 || n > len(f.Objects) {
		return nil
	}
	return f.Objects[n-1]
}

// ModuleType returns the module type from the module flags.
func (f *File) ModuleType() ModuleType { return f.Header.ModuleType() }
