package lx

import (
	"encoding/binary"
	"sort"
)

// byteReader walks a table in the file with bounds checks. Every method
// reports a "truncated" FormatError when the table runs past the end of
// the file (or of its declared length).
type byteReader struct {
	f    *File
	off  int64 // current file offset
	end  int64 // first offset not in the table
	what string
}

func (f *File) tableReader(off, end int64, what string) *byteReader {
	if end > f.Size {
		end = f.Size
	}
	return &byteReader{f: f, off: off, end: end, what: what}
}

func (br *byteReader) bytes(n int64) ([]byte, error) {
	if br.off > br.end || n > br.end-br.off {
		return nil, truncatedf(br.off, "%s needs %d bytes at 0x%X, it ends at 0x%X", br.what, n, br.off, br.end)
	}
	b := make([]byte, n)
	if _, err := br.f.r.ReadAt(b, br.off); err != nil && n > 0 {
		return nil, errorf(br.off, "reading %s: %v", br.what, err)
	}
	br.off += n
	return b, nil
}

func (br *byteReader) u8() (uint8, error) {
	b, err := br.bytes(1)
	if err != nil {
		return 0, err
	}
	return b[0], nil
}

func (br *byteReader) u16() (uint16, error) {
	b, err := br.bytes(2)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint16(b), nil
}

func (br *byteReader) u32() (uint32, error) {
	b, err := br.bytes(4)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b), nil
}

// readNameTable reads length-prefixed names with ordinals until a zero
// length byte or the end of the table.
func (f *File) readNameTable(br *byteReader) ([]Name, error) {
	var names []Name
	for br.off < br.end {
		n, err := br.u8()
		if err != nil {
			return nil, err
		}
		if n == 0 {
			break
		}
		s, err := br.bytes(int64(n & 0x7F))
		if err != nil {
			return nil, err
		}
		ord, err := br.u16()
		if err != nil {
			return nil, err
		}
		names = append(names, Name{Name: string(s), Ordinal: ord, Overload: n&0x80 != 0})
	}
	return names, nil
}

func (f *File) readNames() error {
	if f.ResidentNameTable != 0 {
		br := f.tableReader(f.lxOff(f.ResidentNameTable), f.Size, "resident name table")
		names, err := f.readNameTable(br)
		if err != nil {
			return err
		}
		if len(names) > 0 {
			f.ModuleName = names[0].Name
			f.ResidentNames = names[1:]
		}
	}
	if f.NonResNameTable != 0 && f.NonResNamesLen != 0 {
		start := int64(f.NonResNameTable)
		end := start + int64(f.NonResNamesLen)
		if start > f.Size || end > f.Size {
			return truncatedf(start, "non-resident name table needs %d bytes at 0x%X, the file has %d", f.NonResNamesLen, start, f.Size)
		}
		names, err := f.readNameTable(f.tableReader(start, end, "non-resident name table"))
		if err != nil {
			return err
		}
		if len(names) > 0 {
			f.Description = names[0].Name
			f.NonResidentNames = names[1:]
		}
	}
	return nil
}

// Entry is one entry point of the entry table, with its ordinal.
type Entry struct {
	Ordinal uint16
	Type    uint8 // Entry16, EntryCallGate, Entry32 or EntryForwarder
	// ParamInfo is set when the bundle type had EntryParamInfo (0x80) set.
	ParamInfo bool
	Object    uint16 // object number (not for forwarders)
	Flags     uint8  // EntryExported and the parameter count, or ForwarderByOrdinal
	Offset    uint32 // offset in Object (16-bit and call gate entries widened)
	CallGate  uint16 // call gate selector slot (EntryCallGate)

	// Forwarders: the import module (1-based index into ImportModules)
	// and the procedure name offset or ordinal in that module.
	ModuleOrdinal uint16
	ProcOrOrdinal uint32
}

// Exported reports whether the entry has the exported flag (not meaningful
// for forwarders, which use the bit for "import by ordinal").
func (e Entry) Exported() bool { return e.Type != EntryForwarder && e.Flags&EntryExported != 0 }

