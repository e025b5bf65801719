package simulate

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/tracekit/tracekit/binfmt/dyndata"
	"github.com/tracekit/tracekit/binfmt/stda"
	"github.com/tracekit/tracekit/binfmt/tdf"
)

// fuzzState builds a machine state from fuzz bytes: the registers from
// regs, the bytes of mem at 0x1000 (selector 0x10, limit the length) and
// at 0x30000 (selector 0x28), selectors 0x18 invalid and 0x20 not
// present, the page at 0x2000 paged out, objects 1 and 2.
func fuzzState(regs, mem []byte) *State {
	st := &State{
		Selectors: []Selector{
			{Value: 0x10, Base: 0x1000, Limit: uint32(len(mem))},
			{Value: 0x18, Invalid: true},
			{Value: 0x20, NotPresent: true},
			{Value: 0x28, Base: 0x30000, Limit: 0xFFFF},
		},
		Objects:         []Object{{Number: 1, Base: 0x1000, Selector: 0x10, HasSelector: true}, {Number: 2, Base: 0x30000}},
		Memory:          []Region{{Addr: 0x1000, Data: mem}, {Addr: 0x30000, Data: mem}},
		PagesNotPresent: []uint32{0x2000},
	}
	for i := 0; i < int(NumRegs) && 4*i+4 <= len(regs); i++ {
		st.Registers[i] = binary.LittleEndian.Uint32(regs[4*i:])
	}
	return st
}

// FuzzRPN runs random RPN programs on random machine states: never a
// panic; an error only as a *RunError naming an offset inside the
// program; otherwise data within MAXDATALENGTH, a bad status only as the
// last item, the flags saying what happened, and a buffer that reads back
// the record written.
func FuzzRPN(f *testing.F) {
	f.Add([]byte{0x00, 0x21, 0x01}, []byte{0x2C, 0x4B, 0, 0}, []byte("hello\x00"), uint16(512))
	f.Add([]byte{0x10, 4, 0, 0x1B, 1, 0, 0, 0, 0x22}, []byte{}, []byte{1, 2, 3, 4, 5}, uint16(20))
	f.Add([]byte{0x10, 8, 0, 0x11, 1, 0x10, 0, 0, 0x13, 0x19}, []byte{}, []byte{0, 0x10, 0x28, 0}, uint16(9))
	f.Add([]byte{0x0B, 0x07, 0x12, 0x0B, 0x07, 0x15}, make([]byte, 64), []byte{2, 0, 0xAA}, uint16(100))
	f.Add([]byte{0x1A, 0, 0x20, 0, 0, 0x1C, 0x1F, 0x13, 0x20, 0x10, 1, 0, 0x23}, []byte{}, []byte{}, uint16(0))
	f.Add([]byte{0x31, 0x33, 0x1A, 1, 0, 0, 0, 0x32, 2, 0}, []byte{}, []byte{}, uint16(1))
	f.Fuzz(func(t *testing.T, rpn, regs, mem []byte, maxData uint16) {
		// Small inputs keep each run, and the minimizing of new inputs,
		// quick: TRCUST writes programs of at most 255 bytes.
		if len(rpn) > 300 || len(mem) > 300 || len(regs) > 4*int(NumRegs) {
			return
		}
		// Records of up to 4 KiB keep each run cheap; every length of
		// memory item still fits in a 16-bit prefix.
		maxData %= 0x1000
		st := fuzzState(regs, mem)
		st.Hits = []Hit{{Minor: 1, PID: 1, Time: stda.Timestamp{Len: 4}}}
		file := &tdf.File{MaxDataLength: maxData, Major: 0x42, Tracepoints: []tdf.Tracepoint{{Object: 1, Minor: 1, Major: 0x42, RPN: rpn}}}
		res, err := Run(file, st, Options{Size: 0x1100})
		if err != nil {
			var re *RunError
			if !errors.As(err, &re) {
				t.Fatalf("%T is not a *RunError: %v", err, err)
			}
			if re.RPNOffset > len(rpn) || re.RPNOffset < 0 && !errors.Is(err, stda.ErrTooLarge) && !bytes.Contains([]byte(re.Msg), []byte("does not fit")) {
				t.Fatalf("offset %d outside the %d-byte program: %v", re.RPNOffset, len(rpn), err)
			}
			return
		}
		hr := res.Hits[0]
		data := hr.Record.Data
		if len(data) > int(maxData) {
			t.Fatalf("%d bytes logged, MAXDATALENGTH %d", len(data), maxData)
		}
		if (hr.Record.Flags&stda.FlagIncomplete != 0) != hr.Incomplete {
			t.Fatalf("flags %02X, incomplete %v", hr.Record.Flags, hr.Incomplete)
		}
		if hr.Status != dyndata.StatusValid {
			n := len(data)
			if n < dyndata.PrefixSize+dyndata.PointerSize || dyndata.Status(data[n-7]) != hr.Status || binary.LittleEndian.Uint16(data[n-6:]) != dyndata.PointerSize {
				t.Fatalf("status %v, but the data ends % x", hr.Status, data)
			}
		}
		b, err := stda.Parse(res.Bytes)
		if err != nil {
			t.Fatal(err)
		}
		if len(b.Records) != 1 || !bytes.Equal(b.Records[0].Data, data) || b.Records[0].Flags != hr.Record.Flags {
			t.Fatalf("the buffer reads back %+v, written %+v", b.Records, hr.Record)
		}
	})
}
