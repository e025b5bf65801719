// Package parquetout writes normalized trace records (lower/record) as an
// Apache Parquet file, for DuckDB, Spark and the other column stores. It is
// the one package that depends on parquet-go.
//
// Every record field is a typed column (docs/records.md lists them); args,
// ret and attrs are JSON text in string columns (parquet-go v0.32 loses the
// values of optional columns of the JSON logical type), data is a list of
// strings. Rows are written in row groups of RowGroupRows as they come, so
// memory stays bounded however long the trace; pages are snappy-compressed
// (zstd makes files a third smaller, but its encoders alone take some 50 MB).
package parquetout

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/snappy"

	"github.com/tracekit/tracekit/lower/record"
)

// RowGroupRows is the number of rows in each row group but the last: a row
// group is held in memory until it is written. 8 Ki rows, with pages of
// PageSize, keep a run under 64 MiB of resident memory on the largest
// records (winstrace's, with their arguments).
const RowGroupRows = 8 << 10

// PageSize is the size of the page buffers, one a column.
const PageSize = 64 << 10

// Row is one record as a Parquet row: the columns, in order, with their
// Parquet names and types.
type Row struct {
	Dialect  string   `parquet:"dialect,dict"`
	Source   string   `parquet:"source,dict"`
	Line     int64    `parquet:"line"`
	Seq      int64    `parquet:"seq"`
	Time     *string  `parquet:"time,optional"`
	TSNs     *int64   `parquet:"ts_ns,optional"`
	TS       *int64   `parquet:"ts,optional,timestamp(microsecond)"`
	CPU      *uint64  `parquet:"cpu,optional"`
	PID      *uint64  `parquet:"pid,optional"`
	TID      *uint64  `parquet:"tid,optional"`
	Process  *string  `parquet:"process,optional,dict"`
	Event    string   `parquet:"event,dict"`
	Major    *uint64  `parquet:"major,optional"`
	Minor    *uint64  `parquet:"minor,optional"`
	Phase    string   `parquet:"phase,dict"`
	Unpaired bool     `parquet:"unpaired"`
	DurNs    *int64   `parquet:"dur_ns,optional"`
	Errno    *string  `parquet:"errno,optional,dict"`
	Args     []byte   `parquet:"args,optional,string"`
	Ret      []byte   `parquet:"ret,optional,string"`
	Status   *string  `parquet:"status,optional,dict"`
	Data     []string `parquet:"data,optional,list"`
	Attrs    []byte   `parquet:"attrs,optional,string"`
}

// Writer writes records as the rows of one Parquet file. It implements
// record.Writer: Flush ends the file (the footer) the first time it is
// called; nothing may be written after. Each record is handed to
// parquet-go, which copies it into its column buffers, before Write
// returns: nothing of a record is kept.
type Writer struct {
	pw     *parquet.GenericWriter[Row]
	row    [1]Row
	json   []byte // the JSON columns of the row being written
	closed bool

	// A writer of some columns (NewFields) writes rows of a struct type
	// made of those fields of Row, in the order asked.
	some *parquet.GenericWriter[any]
	pick []int         // the field of Row of each of its fields
	dst  reflect.Value // the row being written, reused
	ptr  []any         // a pointer to it, as parquet-go takes it
	need need
}

// need says which JSON columns a writer writes.
type need struct{ args, ret, attrs bool }

// all is every column.
var all = need{true, true, true}

// writerOptions are the options of every file this package writes.
func writerOptions() []parquet.WriterOption {
	return []parquet.WriterOption{
		parquet.Compression(&snappy.Codec{}),
		parquet.MaxRowsPerRowGroup(RowGroupRows),
		parquet.PageBufferSize(PageSize),
		parquet.CreatedBy("tracekit", "", ""),
		parquet.KeyValueMetadata("tracekit.columns", "docs/records.md, Parquet"),
	}
}

// New returns a writer of a Parquet file to w. The file is complete only
// once Flush returned nil; a caller writing to a file should write to a
// temporary one and rename it then.
func New(w io.Writer) *Writer {
	return &Writer{pw: parquet.NewGenericWriter[Row](w, writerOptions()...), need: all}
}

