// Package buffer lowers the OS/2 system trace buffer (an STDA, as
// DosGetSTDA returns it) and the TRACEFMT save file of one to normalized
// records: the dialects "stda" and "tracefmt". They are binary: the
// registry hands the whole input (at most MaxInput bytes) to Lower.
//
// A record's "line" is its ordinal in the buffer, oldest first, as a
// binary file has no lines; attrs.offset holds its byte offset in the
// input. A buffer whose walk ends early (corrupt pointers, a length longer
// than the buffer) keeps the records read before, and the problem is a
// diagnostic naming the byte offset.
package buffer

import (
	"errors"
	"fmt"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/binfmt/stda"
	"github.com/tracekit/tracekit/binfmt/tracefmt"
	"github.com/tracekit/tracekit/lower/dialect/lowering"
	"github.com/tracekit/tracekit/lower/record"
)

// MaxInput is the largest input read: an STDA is at most 64 KiB, a save
// file that and its 26-byte header.
const MaxInput = stda.MaxSize + tracefmt.STDAOffset

// Diagnostic codes.
const (
	CodeHeader   diag.Code = "BUF001" // error: not an STDA or save file, or its header is broken; nothing is read
	CodeWalk     diag.Code = "BUF002" // warning: the walk ended before the end marker (corrupt or cut buffer); the records read are kept
	CodeCheckKey diag.Code = "BUF003" // warning: the save file's check key does not match its date and time
	CodeSaveFile diag.Code = "BUF004" // warning: another problem of the save-file header (length, trailing bytes)
)

// STDA is the dialect of a bare STDA.
func STDA() lowering.Dialect {
	return lowering.Dialect{
		Name:        "stda",
		Description: "OS/2 system trace buffer (STDA, from DosGetSTDA): binary, old and new formats",
		Patterns:    []string{"*.stda", "*.trc"},
		Sniff:       func(head []byte) bool { return tracefmt.Detect(head) == tracefmt.KindSTDA },
		Binary:      func(cfg lowering.Config, data []byte, out lowering.Output) error { return Lower(cfg, data, out) },
	}
}

// SaveFile is the dialect of a TRACEFMT save file.
func SaveFile() lowering.Dialect {
	return lowering.Dialect{
		Name:        "tracefmt",
		Description: "OS/2 TRACEFMT save file: date, check key, then an STDA (binary)",
		Patterns:    []string{"*.sav", "*.tfs"},
		Sniff:       func(head []byte) bool { return tracefmt.Detect(head) == tracefmt.KindSaveFile },
		Binary:      func(cfg lowering.Config, data []byte, out lowering.Output) error { return Lower(cfg, data, out) },
	}
}

// Read parses an STDA or a save file, whichever data is. It returns the
// buffer (nil when the header is unreadable), the byte offset of the STDA
// in data, and the problems found, as diagnostics.
func Read(source string, data []byte) (*stda.Buffer, int64, diag.List) {
	at := func(off int64, sev diag.Severity, code diag.Code, format string, args ...any) diag.Diagnostic {
		return diag.Diagnostic{Pos: ast.Pos{File: source}, Severity: sev, Code: code,
			Msg: fmt.Sprintf("offset 0x%X: ", off) + fmt.Sprintf(format, args...)}
	}
	var diags diag.List
	switch tracefmt.Detect(data) {
	case tracefmt.KindSTDA:
		buf, err := stda.Parse(data)
		var fe *stda.FormatError
		if errors.As(err, &fe) {
			sev, code := diag.Warning, CodeWalk
			if buf == nil {
				sev, code = diag.Error, CodeHeader
			}
			diags.Add(at(fe.Off, sev, code, "%s", fe.Msg))
		}
		return buf, 0, diags
	case tracefmt.KindSaveFile:
		f, err := tracefmt.Parse(data)
		for _, e := range unjoin(err) {
			var ck *tracefmt.CheckKeyError
			var fe *tracefmt.FormatError
			switch {
			case errors.As(e, &ck):
				diags.Add(at(ck.Off, diag.Warning, CodeCheckKey, "%s", ck.Error()))
			case errors.As(e, &fe) && f != nil && f.STDA != nil && fe.Err != nil:
				diags.Add(at(fe.Off, diag.Warning, CodeWalk, "%s", fe.Msg))
			case errors.As(e, &fe) && f != nil && f.STDA != nil:
				diags.Add(at(fe.Off, diag.Warning, CodeSaveFile, "%s", fe.Msg))
			case errors.As(e, &fe):
				diags.Add(at(fe.Off, diag.Error, CodeHeader, "%s", fe.Msg))
			default:
				diags.Add(at(0, diag.Error, CodeHeader, "%v", e))
			}
		}
		if f == nil {
			return nil, tracefmt.STDAOffset, diags
		}
		return f.STDA, tracefmt.STDAOffset, diags
	}
	diags.Add(at(0, diag.Error, CodeHeader, "neither an STDA (SYSTRACE at offset 0) nor a TRACEFMT save file (SYSTRACE at offset 0x%X)", tracefmt.STDAOffset))
	return nil, 0, diags
}

