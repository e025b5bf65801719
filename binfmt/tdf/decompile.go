package tdf

import (
	"fmt"
	"strings"
)

// Namer names addresses of the traced module for the TSF listing, from its
// MAP file or another symbol table.
type Namer interface {
	// Symbol returns the name of a public symbol for the address obj:off
	// (LX object number and offset) and the displacement of the address
	// from the symbol, or false when it has none.
	Symbol(obj, off uint32) (name string, disp uint32, ok bool)
}

// Statement is a data statement of a TRACE statement that an RPN program
// was assembled from.
type Statement struct {
	Off, End int    // the bytes of the program it stands for: rpn[Off:End]
	Text     string // TSF text: "MEM32=(.errno,INDIRECT,4)"
}

// Decompile reads an RPN program back into the data statements TRCUST
// assembles it from (docs/tdf.md, "How the statements are assembled"):
// REGS, MEM32, MEM, ASCIIZ32 and ASCIIZ (with their length, or with LEN and
// the LEN statement before them), ORBIT, ABORTOP and REMOVEOP. Symbol bases
// are named with n (nil: every address is written as a placeholder symbol
// objN_OOOOOOOO).
//
// Where different TSF spellings give the same bytes, one canonical
// spelling is chosen: DIRECT and INDIRECT in full, +ireg for an index
// register written -ireg, INDIRECT*+n for an INDIRECT+(n) displacement, a
// symbol's offset folded into one displacement. Compiling the statements
// back gives the same bytes.
//
// It returns the statements read up to the first instruction that no TSF
// statement gives, and an error whose *FormatError Off is that
// instruction's offset (or the offset of the byte Disassemble stopped at).
func Decompile(rpn []byte, n Namer) ([]Statement, error) {
	ops, err := Disassemble(rpn)
	d := &decompiler{ops: ops, n: n}
	var out []Statement
	for d.p < len(ops) {
		start := d.p
		texts, ok := d.statement()
		if !ok {
			if err != nil {
				// The statement runs into the byte Disassemble stopped at.
				return out, err
			}
			d.p = start
			msg := d.why
			if msg == "" {
				msg = "no TSF statement assembles to this"
			}
			return out, errorf(int64(ops[start].Off), "%s at %s", msg, ops[start])
		}
		end := len(rpn)
		if d.p < len(ops) {
			end = ops[d.p].Off
		}
		for i, t := range texts {
			s := Statement{Off: ops[start].Off, End: end, Text: t}
			if len(texts) == 2 { // LEN and the MEM that uses it
				if i == 0 {
					s.End = ops[d.mid].Off
				} else {
					s.Off = ops[d.mid].Off
				}
			}
			out = append(out, s)
		}
	}
	return out, err
}

type decompiler struct {
	ops      []Op
	p        int
	n        Namer
	mid      int    // the first op of the MEM after a LEN
	why      string // why the last statement could not be read
	lastFlat bool   // the kind of the last address after its conversion
	disp     string // the (n) term of the last memory statement
}

// at returns op p+k and whether it exists.
func (d *decompiler) at(k int) (Op, bool) {
	if d.p+k < len(d.ops) {
		return d.ops[d.p+k], true
	}
	return Op{}, false
}

func (d *decompiler) is(k int, c Opcode) bool {
	op, ok := d.at(k)
	return ok && op.Code == c
}

// statement reads one statement (two for LEN and its MEM).
func (d *decompiler) statement() ([]string, bool) {
	d.why = ""
	op := d.ops[d.p]
	switch {
	case op.Code == OpAbortOp:
		d.p++
		return []string{"ABORTOP"}, true
	case op.Code == OpRemoveOp:
		d.p++
		return []string{"REMOVEOP"}, true
	case op.Code == OpPushImm32 && d.is(1, OpOrbit):
		b := d.ops[d.p+1].Arg
		d.p += 2
		return []string{fmt.Sprintf("ORBIT=(%s,%s)", num(uint64(op.Arg)), num(uint64(b)))}, true
	case op.Code == OpPushImm16:
		d.p++
		s, ok := d.memory(fmt.Sprint(op.Arg), false)
		if op.Arg == 0 {
			d.why, ok = "a length of 0 (TRCUST rejects it, message 100)", false
		}
		return []string{s}, ok
	}
	if s, ok := d.regs(); ok {
		return []string{s}, true
	}
	return d.lenAndMem()
}

