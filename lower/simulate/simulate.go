// Package simulate runs the dynamic tracepoints of a trace definition file
// (TDF) against a described machine state, as the OS/2 kernel does when a
// tracepoint is hit, and writes the records into a system trace buffer
// (STDA) or a TRACEFMT save file. A Trace Source File can so be tested end
// to end without an OS/2 machine: compile it, simulate hits, format the
// buffer through the compiled TFF.
//
// A State (read from a JSON state file with ParseState or OpenState) gives
// the registers, the selectors, the memory, where the module's LX objects
// were loaded, and the hits: each names a tracepoint, by minor code or by
// object:offset, with a process ID, a time stamp and registers or memory
// that hold for that hit only. Run runs each hit's RPN program on the
// machine (docs/simulate.md says what each opcode does) and lays the
// records out with stda.Writer, wrapping round the circular area as the
// kernel does.
//
// The record data is what the reference (trcust-tsf-reference.txt 1.4 and
// the "Dynamic trace data" section of the reference README) says the
// kernel logs: registers without a prefix, 2 bytes for a 16-bit register
// and 4 for an E-register; a 3-byte prefix (status, length) before the data
// of each memory or string item; the pointer in place of the data after a
// bad status, and nothing more for that hit. docs/simulate.md gives the
// state file and every choice the references leave open.
package simulate

import (
	"errors"
	"fmt"
	"math/bits"
	"strconv"

	"github.com/tracekit/tracekit/binfmt/dyndata"
	"github.com/tracekit/tracekit/binfmt/stda"
	"github.com/tracekit/tracekit/binfmt/tdf"
	"github.com/tracekit/tracekit/binfmt/tracefmt"
)

// DefaultSize is the STDA size Run uses when Options.Size is 0: 16 KiB,
// header included.
const DefaultSize = 0x4000

// RecordFlags are the flags of every record Run writes: kernel-generated
// (0x01 clear), time stamp present (0x02 clear), protect mode, dynamic.
// A hit with External set adds stda.FlagExternal; a record that
// MAXDATALENGTH cut has stda.FlagIncomplete.
const RecordFlags = stda.FlagProtect | stda.FlagDynamic

// Output is the kind of file Run writes.
type Output uint8

// The outputs.
const (
	OutputSTDA Output = iota // a bare STDA, as DosGetSTDA returns it
	OutputSave               // a TRACEFMT save file holding the STDA
)

// String returns "stda" or "save".
func (o Output) String() string {
	switch o {
	case OutputSTDA:
		return "stda"
	case OutputSave:
		return "save"
	}
	return "output(" + strconv.Itoa(int(o)) + ")"
}

// ParseOutput returns the Output named "stda" or "save".
func ParseOutput(s string) (Output, error) {
	switch s {
	case "stda":
		return OutputSTDA, nil
	case "save":
		return OutputSave, nil
	}
	return 0, fmt.Errorf("simulate: unknown output %q: want stda or save", s)
}

// Options choose the buffer Run writes.
type Options struct {
	// Format is the STDA format; the zero value means stda.FormatNew.
	Format stda.Format
	// Size is the whole STDA's size in bytes, header included (its
	// LAST+1); 0 means DefaultSize. At most stda.MaxSize.
	Size int
	// Next is the STDA offset where the first record goes; 0 means FIRST.
	// Records then wrap from LAST to FIRST, and the end marker lies just
	// below the oldest record kept: set Next to put it in the middle of the
	// circular area.
	Next int
	// Output says whether Result.Bytes is a bare STDA or a save file (whose
	// save time is State.Saved).
	Output Output
	// Hit, when set, is handed each hit's result in turn, and Result.Hits
	// stays empty: a run of many hits then keeps none of them. The
	// HitResult is reused, and so is the memory of its Record.Data: both
	// hold only during the call (its Notes stay valid).
	Hit func(*HitResult)
}

// HitResult is what one hit logged.
type HitResult struct {
	Hit        int // index in State.Hits
	Minor      uint16
	Object     uint32
	Offset     uint32
	Record     stda.Record    // as written (Offset is not set)
	Status     dyndata.Status // the bad status logged (0xFF, 0xFE, 0xFD), or StatusValid
	Incomplete bool           // MAXDATALENGTH cut the data (FlagIncomplete)
	// Notes tell what the simulator could not do as the state file may have
	// meant: memory that no region describes, the opcodes whose meaning is
	// not known.
	Notes []string
}

