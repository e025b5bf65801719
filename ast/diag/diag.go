// Package diag holds positioned diagnostics: the messages a parser, checker
// or reader reports about its input, sorted by position and printed one per
// line ("FILE:LINE:COL: SEVERITY: TEXT [CODE]") or as JSON lines.
//
// It is modelled on go/scanner's ErrorList: producers append to a List,
// consumers sort it and print it.
package diag

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/tracekit/tracekit/ast"
)

// Severity orders diagnostics from the mildest to the worst.
type Severity int

// The severities, mildest first. Fatal and Severe stop processing; Error
// discards the construct it is about; Warning keeps it.
const (
	Warning Severity = iota + 1
	Error
	Severe
	Fatal
)

var severityNames = [...]string{Warning: "warning", Error: "error", Severe: "severe", Fatal: "fatal"}

// String returns the lower-case name used in text output.
func (s Severity) String() string {
	if s >= Warning && s <= Fatal {
		return severityNames[s]
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// MarshalText writes the lower-case name.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// LevelMin returns the mildest severity shown at message level w, the -W
// levels of every tracekit command: 0 shows fatal and severe, 1 adds
// errors, 2 adds warnings.
func LevelMin(w int) (Severity, error) {
	switch w {
	case 0:
		return Severe, nil
	case 1:
		return Error, nil
	case 2:
		return Warning, nil
	}
	return 0, fmt.Errorf("message level %d: want 0, 1 or 2", w)
}

// Code names a message: a prefix naming its producer and a number, as
// "TRC094" (the TSF compiler, ast/tsf.Code) or "LST001" (the strace
// dialect). Each producer declares its codes as constants of this type
// beside its syntax tree.
type Code string

// Diagnostic is one message about an input.
type Diagnostic struct {
	Pos      ast.Pos
	Severity Severity
	Code     Code   // "TRC094": a prefix naming the producer and a number
	Msg      string // the message text, in the wording of the reference
	Detail   string // optional: what tracekit adds to the reference wording
	// Extra is what the producer keeps beside the message for its own
	// consumers (as hcl's Diagnostic.Extra): ast/tsf keeps the line
	// TRCUST names (tsf.Legacy). Nil when there is none.
	Extra any
}

// Text returns the message with its detail, if any.
func (d Diagnostic) Text() string {
	if d.Detail == "" {
		return d.Msg
	}
	return d.Msg + " (" + d.Detail + ")"
}

// String formats d as "FILE:LINE:COL: SEVERITY: TEXT [CODE]"; a control
// byte in the text is written as \xNN (Printable), never raw.
func (d Diagnostic) String() string {
	return fmt.Sprintf("%s: %s: %s [%s]", d.Pos, d.Severity, Printable(d.Text()), d.Code)
}

// List is a list of diagnostics. The zero List is empty and ready to use.
type List []Diagnostic

// Add appends a diagnostic.
func (l *List) Add(d Diagnostic) { *l = append(*l, d) }

// Sort orders the list by file, then byte offset; diagnostics at the same
// place keep the order they were added in.
func (l List) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Offset < b.Offset
	})
}

// Worst returns the highest severity in the list, or 0 for an empty list.
func (l List) Worst() Severity {
	var w Severity
	for _, d := range l {
		if d.Severity > w {
			w = d.Severity
		}
	}
	return w
}

// Failed reports whether the list holds an error or worse.
func (l List) Failed() bool { return l.Worst() >= Error }

// Filter returns the diagnostics of severity min or worse.
func (l List) Filter(min Severity) List {
	var out List
	for _, d := range l {
		if d.Severity >= min {
			out = append(out, d)
		}
	}
	return out
}

// Err returns the list as an error, or nil when it holds no error or worse.
func (l List) Err() error {
	if !l.Failed() {
		return nil
	}
	return l
}

// Error implements error: the first error-or-worse diagnostic, and a count
// of the others.
func (l List) Error() string {
	n := 0
	var first *Diagnostic
	for i := range l {
		if l[i].Severity >= Error {
			if first == nil {
				first = &l[i]
			}
			n++
		}
	}
	switch {
	case first == nil:
		return "no errors"
	case n == 1:
		return first.String()
	}
	return fmt.Sprintf("%s (and %d more errors)", first, n-1)
}

// WriteText prints one diagnostic per line.
func (l List) WriteText(w io.Writer) error {
	for _, d := range l {
		if _, err := fmt.Fprintln(w, d); err != nil {
			return err
		}
	}
	return nil
}

// jsonDiagnostic is the JSON form of a Diagnostic: one object per line.
type jsonDiagnostic struct {
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Col      int      `json:"col"`
	Severity Severity `json:"severity"`
	Code     Code     `json:"code"`
	Message  string   `json:"message"`
}

// WriteJSON prints one JSON object per line with the fields file, line, col,
// severity, code and message.
func (l List) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, d := range l {
		j := jsonDiagnostic{d.Pos.File, d.Pos.Line, d.Pos.Col, d.Severity, d.Code, d.Text()}
		if err := enc.Encode(j); err != nil {
			return err
		}
	}
	return nil
}

// Quote returns s in double quotes as a person should read it in a
// message: printable text as it is, a quote or backslash escaped, and
// control bytes, DEL and bytes that are not UTF-8 as \xNN (never raw on a
// terminal); text past max bytes (0: no limit) is cut with "…".
func Quote(s string, max int) string {
	var b strings.Builder
	b.WriteByte('"')
	cut := false
	if max > 0 && len(s) > max {
		s, cut = s[:max], true
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	if cut {
		b.WriteString("…")
	}
	b.WriteByte('"')
	return b.String()
}

// Printable returns s with every control byte, DEL and byte that is not
// UTF-8 written as \xNN: what a message may print of text it did not
// quote.
func Printable(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c >= 0x80 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	q := Quote(s, 0)
	// Quote escapes quotes and backslashes too: undo those.
	q = strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(q[1 : len(q)-1])
	return q
}

// WriteSource writes the line a diagnostic is on, then a caret under its
// column (col is 1-based, counted in bytes of line), as compilers show
// them: the line's control bytes are written escaped, the caret placed
// under the escaped text.
func WriteSource(w io.Writer, line string, col int) error {
	if col < 1 {
		col = 1
	}
	if col > len(line)+1 {
		col = len(line) + 1
	}
	before := Printable(line[:col-1])
	_, err := fmt.Fprintf(w, "    %s\n    %s^\n", Printable(line), strings.Repeat(" ", utf8.RuneCountInString(before)))
	return err
}
