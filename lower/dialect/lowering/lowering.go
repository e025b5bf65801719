// Package lowering is the contract between the dialect registry
// (lower/dialect) and the dialects' lowerings (its sub-packages): what a
// dialect declares (Dialect), what a lowering is given (Config, Output) and
// what it offers (Lowerer, Parser). It also holds the line reader every
// line-oriented dialect is driven by (Lines).
//
// A lowering is fed one line at a time and keeps only what it must (an open
// PRF record, the open halves of Windows calls), so memory stays flat
// however large the input.
package lowering

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"strconv"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/lower/record"
)

// Config is what a lowering is told about one input.
type Config struct {
	Dialect string  // the dialect's registry name, for Record.Dialect
	Source  string  // the input's name, for Record.Source and positions
	NoPair  bool    // keep the halves of calls as they are (winstrace, strace)
	CPUHz   float64 // processor clock rate, 0 when not given (os2strace)
	// NoArgs says that no writer prints the records' arguments (a column
	// list without args): a lowering may leave Record.Args empty, still
	// checking and reporting what it would have made them of.
	NoArgs bool
	// NoAttrs says the same of the records' attrs (a column list without
	// attrs): a lowering may leave Record.Attrs empty, still reporting
	// what it would have put there.
	NoAttrs bool
}

// Output is where a lowering sends what it makes.
type Output interface {
	// Record passes a record on. A non-nil error (the writer failed, the
	// run was stopped) must end the lowering: return it from Line or End.
	// Record does not keep r or anything it points to after it returns, so
	// a lowering may reuse them for its next record.
	Record(r *record.Record) error
	// Diag reports a diagnostic. skipped is the number of source lines the
	// diagnostic drops (0 for a warning); every dropped line must be
	// counted by exactly one diagnostic, so that no line goes silently.
	Diag(d diag.Diagnostic, skipped int)
}

// Lowerer turns the lines of one input into records.
type Lowerer interface {
	// Line lowers one line (without its line break) that starts at pos.
	// Blank lines are never passed.
	Line(pos ast.Pos, text string) error
	// End is called once after the last line; pos is the end of the input.
	End(pos ast.Pos) error
}

// Parser turns the lines of one input into syntax-tree nodes, for AST
// dumps. Diagnostics with severity Error mean the line was skipped.
type Parser interface {
	Line(pos ast.Pos, text string) ([]any, diag.List)
	End(pos ast.Pos) ([]any, diag.List)
}

// Warn reports a warning with code at p through out: the line is kept.
func Warn(out Output, p ast.Pos, code diag.Code, msg string) {
	out.Diag(diag.Diagnostic{Pos: p, Severity: diag.Warning, Code: code, Msg: msg}, 0)
}

// Fail reports an error with code at p through out, counting the skipped
// lines it drops.
func Fail(out Output, p ast.Pos, code diag.Code, msg string, skipped int) {
	out.Diag(diag.Diagnostic{Pos: p, Severity: diag.Error, Code: code, Msg: msg}, skipped)
}

// PerLine returns the Parser of a dialect whose every line parses on its
// own into one node: parse is its grammar's line parser (a nil node means
// the line was skipped).
func PerLine[T any](parse func(pos ast.Pos, text string) (*T, diag.List)) Parser {
	return perLine[T](parse)
}

// perLine is the Parser PerLine returns.
type perLine[T any] func(pos ast.Pos, text string) (*T, diag.List)

func (p perLine[T]) Line(pos ast.Pos, text string) ([]any, diag.List) {
	n, d := p(pos, text)
	if n == nil {
		return nil, d
	}
	return []any{n}, d
}

func (perLine[T]) End(ast.Pos) ([]any, diag.List) { return nil, nil }

