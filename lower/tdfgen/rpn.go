package tdfgen

import (
	"fmt"

	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/ast/tsf"
	"github.com/tracekit/tracekit/binfmt/tdf"
	"github.com/tracekit/tracekit/lower/tsfcheck"
)

// Assemble builds the RPN program of one tracepoint from its data
// statements, in source order, one function per statement kind (docs/tdf.md,
// "How the statements are assembled"). syms resolves the symbols of MEM,
// ASCIIZ and LEN addresses; nil means the module has no symbol information
// (message 39, severe).
//
// It reports, positioned at the statement and attributed to the line TRCUST
// names (the statement's last line): 79 for a symbol that is not found and
// for a register variable REGS=(.name), which needs debug information; 97
// when the program would need more than 16 stack items; 83 when it grows
// past 255 bytes. Assembly stops at the first error; the program is then
// nil.
func Assemble(tp *tsfcheck.Tracepoint, syms Symbols) ([]byte, diag.List) {
	return assemble(tp, syms, "the module")
}

func assemble(tp *tsfcheck.Tracepoint, syms Symbols, modPath string) ([]byte, diag.List) {
	a := &asm{syms: syms, modPath: modPath}
	for i, d := range tp.Data {
		a.field = d.Field
		switch f := d.Field.(type) {
		case *tsf.Regs:
			a.regs(f)
		case *tsf.Mem:
			if f.Cut || f.BadLength != nil {
				a.lookupOnly(f.Addr)
				break
			}
			a.mem(f, d.Length)
		case *tsf.Len:
			if f.Cut {
				a.lookupOnly(f.Addr)
				break
			}
			// A symbolic length_spec takes the kind of the MEM or MEM32
			// that uses it. A LEN that none uses (warning 219) is resolved
			// but leaves no code (IBM's behaviour: TRCUST 3.05A reports a
			// symbol not found in it and writes nothing for it).
			flat, used := true, false
			if i+1 < len(tp.Data) {
				if m, ok := tp.Data[i+1].Field.(*tsf.Mem); ok && m.UseLen != nil {
					flat, used = m.Kind.Flat(), true
				}
			}
			code, depth, maxDepth := len(a.code), a.depth, a.maxDepth
			a.length(f, flat)
			if !used {
				a.code, a.depth, a.maxDepth = a.code[:code], depth, maxDepth
			}
		case *tsf.Orbit:
			a.orbit(f)
		case *tsf.OpFlag:
			a.opFlag(f)
		}
		if a.failed() {
			return nil, a.diags
		}
		switch {
		case a.maxDepth > tdf.MaxRPNStack:
			d := tsf.ErrRPNStack.Diagnostic(f0(d.Field), d.Field.Last().Line)
			d.Detail = fmt.Sprintf("%s needs %d stack items", d0(tp, i), a.maxDepth)
			a.diags.Add(d)
			return nil, a.diags
		case len(a.code) > tdf.MaxRPN:
			d := tsf.ErrRPNTooLong.Diagnostic(f0(d.Field), d.Field.Last().Line)
			d.Detail = fmt.Sprintf("%d bytes after %s", len(a.code), d0(tp, i))
			a.diags.Add(d)
			return nil, a.diags
		}
	}
	if a.code == nil {
		a.code = []byte{}
	}
	return a.code, a.diags
}

func f0(f tsf.Field) tsf.Pos { return f.Position() }

// d0 names data statement i for a detail text.
func d0(tp *tsfcheck.Tracepoint, i int) string {
	return fmt.Sprintf("%s (data statement %d)", tp.Data[i].Field.Keyword(), i+1)
}

// asm is the state of one tracepoint's assembly.
type asm struct {
	syms     Symbols
	modPath  string    // the module, for message 39
	field    tsf.Field // the statement being assembled
	code     []byte
	depth    int
	maxDepth int
	diags    diag.List
	lenKind  *bool // assembling a LEN: the kind of its MEM or MEM32 (true: flat)
}

func (a *asm) failed() bool { return a.diags.Failed() }

// emit appends an instruction and follows the stack.
func (a *asm) emit(c tdf.Opcode, arg uint32) {
	a.code = append(a.code, byte(c))
	switch c.OperandSize() {
	case 1:
		a.code = append(a.code, byte(arg))
	case 2:
		a.code = append(a.code, byte(arg), byte(arg>>8))
	case 4:
		a.code = append(a.code, byte(arg), byte(arg>>8), byte(arg>>16), byte(arg>>24))
	}
	pop, push := c.Stack(arg)
	// The count never goes below 0 (IBM's behaviour: the word a LEN of
	// a flat address fetches for a MEM pops one item more than it pushed,
	// and TRCUST 3.05A still finds 17 registers after such a LEN and MEM
	// "RPN stack limit of 16 exceeded"; fresh seed 920750).
	a.depth = max(a.depth+push-pop, 0)
	a.maxDepth = max(a.maxDepth, a.depth)
}

