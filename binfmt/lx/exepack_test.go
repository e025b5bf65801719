package lx

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// cat joins byte slices and strings into one slice.
func cat(parts ...any) []byte {
	var b []byte
	for _, p := range parts {
		switch v := p.(type) {
		case string:
			b = append(b, v...)
		case []byte:
			b = append(b, v...)
		case byte:
			b = append(b, v)
		case int:
			b = append(b, byte(v))
		}
	}
	return b
}

// prefix291 is a token stream that expands to "xyz", 255 'A' and 33 'B':
// 0x123 bytes, so that a back-reference of distance 0x123 reaches byte 0.
var prefix291 = cat(0x0C, "xyz", 0, 0xFF, "A", 0, 33, "B")

// TestUnpackCompressedVectors decodes hand-assembled EXEPACK2 tokens. Each
// token byte is worked out from the bit layout in docs/lx.md.
func TestUnpackCompressedVectors(t *testing.T) {
	tests := []struct {
		name string
		src  []byte
		want string
	}{
		{"literal run", cat(0x0C, "abc"), "abc"},
		{"fill", cat(0, 5, "z"), "zzzzz"},
		{"end token stops", cat(0x08, "ab", 0, 0, 0x0C, "xyz"), "ab"},
		// type 1: 2 literals "XY", then 4 bytes from distance 5.
		// b0 = 1 | 2<<2 | (4-3)<<4 | (5&1)<<7 = 0x99, b1 = 5>>1 = 2.
		{"short backref with literals", cat(0x0C, "abc", 0x99, 2, "XY"), "abcXYabcX"},
		// type 1 overlapping: 10 bytes from distance 2 repeat "ab".
		// b0 = 1 | 0<<2 | 7<<4 | 0<<7 = 0x71, b1 = 1.
		{"overlapping backref", cat(0x08, "ab", 0x71, 1), "abababababab"},
		// type 2: 3 bytes from distance 4: b0 = 2 | 0<<2 | 4<<4 = 0x42, b1 = 0.
		{"backref", cat(0x10, "abcd", 0x42, 0), "abcdabc"},
		// type 2 with a 12-bit distance 0x123 and 6 bytes:
		// b0 = 2 | 3<<2 | 3<<4 = 0x3E, b1 = 0x12.
		{"backref 12-bit distance", cat(prefix291, 0x3E, 0x12), "xyz" + strings.Repeat("A", 255) + strings.Repeat("B", 33) + "xyzAAA"},
		// type 3: 1 literal "Q", 23 bytes from distance 0x123:
		// b0 = 3 | 1<<2 | (23&3)<<6 = 0xC7, b1 = 23>>2 | 3<<4 = 0x35, b2 = 0x12.
		{"long backref", cat(prefix291, 0xC7, 0x35, 0x12, "Q"),
			"xyz" + strings.Repeat("A", 255) + strings.Repeat("B", 33) + "Q" + "yz" + strings.Repeat("A", 21)},
		// type 3 with literals only (length 0): b0 = 3 | 2<<2 = 0x0B.
		{"long token literals only", cat(0x0B, 0, 0, "hi"), "hi"},
	}
	for _, tt := range tests {
		dst := make([]byte, 4096)
		n, err := UnpackCompressed(dst, tt.src)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if string(dst[:n]) != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, dst[:n], tt.want)
		}
	}
}

func TestUnpackCompressedErrors(t *testing.T) {
	tests := []struct {
		name string
		dst  int
		src  []byte
		off  int64
		msg  string
	}{
		{"backref at start", 64, cat(0x42, 0), 0, "before the start"},
		{"distance zero", 64, cat(0x08, "ab", 0x02, 0), 3, "before the start"},
		{"distance past output", 64, cat(0x08, "ab", 0x32, 0), 3, "before the start"},
		{"literal past data", 64, cat(0x0C, "a"), 0, "run past the page data"},
		{"fill past page", 4, cat(0, 5, "z"), 0, "past the end of the page"},
		{"backref past page", 8, cat(0x10, "abcd", 0x4E, 0), 5, "past the end of the page"},
		{"literal past page", 2, cat(0x0C, "abc"), 0, "past the end of the page"},
		{"fill cut short", 64, cat(0), 0, "cut short"},
		{"fill value missing", 64, cat(0, 5), 0, "cut short"},
		{"type 1 cut short", 64, cat(0x08, "ab", 0x71), 3, "cut short"},
		{"type 2 cut short", 64, cat(0x42), 0, "cut short"},
		{"type 3 cut short", 64, cat(0x03, 0), 0, "cut short"},
		{"type 3 literals missing", 64, cat(0x07, 0, 0), 0, "run past the page data"},
	}
	for _, tt := range tests {
		_, err := UnpackCompressed(make([]byte, tt.dst), tt.src)
		var fe *FormatError
		if !errors.As(err, &fe) || fe.Off != tt.off || !strings.Contains(fe.Msg, tt.msg) {
			t.Errorf("%s: err = %v, want %q at %d", tt.name, err, tt.msg, tt.off)
		}
	}
}

