package lx

// This file builds SYNTHETIC LX modules for the tests: they are written by
// the test code from the layout in docs/lx.md, not produced by a linker.

import (
	"bytes"
	"encoding/binary"
)

// synthPage is one logical page: its flag and its expanded content (at
// most one page; shorter content is zero-padded by the loader).
type synthPage struct {
	flag uint16
	data []byte
}

type synthObject struct {
	vsize uint32
	flags uint32
	pages []synthPage
}

type synthEntryBundle struct {
	typ     uint8
	object  uint16
	entries [][]byte // the encoded entries (flags + fields)
	count   uint8    // for unused bundles
}

type synthModule struct {
	modFlags    uint32
	objects     []synthObject
	resident    []Name // the first is the module name
	nonResident []Name // the first is the description
	bundles     []synthEntryBundle
	importMods  []string
	pageShift   uint32
	iterZero    bool // leave IterPages 0 (iterated pages then use DataPages)
}

// encodeIterated writes EXEPACK1 records for data: runs of a repeated
// 4-byte pattern become one record, the rest single literal records.
func encodeIterated(data []byte) []byte {
	var out bytes.Buffer
	rec := func(count int, pat []byte) {
		binary.Write(&out, binary.LittleEndian, uint16(count))
		binary.Write(&out, binary.LittleEndian, uint16(len(pat)))
		out.Write(pat)
	}
	lit := 0 // start of pending literal bytes
	i := 0
	for i+8 <= len(data) {
		pat := data[i : i+4]
		n := 1
		for i+4*(n+1) <= len(data) && bytes.Equal(data[i+4*n:i+4*n+4], pat) {
			n++
		}
		if n >= 3 {
			if lit < i {
				rec(1, data[lit:i])
			}
			rec(n, pat)
			i += 4 * n
			lit = i
			continue
		}
		i++
	}
	if lit < len(data) {
		rec(1, data[lit:])
	}
	return out.Bytes()
}

// encodeCompressed is a small greedy EXEPACK2 encoder used to test the
// decoder on round trips. It emits every token kind: literal runs (type 0),
// fills (type 0 with a zero first byte), short back-references with
// literals (type 1), back-references (type 2) and long back-references
// with literals (type 3), and ends with the end-of-data token.
func encodeCompressed(data []byte) []byte {
	var out []byte
	var lits []byte
	flushLits := func(keep int) { // write all but keep pending literals as type-0 runs
		for len(lits) > keep {
			n := min(len(lits)-keep, 63)
			out = append(out, byte(n<<2))
			out = append(out, lits[:n]...)
			lits = lits[n:]
		}
	}
	for i := 0; i < len(data); {
		// A run of one byte: fill token.
		run := 1
		for i+run < len(data) && data[i+run] == data[i] && run < 255 {
			run++
		}
		// The longest earlier match within 4095 bytes, up to 63 bytes.
		bestLen, bestDist := 0, 0
		for dist := 1; dist <= min(i, 4095); dist++ {
			n := 0
			for i+n < len(data) && n < 63 && data[i+n] == data[i+n-dist] {
				n++
			}
			if n > bestLen {
				bestLen, bestDist = n, dist
				if n == 63 {
					break
				}
			}
		}
		switch {
		case run >= 4 && run >= bestLen:
			flushLits(0)
			out = append(out, 0, byte(run), data[i])
			i += run
		case bestLen >= 3 && bestLen <= 6 && len(lits) == 0:
			out = append(out, byte(2|(bestLen-3)<<2|(bestDist&15)<<4), byte(bestDist>>4))
			i += bestLen
		case bestLen >= 3 && bestLen <= 10 && bestDist <= 511:
			flushLits(3)
			l := len(lits)
			out = append(out, byte(1|l<<2|(bestLen-3)<<4|(bestDist&1)<<7), byte(bestDist>>1))
			out = append(out, lits...)
			lits = lits[:0]
			i += bestLen
		case bestLen >= 3:
			flushLits(15)
			l := len(lits)
			out = append(out, byte(3|l<<2|(bestLen&3)<<6), byte(bestLen>>2|(bestDist&15)<<4), byte(bestDist>>4))
			out = append(out, lits...)
			lits = lits[:0]
			i += bestLen
		default:
			lits = append(lits, data[i])
			i++
		}
	}
	flushLits(0)
	return append(out, 0, 0)
}

