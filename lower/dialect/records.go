package dialect

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/lower/dialect/lowering"
	"github.com/tracekit/tracekit/lower/record"
)

// Diagnostic codes of the input layer (shared by all dialects).
const (
	CodeLongLine             = lowering.CodeLongLine // error: a line longer than Options.MaxLine; skipped
	CodeNoDialect  diag.Code = "INP002"              // error: the dialect of an input cannot be told; the input is skipped (KeepGoing)
	CodeRead       diag.Code = "INP003"              // error: an input cannot be opened or read; the rest of it is skipped (KeepGoing)
	CodeNotDialect diag.Code = "INP004"              // error: the first lines of an input all fail in its dialect; the rest of it is not read (KeepGoing)
)

// LeadingFailures is how many lines at the start of an input may fail,
// with no record made before them, before the input is taken for another
// dialect: one INP004 error then stands for them all, naming the dialects
// its content looks like, and the rest of the input is not read.
const LeadingFailures = 20

// HeadSize is how much of an input the sniffers see (Detect).
const HeadSize = 8 << 10

// Options are the settings of a Records run.
type Options struct {
	// Dialect names the dialect of every input; "" tells each input's
	// dialect from its content and name (Detect).
	Dialect string
	// NoPair keeps the start and end halves of calls as separate records
	// (winstrace, strace).
	NoPair bool
	// CPUHz is the processor clock rate in Hz for dialects that count
	// cycles (os2strace); 0 leaves it to the trace's own start-up record.
	// When given it wins over the start-up record.
	CPUHz float64
	// KeepGoing reports an input that cannot be opened, read or told
	// (codes INP002, INP003) and goes on with the next one; without it
	// such an input ends the run with an error.
	KeepGoing bool
	// Strict ends the run at the first error diagnostic (a skipped line),
	// with a *StrictError.
	Strict bool
	// MaxLine is the longest line in bytes; longer lines are skipped
	// (INP001). 0 means lowering.DefaultMaxLine (1 MiB).
	MaxLine int
	// Workers is how many goroutines run the stages of the pipeline
	// (pipeline.go): 0 means GOMAXPROCS, 1 every stage on the calling
	// goroutine. The output does not depend on it. Strict runs use one.
	Workers int

	// NoArgs says that the writer prints no arguments (a column list
	// without args), so that the lowerings need not make them
	// (lowering.Config.NoArgs). The rest of the output is the same.
	NoArgs bool
	// NoAttrs is NoArgs for the attrs (lowering.Config.NoAttrs).
	NoAttrs bool

	// Follow, when not nil, reads each named input as "tail -F" does: at
	// its end the run waits for it to grow (and reads it again from the
	// start when it is truncated or replaced) until Follow is closed, then
	// ends as at the end of a file. Records are written as the lines
	// arrive (live.go), as they are for a pipe or a terminal.
	Follow <-chan struct{}

	batchBytes int // input bytes a parallel batch holds; 0: batchBytes (tests make it small)
}

// Input is one trace to read.
type Input struct {
	// Name is the file name, or "-" for standard input. It is also the
	// source named in records and diagnostics.
	Name string
	// Reader, when set, is read instead of opening Name.
	Reader io.Reader
}

// InputSummary counts what one input gave.
type InputSummary struct {
	Name     string
	Dialect  string // "" when the input was not read
	Lines    int64  // lines read, blank ones included
	Blank    int64  // blank lines (ignored)
	Records  int64  // records written
	Skipped  int64  // lines skipped, each with an error diagnostic
	Warnings int64
	Errors   int64 // error diagnostics (or worse)
	Failed   bool  // the input could not be opened, read to its end or told (KeepGoing)
}

// Summary is what a Records run did.
type Summary struct {
	Inputs   []InputSummary
	Lines    int64
	Records  int64
	Skipped  int64 // lines skipped over all inputs
	Warnings int64
	Errors   int64
	Failed   int // inputs that failed (KeepGoing)
}

// Incomplete reports whether any line was skipped, any input failed or
// any error was reported (a damaged binary input): the CLI exits 1 then,
// unless told to keep going.
func (s Summary) Incomplete() bool { return s.Skipped > 0 || s.Failed > 0 || s.Errors > 0 }

