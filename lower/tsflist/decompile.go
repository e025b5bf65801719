package tsflist

import (
	"fmt"

	"github.com/tracekit/tracekit/ast/tsf"
	"github.com/tracekit/tracekit/binfmt/tdf"
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
	Off, End int       // the bytes of the program it stands for: rpn[Off:End]
	Field    tsf.Field // MEM32=(.errno,INDIRECT,4) and the like
}

// Text returns the statement's TSF text.
func (s Statement) Text() string {
	t, err := tsf.FieldText(s.Field)
	if err != nil {
		return "?"
	}
	return t
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
// statement gives, and a *tdf.FormatError whose Off is that instruction's
// offset (or the offset of the byte tdf.Disassemble stopped at).
// isAddSplit reports whether the program at d.p+i is a 32-bit add and a
// split: the (n) term of an IS address, which TRCUST adds before the split.
func (d *decompiler) isAddSplit(i int) bool {
	return d.is(i, tdf.OpPushImm32) && d.is(i+1, tdf.OpAdd) && d.is(i+2, tdf.OpSplit)
}

// isAddJoin reports whether the program at d.p+i is a 16-bit add and a
// join: the (n) term of an IF address, which TRCUST adds before the join.
func (d *decompiler) isAddJoin(i int) bool {
	return d.is(i, tdf.OpPushImm16) && d.is(i+1, tdf.OpAdd) && d.is(i+2, tdf.OpJoin)
}

func Decompile(rpn []byte, n Namer) ([]Statement, error) {
	ops, err := tdf.Disassemble(rpn)
	d := &decompiler{ops: ops, n: n}
	var out []Statement
	for d.p < len(ops) {
		start := d.p
		fields, ok := d.statement()
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
			return out, &tdf.FormatError{Off: int64(ops[start].Off), Msg: fmt.Sprintf("%s at %s", msg, ops[start])}
		}
		end := len(rpn)
		if d.p < len(ops) {
			end = ops[d.p].Off
		}
		for i, f := range fields {
			s := Statement{Off: ops[start].Off, End: end, Field: f}
			if len(fields) == 2 { // LEN and the MEM that uses it
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
	ops      []tdf.Op
	p        int
	n        Namer
	mid      int    // the first op of the MEM after a LEN
	why      string // why the last statement could not be read
	lastFlat bool   // the kind of the last address after its conversion
}

// at returns op p+k and whether it exists.
func (d *decompiler) at(k int) (tdf.Op, bool) {
	if d.p+k < len(d.ops) {
		return d.ops[d.p+k], true
	}
	return tdf.Op{}, false
}

func (d *decompiler) is(k int, c tdf.Opcode) bool {
	op, ok := d.at(k)
	return ok && op.Code == c
}

// statement reads one statement (two for LEN and its MEM).
func (d *decompiler) statement() ([]tsf.Field, bool) {
	d.why = ""
	op := d.ops[d.p]
	switch {
	case op.Code == tdf.OpAbortOp:
		d.p++
		return []tsf.Field{&tsf.OpFlag{Name: "ABORTOP"}}, true
	case op.Code == tdf.OpRemoveOp:
		d.p++
		return []tsf.Field{&tsf.OpFlag{Name: "REMOVEOP"}}, true
	case op.Code == tdf.OpPushImm32 && d.is(1, tdf.OpOrbit):
		b := d.ops[d.p+1].Arg
		d.p += 2
		return []tsf.Field{&tsf.Orbit{A: num(uint64(op.Arg)), B: num(uint64(b))}}, true
	case op.Code == tdf.OpPushImm16:
		d.p++
		m, ok := d.memory(decimal(uint64(op.Arg)), false)
		if op.Arg == 0 {
			d.why, ok = "a length of 0 (TRCUST rejects it, message 100)", false
		}
		return []tsf.Field{m}, ok
	}
	if r, ok := d.regs(); ok {
		return []tsf.Field{r}, true
	}
	return d.lenAndMem()
}

// regs reads register pushes and the log instruction that takes them all.
func (d *decompiler) regs() (*tsf.Regs, bool) {
	k := 0
	for {
		op, ok := d.at(k)
		if !ok || !op.Code.IsRegister() {
			break
		}
		k++
	}
	log, ok := d.at(k)
	if !ok || (log.Code != tdf.OpLogRegs16 && log.Code != tdf.OpLogRegs32) || int(log.Arg) != k {
		return nil, false
	}
	if k == 0 && log.Code != tdf.OpLogRegs16 {
		// REGS=() assembles to a 16-bit log of no register (IBM's
		// TRCUST 3.05A writes 14 00); no statement logs 32-bit none.
		return nil, false
	}
	r := &tsf.Regs{Regs: make([]*tsf.RegItem, k)}
	for i := range k {
		c := d.ops[d.p+k-1-i].Code
		name := c.RegisterName(log.Code == tdf.OpLogRegs32)
		if log.Code == tdf.OpLogRegs32 && name == c.RegisterName(false) {
			return nil, false // a segment register has no 32-bit name
		}
		r.Regs[i] = &tsf.RegItem{Name: name}
	}
	d.p += k + 1
	return r, true
}

// lenAndMem reads LEN=(spec,flag) and the MEM or MEM32 with LEN after it.
// A LEN's fetches, its closing one included, are of the kind of the MEM or
// MEM32 that uses it, whatever its address (IBM's behaviour, cases
// len_kind_indirect_sign and rpn_depth_not_below_zero: LEN=(FEAX+0xc,
// DIRECT) before a MEM closes with a word fetch); a symbol is pushed in
// that kind too. So the flag is read in the address's kind, and else in
// the other, and the MEM after must be of the kind read.
func (d *decompiler) lenAndMem() ([]tsf.Field, bool) {
	a, ok := d.address(true)
	if !ok {
		return nil, false
	}
	start, why := d.p, ""
	for i, flat := range []bool{a.flat, !a.flat} {
		if i > 0 && a.symbol {
			break
		}
		d.p = start
		a.setIndirect(nil)
		la := a
		la.flat = flat
		if fields, ok := d.lenWith(la); ok {
			return fields, true
		}
		if i == 0 {
			why = d.why
		}
	}
	d.why = why
	return nil, false
}

// lenWith reads the flag of a LEN whose fetches are of a's kind, and the
// MEM or MEM32 of that kind after it.
func (d *decompiler) lenWith(a addr) ([]tsf.Field, bool) {
	fl, ok := d.flag(&a, true)
	if !ok {
		return nil, false
	}
	d.mid = d.p
	l := &tsf.Len{Addr: a.node, Flag: fl}
	mem, ok := d.memory(nil, true)
	if !ok {
		return nil, false
	}
	if mem.Kind.Flat() != a.flat {
		d.why = "a LEN whose fetches are not of the kind of the MEM after it"
		return nil, false
	}
	return []tsf.Field{l, mem}, true
}

// addr is a reconstructed address specification.
type addr struct {
	node   tsf.Address
	flat   bool
	symbol bool
}

// setIndirect sets the (i) term of the address.
func (a *addr) setIndirect(s *tsf.Signed) {
	switch n := a.node.(type) {
	case *tsf.SymbolAddr:
		n.Indirect = s
	case *tsf.FlatAddr:
		n.Indirect = s
	case *tsf.SegAddr:
		n.Indirect = s
	}
}

// address reads an address program: a symbol base or a register form. In a
// LEN the symbol is written without its dot.
func (d *decompiler) address(inLen bool) (addr, bool) {
	op, ok := d.at(0)
	if !ok {
		return addr{}, false
	}
	switch {
	case op.Code == tdf.OpPushBase:
		off := uint32(0)
		d.p++
		if d.is(0, tdf.OpPushImm32) && d.is(1, tdf.OpAdd) {
			off = d.ops[d.p].Arg
			d.p += 2
		}
		return addr{node: d.symbol(op.Arg, off, !inLen), flat: true, symbol: true}, true
	case op.Code == tdf.OpPushSelector:
		if !d.is(1, tdf.OpPushImm16) {
			return addr{}, false
		}
		off := d.ops[d.p+1].Arg
		d.p += 2
		return addr{node: d.symbol(op.Arg, off, !inLen), symbol: true}, true
	case isFlatRegister(op.Code):
		fa := &tsf.FlatAddr{Base: word(op.Code.RegisterName(true))}
		d.p++
		for {
			r, ok := d.at(0)
			if !ok || !isFlatRegister(r.Code) || r.Code == tdf.OpPushSP || !d.is(1, tdf.OpAdd) {
				break
			}
			fa.Index = append(fa.Index, &tsf.SignedReg{Reg: word(r.Code.RegisterName(true))})
			d.p += 2
		}
		if d.is(0, tdf.OpPushImm32) && d.is(1, tdf.OpAdd) {
			fa.Disps = append(fa.Disps, signed(int64(int32(d.ops[d.p].Arg))))
			d.p += 2
		}
		return addr{node: fa, flat: true}, true
	case op.Code >= tdf.OpPushES && op.Code <= tdf.OpPushDS || op.Code == tdf.OpPushFS || op.Code == tdf.OpPushGS:
		sa := &tsf.SegAddr{Seg: word(op.Code.RegisterName(false))}
		d.p++
		r, ok := d.at(0)
		// Every register indexes a segment register address: the 16-bit
		// ones, IP, FLAGS and the segment registers (case
		// flat_registers_eip_eflags).
		if ok && r.Code.IsRegister() {
			sa.Regs = append(sa.Regs, &tsf.SignedReg{Reg: word(r.Code.RegisterName(false))})
			d.p++
			for {
				r, ok := d.at(0)
				if !ok || !r.Code.IsRegister() || !d.is(1, tdf.OpAdd) {
					break
				}
				sa.Regs = append(sa.Regs, &tsf.SignedReg{Reg: word(r.Code.RegisterName(false))})
				d.p += 2
			}
			if d.is(0, tdf.OpPushImm16) && d.is(1, tdf.OpAdd) {
				sa.Disps = append(sa.Disps, signed(int64(int16(d.ops[d.p].Arg))))
				d.p += 2
			}
			return addr{node: sa}, true
		}
		if ok && r.Code == tdf.OpPushImm16 && !d.is(1, tdf.OpAdd) {
			// No index register: the displacement alone is the offset.
			if r.Arg != 0 {
				sa.Disps = append(sa.Disps, signed(int64(int16(r.Arg))))
			}
			d.p++
			return addr{node: sa}, true
		}
	}
	return addr{}, false
}

// isFlatRegister reports whether c pushes a register a flat address may
// be based on or indexed by: the general registers, EFLAGS and EIP (case
// flat_registers_eip_eflags), not the segment registers.
func isFlatRegister(c tdf.Opcode) bool {
	return c <= tdf.OpPushDI || c == tdf.OpPushFlags || c == tdf.OpPushIP
}

// flag reads the fetches, offsets and conversions after an address and
// returns the flag; a (n) displacement is set on the address. In a LEN the
// closing fetch is taken off the end.
func (d *decompiler) flag(a *addr, inLen bool) (*tsf.Flag, bool) {
	fetch, imm := tdf.OpFetchFar, tdf.OpPushImm16
	if a.flat {
		fetch, imm = tdf.OpFetchDword, tdf.OpPushImm32
	}
	add := func() (int64, bool) {
		if d.is(0, imm) && d.is(1, tdf.OpAdd) {
			v := d.ops[d.p].Arg
			d.p += 2
			if a.flat {
				return int64(int32(v)), true
			}
			return int64(int16(v)), true
		}
		return 0, false
	}
	var levels []*tsf.Level
	conv := tsf.FlagKind(0)
	for d.is(0, fetch) {
		if !inLen && (a.flat && d.is(1, tdf.OpSplit) || !a.flat && d.is(1, tdf.OpJoin) || a.flat && d.isAddSplit(1) || !a.flat && d.isAddJoin(1)) {
			break
		}
		d.p++
		lv := &tsf.Level{}
		if v, ok := add(); ok {
			lv.Offset = signed(v)
		}
		levels = append(levels, lv)
	}
	var isDisp *tsf.Signed
	switch {
	case inLen:
	case a.flat && d.is(0, tdf.OpFetchDword) && d.isAddSplit(1):
		// TRCUST adds the (n) term of an IS address before the split.
		conv = tsf.IndirectSegmented
		isDisp = signed(int64(int32(d.ops[d.p+1].Arg)))
		d.p += 4
		a.flat = false
	case a.flat && d.is(0, tdf.OpFetchDword) && d.is(1, tdf.OpSplit):
		conv = tsf.IndirectSegmented
		d.p += 2
		a.flat = false
	case !a.flat && d.is(0, tdf.OpFetchFar) && d.isAddJoin(1):
		// TRCUST adds the (n) term of an IF address before the join.
		conv = tsf.IndirectFlat
		isDisp = signed(int64(int16(d.ops[d.p+1].Arg)))
		d.p += 4
		a.flat = true
	case !a.flat && d.is(0, tdf.OpFetchFar) && d.is(1, tdf.OpJoin):
		conv = tsf.IndirectFlat
		d.p += 2
		a.flat = true
	}
	if conv != 0 && len(levels) > 0 {
		// IS and IF take a * chain as INDIRECT does; the conversion's own
		// fetch is the chain's last level, and what is added before it
		// converts that level's offset (IBM's behaviour, case
		// is_if_chains: MEM32=(FEBP+8,IS*+4*,4) is 1C 1A 04 16 1C 1F).
		levels = append(levels, &tsf.Level{Offset: isDisp})
		d.lastFlat = a.flat
		return &tsf.Flag{Kind: conv, Chain: levels}, true
	}
	d.lastFlat = a.flat
	// An add after the fetches and the conversion, or a second one after a
	// DIRECT address, is the (n) term. With one level of INDIRECT that has
	// its own offset, both are added after the one fetch, and TRCUST
	// refuses the two together ("two indirect offsets for first level",
	// oracle x_b04): the program is read as far as that.
	imm = tdf.OpPushImm16
	if a.flat {
		imm = tdf.OpPushImm32
	}
	hasDisp := false
	if isDisp != nil {
		a.setIndirect(isDisp)
		hasDisp = true
	} else if v, ok := add(); ok {
		if len(levels) == 1 && levels[0].Offset != nil {
			d.why = "two adds after the first fetch (TRCUST refuses the (n) term beside the first level's offset)"
			return nil, false
		}
		a.setIndirect(signed(v))
		hasDisp = true
	}
	if inLen {
		closing := tdf.OpFetchWord
		if a.flat {
			closing = tdf.OpFetchDword
		}
		switch {
		case d.is(0, closing) && (hasDisp || !a.flat):
			d.p++
		case a.flat && !hasDisp && len(levels) > 0 && levels[len(levels)-1].Offset == nil:
			levels = levels[:len(levels)-1] // the closing fetch was read as a level
		default:
			d.why = "a LEN without its closing fetch"
			return nil, false
		}
	}
	switch {
	case conv != 0:
		return &tsf.Flag{Kind: conv}, true
	case len(levels) == 0:
		return &tsf.Flag{Kind: tsf.Direct}, true
	case len(levels) == 1 && levels[0].Offset == nil:
		return &tsf.Flag{Kind: tsf.Indirect}, true
	}
	return &tsf.Flag{Kind: tsf.Indirect, Chain: levels}, true
}

// memory reads an address, its flag and a log instruction: MEM32, MEM,
// ASCIIZ32 or ASCIIZ with the given length (nil: LEN). With LEN only MEM32
// and MEM are possible.
func (d *decompiler) memory(length *tsf.Number, useLen bool) (*tsf.Mem, bool) {
	a, ok := d.address(false)
	if !ok {
		return nil, false
	}
	flat := a.flat // the statement's kind is the address's, before IS or IF
	fl, ok := d.flag(&a, false)
	if !ok {
		return nil, false
	}
	log, ok := d.at(0)
	if !ok {
		d.why = "a memory statement without its log instruction"
		return nil, false
	}
	var kind tsf.MemKind
	switch {
	case log.Code == tdf.OpLogMemFlat && d.lastFlat, log.Code == tdf.OpLogMem && !d.lastFlat:
		kind = tsf.MEM
		if flat {
			kind = tsf.MEM32
		}
	case log.Code == tdf.OpLogASCIIZFlat && d.lastFlat || log.Code == tdf.OpLogASCIIZ && !d.lastFlat:
		// An ASCIIZ takes LEN as MEM does (case data_length_forms).
		kind = tsf.ASCIIZ
		if flat {
			kind = tsf.ASCIIZ32
		}
	default:
		return nil, false
	}
	d.p++
	m := &tsf.Mem{Kind: kind, Addr: a.node, Flag: fl, Length: length}
	if useLen {
		m.UseLen = word("LEN")
	}
	return m, true
}

// symbol names obj:off as a symbolic address.
func (d *decompiler) symbol(obj, off uint32, dot bool) *tsf.SymbolAddr {
	a := &tsf.SymbolAddr{Dot: dot}
	if d.n != nil {
		if name, disp, ok := d.n.Symbol(obj, off); ok {
			a.Name = word(name)
			if disp != 0 {
				a.Disps = []*tsf.Signed{{Num: num(uint64(disp))}}
			}
			return a
		}
	}
	a.Name = word(PlaceholderSymbol(obj, off))
	return a
}

// PlaceholderSymbol is the name the TSF listing gives an address that has
// no symbol: "obj2_00000BF8".
func PlaceholderSymbol(obj, off uint32) string { return fmt.Sprintf("obj%d_%08X", obj, off) }

func word(s string) *tsf.Word { return &tsf.Word{Text: s} }

// num is an unsigned number as the listing writes it: decimal below 10,
// else hex.
func num(v uint64) *tsf.Number {
	if v < 10 {
		return decimal(v)
	}
	return &tsf.Number{Text: fmt.Sprintf("0x%X", v), Value: v}
}

// hex4 is a number written as four hex digits: 0x0042.
func hex4(v uint64) *tsf.Number { return &tsf.Number{Text: fmt.Sprintf("0x%04X", v), Value: v} }

// hex2 is a number written as two hex digits: 0x55.
func hex2(v uint64) *tsf.Number { return &tsf.Number{Text: fmt.Sprintf("0x%02X", v), Value: v} }

func decimal(v uint64) *tsf.Number { return &tsf.Number{Text: fmt.Sprint(v), Value: v} }

// signed is a displacement with its sign: "+8", "-0x10".
func signed(v int64) *tsf.Signed {
	if v < 0 {
		return &tsf.Signed{Neg: true, Num: num(uint64(-v))}
	}
	return &tsf.Signed{Num: num(uint64(v))}
}