// Result is a simulation's output.
type Result struct {
	Hits []HitResult
	// Dropped is the number of records given up when the buffer wrapped.
	Dropped int
	// Bytes is the STDA or the save file, as Options.Output says.
	Bytes []byte
}

// RunError reports a hit that cannot be simulated: its tracepoint's program
// is broken (RPNOffset is then the offset of the instruction at fault), the
// state lacks what the program needs, or its record does not fit.
type RunError struct {
	Hit       int // index in State.Hits
	Minor     uint16
	Object    uint32
	Offset    uint32
	RPNOffset int // -1 when the problem is not in the program
	Msg       string
}

// Error returns "hit N: tracepoint minor 0x0001 at 00000001:00000000: RPN
// offset 5: message".
func (e *RunError) Error() string {
	s := fmt.Sprintf("hit %d: tracepoint minor 0x%04X at %08X:%08X: ", e.Hit, e.Minor, e.Object, e.Offset)
	if e.RPNOffset >= 0 {
		s += fmt.Sprintf("RPN offset %d: ", e.RPNOffset)
	}
	return s + e.Msg
}

// Run runs every hit of st, in order, against the tracepoints of t, and
// writes the records into the buffer opt describes. It returns an error,
// and no Result, when a hit names no tracepoint or an ambiguous one, when a
// program is broken or needs what the state does not give (an object's
// base or selector), when a major code does not fit the STDA's one byte,
// when a record is too large for the buffer, or when the options are bad.
// A hit whose memory cannot be read is not an error: its record logs the
// status, as the kernel's would.
func Run(t *tdf.File, st *State, opt Options) (*Result, error) {
	if st == nil {
		return nil, errors.New("simulate: Run needs a TDF and a state")
	}
	i := 0
	return run(t, st, opt, func() (*Hit, error) {
		if i == len(st.Hits) {
			return nil, nil
		}
		i++
		return &st.Hits[i-1], nil
	})
}

