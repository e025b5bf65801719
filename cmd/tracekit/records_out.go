package main

import (
	"errors"
	"io"

	"github.com/tracekit/tracekit/lower/record"
	"github.com/tracekit/tracekit/lower/record/parquetout"
)

// newWriter returns the record writer of --format over dest (standard
// output, or the stream -o writes). Parquet needs -o: a Parquet file ends
// with its index, it is no stream for standard output.
func (c *recordsCmd) newWriter(dest io.Writer) (record.Writer, error) {
	if c.Format == "parquet" {
		if c.Output == "" {
			return nil, errors.New("--format parquet needs -o FILE: a Parquet file ends with its index, it is not a stream")
		}
		return parquetout.New(dest), nil
	}
	return record.NewWriter(c.Format, dest)
}
