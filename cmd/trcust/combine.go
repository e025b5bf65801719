package main

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tracekit/tracekit/ast/tsf"
	"github.com/tracekit/tracekit/binfmt/tff"
	"github.com/tracekit/tracekit/cmd/internal/outfile"
)

// combine is "TRCUST tffsource /C=tffdest [/Wn]".
func combine(c *console, o options) {
	if len(o.files) == 0 {
		c.code(1, tsf.FatalNoTCF)
		return
	}
	path, shownList, ok := search(o.files[0])
	if !ok {
		c.code(1, tsf.FatalNotFound, o.files[0])
		return
	}
	list, err := os.ReadFile(path)
	if err != nil {
		c.code(1, tsf.FatalAccess, o.files[0])
		return
	}
	// TRCUST 3.05A upper-cases the /C= name, in the file it writes as in
	// its message (IBM's behaviour, measured with its binary through the
	// oracle runner); here the file name is, its folders kept as given.
	local := localPath(o.combine)
	dest := filepath.Join(filepath.Dir(local), strings.ToUpper(filepath.Base(local)))
	shownDest := display(strings.ToUpper(o.combine))
	// TRCUST opens the destination once it has read the list, before it
	// names the list (IBM's behaviour: "list /C=nodir\out.tff" is "cannot
	// open file : NODIR\OUT.TFF" and nothing else). trcust writes it at
	// the end, as every output, but refuses here what would fail there.
	if outfile.Check(dest) != nil {
		c.code(1, tsf.FatalCannotOpen, strings.ToUpper(o.combine))
		return
	}
	c.line("Using as file containing combine TFF names: %s", shownList)
	names := strings.Fields(string(list))
	if len(names) > tff.MaxCombine {
		c.code(1, tsf.FatalCombineMax)
		return
	}
	var files []*input
	var entry [tff.EntrySize]byte // TRCUST's buffer of an index entry
	for _, name := range names {
		if len(name) > maxListName {
			c.code(1, tsf.FatalCombinePath)
			return
		}
		p, shownName, ok := search(name)
		if !ok {
			c.code(1, tsf.FatalNotFound, name)
			return
		}
		f, err := readInput(p, dest, &entry)
		if err != nil {
			c.code(1, tsf.FatalAccess, name)
			return
		}
		if len(files) > 0 && f.major != files[0].major {
			c.code(1, tsf.FatalCombineMajor, shownName)
			return
		}
		c.line("Reading input TFF: %s", shownName)
		files = append(files, f)
	}
	if len(files) == 0 {
		// IBM's behaviour: a list naming no file writes a TFF of no
		// records, which fails (see combined).
		c.code(1, tsf.FatalWrite, shownDest)
		return
	}
	minors := make([][]uint16, len(files))
	for i, f := range files {
		for _, e := range f.entries {
			minors[i] = append(minors[i], e.Minor)
		}
	}
	order, dups := tff.MergeOrder(minors)
	for _, d := range dups {
		c.code(1, tsf.ErrDupMinorFile, fmt.Sprintf("%04X", d.Minor), names[d.Input])
	}
	data, ok := combined(files, order)
	if !ok {
		c.code(1, tsf.FatalWrite, shownDest)
		return
	}
	var set outfile.Set
	set.Add(dest, data)
	if err := set.Commit(); err != nil {
		c.code(1, tsf.FatalWrite, shownDest)
		return
	}
	c.line("Creating TFF file: %s \t # records = %d", shownDest, len(order))
}

// maxListName is the longest name a combine list holds: a longer one is
// fatal 11, "invalid path specified in combine file", where it is read
// (IBM's behaviour, session 19: 259 bytes are looked for, 260 are not).
const maxListName = 259

