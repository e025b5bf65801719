package main

import (
	"errors"
	"io"

	"github.com/tracekit/tracekit/cmd/internal/outfile"
	"github.com/tracekit/tracekit/lower/record"
	"github.com/tracekit/tracekit/lower/record/parquetout"
)

// newWriter returns the record writer of --format over dest (standard
// output, or what -o collects) and, for the formats that stream into their
// own file with -o (parquet, chrome: large, and memory bounded), that
// file: the caller commits it when the run succeeds and aborts it
// otherwise (Abort is safe on nil).
func (c *recordsCmd) newWriter(dest io.Writer) (record.Writer, *outfile.Stream, error) {
	streamed := c.Format == "parquet" || c.Format == "chrome"
	switch {
	case c.Format == "parquet" && c.Output == "":
		return nil, nil, errors.New("--format parquet needs -o FILE: a Parquet file ends with its index, it is not a stream")
	case !streamed || c.Output == "":
		w, err := record.NewWriter(c.Format, dest)
		return w, nil, err
	}
	f, err := outfile.Create(c.Output)
	if err != nil {
		return nil, nil, err
	}
	if c.Format == "parquet" {
		return parquetout.New(f), f, nil
	}
	w, err := record.NewWriter(c.Format, f)
	if err != nil {
		f.Abort()
		return nil, nil, err
	}
	return w, f, nil
}
