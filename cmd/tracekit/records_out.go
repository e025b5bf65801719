package main

import (
	"errors"
	"io"

	"github.com/tracekit/tracekit/cmd/internal/outfile"
	"github.com/tracekit/tracekit/lower/record"
	"github.com/tracekit/tracekit/lower/record/parquetout"
)

// newWriter returns the record writer of --format over dest (standard
// output, or what -o collects) and, for parquet, which streams into its own
// file, that file: the caller commits it when the run succeeds and aborts
// it otherwise (Abort is safe on nil).
func (c *recordsCmd) newWriter(dest io.Writer) (record.Writer, *outfile.Stream, error) {
	if c.Format != "parquet" {
		w, err := record.NewWriter(c.Format, dest)
		return w, nil, err
	}
	if c.Output == "" {
		return nil, nil, errors.New("--format parquet needs -o FILE: a Parquet file ends with its index, it is not a stream")
	}
	f, err := outfile.Create(c.Output)
	if err != nil {
		return nil, nil, err
	}
	return parquetout.New(f), f, nil
}
