// Package tmigen builds the .TMI file TRCUST 3.05A writes for the ORBIT
// tracepoints of a TDF (package binfmt/tmi has the layout, docs/tmi.md the
// rules): for each, the symbol TRCUST takes for the procedure holding it, as
// its lookup in the MAP file finds it.
//
// That lookup is IBM's behaviour, measured with its binary (through the
// oracle runner) on the oracle's emitrep.map and on MAP files made for the
// purpose, and it is not what its name promises: TRCUST scans its symbol
// table in the order of the MAP file's "Publics by Name" list as if it were
// sorted by address, so a tracepoint is usually given an unrelated symbol
// (on emitrep.map most code tracepoints get @BSSPRTEMSG.C, a data symbol).
// Table.Lookup reproduces it step by step.
package tmigen

import (
	"fmt"
	"math"

	"github.com/tracekit/tracekit/binfmt/tdf"
	"github.com/tracekit/tracekit/binfmt/tmi"
	"github.com/tracekit/tracekit/grammar/mapfile"
	"github.com/tracekit/tracekit/lower/tdfgen"
)

// entry is one symbol of TRCUST's table.
type entry struct {
	obj, off uint32
	name     string
}

// segment is one line of the MAP file's segment table.
type segment struct {
	obj, start, end uint32
}

// Table is the symbol table TRCUST 3.05A builds from a MAP file for the TMI.
type Table struct {
	entries []entry
	segs    []segment
	// The first and the last line of "Publics by Value": TRCUST reads the
	// first as the successor of its table's last entry, and ends its
	// search at the last.
	firstByValue, lastByValue *entry
}

// NewTable builds the table of m: the symbol lines above its tables, the
// groups of the "Origin Group" list (but FLAT, at segment 0), the export
// lines, and the "Publics by Name" then the "Publics by Value" lines but
// those at segment 0 (LINK's imports) and names TRCUST takes for no symbol
// (mapfile.SymbolName), an Imp line elsewhere named "Imp", in file order.
func NewTable(m *mapfile.Map) *Table {
	t := &Table{}
	// Symbol lines before the map's tables (a line of an address and a
	// name above the segment table) come first, as TRCUST reads the file
	// from its start (IBM's behaviour, session 15: EARLYX at 1:150 on the
	// first line names a tracepoint at 1:140; fresh seed 1273491).
	first := firstTableLine(m)
	for _, p := range m.Names {
		if p.Pos.Line >= first {
			break
		}
		t.entries = append(t.entries, entry{uint32(p.Addr.Seg), p.Addr.Off, p.Name})
	}
	for _, g := range m.Groups {
		if g.Origin.Seg != 0 {
			t.entries = append(t.entries, entry{uint32(g.Origin.Seg), g.Origin.Off, g.Name})
		}
	}
	for _, e := range m.Exports {
		t.entries = append(t.entries, entry{uint32(e.Addr.Seg), e.Addr.Off, e.Name})
	}
	// The Publics by Name lines, and after them those of Publics by
	// Value: TRCUST reads on into the second list (IBM's behaviour,
	// session 19: a MAP file whose "stdin" at 1:7D10 is listed by value
	// alone names a tracepoint there, tmi_table_reads_publics_by_value).
	publics := append(append([]mapfile.Public{}, m.PublicsByName...), m.PublicsByValue...)
	for _, p := range publics {
		if p.Addr.Seg == 0 {
			// A line at segment 0, as LINK writes its imports, is not in
			// the table (IBM's behaviour, session 18: fresh seed 104643
			// and tmi_imports_not_in_table, at 0000:1C and 0000:0).
			continue
		}
		name := p.Name
		if p.Imp {
			// An Imp line elsewhere is the symbol "Imp", the word after
			// its address (IBM's behaviour, session 18: fresh seed
			// 1464850, "0001:00000061  Imp  getenv_imp (DOSCALLS.215)").
			name = "Imp"
		}
		if !mapfile.SymbolName(name) {
			// No symbol for TRCUST, as for a TP (IBM's behaviour,
			// session 15, tmi_digit_name_no_symbol).
			continue
		}
		t.entries = append(t.entries, entry{uint32(p.Addr.Seg), p.Addr.Off, name})
	}
	for _, s := range m.Segments {
		t.segs = append(t.segs, segment{uint32(s.Start.Seg), s.Start.Off, s.Start.Off + s.Length})
	}
	if n := len(m.PublicsByValue); n > 0 {
		f, l := m.PublicsByValue[0], m.PublicsByValue[n-1]
		t.firstByValue = &entry{uint32(f.Addr.Seg), f.Addr.Off, f.Name}
		t.lastByValue = &entry{uint32(l.Addr.Seg), l.Addr.Off, l.Name}
	}
	return t
}

