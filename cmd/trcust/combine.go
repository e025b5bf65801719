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
	var files []*tff.File
	for _, name := range names {
		p, shownName, ok := search(name)
		if !ok {
			c.code(1, tsf.FatalNotFound, name)
			return
		}
		f, err := readInput(p, dest)
		if err != nil {
			c.code(1, tsf.FatalAccess, name)
			return
		}
		if len(files) > 0 && f.Major != files[0].Major {
			c.code(1, tsf.FatalCombineMajor, shownName)
			return
		}
		c.line("Reading input TFF: %s", shownName)
		files = append(files, f)
	}
	if len(files) == 0 {
		// IBM's behaviour: a list naming no file writes a TFF of no
		// records, which fails (see writeFails).
		c.code(1, tsf.FatalWrite, shownDest)
		return
	}
	out, dups, err := tff.Merge(files)
	if err != nil {
		c.code(1, tsf.FatalCombineMajor, names[0])
		return
	}
	for _, d := range dups {
		c.code(1, tsf.ErrDupMinorFile, fmt.Sprintf("%04X", d.Minor), names[d.Input])
	}
	if len(out.Records) == 0 {
		c.code(1, tsf.FatalWrite, shownDest) // see writeFails
		return
	}
	data, err := out.MarshalBinary()
	var set outfile.Set
	set.Add(dest, data)
	if err == nil {
		err = set.Commit()
	}
	if err != nil {
		c.code(1, tsf.FatalWrite, shownDest)
		return
	}
	c.line("Creating TFF file: %s \t # records = %d", display(strings.ToUpper(o.combine)), len(out.Records))
}

// readInput reads an input TFF of a combine as TRCUST 3.05A does (IBM's
// behaviour, tried with its binary on TFFs made for it):
//
//   - TRCUST opens the destination, emptying it, after it reads the list and
//     before it reads any input: an input that is the destination (its name
//     the same but for case, as OS/2's file system has it) reads as an empty
//     file. "full.tff other.tff" /C=full.tff gives "all TFFs not have same
//     major code" at other.tff.
//   - It checks neither the signature nor the length: the header is read
//     as far as the file goes, zeros after that, so an empty file is one
//     of major 0 and no records ("empty m0.tff", where m0.tff has major
//     0, combines), and a header whose count is 0 is all it reads. Nor
//     does it check the reserved bytes or what follows the last data block.
//
// writeFails: a TFF of no records fails to be written, "error writing to
// file" (TRCUST writes the index with fwrite, which writes nothing and says
// it failed when asked for 0 bytes); the output is then removed.
//
// The rest of a file must be as TRCUST writes it (tff.Parse); where it is
// not, TRCUST reads its bytes past the end of the file from buffers it
// used before, which trcust does not model: such a file is refused as
// one it cannot read.
func readInput(path, dest string) (*tff.File, error) {
	if sameFile(path, dest) {
		return &tff.File{}, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var h [tff.HeaderSize]byte
	copy(h[:], data)
	major, count := binary.LittleEndian.Uint16(h[4:]), binary.LittleEndian.Uint16(h[6:])
	if count == 0 {
		return &tff.File{Major: major}, nil
	}
	// Nor the reserved bytes, nor what follows the last data block (a
	// TFF with "XXXX" for its signature, another reserved text or bytes
	// added at its end combines as the file it was made from).
	norm := append(h[:], data[min(len(data), tff.HeaderSize):]...)
	copy(norm, tff.Magic)
	res := norm[12:tff.HeaderSize]
	clear(res)
	copy(res, tff.ReservedText)
	end := tff.HeaderSize + int(count)*tff.EntrySize
	for i := range int(count) {
		if e := tff.HeaderSize + i*tff.EntrySize; e+tff.EntrySize <= len(norm) {
			end += int(binary.LittleEndian.Uint16(norm[e+2:]))
		}
	}
	if end < len(norm) {
		norm = norm[:end]
	}
	return tff.Parse(norm)
}

// sameFile reports whether the files named a and b are one on OS/2: the
// same absolute path but for case.
func sameFile(a, b string) bool {
	a, errA := filepath.Abs(a)
	b, errB := filepath.Abs(b)
	return errA == nil && errB == nil && strings.EqualFold(a, b)
}