// input is an input TFF of a combine as TRCUST 3.05A reads it (IBM's
// behaviour, tried with its binary on TFFs made for it): its header and
// index, and the file for the data blocks, which are read as the output
// is written.
//
//   - TRCUST opens the destination, emptying it, after it reads the list and
//     before it reads any input: an input that is the destination (its name
//     the same but for case, as OS/2's file system has it) reads as an empty
//     file. "full.tff other.tff" /C=full.tff gives "all TFFs not have same
//     major code" at other.tff.
//   - It checks nothing: not the signature, nor the reserved bytes, nor
//     the length. What lies past the end of the file reads as zeros in
//     the header (an empty file is one of major 0 and no records). The
//     index, at the header's index offset, is read an entry at a time
//     into one buffer, which keeps what it held where the file ends: a
//     20-byte file that says 2 records has two of minor 0 and length 0
//     (the buffer's zeros), a 7-byte one that says 3 has three copies of
//     its first 7 bytes read as an entry at offset 0. That buffer is an
//     approximation: what TRCUST reads there is memory it used before,
//     which is not always the last entry (a 7-byte E2.Tff that says 1
//     record combines alone, and after another TFF is "error accessing
//     file", its entry's data offset then read from other bytes).
type input struct {
	data    []byte
	major   uint16
	entries []tff.IndexEntry
}

// readInput reads the input TFF at path (see input) through TRCUST's
// index entry buffer entry; dest is the destination's path.
func readInput(path, dest string, entry *[tff.EntrySize]byte) (*input, error) {
	if sameFile(path, dest) {
		return &input{}, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f := &input{data: data}
	var h [tff.HeaderSize]byte
	f.at(h[:], 0)
	f.major = binary.LittleEndian.Uint16(h[4:])
	count, index := binary.LittleEndian.Uint16(h[6:]), binary.LittleEndian.Uint32(h[8:])
	f.entries = make([]tff.IndexEntry, count)
	for i := range f.entries {
		e := entry[:]
		f.at(e, uint64(index)+uint64(i)*tff.EntrySize)
		f.entries[i] = tff.IndexEntry{Minor: binary.LittleEndian.Uint16(e[0:]), Len: binary.LittleEndian.Uint16(e[2:]), Off: binary.LittleEndian.Uint32(e[4:])}
	}
	return f, nil
}

// at reads len(b) bytes at off into b, as far as the file goes, and
// returns how many it read; the rest of b is left as it was.
func (f *input) at(b []byte, off uint64) int {
	if off >= uint64(len(f.data)) {
		return 0
	}
	return copy(b, f.data[off:])
}

// combined returns the TFF TRCUST 3.05A writes of the records order of
// files: the header, the index and each record's data block, read from its
// file into one buffer, which keeps what it held where the file ends
// (IBM's behaviour: a block past the end of its file is the block read
// before it, zeros at first; one that runs past the end is the file's
// bytes, then the buffer's). It reports false when TRCUST fails to write
// it, "error writing to file": for no records, or a record of length 0
// (TRCUST writes with fwrite, which writes nothing and says it failed when
// asked for 0 bytes); TRCUST then removes the file.
func combined(files []*input, order []tff.Source) ([]byte, bool) {
	if len(order) == 0 {
		return nil, false
	}
	out := append([]byte(tff.Magic), 0, 0, 0, 0)
	binary.LittleEndian.PutUint16(out[4:], files[0].major)
	binary.LittleEndian.PutUint16(out[6:], uint16(len(order)))
	out = binary.LittleEndian.AppendUint32(out, tff.IndexOffset)
	var res [tff.ReservedSize]byte
	copy(res[:], tff.ReservedText)
	out = append(out, res[:]...)
	off := uint32(tff.HeaderSize + len(order)*tff.EntrySize)
	for _, at := range order {
		e := files[at.Input].entries[at.Index]
		if e.Len == 0 {
			return nil, false
		}
		out = binary.LittleEndian.AppendUint16(out, e.Minor)
		out = binary.LittleEndian.AppendUint16(out, e.Len)
		out = binary.LittleEndian.AppendUint32(out, off)
		off += uint32(e.Len)
	}
	var buf [1 << 16]byte
	for _, at := range order {
		f := files[at.Input]
		e := f.entries[at.Index]
		f.at(buf[:e.Len], uint64(e.Off))
		out = append(out, buf[:e.Len]...)
	}
	return out, true
}

// sameFile reports whether the files named a and b are one on OS/2: the
// same absolute path but for case.
func sameFile(a, b string) bool {
	a, errA := filepath.Abs(a)
	b, errB := filepath.Abs(b)
	return errA == nil && errB == nil && strings.EqualFold(a, b)
}