// run is Run with the hits from next, which returns nil after the last.
func run(t *tdf.File, st *State, opt Options, next func() (*Hit, error)) (*Result, error) {
	if t == nil || st == nil {
		return nil, errors.New("simulate: Run needs a TDF and a state")
	}
	if opt.Format == 0 {
		opt.Format = stda.FormatNew
	}
	if opt.Size == 0 {
		opt.Size = DefaultSize
	}
	if opt.Output != OutputSTDA && opt.Output != OutputSave {
		return nil, fmt.Errorf("simulate: unknown output %v", opt.Output)
	}
	w, err := stda.NewWriter(opt.Format, opt.Size)
	if err != nil {
		return nil, err
	}
	if opt.Next != 0 {
		if err := w.SetNext(opt.Next); err != nil {
			return nil, err
		}
	}
	w.SetTraceTimes(st.TraceOn, st.TraceOff)

	base := newBase(st)
	base.reuse = opt.Hit != nil
	res := &Result{}
	var cur HitResult
	for i := 0; ; i++ {
		h, err := next()
		if err != nil {
			return nil, err
		}
		if h == nil {
			break
		}
		tp, p, err := base.find(t, h, i)
		if err != nil {
			return nil, err
		}
		hr := &cur // what opt.Hit is handed, or a result kept
		if opt.Hit == nil {
			hr = &HitResult{}
		}
		if err := base.hit(t, tp, p, h, i, hr); err != nil {
			return nil, err
		}
		if err := w.Write(hr.Record); err != nil {
			e := &RunError{Hit: i, Minor: tp.Minor, Object: tp.Object, Offset: tp.Offset, RPNOffset: -1, Msg: err.Error()}
			if errors.Is(err, stda.ErrTooLarge) {
				e.Msg = fmt.Sprintf("a record of %d bytes does not fit a %d-byte STDA with its end marker; give a larger buffer",
					stda.RecordSize(opt.Format, &hr.Record), opt.Size)
			}
			return nil, e
		}
		if opt.Hit != nil {
			opt.Hit(hr)
		} else {
			res.Hits = append(res.Hits, *hr)
		}
	}
	res.Dropped = w.Dropped()
	res.Bytes = w.Bytes()
	if opt.Output == OutputSave {
		if res.Bytes, err = tracefmt.Marshal(st.Saved, res.Bytes); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// find returns the tracepoint hit h names, and its program.
func (b *base) find(t *tdf.File, h *Hit, i int) (*tdf.Tracepoint, *program, error) {
	if !h.ByAddress {
		if c := &b.recent[h.Minor&0xFF]; c.tp != nil && c.minor == h.Minor {
			return c.tp, c.p, nil
		}
		if tg, ok := b.found[h.Minor]; ok {
			b.recent[h.Minor&0xFF] = tg
			return tg.tp, tg.p, nil
		}
	}
	tp, err := b.lookup(t, h, i)
	if err != nil {
		return nil, nil, err
	}
	if b.progs == nil {
		b.progs = map[*tdf.Tracepoint]*program{}
	}
	p := b.progs[tp]
	if p == nil {
		p = newProgram(tp.RPN, b.objs)
		b.progs[tp] = p
	}
	if !h.ByAddress {
		if b.found == nil {
			b.found = map[uint16]target{}
		}
		b.found[h.Minor] = target{tp, p, h.Minor}
	}
	return tp, p, nil
}

// lookup returns the tracepoint hit h names.
func (b *base) lookup(t *tdf.File, h *Hit, i int) (*tdf.Tracepoint, error) {
	if b.byMinor == nil {
		// The TDF's tracepoints by minor code and by address, in TDF order.
		b.byMinor = map[uint16][]*tdf.Tracepoint{}
		b.byAddr = map[[2]uint32][]*tdf.Tracepoint{}
		for k := range t.Tracepoints {
			tp := &t.Tracepoints[k]
			b.byMinor[tp.Minor] = append(b.byMinor[tp.Minor], tp)
			b.byAddr[[2]uint32{tp.Object, tp.Offset}] = append(b.byAddr[[2]uint32{tp.Object, tp.Offset}], tp)
		}
	}
	var tps []*tdf.Tracepoint
	if h.ByAddress {
		tps = b.byAddr[[2]uint32{h.Object, h.Offset}]
	} else {
		tps = b.byMinor[h.Minor]
	}
	var found *tdf.Tracepoint
	for _, tp := range tps {
		if found != nil {
			return nil, &RunError{Hit: i, Minor: h.Minor, RPNOffset: -1,
				Msg: fmt.Sprintf("two tracepoints have this minor code (at %08X:%08X and %08X:%08X); name the one to hit with \"tp\"",
					found.Object, found.Offset, tp.Object, tp.Offset)}
		}
		found = tp
	}
	if found == nil {
		if h.ByAddress {
			return nil, &RunError{Hit: i, Object: h.Object, Offset: h.Offset, RPNOffset: -1,
				Msg: fmt.Sprintf("the TDF has no tracepoint at %08X:%08X", h.Object, h.Offset)}
		}
		return nil, &RunError{Hit: i, Minor: h.Minor, RPNOffset: -1, Msg: fmt.Sprintf("the TDF has no tracepoint with minor code 0x%04X", h.Minor)}
	}
	return found, nil
}

// base is the part of the machine every hit shares.
type base struct {
	st     *State
	sels   map[uint16]*Selector
	objs   map[uint32]*Object
	absent map[uint32]bool
	// the TDF's tracepoints by minor code and by address, and each one's
	// program disassembled once
	byMinor map[uint16][]*tdf.Tracepoint
	byAddr  map[[2]uint32][]*tdf.Tracepoint
	progs   map[*tdf.Tracepoint]*program
	found   map[uint16]target // by minor code, the tracepoints found so far
	recent  [256]target       // found's entries met last, by the minor's low byte
	spans   []span            // the state's memory, flattened
	regs    Registers         // the state's registers, segments cut to 16 bits
	m       machine
	// reuse: a hit's data is written over the last one's (no result
	// keeps it)
	reuse bool
	data  []byte
}

// fold appends in to code, or an instruction that does what in and the
// instructions before it do: an add of two constants becomes a push of
// their sum, and registers pushed and then all logged by the next
// instruction become one instruction that logs them. Nothing folded can
// stop a hit or fail, so a hit that runs the folded code logs what it
// would log running the instructions one by one.
func fold(code []instr, in instr) []instr {
	n := len(code)
	switch {
	case in.kind == kAdd && n >= 2 && code[n-2].kind == kPush && code[n-1].kind == kPush:
		code[n-2].Arg += code[n-1].Arg
		return code[:n-1]
	case (in.kind == kLogRegs16 || in.kind == kLogRegs32) && in.Arg > 0 && int(in.Arg) <= n && int(in.Arg) <= len(in.regs):
		k := int(in.Arg)
		for _, c := range code[n-k:] {
			if c.kind != kPushReg {
				return append(code, in)
			}
		}
		// logged top first: the last pushed first
		for i, c := range code[n-k:] {
			in.regs[k-1-i] = uint8(c.Code)
		}
		in.kind = kLogRegList16
		if in.Code == tdf.OpLogRegs32 {
			in.kind = kLogRegList32
		}
		return append(code[:n-k], in)
	}
	return append(code, in)
}

// regMask holds the bits of each register: 16 for a segment register.
var regMask = func() (t [NumRegs]uint32) {
	for r := range t {
		t[r] = 0xFFFFFFFF
		if Reg(r).Segment() {
			t[r] = 0xFFFF
		}
	}
	return t
}()

// target is a tracepoint and its program.
type target struct {
	tp    *tdf.Tracepoint
	p     *program
	minor uint16
}

// program is a tracepoint's program, disassembled and checked once for
// the run: what does not depend on a hit's data is settled here, so that
// a hit runs the instructions alone, with no check of the stack.
type program struct {
	// code is the program up to the first instruction that fails whatever
	// the data (the stack depth before each instruction is the same on
	// every hit that gets there), with the object pushes resolved against
	// the state (push_selector and push_object_base become immediates)
	// and the notes of ABORTOP and REMOVEOP made.
	code []instr
	// fail is the error a hit that runs all of code without stopping
	// ends with: the failing instruction's, or the one for items left on
	// the stack; nil when the program is sound.
	fail    *rpnError
	dataCap int // the most data a hit of it logged so far
}

// instr is one instruction of a program's code.
type instr struct {
	tdf.Op
	kind kind // what machine.run does
	// kLogRegList16, kLogRegList32: the registers logged, the first
	// Arg of them
	regs [tdf.MaxRPNStack]uint8
	note string // ABORTOP, REMOVEOP: the note; ORBIT: the last one made
	val  uint32 // ORBIT: the value note was made for
}

// newProgram disassembles rpn and checks it as machine.run would
// instruction by instruction: the stack depth (each instruction's effect
// is fixed by its opcode and operand) and the objects that the state
// gives (objs).
func newProgram(rpn []byte, objs map[uint32]*Object) *program {
	p := &program{}
	ops, err := tdf.Disassemble(rpn)
	if err != nil {
		if fe, ok := err.(*tdf.FormatError); ok {
			p.fail = &rpnError{int(fe.Off), fe.Msg}
		} else {
			p.fail = &rpnError{0, err.Error()}
		}
		return p
	}
	sp := 0
	for _, op := range ops {
		pop, push := op.Code.Stack(op.Arg)
		if pop > sp {
			p.fail = &rpnError{op.Off, fmt.Sprintf("%s needs %d stack items, the stack holds %d", op.Code.Name(), pop, sp)}
			return p
		}
		if sp-pop+push > tdf.MaxRPNStack {
			p.fail = &rpnError{op.Off, fmt.Sprintf("%s: the stack would hold %d items, more than %d", op.Code.Name(), sp-pop+push, tdf.MaxRPNStack)}
			return p
		}
		in := instr{Op: op}
		switch c := op.Code; {
		case c == tdf.OpPushSelector:
			o := objs[op.Arg]
			if o == nil || !o.HasSelector {
				p.fail = &rpnError{op.Off, fmt.Sprintf("push_selector: the state gives no selector for object %d", op.Arg)}
				return p
			}
			in.Code, in.Arg = tdf.OpPushImm32, uint32(o.Selector)
		case c == tdf.OpPushBase:
			o := objs[op.Arg]
			if o == nil {
				p.fail = &rpnError{op.Off, fmt.Sprintf("push_object_base: the state gives no base address for object %d", op.Arg)}
				return p
			}
			in.Code, in.Arg = tdf.OpPushImm32, o.Base
		case c == tdf.OpAbortOp:
			in.note = fmt.Sprintf("RPN offset %d: ABORTOP: no effect on the record (what the kernel does with it is not documented)", op.Off)
		case c == tdf.OpRemoveOp:
			in.note = fmt.Sprintf("RPN offset %d: REMOVEOP: no effect on the record, the tracepoint stays (what the kernel does with it is not documented)", op.Off)
		case kindOf(c) == kNone:
			// Disassemble returns only the opcodes machine.run runs.
			p.fail = &rpnError{op.Off, fmt.Sprintf("opcode 0x%02X is not simulated", uint8(c))}
			return p
		}
		in.kind = kindOf(in.Code)
		p.code = fold(p.code, in)
		sp += push - pop
	}
	if sp != 0 {
		end := 0
		if len(ops) > 0 {
			end = ops[len(ops)-1].Off + ops[len(ops)-1].Len()
		}
		p.fail = &rpnError{end, fmt.Sprintf("%d stack items are left at the end of the program", sp)}
	}
	return p
}

func newBase(st *State) *base {
	b := &base{st: st, sels: map[uint16]*Selector{}, objs: map[uint32]*Object{}, absent: map[uint32]bool{}}
	for i := range st.Selectors {
		s := &st.Selectors[i]
		if b.sels[s.Value] == nil {
			b.sels[s.Value] = s
		}
	}
	for i := range st.Objects {
		o := &st.Objects[i]
		if b.objs[o.Number] == nil {
			b.objs[o.Number] = o
		}
	}
	for _, p := range st.PagesNotPresent {
		b.absent[p/PageSize] = true
	}
	b.spans = newSpans(st.Memory)
	for r := range b.regs {
		b.regs[r] = st.Registers[r] & regMask[r]
	}
	b.m = machine{sels: b.sels, objs: b.objs}
	b.m.layers[0] = st.Memory
	b.m.mem.absent = b.absent
	return b
}

// hit runs tracepoint tp, whose program is p, for hit h (number i), into
// hr.
func (b *base) hit(t *tdf.File, tp *tdf.Tracepoint, p *program, h *Hit, i int, hr *HitResult) error {
	*hr = HitResult{Hit: i, Minor: tp.Minor, Object: tp.Object, Offset: tp.Offset}
	fail := func(off int, format string, args ...any) error {
		return &RunError{Hit: i, Minor: tp.Minor, Object: tp.Object, Offset: tp.Offset, RPNOffset: off, Msg: fmt.Sprintf(format, args...)}
	}
	if tp.Major > 0xFF {
		return fail(-1, "major code 0x%X does not fit the one byte an STDA record has for it", tp.Major)
	}
	// One machine serves every hit (newBase set what they share); what a
	// hit's result keeps (the data unless reuse is set, the notes) is made
	// afresh for each.
	m := &b.m
	if b.reuse {
		m.data = b.data[:0]
	} else {
		m.data = make([]byte, 0, p.dataCap)
	}
	m.regs = b.regs
	m.maxData = int(t.MaxDataLength)
	m.status, m.incomplete, m.stopped = dyndata.StatusValid, false, false
	m.notes = nil
	if m.noted != nil {
		m.noted = nil
	}
	if len(h.Memory) == 0 {
		m.mem.layers, m.mem.index = m.layers[:1], b.spans
	} else {
		m.layers[1] = h.Memory
		m.mem.layers, m.mem.index = m.layers[:], nil
	}
	for r, v := range h.Registers {
		if r < NumRegs {
			m.regs[r] = v & regMask[r]
		}
	}
	for set := h.regSet; set != 0; set &= set - 1 {
		r := bits.TrailingZeros16(set)
		m.regs[r] = h.regVals[r] & regMask[r]
	}
	if err := m.run(p); err != nil {
		var re *rpnError
		if errors.As(err, &re) {
			return fail(re.off, "%s", re.msg)
		}
		return fail(-1, "%v", err)
	}
	flags := byte(RecordFlags)
	if h.External {
		flags |= stda.FlagExternal
	}
	if m.incomplete {
		flags |= stda.FlagIncomplete
	}
	hr.Record = stda.Record{Flags: flags, PID: h.PID, Minor: tp.Minor, Major: uint8(tp.Major), Time: h.Time, Data: m.data}
	p.dataCap = max(p.dataCap, len(m.data))
	if b.reuse {
		b.data = m.data
	}
	hr.Status, hr.Incomplete, hr.Notes = m.status, m.incomplete, m.notes
	return nil
}
