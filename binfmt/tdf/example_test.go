package tdf_test

import (
	"fmt"
	"os"

	"github.com/tracekit/tracekit/binfmt/tdf"
)

// Parse reads a TDF; its tracepoints hold the RPN programs, which
// Disassemble reads as named operations. The file here is built and
// written by the package itself: one tracepoint logging EAX at the entry
// point of object 1 of emitrep.dll.
func ExampleParse() {
	data, err := (&tdf.File{
		ModName: "emitrep.dll", Major: 0x42, MaxDataLength: 512,
		Tracepoints: []tdf.Tracepoint{{Minor: 1, Major: 0x42, Object: 1, Offset: 0, Opcode: 0x55, RPN: []byte{0x00, 0x21, 0x01}}},
	}).MarshalBinary()
	if err != nil {
		fmt.Println(err)
		return
	}
	f, err := tdf.Parse(data)
	if err != nil {
		fmt.Println(err)
		return
	}
	tp := f.Tracepoints[0]
	fmt.Printf("%s major 0x%X: minor %d at %d:%#x\n", f.ModName, f.Major, tp.Minor, tp.Object, tp.Offset)
	ops, _ := tdf.Disassemble(tp.RPN)
	for _, op := range ops {
		fmt.Println(" ", op)
	}
	_ = f.WriteText(os.Stdout)
	// Output:
	// emitrep.dll major 0x42: minor 1 at 1:0x0
	//   push reg EAX
	//   log 32-bit regs n=1
	// TDF module "emitrep.dll", major 0x0042 (66), maxdatalength 512, tdfid 0, 1 tracepoints
	// tracepoint minor 0x0001 at 00000001:00000000, opcode 0x55, type mask 0x0000, group 0x0000, 3 RPN bytes
	//   +0000  00              push reg EAX
	//   +0001  21 01           log 32-bit regs n=1
}
