// Package astdump prints syntax trees for people debugging a grammar
// (`tracekit ast`): the tree of a Trace Source File, or the nodes of a
// trace in any registered dialect line by line, each with its positions,
// through kr/pretty, and every diagnostic as a "// " comment line where it
// arises. It is the one dump path of every language tracekit parses.
package astdump

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/kr/pretty"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/grammar/tsfparse"
	"github.com/tracekit/tracekit/lower/dialect"
	"github.com/tracekit/tracekit/lower/dialect/lowering"
)

// TSF is the language name of Trace Source Files.
const TSF = "tsf"

// Dump parses r, named name, in lang (TSF, a trace dialect's name, or ""
// to tell the dialect from the content and name) and prints what it reads
// to w. It returns the diagnostics as an error when any is an error or
// worse, or the first read or write error.
func Dump(lang, name string, r io.Reader, w io.Writer) error {
	p := &printer{w: w}
	if lang == TSF {
		src, err := io.ReadAll(r)
		if err != nil {
			return err
		}
		f, diags := tsfparse.Parse(name, src)
		if err := p.print([]any{f}, diags); err != nil {
			return err
		}
		return p.all.Err()
	}
	br := bufio.NewReaderSize(r, 64<<10)
	var d dialect.Dialect
	if lang != "" {
		var ok bool
		if d, ok = dialect.Lookup(lang); !ok {
			return fmt.Errorf("unknown language %q (want %s or one of %v)", lang, TSF, dialect.Names())
		}
	} else {
		head, err := br.Peek(dialect.HeadSize)
		if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
			return err
		}
		if d, err = dialect.Detect(name, head); err != nil {
			return err
		}
	}
	if d.Binary != nil {
		return fmt.Errorf("%s is a binary dialect: it has no syntax tree (tracekit records shows its records)", d.Name)
	}
	lp := d.NewParser(name)
	_, end, err := lowering.Lines(context.Background(), br, name, 0,
		func(pos ast.Pos, text string) error { return p.print(lp.Line(pos, text)) },
		func(pos ast.Pos, n int64) error {
			return p.print(nil, diag.List{lowering.LongLine(pos, n, 0)})
		})
	if err != nil {
		return err
	}
	if err := p.print(lp.End(end)); err != nil {
		return err
	}
	return p.all.Err()
}

// printer writes diagnostics as comments, then nodes.
type printer struct {
	w   io.Writer
	all diag.List
}

func (p *printer) print(nodes []any, list diag.List) error {
	for _, d := range list {
		p.all.Add(d)
		if _, err := fmt.Fprintf(p.w, "// %s\n", d); err != nil {
			return err
		}
	}
	for _, n := range nodes {
		if _, err := pretty.Fprintf(p.w, "%# v\n", n); err != nil {
			return err
		}
	}
	return nil
}