// build lays the module out as: MZ stub (e_lfanew = 0x40), LX header,
// object table, page table, resident names, entry table, import module
// names, the data pages (aligned to 1<<pageShift), the non-resident names.
func (m *synthModule) build() []byte {
	const lxOff = 0x40
	var h Header
	h.Magic = [2]byte{'L', 'X'}
	h.CPU = CPU386
	h.OS = OSOS2
	h.ModuleFlags = m.modFlags
	h.PageSize = 4096
	h.PageShift = m.pageShift

	var tables bytes.Buffer // everything after the header, LX-relative from HeaderSize
	rel := func() uint32 { return uint32(HeaderSize + tables.Len()) }

	// Encode the pages first, to know their sizes.
	type enc struct {
		flag uint16
		data []byte
	}
	var pages []enc
	for _, o := range m.objects {
		for _, p := range o.pages {
			var d []byte
			switch p.flag {
			case PageLegal:
				d = p.data
			case PageIterated:
				d = encodeIterated(p.data)
			case PageCompressed:
				d = encodeCompressed(p.data)
			}
			pages = append(pages, enc{p.flag, d})
		}
	}
	h.ModulePages = uint32(len(pages))

	h.ObjectTable = rel()
	h.ObjectCount = uint32(len(m.objects))
	next := uint32(1)
	for _, o := range m.objects {
		idx := next
		if len(o.pages) == 0 {
			idx = 0
		}
		binary.Write(&tables, binary.LittleEndian, ObjectHeader{
			VirtualSize: o.vsize, RelocBase: 0x10000 * next, Flags: o.flags,
			PageTableIndex: idx, PageCount: uint32(len(o.pages)),
		})
		next += uint32(len(o.pages))
	}
	h.ObjectPageTable = rel()
	pageTableAt := tables.Len()
	tables.Write(make([]byte, 8*len(pages))) // filled in below

	writeNames := func(w *bytes.Buffer, names []Name) {
		for _, n := range names {
			w.WriteByte(byte(len(n.Name)))
			w.WriteString(n.Name)
			binary.Write(w, binary.LittleEndian, n.Ordinal)
		}
		w.WriteByte(0)
	}
	h.ResidentNameTable = rel()
	writeNames(&tables, m.resident)

	h.EntryTable = rel()
	for _, b := range m.bundles {
		if b.typ == EntryUnused {
			tables.Write([]byte{b.count, 0})
			continue
		}
		tables.Write([]byte{byte(len(b.entries)), b.typ})
		binary.Write(&tables, binary.LittleEndian, b.object)
		for _, e := range b.entries {
			tables.Write(e)
		}
	}
	tables.WriteByte(0)

	if len(m.importMods) > 0 {
		h.ImportModuleTable = rel()
		h.ImportModCount = uint32(len(m.importMods))
		for _, s := range m.importMods {
			tables.WriteByte(byte(len(s)))
			tables.WriteString(s)
		}
	}

	// Data pages.
	align := 1 << m.pageShift
	pos := lxOff + HeaderSize + tables.Len()
	pad := func() {
		for pos%align != 0 {
			tables.WriteByte(0)
			pos++
		}
	}
	pad()
	h.DataPages = uint32(pos)
	if !m.iterZero {
		h.IterPages = h.DataPages
	}
	for i, p := range pages {
		e := tables.Bytes()[pageTableAt+8*i:]
		binary.LittleEndian.PutUint32(e, 0)
		if len(p.data) > 0 {
			binary.LittleEndian.PutUint32(e, uint32(pos-int(h.DataPages))>>m.pageShift)
		}
		binary.LittleEndian.PutUint16(e[4:], uint16(len(p.data)))
		binary.LittleEndian.PutUint16(e[6:], p.flag)
		tables.Write(p.data)
		pos += len(p.data)
		pad()
	}

	if len(m.nonResident) > 0 {
		var nr bytes.Buffer
		writeNames(&nr, m.nonResident)
		h.NonResNameTable = uint32(pos)
		h.NonResNamesLen = uint32(nr.Len())
		tables.Write(nr.Bytes())
	}

	var out bytes.Buffer
	stub := make([]byte, lxOff)
	copy(stub, "MZ")
	binary.LittleEndian.PutUint32(stub[0x3C:], lxOff)
	out.Write(stub)
	binary.Write(&out, binary.LittleEndian, &h)
	out.Write(tables.Bytes())
	return out.Bytes()
}

// entry16 and the others encode one entry of a bundle.
func entry16(flags uint8, off uint16) []byte {
	return []byte{flags, byte(off), byte(off >> 8)}
}

func entryGate(flags uint8, off, gate uint16) []byte {
	return []byte{flags, byte(off), byte(off >> 8), byte(gate), byte(gate >> 8)}
}

func entry32(flags uint8, off uint32) []byte {
	return binary.LittleEndian.AppendUint32([]byte{flags}, off)
}

func entryFwd(flags uint8, mod uint16, procOrOrd uint32) []byte {
	b := []byte{flags, byte(mod), byte(mod >> 8)}
	return binary.LittleEndian.AppendUint32(b, procOrOrd)
}

// pattern returns n bytes that compress: text, runs and repeats.
func pattern(n int, seed byte) []byte {
	b := make([]byte, 0, n)
	for len(b) < n {
		switch len(b) / 97 % 4 {
		case 0:
			b = append(b, []byte("push ebp; mov ebp,esp; ")...)
		case 1:
			b = append(b, seed, seed, seed, seed, seed, seed)
		case 2:
			b = append(b, byte(len(b)), seed^byte(len(b)>>3))
		default:
			b = append(b, 0xDE, 0xAD, 0xBE, 0xEF)
		}
	}
	return b[:n]
}