// report adds an error about the statement being assembled.
func (a *asm) report(code tsf.Code, n tsf.Node, args ...any) *diag.Diagnostic {
	a.diags.Add(code.Diagnostic(n.Position(), a.field.Last().Line, args...))
	return &a.diags[len(a.diags)-1]
}

// regs assembles REGS=(r,...): each run of registers of one width is pushed
// last first and logged with 0x21 n (32-bit) or 0x14 n (16-bit); runs keep
// source order.
func (a *asm) regs(f *tsf.Regs) {
	for _, r := range f.Regs {
		if r.Variable {
			// A C register variable needs the module's debug information,
			// which TRCUST 3.05A does not find without it (oracle d53).
			// At its own line: TRCUST looks it up as it reads it.
			a.diags.Add(tsf.ErrSymbol.Diagnostic(r.Pos, r.Pos.Line, r.Name))
			d := &a.diags[len(a.diags)-1]
			d.Detail = "a register variable needs debug information"
			return
		}
	}
	if f.Cut {
		return // only its variable is looked up (tsf.Regs.Cut)
	}
	if len(f.Regs) == 0 {
		// IBM's behaviour: REGS=() logs no register, with 0x14 00.
		a.emit(tdf.OpLogRegs16, 0)
		return
	}
	for i := 0; i < len(f.Regs); {
		wide := tsfcheck.RegisterBytes(f.Regs[i]) == 4
		j := i
		for j < len(f.Regs) && (tsfcheck.RegisterBytes(f.Regs[j]) == 4) == wide {
			j++
		}
		for k := j - 1; k >= i; k-- {
			c, _, _ := tdf.RegisterOpcode(f.Regs[k].Name)
			a.emit(c, 0)
		}
		if wide {
			a.emit(tdf.OpLogRegs32, uint32(j-i))
		} else {
			a.emit(tdf.OpLogRegs16, uint32(j-i))
		}
		i = j
	}
}

// mem assembles MEM32, MEM, ASCIIZ32 and ASCIIZ: the length push (none
// with LEN: the LEN statement left the length on the stack), the address
// program, and the log instruction of the final address's kind.
func (a *asm) mem(f *tsf.Mem, length uint16) {
	if f.UseLen == nil {
		a.emit(tdf.OpPushImm16, uint32(length))
	}
	flat, ok := a.address(f.Addr, f.Flag, f.Kind.Flat())
	if !ok {
		return
	}
	switch {
	case flat && f.Kind.IsString():
		a.emit(tdf.OpLogASCIIZFlat, 0)
	case flat:
		a.emit(tdf.OpLogMemFlat, 0)
	case f.Kind.IsString():
		a.emit(tdf.OpLogASCIIZ, 0)
	default:
		a.emit(tdf.OpLogMem, 0)
	}
}

// length assembles LEN=(spec,flag): the address program and a closing
// fetch of the length, 0x1C flat or 0x12 segmented. flat is the kind of a
// symbolic spec.
//
// IBM's behaviour: every fetch of a LEN program, its INDIRECT levels and the
// closing fetch, has the kind of the MEM or MEM32 the LEN is for, whatever
// the form of its address: LEN=(FEAX+12,DIRECT) before a MEM ends in 0x12,
// LEN=(RES+BP,INDIRECT*) before a MEM32 fetches with 0x1C 0x1C.
func (a *asm) length(f *tsf.Len, flat bool) {
	a.lenKind = &flat
	_, ok := a.address(f.Addr, f.Flag, flat)
	a.lenKind = nil
	if !ok {
		return
	}
	if flat {
		a.emit(tdf.OpFetchDword, 0)
	} else {
		a.emit(tdf.OpFetchWord, 0)
	}
}

// orbitIndexTooLarge is the index TRCUST 3.05A writes for an ORBIT=(a,b)
// whose b is above 0xFFFF.
const orbitIndexTooLarge = 0x16

// orbit assembles ORBIT=(a,b): 0x1A a, 0x32 b. ORBIT=(0,1) and (0,0) are
// given their values later (Program.orbitBits).
func (a *asm) orbit(f *tsf.Orbit) {
	a.emit(tdf.OpPushImm32, uint32(f.A.Value))
	var b uint32
	if f.B != nil {
		b = uint32(f.B.Value)
	}
	if b > 0xFFFF {
		// IBM's behaviour: after its warning (218 here) TRCUST 3.05A
		// writes 0x0016, whatever the value (seen on seven values, from
		// 0x10000 to 0x123456, in statements of several shapes).
		b = orbitIndexTooLarge
	}
	a.emit(tdf.OpOrbit, b)
}

