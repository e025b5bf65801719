package tsfcompile

import "testing"

// TestLongLine checks where TRCUST's MAP reading stops: the first line of
// more than max bytes, its LF or CR LF not counted (a lone CR is).
func TestLongLine(t *testing.T) {
	for _, c := range []struct {
		data      string
		off, line int
	}{
		{"abc\ndef\n", -1, 0},
		{"abc\r\nabcd\r\n", 5, 2},
		{"abc\nabcd", 4, 2},
		{"abc\r\n", -1, 0},
		{"abc\r\r\n", 0, 1},
		{"", -1, 0},
	} {
		off, line := longLine([]byte(c.data), 3)
		if off != c.off || line != c.line {
			t.Errorf("longLine(%q, 3) = %d, %d; want %d, %d", c.data, off, line, c.off, c.line)
		}
	}
}

// TestCutAtNUL checks that a NUL ends its line and nothing else.
func TestCutAtNUL(t *testing.T) {
	for in, want := range map[string]string{
		"a\x00b\nc\n":      "a\nc\n",
		"a\x00b\r\nc\x00":  "a\r\nc",
		"\x00\r\n":         "\r\n",
		"a\r\x00\n":        "a\r\n",
		"plain\r\ntext\n":  "plain\r\ntext\n",
		"x\x00\x00y\x00\n": "x\n",
	} {
		if got := string(cutAtNUL([]byte(in))); got != want {
			t.Errorf("cutAtNUL(%q) = %q, want %q", in, got, want)
		}
	}
}