// regs reads register pushes and the log instruction that takes them all.
func (d *decompiler) regs() (string, bool) {
	k := 0
	for {
		op, ok := d.at(k)
		if !ok || !op.Code.IsRegister() {
			break
		}
		k++
	}
	log, ok := d.at(k)
	if k == 0 || !ok || (log.Code != OpLogRegs16 && log.Code != OpLogRegs32) || int(log.Arg) != k {
		return "", false
	}
	names := make([]string, k)
	for i := range k {
		c := d.ops[d.p+k-1-i].Code
		if log.Code == OpLogRegs16 {
			names[i] = regNames16[c]
			continue
		}
		if regNames16[c] == regNames32[c] {
			return "", false // a segment register has no 32-bit name
		}
		names[i] = regNames32[c]
	}
	d.p += k + 1
	return "REGS=(" + strings.Join(names, ",") + ")", true
}

// lenAndMem reads LEN=(spec,flag) and the MEM or MEM32 with LEN after it.
func (d *decompiler) lenAndMem() ([]string, bool) {
	a, ok := d.address(true)
	if !ok {
		return nil, false
	}
	d.disp = ""
	fl, ok := d.flag(a, true)
	if !ok {
		return nil, false
	}
	d.mid = d.p
	lenText := fmt.Sprintf("LEN=(%s%s,%s)", a.text, d.disp, fl)
	mem, ok := d.memory("LEN", true)
	if !ok {
		return nil, false
	}
	if a.symbol && a.flat != d.lastFlat {
		d.why = "a LEN symbol whose kind (flat or segmented) differs from the MEM after it"
		return nil, false
	}
	return []string{lenText, mem}, true
}

// addr is a reconstructed address specification.
type addr struct {
	text   string
	flat   bool
	symbol bool
}

// address reads an address program: a symbol base or a register form. In a
// LEN the symbol is written without its dot.
func (d *decompiler) address(inLen bool) (addr, bool) {
	op, ok := d.at(0)
	if !ok {
		return addr{}, false
	}
	dot := "."
	if inLen {
		dot = ""
	}
	switch {
	case op.Code == OpPushBase:
		off := uint32(0)
		d.p++
		if d.is(0, OpPushImm32) && d.is(1, OpAdd) {
			off = d.ops[d.p].Arg
			d.p += 2
		}
		return addr{text: dot + d.symbol(op.Arg, off), flat: true, symbol: true}, true
	case op.Code == OpPushSelector:
		if !d.is(1, OpPushImm16) {
			return addr{}, false
		}
		off := d.ops[d.p+1].Arg
		d.p += 2
		return addr{text: dot + d.symbol(op.Arg, off), symbol: true}, true
	case op.Code <= OpPushDI:
		text := "F" + regNames32[op.Code]
		d.p++
		for {
			r, ok := d.at(0)
			if !ok || r.Code > OpPushDI || r.Code == OpPushSP || !d.is(1, OpAdd) {
				break
			}
			text += "+" + regNames32[r.Code]
			d.p += 2
		}
		if d.is(0, OpPushImm32) && d.is(1, OpAdd) {
			text += signed(int64(int32(d.ops[d.p].Arg)))
			d.p += 2
		}
		return addr{text: text, flat: true}, true
	case op.Code >= OpPushES && op.Code <= OpPushDS || op.Code == OpPushFS || op.Code == OpPushGS:
		text := "R" + regNames16[op.Code]
		d.p++
		r, ok := d.at(0)
		if ok && r.Code <= OpPushDI {
			text += "+" + regNames16[r.Code]
			d.p++
			for {
				r, ok := d.at(0)
				if !ok || r.Code > OpPushDI || !d.is(1, OpAdd) {
					break
				}
				text += "+" + regNames16[r.Code]
				d.p += 2
			}
			if d.is(0, OpPushImm16) && d.is(1, OpAdd) {
				text += signed(int64(int16(d.ops[d.p].Arg)))
				d.p += 2
			}
			return addr{text: text}, true
		}
		if ok && r.Code == OpPushImm16 && !d.is(1, OpAdd) {
			// No index register: the displacement alone is the offset.
			if r.Arg != 0 {
				text += signed(int64(int16(r.Arg)))
			}
			d.p++
			return addr{text: text}, true
		}
	}
	return addr{}, false
}

