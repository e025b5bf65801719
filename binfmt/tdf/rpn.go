package tdf

import (
	"fmt"
	"strconv"
)

// Opcode is an instruction of the RPN machine that runs a tracepoint's
// program. The machine has a stack of at most MaxRPNStack 32-bit items;
// pushes put values on it, fetches and conversions replace values, and the
// log instructions take their operands off it and copy data into the trace
// record. The meanings are those TRCUST 3.05A's output shows (docs/tdf.md).
type Opcode uint8

// The RPN opcodes. A register push stands for the 16-bit or the 32-bit
// register alike (the log instruction that takes it decides the width).
const (
	OpPushAX        Opcode = 0x00 // push (E)AX
	OpPushCX        Opcode = 0x01 // push (E)CX
	OpPushDX        Opcode = 0x02 // push (E)DX
	OpPushBX        Opcode = 0x03 // push (E)BX
	OpPushSP        Opcode = 0x04 // push (E)SP
	OpPushBP        Opcode = 0x05 // push (E)BP
	OpPushSI        Opcode = 0x06 // push (E)SI
	OpPushDI        Opcode = 0x07 // push (E)DI
	OpPushES        Opcode = 0x08 // push ES
	OpPushCS        Opcode = 0x09 // push CS
	OpPushSS        Opcode = 0x0A // push SS
	OpPushDS        Opcode = 0x0B // push DS
	OpPushFlags     Opcode = 0x0C // push (E)FLAGS
	OpPushIP        Opcode = 0x0D // push (E)IP
	OpPushFS        Opcode = 0x0E // push FS
	OpPushGS        Opcode = 0x0F // push GS
	OpPushImm16     Opcode = 0x10 // u16 operand: push it (a length, a segmented offset or displacement)
	OpPushSelector  Opcode = 0x11 // u8 operand n: push the selector of LX object n
	OpFetchWord     Opcode = 0x12 // pop sel, off; push the word at sel:off
	OpFetchFar      Opcode = 0x13 // pop sel, off; push the far pointer at sel:off as sel, off
	OpLogRegs16     Opcode = 0x14 // u8 operand n: pop n registers, log them as words
	OpLogMem        Opcode = 0x15 // pop len, sel, off; log len bytes at sel:off
	OpAdd           Opcode = 0x16 // pop b, a; push a+b
	OpLogASCIIZ     Opcode = 0x19 // pop len, sel, off; log the string at sel:off, at most len bytes
	OpPushImm32     Opcode = 0x1A // u32 operand: push it (a flat displacement, an ORBIT value)
	OpPushBase      Opcode = 0x1B // u32 operand n: push the flat base address of LX object n
	OpFetchDword    Opcode = 0x1C // pop addr; push the dword at flat address addr
	OpSplit         Opcode = 0x1F // pop a 16:16 dword; push its sel, off
	OpJoin          Opcode = 0x20 // pop sel, off; push the dword sel<<16|off
	OpLogRegs32     Opcode = 0x21 // u8 operand n: pop n registers, log them as dwords
	OpLogMemFlat    Opcode = 0x22 // pop len, addr; log len bytes at flat address addr
	OpLogASCIIZFlat Opcode = 0x23 // pop len, addr; log the string at flat address addr, at most len bytes
	OpAbortOp       Opcode = 0x31 // the ABORTOP keyword (meaning not documented)
	OpOrbit         Opcode = 0x32 // u16 operand b: pop a; the ORBIT=(a,b) keyword
	OpRemoveOp      Opcode = 0x33 // the REMOVEOP keyword (meaning not documented)
)

// opInfo describes one opcode.
type opInfo struct {
	name    string // JSON name
	operand int    // operand size in bytes
	pop     int    // stack items taken (-1: the operand says how many)
	push    int    // stack items put
}

// info returns the description of c, and false for an invalid opcode.
func (c Opcode) info() (opInfo, bool) {
	switch c {
	case OpPushImm16:
		return opInfo{"push_imm16", 2, 0, 1}, true
	case OpPushSelector:
		return opInfo{"push_selector", 1, 0, 1}, true
	case OpFetchWord:
		return opInfo{"fetch_word", 0, 2, 1}, true
	case OpFetchFar:
		return opInfo{"fetch_far", 0, 2, 2}, true
	case OpLogRegs16:
		return opInfo{"log_regs16", 1, -1, 0}, true
	case OpLogMem:
		return opInfo{"log_mem", 0, 3, 0}, true
	case OpAdd:
		return opInfo{"add", 0, 2, 1}, true
	case OpLogASCIIZ:
		return opInfo{"log_asciiz", 0, 3, 0}, true
	case OpPushImm32:
		return opInfo{"push_imm32", 4, 0, 1}, true
	case OpPushBase:
		return opInfo{"push_object_base", 4, 0, 1}, true
	case OpFetchDword:
		return opInfo{"fetch_dword", 0, 1, 1}, true
	case OpSplit:
		return opInfo{"split", 0, 1, 2}, true
	case OpJoin:
		return opInfo{"join", 0, 2, 1}, true
	case OpLogRegs32:
		return opInfo{"log_regs32", 1, -1, 0}, true
	case OpLogMemFlat:
		return opInfo{"log_mem_flat", 0, 2, 0}, true
	case OpLogASCIIZFlat:
		return opInfo{"log_asciiz_flat", 0, 2, 0}, true
	case OpAbortOp:
		return opInfo{"abortop", 0, 0, 0}, true
	case OpOrbit:
		return opInfo{"orbit", 2, 1, 0}, true
	case OpRemoveOp:
		return opInfo{"removeop", 0, 0, 0}, true
	}
	if c.IsRegister() {
		return opInfo{"push_reg", 0, 0, 1}, true
	}
	return opInfo{}, false
}

