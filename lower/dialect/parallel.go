package dialect

import (
	"bufio"
	"bytes"
	"context"
	"sync"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/lower/dialect/lowering"
	"github.com/tracekit/tracekit/lower/record"
)

// batchBytes is about how much input one batch of lines holds.
const batchBytes = 64 << 10

// joinBatchBytes is batchBytes for a dialect with a Joiner, whose records
// hold more (arguments, attrs) for each byte of input.
const joinBatchBytes = 32 << 10

// lineItem is one line of a batch, or a line too long to pass on (long > 0):
// its text is raw[start:end] of the batch.
type lineItem struct {
	pos        ast.Pos
	start, end int
	long       int64
}

// batch is a line-aligned chunk of one input on its way through the
// parallel path: read, lowered by a worker, settled in order, encoded by
// the worker, written in order.
type batch struct {
	seq   int64 // its place in the input
	idle  bool  // sent because a live input paused after it
	items []lineItem
	raw   []byte // the lines' bytes, one after the other
	text  string // raw as one string (one allocation a batch), the lines' texts slices of it
	chunk lowering.Chunk
	out   []*record.Record // the records a Joiner passed on, to write
	buf   bytes.Buffer     // the encoded records, when the writer has Parts
	done  chan struct{}    // lowered, settled and encoded
}

// notedChunk is the NotedOutput of a worker's lowering: the chunk of the
// batch at hand.
type notedChunk struct{ c *lowering.Chunk }

func (n *notedChunk) Record(r *record.Record) error { return n.c.Record(r) }
func (n *notedChunk) RecordNote(r *record.Record, note lowering.Note) error {
	return n.c.RecordNote(r, note)
}
func (n *notedChunk) Diag(d diag.Diagnostic, skipped int) { n.c.Diag(d, skipped) }
func (n *notedChunk) RecordMark(r *record.Record, m lowering.Mark) error {
	return n.c.RecordMark(r, m)
}
func (n *notedChunk) Mark(m lowering.Mark)        { n.c.Mark(m) }
func (n *notedChunk) Attrs() record.Attrs         { return n.c.Attrs() }
func (n *notedChunk) Args(count int) []record.Arg { return n.c.Args(count) }

// write passes the records of a settled batch to w, in order, until it
// fails.
func (b *batch) write(joined bool, w record.Writer) error {
	if joined {
		for _, r := range b.out {
			if err := w.Write(r); err != nil {
				return err
			}
		}
		return nil
	}
	for i := range b.chunk.Records {
		if err := w.Write(&b.chunk.Records[i]); err != nil {
			return err
		}
	}
	return nil
}

// joinOutput takes what a Joiner passes on for a batch: it numbers the
// records and keeps them (not copies: the Joiner keeps them unchanged until
// the batch's chunk is reset) in the batch, and passes diagnostics on.
type joinOutput struct {
	b *batch
	o *output
}

func (j *joinOutput) Record(r *record.Record) error {
	if j.o.notDialect != nil {
		return j.o.notDialect
	}
	j.o.release()
	j.o.sum.Records++
	r.Seq = j.o.sum.Records
	j.b.out = append(j.b.out, r)
	return nil
}

func (j *joinOutput) Diag(d diag.Diagnostic, skipped int) { j.o.Diag(d, skipped) }

// bufferSink writes into the buffer it points to.
type bufferSink struct{ b *bytes.Buffer }

func (s *bufferSink) Write(p []byte) (int, error) { return s.b.Write(p) }

