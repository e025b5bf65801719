package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"github.com/tracekit/tracekit/binfmt/tff"
)

// dumpCmd is "tracekit dump FILE": a binary file, recognised by its
// signature, printed readably.
type dumpCmd struct {
	JSON bool   `name:"json" xor:"view" help:"Print JSON."`
	TSF  bool   `name:"tsf" xor:"view" help:"Print a TSF source listing that compiles back to the same bytes (as IBM's TFFLST)."`
	File string `arg:"" name:"file" help:"A TFF file."`
}

// Run prints the file. A damaged TFF is printed as far as it can be read,
// its problems go to standard error, and the status is 1.
func (c *dumpCmd) Run(e *env) error {
	data, err := os.ReadFile(c.File)
	if err != nil {
		return err
	}
	switch {
	case bytes.HasPrefix(data, []byte(tff.Magic)):
		return c.tff(e, data)
	}
	return fmt.Errorf("%s: not a file tracekit can dump (no TFF signature)", c.File)
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
		if len(problems) == 0 {
			err = f.TSF(e.stdout)
		}
	default:
		err = f.WriteText(e.stdout)
	}
	for _, p := range problems {
		fmt.Fprintf(e.stderr, "%s: offset 0x%X: error: %s\n", c.File, p.Off, p.Msg)
	}
	if err != nil {
		return err
	}
	if len(problems) > 0 {
		return exitCode(exitError)
	}
	return nil
}
