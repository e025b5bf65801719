package strace

import (
	"strconv"
	"testing"
)

// FuzzDecimal checks the converter's quick decimal reader against
// strconv.ParseUint: where decimal takes the text, ParseUint gives the same
// value (decimal may decline forms it leaves to strconv: leading zeros,
// twenty digits and more).
func FuzzDecimal(f *testing.F) {
	for _, s := range []string{"0", "7", "42", "007", "18446744073709551615", "9999999999999999999", "", "1a", "-1", "+1", " 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, ok := decimal(s)
		if !ok {
			return
		}
		want, err := strconv.ParseUint(s, 10, 64)
		if err != nil || v != want {
			t.Errorf("decimal(%q) = %d, true; strconv: %d, %v", s, v, want, err)
		}
	})
}

func TestDecimal(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"0", 0, true}, {"42", 42, true}, {"9999999999999999999", 9999999999999999999, true},
		{"007", 0, false}, {"18446744073709551615", 0, false}, {"", 0, false}, {"1a", 0, false}, {"-1", 0, false},
	} {
		if v, ok := decimal(tt.in); v != tt.want || ok != tt.ok {
			t.Errorf("decimal(%q) = %d, %v; want %d, %v", tt.in, v, ok, tt.want, tt.ok)
		}
	}
}

// TestSecondsNs: seconds with a fraction, whole seconds (strace 6's
// precision:s), and the forms refused, also the ones too large for an
// int64 of nanoseconds.
func TestSecondsNs(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0.000123", 123000, true},
		{"12.5", 12500000000, true},
		{"1700000000.123456", 1700000000123456000, true},
		{"9000000001.0", 0, false},
		{"9999999999999999999.5", 0, false},
		{"99999999999999999999.5", 0, false},
		{"12", 12000000000, true},
		{"0", 0, true},
		{"1795888786", 1795888786000000000, true},
		{"12.", 0, false},
		{"9000000001", 0, false},
		{"1.2345678901", 0, false},
		{"x.5", 0, false},
	} {
		if v, ok := secondsNs(tt.in); v != tt.want || ok != tt.ok {
			t.Errorf("secondsNs(%q) = %d, %v; want %d, %v", tt.in, v, ok, tt.want, tt.ok)
		}
	}
}
