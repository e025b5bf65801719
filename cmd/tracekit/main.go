// Command tracekit compiles OS/2 Trace Source Files, reads legacy trace
// formats and formats trace buffers. Run "tracekit --help" for the
// commands.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/alecthomas/kong"
	kongcompletion "github.com/jotaen/kong-completion"
)

// Exit statuses.
const (
	exitOK    = 0 // nothing of severity error or worse
	exitError = 1 // an error or worse was found, or a file could not be read
	exitUsage = 2 // the command line is wrong
)

// cli is the command line.
type cli struct {
	Check    checkCmd    `cmd:"" help:"Check Trace Source Files and print their diagnostics; write nothing."`
	Compile  compileCmd  `cmd:"" help:"Compile a Trace Source File into its TRC00xx.TFF (and, for dynamic tracepoints, its TDF)."`
	Combine  combineCmd  `cmd:"" help:"Combine TFF files of one major code into one (TRCUST /C=)."`
	Dump     dumpCmd     `cmd:"" help:"Print a TFF or a TDF readably (TDF programs disassembled), as JSON, or as a TSF listing."`
	Format   formatCmd   `cmd:"" help:"Format STDA trace buffers and TRACEFMT save files through their TFFs (a modern TRACEFMT)."`
	Simulate simulateCmd `cmd:"" help:"Run a TDF's trace programs against a described machine state into a trace buffer."`
	Records  recordsCmd  `cmd:"" help:"Read traces in any dialect (${dialects}) as normalized records."`
	Dialects dialectsCmd `cmd:"" help:"List the trace dialects tracekit reads."`
	Generate generateCmd `cmd:"" help:"Write synthetic input of a trace dialect (${generated_dialects}), for benchmarks."`
	AST      astCmd      `cmd:"" name:"ast" help:"Dump the syntax tree of a file (kr/pretty), positions included."`

	Help       helpCmd                   `cmd:"" help:"Print the help of a command: tracekit help CMD."`
	Completion kongcompletion.Completion `cmd:"" help:"Print the shell code that turns on tab completion: tracekit completion -c bash|zsh|fish."`
	Version    kong.VersionFlag          `name:"version" help:"Print the module version and the revision tracekit was built from, and exit."`
}

// env is what a command runs with: its streams, so that tests can run the
// command line in process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// exitCode carries a command's exit status out of kong.
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run runs the command line args and returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (status int) {
	var c cli
	exited := false
	parser, err := kong.New(&c,
		kong.Name("tracekit"),
		kong.Description("A toolchain for OS/2-era trace formats: a TRCUST-compatible TSF compiler, trace readers and a formatter."),
		kong.Writers(stdout, stderr),
		kong.Exit(func(code int) { exited, status = true, code }),
		kong.UsageOnError(),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true}),
		kong.Vars{"version": version()},
		dialectVars(),
	)
	if err != nil {
		fmt.Fprintln(stderr, "tracekit:", err)
		return exitUsage
	}
	// A shell asking for completions (COMP_LINE set) is answered here.
	kongcompletion.Register(parser, kongcompletion.WithPredictors(completionPredictors()))
	if exited {
		return status
	}
	ctx, err := parser.Parse(args)
	if exited {
		return status
	}
	if err != nil {
		fmt.Fprintln(stderr, "tracekit:", err)
		return exitUsage
	}
	err = ctx.Run(&env{stdin: stdin, stdout: stdout, stderr: stderr})
	var code exitCode
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &code):
		return int(code)
	}
	fmt.Fprintln(stderr, "tracekit:", err)
	return exitError
}