// unjoin splits an errors.Join error into its parts.
func unjoin(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// Lower turns an STDA or save file into records, oldest first.
func Lower(cfg lowering.Config, data []byte, out lowering.Output) error {
	buf, base, diags := Read(cfg.Source, data)
	for _, d := range diags {
		out.Diag(d, 0)
	}
	if buf == nil {
		return nil
	}
	for i := range buf.Records {
		if err := out.Record(Record(cfg, buf, base, i)); err != nil {
			return err
		}
	}
	return nil
}

// Record is the normalized record of buf.Records[i]; base is the offset of
// the STDA in its file.
func Record(cfg lowering.Config, buf *stda.Buffer, base int64, i int) *record.Record {
	r := &buf.Records[i]
	out := &record.Record{
		Dialect: cfg.Dialect,
		Source:  cfg.Source,
		Line:    i + 1,
		Event:   fmt.Sprintf("0x%02x/0x%04x", r.Major, r.Minor),
		Major:   record.Uint(uint64(r.Major)),
		Minor:   record.Uint(uint64(r.Minor)),
		PID:     record.Uint(uint64(r.PID)),
		Phase:   record.Instant,
		Attrs: record.Attrs{
			"offset": base + r.Offset,
			"flags":  fmt.Sprintf("0x%02x", r.Flags),
			"kind":   stda.FlagString(r.Flags),
		},
	}
	if r.HasTime() {
		out.Time = r.Time.String()
		if ns, ok := sinceTraceOn(buf, r.Time); ok {
			out.TSNs = record.Int(ns)
		}
	}
	if len(r.Data) > 0 {
		out.Data = []string{fmt.Sprintf("%x", r.Data)}
	}
	return out
}

// sinceTraceOn returns the nanoseconds from the trace-on time of a
// new-format buffer to a record's time of day (a record before the on time
// is taken to be on the next day). Old-format time stamps (seconds and
// hundredths only) give none.
func sinceTraceOn(buf *stda.Buffer, t stda.Timestamp) (int64, bool) {
	if buf.Format != stda.FormatNew || t.Len != 4 || buf.TraceOn.Year == 0 {
		return 0, false
	}
	const hundredth = int64(10_000_000)
	day := 24 * 3600 * 100 * hundredth
	on := ((int64(buf.TraceOn.Hour)*60+int64(buf.TraceOn.Minute))*60+int64(buf.TraceOn.Second))*100 + int64(buf.TraceOn.Hundredths)
	at := ((int64(t.Hours)*60+int64(t.Minutes))*60+int64(t.Seconds))*100 + int64(t.Hundredths)
	d := (at - on) * hundredth
	if d < 0 {
		d += day
	}
	return d, true
}
