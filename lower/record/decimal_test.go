package record

import (
	"math"
	"strconv"
	"testing"
)

// TestAppendDecimal checks appendUint and appendInt against strconv at
// every power of ten and its neighbours, the limits, and a spread of
// values, appended after bytes already there with and without room.
func TestAppendDecimal(t *testing.T) {
	var us []uint64
	for p := uint64(1); ; p *= 10 {
		us = append(us, p-1, p, p+1)
		if p > math.MaxUint64/10 {
			break
		}
	}
	us = append(us, 0, 99, 100, math.MaxUint64, math.MaxUint64-1, 1<<63, 1<<32, 90005322, 3417264209)
	for x := uint64(1); x < 1<<62; x = x*3 + 7 {
		us = append(us, x)
	}
	// Values of every length, the digits of the eight-digit words
	// (eightDigits) spread: a linear congruential sequence, cut to each
	// length.
	for i, x := 0, uint64(12345); i < 20000; i++ {
		x = x*6364136223846793005 + 1442695040888963407
		us = append(us, x, x%1e4, x%1e8, x%1e9, x%1e12, x%1e16, x%1e17)
	}
	for _, u := range us {
		for _, pre := range [][]byte{nil, []byte("ab"), make([]byte, 1, 64)} {
			if got, want := string(appendUint(append([]byte(nil), pre...), u)), string(pre)+strconv.FormatUint(u, 10); got != want {
				t.Errorf("appendUint(%d) = %q, want %q", u, got, want)
			}
			for _, v := range []int64{int64(u), -int64(u), math.MinInt64, math.MaxInt64} {
				if got, want := string(appendInt(append([]byte(nil), pre...), v)), string(pre)+strconv.FormatInt(v, 10); got != want {
					t.Errorf("appendInt(%d) = %q, want %q", v, got, want)
				}
			}
		}
		if got, want := decimalLen(u), len(strconv.FormatUint(u, 10)); got != want {
			t.Errorf("decimalLen(%d) = %d, want %d", u, got, want)
		}
	}
}
