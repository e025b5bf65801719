// Package lxmap implements the interfaces of lower/tdfgen and the Namer of
// lower/tsflist over a real module: tdfgen.Symbols and tsflist.Namer over a LINK386
// MAP file (grammar/mapfile), tdfgen.Module over an LX module (binfmt/lx).
package lxmap

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"github.com/tracekit/tracekit/binfmt/lx"
	"github.com/tracekit/tracekit/grammar/mapfile"
)

// Symbols resolves names through a MAP file, as TRCUST does.
type Symbols struct {
	Map *mapfile.Map
	// IgnoreCase makes lookups case-insensitive (TRCUST /I): the first
	// line whose name matches without case wins.
	IgnoreCase bool

	byAddr []mapfile.Public // sorted by address, for Symbol
	first  map[string]int   // Map.Names: the first index of each name, upper-cased with IgnoreCase
}

// NewSymbols returns the symbols of m.
func NewSymbols(m *mapfile.Map, ignoreCase bool) *Symbols {
	s := &Symbols{Map: m, IgnoreCase: ignoreCase, first: make(map[string]int, len(m.Names))}
	for i, p := range m.Names {
		k := s.key(p.Name)
		if _, ok := s.first[k]; !ok {
			s.first[k] = i
		}
	}
	pubs := m.PublicsByName
	if len(pubs) == 0 {
		pubs = m.MemoryMap
	}
	for _, p := range pubs {
		if !p.Imp && !p.Abs && p.Addr.Seg != 0 {
			s.byAddr = append(s.byAddr, p)
		}
	}
	// By address; at one address the name that sorts first, so that the
	// choice does not depend on the map's order.
	slices.SortStableFunc(s.byAddr, func(a, b mapfile.Public) int {
		return cmp.Or(a.Addr.Compare(b.Addr), cmp.Compare(a.Name, b.Name))
	})
	return s
}

// Lookup implements tdfgen.Symbols: it finds what TRCUST 3.05A finds
// (mapfile.Map.Names), the first line of the file that names the symbol,
// with IgnoreCase the first whose name matches without case (an exact
// match further down does not win: IBM's behaviour).
func (s *Symbols) Lookup(name string) (obj, off uint32, ok bool) {
	i, ok := s.first[s.key(name)]
	if !ok {
		return 0, 0, false
	}
	p := s.Map.Names[i]
	return uint32(p.Addr.Seg), p.Addr.Off, true
}

// key is the index key of a name: the name, upper-cased in ASCII (as
// mapfile.EqualFold compares) with IgnoreCase.
func (s *Symbols) key(name string) string {
	if !s.IgnoreCase {
		return name
	}
	b := []byte(name)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - ('a' - 'A')
		}
	}
	return string(b)
}