// opFlag assembles ABORTOP (0x31) and REMOVEOP (0x33).
func (a *asm) opFlag(f *tsf.OpFlag) {
	if f.Name == "ABORTOP" {
		a.emit(tdf.OpAbortOp, 0)
	} else {
		a.emit(tdf.OpRemoveOp, 0)
	}
}

// address assembles an address specification with its flag, and returns
// the kind of the final address (true: flat). flat is the kind of the
// statement (MEM32, ASCIIZ32: flat; MEM, ASCIIZ: segmented); a register
// form has the kind of its F or R.
//
//   - .symbol[±n]: flat 0x1B obj, then 0x1A off 0x16 unless off (the
//     symbol's offset plus n) is 0; segmented 0x11 obj, 0x10 off.
//   - Fbreg±ireg...±n: push breg; push each ireg and add (a minus sign
//     adds too, as in TRCUST 3.05A); 0x1A n 0x16 unless n is 0.
//   - Rsreg±dreg...±n: push sreg and the first dreg; push each further
//     dreg and add; 0x10 n 0x16 unless n is 0. Without a dreg, 0x10 n is
//     the offset itself.
//   - INDIRECT: a fetch (0x1C flat, 0x13 segmented) for INDIRECT and the
//     first *, one more for each further *; each level's offset is added
//     after its fetch.
//   - the (n) term is added after the fetches.
//   - IS: 0x1C 0x1F at a flat address, 0x13 at a segmented one (the
//     pointer fetched is 16:16); IF: 0x13 0x20 at a segmented address,
//     0x1C at a flat one (the pointer fetched is flat).
func (a *asm) address(ad tsf.Address, fl *tsf.Flag, flat bool) (bool, bool) {
	switch ad := ad.(type) {
	case *tsf.SymbolAddr:
		obj, off, ok := a.lookup(ad.Name)
		if !ok {
			return flat, false
		}
		for _, d := range ad.Disps {
			off += uint32(d.Int())
		}
		if flat {
			a.emit(tdf.OpPushBase, obj)
			if off != 0 {
				a.emit(tdf.OpPushImm32, off)
				a.emit(tdf.OpAdd, 0)
			}
			break
		}
		if obj > 0xFF {
			d := a.report(tsf.ErrAddressSpec, ad, "."+ad.Name.Text)
			d.Detail = fmt.Sprintf("the symbol is in object %d; a segmented address names objects 1 to 255", obj)
			return flat, false
		}
		if off > 0xFFFF {
			d := a.report(tsf.WarnIndexTooLarge, ad)
			d.Detail = fmt.Sprintf("the symbol's offset 0x%X does not fit in 16 bits", off)
		}
		a.emit(tdf.OpPushSelector, obj)
		a.emit(tdf.OpPushImm16, off&0xFFFF)
	case *tsf.FlatAddr:
		flat = a.lenKind == nil || *a.lenKind
		c, _, _ := tdf.RegisterOpcode(ad.Base.Text)
		a.emit(c, 0)
		for _, r := range ad.Index {
			c, _, _ := tdf.RegisterOpcode(r.Reg.Text)
			a.emit(c, 0)
			a.emit(tdf.OpAdd, 0)
		}
		if n := sum(ad.Disps); n != 0 {
			a.emit(tdf.OpPushImm32, uint32(n))
			a.emit(tdf.OpAdd, 0)
		}
	case *tsf.SegAddr:
		flat = a.lenKind != nil && *a.lenKind
		c, _, _ := tdf.RegisterOpcode(ad.Seg.Text)
		a.emit(c, 0)
		for i, r := range ad.Regs {
			c, _, _ := tdf.RegisterOpcode(r.Reg.Text)
			a.emit(c, 0)
			if i > 0 {
				a.emit(tdf.OpAdd, 0)
			}
		}
		n := sum(ad.Disps)
		switch {
		case len(ad.Regs) == 0:
			a.emit(tdf.OpPushImm16, uint32(n)&0xFFFF)
		case n != 0:
			a.emit(tdf.OpPushImm16, uint32(n)&0xFFFF)
			a.emit(tdf.OpAdd, 0)
		}
	}
	a.indirection(fl, flat, ad.IndirectDisp())
	switch fl.Kind {
	case tsf.IndirectSegmented:
		return false, true
	case tsf.IndirectFlat:
		return true, true
	}
	return flat, true
}