// IsRegister reports whether c pushes a register (0x00 to 0x0F).
func (c Opcode) IsRegister() bool { return c <= OpPushGS }

// Valid reports whether c is an opcode of the RPN machine.
func (c Opcode) Valid() bool { _, ok := c.info(); return ok }

// OperandSize returns the number of operand bytes after the opcode, or -1
// for an invalid opcode.
func (c Opcode) OperandSize() int {
	if i, ok := c.info(); ok {
		return i.operand
	}
	return -1
}

// Stack returns how many items the instruction with operand arg takes off
// the stack and how many it puts on it.
func (c Opcode) Stack(arg uint32) (pop, push int) {
	i, ok := c.info()
	if !ok {
		return 0, 0
	}
	if i.pop < 0 {
		return int(arg), i.push
	}
	return i.pop, i.push
}

// Name returns the name of c in the JSON view ("push_reg", "fetch_dword"),
// or "invalid".
func (c Opcode) Name() string {
	if i, ok := c.info(); ok {
		return i.name
	}
	return "invalid"
}

// String returns the name and the hex value: "fetch_dword(0x1C)".
func (c Opcode) String() string { return fmt.Sprintf("%s(0x%02X)", c.Name(), uint8(c)) }

// Register names by push opcode.
var (
	regNames32 = [16]string{"EAX", "ECX", "EDX", "EBX", "ESP", "EBP", "ESI", "EDI", "ES", "CS", "SS", "DS", "EFLAGS", "EIP", "FS", "GS"}
	regNames16 = [16]string{"AX", "CX", "DX", "BX", "SP", "BP", "SI", "DI", "ES", "CS", "SS", "DS", "FLAGS", "IP", "FS", "GS"}
)

