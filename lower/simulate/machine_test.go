package simulate

import (
	"bytes"
	"encoding/hex"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/binfmt/dyndata"
	"github.com/tracekit/tracekit/binfmt/stda"
	"github.com/tracekit/tracekit/binfmt/tdf"
)

// testState is a small synthetic machine for the opcode tests: object 1
// at 0x10000 with selector 0x0F, object 2 at 0x20000 without one, a data
// selector 0xB7 at 0x30000 with limit 0xFF, selectors 0x1234 invalid and
// 0x5678 not present, and the page at 0x51000 paged out.
func testState() *State {
	st := &State{
		Selectors: []Selector{
			{Value: 0x0F, Base: 0x10000, Limit: 0xFFFF},
			{Value: 0xB7, Base: 0x30000, Limit: 0xFF},
			{Value: 0x1234, Invalid: true},
			{Value: 0x5678, NotPresent: true, Base: 0x60000, Limit: 0xFFFF},
		},
		Objects: []Object{
			{Number: 1, Base: 0x10000, Selector: 0x0F, HasSelector: true},
			{Number: 2, Base: 0x20000},
		},
		Memory: []Region{
			{Addr: 0x10000, Data: []byte{0x55, 0x8B, 0xEC, 0x90}},
			{Addr: 0x20000, Data: []byte{0x10, 0x00, 0x03, 0x00}}, // -> 0x30010
			{Addr: 0x20004, Data: []byte{0x20, 0x00, 0xB7, 0x00}}, // 00B7:0020
			{Addr: 0x20008, Data: []byte{0x00, 0x10, 0x05, 0x00}}, // -> 0x51000
			{Addr: 0x30010, Data: []byte("hello\x00world")},
			{Addr: 0x30020, Data: []byte{0x06, 0x00, 0xAA, 0xBB, 0xCC, 0xDD}},
			{Addr: 0x300FE, Data: []byte{0x01, 0x02, 0x03, 0x04}},
			{Addr: 0x50FFE, Data: []byte{0xC1, 0xC2, 0xC3, 0xC4}},
			{Addr: 0x51000, Data: []byte{0xEE}},
		},
		PagesNotPresent: []uint32{0x51000},
	}
	st.Registers[RegEAX] = 0x4B2C
	st.Registers[RegEBX] = 0x00010001
	st.Registers[RegECX] = 0xFFFFFFFF
	st.Registers[RegEDX] = 0x00030010
	st.Registers[RegESI] = 0x0010
	st.Registers[RegEDI] = 0x0020
	st.Registers[RegEFLAGS] = 0x246
	st.Registers[RegEIP] = 0x10004
	st.Registers[RegDS] = 0xB7
	st.Registers[RegCS] = 0x0F
	return st
}