// Next implements tdfgen.Symbols as TRCUST 3.05A finds the end of a
// procedure for RETEP (IBM's behaviour, tried with its binary on MAP files
// written for it). It looks for the symbol's address among the lines after
// the "Publics by Value" title (mapfile.Map.ByValue, searchByValue),
// whatever name the line gives (session 16: with emitrep's
// malloc line renamed there, .malloc,RETEP finds malloc's return point;
// on 2ine's hello.exe a symbol listed twice by name, at an address that
// only another symbol has by value, ends where that one does), and takes
// the first line after the one it finds of another address, in file
// order, whatever that address is: an offset below the symbol's leaves no
// room for a return point; after the table's last line, the end of the
// segment table's last line, when it lies past the symbol. A table out of
// order hides the lines after a line past the address (session 15). No
// such title, no such line, or no end after it: not found.
//
// The segment table bounds that end (segmentsEnd: the end of the table's
// run of lines that stands for the object) for a symbol that lies before
// it: a next line of the same object past that end ends the procedure at
// it, and so does a line of another object. A symbol at or past that end
// (or of an object the table does not bound) takes the next line's
// offset whatever its object (IBM's behaviour, tried with its binary on
// emitrep.dll with MAP files written for it, session 15: free at 1:3F3C
// before strspn at 1:4414 ends at a CODE32 of 0x4410 or 0x4405 bytes, at
// 0x4414 with one of 0x4420; before 2:7 at the end of CODE32, and at 7
// with a CODE32 of 0x3000 bytes; 2:9 after 1:5E3F ends at 9, 2:500 after
// 1:DC0 at the end of CODE32). Not worked out: 2:DC0 and 2:1090 ended one
// at the length of DATA32 in an earlier probe.
func (s *Symbols) Next(name string, obj, off uint32) (next uint32, ok, found bool) {
	if s.Map.ByValue < 0 || obj > 0xFFFF {
		return 0, false, false
	}
	vals := s.Map.Names[s.Map.ByValue:]
	key := mapfile.Addr{Seg: uint16(obj), Off: off}
	i := searchByValue(vals, key)
	if i < 0 {
		return 0, false, false
	}
	for _, q := range vals[i+1:] {
		if q.Addr != key {
			return s.endAt(obj, off, q.Addr), true, true
		}
	}
	// No line of another address after it: the end of the segment
	// table's last line ends the procedure, when that lies past the
	// symbol (IBM's behaviour, session 16, tried with its binary on 2ine's
	// hello.exe and MAP files written for it, whose last segment line is
	// CODE32 2:0 of 0x12 bytes: the last symbol at 2:11 ends there, at
	// 2:12 or 2:30 it is not found, at 2:30 it ends at 2:40 with a CODE32
	// of 0x40 bytes; one of object 1 ends at 0x12, or at DATA32's end
	// before that; emitrep's _end at 2:C6C, past DATA32's 0x8B0 bytes, is
	// not found).
	if n := len(s.Map.Segments); n > 0 {
		last := s.Map.Segments[n-1]
		q := mapfile.Addr{Seg: last.Start.Seg, Off: last.Start.Off + last.Length}
		if q.Compare(key) > 0 {
			return s.endAt(obj, off, q), true, true
		}
	}
	return 0, false, false
}

// endAt returns where the procedure at obj:off ends when the address q
// follows it (Next).
func (s *Symbols) endAt(obj, off uint32, q mapfile.Addr) uint32 {
	end := s.segmentsEnd(obj)
	if off < end && (uint32(q.Seg) != obj || q.Off > end) {
		return end
	}
	return q.Off
}

// searchByValue returns the index of the first line of vals at key, read
// as TRCUST 3.05A reads the table: in file order, giving up at the first
// line past key (IBM's behaviour, session 16: with emitrep's malloc line
// moved to the end of the table, or to its middle, malloc alone is not
// found; with object 2's _ctable line moved to the sixth, no symbol of
// object 1 after it is found, emit and _CRT_init before it are). -1 when
// no line is at key.
func searchByValue(vals []mapfile.Public, key mapfile.Addr) int {
	for i, p := range vals {
		switch c := p.Addr.Compare(key); {
		case c == 0:
			return i
		case c > 0:
			return -1
		}
	}
	return -1
}