// RegisterOpcode returns the push opcode of a register name (either case,
// 16- or 32-bit) and whether it is a 32-bit name.
func RegisterOpcode(name string) (c Opcode, wide, ok bool) {
	for i := range regNames32 {
		switch {
		case equalFold(name, regNames32[i]):
			return Opcode(i), regNames32[i] != regNames16[i], true
		case equalFold(name, regNames16[i]):
			return Opcode(i), false, true
		}
	}
	return 0, false, false
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'a' <= x && x <= 'z' {
			x -= 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// Op is one decoded RPN instruction.
type Op struct {
	Off  int // offset of the opcode in the program
	Code Opcode
	// Arg is the operand: the immediate of OpPushImm16, OpPushImm32 and
	// OpOrbit, the object number of OpPushSelector and OpPushBase, the count
	// of OpLogRegs16 and OpLogRegs32; 0 for the others.
	Arg uint32
	// Width is 16 or 32 for a push of a general register, FLAGS or IP: the
	// width its consumer gives it (OpLogRegs16 and the segmented
	// instructions take 16-bit values, the others 32-bit; 32 when the
	// program does not say). 16 for a segment register, 0 for the others.
	Width int
}

// Len returns the size of the instruction in bytes.
func (o Op) Len() int { return 1 + max(o.Code.OperandSize(), 0) }

// RegisterName returns the name of the register c pushes, the E name when
// wide (ES, CS, SS, DS, FS and GS have one name), or "" when c pushes no
// register.
func (c Opcode) RegisterName(wide bool) string {
	if !c.IsRegister() {
		return ""
	}
	if wide {
		return regNames32[c]
	}
	return regNames16[c]
}

// Reg returns the register name of a push of a register, or "".
func (o Op) Reg() string {
	if !o.Code.IsRegister() {
		return ""
	}
	if o.Width == 16 {
		return regNames16[o.Code]
	}
	return regNames32[o.Code]
}

// String returns the instruction for the text dump: "push reg EAX",
// "push imm16 0x0004 (4)", "push object base 2", "fetch dword",
// "log 32-bit regs n=3", "log memory flat".
func (o Op) String() string {
	switch o.Code {
	case OpPushImm16:
		return fmt.Sprintf("push imm16 0x%04X (%d)", o.Arg, o.Arg)
	case OpPushImm32:
		return fmt.Sprintf("push imm32 0x%08X (%d)", o.Arg, int32(o.Arg))
	case OpPushSelector:
		return "push selector of object " + strconv.Itoa(int(o.Arg))
	case OpPushBase:
		return "push object base " + strconv.FormatUint(uint64(o.Arg), 10)
	case OpFetchWord:
		return "fetch word at sel:off"
	case OpFetchFar:
		return "fetch far pointer at sel:off"
	case OpFetchDword:
		return "fetch dword"
	case OpLogRegs16:
		return fmt.Sprintf("log 16-bit regs n=%d", o.Arg)
	case OpLogRegs32:
		return fmt.Sprintf("log 32-bit regs n=%d", o.Arg)
	case OpLogMem:
		return "log memory sel:off"
	case OpLogMemFlat:
		return "log memory flat"
	case OpLogASCIIZ:
		return "log ASCIIZ sel:off"
	case OpLogASCIIZFlat:
		return "log ASCIIZ flat"
	case OpAdd:
		return "add"
	case OpSplit:
		return "split dword into sel:off"
	case OpJoin:
		return "join sel:off into dword"
	case OpAbortOp:
		return "ABORTOP"
	case OpRemoveOp:
		return "REMOVEOP"
	case OpOrbit:
		return fmt.Sprintf("ORBIT b=0x%04X (%d)", o.Arg, o.Arg)
	}
	if o.Code.IsRegister() {
		return "push reg " + o.Reg()
	}
	return fmt.Sprintf("invalid opcode 0x%02X", uint8(o.Code))
}

// Disassemble decodes an RPN program into its instructions. It stops at
// the first byte that is not an opcode or at an operand cut short by the end
// of the program, and returns the instructions before it with a
// *FormatError whose Off is the offset of the bad byte in rpn. It does not
// check what the program does with its stack (Check does); the stack is
// followed only to name the width of each register push.
func Disassemble(rpn []byte) ([]Op, error) {
	var ops []Op
	var err error
	for i := 0; i < len(rpn); {
		c := Opcode(rpn[i])
		n := c.OperandSize()
		if n < 0 {
			err = errorf(int64(i), "0x%02X is not an RPN opcode", rpn[i])
			break
		}
		if i+1+n > len(rpn) {
			err = errorf(int64(i+1), "%s needs a %d-byte operand, %d bytes left", c.Name(), n, len(rpn)-i-1)
			break
		}
		op := Op{Off: i, Code: c}
		switch n {
		case 1:
			op.Arg = uint32(rpn[i+1])
		case 2:
			op.Arg = uint32(le.Uint16(rpn[i+1:]))
		case 4:
			op.Arg = le.Uint32(rpn[i+1:])
		}
		ops = append(ops, op)
		i += 1 + n
	}
	setWidths(ops)
	return ops, err
}

// setWidths gives every register push the width its consumer implies, by
// following the stack: each item remembers the register pushes it was
// computed from.
func setWidths(ops []Op) {
	var stack [][]int // per item, indexes of register pushes
	mark := func(item []int, w int) {
		for _, k := range item {
			if ops[k].Width == 0 {
				ops[k].Width = w
			}
		}
	}
	for i := range ops {
		op := &ops[i]
		if op.Code.IsRegister() && (op.Code >= OpPushES && op.Code <= OpPushDS || op.Code >= OpPushFS) {
			op.Width = 16
		}
	}
	for i := range ops {
		op := ops[i]
		pop, push := op.Code.Stack(op.Arg)
		if pop > len(stack) {
			break // not a program TRCUST writes; the rest keeps the default
		}
		in := stack[len(stack)-pop:]
		stack = stack[:len(stack)-pop]
		var out []int
		switch op.Code {
		case OpLogRegs16:
			for _, it := range in {
				mark(it, 16)
			}
		case OpFetchWord, OpFetchFar, OpJoin:
			mark(in[0], 16)
			mark(in[1], 16)
		case OpLogMem, OpLogASCIIZ:
			mark(in[0], 16)
			mark(in[1], 16)
			mark(in[2], 16)
		case OpAdd:
			out = append(append(out, in[0]...), in[1]...)
		default:
			for _, it := range in {
				mark(it, 32)
			}
		}
		if op.Code.IsRegister() {
			out = []int{i}
		}
		for k := range push {
			if k == 0 {
				stack = append(stack, out)
			} else {
				stack = append(stack, nil)
			}
		}
	}
	for i := range ops {
		if ops[i].Code.IsRegister() && ops[i].Width == 0 {
			ops[i].Width = 32
		}
	}
}

// Check runs the stack of the RPN program ops the way the tracing runtime
// would, without data: it returns an error when an instruction needs more
// items than the stack holds, when the stack grows past MaxRPNStack, or
// when items are left at the end. TRCUST writes only programs that pass.
func Check(ops []Op) error {
	depth := 0
	for _, op := range ops {
		pop, push := op.Code.Stack(op.Arg)
		if pop > depth {
			return errorf(int64(op.Off), "%s needs %d stack items, the stack holds %d", op.Code.Name(), pop, depth)
		}
		depth += push - pop
		if depth > MaxRPNStack {
			return errorf(int64(op.Off), "%s: the stack holds %d items, more than %d", op.Code.Name(), depth, MaxRPNStack)
		}
	}
	if depth != 0 {
		last := ops[len(ops)-1]
		return errorf(int64(last.Off+last.Len()), "%d stack items are left at the end of the program", depth)
	}
	return nil
}
