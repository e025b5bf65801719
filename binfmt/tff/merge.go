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
// that does not), the records of all inputs are taken in input order and,
// within an input, in its record order, the first record of a minor is kept
// and each later one is left out and reported in dups, sorted by minor and
// then in that order (IBM's behaviour: TRCUST 3.05A reports them as it
// walks its records sorted by minor). The output holds copies of the kept
// records, sorted by minor.
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
	from := make(map[uint16]int) // minor -> input that gave it
	for i, f := range files {
		for _, r := range f.Records {
			if k, ok := from[r.Minor]; ok {
				dups = append(dups, Duplicate{Minor: r.Minor, Input: i, Kept: k})
				continue
			}
			from[r.Minor] = i
			out.Records = append(out.Records, r.clone())
		}
	}
	slices.SortStableFunc(out.Records, func(a, b Record) int { return cmp.Compare(a.Minor, b.Minor) })
	slices.SortStableFunc(dups, func(a, b Duplicate) int { return cmp.Compare(a.Minor, b.Minor) })
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