// segmentsEnd returns where the segment table ends object obj for TRCUST
// 3.05A: it reads the table as runs of consecutive lines of one object and
// takes run number obj, whatever object that run is of, as the end of
// object obj (the end, start + length, of the run's last line), unless the
// run is of a higher-numbered object; 0 (no bound) then and when the table
// has fewer runs. IBM's behaviour, tried with its binary on 25 segment
// tables in session 15 and 20 more in session 17 (emitrep.dll and 2ine's
// hello.exe, /RS2 and a TP past the object, so that warning 138 names the
// end): on hello.exe, whose table is DATA32 1:0 of 0x27 bytes then CODE32
// 2:0 of 0x12, getenv at 2:E ends at 0x12 before a next line 3:156; with
// the table's lines swapped, at DATA32's 0x27; with CODE32 in two lines
// (0x12 and 0x30 bytes), at 0x42; emitrep's free at 1:3F3C ends at 0x4410
// with CODE32 of 0x4410 bytes alone, or in two lines, and at the next
// line's 1:4414 with a DATA32 (2) or X (3) line leading the table. Not
// worked out: with X 3:0 of 0x200 between them on hello.exe, a next line
// 3:300 or 4:156 ends getenv at 0x12.
func (s *Symbols) segmentsEnd(obj uint32) uint32 {
	segs := s.Map.Segments
	run := uint32(0)
	for i := 0; i < len(segs); i++ {
		if i > 0 && segs[i].Start.Seg == segs[i-1].Start.Seg {
			continue
		}
		run++
		if run != obj {
			continue
		}
		if uint32(segs[i].Start.Seg) > obj {
			return 0
		}
		for i+1 < len(segs) && segs[i+1].Start.Seg == segs[i].Start.Seg {
			i++
		}
		return segs[i].Start.Off + segs[i].Length
	}
	return 0
}

// Symbol implements tsflist.Namer: the public symbol at the highest address at
// or below obj:off in the same object, and the distance to it. The name is
// one that Lookup finds again: a name that a case-insensitive lookup would
// resolve to another symbol is skipped.
func (s *Symbols) Symbol(obj, off uint32) (string, uint32, bool) {
	if obj > 0xFFFF || off == 0xFFFFFFFF {
		return "", 0, false
	}
	i, _ := slices.BinarySearchFunc(s.byAddr, mapfile.Addr{Seg: uint16(obj), Off: off + 1}, func(p mapfile.Public, a mapfile.Addr) int {
		return p.Addr.Compare(a)
	})
	for i--; i >= 0 && uint32(s.byAddr[i].Addr.Seg) == obj; i-- {
		p := s.byAddr[i]
		if o, f, ok := s.Lookup(p.Name); ok && o == obj && f == p.Addr.Off {
			return p.Name, off - p.Addr.Off, true
		}
	}
	return "", 0, false
}

// Module reads bytes of an LX module.
type Module struct {
	File *lx.File
	// Buffer, when set, is the page buffer TRCUST 3.05A reads pages
	// into (see ByteAt); one compile shares one buffer.
	Buffer *PageBuffer
}

// PageBuffer is the one page buffer through which TRCUST 3.05A reads a
// tracepoint's original byte: each read copies the stored bytes of the
// page into it and leaves the rest as the pages read before left it
// (zeros at first).
type PageBuffer struct {
	data []byte
}

