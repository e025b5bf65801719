package main

import (
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
	c.line("Using as file containing combine TFF names: %s", shownList)
	list, err := os.ReadFile(path)
	if err != nil {
		c.code(1, tsf.FatalAccess, o.files[0])
		return
	}
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
		f, err := tff.Open(p)
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
		c.code(1, tsf.FatalNoTCF)
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
	data, err := out.MarshalBinary()
	// TRCUST 3.05A upper-cases the /C= name, in the file it writes as in
	// its message (IBM's behaviour, measured with its binary through the
	// oracle runner); here the file name is, its folders kept as given.
	dest := filepath.Join(filepath.Dir(o.combine), strings.ToUpper(filepath.Base(o.combine)))
	var set outfile.Set
	set.Add(dest, data)
	if err == nil {
		err = set.Commit()
	}
	if err != nil {
		c.code(1, tsf.FatalWrite, o.combine)
		return
	}
	c.line("Creating TFF file: %s \t # records = %d", display(strings.ToUpper(o.combine)), len(out.Records))
}