// flag reads the fetches, offsets and conversions after an address and
// returns the flag's text; a (n) displacement is appended to a.text. In a
// LEN the closing fetch is taken off the end.
func (d *decompiler) flag(a addr, inLen bool) (string, bool) {
	fetch, imm := OpFetchFar, OpPushImm16
	if a.flat {
		fetch, imm = OpFetchDword, OpPushImm32
	}
	add := func() (int64, bool) {
		if d.is(0, imm) && d.is(1, OpAdd) {
			v := d.ops[d.p].Arg
			d.p += 2
			if a.flat {
				return int64(int32(v)), true
			}
			return int64(int16(v)), true
		}
		return 0, false
	}
	var levels []*int64
	conv := ""
	for d.is(0, fetch) {
		if !inLen && (a.flat && d.is(1, OpSplit) || !a.flat && d.is(1, OpJoin)) {
			break
		}
		d.p++
		var lv *int64
		if v, ok := add(); ok {
			lv = &v
		}
		levels = append(levels, lv)
	}
	switch {
	case inLen:
	case a.flat && d.is(0, OpFetchDword) && d.is(1, OpSplit):
		conv = "IS"
		d.p += 2
		a.flat = false
	case !a.flat && d.is(0, OpFetchFar) && d.is(1, OpJoin):
		conv = "IF"
		d.p += 2
		a.flat = true
	}
	if conv != "" && len(levels) > 0 {
		d.why = "INDIRECT and " + conv + " together"
		return "", false
	}
	d.lastFlat = a.flat
	// An add after the fetches and the conversion, or a second one after a
	// DIRECT address, is the (n) term. With one level of INDIRECT that has
	// its own offset, both are added after the one fetch, and TRCUST
	// refuses the two together ("two indirect offsets for first level",
	// oracle x_b04): they are written as one offset, their sum, which
	// assembles to one add: the program is read as far as that.
	imm = OpPushImm16
	if a.flat {
		imm = OpPushImm32
	}
	if v, ok := add(); ok {
		if len(levels) == 1 && levels[0] != nil {
			d.why = "two adds after the first fetch (TRCUST refuses the (n) term beside the first level's offset)"
			return "", false
		}
		d.disp = signedParen(v)
	}
	if inLen {
		closing := OpFetchWord
		if a.flat {
			closing = OpFetchDword
		}
		switch {
		case d.is(0, closing) && (d.disp != "" || !a.flat):
			d.p++
		case a.flat && d.disp == "" && len(levels) > 0 && levels[len(levels)-1] == nil:
			levels = levels[:len(levels)-1] // the closing fetch was read as a level
		default:
			d.why = "a LEN without its closing fetch"
			return "", false
		}
	}
	switch {
	case conv != "":
		return conv, true
	case len(levels) == 0:
		return "DIRECT", true
	case len(levels) == 1 && levels[0] == nil:
		return "INDIRECT", true
	}
	var b strings.Builder
	b.WriteString("INDIRECT")
	for _, lv := range levels {
		b.WriteByte('*')
		if lv != nil {
			b.WriteString(signed(*lv))
		}
	}
	return b.String(), true
}

// memory reads an address, its flag and a log instruction: MEM32, MEM,
// ASCIIZ32 or ASCIIZ with the given length text. With LEN only MEM32 and
// MEM are possible.
func (d *decompiler) memory(length string, useLen bool) (string, bool) {
	a, ok := d.address(false)
	if !ok {
		return "", false
	}
	d.disp = ""
	fl, ok := d.flag(a, false)
	if !ok {
		return "", false
	}
	log, ok := d.at(0)
	if !ok {
		d.why = "a memory statement without its log instruction"
		return "", false
	}
	var kw string
	switch {
	case log.Code == OpLogMemFlat && d.lastFlat, log.Code == OpLogMem && !d.lastFlat:
		kw = "MEM"
	case !useLen && (log.Code == OpLogASCIIZFlat && d.lastFlat || log.Code == OpLogASCIIZ && !d.lastFlat):
		kw = "ASCIIZ"
	default:
		return "", false
	}
	if a.flat {
		kw += "32"
	}
	d.p++
	return fmt.Sprintf("%s=(%s%s,%s,%s)", kw, a.text, d.disp, fl, length), true
}

// symbol names obj:off.
func (d *decompiler) symbol(obj, off uint32) string {
	if d.n != nil {
		if name, disp, ok := d.n.Symbol(obj, off); ok {
			if disp == 0 {
				return name
			}
			return name + "+" + num(uint64(disp))
		}
	}
	return PlaceholderSymbol(obj, off)
}

// PlaceholderSymbol is the name the TSF listing gives an address that has
// no symbol: "obj2_00000BF8".
func PlaceholderSymbol(obj, off uint32) string { return fmt.Sprintf("obj%d_%08X", obj, off) }

// num writes an unsigned number: decimal below 10, else hex.
func num(v uint64) string {
	if v < 10 {
		return fmt.Sprint(v)
	}
	return fmt.Sprintf("0x%X", v)
}

// signed writes a displacement with its sign: "+8", "-0x10".
func signed(v int64) string {
	if v < 0 {
		return "-" + num(uint64(-v))
	}
	return "+" + num(uint64(v))
}

func signedParen(v int64) string {
	s := signed(v)
	return s[:1] + "(" + s[1:] + ")"
}