// runParallel lowers the lines of one input of a dialect with a Settler or
// a Joiner on several goroutines. Workers lower line-aligned batches each;
// the batches are then settled one after the other in input order (the
// Settler or the Joiner, the record numbers and the diagnostics), encoded
// by their workers when the writer offers Parts, and written in order; what
// the Joiner still holds is written at the end. The output is the one a
// single lowering gives.
func runParallel(parent context.Context, opts Options, d Dialect, cfg lowering.Config, br *bufio.Reader, live *liveReader, name string, o *output, workers int) (lowering.LineStats, ast.Pos, error) {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	var (
		settle lowering.Settler
		join   lowering.Joiner
	)
	if d.NewJoiner != nil {
		join = d.NewJoiner(cfg)
	} else {
		settle = d.NewSettler(cfg)
	}
	joined := join != nil
	parts, _ := o.w.(record.Parts)

	free := make(chan *batch, 2*workers)
	for range 2 * workers {
		free <- &batch{done: make(chan struct{}, 1)}
	}
	work := make(chan *batch, 2*workers)
	order := make(chan *batch, 2*workers)

	// Settling goes in input order: a batch waits for its turn.
	var mu sync.Mutex
	turn := sync.NewCond(&mu)
	var next int64

	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out := &notedChunk{}
			low := d.NewLowerer(cfg, out)
			var sink bufferSink // the part writes into the batch at hand
			var part record.Writer
			if parts != nil {
				part = parts.Part(&sink)
			}
			for b := range work {
				b.chunk.Reset()
				out.c = &b.chunk
				for _, it := range b.items {
					if it.long > 0 {
						out.Diag(lowering.LongLine(it.pos, it.long, opts.MaxLine), 1)
						continue
					}
					low.Line(it.pos, b.text[it.start:it.end]) // a Chunk takes every record
				}
				mu.Lock()
				for next != b.seq {
					turn.Wait()
				}
				if joined {
					b.out = b.out[:0]
					// A Joiner fails only when its output does, and
					// joinOutput keeps every record it is given.
					_ = join.Join(&b.chunk, &joinOutput{b, o})
					if i, ok := join.(lowering.Idler); ok && b.idle {
						_ = i.Idle(&joinOutput{b, o})
					}
				} else {
					settleBatch(b, settle, o)
				}
				if o.notDialect != nil {
					cancel() // the input is not of its dialect
				}
				next++
				turn.Broadcast()
				mu.Unlock()
				if part != nil {
					b.buf.Reset()
					sink.b = &b.buf
					// An error is the JSON of attrs failing; the writer
					// reports it below.
					_ = b.write(joined, part)
					part.Flush()
					sink.b = nil
				}
				b.done <- struct{}{}
			}
		}()
	}

	// The writer: batches in input order.
	werr := make(chan error, 1)
	go func() {
		var err error
		for b := range order {
			<-b.done
			if err == nil {
				if parts != nil {
					err = parts.WriteEncoded(b.buf.Bytes())
				} else {
					err = b.write(joined, o.w)
				}
				if err == nil && live != nil && len(order) == 0 {
					// Live input: nothing more is on its way yet.
					err = o.w.Flush()
				}
				if err != nil {
					cancel()
				}
			}
			clear(b.out)
			b.items, b.raw, b.text, b.out = b.items[:0], b.raw[:0], "", b.out[:0]
			free <- b
		}
		werr <- err
	}()

	limit := opts.batchBytes
	switch {
	case limit > 0:
	case joined:
		limit = joinBatchBytes
	default:
		limit = batchBytes
	}
	var cur *batch
	var seq int64
	send := func(idle bool) bool {
		if cur == nil || len(cur.items) == 0 {
			return true
		}
		cur.seq, cur.idle = seq, idle
		cur.text = string(cur.raw)
		seq++
		order <- cur
		work <- cur
		cur = nil
		return true
	}
	take := func() error {
		if cur != nil {
			return nil
		}
		select {
		case cur = <-free:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if live != nil {
		// Before the reader waits for input, the lines read so far go on.
		live.setIdle(func() { send(true) })
	}
	st, end, err := lowering.LineBytes(ctx, br, name, opts.MaxLine,
		func(pos ast.Pos, text []byte) error {
			if err := take(); err != nil {
				return err
			}
			start := len(cur.raw)
			cur.raw = append(cur.raw, text...)
			cur.items = append(cur.items, lineItem{pos: pos, start: start, end: len(cur.raw)})
			if len(cur.raw) >= limit {
				send(false)
			}
			return nil
		},
		func(pos ast.Pos, n int64) error {
			if err := take(); err != nil {
				return err
			}
			cur.items = append(cur.items, lineItem{pos: pos, long: n})
			return nil
		})
	if cur != nil && len(cur.items) > 0 {
		send(false)
	} else if cur != nil {
		free <- cur
	}
	close(work)
	close(order)
	wg.Wait()
	if e := <-werr; e != nil {
		o.werr = e
		return st, end, e
	}
	if joined && parent.Err() == nil {
		// What the Joiner holds is written, also when the reader failed.
		if e := join.End(o); e != nil {
			return st, end, e
		}
	}
	return st, end, err
}

// settleBatch passes a lowered batch's diagnostics on and settles and
// numbers its records, in input order.
func settleBatch(b *batch, settle lowering.Settler, o *output) {
	c := &b.chunk
	di := 0
	for i := range c.Records {
		for di < len(c.Diags) && c.Diags[di].Before <= i {
			o.Diag(c.Diags[di].Diag, c.Diags[di].Skipped)
			di++
		}
		if o.notDialect != nil {
			// The input is not of its dialect: nothing of it is written.
			c.Records = c.Records[:i]
			return
		}
		r := &c.Records[i]
		settle(r, c.Notes[i], &c.TS[i])
		o.release()
		o.sum.Records++
		r.Seq = o.sum.Records
	}
	for ; di < len(c.Diags); di++ {
		o.Diag(c.Diags[di].Diag, c.Diags[di].Skipped)
	}
}

// stagedItem is one line parsed ahead of the lowering, or a line too long
// to pass on (long > 0).
type stagedItem struct {
	parsed any
	pos    ast.Pos
	long   int64
}

// runStaged runs a staged lowering of one input on two goroutines: one
// reads and parses the lines, batch by batch, the calling one lowers them
// in order. It returns what lowering.Lines returns and the function that
// ends the lowering (Finish with what ParseEnd gave). The output is the one
// the lowering gives line by line.
func runStaged(ctx context.Context, opts Options, low lowering.Staged, br *bufio.Reader, live *liveReader, name string, o *output) (lowering.LineStats, ast.Pos, func(ast.Pos) error, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	const batchLines = 512
	batches := make(chan []stagedItem, 4)
	free := make(chan []stagedItem, 6)
	var (
		st        lowering.LineStats
		end       ast.Pos
		readErr   error
		parsedEnd any
	)
	go func() {
		defer close(batches)
		cur := make([]stagedItem, 0, batchLines)
		send := func() error {
			if len(cur) == 0 {
				return nil
			}
			select {
			case batches <- cur:
			case <-ctx.Done():
				return ctx.Err()
			}
			select {
			case cur = <-free:
				cur = cur[:0]
			default:
				cur = make([]stagedItem, 0, batchLines)
			}
			return nil
		}
		if live != nil {
			// Before the reader waits for input, the lines parsed so far go on.
			live.setIdle(func() { send() })
		}
		st, end, readErr = lowering.Lines(ctx, br, name, opts.MaxLine,
			func(pos ast.Pos, text string) error {
				cur = append(cur, stagedItem{parsed: low.Parse(pos, text)})
				if len(cur) == batchLines {
					return send()
				}
				return nil
			},
			func(pos ast.Pos, n int64) error {
				cur = append(cur, stagedItem{pos: pos, long: n})
				if len(cur) == batchLines {
					return send()
				}
				return nil
			})
		if readErr == nil || ctx.Err() == nil {
			parsedEnd = low.ParseEnd(end)
		}
		send()
	}()
	var lowerErr error
	for b := range batches {
		for _, it := range b {
			if lowerErr != nil {
				break
			}
			if it.long > 0 {
				o.Diag(lowering.LongLine(it.pos, it.long, opts.MaxLine), 1)
				continue
			}
			if lowerErr = low.Lower(it.parsed); lowerErr != nil {
				cancel()
			}
		}
		select {
		case free <- b:
		default:
		}
		if live != nil && lowerErr == nil && len(batches) == 0 {
			// Live input: nothing more is on its way yet.
			if lowerErr = o.w.Flush(); lowerErr != nil {
				o.werr = lowerErr
				cancel()
			}
		}
	}
	finish := func(pos ast.Pos) error { return low.Finish(parsedEnd, pos) }
	if lowerErr != nil {
		return st, end, finish, lowerErr
	}
	return st, end, finish, readErr
}
