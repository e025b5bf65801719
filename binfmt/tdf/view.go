package tdf

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
)

// jsonFile is the JSON view of a File.
type jsonFile struct {
	Kind          string           `json:"kind"`
	Module        string           `json:"module"`
	Major         uint16           `json:"major"`
	MaxDataLength uint16           `json:"maxdatalength"`
	TDFID         uint16           `json:"tdfid"`
	Types         []jsonItem       `json:"types"`
	Groups        []jsonItem       `json:"groups"`
	Tracepoints   []jsonTracepoint `json:"tracepoints"`
}

type jsonItem struct {
	Name string `json:"name"`
	ID   uint16 `json:"id"`
}

type jsonTracepoint struct {
	Minor    uint16 `json:"minor"`
	Major    uint16 `json:"major"`
	TypeMask uint16 `json:"type_mask"`
	Group    uint16 `json:"group"`
	Object   uint32 `json:"object"`
	Offset   uint32 `json:"offset"`
	Opcode   uint8  `json:"opcode"`
	RPNHex   string `json:"rpn_hex"`
	RPN      []Op   `json:"rpn"`
	RPNError string `json:"rpn_error,omitempty"`
}

// jsonOp is one RPN instruction: op is always set, and the operand under
// the name that fits it.
type jsonOp struct {
	Off    int     `json:"off"`
	Op     string  `json:"op"`
	Reg    string  `json:"reg,omitempty"`
	Value  *uint32 `json:"value,omitempty"`
	Object *uint32 `json:"object,omitempty"`
	Count  *uint32 `json:"count,omitempty"`
}

// MarshalJSON returns the view of one instruction used by File.MarshalJSON:
// {"off":0,"op":"push_reg","reg":"EAX"}; push_imm16, push_imm32 and orbit
// carry "value", push_selector and push_object_base "object", log_regs16
// and log_regs32 "count".
func (o Op) MarshalJSON() ([]byte, error) {
	j := jsonOp{Off: o.Off, Op: o.Code.Name(), Reg: o.Reg()}
	arg := o.Arg
	switch o.Code {
	case OpPushImm16, OpPushImm32, OpOrbit:
		j.Value = &arg
	case OpPushSelector, OpPushBase:
		j.Object = &arg
	case OpLogRegs16, OpLogRegs32:
		j.Count = &arg
	}
	return json.Marshal(j)
}

// MarshalJSON implements json.Marshaler with the view of tracekit dump
// --json (docs/tdf-dump.schema.json):
//
//	{"kind":"tdf","module":"emitrep.dll","major":66,"maxdatalength":512,
//	 "tdfid":0,"types":[{"name":"PRE","id":1}],"groups":[],
//	 "tracepoints":[{"minor":1,"major":66,"type_mask":0,"group":0,
//	   "object":1,"offset":0,"opcode":85,"rpn_hex":"002101",
//	   "rpn":[{"off":0,"op":"push_reg","reg":"EAX"},
//	          {"off":1,"op":"log_regs32","count":1}]}]}
//
// Tracepoints keep their order. rpn holds the instructions Disassemble
// decodes; when it stops at a bad byte, rpn_error says why and rpn_hex
// still holds every byte.
func (f *File) MarshalJSON() ([]byte, error) {
	v := jsonFile{Kind: "tdf", Module: f.ModName, Major: f.Major, MaxDataLength: f.MaxDataLength, TDFID: f.TDFID,
		Types: jsonItems(f.Types), Groups: jsonItems(f.Groups), Tracepoints: make([]jsonTracepoint, len(f.Tracepoints))}
	for i, tp := range f.Tracepoints {
		ops, err := Disassemble(tp.RPN)
		jt := jsonTracepoint{Minor: tp.Minor, Major: tp.Major, TypeMask: tp.TypeMask, Group: tp.Group,
			Object: tp.Object, Offset: tp.Offset, Opcode: tp.Opcode, RPNHex: hex.EncodeToString(tp.RPN),
			RPN: ops}
		if ops == nil {
			jt.RPN = []Op{}
		}
		if err != nil {
			jt.RPNError = err.Error()
		}
		v.Tracepoints[i] = jt
	}
	return json.Marshal(v)
}

func jsonItems(l []ListItem) []jsonItem {
	out := make([]jsonItem, len(l))
	for i, it := range l {
		out[i] = jsonItem(it)
	}
	return out
}

// WriteText writes a listing of f for people to read: the header, the type
// and group lists, then per tracepoint its address and fields and its RPN
// program, one instruction per line with its offset and bytes.
//
//	TDF module "emitrep.dll", major 0x0042 (66), maxdatalength 512, tdfid 0, 1 tracepoints
//	tracepoint minor 0x0001 at 00000001:00000000, opcode 0x55, type mask 0x0000, group 0x0000, 3 RPN bytes
//	  +0000  00           push reg EAX
//	  +0001  21 01        log 32-bit regs n=1
func (f *File) WriteText(w io.Writer) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "TDF module %q, major 0x%04X (%d), maxdatalength %d, tdfid %d, %d tracepoints\n",
		f.ModName, f.Major, f.Major, f.MaxDataLength, f.TDFID, len(f.Tracepoints))
	for _, it := range f.Types {
		fmt.Fprintf(&b, "type  %-8s id 0x%04X\n", it.Name, it.ID)
	}
	for _, it := range f.Groups {
		fmt.Fprintf(&b, "group %-8s id 0x%04X\n", it.Name, it.ID)
	}
	for _, tp := range f.Tracepoints {
		fmt.Fprintf(&b, "tracepoint minor 0x%04X at %08X:%08X, opcode 0x%02X, type mask 0x%04X, group 0x%04X, %d RPN bytes",
			tp.Minor, tp.Object, tp.Offset, tp.Opcode, tp.TypeMask, tp.Group, len(tp.RPN))
		if tp.Major != f.Major {
			fmt.Fprintf(&b, ", major 0x%04X", tp.Major)
		}
		b.WriteByte('\n')
		ops, err := Disassemble(tp.RPN)
		for _, op := range ops {
			fmt.Fprintf(&b, "  +%04X  %-15s %s\n", op.Off, fmt.Sprintf("% X", tp.RPN[op.Off:op.Off+op.Len()]), op)
		}
		if err != nil {
			fmt.Fprintf(&b, "  %v\n", err)
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}