// firstTableLine returns the line of the first line of m's segment,
// group, export or Publics by Name tables (a large number when it has
// none).
func firstTableLine(m *mapfile.Map) int {
	first := math.MaxInt
	if len(m.Segments) > 0 {
		first = min(first, m.Segments[0].Pos.Line)
	}
	if len(m.Groups) > 0 {
		first = min(first, m.Groups[0].Pos.Line)
	}
	if len(m.Exports) > 0 {
		first = min(first, m.Exports[0].Pos.Line)
	}
	if len(m.PublicsByName) > 0 {
		first = min(first, m.PublicsByName[0].Pos.Line)
	}
	return first
}

// segment returns the index of the segment holding obj:off, or -1.
func (t *Table) segment(obj, off uint32) int {
	for i, s := range t.segs {
		if s.obj == obj && s.start <= off && off < s.end {
			return i
		}
	}
	return -1
}

// nameAt names obj:off: the first entry there, or "o:xxx" in lower-case hex.
func (t *Table) nameAt(obj, off uint32) string {
	for _, e := range t.entries {
		if e.obj == obj && e.off == off {
			return e.name
		}
	}
	return fmt.Sprintf("%x:%x", obj, off)
}

// Lookup returns what TRCUST 3.05A records for a tracepoint at obj:off: a
// name, the offset that goes with it and a size (tmi.NoSize for none).
func (t *Table) Lookup(obj, off uint32) (name string, symOff, size uint32) {
	n := len(t.entries)
	// Step 0: the first entry, in the tracepoint's object above it, is
	// taken with no size (IBM's behaviour, session 15: EARLYX, a line
	// before the map's tables at 1:150, for a tracepoint at 1:140).
	if n > 0 && t.entries[0].obj == obj && off < t.entries[0].off {
		return t.entries[0].name, t.entries[0].off, tmi.NoSize
	}
	// Step 1: the table in its order, each entry with its successor: an
	// entry at the tracepoint's address is taken, its size running to the
	// successor when that is in the same object (the last entry's successor
	// is the first "Publics by Value" line); else an entry is taken when
	// its successor lies in the tracepoint's object above the tracepoint,
	// whatever the entry's own object and offset.
	for i, e := range t.entries {
		var next *entry
		if i+1 < n {
			next = &t.entries[i+1]
		}
		if e.obj == obj && e.off == off {
			if next == nil {
				next = t.firstByValue
			}
			if next == nil || next.obj != obj {
				return e.name, e.off, tmi.NoSize
			}
			return e.name, e.off, next.off - e.off
		}
		if next != nil && next.obj == obj && off < next.off {
			return e.name, e.off, next.off - e.off
		}
	}
	// Step 2: the entry of the tracepoint's object with the highest offset
	// at or below it (the last of equals), if the tracepoint lies before
	// its end: its successor's offset when that is in the same segment;
	// else the end of the segment before the successor's, or its own
	// segment's end when the successor is in none or in the first, or when
	// it is the last entry.
	best := -1
	for i, e := range t.entries {
		if e.obj == obj && e.off <= off && (best < 0 || e.off >= t.entries[best].off) {
			best = i
		}
	}
	elsewhere := false
	if best >= 0 {
		e := t.entries[best]
		own := t.segment(e.obj, e.off)
		end, endObj, ok := uint32(0), e.obj, own >= 0
		if ok {
			end = t.segs[own].end
		}
		if best+1 < n {
			next := t.entries[best+1]
			switch k := t.segment(next.obj, next.off); {
			case k >= 0 && k == own:
				end = next.off
			case k >= 1:
				end, endObj, ok = t.segs[k-1].end, t.segs[k-1].obj, true
			}
		}
		if ok && off < end {
			return e.name, e.off, end - e.off
		}
		// An end in another object leaves the rest of this one unnamed.
		elsewhere = endObj != e.obj
	}
	// Step 3: the segment holding the tracepoint, named by its start.
	if k := t.segment(obj, off); k >= 0 && !elsewhere {
		s := t.segs[k]
		return t.nameAt(s.obj, s.start), s.start, s.end - s.start
	}
	// Step 4.
	return t.end()
}

// end is the end of the table: the last "Publics by Value" line or the
// end of the last segment, whichever is higher, with no size.
func (t *Table) end() (name string, symOff, size uint32) {
	if len(t.segs) == 0 {
		if t.lastByValue == nil {
			return "", 0, tmi.NoSize
		}
		return t.lastByValue.name, t.lastByValue.off, tmi.NoSize
	}
	last := t.segs[len(t.segs)-1]
	if l := t.lastByValue; l != nil && (l.obj > last.obj || l.obj == last.obj && l.off >= last.end) {
		return l.name, l.off, tmi.NoSize
	}
	return t.nameAt(last.obj, last.end), last.end, tmi.NoSize
}

