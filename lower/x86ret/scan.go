package x86ret

import (
	"fmt"
	"math"
)

// Search is how TRCUST 3.05A looks for a RETEP return point: the /RMn and
// /RSnnn switches of its command line (and /RP, which it accepts).
//
// TRCUST does not decode instructions: it looks at the bytes of a window
// that ends where the procedure ends (where the MAP file's "Publics by
// Value" says: lower/tdfgen/lxmap's Symbols.Next) for a RET byte (0xC3) in one of the forms its
// match criteria allow. Measured with IBM's binary (through the oracle
// runner) on every public procedure of the oracle's emitrep.dll, and on
// procedures bounded by symbols of MAP files made for the purpose:
//
//   - The window is the last Range-1 bytes before the procedure's end, cut
//     at the tracepoint's own address (/RS32 finds a LEAVE 31 bytes before
//     the end, not 32 bytes before it; the default finds one 17 bytes
//     before, not 18: the default range is 18). A window that starts in an
//     earlier 4 KB page of the object than the one the procedure ends in
//     is read from that page only (/RS200 on malloc, whose window starts
//     at 0xFC9 and whose LEAVE is at 0x1080, finds nothing).
//   - Within the window the forms are tried in turn, each for the last
//     byte of the window that ends it; the first form found wins:
//     1. LEAVE or POP (E)BP right before a return (0xC9 0xC3, 0x5D 0xC3;
//     before RETF too, 0xC9 0xCB), the tracepoint on the LEAVE or the POP,
//     with bit 1 or bit 2 of the match criteria;
//     2. a return alone (RET, RET n, RETF: 0xC3, 0xC2, 0xCB; not RETF n,
//     0xCA), the tracepoint on it, with bit 2;
//     3. with bit 0 and bit 1 or 2: the first form with its RET the byte
//     right after the window (the window's last byte the LEAVE or POP),
//     then the last LEAVE of the window, with or without a return after
//     it (a POP alone is none);
//     4. a jump (0xE9, 0xEB, 0xEA; not an indirect one, 0xFF), the
//     tracepoint on it, with bits 1 and 2.
//     No form puts the tracepoint on the procedure's entry (a RET, or a
//     LEAVE before a RET, at the entry is none); a return alone at the
//     first byte of a window that starts after the entry is one.
//   - /RM0 and /RM1 find nothing; /RM2 is the default.
//
// /RP (Pascal returns allowed) lets the second form take a RETF n (0xCA)
// too; whether it changes the other forms is not known (emitrep has no
// LEAVE or POP (E)BP before a RET n or a RETF n).
// The first form takes the returns the second takes (RETF seen on 2ine's
// 16-bit testargv16.exe; RET n and RETF n not seen: no module at hand has
// them after a LEAVE or a POP).
type Search struct {
	Match  int  // /RMn: the match criteria, 0-7
	Range  int  // /RSnnn: the search range in bytes, 0-256 (see Span)
	Pascal bool // /RP
}

// Span is the search range TRCUST 3.05A uses: Range, but 2 for a range
// below 2. /RS0 and /RS1 search as /RS2 does (IBM's behaviour, session
// 18, fresh seed 1443310: with /RS0 or /RS1 and /RM3, /RM5 or /RM7 TRCUST
// finds the LEAVE at 1:4401 of emitrep that /RS2 finds, its RET the byte
// after the window; nothing with /RM2 or /RM6, as with /RS2), and read the
// window's page 2 bytes before the procedure's end (session 17:
// .free+0x10000,RETEP warns for end-2 with /RS0, /RS1 and /RS2, end-3
// with /RS3).
func (s Search) Span() int { return max(s.Range, 2) }

// DefaultSearch is TRCUST 3.05A's search without /RM, /RS or /RP.
var DefaultSearch = Search{Match: 2, Range: 18}

// Opcodes the search looks for.
const (
	opRET      = 0xC3 // RET
	opRETN     = 0xC2 // RET imm16
	opRETF     = 0xCB // RETF
	opRETFN    = 0xCA // RETF imm16
	opLEAVE    = 0xC9
	opPOPBP    = 0x5D // POP (E)BP
	opJMP      = 0xE9 // JMP rel16/32
	opJMPShort = 0xEB // JMP rel8
	opJMPFar   = 0xEA // JMP ptr16:16/32
)

// pageSize is the LX page size; the search reads one page of the object.
const pageSize = 0x1000

// Scan returns the offset in code (an LX object's bytes) of the RETEP
// tracepoint of the procedure that starts at entry and ends before end (0
// or an end beyond the code: the end of the code), found as TRCUST 3.05A
// finds it with the search s.
func Scan(code []byte, entry, end uint32, s Search) (uint32, error) {
	return ScanFunc(func(i int64) byte { return code[i] }, int64(len(code)), entry, end, s)
}