// runProgram runs one program (hex) on testState with MAXDATALENGTH
// maxData, through Run, and returns the hit's result.
func runProgram(t *testing.T, program string, maxData uint16) (HitResult, error) {
	t.Helper()
	rpn, err := hex.DecodeString(strings.ReplaceAll(program, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	f := &tdf.File{MaxDataLength: maxData, Major: 0x42, Tracepoints: []tdf.Tracepoint{{Object: 1, Offset: 0, Minor: 7, Major: 0x42, RPN: rpn}}}
	st := testState()
	st.Hits = []Hit{{Minor: 7, PID: 1, Time: stda.Timestamp{Len: 4, Hours: 1}}}
	res, err := Run(f, st, Options{})
	if err != nil {
		return HitResult{}, err
	}
	return res.Hits[0], nil
}

// TestOpcodes runs small programs, one or two opcodes at a time, and
// checks the data each logs: every opcode of docs/tdf.md, the bad
// statuses, and MAXDATALENGTH.
func TestOpcodes(t *testing.T) {
	for _, tc := range []struct {
		name       string
		program    string
		maxData    int    // 0: 512; -1: 0
		data       string // hex
		status     dyndata.Status
		incomplete bool
	}{
		{"push EAX, log 32", "00 2101", 0, "2c4b0000", 0, false},
		{"push each general register as a word", "07 06 05 04 03 02 01 00 1408", 0, "2c4bffff100001000000000010002000", 0, false},
		{"segment registers, FLAGS and IP as words", "0F 0E 0D 0C 0B 0A 09 08 1408", 0, "00000f000000b7004602040000000000", 0, false},
		{"EFLAGS and EIP as dwords", "0D 0C 2102", 0, "4602000004000100", 0, false},
		{"log no register", "1400 2100", 0, "", 0, false},
		{"imm16 and imm32", "10 3412 1A 78563412 2102", 0, "7856341234120000", 0, false},
		{"add wraps at 32 bits", "01 1A 02000000 16 2101", 0, "01000000", 0, false},
		{"object base (0x1B) and selector (0x11)", "1B 01000000 11 01 2102", 0, "0f00000000000100", 0, false},
		{"fetch dword (0x1C)", "1B 02000000 1C 2101", 0, "10000300", 0, false},
		{"fetch word at sel:off (0x12)", "0B 10 2000 12 2101", 0, "06000000", 0, false},
		{"fetch far pointer (0x13): sel below off", "1B 02000000 1A 04000000 16 1C 1F 13 1402", 0, "0600aabb", 0, false},
		{"split (0x1F): sel below off", "1A 2000B700 1F 1402", 0, "2000b700", 0, false},
		{"join (0x20)", "10 B700 10 2000 20 2101", 0, "2000b700", 0, false},
		{"join takes the offset's low word", "10 B700 1A 20000800 20 2101", 0, "2000b700", 0, false},
		{"log memory flat (0x22)", "10 0500 1A 10000300 22", 0, "000500" + "68656c6c6f", 0, false},
		{"log memory sel:off (0x15)", "10 0400 0B 06 15", 0, "000400" + "68656c6c", 0, false},
		{"segmented offset wraps at 16 bits", "10 0200 0B 10 F0FF 10 3000 16 15", 0, "000200" + "0600", 0, false},
		{"log ASCIIZ flat (0x23): up to the NUL", "10 4000 1A 10000300 23", 0, "010500" + "68656c6c6f", 0, false},
		{"log ASCIIZ sel:off (0x19): at most len", "10 0300 0B 06 19", 0, "010300" + "68656c", 0, false},
		{"ASCIIZ of length 0", "10 0000 0B 06 19", 0, "010000", 0, false},
		{"memory of length 0", "10 0000 0B 06 15", 0, "000000", 0, false},
		{"LEN then MEM: the fetched length", "0B 10 2000 12 0B 10 2000 15", 0, "000600" + "0600aabbccdd", 0, false},
		{"a flat LEN dword gives its low word", "1A 20000300 1C 1A 10000300 22", 0, "000600" + "68656c6c6f00", 0, false},
		{"ABORTOP, REMOVEOP, ORBIT log nothing", "31 33 1A 01000000 32 0200 00 2101", 0, "2c4b0000", 0, false},
		{"no program", "", 0, "", 0, false},

		{"invalid selector: FF and the 16:16 pointer", "00 1401 10 0400 10 3412 10 0800 15 00 1401", 0, "2c4b" + "ff0400" + "08003412", 0xFF, false},
		{"undescribed selector: FF", "10 0400 10 2143 10 0800 15", 0, "ff0400" + "08002143", 0xFF, false},
		{"selector not present: FE", "10 0400 10 7856 10 0800 15", 0, "fe0400" + "08007856", 0xFE, false},
		{"past the limit: FF before any page is read", "10 0400 0B 10 FE00 15", 0, "ff0400" + "fe00b700", 0xFF, false},
		{"the last bytes below the limit", "10 0200 0B 10 FE00 15", 0, "000200" + "0102", 0, false},
		{"ASCIIZ past the limit before its NUL: FF", "10 4000 0B 10 FE00 19", 0, "ff0400" + "fe00b700", 0xFF, false},
		{"page not present, flat: FD and the flat pointer", "10 0400 1A 00100500 22", 0, "fd0400" + "00100500", 0xFD, false},
		{"crossing into a page not present: FD", "10 0400 1A FE0F0500 22", 0, "fd0400" + "fe0f0500", 0xFD, false},
		{"the bytes before the page: good", "10 0200 1A FE0F0500 22", 0, "000200" + "c1c2", 0, false},
		{"memory no region holds: FD", "10 0100 1A 00000700 22", 0, "fd0400" + "00000700", 0xFD, false},
		{"a fetch that fails: its pointer, nothing after", "1B 02000000 1A 08000000 16 1C 1C 00 2101", 0, "fd0400" + "00100500", 0xFD, false},
		{"a far fetch through an invalid selector", "10 0400 10 3412 10 0000 13 15", 0, "ff0400" + "00003412", 0xFF, false},
		{"a word fetch through a selector not present", "10 7856 10 0200 12 1A 00000300 22", 0, "fe0400" + "02007856", 0xFE, false},

		{"MAXDATALENGTH: memory cut, incomplete", "10 1000 1A 10000300 22", 8, "000500" + "68656c6c6f", 0, true},
		{"MAXDATALENGTH: registers cut", "00 00 00 2103", 8, "2c4b00002c4b0000", 0, true},
		{"MAXDATALENGTH: words cut", "00 00 00 1403", 5, "2c4b2c4b", 0, true},
		{"MAXDATALENGTH: no room for a prefix", "00 2101 10 0100 1A 10000300 22", 6, "2c4b0000", 0, true},
		{"MAXDATALENGTH: exactly full is complete", "10 0500 1A 10000300 22", 8, "000500" + "68656c6c6f", 0, false},
		{"MAXDATALENGTH: a string that fits with its NUL after", "10 4000 1A 10000300 23", 8, "010500" + "68656c6c6f", 0, false},
		{"MAXDATALENGTH: a string cut", "10 4000 1A 10000300 23", 7, "010400" + "68656c6c", 0, true},
		{"MAXDATALENGTH: no room for a bad status", "00 2101 10 0400 1A 00100500 22", 10, "2c4b0000", 0, true},
		{"MAXDATALENGTH: room for a bad status", "00 2101 10 0400 1A 00100500 22", 11, "2c4b0000" + "fd0400" + "00100500", 0xFD, false},
		{"MAXDATALENGTH 0", "00 2101", -1, "", 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			maxData := uint16(max(tc.maxData, 0))
			if tc.maxData == 0 {
				maxData = 512
			}
			hr, err := runProgram(t, tc.program, maxData)
			if err != nil {
				t.Fatal(err)
			}
			if got := hex.EncodeToString(hr.Record.Data); got != tc.data {
				t.Errorf("data %s, want %s", got, tc.data)
			}
			if hr.Status != tc.status || hr.Incomplete != tc.incomplete {
				t.Errorf("status %v incomplete %v, want %v %v", hr.Status, hr.Incomplete, tc.status, tc.incomplete)
			}
			wantFlags := byte(stda.FlagProtect | stda.FlagDynamic)
			if tc.incomplete {
				wantFlags |= stda.FlagIncomplete
			}
			if hr.Record.Flags != wantFlags {
				t.Errorf("flags %02X, want %02X", hr.Record.Flags, wantFlags)
			}
		})
	}
}

// TestBrokenPrograms: a program the machine cannot run is an error that
// names the hit, the tracepoint and the offset in the program.
func TestBrokenPrograms(t *testing.T) {
	for _, tc := range []struct {
		program, want string
	}{
		{"00 2101 17", "hit 0: tracepoint minor 0x0007 at 00000001:00000000: RPN offset 3: 0x17 is not an RPN opcode"},
		{"1A 0100", "RPN offset 1: push_imm32 needs a 4-byte operand, 2 bytes left"},
		{"2101", "RPN offset 0: log_regs32 needs 1 stack items, the stack holds 0"},
		{"00 00 1403", "RPN offset 2: log_regs16 needs 3 stack items, the stack holds 2"},
		{"16", "RPN offset 0: add needs 2 stack items, the stack holds 0"},
		{"10 0100 22", "RPN offset 3: log_mem_flat needs 2 stack items, the stack holds 1"},
		{"00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 2111", "RPN offset 16: push_reg: the stack would hold 17 items, more than 16"},
		{"00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 1F", "RPN offset 16: split: the stack would hold 17 items, more than 16"},
		{"00 00", "RPN offset 2: 2 stack items are left at the end of the program"},
		{"32 0100", "RPN offset 0: orbit needs 1 stack items, the stack holds 0"},
		{"1B 03000000 1C 2101", "RPN offset 0: push_object_base: the state gives no base address for object 3"},
		{"11 02 10 0000 12 2101", "RPN offset 0: push_selector: the state gives no selector for object 2"},
	} {
		_, err := runProgram(t, tc.program, 512)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.program, err, tc.want)
		}
		if _, ok := err.(*RunError); err != nil && !ok {
			t.Errorf("%s: %T is not a *RunError", tc.program, err)
		}
	}
}

