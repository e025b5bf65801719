package record

import (
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// jsonPlain marks the bytes a JSON string holds as they are: ASCII but for
// control characters, the quote and the backslash.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendString appends s as a JSON string. Control characters are escaped,
// invalid UTF-8 becomes U+FFFD (as encoding/json does), and <, > and & are
// left alone.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	i := plainPrefix(s)
	if i == len(s) {
		b = append(b, s...)
		return append(b, '"')
	}
	return appendEscaped(b, s, i, false)
}

// appendStringDoubled is appendString with every quote it writes doubled:
// the JSON string as it stands in a quoted CSV cell.
func appendStringDoubled(b []byte, s string) []byte {
	b = append(b, '"', '"')
	i := plainPrefix(s)
	if i == len(s) {
		b = append(b, s...)
		return append(b, '"', '"')
	}
	return appendEscaped(b, s, i, true)
}

// appendStringQ is appendString, or appendStringDoubled when double.
func appendStringQ(b []byte, s string, double bool) []byte {
	if double {
		return appendStringDoubled(b, s)
	}
	return appendString(b, s)
}

// appendEscaped appends the rest of the JSON string s, after its opening
// quote, from i, where the first byte needing care is; double doubles the
// quotes.
func appendEscaped(b []byte, s string, i int, double bool) []byte {
	start := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"':
				b = append(b, '\\', '"')
				if double {
					b = append(b, '"')
				}
			case '\\':
				b = append(b, '\\', '\\')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	if double {
		b = append(b, '"')
	}
	return append(b, '"')
}

// Byte-wise masks for plainPrefix: every byte 0x01, every byte 0x80.
const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// plainPrefix returns the length of the run of bytes jsonPlain marks that
// s starts with, eight bytes at a time while none of them needs care; the
// bytes after the last whole word are tested as the last eight of s (which
// overlap the word before), one by one only where a word needs care.
func plainPrefix(s string) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if jsonCare(load64(s[i:])) != 0 {
			break
		}
	}
	if i < len(s) && i+8 > len(s) && len(s) >= 8 && jsonCare(load64(s[len(s)-8:])) == 0 {
		return len(s)
	}
	for i < len(s) && jsonPlain[s[i]] {
		i++
	}
	return i
}

// jsonCare is not zero when one of the 8 bytes in x needs care in a JSON
// string: it is under 0x20, a quote or a backslash (a byte that is zero
// once xored with it), or from 0x80 on.
func jsonCare(x uint64) uint64 {
	q, bs := x^(lsb*'"'), x^(lsb*'\\')
	ctrl := (x - lsb*0x20) &^ x
	quote := (q - lsb) &^ q
	back := (bs - lsb) &^ bs
	return (ctrl | quote | back | x) & msb
}
