package lowering

import (
	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/lower/record"
)

// Note is what a lowering run on several goroutines attaches to a record
// for its Settler: two numbers whose meaning is the dialect's own (os2strace:
// the time-stamp count and the CPU rate a start-up record gives).
type Note struct{ A, B uint64 }

// NotedOutput is the Output of a lowering run on several goroutines: it
// takes each record with its note. A lowering whose Output is one sends
// its records with RecordNote and leaves what depends on earlier lines
// (Dialect.NewSettler) undone.
type NotedOutput interface {
	Output
	RecordNote(r *record.Record, n Note) error
}

// Settler sees every record of one input in input order, with its note,
// and sets what depends on earlier lines: the record's TSNs, the one field
// it may set (and read), pointing it at ts, storage owned by the record,
// or leaving it nil. The pipeline may pass a record with nothing else set,
// when the writer encodes records before they are settled
// (record.Templater) and fills in the TSNs afterwards.
type Settler func(r *record.Record, n Note, ts *int64)

// ChunkDiag is a diagnostic of a chunk, with the number of records the
// chunk had before it and the lines it skips.
type ChunkDiag struct {
	Diag    diag.Diagnostic
	Skipped int
	Before  int
	Marks   int // the marks before it (MarkedOutput)
}

// Chunk collects what a lowering makes of a line-aligned chunk of input on
// one goroutine: copies of its records (the lowering may reuse its own),
// their notes and the diagnostics, in order. It is a NotedOutput. A record
// is copied with its top-level slices, its integer fields and the bytes of
// its top-level arguments; Attrs maps and nested arguments (Fields, In,
// Out) are kept as they are, so a lowering must not change them once
// passed on. It is a MarkedOutput too, for a lowering whose records a
// Joiner settles; its Attrs and Args then live until Reset.
type Chunk struct {
	Records []record.Record
	Notes   []Note
	Diags   []ChunkDiag
	TS      []int64 // storage for the records' TSNs, one a record
	Marks   []Mark  // the marks of a lowering for a Joiner, in order

	args  []record.Arg
	data  []string
	nums  []uint64
	ints  []int64
	bytes []byte

	attrs  []record.Attrs // maps for attrs (Attrs), the first nattrs in use
	nattrs int
	nested []record.Arg // nested arguments (Args)
	rets   []record.Arg // return values
}

// Reset empties the chunk, keeping its storage. Records taken before are
// no longer valid.
func (c *Chunk) Reset() {
	clear(c.Records) // drop references for the collector
	c.Records, c.Notes, c.Diags, c.TS = c.Records[:0], c.Notes[:0], c.Diags[:0], c.TS[:0]
	c.args, c.data, c.nums, c.ints, c.bytes = c.args[:0], c.data[:0], c.nums[:0], c.ints[:0], c.bytes[:0]
	clear(c.Marks)
	c.Marks = c.Marks[:0]
	for _, m := range c.attrs[:c.nattrs] {
		clear(m)
	}
	c.nattrs = 0
	// nested is not cleared here: Args clears what it hands out, so
	// clearing all of it again (as large as the chunk's nested arguments,
	// out of cache by now) would be paid twice; what it still points to
	// until overwritten is at most one chunk's, as with args.
	clear(c.rets)
	c.nested, c.rets = c.nested[:0], c.rets[:0]
}

// Record copies r into the chunk with a zero note.
func (c *Chunk) Record(r *record.Record) error { return c.RecordNote(r, Note{}) }

