// Command trcust is tracekit's TSF compiler behind IBM TRCUST's own command
// line, for makefiles and habits that expect it:
//
//	TRCUST tsf [tdf] [/M=mapfile] [/P] [/D] [/I] [/Wn]
//	TRCUST tffsource /C=tffdest [/Wn]
//
// Switches may be given in any case. It prints what TRCUST 3.05A printed:
// the banner, the "Using ..." and "Creating ..." lines, the messages as
// "TRCUST(<line>) <SEVERITY>: <text>" with IBM's texts and line numbers, CRLF
// line ends; the abort line goes to standard error and the exit status is
// 1 after a FATAL or SEVERE message, 0 otherwise. It shares the compiler
// with the tracekit command; only the front and the message rendering
// differ.
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/ast/tsf"
	"github.com/tracekit/tracekit/cmd/internal/osfile"
)

// Version is the TRCUST version whose behaviour trcust reproduces.
const Version = "3.05A"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// console prints what TRCUST prints.
type console struct {
	out, err io.Writer
	min      diag.Severity // the /Wn level
	worst    diag.Severity
}

func (c *console) line(format string, args ...any) {
	fmt.Fprintf(c.out, format+"\r\n", args...)
}

// msg prints a message in TRCUST's form, when the message level shows it.
func (c *console) msg(line int, sev diag.Severity, text string) {
	if sev > c.worst {
		c.worst = sev
	}
	if sev >= c.min {
		c.line("TRCUST(%d) %s: %s", line, strings.ToUpper(sev.String()), text)
	}
}

// code prints catalogue message code at line.
func (c *console) code(line int, code tsf.Code, args ...any) {
	d := code.Diagnostic(tsf.Pos{Line: line}, line, args...)
	c.msg(line, d.Severity, d.Msg)
}

// aborted reports whether a FATAL or SEVERE message was given, and if so
// prints TRCUST's abort line on standard error.
func (c *console) aborted() bool {
	if c.worst < diag.Severe {
		return false
	}
	fmt.Fprint(c.err, "\r\nFATAL/SEVERE error detected, TRCUST aborted\r\n")
	return true
}

// options is the parsed command line.
type options struct {
	files       []string // the TSF and the TDF, or the combine list
	mapFile     string
	combine     string
	keepPath    bool // /P
	dups        bool // /D
	caseless    bool // /I
	level       int  // /Wn
	combineMode bool
}

func parseArgs(c *console, args []string) options {
	o := options{level: 2}
	var bad []string
	for _, a := range args {
		if !strings.HasPrefix(a, "/") && !strings.HasPrefix(a, "-") {
			o.files = append(o.files, a)
			continue
		}
		sw := strings.ToUpper(a[1:])
		switch {
		case strings.HasPrefix(sw, "M="):
			o.mapFile = a[3:]
		case strings.HasPrefix(sw, "C="):
			o.combine, o.combineMode = a[3:], true
		case sw == "P":
			o.keepPath = true
		case sw == "D":
			o.dups = true
		case sw == "I":
			o.caseless = true
		case sw == "W0" || sw == "W1" || sw == "W2":
			o.level = int(sw[1] - '0')
		default:
			bad = append(bad, a)
		}
	}
	c.min, _ = diag.LevelMin(o.level)
	for _, a := range bad {
		c.code(1, tsf.ErrParameter, a)
	}
	return o
}

// run runs the command line and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	c := &console{out: stdout, err: stderr, min: diag.Warning}
	fmt.Fprintf(stdout, "\r\nTrcust Version %s\r\n", Version)
	o := parseArgs(c, args)
	if o.combineMode {
		combine(c, o)
	} else {
		compile(c, o)
	}
	if c.aborted() {
		return 1
	}
	return 0
}

// display is how TRCUST names a file it found: DosSearchPath returns ".\"
// and the name for a file in the current directory, and a name with a path
// as it was given.
func display(name string) string {
	if strings.ContainsAny(name, `\/:`) {
		return name
	}
	return `.\` + name
}

// search finds a file as DosSearchPath does for TRCUST: a name with a path
// as given; a bare name in the current directory, then along DPATH. It
// returns the name to open and the name to print.
func search(name string) (path, shown string, ok bool) {
	if strings.ContainsAny(name, `\/:`) {
		local := filepath.FromSlash(strings.ReplaceAll(name, `\`, "/"))
		_, err := os.Stat(local)
		return local, name, err == nil
	}
	if p, ok := osfile.Find(".", name); ok {
		return p, display(name), true
	}
	for _, dir := range strings.FieldsFunc(os.Getenv("DPATH"), func(r rune) bool { return r == ';' }) {
		if p, ok := osfile.Find(dir, name); ok {
			return p, filepath.Join(dir, name), true
		}
	}
	return "", "", false
}

// byLegacyLine orders diagnostics as TRCUST prints them: by the line its
// parser stood on, then by position.
func byLegacyLine(l diag.List) diag.List {
	out := append(diag.List(nil), l...)
	// At one line, what TRCUST read first first: the end of a statement
	// (an OPCODE compared when the next TRACE is read) before what the
	// next statement's fields give at that line (IBM's behaviour).
	sort.SliceStable(out, func(i, j int) bool {
		li, lj := tsf.LegacyLine(out[i]), tsf.LegacyLine(out[j])
		if li != lj {
			return li < lj
		}
		return out[i].Pos.File == out[j].Pos.File && out[i].Pos.Offset < out[j].Pos.Offset
	})
	return out
}

// shown reports whether TRCUST 3.05A prints d at all: tracekit's own
// warnings, and the warnings 3.05A does not give, are left out.
func shown(d diag.Diagnostic) bool {
	code, _ := tsf.CodeOf(d)
	if tsf.Messages[code].Silent305A {
		return false
	}
	return d.Severity > diag.Warning || code < 200
}
