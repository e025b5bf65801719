package simulate

import (
	"bytes"
	"cmp"
	"container/heap"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/tracekit/tracekit/binfmt/dyndata"
	"github.com/tracekit/tracekit/binfmt/tdf"
)

// memory is the linear memory one hit sees: the state's regions with the
// hit's on top. A byte no region holds reads as a page that is not present.
type memory struct {
	layers [][]Region      // searched from the last layer, last region first
	absent map[uint32]bool // page numbers (address / PageSize) paged out
	// index, when set, is layers[0] flattened (newSpans): prefix searches
	// it instead of the regions when layers[0] is the only layer.
	index []span
}

// span is a run of linear addresses [start, end) whose bytes one region
// gives: the last of a layer's regions that holds them.
type span struct {
	start, end uint64
	r          *Region
}

// newSpans flattens a layer: the spans, in address order, of the bytes
// some region holds, each run of bytes the same region wins (the one
// listed last) one span. Memory searched through them reads as memory
// searched region by region, last first.
func newSpans(l []Region) []span {
	// A sweep over the regions' ends in address order, keeping the regions
	// that hold the current address in a heap by their place in the list.
	type edge struct {
		at    uint64
		i     int
		start bool
	}
	edges := make([]edge, 0, 2*len(l))
	for i := range l {
		if len(l[i].Data) > 0 {
			a := uint64(l[i].Addr)
			edges = append(edges, edge{a, i, true}, edge{a + uint64(len(l[i].Data)), i, false})
		}
	}
	slices.SortFunc(edges, func(x, y edge) int { return cmp.Compare(x.at, y.at) })
	live := make([]bool, len(l))
	var h regionHeap
	var out []span
	var cur *Region // the region that wins from start on
	var start uint64
	for k := 0; k < len(edges); {
		at := edges[k].at
		for ; k < len(edges) && edges[k].at == at; k++ {
			e := edges[k]
			live[e.i] = e.start
			if e.start {
				heap.Push(&h, e.i)
			}
		}
		for h.Len() > 0 && !live[h[0]] {
			heap.Pop(&h)
		}
		var win *Region
		if h.Len() > 0 {
			win = &l[h[0]]
		}
		if win == cur {
			continue
		}
		if cur != nil {
			out = append(out, span{start: start, end: at, r: cur})
		}
		cur, start = win, at
	}
	return out
}

// regionHeap holds indexes of regions, the largest on top.
type regionHeap []int