// TestFaultStopsTheHit: after a bad status nothing more is logged, but a
// broken instruction after it is not reached and is no error: the kernel
// stops there.
func TestFaultStopsTheHit(t *testing.T) {
	hr, err := runProgram(t, "10 0400 1A 00100500 22 16 16", 512)
	if err != nil {
		t.Fatal(err)
	}
	if hr.Status != 0xFD {
		t.Errorf("status %v", hr.Status)
	}
}

// TestPrefixMatchesByteAt: on random layers of overlapping regions and
// absent pages, memory.prefix returns exactly what byteAt returns byte by
// byte, and something whenever byteAt can read the first byte.
func TestPrefixMatchesByteAt(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var m memory
		m.absent = map[uint32]bool{}
		for range 2 {
			var l []Region
			for range rng.IntN(4) {
				d := make([]byte, rng.IntN(40))
				for i := range d {
					d[i] = byte(rng.IntN(256))
				}
				l = append(l, Region{Addr: 0xFFC + uint32(rng.IntN(32)) - 16 + uint32(rng.IntN(2))*0xFFFFFF00, Data: d})
			}
			m.layers = append(m.layers, l)
		}
		if rng.IntN(3) == 0 {
			m.absent[1] = true
		}
		for range 20 {
			a := 0xFF0 + uint32(rng.IntN(48)) + uint32(rng.IntN(2))*0xFFFFF000
			n := rng.IntN(24)
			b := m.prefix(a, n)
			if len(b) > n {
				t.Fatalf("prefix(%#x, %d) gave %d bytes", a, n, len(b))
			}
			for i := range n {
				c, ok, _ := m.byteAt(a + uint32(i))
				if i < len(b) && (!ok || c != b[i]) {
					t.Fatalf("prefix(%#x, %d)[%d] = %#x, byteAt gives %#x, %v", a, n, i, b[i], c, ok)
				}
			}
			if _, ok, _ := m.byteAt(a); ok && n > 0 && len(b) == 0 {
				t.Fatalf("prefix(%#x, %d) is empty, byteAt reads the first byte", a, n)
			}
		}
	}
}

