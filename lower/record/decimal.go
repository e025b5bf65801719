package record

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// twoDigits holds "00" to "99", two bytes a number.
const twoDigits = "00010203040506070809" +
	"10111213141516171819" +
	"20212223242526272829" +
	"30313233343536373839" +
	"40414243444546474849" +
	"50515253545556575859" +
	"60616263646566676869" +
	"70717273747576777879" +
	"80818283848586878889" +
	"90919293949596979899"

// pow10 are the powers of ten a uint64 holds.
var pow10 = [...]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19}

// decimalLen returns how many decimal digits v has (1 for 0).
func decimalLen(v uint64) int {
	// log10(2) ~ 1233/4096: n is the digit count or one less.
	n := (bits.Len64(v) * 1233) >> 12
	if v >= pow10[n] {
		n++
	}
	return max(n, 1)
}

// appendUint appends v in decimal, as strconv.AppendUint(b, v, 10) does,
// straight into b: a number under 10,000 two digits at a time from a table,
// a larger one eight digits at a time in one word (eightDigits), written
// in place with no buffer to copy them from (the encoders write several
// numbers a record: line, sequence, nanoseconds).
func appendUint(b []byte, v uint64) []byte {
	switch {
	case v < 10:
		return append(b, byte('0'+v))
	case v < 100:
		return append(b, twoDigits[v*2], twoDigits[v*2+1])
	case v < 10000:
		// Processors, major and minor codes, most pids and small arguments.
		hi, lo := v/100*2, v%100*2
		if hi < 20 {
			return append(b, twoDigits[hi+1], twoDigits[lo], twoDigits[lo+1])
		}
		return append(b, twoDigits[hi], twoDigits[hi+1], twoDigits[lo], twoDigits[lo+1])
	case v < 1e8:
		n := decimalLen(v)
		// The eight digits with the 8-n leading zeros shifted out; the
		// word is written whole, the length then cut to the digits.
		return appendWord(b, eightDigits(v)>>(8*(8-uint(n))), n)
	case v < 1e16:
		hi := v / 1e8
		return appendWord(appendUint(b, hi), eightDigits(v-hi*1e8), 8)
	}
	hi := v / 1e16
	mid := v/1e8 - hi*1e8
	b = appendWord(appendUint(b, hi), eightDigits(mid), 8)
	return appendWord(b, eightDigits(v-v/1e8*1e8), 8)
}

// appendWord appends the n low bytes of w (in memory order: little
// endian), writing all eight in place when b has room.
func appendWord(b []byte, w uint64, n int) []byte {
	at := len(b)
	if cap(b)-at < 8 {
		b = slices.Grow(b, 8)
	}
	binary.LittleEndian.PutUint64(b[at:at+8], w)
	return b[:at+n]
}

// eightDigits returns the eight decimal digits of v < 10^8 (leading zeros
// included) as ASCII in one word, the first digit in the low byte, with
// multiplications in place of divisions, lanes at a time: v is split into
// two halves under 10,000 (32-bit lanes), each half into two pairs under
// 100 (16-bit lanes), each pair into two digits (8-bit lanes). The
// quotients are exact: x*5243>>19 is x/100 for x < 43,699 and x*103>>10
// is x/10 for x < 179.
func eightDigits(v uint64) uint64 {
	hi := v / 10000
	x := hi | (v-hi*10000)<<32
	q := (x * 5243 >> 19) & 0x0000007F0000007F
	x = q | (x-q*100)<<16
	q = (x * 103 >> 10) & 0x000F000F000F000F
	x = q | (x-q*10)<<8
	return x | 0x3030303030303030
}

// appendInt is appendUint for a signed value: strconv.AppendInt(b, v, 10).
func appendInt(b []byte, v int64) []byte {
	if v < 0 {
		return appendUint(append(b, '-'), -uint64(v))
	}
	return appendUint(b, uint64(v))
}
