package main

import (
	"errors"
	"io"

	"github.com/tracekit/tracekit/lower/record"
	"github.com/tracekit/tracekit/lower/record/parquetout"
)

// errParquetNeedsFile: a Parquet file ends with its index, it is no
// stream for standard output.
var errParquetNeedsFile = errors.New("--format parquet needs -o FILE: a Parquet file ends with its index, it is not a stream")

// checkFormat says, before any file is made, whether --format is known
// and goes with -o.
func (c *recordsCmd) checkFormat() error {
	if c.Format == "parquet" {
		if c.Output == "" {
			return errParquetNeedsFile
		}
		return nil
	}
	_, err := record.NewWriter(c.Format, io.Discard)
	return err
}

// newWriter returns the record writer of --format over dest (standard
// output, or the stream -o writes); checkFormat has accepted the format.
func (c *recordsCmd) newWriter(dest io.Writer) (record.Writer, error) {
	if c.Format == "parquet" {
		return parquetout.New(dest), nil
	}
	return record.NewWriter(c.Format, dest)
}
