// Package tmi reads and writes the .TMI file that TRCUST 3.05A writes beside
// the TDF when tracepoints carry ORBIT=(a,b): one record a tracepoint, naming
// the symbol TRCUST takes for the procedure the tracepoint is in, its offset
// and its size. IBM documents neither the file nor ORBIT; the layout here
// was measured with IBM's binary (docs/tmi.md):
//
//	offset  size  field
//	0       4     Magic, "TMI\0"
//	4       2     the major code
//	6       2     the number of records
//	8       288   the module name as the TDF stores it, NUL-padded
//	0x128         the records, each:
//	        4     Key: ORBIT's b in bits 5-15, floor(log2(a)) in bits 0-4
//	        4     the LX object of the address looked up
//	        4     the symbol's offset
//	        4     the symbol's size (0xFFFFFFFF: none)
//	        2     the length of the name, its NUL included
//	        n     the name and a NUL
//
// Integers are little-endian.
package tmi

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"os"
)

// Layout constants.
const (
	Magic           = "TMI\x00"
	ModNameSize     = 256                   // the module name field, NUL-padded, as in the TDF header
	tdfidOff        = 8 + ModNameSize       // the TDFID, after the name
	HeaderSize      = 0x128                 // where the records start (30 zero bytes after the TDFID)
	RecordFixedSize = 18                    // the four words and the name length
	NoSize          = 0xFFFFFFFF            // Record.Size when TRCUST has none
	MaxRecords      = 0xFFFF                // the count is 16 bits
	MaxName         = 0xFFFF - 1            // the length, NUL included, is 16 bits
	keyShift        = 5                     // ORBIT's b sits above the log2 of a
	keyLogMask      = 1<<keyShift - 1       // floor(log2(a)) of a 32-bit a is at most 31
	keyMask         = 0xFFFF                // the key keeps 16 bits of b<<5
	keyBMask        = keyMask &^ keyLogMask // the bits of b in the key
)

// Record is one tracepoint's record.
type Record struct {
	Key    uint32 // Key(a, b) of the tracepoint's ORBIT=(a,b)
	Object uint32 // the LX object of the address TRCUST looked up
	Offset uint32 // the offset of the symbol TRCUST names
	Size   uint32 // its size, NoSize for none
	Name   string // the symbol, or "o:xxx" (lower-case hex) for a place without one
}

// File is a TMI file.
type File struct {
	Major   uint16
	ModName string
	// TDFID is the TDF's TDFID, which TRCUST 3.05A writes after the module
	// name (IBM's behaviour).
	TDFID   uint16
	Records []Record
}

// Key is the first word of the record of a tracepoint with ORBIT=(a,b), as
// TRCUST 3.05A computes it (IBM's behaviour): b shifted left by 5, kept to
// 16 bits, with floor(log2(a)) of the 32-bit a in the low 5 bits
// ((0x10000,1) is 0x30). For the bit k that ORBIT=(0,1) is given, a is
// 1<<(k%32) and b is k/32, so the key is k (the TDF holds those values; see
// package lower/tdfgen). An a of 0 is none TRCUST writes; its key is 0.
func Key(a, b uint32) uint32 {
	if a == 0 {
		return 0
	}
	lg := uint32(bits.Len32(a) - 1)
	return b<<keyShift&keyBMask | lg&keyLogMask
}

// FormatError is a malformed TMI file, with the byte offset of the fault.
type FormatError struct {
	Off int64
	Msg string
}

func (e *FormatError) Error() string { return fmt.Sprintf("tmi: offset %d: %s", e.Off, e.Msg) }

// MarshalBinary returns the file's bytes.
func (f *File) MarshalBinary() ([]byte, error) {
	if len(f.ModName) >= ModNameSize {
		return nil, fmt.Errorf("tmi: module name of %d bytes (at most %d)", len(f.ModName), ModNameSize-1)
	}
	if len(f.Records) > MaxRecords {
		return nil, fmt.Errorf("tmi: %d records (at most %d)", len(f.Records), MaxRecords)
	}
	out := make([]byte, HeaderSize, HeaderSize+len(f.Records)*(RecordFixedSize+16))
	copy(out, Magic)
	binary.LittleEndian.PutUint16(out[4:], f.Major)
	binary.LittleEndian.PutUint16(out[6:], uint16(len(f.Records)))
	copy(out[8:], f.ModName)
	binary.LittleEndian.PutUint16(out[tdfidOff:], f.TDFID)
	for _, r := range f.Records {
		if len(r.Name) > MaxName-1 {
			return nil, fmt.Errorf("tmi: symbol name of %d bytes", len(r.Name))
		}
		out = binary.LittleEndian.AppendUint32(out, r.Key)
		out = binary.LittleEndian.AppendUint32(out, r.Object)
		out = binary.LittleEndian.AppendUint32(out, r.Offset)
		out = binary.LittleEndian.AppendUint32(out, r.Size)
		out = binary.LittleEndian.AppendUint16(out, uint16(len(r.Name)+1))
		out = append(append(out, r.Name...), 0)
	}
	return out, nil
}

// Parse reads a TMI file.
func Parse(data []byte) (*File, error) {
	if len(data) < HeaderSize {
		return nil, &FormatError{int64(len(data)), fmt.Sprintf("file of %d bytes is shorter than the %d-byte header", len(data), HeaderSize)}
	}
	if string(data[:4]) != Magic {
		return nil, &FormatError{0, fmt.Sprintf("magic % X, want % X", data[:4], Magic)}
	}
	f := &File{Major: binary.LittleEndian.Uint16(data[4:]), TDFID: binary.LittleEndian.Uint16(data[tdfidOff:])}
	n := int(binary.LittleEndian.Uint16(data[6:]))
	name := data[8:tdfidOff]
	end := -1
	for i, c := range name {
		if c == 0 {
			end = i
			break
		}
	}
	if end < 0 {
		// TRCUST writes the name NUL-padded: at most 255 bytes and a NUL.
		return nil, &FormatError{8 + ModNameSize - 1, fmt.Sprintf("module name fills all %d bytes of its field and has no NUL", ModNameSize)}
	}
	f.ModName = string(name[:end])
	off := HeaderSize
	for i := 0; i < n; i++ {
		if len(data)-off < RecordFixedSize {
			return nil, &FormatError{int64(off), fmt.Sprintf("record %d of %d: %d bytes left, want %d", i+1, n, len(data)-off, RecordFixedSize)}
		}
		b := data[off:]
		r := Record{Key: binary.LittleEndian.Uint32(b), Object: binary.LittleEndian.Uint32(b[4:]),
			Offset: binary.LittleEndian.Uint32(b[8:]), Size: binary.LittleEndian.Uint32(b[12:])}
		l := int(binary.LittleEndian.Uint16(b[16:]))
		if l == 0 || len(b)-RecordFixedSize < l {
			return nil, &FormatError{int64(off + 16), fmt.Sprintf("record %d: name length %d, %d bytes left", i+1, l, len(b)-RecordFixedSize)}
		}
		nm := b[RecordFixedSize : RecordFixedSize+l]
		if nm[l-1] != 0 {
			return nil, &FormatError{int64(off + RecordFixedSize + l - 1), fmt.Sprintf("record %d: name not NUL-terminated", i+1)}
		}
		r.Name = string(nm[:l-1])
		f.Records = append(f.Records, r)
		off += RecordFixedSize + l
	}
	if off != len(data) {
		return nil, &FormatError{int64(off), fmt.Sprintf("%d bytes after the last record", len(data)-off)}
	}
	return f, nil
}

// Open reads the named TMI file.
func Open(name string) (*File, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return Parse(data)
}