// String is the summary line for the end of a run, e.g.
// "3 inputs, 120 lines, 117 records, 2 lines skipped, 1 warning, 1 input failed".
func (s Summary) String() string {
	plural := func(n int64, one string) string {
		if n == 1 {
			return "1 " + one
		}
		return strconv.FormatInt(n, 10) + " " + one + "s"
	}
	parts := []string{plural(int64(len(s.Inputs)), "input"), plural(s.Lines, "line"), plural(s.Records, "record"),
		plural(s.Skipped, "line") + " skipped", plural(s.Warnings, "warning")}
	if s.Failed > 0 {
		parts = append(parts, plural(int64(s.Failed), "input")+" failed")
	}
	return strings.Join(parts, ", ")
}

// RecordWriter is where Records writes: record.NewWriter makes one for a
// format name (jsonl, csv, text).
type RecordWriter = record.Writer

// StrictError ends a strict run: the first error diagnostic.
type StrictError struct {
	Diag diag.Diagnostic
}

// Error names the diagnostic the run stopped at.
func (e *StrictError) Error() string {
	return "stopped at the first error (strict): " + e.Diag.String()
}

// Records reads the inputs in order, lowers each in its dialect and writes
// the records to out one at a time, calling diags for every diagnostic (it
// may be nil). It flushes out before it returns. The error is nil when
// every input was read (lines may have been skipped: see
// Summary.Incomplete); otherwise it says why the run ended: an input could
// not be opened, read or told without KeepGoing, the writer failed, Strict
// met an error (*StrictError), or ctx was done.
func Records(ctx context.Context, opts Options, inputs []Input, out RecordWriter, diags func(diag.Diagnostic)) (Summary, error) {
	var sum Summary
	if diags == nil {
		diags = func(diag.Diagnostic) {}
	}
	var fixed *Dialect
	if opts.Dialect != "" {
		d, ok := Lookup(opts.Dialect)
		if !ok {
			return sum, fmt.Errorf("unknown dialect %q (want one of %v)", opts.Dialect, Names())
		}
		fixed = &d
	}
	var runErr error
	for _, in := range inputs {
		is, err := runInput(ctx, opts, fixed, in, out, diags)
		sum.Inputs = append(sum.Inputs, is)
		sum.Lines += is.Lines
		sum.Records += is.Records
		sum.Skipped += is.Skipped
		sum.Warnings += is.Warnings
		sum.Errors += is.Errors
		if is.Failed {
			sum.Failed++
		}
		if err != nil {
			runErr = err
			break
		}
	}
	if err := out.Flush(); err != nil && runErr == nil {
		runErr = err
	}
	return sum, runErr
}

// inputError is an input that could not be opened, read or told: it ends
// the run unless KeepGoing.
type inputError struct {
	code diag.Code
	err  error
}

