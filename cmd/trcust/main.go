// Command trcust is tracekit's TSF compiler behind IBM TRCUST's own command
// line, for makefiles and habits that expect it:
//
//	TRCUST tsf [tdf] [/M=mapfile] [/L=loadmod] [/P] [/D] [/I] [/Wn]
//	       [/NODE] [/NOLN] [/RMn] [/RSnnn] [/RP]
//	TRCUST tffsource /C=tffdest [/Wn]
//
// Without arguments it prints TRCUST's usage. Switches may be given in any
// case, with / or -. It prints what TRCUST 3.05A printed:
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
	"github.com/tracekit/tracekit/lower/x86ret"
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
	loadMod     string // /L=: the module to read instead of MODNAME's
	combine     string
	keepPath    bool // /P
	dups        bool // /D
	caseless    bool // /I
	level       int  // /Wn
	retep       *x86ret.Search
	stop        bool // a fatal error in the command line
	combineMode bool
}

// usage is what TRCUST 3.05A prints after its banner when it is run without
// arguments, its spelling kept.
const usage = "\r\n" +
	"Usage1:  Trcust filename1 filename2 /M=mapfile /W{0|1|2} /D +\r\n" +
	"                /L=loadmod /NODE /NOLN /RM{0-7} /RSnnn /RP /I /P\r\n" +
	"\r\n" +
	"\tfilename1  is Trace Source File\r\n" +
	"\tfilename2  is Trace Defintion File  \t(Optional)\r\n" +
	"\t/M=mapfile is map filename to use   \t(Optional)\r\n" +
	"\t/W{0|1|2}  is warning level to use  \t(Optional)\r\n" +
	"\t/D         allows duplicate minors  \t(Optional)\r\n" +
	"\t/L=loadmod is file name of load module \t(Optional)\r\n" +
	"\t/NODE      ignore debug information \t(Optional)\r\n" +
	"\t/NOLN      ignore line numbers      \t(Optional)\r\n" +
	"\t/RM{0-7}   RETEP match criteria\t\t(Optional)\r\n" +
	"\t/RSnnn     RETEP search range \t\t(Optional)\r\n" +
	"\t/RP        RETEP Pascal returns allowed\t(Optional)\r\n" +
	"\t/I         Case insensitive map symbols (Optional)\r\n" +
	"\t/P         Retain MODNAME Path Info \t(Optional)\r\n" +
	"\r\n" +
	"Usage2:  Trcust filename1 /C=dest_tff /W{0|1|2}\r\n" +
	"\r\n" +
	"\tfilename1  is Trace Combine File containing TFF filenames\r\n" +
	"\tdest_tff   is destination TFF name for combined records\r\n" +
	"\t/W{0|1|2}  is warning level to use  \t(Optional)\r\n" +
	"\r\n"

// parseArgs reads the command line as TRCUST 3.05A does (IBM's behaviour,
// each form tried with its binary): a switch starts with / or -, and is
// upper-cased, also in the message that refuses it; the last of a repeated
// switch counts and a repeat is no error. The first two other arguments are
// the TSF and the TDF; a further one is refused as an invalid parameter, as
// is an unknown switch, a switch with something after it (/PX, /W01, /NODEX;
// only /RP takes anything after it) and /M=, /L= or /C= with nothing after
// the =. Each refused argument is error 'invalid parameter', in order,
// before anything else is printed; /D with /C= is error 106, for each /D
// after /C= where it is read, and once at the end for /D before /C=.
//
// /C= makes the run a combine with the one file before or after it as the
// list: a second file after /C= is refused, and so is /C= after two files
// (the run then compiles). After /C=, /I and /L= are error 106 too, and /M=
// names the destination (TRCUST keeps the two names in one place).
func parseArgs(c *console, args []string) options {
	o := options{level: 2}
	search := x86ret.DefaultSearch
	searchSet, dBeforeC := false, false
	// TRCUST prints a message about the command line as it reads the
	// argument, at the message level of the /Wn read so far (IBM's
	// behaviour: "/X /W0" says /X is invalid, "/W0 /X" does not).
	say := func(code tsf.Code, args ...any) {
		c.min, _ = diag.LevelMin(min(o.level, 2))
		c.code(1, code, args...)
	}
	for _, a := range args {
		if !strings.HasPrefix(a, "/") && !strings.HasPrefix(a, "-") {
			// After /C= the list is the one file (IBM's behaviour:
			// "list /C=out.tff a.tsf" refuses a.tsf as it reads it).
			if len(o.files) == 2 || o.combineMode && len(o.files) == 1 {
				say(tsf.ErrParameter, a)
				continue
			}
			if len(a) > maxName {
				c.code(1, tsf.FatalNameTooLong, a)
				o.stop = true
				return o
			}
			o.files = append(o.files, a)
			continue
		}
		up := strings.ToUpper(a)
		sw := up[1:]
		if (strings.HasPrefix(sw, "M=") || strings.HasPrefix(sw, "C=")) && len(sw) > 2+maxName {
			c.code(1, tsf.FatalNameTooLong, up[3:])
			o.stop = true
			return o
		}
		switch {
		case len(sw) > 2 && strings.HasPrefix(sw, "M="):
			// IBM's behaviour: after /C=, /M= names the destination
			// instead ("list /C=out.tff /M=x.map" writes X.MAP).
			if o.combineMode {
				o.combine = a[3:]
				break
			}
			o.mapFile = a[3:]
		case len(sw) > 2 && strings.HasPrefix(sw, "C="):
			// IBM's behaviour: /C= after a TSF and a TDF is refused,
			// and the run compiles ("a.tsf x.tdf /C=o.tff").
			if len(o.files) == 2 {
				say(tsf.ErrParameter, up)
				break
			}
			o.combine, o.combineMode = a[3:], true
		case len(sw) > 2 && strings.HasPrefix(sw, "L="):
			if o.combineMode {
				say(tsf.ErrDWithC) // IBM's behaviour: as /D after /C=
			}
			o.loadMod = a[3:]
		case sw == "P":
			o.keepPath = true
		case sw == "D":
			if o.combineMode {
				say(tsf.ErrDWithC) // each /D after /C=
			} else {
				dBeforeC = true
			}
			o.dups = true
		case sw == "I":
			if o.combineMode {
				say(tsf.ErrDWithC) // IBM's behaviour: as /D after /C=
			}
			o.caseless = true
		case sw == "NODE", sw == "NOLN":
			// TRCUST reads no debug information from a module, with or
			// without these (a TP=@file,line is message 91 either way).
		case strings.HasPrefix(sw, "W"):
			if len(sw) == 2 && sw[1] >= '0' && sw[1] <= '2' {
				o.level = int(sw[1] - '0')
				break
			}
			// IBM's behaviour: a malformed /W is refused at the level read
			// so far, or at its own digit when that is above 2 (/W3 is
			// said after /W0, /W31, /W01 and /Wx are not), and the level is then
			// the default again.
			if len(sw) == 2 && sw[1] > '2' && sw[1] <= '9' {
				o.level = int(sw[1] - '0')
			}
			say(tsf.ErrParameter, up)
			o.level = 2
		case len(sw) == 3 && strings.HasPrefix(sw, "RM") && sw[2] >= '0' && sw[2] <= '7':
			search.Match, searchSet = int(sw[2]-'0'), true
		case strings.HasPrefix(sw, "RS"):
			n, whole, ok := searchRange(sw[2:])
			if whole {
				// IBM's behaviour: a whole number is kept even when it
				// is refused, as a window of 256 bytes (/RS300: no
				// return point for .malloc,RETEP, as with /RS200).
				search.Range, searchSet = n, true
			}
			if !ok {
				say(tsf.ErrParameter, up)
			}
		case strings.HasPrefix(sw, "RP"):
			search.Pascal, searchSet = true, true
		default:
			say(tsf.ErrParameter, up)
		}
	}
	if searchSet {
		o.retep = &search
	}
	if dBeforeC && o.combineMode {
		// Once for any /D before /C=, at the level of the whole line
		// ("/D /C=x /D /W0" says it once, for the /D after /C=).
		say(tsf.ErrDWithC)
	}
	c.min, _ = diag.LevelMin(o.level)
	return o
}

