package tff

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"slices"
)

// MarshalBinary implements encoding.BinaryMarshaler: it returns the file as
// TRCUST 3.05A writes it, with the records sorted by minor (f.Records itself
// is left as it is).
//
// It returns an error for what the format cannot hold or a reader could not
// read back: more than MaxRecords records, a minor used twice, a DESC holding
// a NUL, an FMT line holding a NUL or CR LF, a data block longer than
// MaxBlockLen, or a file larger than 4 GiB.
func (f *File) MarshalBinary() ([]byte, error) {
	if len(f.Records) > MaxRecords {
		return nil, fmt.Errorf("tff: %d records, at most %d fit", len(f.Records), MaxRecords)
	}
	order := make([]int, len(f.Records))
	sorted := true
	for i := range order {
		order[i] = i
		sorted = sorted && (i == 0 || f.Records[i-1].Minor <= f.Records[i].Minor)
	}
	if !sorted {
		// A compile makes its records in minor order as a rule: only
		// the others are sorted.
		slices.SortStableFunc(order, func(a, b int) int {
			return cmp.Compare(f.Records[a].Minor, f.Records[b].Minor)
		})
	}
	size := int64(HeaderSize + len(order)*EntrySize)
	for k, i := range order {
		r := &f.Records[i]
		if k > 0 && f.Records[order[k-1]].Minor == r.Minor {
			return nil, fmt.Errorf("tff: duplicate minor 0x%04X (records %d and %d)", r.Minor, order[k-1], i)
		}
		if err := r.check(); err != nil {
			return nil, err
		}
		size += int64(r.blockLen())
	}
	if size > math.MaxUint32 {
		return nil, fmt.Errorf("tff: the file would be %d bytes, more than 4 GiB", size)
	}

	out := make([]byte, 0, size)
	out = le.AppendUint16(append(out, Magic...), f.Major)
	out = le.AppendUint16(out, uint16(len(order)))
	out = le.AppendUint32(out, IndexOffset)
	res := reserved()
	out = append(out, res[:]...)
	off := uint32(HeaderSize + len(order)*EntrySize)
	for _, i := range order {
		r := &f.Records[i]
		n := r.blockLen()
		out = le.AppendUint16(out, r.Minor)
		out = le.AppendUint16(out, uint16(n))
		out = le.AppendUint32(out, off)
		off += uint32(n)
	}
	for _, i := range order {
		r := &f.Records[i]
		out = append(append(out, r.Desc...), 0)
		for _, l := range r.Fmts {
			out = append(append(out, l...), '\r', '\n')
		}
		out = append(out, 0)
	}
	return out, nil
}

// check reports what keeps r from being written so that it reads back.
func (r *Record) check() error {
	if bytes.IndexByte(r.Desc, 0) >= 0 {
		return fmt.Errorf("tff: minor 0x%04X: DESC holds a NUL byte", r.Minor)
	}
	for i, l := range r.Fmts {
		if bytes.IndexByte(l, 0) >= 0 {
			return fmt.Errorf("tff: minor 0x%04X: FMT %d holds a NUL byte", r.Minor, i+1)
		}
		if bytes.Contains(l, []byte("\r\n")) {
			return fmt.Errorf("tff: minor 0x%04X: FMT %d holds CR LF, which ends an FMT line", r.Minor, i+1)
		}
	}
	if n := r.blockLen(); n > MaxBlockLen {
		return fmt.Errorf("tff: minor 0x%04X: data block of %d bytes, at most %d fit", r.Minor, n, MaxBlockLen)
	}
	return nil
}