// NewFields returns a writer of a Parquet file to w with only the named
// columns (record.ParseFields's names, which are Row's column names), in
// their order, typed as in the full file. The JSON of args, ret and attrs
// is made only when its column is asked for.
func NewFields(w io.Writer, fields []string) (*Writer, error) {
	rt := reflect.TypeFor[Row]()
	byName := map[string]int{}
	for i := range rt.NumField() {
		name, _, _ := strings.Cut(rt.Field(i).Tag.Get("parquet"), ",")
		byName[name] = i
	}
	out := &Writer{}
	var sf []reflect.StructField
	for _, f := range fields {
		i, ok := byName[f]
		if !ok || slices.Contains(out.pick, i) {
			return nil, fmt.Errorf("parquet: no column %q, or named twice", f)
		}
		out.pick = append(out.pick, i)
		sf = append(sf, rt.Field(i))
		switch f {
		case "args":
			out.need.args = true
		case "ret":
			out.need.ret = true
		case "attrs":
			out.need.attrs = true
		}
	}
	if len(sf) == 0 {
		return nil, errors.New("parquet: no columns")
	}
	out.dst = reflect.New(reflect.StructOf(sf)).Elem()
	out.ptr = []any{out.dst.Addr().Interface()}
	opts := append(writerOptions(), parquet.SchemaOf(out.ptr[0]))
	out.some = parquet.NewGenericWriter[any](w, opts...)
	return out, nil
}

// Write adds the record as a row.
func (w *Writer) Write(r *record.Record) error {
	if w.closed {
		return errors.New("parquet: write after the file was ended")
	}
	var err error
	w.row[0], w.json, err = fromRecord(r, w.json[:0], w.need)
	if err != nil {
		return err
	}
	if w.some != nil {
		src := reflect.ValueOf(&w.row[0]).Elem()
		for i, f := range w.pick {
			w.dst.Field(i).Set(src.Field(f))
		}
		_, err = w.some.Write(w.ptr)
		w.dst.SetZero() // nothing of the record is kept
	} else {
		_, err = w.pw.Write(w.row[:])
	}
	w.row[0] = Row{}
	return err
}

// Flush writes the file's footer, the first time it is called; later
// calls do nothing.
func (w *Writer) Flush() error {
	if w.closed {
		return nil
	}
	w.closed = true
	if w.some != nil {
		return w.some.Close()
	}
	return w.pw.Close()
}

// FromRecord returns the row of a record. The JSON columns (args, ret,
// attrs) are appended to buf, which is returned, and point into it: the
// row is valid while buf is not written again.
func FromRecord(r *record.Record, buf []byte) (Row, []byte, error) {
	return fromRecord(r, buf, all)
}

// fromRecord is FromRecord making only the JSON columns of need.
func fromRecord(r *record.Record, buf []byte, need need) (Row, []byte, error) {
	row := Row{
		Dialect: r.Dialect, Source: r.Source, Line: int64(r.Line), Seq: r.Seq,
		Time: optString(r.Time), TSNs: r.TSNs, CPU: r.CPU, PID: r.PID, TID: r.TID,
		Process: optString(r.Process), Event: r.Event, Major: r.Major, Minor: r.Minor,
		Phase: string(r.Phase), Unpaired: r.Unpaired, DurNs: r.DurNs, Errno: optString(r.Errno),
		Status: optString(string(r.Status)),
	}
	if len(r.Data) > 0 {
		row.Data = r.Data
	}
	if r.TSNs != nil {
		us := *r.TSNs / 1000
		if *r.TSNs%1000 < 0 {
			us-- // round down, as a time stamp is cut
		}
		row.TS = &us
	}
	// Each column is appended whole before it is sliced: a later append
	// that moves buf leaves the earlier slices on the old array, intact.
	if len(r.Args) > 0 && need.args {
		start := len(buf)
		buf = record.AppendArgsJSON(buf, r.Args)
		row.Args = buf[start:len(buf):len(buf)]
	}
	if r.Ret != nil && need.ret {
		b, err := r.Ret.MarshalJSON()
		if err != nil {
			return row, buf, err
		}
		row.Ret = b
	}
	if len(r.Attrs) > 0 && need.attrs {
		start := len(buf)
		if r.AttrsJSON != nil {
			buf = append(buf, r.AttrsJSON...)
		} else {
			var err error
			if buf, err = record.AppendAttrsJSON(buf, r.Attrs); err != nil {
				return row, buf, err
			}
		}
		row.Attrs = buf[start:len(buf):len(buf)]
	}
	return row, buf, nil
}

func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
