package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/alecthomas/kong"
	"github.com/tracekit/tracekit/cmd/internal/outfile"
)

// Exit statuses: the one table of every command. README.md shows it
// (TestStatusTableInREADME keeps them alike) and so does --help.
const (
	exitOK     = 0 // all input read, nothing of severity error or worse
	exitError  = 1 // input problems: lines skipped, errors in a TSF, files that cannot be read
	exitUsage  = 2 // the command line is wrong: unknown command, flag, dialect or format
	exitOutput = 3 // an output could not be written
	// A signal ends a run with 128 + its number: 129 SIGHUP, 130 SIGINT,
	// 143 SIGTERM.
	exitSignal = 128
)

// statusTable is the exit-status table as --help and README.md show it.
var statusTable = []struct {
	status int
	text   string
}{
	{exitOK, "all input read; nothing of severity error or worse"},
	{exitError, "input problems: lines skipped, errors in a TSF, inputs that cannot be read"},
	{exitUsage, "usage: unknown command, flag, dialect or format"},
	{exitOutput, "an output could not be written"},
	{exitSignal + 1, "SIGHUP, SIGINT (130) or SIGTERM (143): 128 + the signal's number"},
}

// writeStatusTable writes the exit statuses, one a line, each line after
// indent.
func writeStatusTable(w io.Writer, indent string) {
	for _, s := range statusTable {
		label := fmt.Sprint(s.status)
		if s.status > exitSignal {
			label = "129+"
		}
		fmt.Fprintf(w, "%s%-4s %s\n", indent, label, s.text)
	}
}

// helpWithStatuses is kong's help followed by the exit statuses.
func helpWithStatuses(options kong.HelpOptions, ctx *kong.Context) error {
	if err := kong.DefaultHelpPrinter(options, ctx); err != nil {
		return err
	}
	w := ctx.Stdout
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Exit status:")
	writeStatusTable(w, "  ")
	return nil
}

// exitCode carries a command's exit status out of kong, after the command
// has said what went wrong.
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// usageError is a command line that names something unknown (a dialect, a
// format) or flags that do not go together: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// usagef returns a usageError.
func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// statusOf maps what a command returned to its exit status.
func statusOf(err error) int {
	var (
		code  exitCode
		usage *usageError
		out   *outfile.Error
	)
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &code):
		return int(code)
	case errors.As(err, &usage):
		return exitUsage
	case errors.As(err, &out):
		return exitOutput
	}
	return exitError
}

// statusTableText is the table as writeStatusTable writes it.
func statusTableText(indent string) string {
	var b strings.Builder
	writeStatusTable(&b, indent)
	return b.String()
}
