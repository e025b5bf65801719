package tdfgen

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestCRTSortDuplicates checks crtSort against what IBM's TRCUST 3.05A
// reported for programs of one TRACE a symbol (TRACE i at TP=.sym_i, with
// the oracle's emitrep.map): the TRACE statements (1-based) it reported as
// duplicate TP addresses, in its order. Made with run-case, one program a
// line.
func TestCRTSortDuplicates(t *testing.T) {
	addr := map[string]uint32{"fclose": 0x3804, "malloc": 0xDC0, "wcstombs": 0x4278,
		"free": 0x1090, "strspn": 0x2384, "fflush": 0x388C}
	cases := []struct{ syms, dups string }{
		{"fclose fclose", "2"},
		{"fclose fclose malloc", "1"},
		{"fclose fclose wcstombs", "2"},
		{"malloc fclose fclose", "3"},
		{"fclose malloc fclose", "3"},
		{"fclose fclose fclose", "2 3"},
		{"fclose fclose malloc free", "1"},
		{"fclose fclose fclose malloc", "3 1"},
		{"malloc fclose fclose malloc", "4 2"},
		{"fclose fclose malloc fclose", "1 4"},
		{"fclose fclose fclose fclose malloc", "3 4 1"},
		{"fclose fclose malloc malloc", "3 1"},
		{"fclose fclose wcstombs fclose strspn malloc fclose malloc", "8 2 1 7"},
		{"fclose strspn malloc fclose fclose malloc strspn wcstombs strspn wcstombs malloc wcstombs fclose", "11 3 9 7 4 1 13 12 10"},
		{"wcstombs fclose malloc free wcstombs fclose malloc free wcstombs", "7 4 6 1 9"},
		{"fflush wcstombs wcstombs malloc malloc fclose fclose malloc wcstombs", "8 4 6 2 9"},
		{"malloc malloc strspn wcstombs wcstombs fclose malloc wcstombs wcstombs fclose free malloc wcstombs", "2 7 12 10 8 5 4 13"},
		{"wcstombs wcstombs strspn malloc free free fclose free fclose fclose malloc malloc fclose", "12 4 5 6 9 10 13 1"},
		{"free free fclose malloc malloc malloc fclose malloc wcstombs free free fclose free fclose", "5 8 4 1 11 10 13 7 12 14"},
	}
	for _, c := range cases {
		type tp struct {
			addr uint32
			n    int
		}
		var a []tp
		for i, s := range strings.Fields(c.syms) {
			a = append(a, tp{addr[s], i + 1})
		}
		crtSort(len(a), func(i, j int) bool { return a[i].addr < a[j].addr },
			func(i, j int) { a[i], a[j] = a[j], a[i] })
		if !slices.IsSortedFunc(a, func(x, y tp) int { return int(x.addr) - int(y.addr) }) {
			t.Errorf("%s: not sorted: %v", c.syms, a)
		}
		var got []string
		for i := 1; i < len(a); i++ {
			if a[i].addr == a[i-1].addr {
				got = append(got, strconv.Itoa(a[i].n))
			}
		}
		if g := strings.Join(got, " "); g != c.dups {
			t.Errorf("%s: duplicates %q, TRCUST 3.05A %q", c.syms, g, c.dups)
		}
	}
}