func runInput(ctx context.Context, opts Options, fixed *Dialect, in Input, w record.Writer, diags func(diag.Diagnostic)) (is InputSummary, err error) {
	is = InputSummary{Name: in.Name}
	o := &output{w: w, diags: diags, strict: opts.Strict, sum: &is, source: in.Name, keepGoing: opts.KeepGoing}
	fail := func(ie inputError, pos ast.Pos) (InputSummary, error) {
		is.Failed = true
		if !pos.IsValid() {
			pos = ast.Pos{File: in.Name, Line: 1, Col: 1}
		}
		d := diag.Diagnostic{Pos: pos, Severity: diag.Error, Code: ie.code, Msg: ie.err.Error()}
		o.Diag(d, 0)
		if opts.KeepGoing && o.stop == nil {
			return is, nil
		}
		if o.stop != nil {
			return is, o.stop
		}
		// An error of the file system already names the input.
		if pe := (*fs.PathError)(nil); errors.As(ie.err, &pe) && pe.Path == in.Name {
			return is, ie.err
		}
		return is, fmt.Errorf("%s: %w", in.Name, ie.err)
	}
	r, closeFn, err := open(in, opts.Follow)
	if err != nil {
		return fail(inputError{CodeRead, err}, ast.Pos{})
	}
	defer closeFn()
	var (
		br   *bufio.Reader
		head []byte
		live *liveReader
	)
	if opts.Follow != nil || isLive(r) {
		// Records leave as the lines arrive (live.go).
		live = newLiveReader(ctx, r)
		var src io.Reader
		head, src, err = live.head()
		br = bufio.NewReaderSize(src, 64<<10)
	} else {
		br = bufio.NewReaderSize(r, 64<<10)
		head, err = br.Peek(HeadSize)
	}
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		if len(head) == 0 {
			return fail(inputError{CodeRead, err}, ast.Pos{})
		}
		// Lower what was read, then report the error where it struck.
		head = append([]byte(nil), head...)
		br = bufio.NewReaderSize(io.MultiReader(bytes.NewReader(head), failingReader{err}), 64<<10)
	}
	var d Dialect
	if fixed != nil {
		d = *fixed
	} else if d, err = Detect(in.Name, head); err != nil {
		return fail(inputError{CodeNoDialect, err}, ast.Pos{})
	}
	is.Dialect = d.Name
	cfg := lowering.Config{Dialect: d.Name, Source: in.Name, NoPair: opts.NoPair, CPUHz: opts.CPUHz, NoArgs: opts.NoArgs, NoAttrs: opts.NoAttrs}
	if d.Binary != nil {
		data, err := io.ReadAll(io.LimitReader(br, lowering.MaxBinary+1))
		if err != nil {
			return fail(inputError{CodeRead, err}, ast.Pos{})
		}
		if len(data) > lowering.MaxBinary {
			return fail(inputError{CodeRead, fmt.Errorf("larger than %d bytes, too large for a %s file", lowering.MaxBinary, d.Name)}, ast.Pos{})
		}
		if err := d.Binary(cfg, data, o); err != nil {
			return is, err
		}
		return is, o.stopped()
	}
	o.dialect, o.head = d.Name, append([]byte(nil), head...) // head is the reader's buffer
	// Held diagnostics of a short input are passed on at its end (is is
	// the result, so what release counts is returned).
	defer o.release()
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	st, end, readErr, err := runLines(ctx, opts, d, cfg, br, live, in.Name, o, workers)
	is.Lines, is.Blank = st.Lines, st.Blank
	if o.notDialect != nil {
		return notDialect(o)
	}
	if err != nil {
		return is, err
	}
	if readErr != nil {
		return fail(inputError{CodeRead, readErr}, end)
	}
	return is, nil
}

// notDialect ends an input whose first lines all failed: it failed, and
// ends the run unless KeepGoing.
func notDialect(o *output) (InputSummary, error) {
	o.sum.Failed = true
	// Lines are counted up to the line INP004 was reported at, however
	// far a parallel reader had read ahead; the lines before it that made
	// neither a record nor an error count as blank.
	o.sum.Lines = int64(o.abandonAt)
	o.sum.Blank = o.sum.Lines - o.sum.Skipped
	if o.keepGoing {
		return *o.sum, nil
	}
	return *o.sum, o.notDialect
}

// failingReader returns its error on every read.
type failingReader struct{ err error }

func (f failingReader) Read([]byte) (int, error) { return 0, f.err }

func open(in Input, follow <-chan struct{}) (io.Reader, func(), error) {
	switch {
	case in.Reader != nil:
		return in.Reader, func() {}, nil
	case in.Name == "-":
		return os.Stdin, func() {}, nil
	case follow != nil:
		fl, err := openFollow(in.Name, follow)
		if err != nil {
			return nil, nil, err
		}
		return fl, func() { fl.Close() }, nil
	}
	f, err := os.Open(in.Name)
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}

// output is the lowering.Output of one input: it numbers and writes
// records, counts and passes on diagnostics, and stops a strict run.
type output struct {
	w      record.Writer
	diags  func(diag.Diagnostic)
	strict bool
	sum    *InputSummary
	werr   error        // the writer failed
	stop   *StrictError // a strict run met an error

	keepGoing  bool
	source     string // the input's name
	dialect    string // its dialect
	head       []byte // its first bytes, to say what else it looks like
	leading    int    // lines skipped at its start, no record made yet
	leadingAt  diag.Diagnostic
	abandonAt  int              // the line of the LeadingFailures-th failure
	notDialect *NotDialectError // LeadingFailures lines failed at its start
	held       []heldDiag       // diagnostics of the leading failures, not yet passed on
}

