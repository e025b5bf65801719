package tff

import (
	"errors"
	"slices"
	"testing"
)

func rec(minor uint16, desc string, fmts ...string) Record {
	r := Record{Minor: minor, Desc: []byte(desc)}
	for _, f := range fmts {
		r.Fmts = append(r.Fmts, []byte(f))
	}
	return r
}

// TestMerge uses synthetic inputs: duplicates across inputs and within one,
// output sorted, records copied.
func TestMerge(t *testing.T) {
	a := &File{Major: 9, Records: []Record{rec(5, "a5", "x"), rec(1, "a1")}}
	b := &File{Major: 9, Records: []Record{rec(1, "b1"), rec(3, "b3"), rec(3, "b3bis")}}
	c := &File{Major: 9, Records: []Record{rec(5, "c5"), rec(0xFFFF, "cmax")}}
	out, dups, err := Merge([]*File{a, b, c})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range out.Records {
		got = append(got, string(r.Desc))
	}
	if want := []string{"a1", "b3", "a5", "cmax"}; !slices.Equal(got, want) || out.Major != 9 {
		t.Errorf("major %d, records %q, want 9, %q", out.Major, got, want)
	}
	wantDups := []Duplicate{{Minor: 1, Input: 1, Kept: 0}, {Minor: 3, Input: 1, Kept: 1}, {Minor: 5, Input: 2, Kept: 0}}
	if !slices.Equal(dups, wantDups) {
		t.Errorf("dups = %+v, want %+v", dups, wantDups)
	}
	out.Records[2].Desc[0] = 'Z'
	out.Records[2].Fmts[0][0] = 'Z'
	if string(a.Records[0].Desc) != "a5" || string(a.Records[0].Fmts[0]) != "x" {
		t.Error("Merge output shares memory with its input")
	}
	if _, err := out.MarshalBinary(); err != nil {
		t.Error(err)
	}
}

func TestMergeErrors(t *testing.T) {
	if _, _, err := Merge(nil); err == nil {
		t.Error("Merge(nil) succeeded")
	}
	if _, _, err := Merge([]*File{{Major: 1}, nil}); err == nil || err.Error() != "tff: input 1 is nil" {
		t.Errorf("nil input: %v", err)
	}
	_, _, err := Merge([]*File{{Major: 1}, {Major: 1}, {Major: 2}, {Major: 3}})
	var me *MajorMismatchError
	if !errors.As(err, &me) || *me != (MajorMismatchError{Input: 2, Major: 2, Want: 1}) {
		t.Fatalf("got %v", err)
	}
	const want = "tff: input 2 has major code 0x0002, input 0 has 0x0001; all inputs must have the same major code"
	if me.Error() != want {
		t.Errorf("message %q, want %q", me.Error(), want)
	}
}

// TestMergeOrderIndexOrder: inputs that TRCUST never writes (a minor
// repeated, an index out of order), merged as TRCUST 3.05A merges them
// (IBM's behaviour, each tried with its binary on TFFs made for it: the
// outputs written and the duplicates reported).
func TestMergeOrderIndexOrder(t *testing.T) {
	for _, c := range []struct {
		name   string
		minors [][]uint16
		order  []Source
		dups   []Duplicate
	}{
		{"1,1,1,2", [][]uint16{{1, 1, 1, 2}},
			[]Source{{0, 0}, {0, 2}, {0, 3}}, []Duplicate{{1, 0, 0}}},
		{"1,1,1,1,3", [][]uint16{{1, 1, 1, 1, 3}},
			[]Source{{0, 0}, {0, 2}, {0, 4}}, []Duplicate{{1, 0, 0}, {1, 0, 0}}},
		{"2,1,3", [][]uint16{{2, 1, 3}},
			[]Source{{0, 0}, {0, 1}, {0, 2}}, nil},
		{"2,1,3 and 1", [][]uint16{{2, 1, 3}, {1}},
			[]Source{{1, 0}, {0, 0}, {0, 1}, {0, 2}}, nil},
		{"2 and 2,1,3", [][]uint16{{2}, {2, 1, 3}},
			[]Source{{1, 1}, {0, 0}, {1, 2}}, []Duplicate{{2, 1, 0}}},
		{"1 and 1,1,1", [][]uint16{{1}, {1, 1, 1}},
			[]Source{{0, 0}, {1, 2}}, []Duplicate{{1, 1, 0}, {1, 1, 0}}},
		{"1,1,1 and 1", [][]uint16{{1, 1, 1}, {1}},
			[]Source{{0, 0}, {0, 2}}, []Duplicate{{1, 1, 0}, {1, 0, 0}}},
		{"2 and 1,1,2,2", [][]uint16{{2}, {1, 1, 2, 2}},
			[]Source{{1, 0}, {0, 0}, {1, 3}}, []Duplicate{{1, 1, 1}, {2, 1, 0}}},
		{"3 and 1,1,1 and 2", [][]uint16{{3}, {1, 1, 1}, {2}},
			[]Source{{1, 0}, {1, 2}, {2, 0}, {0, 0}}, []Duplicate{{1, 1, 1}}},
	} {
		order, dups := MergeOrder(c.minors)
		if !slices.Equal(order, c.order) || !slices.Equal(dups, c.dups) {
			t.Errorf("%s: order %v, dups %v; want %v, %v", c.name, order, dups, c.order, c.dups)
		}
	}
}