// ByteAt implements tdfgen.Module.
//
// A byte in an EXEPACK1 (iterated) page is the one TRCUST 3.05A reads
// there, which is not the loaded byte: IBM's behaviour is to lay out each
// iteration record's pattern once, whatever its count (the record "21 times
// 00" gives one 00), and to take the byte at the offset in that (0 past its
// end). On the oracle's emitrep.dll the data object is one iterated page:
// IBM's TDF has 0x94 for a TP at 2:0x80 (the loaded byte is 0x00) and
// 0x00 at 2:0x3F0 (loaded 0xA8).
//
// Any other byte is read through the page buffer (IBM's behaviour, worked
// out from 20 generated programs): the page of the offset is read into it
// and the byte at the offset within the page is taken, so past the stored
// bytes of a short last page (emitrep's 1:4729) it is the byte the page
// read before left there (0x64 after page 0, 0x83 after page 3, 0 when
// none was read); an iterated page read through it leaves its patterns
// laid out once and zeros after. For an offset past the object's pages
// the module's next page is read (ByteAt's body says more), and past
// every page (1:FFFFFFFC, .emit-4) no page is read, the byte is the
// buffer's and the error says why (a *PastPagesError: TRCUST warns 138,
// and 139 where PastPagesError.InvalidPage, and keeps the tracepoint).
// Without Buffer such bytes are 0.
func (m Module) ByteAt(obj, off uint32) (byte, error) {
	ps := m.File.PageSize
	if obj == 0 || int(obj) > len(m.File.Objects) {
		return m.noObjectByte(obj, off)
	}
	o := m.File.Object(int(obj))
	if ps == 0 {
		b, err := m.File.ReadObject(int(obj), off, 1)
		if err != nil {
			return 0, err
		}
		return b[0], nil
	}
	page := uint64(off) / uint64(ps)
	if page < uint64(len(o.Pages)) {
		return m.pageByte(int(obj), int(page), int(off%ps)), nil
	}
	// Past the object's pages TRCUST reads the module's page table on
	// (IBM's behaviour, tried with its binary on emitrep.dll and on the
	// three LX programs of 2ine with MAP files written for them): the
	// entry the table holds there is read as the object's own page, and
	// its check is one page short. The first page past the object's
	// pages is taken without a word (emitrep's 1:5000-1:5FFF, whose entry
	// is object 2's page; testpm's 2:1000, whose entry is past the
	// table); from the second page on, warning 138. A page the table
	// holds is read; past the table no page is read and the byte is the
	// page buffer's. TRCUST finds the entry at a 16-bit byte offset in
	// the table, 8 bytes an entry, so the entry's index wraps at 0x2000
	// (IBM's behaviour, session 16: on emitrep, .emit+0x2000000 reads
	// page 0 of object 1, .emit+0x2001004 page 1, .emit+0x4000000 page 0
	// again, as OPCODE shows; on 2ine's hello.exe, 2:FFFFFFFF reads
	// object 1's page, which leaves its bytes in the buffer).
	e := (uint64(o.PageTableIndex) + page - 1) % pageEntries // 0-based
	var past error
	if page > uint64(len(o.Pages)) {
		past = &PastPagesError{Obj: obj, Off: off, Pages: len(o.Pages), Entry: e}
	}
	return m.entryByte(e, off), past
}

// entryByte is the byte at off's place in the page the module's page
// table entry e (0-based) describes, read through the page buffer: a page
// of an object when the table holds the entry; past the table, what
// TRCUST 3.05A's memory holds there. Mostly no page is read and the byte
// is the buffer's; the entry at byte 0xFFF0 of the 64 KiB TRCUST
// addresses reads as a page of zeros (IBM's behaviour, session 18: the
// byte is 0 and a short page read after it finds zeros past its stored
// bytes, whether the entry is reached from object 1's page 0x1FFE or from
// offset FFFFFFF2 of a missing object). What the other entries past the
// table hold is not known (see invalidEntry).
func (m Module) entryByte(e uint64, off uint32) byte {
	if owner, i, ok := m.pageOwner(e + 1); ok {
		return m.pageByte(owner, i, int(off%m.File.PageSize))
	}
	if e*8&0xFFFF == zeroEntry && m.Buffer != nil {
		clear(m.Buffer.page(int(m.File.PageSize)))
	}
	return m.bufferByte(off)
}

// noObjectByte is ByteAt for an object the module does not have. TRCUST
// 3.05A warns 137 and reads on as for an object of no pages whose first
// page would be the module's page 0 (IBM's behaviour, session 18, tried
// with its binary on emitrep.dll, which has 2 objects, through a MAP file
// naming object 3): offset 3:1000 reads the module's page 1 (object 1's
// first byte, 0x55), 3:5000 its page 5, and 3:4 the entry before the
// table, which wraps to the last of the 0x2000 TRCUST can address
// (warning 139, as for .emit-4); no 138 for any offset. Object 0 reads no
// page: the byte is the page buffer's, with 137 and 139 (a devcon12 MAP).
func (m Module) noObjectByte(obj, off uint32) (byte, error) {
	ps := m.File.PageSize
	if ps == 0 {
		return 0, &NoObjectError{Obj: obj, Invalid: true}
	}
	if obj != 0 {
		e := (uint64(off/ps) + pageEntries - 1) % pageEntries // 0-based
		return m.entryByte(e, off), &NoObjectError{Obj: obj, Invalid: invalidEntry(e)}
	}
	return m.bufferByte(off), &NoObjectError{Obj: obj, Invalid: true}
}

