package main

import (
	"bufio"
	"fmt"
	"os"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/binfmt/tff"
	"github.com/tracekit/tracekit/cmd/internal/osfile"
	"github.com/tracekit/tracekit/cmd/internal/progress"
	"github.com/tracekit/tracekit/lower/dialect/buffer"
	"github.com/tracekit/tracekit/lower/dialect/lowering"
	"github.com/tracekit/tracekit/lower/formatter"
	"github.com/tracekit/tracekit/lower/record"
)

// formatCmd is "tracekit format FILE...", a modern TRACEFMT.
type formatCmd struct {
	diagFlags
	progressFlags
	TFFPath []string `name:"tff-path" sep:":" placeholder:"DIR:DIR" help:"Directories to find TRC00xx.TFF in, by the major code of each record, as TRACEFMT does; the current directory is looked in after them."`
	TFF     []string `name:"tff" placeholder:"FILE" completion-predictor:"tff" help:"TFF files to use (before --tff-path)."`
	Format  string   `name:"format" enum:"text,jsonl" default:"text" help:"text: one block per record; jsonl: normalized records with the formatted lines."`
	Files   []string `arg:"" name:"file" completion-predictor:"buffer" help:"STDA or TRACEFMT save files, told apart by content."`
}

// formats finds a record's format in the TFFs given and along the TFF
// path, loading each TFF once.
type formats struct {
	dirs []string
	// majors[major][minor] (the minor widened: a 32-bit key has a fast map
	// path); seen[major] once looked for, majors[major] nil when not found
	majors [256]map[uint32]*formatter.Format
	seen   [256]bool
	diags  *diag.List
}

func (f *formats) add(name string, t *tff.File) {
	if t.Major > 0xFF {
		d := diag.Diagnostic{Pos: ast.Pos{File: name}, Severity: diag.Warning, Code: formatter.CodeMajor,
			Msg: fmt.Sprintf("major 0x%04X does not fit the trace buffer's one-byte major: TFF not used", t.Major)}
		f.diags.Add(d)
		return
	}
	m := map[uint32]*formatter.Format{}
	for _, r := range t.Records {
		m[uint32(r.Minor)] = &formatter.Format{Desc: r.Desc, Fmts: r.Fmts}
	}
	f.majors[uint8(t.Major)] = m
	f.seen[uint8(t.Major)] = true
}

// Lookup implements formatter.Formats.
func (f *formats) Lookup(major uint8, minor uint16) (*formatter.Format, bool) {
	if !f.seen[major] {
		f.seen[major] = true
		name := fmt.Sprintf("TRC%04X.TFF", major)
		for _, dir := range f.dirs {
			p, ok := osfile.Find(dir, name)
			if !ok {
				continue
			}
			t, err := tff.Open(p)
			if err != nil {
				f.diags.Add(diag.Diagnostic{Pos: ast.Pos{File: p}, Severity: diag.Warning, Code: formatter.CodeTFF, Msg: err.Error()})
				continue
			}
			f.add(p, t)
			break
		}
	}
	m := f.majors[major]
	if m == nil {
		return nil, false
	}
	return m[uint32(minor)], true
}

// Run formats every record of every file. A record whose major has no TFF
// or whose minor is not in it is printed raw with a note; a buffer whose
// walk ends early keeps the records read, with a diagnostic; the status is
// 1 when a file could not be read at all.
func (c *formatCmd) Run(e *env) error {
	// Each buffer read is thrown away once formatted: the collector may
	// run less often (streamMemory).
	streamMemory(e)
	var diags diag.List
	// TRC00xx.TFF along --tff-path, then in the current directory.
	dirs := append(append([]string{}, c.TFFPath...), ".")
	fs := &formats{dirs: dirs, diags: &diags}
	for _, name := range c.TFF {
		t, err := tff.Open(name)
		if err != nil {
			return err
		}
		fs.add(name, t)
	}
	out := bufio.NewWriterSize(e.stdout, 64<<10)
	var fm formatter.Formatter
	var block []byte
	failed := false
	bar := progress.Start(e.stderr, inputSize(c.Files...), "format", c.Quiet)
	defer bar.Finish()
	for _, name := range c.Files {
		data, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		bar.Add(int64(len(data)))
		buf, base, ds := buffer.Read(name, data)
		diags = append(diags, ds...)
		if buf == nil {
			failed = true
			continue
		}
		dialectName := "stda"
		if base != 0 {
			dialectName = "tracefmt"
		}
		var w record.Writer
		if c.Format == "jsonl" {
			w = record.NewJSONL(out)
		}
		for i := range buf.Records {
			rec := &buf.Records[i]
			var res formatter.Result
			var ds diag.List
			if w == nil {
				// text: straight into a reused buffer, as WriteBlock would
				// write FormatRecord's result, 64 KiB of blocks at a time
				// (handed on by out without a copy)
				block, ds = fm.AppendBlock(block, i, rec, fs)
			} else {
				res = formatter.FormatRecord(rec, fs)
				ds = res.Diags
			}
			for _, d := range ds {
				d.Pos.File, d.Pos.Offset = name, d.Pos.Offset+int(base)
				d.Msg = fmt.Sprintf("offset 0x%X: record #%d (major %02X minor %04X): %s", base+rec.Offset, i, rec.Major, rec.Minor, d.Msg)
				diags.Add(d)
			}
			if w == nil {
				if len(block) >= 64<<10 {
					if _, err := out.Write(block); err != nil {
						return err
					}
					block = block[:0]
				}
				continue
			}
			r := buffer.Record(lowering.Config{Dialect: dialectName, Source: name}, buf, base, i)
			r.Seq = int64(i + 1)
			r.Attrs["formatted"] = res.Lines
			if res.Raw {
				r.Attrs["raw"] = true
			}
			if err := w.Write(r); err != nil {
				return err
			}
		}
		if w != nil {
			if err := w.Flush(); err != nil {
				return err
			}
		}
	}
	bar.Finish()
	if _, err := out.Write(block); err != nil {
		return err
	}
	if err := out.Flush(); err != nil {
		return err
	}
	if err := c.print(e, diags); err != nil {
		return err
	}
	if failed || diags.Failed() {
		return exitCode(exitError)
	}
	return nil
}
