package x86ret

import "testing"

// TestScan checks the byte search TRCUST 3.05A makes for a RETEP return
// point (Search's doc has the measurements) on synthetic code.
func TestScan(t *testing.T) {
	nop := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = 0x90
		}
		return b
	}
	cat := func(parts ...[]byte) []byte {
		var out []byte
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	// 0x00: entry; a LEAVE;RET at 0x10, a POP EBP;RET at 0x20, a plain RET at 0x30.
	code := cat(nop(0x10), []byte{0xC9, 0xC3}, nop(0x0E), []byte{0x5D, 0xC3}, nop(0x0E), []byte{0x31, 0xC0, 0xC3}, nop(0x0D))
	// a LEAVE; xor eax,eax; RET (LEAVE three bytes before the RET) at 0x10.
	gap := cat(nop(0x10), []byte{0xC9, 0x33, 0xC0, 0xC3}, nop(0x04))
	for _, tc := range []struct {
		name string
		code []byte
		end  uint32
		s    Search
		want int64 // -1: none
	}{
		{"default: the last pair", code, 0x23, DefaultSearch, 0x20},
		{"default: pair 17 bytes before the end", code, 0x21 + 0x10, DefaultSearch, 0x20},
		{"default: pair 18 bytes before the end", code, 0x22 + 0x10, DefaultSearch, -1},
		{"range 32 reaches back 31 bytes", code, 0x3F, Search{Match: 2, Range: 32}, 0x20},
		{"range 0 searches as 2: the last byte only, a NOP", code, 0x23, Search{Match: 2, Range: 0}, -1},
		{"RM0 finds nothing", code, 0x23, Search{Match: 0, Range: 18}, -1},
		{"RM1 finds nothing", code, 0x23, Search{Match: 1, Range: 18}, -1},
		{"RM4: a pair before a later plain RET", code, 0x40, Search{Match: 4, Range: 256}, 0x20},
		{"RM4: a plain RET", code[0x22:], 0x1E, Search{Match: 4, Range: 18}, 0x10},
		{"RM2: no plain RET", code[0x22:], 0x1E, Search{Match: 2, Range: 18}, -1},
		{"RM3: LEAVE, 2 bytes, RET", gap, 0, Search{Match: 3, Range: 18}, 0x10},
		{"RM2: not LEAVE, 2 bytes, RET", gap, 0, Search{Match: 2, Range: 18}, -1},
		{"RM5: the RET before LEAVE, 2 bytes, RET", gap, 0, Search{Match: 5, Range: 18}, 0x13},
		{"RM3: the nearest LEAVE before the RET", cat(nop(2), []byte{0x33, 0xC9, 0x0F, 0xB3, 0x10, 0x13, 0xC9, 0x8B, 0xC1, 0xC3}), 0, Search{Match: 3, Range: 18}, 8},
		{"RM3: LEAVE, 6 bytes, RET", cat(nop(2), []byte{0xC9, 0x76, 0x26, 0x8B, 0x53, 0x4C, 0x8B, 0xC3}), 0, Search{Match: 3, Range: 18}, 2},
		{"RM3: LEAVE, 2 bytes, RETF n", cat(nop(2), []byte{0xC9, 0x8B, 0xCA, 0x75, 0xF1}), 0, Search{Match: 3, Range: 18}, 2},
		{"RM2: LEAVE before RETF (testargv16.exe's 1:2B43)", cat(nop(8), []byte{0xC9, 0xCB}), 0, Search{Match: 2, Range: 18}, 8},
		{"RM4: RETF", cat(nop(8), []byte{0xCB}, nop(2)), 0, Search{Match: 4, Range: 18}, 8},
		{"RS0 searches as RS2: a RET right before the end", cat(nop(8), []byte{0xC3}), 0, Search{Match: 4, Range: 0}, 8},
		{"RS1 /RM7: a LEAVE the window's last byte, its RET past it", cat(nop(8), []byte{0xC9, 0xC3}), 9, Search{Match: 7, Range: 1}, 8},
		{"RS0 /RM2: a LEAVE before the last byte is outside the window", cat(nop(8), []byte{0xC9, 0xC3}), 9, Search{Match: 2, Range: 0}, -1},
		{"RM7: an end before the object leaves no window", cat(nop(8), []byte{0xC3}, nop(2)), 0xFFFFFF00, Search{Match: 7, Range: 18}, -1},
		{"RM4: RET n", cat(nop(8), []byte{0xC2, 4, 0}), 0, Search{Match: 4, Range: 18}, 8},
		{"RM4: not RETF n", cat(nop(8), []byte{0xCA, 4, 0}), 0, Search{Match: 4, Range: 18}, -1},
		{"RM4: not a RET at the window's start", cat([]byte{0xC3}, nop(3)), 0, Search{Match: 4, Range: 18}, -1},
		{"RM4: not a JMP", cat(nop(8), []byte{0xE9, 0, 0, 0, 0}), 0, Search{Match: 4, Range: 18}, -1},
		{"RM6: JMP", cat(nop(8), []byte{0xE9, 0, 0, 0, 0}), 0, Search{Match: 6, Range: 18}, 8},
		{"RM6: JMP short", cat(nop(8), []byte{0xEB, 0}), 0, Search{Match: 6, Range: 18}, 8},
		{"RM6: JMP far", cat(nop(8), []byte{0xEA, 0, 0, 0, 0, 0, 0}), 0, Search{Match: 6, Range: 18}, 8},
		{"RM6: not an indirect JMP", cat(nop(8), []byte{0xFF, 0xE0}), 0, Search{Match: 6, Range: 18}, -1},
		{"RM6: a RETF before a later JMP", cat(nop(8), []byte{0xCB, 0xE9, 0, 0, 0, 0}), 0, Search{Match: 6, Range: 18}, 8},
		{"RM2: not a JMP after POP EBP", cat(nop(8), []byte{0x5D, 0xE9, 0, 0, 0, 0}), 0, Search{Match: 2, Range: 18}, -1},
		// Session 15, windows of emitrep probed with TRCUST 3.05A.
		{"RM3: the last LEAVE, no return", cat(nop(2), []byte{0x83, 0xC9, 0xFF, 0x5E, 0x49, 0xC9}), 0, Search{Match: 3, Range: 18}, 7},
		{"RM5: the last LEAVE, no return", cat(nop(2), []byte{0x83, 0xC9, 0xFF, 0x5E, 0x49, 0xC9}), 0, Search{Match: 5, Range: 18}, 7},
		{"RM1: no LEAVE alone", cat(nop(2), []byte{0x83, 0xC9, 0xFF, 0x5E, 0x49, 0xC9}), 0, Search{Match: 1, Range: 18}, -1},
		{"RM2: no LEAVE alone", cat(nop(2), []byte{0x83, 0xC9, 0xFF, 0x5E, 0x49, 0xC9}), 0, Search{Match: 2, Range: 18}, -1},
		{"RM3: a POP EBP alone is none", cat(nop(4), []byte{0x5D, 0x90}), 0, Search{Match: 3, Range: 18}, -1},
		{"RM3: the LEAVE before a later POP EBP", cat(nop(2), []byte{0x0B, 0xC9, 0x90, 0x8B, 0x5D, 0xE0}), 0, Search{Match: 3, Range: 18}, 3},
		{"RM7: a RET alone before the LEAVE whose RET is past the window", cat(nop(2), []byte{0xC3}, nop(13), []byte{0xC9, 0xC3}), 17, Search{Match: 7, Range: 18}, 2},
		{"RM3: the LEAVE whose RET is past the window", cat(nop(2), []byte{0xC3}, nop(13), []byte{0xC9, 0xC3}), 17, Search{Match: 3, Range: 18}, 16},
	} {
		got, err := Scan(tc.code, 0, tc.end, tc.s)
		if tc.want < 0 {
			if err == nil {
				t.Errorf("%s: found 0x%X, want none", tc.name, got)
			}
			continue
		}
		if err != nil || int64(got) != tc.want {
			t.Errorf("%s: 0x%X %v, want 0x%X", tc.name, got, err, tc.want)
		}
	}
}

