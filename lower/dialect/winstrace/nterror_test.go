package winstrace

import (
	"fmt"
	"testing"

	"github.com/tracekit/tracekit/lower/record"
)

// TestNTError checks the errno of numeric NTSTATUS return values against
// fmt's "0x%08X".
func TestNTError(t *testing.T) {
	for _, c := range []struct {
		neg  bool
		mag  uint64
		want string
	}{
		{false, 0, ""},
		{false, 0xBFFFFFFF, ""},
		{false, 0xC0000000, fmt.Sprintf("0x%08X", 0xC0000000)},
		{false, 0xC0000005, "0xC0000005"},
		{false, 0xc000a0f1, "0xC000A0F1"},
		{false, 0xFFFFFFFF, "0xFFFFFFFF"},
		{false, 0x100000000, ""},
		{true, 1, "0xFFFFFFFF"},
		{true, 0x3FFFFFFB, "0xC0000005"},
		{true, 1 << 31, ""},
		{true, 1<<31 + 1, ""},
	} {
		if got := ntError(record.IntArg(c.neg, c.mag, "")); got != c.want {
			t.Errorf("ntError(neg %v, %#x) = %q, want %q", c.neg, c.mag, got, c.want)
		}
	}
	if got := ntError(record.SymArg("STATUS_ACCESS_DENIED")); got != "" {
		t.Errorf("ntError(symbol) = %q, want none", got)
	}
}