// RecordNote copies r into the chunk with its note.
func (c *Chunk) RecordNote(r *record.Record, n Note) error {
	// Copied once, into its place; then what it points to.
	c.Records = append(c.Records, *r)
	cp := &c.Records[len(c.Records)-1]
	if len(r.Args) > 0 {
		start := len(c.args)
		c.args = append(c.args, r.Args...)
		cp.Args = c.args[start:len(c.args):len(c.args)]
		for i := range cp.Args {
			if b := cp.Args[i].Bytes; b != nil {
				s := len(c.bytes)
				c.bytes = append(c.bytes, b...)
				cp.Args[i].Bytes = c.bytes[s:len(c.bytes):len(c.bytes)]
			}
		}
	}
	if len(r.Data) > 0 {
		start := len(c.data)
		c.data = append(c.data, r.Data...)
		cp.Data = c.data[start:len(c.data):len(c.data)]
	}
	cp.CPU, cp.PID, cp.TID, cp.Major, cp.Minor = c.num(r.CPU), c.num(r.PID), c.num(r.TID), c.num(r.Major), c.num(r.Minor)
	cp.TSNs, cp.DurNs = c.int(r.TSNs), c.int(r.DurNs)
	if r.Ret != nil {
		if len(c.rets) == cap(c.rets) {
			c.rets = make([]record.Arg, 0, max(256, 2*cap(c.rets)))
		}
		c.rets = append(c.rets, *r.Ret)
		cp.Ret = &c.rets[len(c.rets)-1]
	}
	c.Notes = append(c.Notes, n)
	c.TS = append(c.TS, 0)
	return nil
}

// num copies an optional integer into the chunk's storage. Pointers into
// storage that grows stay valid: the old array lives on while referenced.
func (c *Chunk) num(v *uint64) *uint64 {
	if v == nil {
		return nil
	}
	if len(c.nums) == cap(c.nums) {
		c.nums = make([]uint64, 0, max(256, 2*cap(c.nums)))
	}
	c.nums = append(c.nums, *v)
	return &c.nums[len(c.nums)-1]
}

func (c *Chunk) int(v *int64) *int64 {
	if v == nil {
		return nil
	}
	if len(c.ints) == cap(c.ints) {
		c.ints = make([]int64, 0, max(256, 2*cap(c.ints)))
	}
	c.ints = append(c.ints, *v)
	return &c.ints[len(c.ints)-1]
}

// Diag records a diagnostic in order with the records.
func (c *Chunk) Diag(d diag.Diagnostic, skipped int) {
	c.Diags = append(c.Diags, ChunkDiag{Diag: d, Skipped: skipped, Before: len(c.Records), Marks: len(c.Marks)})
}

// Staged is offered by a lowering whose parsing can run on a goroutine of
// its own, ahead of the lowering: Parse and ParseEnd touch only the
// parser's state, Lower and Finish only the lowering's, so the registry
// may call the first two on one goroutine and the others, in the same
// order, on another. Parse returns what Lower takes, diagnostics
// included; nothing it returns may be changed by a later Parse.
type Staged interface {
	Lowerer
	// Parse parses one line.
	Parse(pos ast.Pos, text string) any
	// ParseEnd parses the end of the input.
	ParseEnd(pos ast.Pos) any
	// Lower lowers what Parse returned for one line.
	Lower(parsed any) error
	// Finish lowers what ParseEnd returned and ends the lowering, as End
	// does.
	Finish(parsed any, pos ast.Pos) error
}

// BatchStaged is a Staged lowering whose Parse can keep what it makes in
// storage that belongs to the batch of lines at hand, so that parsing
// stops allocating once the storage has grown: the registry makes one
// Store for each batch it keeps (NewStore), passes it with each of the
// batch's lines (ParseIn, in place of Parse), and resets it once every
// line of the batch is lowered, before the batch holds other lines.
type BatchStaged interface {
	Staged
	// NewStore returns empty storage for the parses of one batch.
	NewStore() Store
	// ParseIn is Parse, keeping what it makes in s.
	ParseIn(s Store, pos ast.Pos, text string) any
}

// Store is the storage of one batch's parses (BatchStaged).
type Store interface {
	// Reset empties the storage for the next batch: what ParseIn made
	// in it before is no longer used.
	Reset()
}
