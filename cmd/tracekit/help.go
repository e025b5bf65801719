package main

import (
	"fmt"

	"github.com/alecthomas/kong"
)

// helpCmd is "tracekit help [CMD...]": the help of the command line, or of
// one command, as --help prints it.
type helpCmd struct {
	Command []string `arg:"" optional:"" name:"command" help:"The command (and sub-command) to describe."`
}

// Run prints the help. An unknown command is a usage error.
func (c *helpCmd) Run(ctx *kong.Context) error {
	sub, err := kong.Trace(ctx.Kong, c.Command)
	if err == nil {
		err = sub.Error
	}
	if err != nil {
		fmt.Fprintln(ctx.Kong.Stderr, "tracekit:", err)
		return exitCode(exitUsage)
	}
	return sub.PrintUsage(false)
}