func TestUnpackIteratedVectors(t *testing.T) {
	tests := []struct {
		name string
		dst  int
		src  []byte
		want string
		off  int64 // error offset, -1 for none
		msg  string
	}{
		{"repeat", 64, cat(2, 0, 3, 0, "abc"), "abcabc", -1, ""},
		{"two records", 64, cat(1, 0, 2, 0, "xy", 3, 0, 1, 0, "-"), "xy---", -1, ""},
		{"zero count", 64, cat(0, 0, 1, 0, "x", 1, 0, 1, 0, "y"), "y", -1, ""},
		{"zero length", 64, cat(9, 0, 0, 0, 1, 0, 1, 0, "y"), "y", -1, ""},
		// The VDFT.SYS object 3 page: "PDD.SYS" once, then 0xFF9 zeros.
		{"VDFT page", 4096, cat(1, 0, 7, 0, "PDD.SYS", 0xF9, 0x0F, 1, 0, 0), "PDD.SYS" + strings.Repeat("\x00", 0xFF9), -1, ""},
		{"header cut short", 64, cat(1, 0, 1), "", 0, "cut short"},
		{"second header cut short", 64, cat(1, 0, 1, 0, "a", 1), "", 5, "cut short"},
		{"pattern past data", 64, cat(1, 0, 5, 0, "a"), "", 0, "past the page data"},
		{"past page", 4, cat(3, 0, 2, 0, "ab"), "", 0, "past the end of the page"},
	}
	for _, tt := range tests {
		dst := make([]byte, tt.dst)
		n, err := UnpackIterated(dst, tt.src)
		if tt.off < 0 {
			if err != nil || string(dst[:n]) != tt.want {
				t.Errorf("%s: got %q, %v; want %q", tt.name, dst[:n], err, tt.want)
			}
			continue
		}
		var fe *FormatError
		if !errors.As(err, &fe) || fe.Off != tt.off || !strings.Contains(fe.Msg, tt.msg) {
			t.Errorf("%s: err = %v, want %q at %d", tt.name, err, tt.msg, tt.off)
		}
	}
}

// TestRoundTrip encodes pages with the test encoders and decodes them.
func TestRoundTrip(t *testing.T) {
	inputs := [][]byte{
		nil,
		[]byte("a"),
		pattern(4096, 0x11),
		pattern(1000, 0x90),
		bytes.Repeat([]byte{0}, 4096),
		bytes.Repeat([]byte("0123456789"), 409),
		words(4096),
	}
	for i, in := range inputs {
		for _, c := range []struct {
			name   string
			encode func([]byte) []byte
			decode func(dst, src []byte) (int, error)
		}{
			{"EXEPACK1", encodeIterated, UnpackIterated},
			{"EXEPACK2", encodeCompressed, UnpackCompressed},
		} {
			enc := c.encode(in)
			dst := make([]byte, 4096)
			n, err := c.decode(dst, enc)
			if err != nil || !bytes.Equal(dst[:n], in) {
				t.Errorf("input %d %s: %d bytes, %v; round trip differs", i, c.name, n, err)
			}
		}
	}
	// The compressor really compresses the patterned page, and its output
	// uses every token kind.
	enc := encodeCompressed(pattern(4096, 0x11))
	if len(enc) >= 4096/2 {
		t.Errorf("compressed pattern page is %d bytes", len(enc))
	}
	k := tokenKinds(append(enc[:len(enc)-2:len(enc)-2], encodeCompressed(words(4096))...))
	if len(k) != 5 {
		t.Errorf("token kinds used: %v, want all five", k)
	}
}

// tokenKinds walks EXEPACK2 tokens and names the kinds seen.
func tokenKinds(src []byte) map[string]int {
	k := map[string]int{}
	for s := 0; s < len(src); {
		b0 := src[s]
		switch {
		case b0 == 0 && s+1 < len(src) && src[s+1] == 0:
			return k
		case b0 == 0:
			k["fill"]++
			s += 3
		case b0&3 == 0:
			k["literal"]++
			s += 1 + int(b0>>2)
		case b0&3 == 1:
			k["short"]++
			s += 2 + int(b0>>2&3)
		case b0&3 == 2:
			k["mid"]++
			s += 2
		default:
			k["long"]++
			s += 3 + int(b0>>2&15)
		}
	}
	return k
}

// words returns n bytes of short words picked by a fixed pseudo-random
// sequence: text with many short, near and far repeats.
func words(n int) []byte {
	list := []string{"mov ", "push ", "eax", "ebp", ", ", "call ", "ret\n", "lea ", "[esi+4]", "jmp ", "0x10", "\n"}
	var b []byte
	x := uint32(1)
	for len(b) < n {
		x = x*1103515245 + 12345
		b = append(b, list[(x>>16)%uint32(len(list))]...)
	}
	return b[:n]
}