// Orbit returns the values a and b of the ORBIT=(a,b) a tracepoint's RPN
// program holds (0x1A a, 0x32 b), and whether it has one.
func Orbit(rpn []byte) (a, b uint32, ok bool) {
	ops, err := tdf.Disassemble(rpn)
	if err != nil {
		return 0, 0, false
	}
	for i, op := range ops {
		if op.Code == tdf.OpOrbit && i > 0 && ops[i-1].Code == tdf.OpPushImm32 {
			return ops[i-1].Arg, op.Arg, true
		}
	}
	return 0, 0, false
}

// BuildStatic returns the .TMI file of a module without dynamic
// tracepoints, nil when none of its @STATIC tracepoints has ORBIT. IBM's
// behaviour, tried with its binary (fresh seed 1181552): TRCUST 3.05A
// writes it although it writes no TDF, with the major code and the TDFID
// in its header, and modName: the module's name once TRCUST opened the
// module for a dynamic tracepoint it then dropped, "" when it opened none
// (no dynamic tracepoint at all); with or without a MAP file; a record
// for each ORBIT of statics (tdfgen.LoneStaticOrbits says which), naming
// nothing (object, offset and size 0, an empty name). When statics is
// empty although tracepoints carry ORBIT, the file has no record.
func BuildStatic(major uint16, modName string, tdfid uint16, statics [][2]uint32) *tmi.File {
	out := &tmi.File{Major: major, ModName: modName, TDFID: tdfid}
	for _, v := range statics {
		out.Records = append(out.Records, tmi.Record{Key: tmi.Key(v[0], v[1])})
	}
	return out
}

// Build returns the TMI file TRCUST 3.05A writes beside the TDF f, whose
// symbols come from m: a record for each tracepoint with ORBIT, naming
// what Lookup finds for the address at gives for it (nil: the
// tracepoint's own address; TRCUST looks up the last symbol the TRACE
// statement names, see package lower/tsfcompile), in the
// TDF's order, then sorted by key with the quicksort TRCUST sorts its
// tracepoints with (tdfgen.CRTSortByKey, not stable: IBM's behaviour, which
// gives the order TRCUST leaves records with equal keys in); nil when no
// tracepoint has ORBIT.
//
// statics are the @STATIC tracepoints with a record
// (tdfgen.Program.StaticOrbits): TRCUST 3.05A writes one for each after
// the sorted ones, in their order and unsorted, naming nothing (object,
// offset and size 0) before any dynamic tracepoint in the source and what
// it names at the end of its table after one (IBM's behaviour; its
// binary often fails after writing such a file under 2ine). orbitSeen
// says that a @STATIC tracepoint kept has ORBIT, or a tracepoint dropped
// for a duplicate minor code had (tdfgen.Program.OrbitSeen): TRCUST then
// writes the file even with no record at all.
func Build(f *tdf.File, m *mapfile.Map, at func(tdf.Tracepoint) (obj, off uint32), statics []tdfgen.StaticOrbit, orbitSeen bool) *tmi.File {
	var t *Table
	out := &tmi.File{Major: f.Major, ModName: f.ModName, TDFID: f.TDFID}
	for _, tp := range f.Tracepoints {
		a, b, ok := Orbit(tp.RPN)
		if !ok {
			continue
		}
		if t == nil {
			t = NewTable(m)
		}
		obj, addr := tp.Object, tp.Offset
		if at != nil {
			obj, addr = at(tp)
		}
		name, off, size := t.Lookup(obj, addr)
		out.Records = append(out.Records, tmi.Record{Key: tmi.Key(a, b), Object: obj, Offset: off, Size: size, Name: name})
	}
	if len(out.Records) == 0 && len(statics) == 0 && !orbitSeen {
		return nil
	}
	r := out.Records
	tdfgen.CRTSortByKey(len(r), func(i int) uint64 { return uint64(r[i].Key) }, func(i, j int) { r[i], r[j] = r[j], r[i] })
	for _, v := range statics {
		rec := tmi.Record{Key: tmi.Key(v.Orbit[0], v.Orbit[1])}
		if v.AfterDynamic {
			if t == nil {
				t = NewTable(m)
			}
			rec.Name, rec.Offset, rec.Size = t.end()
		}
		out.Records = append(out.Records, rec)
	}
	return out
}
