package tdf

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDisassemble decodes programs of the oracle and others into their
// text form, with the register widths the stack gives.
func TestDisassemble(t *testing.T) {
	for _, tc := range []struct {
		rpn  string
		want string // the ops' String forms, joined by "; "
	}{
		{"", ""},
		{"00 21 01", "push reg EAX; log 32-bit regs n=1"},
		{"0d 0c 07 14 03", "push reg IP; push reg FLAGS; push reg DI; log 16-bit regs n=3"},
		{"00 21 01 03 14 01", "push reg EAX; log 32-bit regs n=1; push reg BX; log 16-bit regs n=1"},
		{"10 0400 1b 02000000 1a f80b0000 16 1c 22", "push imm16 0x0004 (4); push object base 2; push imm32 0x00000BF8 (3064); add; fetch dword; log memory flat"},
		{"10 0400 05 1a f8ffffff 16 22", "push imm16 0x0004 (4); push reg EBP; push imm32 0xFFFFFFF8 (-8); add; log memory flat"},
		{"10 1400 0b 07 15", "push imm16 0x0014 (20); push reg DS; push reg DI; log memory sel:off"},
		{"10 0400 0a 05 06 16 15", "push imm16 0x0004 (4); push reg SS; push reg BP; push reg SI; add; log memory sel:off"},
		{"0b 07 13 10 0600 16 12", "push reg DS; push reg DI; fetch far pointer at sel:off; push imm16 0x0006 (6); add; fetch word at sel:off"},
		{"10 0400 11 02 10 f80b 15", "push imm16 0x0004 (4); push selector of object 2; push imm16 0x0BF8 (3064); log memory sel:off"},
		{"10 0a00 0b 06 13 20 23", "push imm16 0x000A (10); push reg DS; push reg SI; fetch far pointer at sel:off; join sel:off into dword; log ASCIIZ flat"},
		{"10 0a00 1b 02000000 1c 1f 19", "push imm16 0x000A (10); push object base 2; fetch dword; split dword into sel:off; log ASCIIZ sel:off"},
		{"1a 01000000 32 0200 31 33", "push imm32 0x00000001 (1); ORBIT b=0x0002 (2); ABORTOP; REMOVEOP"},
		{"05", "push reg EBP"},
	} {
		ops, err := Disassemble(unhex(t, tc.rpn))
		if err != nil {
			t.Errorf("%s: %v", tc.rpn, err)
			continue
		}
		var s []string
		n := 0
		for _, op := range ops {
			s = append(s, op.String())
			if op.Off != n {
				t.Errorf("%s: op %s at %d, want %d", tc.rpn, op, op.Off, n)
			}
			n += op.Len()
		}
		if got := strings.Join(s, "; "); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.rpn, got, tc.want)
		}
	}
}

// TestDisassembleErrors checks the offset and the text of bad programs,
// and that the instructions before the bad byte are returned.
func TestDisassembleErrors(t *testing.T) {
	for _, tc := range []struct {
		rpn string
		ops int
		off int64
		msg string
	}{
		{"17", 0, 0, "0x17 is not an RPN opcode"},
		{"00 21 01 ff", 2, 3, "0xFF is not an RPN opcode"},
		{"10 04", 0, 1, "push_imm16 needs a 2-byte operand, 1 bytes left"},
		{"00 1a 010000", 1, 2, "push_imm32 needs a 4-byte operand, 3 bytes left"},
		{"21", 0, 1, "log_regs32 needs a 1-byte operand, 0 bytes left"},
	} {
		ops, err := Disassemble(unhex(t, tc.rpn))
		var fe *FormatError
		if !errors.As(err, &fe) || fe.Off != tc.off || fe.Msg != tc.msg || len(ops) != tc.ops {
			t.Errorf("%s: got %d ops, %v; want %d ops, offset %d, %q", tc.rpn, len(ops), err, tc.ops, tc.off, tc.msg)
		}
	}
	for c := range 256 {
		valid := c <= 0x16 || c == 0x19 || c == 0x1A || c == 0x1B || c == 0x1C || c == 0x1F || c == 0x20 || c == 0x21 || c == 0x22 || c == 0x23 || c == 0x31 || c == 0x32 || c == 0x33
		if Opcode(c).Valid() != valid {
			t.Errorf("opcode 0x%02X: Valid() = %v", c, !valid)
		}
	}
}

// TestCheck runs the stack of programs that break it.
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		rpn string
		msg string // "" when valid
	}{
		{"00 21 01", ""},
		{"16", "add needs 2 stack items, the stack holds 0"},
		{"00 21 02", "log_regs32 needs 2 stack items, the stack holds 1"},
		{"00", "1 stack items are left at the end of the program"},
		{strings.Repeat("00 ", 16) + "21 10", ""},
		{strings.Repeat("00 ", 17) + "21 11", "push_reg: the stack holds 17 items, more than 16"},
		{"0b 07 13 20 1f 12", "offset 0x0006: 1 stack items are left"},
	} {
		ops, err := Disassemble(unhex(t, tc.rpn))
		if err != nil {
			t.Fatal(err)
		}
		err = Check(ops)
		switch {
		case tc.msg == "" && err != nil:
			t.Errorf("%s: %v", tc.rpn, err)
		case tc.msg != "" && (err == nil || !strings.Contains(err.Error(), tc.msg)):
			t.Errorf("%s: got %v, want %q", tc.rpn, err, tc.msg)
		}
	}
}

// TestOpJSON checks the JSON form of each operand kind.
func TestOpJSON(t *testing.T) {
	ops, err := Disassemble(unhex(t, "10 0400 11 02 1b 03000000 21 01 1a ffffffff 32 0100 16 0b"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(ops)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"off":0,"op":"push_imm16","value":4},{"off":3,"op":"push_selector","object":2},{"off":5,"op":"push_object_base","object":3},` +
		`{"off":10,"op":"log_regs32","count":1},{"off":12,"op":"push_imm32","value":4294967295},{"off":17,"op":"orbit","value":1},` +
		`{"off":20,"op":"add"},{"off":21,"op":"push_reg","reg":"DS"}]`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}
