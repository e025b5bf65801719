package tff

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"slices"
)

// Duplicate is a record that Merge left out because an earlier record had
// the same minor code.
type Duplicate struct {
	Minor uint16
	Input int // index in Merge's files of the input whose record was left out
	Kept  int // index of the input whose record was kept
}

// MajorMismatchError is Merge's error for inputs of different major codes.
type MajorMismatchError struct {
	Input int    // index of the first input whose major differs from input 0's
	Major uint16 // its major code
	Want  uint16 // the major code of input 0
}

// Error implements error.
func (e *MajorMismatchError) Error() string {
	return fmt.Sprintf("tff: input %d has major code 0x%04X, input 0 has 0x%04X; all inputs must have the same major code", e.Input, e.Major, e.Want)
}

// Merge combines files as TRCUST's combine mode (/C=) does: every input must
// have the major code of the first (a *MajorMismatchError names the first
// that does not), and the records of all inputs are merged by minor code,
// the first input's record of a minor kept and each later one left out and
// reported in dups. The output holds copies of the kept records, sorted by
// minor.
//
// The order of dups is TRCUST 3.05A's (IBM's behaviour, worked out with its
// binary through the oracle runner on combine runs made to tell the models
// apart, e.g. A:{3,5} B:{3,5} C:{2,7} D:{2,7} reports 3 B, 2 D, 5 B, 7 D):
// it merges all inputs at once, each read in minor order; to write each
// record it walks the inputs in list order, the smallest head seen so far
// being the record to write, and an input whose head equals that smallest
// one is a duplicate there and then: reported and stepped past, before the
// walk goes on (a later input may still hold a smaller minor). A record
// equal to the one written last (an input that repeats a minor, which
// TRCUST never writes) is a duplicate of it.
//
// Merge does not limit the number of inputs; TRCUST takes at most
// MaxCombine, and the caller checks that.
func Merge(files []*File) (out *File, dups []Duplicate, err error) {
	if len(files) == 0 {
		return nil, nil, errors.New("tff: nothing to merge")
	}
	for i, f := range files {
		if f == nil {
			return nil, nil, fmt.Errorf("tff: input %d is nil", i)
		}
		if f.Major != files[0].Major {
			return nil, nil, &MajorMismatchError{Input: i, Major: f.Major, Want: files[0].Major}
		}
	}
	out = &File{Major: files[0].Major}
	// Each input in minor order (TRCUST's files are; others are read so).
	inputs := make([][]*Record, len(files))
	for i, f := range files {
		rs := make([]*Record, len(f.Records))
		for k := range f.Records {
			rs[k] = &f.Records[k]
		}
		slices.SortStableFunc(rs, func(a, b *Record) int { return cmp.Compare(a.Minor, b.Minor) })
		inputs[i] = rs
	}
	last, lastFrom := -1, 0 // the minor written last and its input
	for {
		min := -1 // the input whose head is the smallest seen this walk
		for i, rs := range inputs {
			for len(rs) > 0 {
				m := rs[0].Minor
				switch {
				case int(m) == last:
					dups = append(dups, Duplicate{Minor: m, Input: i, Kept: lastFrom})
				case min >= 0 && m == inputs[min][0].Minor:
					dups = append(dups, Duplicate{Minor: m, Input: i, Kept: min})
				default:
					if min < 0 || m < inputs[min][0].Minor {
						min = i
					}
					inputs[i] = rs
					goto next
				}
				rs = rs[1:]
			}
			inputs[i] = rs
		next:
		}
		if min < 0 {
			break
		}
		r := inputs[min][0]
		inputs[min] = inputs[min][1:]
		out.Records = append(out.Records, r.clone())
		last, lastFrom = int(r.Minor), min
	}
	return out, dups, nil
}

// clone returns a deep copy of r.
func (r *Record) clone() Record {
	c := Record{Minor: r.Minor, Desc: bytes.Clone(r.Desc)}
	if r.Fmts != nil {
		c.Fmts = make([][]byte, len(r.Fmts))
		for i, l := range r.Fmts {
			c.Fmts[i] = bytes.Clone(l)
		}
	}
	return c
}
