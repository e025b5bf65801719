package simulate

import (
	"strconv"
	"strings"

	"github.com/tracekit/tracekit/binfmt/stda"
	"github.com/tracekit/tracekit/binfmt/tracefmt"
)

// PageSize is the size of the pages that State.PagesNotPresent marks.
const PageSize = 0x1000

// Reg names a register of the traced machine. The registers are numbered
// as the RPN machine's push opcodes 0x00-0x0F number them (x86 order).
type Reg uint8

// The registers. General registers, EFLAGS and EIP hold 32 bits; a program
// that logs or uses them as 16-bit values takes the low word. Segment
// registers hold a 16-bit selector.
const (
	RegEAX Reg = iota
	RegECX
	RegEDX
	RegEBX
	RegESP
	RegEBP
	RegESI
	RegEDI
	RegES
	RegCS
	RegSS
	RegDS
	RegEFLAGS
	RegEIP
	RegFS
	RegGS
	NumRegs // the number of registers
)

var regNames = [NumRegs]string{"EAX", "ECX", "EDX", "EBX", "ESP", "EBP", "ESI", "EDI", "ES", "CS", "SS", "DS", "EFLAGS", "EIP", "FS", "GS"}

// String returns the register's name as a state file spells it: "EAX",
// "DS", "EFLAGS".
func (r Reg) String() string {
	if r < NumRegs {
		return regNames[r]
	}
	return "reg(" + strconv.Itoa(int(r)) + ")"
}

// Segment reports whether r is a segment register (16 bits wide).
func (r Reg) Segment() bool {
	return r >= RegES && r <= RegDS || r == RegFS || r == RegGS
}

// ParseReg returns the register a state file names, in any case.
func ParseReg(name string) (Reg, bool) {
	for i, n := range regNames {
		if strings.EqualFold(name, n) {
			return Reg(i), true
		}
	}
	return 0, false
}

// Registers holds a value for every register, indexed by Reg.
type Registers [NumRegs]uint32

// Selector describes one selector of the traced machine: the segment it
// names (linear base and limit, the last valid offset), or that it is
// invalid or not present.
type Selector struct {
	Value uint16
	Base  uint32
	Limit uint32
	// Invalid makes every access through the selector log status 0xFF, as
	// a selector the state does not describe does.
	Invalid bool
	// NotPresent makes every access through the selector log status 0xFE.
	NotPresent bool
}

// Object is where the loader put one LX object of the traced module: what
// RPN opcode 0x1B pushes (Base, the flat address of its first byte) and
// what opcode 0x11 pushes (Selector, when HasSelector).
type Object struct {
	Number      uint32
	Base        uint32
	Selector    uint16
	HasSelector bool
}

// Region is memory of the traced machine: Data at the flat (linear)
// address Addr. Where regions overlap, the one listed later wins.
type Region struct {
	Addr uint32
	Data []byte
}

// Hit is one execution of a tracepoint.
type Hit struct {
	// ByAddress selects the tracepoint at Object:Offset; otherwise the
	// tracepoint whose minor code is Minor.
	ByAddress bool
	Minor     uint16
	Object    uint32
	Offset    uint32
	PID       uint16         // process ID; 0 means interrupt time
	Time      stda.Timestamp // hours, minutes, seconds, hundredths (Len 4)
	// External sets flag 0x01 (not generated inside the kernel) on the
	// record.
	External bool
	// Registers and Memory hold for this hit only: the registers replace
	// the state's, the regions lie on top of the state's.
	Registers map[Reg]uint32
	Memory    []Region

	// regSet and regVals are registers of the hit as the streaming reader
	// gives them, without a map: regVals[r] for each bit r of regSet,
	// applied after Registers.
	regSet  uint16
	regVals Registers
}

// State is the machine state a TDF runs against, and the hits to run.
type State struct {
	Registers Registers
	Selectors []Selector
	Objects   []Object
	Memory    []Region
	// PagesNotPresent lists pages, by the address of their first byte (a
	// multiple of PageSize), that are paged out: reading them logs status
	// 0xFD.
	PagesNotPresent []uint32
	// TraceOn and TraceOff go into a new-format STDA header; Saved into a
	// save file's header. All zero when the state file leaves them out.
	TraceOn, TraceOff stda.TraceTime
	Saved             tracefmt.DateTime
	Hits              []Hit
}