// bufferByte is the byte at off's place in the page buffer, which no read
// changed (0 without a buffer).
func (m Module) bufferByte(off uint32) byte {
	if m.Buffer == nil {
		return 0
	}
	ps := m.File.PageSize
	return m.Buffer.page(int(ps))[off%ps]
}

// page returns the buffer, of n bytes.
func (b *PageBuffer) page(n int) []byte {
	if len(b.data) != n {
		b.data = make([]byte, n)
	}
	return b.data
}

// pageByte returns byte at of page i of object obj as TRCUST reads it
// (see ByteAt): an iterated page is laid out with each record's pattern
// once and zeros after; any other page's stored bytes are copied over
// what the buffer held. Without a buffer the byte is the page's: the
// pattern-once layout of an iterated page, else the loaded byte.
func (m Module) pageByte(obj, i, at int) byte {
	p, raw, err := m.File.StoredPage(obj, i)
	iterated := err == nil && p.Flags == lx.PageIterated
	if m.Buffer == nil {
		if iterated {
			return iteratedOnce(raw, at)
		}
		b, err := m.File.ReadObject(obj, uint32(i)*m.File.PageSize+uint32(at), 1)
		if err != nil {
			return 0
		}
		return b[0]
	}
	buf := m.Buffer.page(int(m.File.PageSize))
	switch {
	case iterated:
		clear(buf)
		expandOnce(buf, raw)
	case err == nil:
		copy(buf, raw)
	}
	return buf[at]
}

// zeroEntry is the byte offset, in the 64 KiB of page table entries TRCUST
// 3.05A addresses, of the entry past emitrep's table that reads as a valid
// page of zeros (entryByte, invalidEntry).
const zeroEntry = 0xFFF0

// pageEntries is how many entries of 8 bytes TRCUST 3.05A can address in
// the object page table (ByteAt): a 64 KiB segment's worth.
const pageEntries = 0x10000 / 8

// NoObjectError is ByteAt's error for an object the module does not have.
type NoObjectError struct {
	Obj     uint32
	Invalid bool // TRCUST also warns 139 (see InvalidPage)
}

// Error implements error.
func (e *NoObjectError) Error() string { return fmt.Sprintf("the module has no object %d", e.Obj) }

// BadObject reports that TRCUST 3.05A warns "bad object number" (137).
func (e *NoObjectError) BadObject() bool { return true }

// InvalidPage reports whether TRCUST 3.05A also warns "page tracepoint to
// be applied at not valid" (139), for the page table entry it reads
// (noObjectByte).
func (e *NoObjectError) InvalidPage() bool { return e.Invalid }

// PastPagesError is ByteAt's error for an offset two pages or more past
// its object's pages, where TRCUST 3.05A warns 138 (the byte is still
// read, see ByteAt).
type PastPagesError struct {
	Obj, Off uint32
	Pages    int    // the object's pages
	Entry    uint64 // the 0-based index in the module's page table TRCUST reads, below pageEntries
}

// Error implements error.
func (e *PastPagesError) Error() string {
	return fmt.Sprintf("offset 0x%X is past the %d pages of object %d", e.Off, e.Pages, e.Obj)
}

// InvalidPage reports whether TRCUST 3.05A also warns "page tracepoint to
// be applied at not valid" (139) for the offset (invalidEntry).
func (e *PastPagesError) InvalidPage() bool { return invalidEntry(e.Entry) }

