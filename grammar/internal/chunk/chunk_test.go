package chunk

import (
	"testing"
)

func TestOf(t *testing.T) {
	var c Of[[2]int]
	var ptrs []*[2]int
	for i := range 200 {
		ptrs = append(ptrs, c.New([2]int{i, -i}))
	}
	for i, p := range ptrs {
		if *p != [2]int{i, -i} {
			t.Fatalf("value %d changed: %v", i, *p)
		}
	}
	var none *Of[int]
	if p := none.New(7); *p != 7 {
		t.Fatal("nil Of")
	}
}

func TestSlicesAndBytes(t *testing.T) {
	var s Slices[int]
	a := append(s.Make(3), 1, 2, 3)
	b := append(s.Make(2), 4, 5)
	a = append(a, 9) // beyond its capacity: moves, leaves b alone
	if b[0] != 4 || b[1] != 5 || len(a) != 4 || a[3] != 9 {
		t.Fatalf("%v %v", a, b)
	}
	var by Bytes
	x := by.CopyString("abc")
	y := by.Copy([]byte("de"))
	x = append(x, 'z')
	if string(y) != "de" || string(x) != "abcz" || cap(by.Make(2000)) != 2000 {
		t.Fatalf("%q %q", x, y)
	}
}

func TestReset(t *testing.T) {
	var c Of[int]
	var s Slices[int]
	first, firstSlice := c.New(1), append(s.Make(2), 1, 2)
	for range 10 {
		c.Reset()
		s.Reset()
		if p := c.New(2); p != first {
			t.Fatal("Of.Reset: a new allocation")
		}
		if x := append(s.Make(2), 3, 4); &x[0] != &firstSlice[0] {
			t.Fatal("Slices.Reset: a new allocation")
		}
	}
}

// TestRewind: a Kept and a KeptBytes hand out the same storage again after
// Rewind, in the same order, with no new allocation once they have grown;
// the values of one round stay intact while it lasts.
func TestRewind(t *testing.T) {
	var c Kept[int]
	var b KeptBytes
	var firstPtrs []*int
	var firstBytes []*byte
	for round := range 3 {
		c.Rewind()
		b.Rewind()
		var ptrs []*int
		var slices [][]byte
		for i := range 150 {
			ptrs = append(ptrs, c.New(round*1000+i))
			slices = append(slices, append(b.Make(100), byte(i), byte(round)))
		}
		for i, p := range ptrs {
			if *p != round*1000+i || slices[i][0] != byte(i) || slices[i][1] != byte(round) {
				t.Fatalf("round %d: value %d changed: %d %v", round, i, *p, slices[i])
			}
		}
		if round == 0 {
			firstPtrs = ptrs
			for _, s := range slices {
				firstBytes = append(firstBytes, &s[0])
			}
			continue
		}
		for i := range ptrs {
			if ptrs[i] != firstPtrs[i] || &slices[i][0] != firstBytes[i] {
				t.Fatalf("round %d: value %d is not in the storage of round 0", round, i)
			}
		}
	}
	if n := testing.AllocsPerRun(10, func() {
		c.Rewind()
		b.Rewind()
		for i := range 150 {
			c.New(i)
			b.Make(100)
		}
	}); n != 0 {
		t.Errorf("%v allocations a round after Rewind, want 0", n)
	}
}
