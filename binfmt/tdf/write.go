package tdf

import (
	"fmt"
	"math"
	"strings"
)

// MarshalBinary implements encoding.BinaryMarshaler: it returns the file as
// TRCUST 3.05A writes it, with the tracepoint records sorted by (object,
// offset) (f.Tracepoints itself is left as it is).
//
// It returns an error for what the format cannot hold or a reader could not
// read back: a module name of ModNameSize bytes or more or holding a NUL, a
// list name longer than ListNameSize or holding a NUL, more than 0xFFFF list
// entries, two tracepoints at one address, an RPN program longer than
// MaxRecordRPN, or a file larger than 4 GiB.
func (f *File) MarshalBinary() ([]byte, error) {
	if len(f.ModName) >= ModNameSize {
		return nil, fmt.Errorf("tdf: module name of %d bytes, at most %d fit", len(f.ModName), ModNameSize-1)
	}
	if strings.IndexByte(f.ModName, 0) >= 0 {
		return nil, fmt.Errorf("tdf: module name %q holds a NUL byte", f.ModName)
	}
	nlist := len(f.Types) + len(f.Groups)
	if nlist > math.MaxUint16 {
		return nil, fmt.Errorf("tdf: %d TYPELIST and GROUPLIST entries, at most %d fit", nlist, math.MaxUint16)
	}
	for _, l := range [][]ListItem{f.Types, f.Groups} {
		for _, it := range l {
			if len(it.Name) > ListNameSize || strings.IndexByte(it.Name, 0) >= 0 {
				return nil, fmt.Errorf("tdf: list name %q: at most %d bytes and no NUL", it.Name, ListNameSize)
			}
		}
	}
	if f.ListOrder != nil {
		nt := 0
		for _, k := range f.ListOrder {
			if k == KindType {
				nt++
			}
		}
		if len(f.ListOrder) != nlist || nt != len(f.Types) {
			return nil, fmt.Errorf("tdf: ListOrder has %d entries, %d of them TYPELIST; the lists have %d and %d", len(f.ListOrder), nt, len(f.Types), len(f.Groups))
		}
	}
	order := f.sortedOrder()
	var recBytes int64
	for k, i := range order {
		tp := &f.Tracepoints[i]
		if k > 0 {
			p := &f.Tracepoints[order[k-1]]
			if p.Object == tp.Object && p.Offset == tp.Offset {
				return nil, fmt.Errorf("tdf: tracepoints %d and %d (minors 0x%04X and 0x%04X) are both at %08X:%08X", order[k-1], i, p.Minor, tp.Minor, tp.Object, tp.Offset)
			}
		}
		if len(tp.RPN) > MaxRecordRPN {
			return nil, fmt.Errorf("tdf: tracepoint minor 0x%04X: RPN program of %d bytes, at most %d fit", tp.Minor, len(tp.RPN), MaxRecordRPN)
		}
		recBytes += int64(RecordHeaderSize + len(tp.RPN))
	}
	if int64(len(f.Orbit)) > math.MaxUint32/4 {
		return nil, fmt.Errorf("tdf: an ORBIT table of %d dwords, more than 4 GiB", len(f.Orbit))
	}
	first := int64(HeaderSize+nlist*ListEntrySize) + 4*int64(len(f.Orbit))
	if first+recBytes > math.MaxUint32 {
		return nil, fmt.Errorf("tdf: the file would be %d bytes, more than 4 GiB", first+recBytes)
	}

	out := make([]byte, 0, first+recBytes)
	out = append(out, Magic...)
	out = le.AppendUint32(out, Version)
	out = le.AppendUint32(out, uint32(recBytes))
	out = le.AppendUint32(out, uint32(len(order)))
	out = le.AppendUint32(out, uint32(first))
	out = le.AppendUint32(out, uint32(len(f.Orbit)))
	out = le.AppendUint16(out, f.MaxDataLength)
	out = le.AppendUint16(out, 0)
	out = le.AppendUint16(out, f.Major)
	out = appendPadded(out, f.ModName, ModNameSize)
	out = le.AppendUint16(out, uint16(nlist))
	out = le.AppendUint16(out, f.TDFID)
	out = append(out, make([]byte, HeaderSize-len(out))...)
	for i, k := range f.listKinds() {
		if k == KindType {
			out = appendListEntry(out, f.Types[i], k)
		} else {
			out = appendListEntry(out, f.Groups[i], k)
		}
	}
	for _, w := range f.Orbit {
		out = le.AppendUint32(out, w)
	}
	for _, i := range order {
		tp := &f.Tracepoints[i]
		out = le.AppendUint16(out, uint16(RecordHeaderSize+len(tp.RPN)))
		out = le.AppendUint16(out, tp.TypeMask)
		out = le.AppendUint16(out, tp.Group)
		out = le.AppendUint32(out, tp.Object)
		out = le.AppendUint32(out, tp.Offset)
		out = le.AppendUint16(out, tp.Minor)
		out = le.AppendUint16(out, tp.Major)
		out = le.AppendUint16(out, uint16(len(tp.RPN)))
		out = append(out, tp.Opcode, 0)
		out = append(out, tp.RPN...)
	}
	return out, nil
}

// listKinds returns, for each entry of the list table in its order, its
// kind, paired with its index in Types or Groups (by the index i of the
// returned iterator's callers: the i-th of its kind).
func (f *File) listKinds() func(yield func(int, ListKind) bool) {
	order := f.ListOrder
	if order == nil {
		first, second := KindType, KindGroup
		n1, n2 := len(f.Types), len(f.Groups)
		if f.GroupsFirst {
			first, second, n1, n2 = second, first, n2, n1
		}
		for range n1 {
			order = append(order, first)
		}
		for range n2 {
			order = append(order, second)
		}
	}
	return func(yield func(int, ListKind) bool) {
		var nt, ng int
		for _, k := range order {
			i := &ng
			if k == KindType {
				i = &nt
			}
			if !yield(*i, k) {
				return
			}
			*i++
		}
	}
}

func appendPadded(out []byte, s string, n int) []byte {
	out = append(out, s...)
	return append(out, make([]byte, n-len(s))...)
}

func appendListEntry(out []byte, it ListItem, k ListKind) []byte {
	out = appendPadded(out, it.Name, ListNameSize+1)
	out = append(out, byte(k))
	return le.AppendUint16(out, it.ID)
}
