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
// it merges all inputs at once, each read in the order of its index (not
// sorted: an input 2,1,3 alone is written 2,1,3); to write each record it
// walks the inputs in list order, the smallest head seen so far being the
// record to write. An input whose head equals that smallest one, or the
// minor written last, is a duplicate there and then: reported and stepped
// past, once a walk, its next record taking part in the walk as its head
// (2 and 2,1,3 give 1, 2, 3, the second 2 a duplicate; 1,1,1,2 alone gives
// 1, 1, 2, and 2 and 1,1,2,2 give 1, 2, 2, a 1 and a 2 left out).
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
	// Each input's records in the order of its index: sorted by minor,
	// as MarshalBinary writes them (a stable sort, so that a File made in
	// memory with a minor twice keeps them in its order).
	minors := make([][]uint16, len(files))
	sorted := make([][]*Record, len(files))
	for i, f := range files {
		for k := range f.Records {
			sorted[i] = append(sorted[i], &f.Records[k])
		}
		slices.SortStableFunc(sorted[i], func(a, b *Record) int { return cmp.Compare(a.Minor, b.Minor) })
		for _, r := range sorted[i] {
			minors[i] = append(minors[i], r.Minor)
		}
	}
	order, dups := MergeOrder(minors)
	for _, at := range order {
		out.Records = append(out.Records, sorted[at.Input][at.Index].clone())
	}
	return out, dups, nil
}

// Source is a record of one input of a merge: the input's index in the
// merge and the record's index in it.
type Source struct {
	Input, Index int
}

// MergeOrder is Merge's walk over the minor codes alone: minors[i] are the
// minors of input i's records, in the order of its index. It returns the
// records to write, in the order they are written, and the duplicates
// left out, as Merge does.
func MergeOrder(minors [][]uint16) (order []Source, dups []Duplicate) {
	next := make([]int, len(minors)) // the head of each input
	minor := func(i int) uint16 { return minors[i][next[i]] }
	last, lastFrom := -1, 0 // the minor written last and its input
	for {
		min := -1 // the input whose head is the smallest seen this walk
		for i := range minors {
			if next[i] == len(minors[i]) {
				continue
			}
			// One duplicate at most an input a walk: its next record
			// takes part in the walk, but is no duplicate until the
			// next walk.
			switch m := minor(i); {
			case int(m) == last:
				dups = append(dups, Duplicate{Minor: m, Input: i, Kept: lastFrom})
				next[i]++
			case min >= 0 && m == minor(min):
				dups = append(dups, Duplicate{Minor: m, Input: i, Kept: min})
				next[i]++
			}
			if next[i] < len(minors[i]) && (min < 0 || minor(i) < minor(min)) {
				min = i
			}
		}
		if min < 0 {
			break
		}
		last, lastFrom = int(minor(min)), min
		order = append(order, Source{min, next[min]})
		next[min]++
	}
	return order, dups
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
