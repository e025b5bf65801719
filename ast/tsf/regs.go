package tsf

import "strings"

// The registers TRCUST 3.05A knows (sections 1.3.5.10 and 1.3.5.15): the
// 16-bit names, the segment registers among them, and the 32-bit names.
var (
	regs16 = [...]string{"AX", "BX", "CX", "DX", "SP", "BP", "SI", "DI", "IP", "FLAGS", "CS", "DS", "SS", "ES", "FS", "GS"}
	regs32 = [...]string{"EAX", "EBX", "ECX", "EDX", "ESP", "EBP", "ESI", "EDI", "EIP", "EFLAGS"}
)

// Register reports whether name, in either case, is a register TRCUST
// 3.05A knows (ok), and whether it is a 32-bit one (wide): what REGS
// takes, what a flat register address is made of (any 32-bit register;
// ESP no index) and what indexes a segment register address (any 16-bit
// register, IP, FLAGS and the segment registers too; IBM's behaviour,
// session 18).
func Register(name string) (wide, ok bool) {
	for _, r := range regs32 {
		if strings.EqualFold(name, r) {
			return true, true
		}
	}
	for _, r := range regs16 {
		if strings.EqualFold(name, r) {
			return false, true
		}
	}
	return false, false
}

// SegmentRegister reports whether name, in either case, is a segment
// register: CS, DS, SS, ES, FS or GS.
func SegmentRegister(name string) bool {
	for _, r := range regs16[10:] {
		if strings.EqualFold(name, r) {
			return true
		}
	}
	return false
}