func (f *File) readEntries() error {
	if f.EntryTable == 0 {
		return nil
	}
	br := f.tableReader(f.lxOff(f.EntryTable), f.Size, "entry table")
	ord := 1
	for {
		bundleOff := br.off
		cnt, err := br.u8()
		if err != nil {
			return err
		}
		if cnt == 0 {
			return nil
		}
		typ, err := br.u8()
		if err != nil {
			return err
		}
		if ord+int(cnt)-1 > 0xFFFF {
			return errorf(bundleOff, "entry table: ordinals run past 65535")
		}
		param := typ&EntryParamInfo != 0
		typ &^= EntryParamInfo
		switch typ {
		case EntryUnused:
			ord += int(cnt)
			continue
		case Entry16, EntryCallGate, Entry32, EntryForwarder:
		default:
			return errorf(bundleOff+1, "entry table: unknown bundle type 0x%02X", typ)
		}
		obj, err := br.u16() // object number, or the reserved word of a forwarder bundle
		if err != nil {
			return err
		}
		for i := 0; i < int(cnt); i++ {
			e := Entry{Ordinal: uint16(ord), Type: typ, ParamInfo: param}
			if e.Flags, err = br.u8(); err != nil {
				return err
			}
			switch typ {
			case Entry16, EntryCallGate:
				e.Object = obj
				o16, err := br.u16()
				if err != nil {
					return err
				}
				e.Offset = uint32(o16)
				if typ == EntryCallGate {
					if e.CallGate, err = br.u16(); err != nil {
						return err
					}
				}
			case Entry32:
				e.Object = obj
				if e.Offset, err = br.u32(); err != nil {
					return err
				}
			case EntryForwarder:
				if e.ModuleOrdinal, err = br.u16(); err != nil {
					return err
				}
				if e.ProcOrOrdinal, err = br.u32(); err != nil {
					return err
				}
			}
			f.Entries = append(f.Entries, e)
			ord++
		}
	}
}

// EntryByOrdinal returns the entry with the given ordinal.
func (f *File) EntryByOrdinal(ord uint16) (Entry, bool) {
	i := sort.Search(len(f.Entries), func(i int) bool { return f.Entries[i].Ordinal >= ord })
	if i < len(f.Entries) && f.Entries[i].Ordinal == ord {
		return f.Entries[i], true
	}
	return Entry{}, false
}

const resourceEntrySize = 14

func (f *File) readResources() error {
	if f.ResourceCount == 0 {
		return nil
	}
	off := f.lxOff(f.ResourceTable)
	b, err := f.read(off, int64(f.ResourceCount)*resourceEntrySize, "resource table")
	if err != nil {
		return err
	}
	f.Resources = make([]Resource, f.ResourceCount)
	for i := range f.Resources {
		e := b[i*resourceEntrySize:]
		f.Resources[i] = Resource{
			TypeID: binary.LittleEndian.Uint16(e),
			NameID: binary.LittleEndian.Uint16(e[2:]),
			Size:   binary.LittleEndian.Uint32(e[4:]),
			Object: binary.LittleEndian.Uint16(e[8:]),
			Offset: binary.LittleEndian.Uint32(e[10:]),
		}
	}
	return nil
}

func (f *File) readImportModules() error {
	if f.ImportModCount == 0 {
		return nil
	}
	br := f.tableReader(f.lxOff(f.ImportModuleTable), f.Size, "import module name table")
	// Each name takes at least one byte, so the count is bounded by the
	// file size before anything is allocated for it.
	if int64(f.ImportModCount) > br.end-br.off {
		return truncatedf(br.off, "import module name table declares %d names, the file has %d bytes left", f.ImportModCount, br.end-br.off)
	}
	for i := uint32(0); i < f.ImportModCount; i++ {
		n, err := br.u8()
		if err != nil {
			return err
		}
		s, err := br.bytes(int64(n))
		if err != nil {
			return err
		}
		f.ImportModules = append(f.ImportModules, string(s))
	}
	return nil
}

// Export is an exported name with the entry point it resolves to.
type Export struct {
	Name     string
	Ordinal  uint16
	Resident bool   // found in the resident (not the non-resident) name table
	Object   int    // object number; 0 for forwarders and missing entries
	Offset   uint32 // offset in Object
	Entry    Entry  // the entry table entry (zero when the ordinal has none)
	Found    bool   // the ordinal has an entry in the entry table
}

// Exports returns the exported names of both name tables, resolved through
// the entry table, sorted by ordinal and then by name.
func (f *File) Exports() []Export {
	var out []Export
	add := func(names []Name, resident bool) {
		for _, n := range names {
			x := Export{Name: n.Name, Ordinal: n.Ordinal, Resident: resident}
			if e, ok := f.EntryByOrdinal(n.Ordinal); ok {
				x.Entry, x.Found = e, true
				if e.Type != EntryForwarder {
					x.Object, x.Offset = int(e.Object), e.Offset
				}
			}
			out = append(out, x)
		}
	}
	add(f.ResidentNames, true)
	add(f.NonResidentNames, false)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Ordinal != out[j].Ordinal {
			return out[i].Ordinal < out[j].Ordinal
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// Export returns the export with the given name (case-sensitive, as the
// loader compares names).
func (f *File) Export(name string) (Export, bool) {
	for _, x := range f.Exports() {
		if x.Name == name {
			return x, true
		}
	}
	return Export{}, false
}