// Dialect is one entry of the registry.
type Dialect struct {
	Name        string   // registry name, as --dialect takes it
	Description string   // one line for "tracekit dialects"
	Patterns    []string // file-name patterns (path.Match on the base name, lower case) that suggest the dialect
	// Sniff reports whether the head of an input (its first bytes, at most
	// a few KiB, possibly cut in mid-line) looks like this dialect.
	Sniff func(head []byte) bool
	// NewLowerer returns a lowering for one input.
	NewLowerer func(cfg Config, out Output) Lowerer
	// NewParser returns a parser for one input, for AST dumps.
	NewParser func(source string) Parser
	// NewSettler, when set, lets the registry lower the dialect's lines on
	// several goroutines: each worker's lowering (NewLowerer) gets a
	// NotedOutput and lowers line-aligned chunks; the Settler it returns,
	// one per input, then sees every record in input order and sets what
	// depends on earlier lines. The output is the same as one lowering's.
	NewSettler func(cfg Config) Settler
	// NewJoiner, when set, lets the registry lower the dialect's lines on
	// several goroutines too: each worker's lowering gets a MarkedOutput
	// and lowers line-aligned chunks; the Joiner it returns, one per
	// input, then sees the chunks in input order and does what spans
	// lines (pairing the halves of calls). The output is the same as one
	// lowering's.
	NewJoiner func(cfg Config) Joiner
	// Binary, set for a binary dialect in place of NewLowerer and
	// NewParser, lowers a whole input at once. The registry reads at most
	// MaxBinary bytes of it.
	Binary func(cfg Config, data []byte, out Output) error
	// Generate, when set, writes about size bytes (never more) of valid
	// synthetic input of the dialect to w, the same bytes on every call:
	// "tracekit generate", the benchmarks and the tests that compare the
	// parallel path with one core use it. A dialect without one is tested
	// on its testdata only.
	Generate func(w io.Writer, size int64) error
}

// MaxBinary is the most a binary dialect's input may hold.
const MaxBinary = 1 << 20

// Report passes a parser's diagnostics on: errors drop the line, so the
// first error counts it as skipped and the others count nothing.
func Report(out Output, list diag.List) {
	skipped := false
	for _, d := range list {
		n := 0
		if d.Severity >= diag.Error && !skipped {
			n, skipped = 1, true
		}
		out.Diag(d, n)
	}
}

// FirstLines returns up to n non-blank lines from the head of an input,
// without their line breaks, for sniffers. A last line cut off by the end
// of head is left out unless it is the only one.
func FirstLines(head []byte, n int) [][]byte {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	var out [][]byte
	for len(head) > 0 && len(out) < n {
		i := bytes.IndexByte(head, '\n')
		var line []byte
		if i < 0 {
			if len(out) > 0 {
				break
			}
			line, head = head, nil
		} else {
			line, head = head[:i], head[i+1:]
		}
		line = bytes.TrimRight(line, "\r")
		if len(bytes.TrimSpace(line)) > 0 {
			out = append(out, line)
		}
	}
	return out
}

// CodeLongLine is the diagnostic code of a line longer than the limit.
const CodeLongLine diag.Code = "INP001"

// DefaultMaxLine is the longest line Lines passes on when no limit is given.
const DefaultMaxLine = 1 << 20

// LineStats counts what Lines read.
type LineStats struct {
	Lines int64 // lines read, blank ones included
	Blank int64 // blank lines (white space only), not passed on
	Bytes int64
}

// Lines reads r line by line and calls fn for every line that is not blank,
// with its position (file source, 1-based line, byte offset) and its text
// without the line break (LF or CRLF; a UTF-8 byte-order mark at the start
// is dropped). A line longer than maxLine bytes (0: DefaultMaxLine) is not
// passed on: long(pos, n) is called with its length instead. Memory stays
// bounded by maxLine. Lines stops at the first error from r, fn or ctx.
// end is the position just past the input.
func Lines(ctx context.Context, r io.Reader, source string, maxLine int, fn func(pos ast.Pos, text string) error, long func(pos ast.Pos, n int64) error) (st LineStats, end ast.Pos, err error) {
	return LineBytes(ctx, r, source, maxLine, func(pos ast.Pos, text []byte) error { return fn(pos, string(text)) }, long)
}