// ScanFunc is Scan over the bytes read gives, at offsets 0 to size-1 (the
// procedure's end is at most size): TRCUST reads the window through its
// page buffer, so past an object's size (a procedure end moved there by a
// TP offset) it reads what the buffer holds (IBM's behaviour: with /RM6,
// .DosGetMessage+0x11,RETEP finds nothing, its window past the object's
// 0x4440 bytes).
func ScanFunc(read func(i int64) byte, size int64, entry, end uint32, s Search) (uint32, error) {
	// The entry is a signed offset: one before the object's start (a
	// symbol at 0 with a negative offset wraps to 0xFFFFFFFE) cuts
	// nothing off the window (IBM's behaviour, tried with its binary:
	// .emit-2,RETEP finds emit's LEAVE at 1:307).
	at := int64(int32(entry))
	stop := size
	if int32(end) < 0 {
		// An end before the object's start (an offset that moved it
		// there) leaves no window: nothing is found, whatever the match
		// criteria (IBM's behaviour, session 17: .emit-0x400,RETEP,
		// whose end is 0x30C-0x400, finds nothing with /RM7 as with
		// /RM2; fresh seed 1371060 on 2ine's hello.exe).
		return 0, fmt.Errorf("x86ret: the procedure's end 0x%X lies before the object", end)
	}
	code := byteReader(read)
	if e := int64(int32(end)); e > 0 && e < stop {
		stop = e
	}
	switch {
	case at == stop:
		return 0, fmt.Errorf("x86ret: entry point 0x%X is the procedure's end", entry)
	case at > stop:
		// An entry past the end cuts nothing off the window (IBM's
		// behaviour, session 15: TRCUST's window is the shorter of the
		// range and end - entry, which wraps; .pX,RETEP at 1:400 before a
		// line at 1:30D in "Publics by Value" finds emit's LEAVE at
		// 1:307, as does strspn at 1:50BE, past its segments, before
		// 2:30D).
		at = math.MinInt64
	}
	lo := max(stop-int64(s.Span())+1, at, 0)
	if page := lo/pageSize*pageSize + pageSize; page < stop {
		stop = page
	}
	// Each form: the bytes that end it, and where it puts the tracepoint
	// for such a byte at i (ok false when the form does not hold there).
	type form struct {
		ends func(c byte) bool
		at   func(i int64) (int64, bool)
		// past: the byte that ends the form is the one right after the
		// window, the tracepoint's byte in it (bit 0), and no other.
		past bool
	}
	// A return: RET, RET n and RETF, and with /RP the Pascal far return,
	// RETF n (IBM's behaviour: .exit-0x40,RETEP with /RM6 /RP finds the
	// 0xCA at 1:1584 of emitrep, and nothing without /RP). The LEAVE or
	// POP of the first form may stand before any of them (IBM's
	// behaviour, session 17: on 2ine's 16-bit testargv16.exe the LEAVE of
	// "c9 cb" at 1:2B43 is found with the default /RM2; whether it takes
	// a RET n is not known, no module at hand has "c9 c2" or "5d c2").
	isRET := func(c byte) bool {
		return c == opRET || c == opRETN || c == opRETF || s.Pascal && c == opRETFN
	}
	// No form puts the tracepoint on the entry itself; a return or a
	// jump alone at the start of a window that does not reach the entry
	// is one (IBM's behaviour: .fflush+2,RETEP with /RM4 finds the RET
	// 17 bytes before the end, the first byte of the default window;
	// .strspn-0x10,RETEP, whose entry is _MesgServ's LEAVE before a
	// RET, finds nothing with /RM2 and the RET with /RM6).
	alone := func(i int64) (int64, bool) { return i, i > at }
	var forms []form
	leaveRET := func(i int64) (int64, bool) {
		return i - 1, i-1 >= lo && i-1 > at && (code(i-1) == opLEAVE || code(i-1) == opPOPBP)
	}
	if s.Match&6 != 0 {
		// The LEAVE or POP and the RET after it in the window.
		forms = append(forms, form{isRET, leaveRET, false})
	}
	if s.Match&4 != 0 {
		forms = append(forms, form{isRET, alone, false})
	}
	if s.Match&1 != 0 && s.Match&6 != 0 {
		// With bit 0 of the match criteria, after the forms above: the
		// RET right after the window, the window's last byte a LEAVE or a
		// POP (IBM's behaviour: .strspn-2,RETEP and
		// .ReportEmitterNewClass-2,RETEP, whose windows end at the POP BP
		// before the RET, find that POP with /RM3, /RM5 and /RM7, and
		// nothing with /RM2 and /RM6; a window of emitrep ending at
		// 1:1DD3 finds the RET alone at 1:1DC3 with /RM7 before the LEAVE
		// at its end, and that LEAVE with /RM3); then the last LEAVE of
		// the window, with or without a return after it (IBM's
		// behaviour, session 15, on windows of emitrep bounded by MAP
		// files written for it: in "83 c9 ff ... 49 c9" the C9 at the end,
		// in one ending at 1:2455 the C9 of "33 c9" with no return
		// anywhere near; a POP BP, 0x5D, alone is none: "0b c9 ... 8b 5d
		// e0" takes the C9).
		forms = append(forms, form{isRET, leaveRET, true})
		forms = append(forms, form{func(c byte) bool { return c == opLEAVE }, func(i int64) (int64, bool) {
			return i, i > at
		}, false})
	}
	if s.Match&6 == 6 {
		forms = append(forms, form{func(c byte) bool { return c == opJMP || c == opJMPShort || c == opJMPFar }, alone, false})
	}
	for _, f := range forms {
		top, bottom := stop-1, lo
		if f.past {
			if stop >= size {
				continue
			}
			top, bottom = stop, stop
		}
		for i := top; i >= bottom; i-- {
			if !f.ends(code(i)) {
				continue
			}
			if at, ok := f.at(i); ok {
				return uint32(at), nil
			}
		}
	}
	return 0, fmt.Errorf("x86ret: no return in the %d bytes before 0x%X in the forms /RM%d allows", stop-lo, stop, s.Match)
}

// byteReader reads the byte at an offset; it stands for the code slice.
type byteReader func(i int64) byte