// TestSpansMatchRegions: memory.prefix through a layer's spans (newSpans)
// returns exactly what the search region by region returns, on random
// overlapping regions, some at the top of the address space, with and
// without absent pages.
func TestSpansMatchRegions(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 3000 {
		var l []Region
		for range rng.IntN(7) {
			d := make([]byte, rng.IntN(40))
			for i := range d {
				d[i] = byte(rng.IntN(256))
			}
			l = append(l, Region{Addr: 0xFFC + uint32(rng.IntN(64)) - 32 + uint32(rng.IntN(2))*0xFFFFF000, Data: d})
		}
		// The search region by region stops at an empty region too (it
		// holds no byte; load then reads on byte by byte): compare with it
		// on the regions that hold bytes.
		full := slices.DeleteFunc(slices.Clone(l), func(r Region) bool { return len(r.Data) == 0 })
		slow := memory{layers: [][]Region{full}, absent: map[uint32]bool{}}
		if rng.IntN(3) == 0 {
			slow.absent[1] = true
		}
		fast := memory{layers: [][]Region{l}, absent: slow.absent, index: newSpans(l)}
		for k := 1; k < len(fast.index); k++ {
			if p, s := fast.index[k-1], fast.index[k]; p.end > s.start || p.end == s.start && p.r == s.r || s.start >= s.end {
				t.Fatalf("spans %d and %d out of order or not merged: %+v %+v", k-1, k, p, s)
			}
		}
		for range 40 {
			a := 0xFD0 + uint32(rng.IntN(96)) + uint32(rng.IntN(2))*0xFFFFF000
			n := rng.IntN(48)
			want, got := slow.prefix(a, n), fast.prefix(a, n)
			if !bytes.Equal(want, got) {
				t.Fatalf("prefix(%#x, %d): spans give % x, regions % x (regions %v)", a, n, got, want, l)
			}
		}
	}
}