// TestScanPage checks that a window starting in an earlier 4 KB page is
// read from that page only (malloc of the oracle's emitrep.dll under /RS200).
func TestScanPage(t *testing.T) {
	code := make([]byte, 0x1090)
	code[0x1080], code[0x1081] = 0xC9, 0xC3
	if got, err := Scan(code, 0xDC0, 0x1090, Search{Match: 2, Range: 128}); err != nil || got != 0x1080 {
		t.Errorf("/RS128: 0x%X %v, want 0x1080", got, err)
	}
	if got, err := Scan(code, 0xDC0, 0x1090, Search{Match: 2, Range: 200}); err == nil {
		t.Errorf("/RS200: found 0x%X, want none", got)
	}
}

// TestScanEntryPastEnd: an entry past the procedure's end (a next line of
// "Publics by Value" at a lower offset) cuts nothing off the window before
// the end, and an entry at the end leaves no window (session 15,
// retep_entry_past_end).
func TestScanEntryPastEnd(t *testing.T) {
	code := make([]byte, 0x40)
	code[0x10], code[0x11] = 0xC9, 0xC3 // LEAVE; RET
	if got, err := Scan(code, 0x30, 0x12, DefaultSearch); err != nil || got != 0x10 {
		t.Errorf("entry 0x30, end 0x12: 0x%X %v, want the LEAVE at 0x10", got, err)
	}
	if got, err := Scan(code, 0x12, 0x12, DefaultSearch); err == nil {
		t.Errorf("entry at the end: found 0x%X, want none", got)
	}
}
