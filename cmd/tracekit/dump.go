package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/tracekit/tracekit/binfmt/tdf"
	"github.com/tracekit/tracekit/binfmt/tff"
	"github.com/tracekit/tracekit/grammar/mapfile"
	"github.com/tracekit/tracekit/lower/tdfgen/lxmap"
	"github.com/tracekit/tracekit/lower/tsflist"
)

// dumpCmd is "tracekit dump FILE": a binary file, recognised by its
// signature, printed readably.
type dumpCmd struct {
	JSON bool   `name:"json" xor:"view" help:"Print JSON (for a TDF: the schema is docs/tdf-dump.schema.json)."`
	TSF  bool   `name:"tsf" xor:"view" help:"Print a TSF source listing: for a TFF one that compiles back to the same bytes (IBM's TFFLST); for a TDF what can be read back from the RPN programs (IBM's TDFLST)."`
	Map  string `name:"map" placeholder:"FILE" completion-predictor:"map" help:"For --tsf of a TDF: the module's MAP file, to name symbols."`
	File string `arg:"" name:"file" completion-predictor:"tfftdf" help:"A TFF or TDF file."`
}

// Run prints the file. A damaged TFF or TDF is printed as far as it can be
// read, its problems go to standard error with their byte offsets, and the
// status is 1.
func (c *dumpCmd) Run(e *env) error {
	data, err := os.ReadFile(c.File)
	if err != nil {
		return err
	}
	switch {
	case bytes.HasPrefix(data, []byte(tff.Magic)):
		return c.tff(e, data)
	case bytes.HasPrefix(data, []byte(tdf.Magic)):
		return c.tdf(e, data)
	}
	return fmt.Errorf("%s: not a file tracekit can dump (no TFF or TDF signature)", c.File)
}

// tdf prints a TDF. A damaged one is printed as far as it was read (the
// header, the lists, the records before the problem), then the problem
// with its byte offset, and the status is 1.
func (c *dumpCmd) tdf(e *env, data []byte) error {
	f, perr := tdf.ParsePartial(data)
	if f != nil {
		if err := c.printTDF(e, f); err != nil {
			return err
		}
	}
	if perr != nil {
		var fe *tdf.FormatError
		if errors.As(perr, &fe) {
			fmt.Fprintf(e.stderr, "%s: offset 0x%X: error: %s\n", c.File, fe.Off, fe.Msg)
		} else {
			fmt.Fprintf(e.stderr, "%s: error: %v\n", c.File, perr)
		}
		if f != nil {
			fmt.Fprintf(e.stderr, "%s: printed the %d tracepoints read before the problem\n", c.File, len(f.Tracepoints))
		}
		return exitCode(exitError)
	}
	return nil
}

func (c *dumpCmd) printTDF(e *env, f *tdf.File) error {
	switch {
	case c.JSON:
		out, err := json.Marshal(f)
		if err != nil {
			return err
		}
		_, err = e.stdout.Write(append(out, '\n'))
		return err
	case c.TSF:
		var names tsflist.Namer
		if c.Map != "" {
			m, diags, err := mapfile.ParseFile(c.Map)
			if err != nil {
				return err
			}
			diags.WriteText(e.stderr)
			names = lxmap.NewSymbols(m, false)
		} else if len(f.Tracepoints) > 0 {
			fmt.Fprintf(e.stderr, "%s: note: without --map the TP= names are invented from object and offset (.objN_OFFSET) and will not compile; give the module's MAP file with --map\n", c.File)
		}
		l, err := tsflist.TDF(f, names)
		return tsflist.Write(e.stdout, l, err)
	}
	return f.WriteText(e.stdout)
}

func (c *dumpCmd) tff(e *env, data []byte) error {
	f, problems := tff.ParseLenient(data)
	var err error
	switch {
	case c.JSON:
		var out []byte
		if out, err = json.Marshal(f); err == nil {
			out = append(out, '\n')
			_, err = e.stdout.Write(out)
		}
	case c.TSF:
		// The records that could be read; with problems, the listing no
		// longer compiles back to the file's bytes (said below).
		l, lerr := tsflist.TFF(f)
		err = tsflist.Write(e.stdout, l, lerr)
	default:
		err = f.WriteText(e.stdout)
	}
	for _, p := range problems {
		fmt.Fprintf(e.stderr, "%s: offset 0x%X: error: %s\n", c.File, p.Off, p.Msg)
	}
	if len(problems) > 0 {
		fmt.Fprintf(e.stderr, "%s: printed the %d records that could be read\n", c.File, len(f.Records))
	}
	if err != nil {
		return err
	}
	if len(problems) > 0 {
		return exitCode(exitError)
	}
	return nil
}