func (h regionHeap) Len() int           { return len(h) }
func (h regionHeap) Less(i, j int) bool { return h[i] > h[j] }
func (h regionHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *regionHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *regionHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// byteAt returns the byte at linear address a; ok is false when the page
// is not present, and described false when no region holds the byte.
func (m *memory) byteAt(a uint32) (b byte, ok, described bool) {
	if m.absent[a/PageSize] {
		return 0, false, true
	}
	for i := len(m.layers) - 1; i >= 0; i-- {
		l := m.layers[i]
		for j := len(l) - 1; j >= 0; j-- {
			r := &l[j]
			if d := a - r.Addr; a >= r.Addr && uint64(d) < uint64(len(r.Data)) {
				return r.Data[d], true, true
			}
		}
	}
	return 0, false, false
}

// prefix returns the first bytes of the n at linear address a, as byteAt
// would return them one by one: as many as the first region in byteAt's
// order that holds address a holds without a region before it in that
// order holding any of them, and up to the first page not present. It
// returns nothing when byteAt cannot read address a.
func (m *memory) prefix(a uint32, n int) []byte {
	if n <= 0 {
		return nil
	}
	end := min(uint64(a)+uint64(n), 1<<32) // exclusive
	if len(m.absent) > 0 {
		for p := a / PageSize; uint64(p)*PageSize < end; p++ {
			if m.absent[p] {
				end = max(uint64(p)*PageSize, uint64(a))
				break
			}
		}
	}
	if m.index != nil && len(m.layers) == 1 {
		// the span holding a: the region byteAt finds, up to where another
		// region wins
		k, hi := 0, len(m.index) // the first span that ends after a
		for k < hi {
			mid := int(uint(k+hi) >> 1)
			if m.index[mid].end <= uint64(a) {
				k = mid + 1
			} else {
				hi = mid
			}
		}
		if k == len(m.index) || m.index[k].start > uint64(a) {
			return nil
		}
		s := &m.index[k]
		d := a - s.r.Addr
		return s.r.Data[d : uint64(d)+min(end, s.end)-uint64(a)]
	}
	for i := len(m.layers) - 1; i >= 0; i-- {
		l := m.layers[i]
		for j := len(l) - 1; j >= 0; j-- {
			r := &l[j]
			rend := uint64(r.Addr) + uint64(len(r.Data))
			switch {
			case r.Addr <= a && uint64(a) < rend:
				d := a - r.Addr
				return r.Data[d : uint64(d)+min(end, rend)-uint64(a)]
			case uint64(a) < uint64(r.Addr) && uint64(r.Addr) < end:
				end = uint64(r.Addr) // bytes from there are r's
			}
		}
	}
	return nil
}

// access is an address a log or fetch instruction reads through: a flat
// address, or a selector and a 16-bit offset.
type access struct {
	seg  bool
	sel  uint16
	off  uint16
	flat uint32
}

// pointer is what the kernel logs in place of the data when the access
// fails: the flat address, or the 16:16 pointer as a dword (selector in the
// high word), which is stored offset first.
func (a access) pointer() uint32 {
	if a.seg {
		return uint32(a.sel)<<16 | uint32(a.off)
	}
	return a.flat
}

// String returns "SSSS:OOOO" or "0xAAAAAAAA".
func (a access) String() string {
	if a.seg {
		return fmt.Sprintf("%04X:%04X", a.sel, a.off)
	}
	return fmt.Sprintf("0x%08X", a.flat)
}

// machine runs one tracepoint's RPN program for one hit and builds the
// record's data.
type machine struct {
	regs    Registers
	mem     memory
	sels    map[uint16]*Selector
	objs    map[uint32]*Object
	maxData int

	stack [tdf.MaxRPNStack]uint32
	sp    int // the stack's depth (run keeps it in a variable)

	data       []byte
	status     dyndata.Status // the bad status logged, StatusValid when none
	incomplete bool           // MAXDATALENGTH cut the data
	stopped    bool           // nothing more is logged for this hit
	notes      []string
	noted      map[uint32]bool // pages already reported as undescribed
	lastSel    *Selector       // the selector looked up last
	layers     [2][]Region     // mem's layers: the state's, the hit's
}

// rpnError is a program the machine cannot run: off is the offset in the
// program of the instruction (or byte) at fault.
type rpnError struct {
	off int
	msg string
}

func (e *rpnError) Error() string { return fmt.Sprintf("RPN offset %d: %s", e.off, e.msg) }

func (m *machine) note(format string, args ...any) {
	m.notes = append(m.notes, fmt.Sprintf(format, args...))
}

// run runs the program: its code, each instruction at most once. It
// returns the program's error (an *rpnError: a program that is not well
// formed, that takes more items than the stack holds or holds more than
// tdf.MaxRPNStack, that leaves items on the stack, that needs an object
// the state does not give) unless the hit stopped before the instruction
// at fault; data problems are logged as statuses and are not errors.
//
// The stack's depth is kept in a local variable: newProgram has checked
// that every instruction finds the items it takes and leaves at most
// tdf.MaxRPNStack, so the indexes below stay in the stack (the mask only
// tells the compiler so).
func (m *machine) run(p *program) error {
	const mask = tdf.MaxRPNStack - 1
	st := &m.stack
	sp := 0
	for k := range p.code {
		if m.stopped {
			return nil
		}
		in := &p.code[k]
		switch in.kind {
		case kPushReg:
			st[sp&mask] = m.regs[in.Code&0xF]
			sp++
		case kPush:
			st[sp&mask] = in.Arg
			sp++
		case kAdd:
			sp--
			st[(sp-1)&mask] += st[sp&mask]
		case kFetchWord, kFetchFar:
			sp -= 2
			a := access{seg: true, sel: uint16(st[sp&mask]), off: uint16(st[(sp+1)&mask])}
			if in.kind == kFetchWord {
				if v, ok := m.fetch(a, 2); ok {
					st[sp&mask] = v
					sp++
				}
			} else if v, ok := m.fetch(a, 4); ok {
				st[sp&mask], st[(sp+1)&mask] = v>>16, v&0xFFFF
				sp += 2
			}
		case kFetchDword:
			sp--
			if v, ok := m.fetch(access{flat: st[sp&mask]}, 4); ok {
				st[sp&mask] = v
				sp++
			}
		case kSplit:
			d := st[(sp-1)&mask]
			st[(sp-1)&mask], st[sp&mask] = d>>16, d&0xFFFF
			sp++
		case kJoin:
			sp--
			st[(sp-1)&mask] = st[(sp-1)&mask]<<16 | st[sp&mask]&0xFFFF
		case kLogRegs16, kLogRegs32:
			// the top item first (a REGS statement pushes its registers
			// last first, so they are logged in source order)
			n := int(in.Arg)
			for i := range n {
				if !m.logValue(st[(sp-1-i)&mask], in.kind == kLogRegs32) {
					break
				}
			}
			sp -= n
		case kLogRegList16, kLogRegList32:
			for _, r := range in.regs[:in.Arg] {
				if !m.logValue(m.regs[r&0xF], in.kind == kLogRegList32) {
					break
				}
			}
		case kLogMem, kLogASCIIZ:
			// The length was pushed first (or left by LEN), the address
			// after it.
			sp -= 3
			a := access{seg: true, sel: uint16(st[(sp+1)&mask]), off: uint16(st[(sp+2)&mask])}
			m.logItem(a, int(st[sp&mask]&0xFFFF), in.kind == kLogASCIIZ)
		case kLogMemFlat, kLogASCIIZFlat:
			sp -= 2
			m.logItem(access{flat: st[(sp+1)&mask]}, int(st[sp&mask]&0xFFFF), in.kind == kLogASCIIZFlat)
		case kNote:
			m.notes = append(m.notes, in.note)
		case kOrbit:
			sp--
			a := st[sp&mask]
			if in.note == "" || in.val != a {
				in.note = fmt.Sprintf("RPN offset %d: ORBIT=(%d,%d): no effect on the record (what the kernel does with it is not documented)", in.Off, a, in.Arg)
				in.val = a
			}
			m.notes = append(m.notes, in.note)
		}
	}
	if m.stopped || p.fail == nil {
		return nil
	}
	return p.fail
}

// logValue logs v as a word, or a dword when wide, and reports whether
// it did: when MAXDATALENGTH leaves no room for it the record is cut.
func (m *machine) logValue(v uint32, wide bool) bool {
	if wide {
		if m.room() < 4 {
			m.cut()
			return false
		}
		m.data = binary.LittleEndian.AppendUint32(m.data, v)
		return true
	}
	if m.room() < 2 {
		m.cut()
		return false
	}
	m.data = binary.LittleEndian.AppendUint16(m.data, uint16(v))
	return true
}

// kind is what run does for an instruction, one value per branch (a
// dense switch).
type kind uint8

const (
	kNone kind = iota // not simulated
	kPushReg
	kPush
	kAdd
	kFetchWord
	kFetchFar
	kFetchDword
	kSplit
	kJoin
	kLogRegs16
	kLogRegs32
	kLogMem
	kLogASCIIZ
	kLogMemFlat
	kLogASCIIZFlat
	kNote // ABORTOP, REMOVEOP
	kOrbit
	kLogRegList16 // registers pushed and logged (fold)
	kLogRegList32
)

// kindOf returns what run does for opcode c; kNone for an opcode it does
// not run.
func kindOf(c tdf.Opcode) kind {
	switch c {
	case tdf.OpPushImm16, tdf.OpPushImm32, tdf.OpPushSelector, tdf.OpPushBase:
		return kPush
	case tdf.OpAdd:
		return kAdd
	case tdf.OpFetchWord:
		return kFetchWord
	case tdf.OpFetchFar:
		return kFetchFar
	case tdf.OpFetchDword:
		return kFetchDword
	case tdf.OpSplit:
		return kSplit
	case tdf.OpJoin:
		return kJoin
	case tdf.OpLogRegs16:
		return kLogRegs16
	case tdf.OpLogRegs32:
		return kLogRegs32
	case tdf.OpLogMem:
		return kLogMem
	case tdf.OpLogASCIIZ:
		return kLogASCIIZ
	case tdf.OpLogMemFlat:
		return kLogMemFlat
	case tdf.OpLogASCIIZFlat:
		return kLogASCIIZFlat
	case tdf.OpAbortOp, tdf.OpRemoveOp:
		return kNote
	case tdf.OpOrbit:
		return kOrbit
	}
	if c.IsRegister() {
		return kPushReg
	}
	return kNone
}

// selector returns the state's selector sel, or nil.
func (m *machine) selector(sel uint16) *Selector {
	if m.lastSel != nil && m.lastSel.Value == sel {
		return m.lastSel
	}
	s := m.sels[sel]
	if s != nil {
		m.lastSel = s
	}
	return s
}

// prefix returns the first bytes of the n of access a that load would
// read (see memory.prefix): fewer when the selector's limit, a region's
// end or a page not present comes first; none when the first cannot be
// read.
func (m *machine) prefix(a access, n int) []byte {
	lin := a.flat
	if a.seg {
		s := m.selector(a.sel)
		if s == nil || s.Invalid || s.NotPresent || uint64(a.off) > uint64(s.Limit) {
			return nil
		}
		n = int(min(uint64(n), uint64(s.Limit)+1-uint64(a.off)))
		if uint64(s.Base)+uint64(a.off) >= 1<<32 {
			return nil
		}
		lin = s.Base + uint32(a.off)
	}
	return m.mem.prefix(lin, n)
}

// load reads byte i of access a. A status other than StatusValid says why it cannot
// be read. quiet leaves out the note about memory the state does not
// describe.
func (m *machine) load(a access, i int, quiet bool) (byte, dyndata.Status) {
	lin := a.flat + uint32(i)
	if a.seg {
		s := m.selector(a.sel)
		switch {
		case s == nil, s.Invalid:
			return 0, dyndata.StatusInvalidSelector
		case s.NotPresent:
			return 0, dyndata.StatusSelectorNotPresent
		case uint64(a.off)+uint64(i) > uint64(s.Limit):
			return 0, dyndata.StatusInvalidSelector
		}
		lin = s.Base + uint32(a.off) + uint32(i)
	}
	b, ok, described := m.mem.byteAt(lin)
	if !ok {
		if !described && !quiet && !m.noted[lin/PageSize] {
			if m.noted == nil {
				m.noted = map[uint32]bool{}
			}
			m.noted[lin/PageSize] = true
			m.note("%s: no memory region holds linear address 0x%08X; it reads as a page not present (status FD)", a, lin)
		}
		return 0, dyndata.StatusPageNotPresent
	}
	return b, dyndata.StatusValid
}

// segCheck checks a segmented access of n bytes against its selector and
// limit before any byte is read, as the processor checks a segment before
// the pages behind it; it returns the bad status, or StatusValid. A flat access
// passes.
func (m *machine) segCheck(a access, n int) dyndata.Status {
	if !a.seg || n == 0 {
		return dyndata.StatusValid
	}
	// load's checks of the selector for byte n-1; the pages are read byte
	// by byte
	s := m.selector(a.sel)
	switch {
	case s == nil, s.Invalid:
		return dyndata.StatusInvalidSelector
	case s.NotPresent:
		return dyndata.StatusSelectorNotPresent
	case uint64(a.off)+uint64(n-1) > uint64(s.Limit):
		return dyndata.StatusInvalidSelector
	}
	return dyndata.StatusValid
}

// fetch reads an n-byte little-endian value for an address computation.
// When it cannot, the failure is logged as the data item of this
// statement (the item that needs the value) and the hit logs nothing more.
func (m *machine) fetch(a access, n int) (uint32, bool) {
	if st := m.segCheck(a, n); st != 0 {
		m.fault(st, a)
		return 0, false
	}
	var v uint32
	if b := m.prefix(a, n); len(b) == n {
		for i, c := range b {
			v |= uint32(c) << (8 * i)
		}
		return v, true
	}
	for i := range n {
		b, st := m.load(a, i, false)
		if st != dyndata.StatusValid {
			m.fault(st, a)
			return 0, false
		}
		v |= uint32(b) << (8 * i)
	}
	return v, true
}

// room returns how many more data bytes MAXDATALENGTH allows.
func (m *machine) room() int { return m.maxData - len(m.data) }

// cut marks the record incomplete: MAXDATALENGTH left no room for the
// rest, and nothing more is logged.
func (m *machine) cut() {
	m.incomplete = true
	m.stopped = true
}

// fault logs a bad status: the prefix (status, length 4) and the pointer
// that could not be read, and stops the hit. When the seven bytes do not
// fit in MAXDATALENGTH, nothing is logged and the record is incomplete.
func (m *machine) fault(st dyndata.Status, a access) {
	if m.room() < dyndata.PrefixSize+dyndata.PointerSize {
		m.cut()
		return
	}
	m.data = dyndata.Prefix{Status: st, Length: dyndata.PointerSize}.Append(m.data)
	m.data = binary.LittleEndian.AppendUint32(m.data, a.pointer())
	m.status = st
	m.stopped = true
}

// logItem logs a memory item: the prefix (status 0, or 1 for a string,
// and the data length) and the data, n bytes, or for a string the bytes
// before its NUL, at most n. Data that MAXDATALENGTH has no room for is
// cut, the prefix giving the length actually logged, and the record is
// incomplete; a byte that cannot be read makes the item a bad status.
func (m *machine) logItem(a access, n int, asciiz bool) {
	if m.room() < dyndata.PrefixSize {
		m.cut()
		return
	}
	k := min(n, m.room()-dyndata.PrefixSize)
	if !asciiz {
		if st := m.segCheck(a, k); st != dyndata.StatusValid {
			m.fault(st, a)
			return
		}
	}
	short := k < n
	// What the loop below reads, when the bytes it needs can be read.
	if b := m.prefix(a, k); len(b) == k && !asciiz {
		m.logData(b, false, short, a, k)
		return
	} else if i := bytes.IndexByte(b, 0); asciiz && i >= 0 {
		m.logData(b[:i], true, false, a, k)
		return
	} else if asciiz && len(b) == k {
		m.logData(b, true, short, a, k)
		return
	}
	buf := make([]byte, 0, k)
	for i := range k {
		b, st := m.load(a, i, false)
		if st != dyndata.StatusValid {
			m.fault(st, a)
			return
		}
		if asciiz && b == 0 {
			short = false
			break
		}
		buf = append(buf, b)
	}
	m.logData(buf, asciiz, short, a, k)
}

// logData logs the bytes logItem read: buf, whose length is k unless a
// string ended early, short when MAXDATALENGTH cut the item.
func (m *machine) logData(buf []byte, asciiz, short bool, a access, k int) {
	if asciiz && short && len(buf) == k {
		// The string fills the room; it is whole if its NUL comes next.
		if b, st := m.load(a, k, true); st == dyndata.StatusValid && b == 0 {
			short = false
		}
	}
	status := dyndata.StatusValid
	if asciiz {
		status = dyndata.StatusString
	}
	m.data = dyndata.Prefix{Status: status, Length: uint16(len(buf))}.Append(m.data)
	m.data = append(m.data, buf...)
	if short {
		m.cut()
	}
}
