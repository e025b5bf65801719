package record

import "math/bits"

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
// straight into b: the digits are written in place, two at a time from the
// end, with no buffer to copy them from (the encoders write several
// numbers a record).
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
	}
	n := decimalLen(v)
	at := len(b)
	if cap(b)-at < n {
		b = append(b, make([]byte, n)...)
	} else {
		b = b[:at+n]
	}
	d := b[at : at+n]
	i := n
	for v >= 100 {
		q := v / 100
		r := (v - q*100) * 2
		i -= 2
		d[i], d[i+1] = twoDigits[r], twoDigits[r+1]
		v = q
	}
	if v >= 10 {
		d[0], d[1] = twoDigits[v*2], twoDigits[v*2+1]
	} else {
		d[0] = byte('0' + v)
	}
	return b
}

// appendInt is appendUint for a signed value: strconv.AppendInt(b, v, 10).
func appendInt(b []byte, v int64) []byte {
	if v < 0 {
		return appendUint(append(b, '-'), -uint64(v))
	}
	return appendUint(b, uint64(v))
}
