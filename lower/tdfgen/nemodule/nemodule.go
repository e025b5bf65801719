// Package nemodule implements tdfgen.Module over a 16-bit NE module
// (binfmt/ne), which TRCUST 3.05A compiles against as it does an LX one:
// the "object" of a TP address is the NE segment of that number.
package nemodule

import (
	"fmt"

	"github.com/tracekit/tracekit/binfmt/ne"
)

// Module reads an NE module's bytes as TRCUST 3.05A does (IBM's behaviour,
// session 16, tried with its binary on 2ine's hello16.exe and
// testargv16.exe with MAP files written for them). The byte at offset off
// of segment n is the module file's byte at the segment's data offset plus
// off, modulo 2^32, whatever the segment's length and allocation: hello16's
// 1:3AC, just past its 940-byte code segment, is the file's next byte, and
// 2:FFFFFFFF the byte before segment 2's data. Past the end of the file
// the read gives nothing and the byte is the one read before (0 when none).
// No offset is warned (no 138 or 139).
//
// Approximations, where IBM's bytes come from memory: a segment the module
// does not have gives the byte read before, without a warning as IBM's
// (which gave 0x05 for hello16's 3:10); not worked out, a data segment's
// offsets from its allocation on (hello16's 2:90 and 2:1000 gave 0x80).
type Module struct {
	File *ne.File
	Data []byte // the module file

	last byte // the byte read last
}

// ByteAt implements tdfgen.Module; it never fails (see Module).
func (m *Module) ByteAt(seg, off uint32) (byte, error) {
	s := m.File.Segment(int(seg))
	if s == nil {
		return m.last, nil
	}
	if at := (uint64(s.Offset) + uint64(off)) & 0xFFFFFFFF; at < uint64(len(m.Data)) {
		m.last = m.Data[at]
	}
	return m.last, nil
}

// Object implements tdfgen.Module: the segment's bytes as loaded, its data
// and zeros up to its allocation, and whether it is a 32-bit segment.
func (m *Module) Object(seg uint32) ([]byte, bool, error) {
	s := m.File.Segment(int(seg))
	if s == nil {
		return nil, false, fmt.Errorf("the module has no segment %d", seg)
	}
	data, err := m.File.ReadSegment(int(seg), 0, int(s.Alloc))
	return data, s.Flags&ne.Seg32Bit != 0, err
}