// indirection assembles the flag of an address of kind flat, and the (n)
// displacement.
func (a *asm) indirection(fl *tsf.Flag, flat bool, disp *tsf.Signed) {
	fetch := tdf.OpFetchFar
	if flat {
		fetch = tdf.OpFetchDword
	}
	add := func(n int64, flat bool) {
		if n == 0 {
			return
		}
		if flat {
			a.emit(tdf.OpPushImm32, uint32(n))
		} else {
			a.emit(tdf.OpPushImm16, uint32(n)&0xFFFF)
		}
		a.emit(tdf.OpAdd, 0)
	}
	switch fl.Kind {
	case tsf.Indirect, tsf.IndirectSegmented, tsf.IndirectFlat:
		// INDIRECT is the first level, and the first * names the same level
		// again: INDIRECT and INDIRECT* are one fetch. So the first level
		// can carry an offset (INDIRECT*+6), and every further * is one more
		// fetch with its own offset (oracle d10, d47a-g, d16, d49). IS and
		// IF take the chain as INDIRECT does, in the address's own mode,
		// then turn the pointer last fetched into theirs (IBM's behaviour,
		// tried with its binary: MEM32=(FEBP+8,IS*+4*,n) is 1C 1A 04 16
		// 1C 1F, MEM=(RSS+BP+8,IF*-2*,n) 13 10 FFFE 16 13 20; IS* is IS).
		levels := max(1, len(fl.Chain))
		if len(fl.Chain) > 0 {
			// IBM's behaviour: with a chain, the first * gives the first
			// level's offset and an (i) term is dropped, also when that *
			// has no offset (TRCUST 3.05A writes nothing for (6) in
			// MEM32=(.x+(6),INDIRECT*,n), INDIRECT**-8*-2 or IS*; with an
			// offset on the first * the (i) term is error 66, "two
			// indirect offsets for first level").
			disp = nil
		}
		for i := range levels {
			a.emit(fetch, 0)
			if i < len(fl.Chain) && fl.Chain[i].Offset != nil {
				add(fl.Chain[i].Offset.Int(), flat)
			}
		}
		switch {
		case fl.Kind == tsf.IndirectSegmented && flat:
			// A 16:16 pointer fetched as a dword is split into selector
			// and offset; at a segmented address the far fetch gives it
			// as it is (oracle x_h21: MEM=(.errno,IS,2) is 11 02 10 f80b
			// 13 15). IBM's behaviour: the (i) term is added to the flat
			// pointer fetched, before it is split (TRCUST 3.05A writes
			// 1C 1A i 16 1F for ASCIIZ=(FEBP+(i),IS,n)).
			if disp != nil {
				add(int64(disp.Num.Value), true)
				disp = nil
			}
			a.emit(tdf.OpSplit, 0)
			flat = false
		case fl.Kind == tsf.IndirectFlat && !flat:
			// A far pointer fetched is joined into one dword; at a flat
			// address the dword fetch gives it. IBM's behaviour: the (i)
			// term is added to the far pointer, as a 16-bit offset,
			// before it is joined (TRCUST 3.05A writes 13 10 i 16 20 for
			// ASCIIZ=(.x+(i),IF,n)), as it is added before the split for
			// IS.
			if disp != nil {
				add(int64(disp.Num.Value), false)
				disp = nil
			}
			a.emit(tdf.OpJoin, 0)
			flat = true
		}
	}
	if disp != nil {
		// IBM's behaviour: the sign of the (i) term is not kept: -(4)
		// adds 4, as +(4) does (TRCUST 3.05A writes 1A 04000000 16 for
		// MEM32=(.x-(4),IF,n)). tsfcheck warns (TRC213) where tracekit
		// writes what TRCUST writes.
		add(int64(disp.Num.Value), flat)
	}
}

func sum(ds []*tsf.Signed) int64 {
	var n int64
	for _, d := range ds {
		n += d.Int()
	}
	return n
}

// lookupOnly resolves the symbol of a data statement that broke in or after
// its address (tsf.Mem.Cut, tsf.Len.Cut) or whose length is no number
// (tsf.Mem.BadLength) and assembles nothing: TRCUST
// 3.05A looks the symbol up as it reads it, before the statement's error
// (tsfcheck's lookup).
func (a *asm) lookupOnly(ad tsf.Address) {
	if s, ok := ad.(*tsf.SymbolAddr); ok {
		a.lookup(s.Name)
	}
}

// lookup resolves a data symbol.
func (a *asm) lookup(w *tsf.Word) (obj, off uint32, ok bool) {
	if a.syms == nil {
		a.diags.Add(tsf.SevereNoSymbolInfo.Diagnostic(w.Pos, a.field.Last().Line, a.modPath))
		return 0, 0, false
	}
	obj, off, ok = a.syms.Lookup(w.Text)
	if !ok {
		a.report(tsf.ErrSymbol, w, w.Text)
	}
	return obj, off, ok
}