// TestCRTSortByKey: crtSortByKey makes crtSort's order, equal keys
// included, on inputs of every shape.
func TestCRTSortByKey(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var inputs [][]uint64
	for n := range 40 {
		inputs = append(inputs, make([]uint64, n))
	}
	for range 3000 {
		n := r.IntN(300)
		k := []uint64{1, 2, 3, 5, 10, 1000, 1 << 31, math.MaxUint64}[r.IntN(7)]
		keys := make([]uint64, n)
		for i := range keys {
			keys[i] = r.Uint64N(k)
			if k == math.MaxUint64 && r.IntN(2) == 0 {
				keys[i] = k // as the address sort's @STATIC tracepoints
			}
		}
		inputs = append(inputs, keys)
		switch r.IntN(4) {
		case 0:
			sorted := slices.Clone(keys)
			slices.Sort(sorted)
			inputs = append(inputs, sorted)
		case 1:
			rev := slices.Clone(keys)
			slices.Sort(rev)
			slices.Reverse(rev)
			inputs = append(inputs, rev)
		}
	}
	for _, keys := range inputs {
		type el struct {
			key uint64
			at  int
		}
		a := make([]el, len(keys))
		for i, k := range keys {
			a[i] = el{k, i}
		}
		b := slices.Clone(a)
		crtSort(len(a), func(i, j int) bool { return a[i].key < a[j].key }, func(i, j int) { a[i], a[j] = a[j], a[i] })
		crtSortByKey(len(b), func(i int) uint64 { return b[i].key }, func(i, j int) { b[i], b[j] = b[j], b[i] })
		if !slices.Equal(a, b) {
			t.Fatalf("keys %v: crtSort %v, crtSortByKey %v", keys, a, b)
		}
		// And the address sort, math.MaxUint64 standing for @STATIC.
		a = make([]el, len(keys))
		for i, k := range keys {
			a[i] = el{k, i}
		}
		b = slices.Clone(a)
		crtSort(len(a), func(i, j int) bool { return addressLess(a[i].key, a[j].key) }, func(i, j int) { a[i], a[j] = a[j], a[i] })
		crtSortByAddress(len(b), func(i int) uint64 { return b[i].key }, func(i, j int) { b[i], b[j] = b[j], b[i] })
		if !slices.Equal(a, b) {
			t.Fatalf("keys %v: crtSort %v, crtSortByAddress %v", keys, a, b)
		}
	}
}

// addressLess is TRCUST's comparator for the address sort as a less
// function (crtSortByAddress): anything is below an @STATIC tracepoint
// (math.MaxUint64), one of those is above an address, addresses compare.
func addressLess(x, y uint64) bool {
	const static = math.MaxUint64
	switch {
	case y == static:
		return true
	case x == static:
		return false
	}
	return x < y
}

// TestCRTSortByAddressStatics checks crtSortByAddress against what IBM's
// TRCUST 3.05A reported for programs of dynamic tracepoints (TP=.sym, with
// the oracle's emitrep.map) and @STATIC ones ("S"), one TRACE a line and no
// MINOR: the TRACE statements (1-based) it reported as duplicate TP
// addresses, in its order. Made with run-case for this test; each was
// judged wrong by the model of @STATIC as the largest address.
func TestCRTSortByAddressStatics(t *testing.T) {
	addr := map[string]uint64{"fclose": 0x3804, "malloc": 0xDC0, "wcstombs": 0x4278, "free": 0x1090}
	cases := []struct{ tps, dups string }{
		{"S S fclose fclose S S", "4"},
		{"fclose malloc malloc S S free fclose fclose", "2 7 8"},
		{"S free fclose wcstombs malloc fclose fclose S fclose free", "10 9 6 7"},
		{"S malloc free malloc free S free wcstombs free", "2 7 5 9"},
		{"S S free S malloc malloc", "6"},
		{"S S wcstombs wcstombs S wcstombs", "6 3"},
		{"S S fclose fclose", "4"},
		{"S fclose S wcstombs malloc malloc", "6"},
		{"free S free S wcstombs wcstombs", "3 6"},
		{"S malloc fclose S free free fclose", "5 3"},
	}
	for _, c := range cases {
		type tp struct {
			key uint64
			n   int
		}
		var a []tp
		for i, s := range strings.Fields(c.tps) {
			k := uint64(math.MaxUint64)
			if s != "S" {
				k = 1<<32 | addr[s]
			}
			a = append(a, tp{k, i + 1})
		}
		crtSortByAddress(len(a), func(i int) uint64 { return a[i].key }, func(i, j int) { a[i], a[j] = a[j], a[i] })
		var got []string
		prev := -1
		for i, e := range a {
			if e.key == math.MaxUint64 {
				continue
			}
			if prev >= 0 && a[prev].key == e.key {
				got = append(got, strconv.Itoa(e.n))
			}
			prev = i
		}
		if g := strings.Join(got, " "); g != c.dups {
			t.Errorf("%s: duplicates %q, TRCUST 3.05A %q", c.tps, g, c.dups)
		}
	}
}
