package simulate

import (
	"encoding/binary"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/tracekit/tracekit/binfmt/dyndata"
	"github.com/tracekit/tracekit/binfmt/stda"
	"github.com/tracekit/tracekit/binfmt/tdf"
)

// refRun is the machine as it ran before programs were checked and
// folded once (newProgram, fold): the disassembled instructions one by
// one, the stack checked before each, the objects looked up as they are
// pushed. It is the oracle of FuzzProgram.
func (m *machine) refRun(rpn []byte) error {
	ops, err := tdf.Disassemble(rpn)
	if err != nil {
		if fe, ok := err.(*tdf.FormatError); ok {
			return &rpnError{int(fe.Off), fe.Msg}
		}
		return &rpnError{0, err.Error()}
	}
	for _, op := range ops {
		if m.stopped {
			return nil
		}
		pop, push := op.Code.Stack(op.Arg)
		if pop > m.sp {
			return &rpnError{op.Off, fmt.Sprintf("%s needs %d stack items, the stack holds %d", op.Code.Name(), pop, m.sp)}
		}
		if m.sp-pop+push > tdf.MaxRPNStack {
			return &rpnError{op.Off, fmt.Sprintf("%s: the stack would hold %d items, more than %d", op.Code.Name(), m.sp-pop+push, tdf.MaxRPNStack)}
		}
		in := instr{Op: op, kind: kindOf(op.Code)}
		switch op.Code {
		case tdf.OpPushSelector:
			o := m.objs[op.Arg]
			if o == nil || !o.HasSelector {
				return &rpnError{op.Off, fmt.Sprintf("push_selector: the state gives no selector for object %d", op.Arg)}
			}
			in.Arg = uint32(o.Selector)
		case tdf.OpPushBase:
			o := m.objs[op.Arg]
			if o == nil {
				return &rpnError{op.Off, fmt.Sprintf("push_object_base: the state gives no base address for object %d", op.Arg)}
			}
			in.Arg = o.Base
		case tdf.OpAbortOp:
			in.note = fmt.Sprintf("RPN offset %d: ABORTOP: no effect on the record (what the kernel does with it is not documented)", op.Off)
		case tdf.OpRemoveOp:
			in.note = fmt.Sprintf("RPN offset %d: REMOVEOP: no effect on the record, the tracepoint stays (what the kernel does with it is not documented)", op.Off)
		}
		if in.kind == kNone {
			return &rpnError{op.Off, fmt.Sprintf("opcode 0x%02X is not simulated", uint8(op.Code))}
		}
		m.refStep(&in)
	}
	if !m.stopped && m.sp != 0 {
		end := 0
		if len(ops) > 0 {
			end = ops[len(ops)-1].Off + ops[len(ops)-1].Len()
		}
		return &rpnError{end, fmt.Sprintf("%d stack items are left at the end of the program", m.sp)}
	}
	return nil
}

// FuzzProgram: a program checked and folded once (newProgram) logs, notes
// and fails exactly as the instructions run one by one with their checks
// (refRun), on random programs and machine states, each program run for
// three hits in a row (the ORBIT note kept from one hit to the next).
func FuzzProgram(f *testing.F) {
	f.Add([]byte{0x00, 0x21, 0x01}, []byte{0x2C, 0x4B, 0, 0}, []byte("hello\x00"), uint16(512))
	f.Add([]byte{0x00, 0x03, 0x0B, 0x14, 0x03, 0x01, 0x21, 0x01}, []byte{1, 2, 3, 4, 5, 6, 7, 8}, []byte{}, uint16(5))
	f.Add([]byte{0x10, 4, 0, 0x1B, 1, 0, 0, 0, 0x1A, 4, 0, 0, 0, 0x16, 0x22}, []byte{}, []byte{1, 2, 3, 4, 5, 6, 7, 8, 9}, uint16(20))
	f.Add([]byte{0x10, 8, 0, 0x11, 1, 0x10, 0, 0, 0x13, 0x19}, []byte{}, []byte{0, 0x10, 0x28, 0}, uint16(9))
	f.Add([]byte{0x0B, 0x07, 0x12, 0x0B, 0x07, 0x15}, make([]byte, 64), []byte{2, 0, 0xAA}, uint16(100))
	f.Add([]byte{0x1A, 0, 0x20, 0, 0, 0x1C, 0x1F, 0x13, 0x20, 0x10, 1, 0, 0x23}, []byte{}, []byte{}, uint16(0))
	f.Add([]byte{0x31, 0x33, 0x1A, 1, 0, 0, 0, 0x32, 2, 0, 0x11, 3}, []byte{}, []byte{}, uint16(1))
	f.Add([]byte{0x10, 1, 0, 0x10, 2, 0, 0x16, 0x10, 3, 0, 0x16, 0x0C, 0x0D, 0x14, 0x03}, []byte{}, []byte{}, uint16(4))
	f.Fuzz(func(t *testing.T, rpn, regs, mem []byte, maxData uint16) {
		if len(rpn) > 300 || len(mem) > 300 || len(regs) > 4*int(NumRegs) {
			return
		}
		maxData %= 0x1000
		st := fuzzState(regs, mem)
		tp := tdf.Tracepoint{Object: 1, Minor: 1, Major: 0x42, RPN: rpn}
		file := &tdf.File{MaxDataLength: maxData, Major: 0x42, Tracepoints: []tdf.Tracepoint{tp}}
		for k := range 3 {
			h := Hit{Minor: 1, PID: 1, Time: stda.Timestamp{Len: 4}, Registers: map[Reg]uint32{RegEAX: uint32(k)}}
			st.Hits = append(st.Hits, h)
		}
		res, err := Run(file, st, Options{Size: 0x4000})

		type logged struct {
			Data       []byte
			Notes      []string
			Status     dyndata.Status
			Incomplete bool
		}
		b := newBase(st)
		var want []logged
		var werr error
		for i := range st.Hits {
			m := &machine{regs: st.Registers, sels: b.sels, objs: b.objs, maxData: int(maxData)}
			m.regs[RegEAX] = uint32(i)
			m.layers = [2][]Region{st.Memory, nil}
			m.mem = memory{layers: m.layers[:], absent: b.absent}
			for r := RegES; r < NumRegs; r++ {
				if r.Segment() {
					m.regs[r] &= 0xFFFF
				}
			}
			if err := m.refRun(rpn); err != nil {
				var re *rpnError
				errors.As(err, &re)
				werr = &RunError{Hit: i, Minor: 1, Object: 1, RPNOffset: re.off, Msg: re.msg}
				break
			}
			want = append(want, logged{m.data, m.notes, m.status, m.incomplete})
		}
		if fmt.Sprint(err) != fmt.Sprint(werr) && !(werr == nil && err != nil && errors.Is(err, stda.ErrTooLarge)) {
			t.Fatalf("program % x: Run's error %v, one by one %v", rpn, err, werr)
		}
		if err != nil {
			return
		}
		for i, hr := range res.Hits {
			got := logged{hr.Record.Data, hr.Notes, hr.Status, hr.Incomplete}
			if len(got.Data) == 0 {
				got.Data = nil
			}
			if len(want[i].Data) == 0 {
				want[i].Data = nil
			}
			if !reflect.DeepEqual(got, want[i]) {
				t.Fatalf("program % x, hit %d: Run gives %+v, one by one %+v", rpn, i, got, want[i])
			}
		}
	})
}

