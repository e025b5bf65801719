package nemodule

import (
	"bytes"
	"os"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
	"github.com/tracekit/tracekit/binfmt/ne"
)

// TestHello16 reads the bytes IBM's TRCUST 3.05A put in the TDF for TPs
// in 2ine's hello16.exe (the opcode of each record, case
// cmd/trcust/testdata/oraclediff/ne_module_bytes), in the order it read
// them: the file's bytes from each segment's data on, past the segment's
// end too, and past the end of the file the byte read before; and for a
// segment the module does not have, the byte read before (IBM's came from
// its memory: 0x05).
func TestHello16(t *testing.T) {
	data, err := os.ReadFile(corpus.Path(t, "corpus", "os2", "lx", "2ine_hello16.exe"))
	if err != nil {
		t.Skip(err)
	}
	f, err := ne.NewFile(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	m := &Module{File: f, Data: data}
	for _, tc := range []struct {
		seg, off uint32
		want     byte
	}{
		{1, 0, 0xCC}, {1, 1, 0xEB}, {1, 0x70, 0xEB}, {1, 0x3AB, 0x00},
		{1, 0x3AC, 0x0A}, {1, 0x3B0, 0x32}, {1, 0x1000, 0x32}, {1, 0x10000, 0x32},
		{2, 0x5F, 0x03}, {2, 0x60, 0x01}, {2, 0x8F, 0x01}, {2, 0xFFFFFFFF, 0x00},
		{3, 0x10, 0x00},
	} {
		b, err := m.ByteAt(tc.seg, tc.off)
		if err != nil || b != tc.want {
			t.Errorf("ByteAt(%d, %#x) = %#02x, %v; want %#02x", tc.seg, tc.off, b, err, tc.want)
		}
	}
	code, is32, err := m.Object(1)
	if err != nil || len(code) != 940 || is32 || code[0x70] != 0xEB {
		t.Errorf("Object(1) = %d bytes, %v, %v", len(code), is32, err)
	}
	if _, _, err := m.Object(3); err == nil {
		t.Error("Object(3): no error")
	}
}