// invalidEntry reports whether TRCUST 3.05A warns 139 for the 0-based
// entry e of the module's page table, one past the table's end. It reads
// the entry in what its memory holds there: on emitrep.dll (IBM's
// behaviour, tried with its binary) it warns when the entry stands in the
// last 256 bytes of a 64 KiB segment (.emit-4, pages 0x7FFF, 0xFFF0,
// 0x1FE0 and 0x1FE2 of object 1) and not below (pages 6 to 0x1F00), with
// one exception below (page 0x1C00 warns) and two in them (session 18:
// page 0x1FE1 of object 1, byte 0xFF08, and 3:FFFFFFF2 of a missing
// object, byte 0xFFF0, do not; page 0x1FE3 crashed TRCUST). That rule is
// tracekit's approximation of memory it cannot see.
func invalidEntry(e uint64) bool {
	switch at := e * 8 & 0xFFFF; at {
	case 0xE000:
		return true
	case 0xFF08, zeroEntry:
		return false
	default:
		return at >= 0xFF00
	}
}

// pageOwner returns the object and its page index of the module's page g
// (1-based, as in the object table); false when no object has it.
func (m Module) pageOwner(g uint64) (obj, i int, ok bool) {
	for n := 1; n <= len(m.File.Objects); n++ {
		o := m.File.Object(n)
		first := uint64(o.PageTableIndex)
		if first > 0 && g >= first && g < first+uint64(len(o.Pages)) {
			return n, int(g - first), true
		}
	}
	return 0, 0, false
}

// expandOnce writes EXEPACK1 data into dst with every record's pattern
// taken once (see ByteAt), as far as dst holds.
func expandOnce(dst, src []byte) {
	n := 0
	for s := 0; s+4 <= len(src) && n < len(dst); {
		size := int(binary.LittleEndian.Uint16(src[s+2:]))
		s += 4
		if size > len(src)-s {
			return
		}
		n += copy(dst[n:], src[s:s+size])
		s += size
	}
}

// iteratedOnce returns byte i of EXEPACK1 data with every record's pattern
// taken once (see ByteAt).
func iteratedOnce(src []byte, i int) byte {
	for s := 0; s+4 <= len(src); {
		size := int(binary.LittleEndian.Uint16(src[s+2:]))
		s += 4
		if size > len(src)-s {
			return 0
		}
		if i < size {
			return src[s+i]
		}
		i -= size
		s += size
	}
	return 0
}

// Object implements tdfgen.Module.
func (m Module) Object(obj uint32) ([]byte, bool, error) {
	o := m.File.Object(int(obj))
	if o == nil {
		return nil, false, &NoObjectError{Obj: obj}
	}
	data, err := m.File.ReadObject(int(obj), 0, int(o.VirtualSize))
	return data, o.Is32Bit(), err
}

// Exports resolves symbols through the module's exported names: the
// fallback when there is no MAP file (TRCUST 3.05A has none and says 39,
// oracle d68; tracekit compile uses the exports, which name at least the
// module's entry points).
type Exports struct {
	File       *lx.File
	IgnoreCase bool
}

// Lookup implements tdfgen.Symbols.
func (x Exports) Lookup(name string) (obj, off uint32, ok bool) {
	var found *lx.Export
	for _, e := range x.File.Exports() {
		if !e.Found || e.Object == 0 {
			continue
		}
		if e.Name == name {
			return uint32(e.Object), e.Offset, true
		}
		if x.IgnoreCase && found == nil && strings.EqualFold(e.Name, name) {
			e := e
			found = &e
		}
	}
	if found != nil {
		return uint32(found.Object), found.Offset, true
	}
	return 0, 0, false
}

// Next implements tdfgen.Symbols: the lowest address of an export in object
// obj above off.
func (x Exports) Next(_ string, obj, off uint32) (uint32, bool, bool) {
	next, ok := uint32(0), false
	for _, e := range x.File.Exports() {
		if e.Found && uint32(e.Object) == obj && e.Offset > off && (!ok || e.Offset < next) {
			next, ok = e.Offset, true
		}
	}
	return next, ok, true
}
