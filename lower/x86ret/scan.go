package x86ret

import "fmt"

// Search is how TRCUST 3.05A looks for a RETEP return point: the /RMn and
// /RSnnn switches of its command line (and /RP, which it accepts).
//
// TRCUST does not decode instructions: it looks at the bytes of a window
// that ends where the procedure ends (the next public symbol of the object,
// or the end of the object) for a RET byte (0xC3) in one of the forms its
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
//   - Within the window the forms are tried in turn, each for the last RET
//     of the window that has it; the first form found wins:
//     LEAVE or POP (E)BP right before the RET (0xC9 0xC3, 0x5D 0xC3), the
//     tracepoint on the LEAVE or the POP, with bit 1 or bit 2 of the match
//     criteria; LEAVE three bytes before the RET (a two-byte instruction
//     between, as `xor eax,eax`), the tracepoint on the LEAVE, with bits 0
//     and 1; the RET itself, with bit 2.
//   - /RM0 and /RM1 find nothing; /RM2 is the default.
//
// What is not reproduced (documented in docs/compatibility.md): with bit 2
// TRCUST finds no plain RET in two of the 84 procedures (a RET at the
// procedure's entry, and one after `xchg [esp],eax`), and with bits 1 and 2
// it takes a JMP after POP EBP as the return of one procedure. /RP (Pascal
// returns allowed) changed nothing on these procedures, which have no
// RET n.
type Search struct {
	Match  int  // /RMn: the match criteria, 0-7
	Range  int  // /RSnnn: the search range in bytes, 0-256
	Pascal bool // /RP
}

// DefaultSearch is TRCUST 3.05A's search without /RM, /RS or /RP.
var DefaultSearch = Search{Match: 2, Range: 18}

// Opcodes the search looks for.
const (
	opRET   = 0xC3
	opLEAVE = 0xC9
	opPOPBP = 0x5D
)

// pageSize is the LX page size; the search reads one page of the object.
const pageSize = 0x1000

// Scan returns the offset in code (an LX object's bytes) of the RETEP
// tracepoint of the procedure that starts at entry and ends before end (0
// or an end beyond the code: the end of the code), found as TRCUST 3.05A
// finds it with the search s.
func Scan(code []byte, entry, end uint32, s Search) (uint32, error) {
	stop := int64(len(code))
	if end > entry && int64(end) < stop {
		stop = int64(end)
	}
	if int64(entry) >= stop {
		return 0, fmt.Errorf("x86ret: entry point 0x%X is outside the procedure", entry)
	}
	lo := max(stop-int64(s.Range)+1, int64(entry))
	if page := lo/pageSize*pageSize + pageSize; page < stop {
		stop = page
	}
	var forms []func(i int64) (int64, bool)
	if s.Match&6 != 0 {
		forms = append(forms, func(i int64) (int64, bool) {
			return i - 1, i-1 >= lo && (code[i-1] == opLEAVE || code[i-1] == opPOPBP)
		})
	}
	if s.Match&3 == 3 {
		forms = append(forms, func(i int64) (int64, bool) { return i - 3, i-3 >= lo && code[i-3] == opLEAVE })
	}
	if s.Match&4 != 0 {
		forms = append(forms, func(i int64) (int64, bool) { return i, true })
	}
	for _, form := range forms {
		for i := stop - 1; i >= lo; i-- {
			if code[i] != opRET {
				continue
			}
			if at, ok := form(i); ok {
				return uint32(at), nil
			}
		}
	}
	return 0, fmt.Errorf("x86ret: no return in the %d bytes before 0x%X in the forms /RM%d allows", stop-lo, stop, s.Match)
}
