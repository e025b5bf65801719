package main

import (
	"io"
	"slices"
	"strings"

	"github.com/tracekit/tracekit/lower/record"
	"github.com/tracekit/tracekit/lower/record/parquetout"
)

// checkFormat says, before any file is made, whether --format is known
// and goes with -o.
func (c *recordsCmd) checkFormat() error {
	if c.Fields != "" {
		if _, err := record.ParseFields(c.Fields); err != nil {
			return usagef("--fields: %v", err)
		}
		if !slices.Contains(record.FieldFormats, c.Format) && c.Format != "parquet" {
			return usagef("--fields goes with --format %s, parquet, not %s", strings.Join(record.FieldFormats, ", "), c.Format)
		}
	}
	if c.Format == "parquet" {
		if c.Output == "" || c.Output == "-" {
			return usagef("--format parquet needs -o FILE: a Parquet file ends with its index, it is not a stream")
		}
		return nil
	}
	if _, err := record.NewWriter(c.Format, io.Discard); err != nil {
		return &usageError{err.Error()}
	}
	return nil
}

// newWriter returns the record writer of --format over dest (standard
// output, or the stream -o writes); checkFormat has accepted the format.
func (c *recordsCmd) newWriter(dest io.Writer) (record.Writer, error) {
	if c.Fields != "" {
		fields, err := record.ParseFields(c.Fields)
		if err != nil {
			return nil, err
		}
		if c.Format == "parquet" {
			return parquetout.NewFields(dest, fields)
		}
		return record.NewFieldsWriter(c.Format, dest, fields)
	}
	if c.Format == "parquet" {
		return parquetout.New(dest), nil
	}
	return record.NewWriter(c.Format, dest)
}