// NotDialectError ends the reading of an input whose first
// LeadingFailures lines all failed in its dialect (INP004).
type NotDialectError struct {
	Diag diag.Diagnostic
}

// Error is the diagnostic's text.
func (e *NotDialectError) Error() string { return e.Diag.String() }

func (o *output) Record(r *record.Record) error {
	if err := o.stopped(); err != nil {
		return err
	}
	o.release()
	o.sum.Records++
	r.Seq = o.sum.Records
	if err := o.w.Write(r); err != nil {
		o.werr = err
		return err
	}
	return nil
}

func (o *output) Diag(d diag.Diagnostic, skipped int) {
	if o.notDialect != nil {
		// The input is being abandoned; INP004 stands for the rest.
		return
	}
	if skipped > 0 && d.Severity >= diag.Error && o.sum.Records == 0 && !o.strict && o.dialect != "" {
		if d.Code == CodeLongLine {
			// Says nothing of the dialect: held, not counted.
			o.held = append(o.held, heldDiag{d, skipped})
			return
		}
		if o.leading == 0 {
			o.leadingAt = d
		}
		o.leading += skipped
		if o.leading >= LeadingFailures {
			o.sum.Skipped += int64(skipped)
			o.abandonAt = d.Pos.Line + skipped - 1
			o.abandon()
			return
		}
		// Held back: printed only if a record comes (o.release).
		o.held = append(o.held, heldDiag{d, skipped})
		return
	}
	o.release()
	o.diag(d, skipped)
}

// heldDiag is a diagnostic of the first lines of an input, held back
// until it is known whether the input is of its dialect at all.
type heldDiag struct {
	d       diag.Diagnostic
	skipped int
}

// release passes the held diagnostics on: the input is of its dialect.
func (o *output) release() {
	held := o.held
	o.held = nil
	for _, h := range held {
		o.diag(h.d, h.skipped)
	}
}

// abandon replaces the held diagnostics with one INP004 error naming the
// dialects the input looks like, and stops the input.
func (o *output) abandon() {
	for _, h := range o.held {
		o.sum.Skipped += int64(h.skipped)
		o.sum.Errors++
	}
	o.held = nil
	msg := fmt.Sprintf("the first %d lines are not %s (the first fails with: %s)", o.leading, o.dialect, o.leadingAt.Msg)
	if like := lookAlikes(o.source, o.head, o.dialect); len(like) > 0 {
		msg += "; the content looks like " + strings.Join(like, " or ") + ": try --dialect " + like[0]
	} else {
		msg += "; the content looks like none of the dialects tracekit reads"
	}
	d := diag.Diagnostic{Pos: o.leadingAt.Pos, Severity: diag.Error, Code: CodeNotDialect, Msg: msg}
	o.sum.Errors++
	o.diags(d)
	o.notDialect = &NotDialectError{Diag: d}
}

// lookAlikes returns the dialects other than not whose sniffers accept
// head, the one a matching file name suggests first.
func lookAlikes(name string, head []byte, not string) []string {
	var first, rest []string
	for _, d := range registry() {
		if d.Name == not || d.Sniff == nil || !d.Sniff(head) {
			continue
		}
		if Matches(d, name) {
			first = append(first, d.Name)
		} else {
			rest = append(rest, d.Name)
		}
	}
	return append(first, rest...)
}

// diag counts a diagnostic and passes it on.
func (o *output) diag(d diag.Diagnostic, skipped int) {
	o.sum.Skipped += int64(skipped)
	if d.Severity >= diag.Error {
		o.sum.Errors++
		if o.strict && o.stop == nil {
			o.stop = &StrictError{Diag: d}
		}
	} else {
		o.sum.Warnings++
	}
	o.diags(d)
}

func (o *output) stopped() error {
	if o.stop != nil {
		return o.stop
	}
	if o.notDialect != nil {
		return o.notDialect
	}
	return nil
}
