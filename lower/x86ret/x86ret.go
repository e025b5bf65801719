// Package x86ret finds where a RETEP tracepoint goes by decoding the x86
// code of the procedure: its return point, "just before the procedure
// epilogue is executed", where "the
// procedure's automatic data is still addressable from register (E)BP and
// the return code (if any) is set up in (E)AX" (TRCUST reference, section
// 1.3.5.2).
//
// TRCUST 3.05A finds it without debug information by scanning the
// procedure's code. The rule, which holds for every RETEP tracepoint of the
// oracle (d54 emit; x_r01 malloc, free, getenv, fclose; x_r02 strspn,
// wctomb, exit, fflush, wcstombs, five of them procedures with two to five
// returns):
//
//  1. The procedure runs from its entry point to where the MAP file's
//     "Publics by Value" ends it (lower/tdfgen/lxmap's Symbols.Next; the
//     module's exports when there is no MAP file), or to the end of the
//     object.
//  2. Its instructions are decoded in address order from the entry point, a
//     linear sweep that follows no jump (golang.org/x/arch/x86/x86asm).
//  3. The return point is the LAST return instruction (RET, RETF, with or
//     without an immediate) of that range: compilers that duplicate the
//     epilogue for early returns put the main one at the end, and that is
//     the one TRCUST picks (malloc has five, TRCUST takes the one at
//     malloc+0x2C0, the last before free).
//  4. The tracepoint goes on the first instruction of the epilogue before
//     that return: LEAVE when LEAVE stands right before it; MOV (E)SP,(E)BP
//     when it stands right before a POP (E)BP that stands right before the
//     return; POP (E)BP alone otherwise; the return instruction itself when
//     there is no such epilogue.
//
// Every oracle case has a LEAVE there; the other epilogue forms follow the
// reference's words (the point before the frame is torn down) and are
// tracekit's reading. The opcode 0x82 (an alias of 0x80 that 16- and 32-bit
// code may hold and the decoder rejects) is decoded as 0x80.
package x86ret

import (
	"fmt"

	"golang.org/x/arch/x86/x86asm"
)

// MaxScan is how far past the entry point the scan reads at most when the
// procedure's end is not known.
const MaxScan = 64 << 10

// ReturnPoint returns the offset in code of the return point of the
// procedure that starts at entry and ends before end (the next symbol above
// it; 0 or an end beyond the code means the end of the code, read at most
// MaxScan bytes). mode is 32 for a 32-bit object, 16 for a 16-bit one.
func ReturnPoint(code []byte, entry, end uint32, mode int) (uint32, error) {
	if mode != 16 && mode != 32 {
		return 0, fmt.Errorf("x86ret: mode %d: want 16 or 32", mode)
	}
	if int64(entry) >= int64(len(code)) {
		return 0, fmt.Errorf("x86ret: entry point 0x%X is outside the code (0x%X bytes)", entry, len(code))
	}
	stop := len(code)
	switch {
	case end > entry && int64(end) < int64(len(code)):
		stop = int(end)
	case end <= entry && int(entry)+MaxScan < stop:
		stop = int(entry) + MaxScan
	}
	var prev [2]struct {
		off  int
		inst x86asm.Inst
		ok   bool
	}
	found, point := false, 0
	for off := int(entry); off < stop; {
		inst, err := decode(code[off:stop], mode)
		if err != nil {
			if found {
				// What follows the last return decoded is not code the
				// procedure runs (padding, a literal pool): the return
				// point stands.
				break
			}
			return 0, fmt.Errorf("x86ret: cannot decode the instruction at 0x%X (% X): %v", off, window(code, off), err)
		}
		switch inst.Op {
		case x86asm.RET, x86asm.LRET:
			found, point = true, off
			p1, p2 := prev[1], prev[0]
			switch {
			case p1.ok && p1.inst.Op == x86asm.LEAVE:
				point = p1.off
			case p1.ok && isPopBP(p1.inst) && p2.ok && isMovSPBP(p2.inst):
				point = p2.off
			case p1.ok && isPopBP(p1.inst):
				point = p1.off
			}
		}
		prev[0] = prev[1]
		prev[1].off, prev[1].inst, prev[1].ok = off, inst, true
		off += inst.Len
	}
	if !found {
		return 0, fmt.Errorf("x86ret: no return instruction in the 0x%X bytes from the entry point 0x%X to 0x%X", stop-int(entry), entry, stop)
	}
	return uint32(point), nil
}

// decode decodes one instruction, reading opcode 0x82 as 0x80.
func decode(b []byte, mode int) (x86asm.Inst, error) {
	inst, err := x86asm.Decode(b, mode)
	if err == nil || len(b) == 0 {
		return inst, err
	}
	// Skip legacy prefixes to find the opcode byte.
	i := 0
	for i < len(b) && i < 4 && isPrefix(b[i]) {
		i++
	}
	if i < len(b) && b[i] == 0x82 {
		c := append([]byte(nil), b[:min(len(b), 16)]...)
		c[i] = 0x80
		return x86asm.Decode(c, mode)
	}
	return inst, err
}

func isPrefix(c byte) bool {
	switch c {
	case 0x26, 0x2E, 0x36, 0x3E, 0x64, 0x65, 0x66, 0x67, 0xF0, 0xF2, 0xF3:
		return true
	}
	return false
}

func isPopBP(i x86asm.Inst) bool {
	return i.Op == x86asm.POP && (i.Args[0] == x86asm.EBP || i.Args[0] == x86asm.BP)
}

func isMovSPBP(i x86asm.Inst) bool {
	return i.Op == x86asm.MOV && (i.Args[0] == x86asm.ESP && i.Args[1] == x86asm.EBP || i.Args[0] == x86asm.SP && i.Args[1] == x86asm.BP)
}

func window(code []byte, off int) []byte {
	return code[off:min(len(code), off+8)]
}