// LineBytes is Lines with each line's text given as bytes that are valid
// only during the call (no string is made of it).
func LineBytes(ctx context.Context, r io.Reader, source string, maxLine int, fn func(pos ast.Pos, text []byte) error, long func(pos ast.Pos, n int64) error) (st LineStats, end ast.Pos, err error) {
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	br, ok := r.(*bufio.Reader)
	if !ok || br.Size() < 64<<10 {
		br = bufio.NewReaderSize(r, 64<<10)
	}
	var (
		offset int64
		buf    []byte
		first  = true
	)
	for {
		if st.Lines&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return st, end, err
			}
		}
		buf = buf[:0]
		n := int64(0)
		tooLong := false
		var rerr error
		// line is the line read: the reader's own bytes when it held the
		// whole line (the common case, no copy), else buf.
		var line []byte
		if chunk, e := br.ReadSlice('\n'); e != bufio.ErrBufferFull {
			n, line, rerr = int64(len(chunk)), chunk, e
			tooLong = len(chunk) > maxLine+2
		} else {
			buf = append(buf, chunk...)
			n = int64(len(chunk))
			tooLong = len(buf) > maxLine+2
			if tooLong {
				buf = buf[:0]
			}
		}
		for line == nil && n > 0 {
			chunk, e := br.ReadSlice('\n')
			n += int64(len(chunk))
			if !tooLong {
				if len(buf)+len(chunk) > maxLine+2 {
					tooLong = true
					buf = buf[:0]
				} else {
					buf = append(buf, chunk...)
				}
			}
			if e == bufio.ErrBufferFull {
				continue
			}
			rerr = e
			line = buf
			break
		}
		if n == 0 {
			if rerr == io.EOF {
				rerr = nil
			}
			end = ast.Pos{File: source, Offset: int(offset), Line: int(st.Lines) + 1, Col: 1}
			return st, end, rerr
		}
		st.Lines++
		st.Bytes += n
		pos := ast.Pos{File: source, Offset: int(offset), Line: int(st.Lines), Col: 1}
		offset += n
		if tooLong {
			if long != nil {
				if err := long(pos, n); err != nil {
					return st, end, err
				}
			}
		} else {
			text := line
			if len(text) > 0 && text[len(text)-1] == '\n' {
				text = text[:len(text)-1]
				if len(text) > 0 && text[len(text)-1] == '\r' {
					text = text[:len(text)-1]
				}
			}
			if first && bytes.HasPrefix(text, []byte("\xef\xbb\xbf")) {
				text = text[3:]
				pos.Offset += 3
				pos.Col += 3
			}
			if len(text) > maxLine {
				if long != nil {
					if err := long(pos, int64(len(text))); err != nil {
						return st, end, err
					}
				}
			} else if isBlank(text) {
				st.Blank++
			} else if err := fn(pos, text); err != nil {
				return st, end, err
			}
		}
		first = false
		if rerr != nil {
			if rerr == io.EOF {
				rerr = nil
			}
			end = ast.Pos{File: source, Offset: int(offset), Line: int(st.Lines) + 1, Col: 1}
			return st, end, rerr
		}
	}
}

// IsBlank reports whether a line is blank (white space only): Lines does
// not pass it on.
func IsBlank(b []byte) bool { return isBlank(b) }

func isBlank(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\f', '\v':
		default:
			return false
		}
	}
	return true
}

// LongLine returns the diagnostic for a line longer than the limit.
func LongLine(pos ast.Pos, n int64, maxLine int) diag.Diagnostic {
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	return diag.Diagnostic{Pos: pos, Severity: diag.Error, Code: CodeLongLine,
		Msg: "line of " + strconv.FormatInt(n, 10) + " bytes is longer than the limit of " + strconv.Itoa(maxLine) + "; skipped"}
}