// searchRange reads the number of /RSnnn as TRCUST 3.05A does (IBM's
// behaviour): nothing is 0; else it must start with a digit and be a whole
// number, decimal or 0x hex (a leading 0 is no octal: /RS010 and /RS011
// find the return point that needs a window of 10, /RS9 and /RS09 do not),
// below 2^31 (/RS4294967296 is refused and leaves the range as it was).
// It is valid (ok) when its low 16 bits are 0-256 (/RS65792 is /RS256);
// a whole number that is not still sets the range n, to its low 16 bits
// but at most 256: TRCUST's window holds 256 bytes (/RS345 and /RS65535
// do not find the LEAVE 344 bytes before the end of .emit+0x180, RETEP
// that a 345-byte window would hold; /RS65536 is /RS0).
func searchRange(s string) (n int, whole, ok bool) {
	if s == "" {
		return 0, true, true
	}
	if s[0] < '0' || s[0] > '9' {
		return 0, false, false
	}
	base, digits := 10, s
	if len(s) > 1 && s[0] == '0' && (s[1] == 'X' || s[1] == 'x') {
		base, digits = 16, s[2:]
	}
	var v int64
	for _, r := range digits {
		// "0x" alone is 0 (/RS0X is taken).
		d := strings.IndexRune("0123456789ABCDEF", r)
		if d < 0 || d >= base {
			return 0, false, false
		}
		if v = v*int64(base) + int64(d); v >= 1<<31 {
			return 0, false, false
		}
	}
	low := int(uint16(v))
	return min(low, maxSearchRange), true, low <= maxSearchRange
}

// maxName is the longest file name TRCUST takes on its command line, for
// the TSF, the TDF, the combine list, /M= and /C= (IBM's behaviour: a
// longer one is fatal 16, "filename to long", where it is read, the /M= or
// /C= name upper-cased; /L= is not checked).
const maxName = 256

// maxSearchRange is the largest /RSnnn, and the size of TRCUST's window.
const maxSearchRange = 256

// run runs the command line and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	c := &console{out: stdout, err: stderr, min: diag.Warning}
	fmt.Fprintf(stdout, "\r\nTrcust Version %s\r\n", Version)
	if len(args) == 0 {
		// IBM's behaviour: without arguments TRCUST 3.05A prints its usage
		// and exits 0; it has no help switch (/? is an invalid parameter).
		fmt.Fprint(stdout, usage)
		return 0
	}
	o := parseArgs(c, args)
	switch {
	case o.stop:
	case o.combineMode:
		combine(c, o)
	default:
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
		local := localPath(name)
		if st, err := os.Stat(local); err == nil && !st.IsDir() {
			return local, name, true
		}
		// As on OS/2, the file's name in any case.
		dir, base := filepath.Split(local)
		if dir == "" {
			dir = "."
		}
		p, ok := osfile.Find(dir, base)
		return p, name, ok
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
		return out[i].Pos.File == out[j].Pos.File && tsf.FoundAt(out[i]) < tsf.FoundAt(out[j])
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