func (m *machine) push(v uint32) { m.stack[m.sp] = v; m.sp++ }
func (m *machine) pop() uint32   { m.sp--; return m.stack[m.sp] }

// refPopSeg takes an offset and, below it, a selector off the stack.
func (m *machine) refPopSeg() access {
	off := uint16(m.pop())
	return access{seg: true, sel: uint16(m.pop()), off: off}
}

// refStep runs one instruction for refRun, whose stack refRun has
// checked, on m.stack and m.sp.
func (m *machine) refStep(in *instr) {
	switch in.kind {
	case kPushReg:
		m.push(m.regs[in.Code])
	case kPush:
		m.push(in.Arg)
	case kAdd:
		b := m.pop()
		m.push(m.pop() + b)
	case kFetchWord:
		a := m.refPopSeg()
		if v, ok := m.fetch(a, 2); ok {
			m.push(v)
		}
	case kFetchFar:
		a := m.refPopSeg()
		if v, ok := m.fetch(a, 4); ok {
			m.push(v >> 16)
			m.push(v & 0xFFFF)
		}
	case kFetchDword:
		a := access{flat: m.pop()}
		if v, ok := m.fetch(a, 4); ok {
			m.push(v)
		}
	case kSplit:
		d := m.pop()
		m.push(d >> 16)
		m.push(d & 0xFFFF)
	case kJoin:
		off := m.pop() & 0xFFFF
		m.push(m.pop()<<16 | off)
	case kLogRegs16, kLogRegs32:
		m.refLogRegs(int(in.Arg), in.kind == kLogRegs32)
	case kLogMem, kLogASCIIZ:
		// The length was pushed first (or left by LEN), the address
		// after it.
		a := m.refPopSeg()
		m.logItem(a, int(m.pop()&0xFFFF), in.kind == kLogASCIIZ)
	case kLogMemFlat, kLogASCIIZFlat:
		a := access{flat: m.pop()}
		m.logItem(a, int(m.pop()&0xFFFF), in.kind == kLogASCIIZFlat)
	case kNote:
		m.notes = append(m.notes, in.note)
	case kOrbit:
		a := m.pop()
		if in.note == "" || in.val != a {
			in.note = fmt.Sprintf("RPN offset %d: ORBIT=(%d,%d): no effect on the record (what the kernel does with it is not documented)", in.Off, a, in.Arg)
			in.val = a
		}
		m.notes = append(m.notes, in.note)
	}
}

// refLogRegs logs n stack items as words or dwords, the top item first (the
// REGS statement pushes its registers last first, so they are logged in
// source order), and takes them off the stack. A value that does not fit
// in MAXDATALENGTH ends the record.
func (m *machine) refLogRegs(n int, wide bool) {
	w := 2
	if wide {
		w = 4
	}
	for i := range n {
		if m.room() < w {
			m.cut()
			return
		}
		v := m.stack[m.sp-1-i]
		if wide {
			m.data = binary.LittleEndian.AppendUint32(m.data, v)
		} else {
			m.data = binary.LittleEndian.AppendUint16(m.data, uint16(v))
		}
	}
	m.sp -= n
}
