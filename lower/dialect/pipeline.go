package dialect

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/lower/dialect/lowering"
	"github.com/tracekit/tracekit/lower/record"
)

// The lines of every line dialect go through one pipeline:
//
//	read → split into batches → lower on N workers → settle in input order → encode → write
//
// The calling goroutine reads the input into line-aligned batches: a
// file in blocks of about batchBytes of whole lines, which the worker that
// takes one cuts into lines (readBlocks, batch.split); a live or followed
// input, or a strict run, line by line, cut by size (batchBytes) or when
// a live input pauses (live.go).
// Each batch then goes through the dialect's stages on one of N workers;
// a stage marked "in order" takes the batches one after the other, in
// input order, whichever worker holds them. N = 1 is the serial case: the
// calling goroutine runs every stage of a batch as soon as it is cut, and
// a strict run (N = 1, a line a batch) stops at the line of its first
// error. Two plans cover every dialect:
//
//   - chunked (a dialect with a Settler or a Joiner): each worker's own
//     lowering lowers the batch's lines into the batch's chunk; in order,
//     the Settler settles the chunk's records or the Joiner joins it
//     (pairing the halves of calls across batches), and the records are
//     numbered and their diagnostics passed on; the worker encodes them
//     (when the writer offers Parts); in order, they are written. When
//     the writer's parts offer templates (record.Templater) and the dialect
//     has a Settler, no record is kept: the worker encodes each record as
//     it is lowered, with holes for the values settled in order (Seq,
//     TSNs), and hands the batch on (handOn); the worker that is free
//     runs the in-order stages for every batch whose turn it is: the
//     Settler gives those values, the holes are filled, the bytes are
//     written.
//   - sequential (any other lowering, and a dialect with a Settler on one
//     goroutine): in order, a Staged lowering parses
//     the batch's lines (so that one batch is parsed while the one before
//     is lowered); in order, the one lowering lowers them and writes its
//     records.
//
// The output is the same whatever N is (TestParallelMatchesOneCore).

// batchBytes is about how much input one batch of lines holds.
const batchBytes = 64 << 10

// joinBatchBytes is batchBytes for a dialect with a Joiner, whose records
// hold more (arguments, attrs) for each byte of input.
const joinBatchBytes = 32 << 10

// lineItem is one line of a batch, or a line too long to pass on (long > 0):
// its text is raw[start:end] of the batch, its position in the input
// (whose name the pipeline holds) offset, line and col. It holds no
// pointer, so that the reader fills the batch with no write barrier and
// the collector does not scan it.
type lineItem struct {
	offset, line, col int
	start, end        int
	long              int64
}

// pos returns the position of the line it in the input named file.
func (it *lineItem) pos(file string) ast.Pos {
	return ast.Pos{File: file, Offset: it.offset, Line: it.line, Col: it.col}
}

// newItem returns the item of a line at pos.
func newItem(pos ast.Pos) lineItem {
	return lineItem{offset: pos.Offset, line: pos.Line, col: pos.Col}
}

// batch is a line-aligned chunk of one input on its way through the
// pipeline.
type batch struct {
	seq     int64    // its place in the input
	block   bool     // raw is a block of whole lines the worker splits into items (split)
	offset  int      // block: where raw starts in the input
	line    int      // block: the line it starts
	long    lineItem // block: a line too long to hold, after raw's lines (long > 0)
	blank   int64    // block: the blank lines among raw's
	idle    bool     // cut because a live input paused after it
	settled bool     // settled or joined: its records are to be written
	items   []lineItem
	raw     []byte           // the lines' bytes, one after the other
	text    string           // raw as one string (one allocation a batch), the lines' texts slices of it
	parsed  []any            // what a Staged lowering's Parse made of each item
	store   lowering.Store   // where a BatchStaged lowering's ParseIn keeps it
	chunk   lowering.Chunk   // what a worker's lowering made of the lines (chunked)
	out     []*record.Record // the records a Joiner passed on, to write
	buf     bytes.Buffer     // the encoded records, when the writer has Parts
	enc     []byte           // the encoded records, when its parts are record.Appenders

	// templated (record.Templater)
	tmpl  []byte               // the records encoded with holes, one after the other
	recs  []tmplRecord         // each record's end in tmpl, holes and note; then its Seq and TSNs
	diags []lowering.ChunkDiag // the diagnostics, in order with the records
	terr  error                // the encoding of a record failed: the records before it stand (templated, enc)
}

// tmplRecord is one record of a templated batch.
type tmplRecord struct {
	end   int           // its bytes end here in tmpl
	holes record.Holes  // where its Seq and TSNs go
	note  lowering.Note // for the Settler
	seq   int64         // settled
	ts    int64         // settled, when hasTS
	hasTS bool
}

// reset empties b for its next use.
func (b *batch) reset() {
	if b.store != nil {
		b.store.Reset()
	}
	clear(b.out)
	clear(b.parsed)
	clear(b.diags)
	b.tmpl, b.recs, b.diags, b.terr = b.tmpl[:0], b.recs[:0], b.diags[:0], nil
	b.items, b.raw, b.text, b.out, b.parsed, b.idle, b.settled = b.items[:0], b.raw[:0], "", b.out[:0], b.parsed[:0], false, false
	if b.block {
		// text is raw (split): never written again, left to the collector.
		b.raw = nil
	}
	b.block, b.long, b.blank = false, lineItem{}, 0
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

// joinOutput takes what a Joiner passes on for a batch: it numbers the
// records and keeps them (not copies: the Joiner keeps them unchanged until
// the batch's chunk is reset) in the batch, and passes diagnostics on.
type joinOutput struct {
	b *batch
	o *output
}

func (j *joinOutput) Record(r *record.Record) error {
	if err := j.o.stopped(); err != nil {
		return err
	}
	j.o.release()
	j.o.sum.Records++
	r.Seq = j.o.sum.Records
	j.b.out = append(j.b.out, r)
	return nil
}

func (j *joinOutput) Diag(d diag.Diagnostic, skipped int) { j.o.Diag(d, skipped) }

// templateOutput is the NotedOutput of a worker's lowering when records
// are encoded as they come (record.Templater): it encodes each record into
// the batch at hand, with holes for its Seq and TSNs.
type templateOutput struct {
	b    *batch
	tmpl record.Templater
}

func (t *templateOutput) Record(r *record.Record) error {
	return t.RecordNote(r, lowering.Note{})
}

func (t *templateOutput) RecordNote(r *record.Record, n lowering.Note) error {
	b := t.b
	if b.terr != nil {
		return b.terr
	}
	out, h, err := t.tmpl.AppendTemplate(b.tmpl, r)
	if err != nil {
		b.terr = err
		return err
	}
	b.tmpl = out
	b.recs = append(b.recs, tmplRecord{end: len(out), holes: h, note: n})
	return nil
}

func (t *templateOutput) Diag(d diag.Diagnostic, skipped int) {
	t.b.diags = append(t.b.diags, lowering.ChunkDiag{Diag: d, Skipped: skipped, Before: len(t.b.recs)})
}

// bufferSink writes into the buffer it points to.
type bufferSink struct{ b *bytes.Buffer }

func (s *bufferSink) Write(p []byte) (int, error) { return s.b.Write(p) }

// turn makes the workers take one stage's batches in input order.
type turn struct {
	mu   sync.Mutex
	cond *sync.Cond
	next int64
}

func newTurn() *turn {
	t := &turn{}
	t.cond = sync.NewCond(&t.mu)
	return t
}

// wait returns when it is batch seq's turn; done must follow.
func (t *turn) wait(seq int64) {
	t.mu.Lock()
	for t.next != seq {
		t.cond.Wait()
	}
}

// done passes the turn to the next batch.
func (t *turn) done() {
	t.next++
	t.cond.Broadcast()
	t.mu.Unlock()
}

// pipeline is one input's way through the stages.
type pipeline struct {
	name   string // the input's
	opts   Options
	d      Dialect
	cfg    lowering.Config
	o      *output
	cancel context.CancelFunc

	// chunked
	settle    lowering.Settler
	join      lowering.Joiner
	parts     record.Parts // the writer's, when it has them
	templated bool         // settle, and parts offer templates

	// sequential
	low    lowering.Lowerer
	staged lowering.Staged // low, when it is one
	// batchStaged is low, when it is a lowering.BatchStaged.
	batchStaged lowering.BatchStaged

	parseTurn, orderTurn, writeTurn *turn
	seqr                            sequencer   // templated
	filled                          []byte      // templated: a batch with its holes filled (one at a time: in order)
	free                            chan *batch // the batches not in use

	mu  sync.Mutex
	err error // the first error of a stage: later batches pass through untouched

	blank atomic.Int64 // blank lines of the blocks (split)
}

// maxLine is the longest line passed on.
func (p *pipeline) maxLine() int {
	if p.opts.MaxLine <= 0 {
		return lowering.DefaultMaxLine
	}
	return p.opts.MaxLine
}

// worker is one goroutine's own state: its lowering (chunked) and its
// part writer.
type worker struct {
	out  notedChunk
	tout templateOutput // templated
	low  lowering.Lowerer
	sink bufferSink
	part record.Writer
	app  record.Appender // part, when it is one
}

// fail records the first error and stops the reader.
func (p *pipeline) fail(err error) {
	p.mu.Lock()
	if p.err == nil {
		p.err = err
	}
	p.mu.Unlock()
	p.cancel()
}

func (p *pipeline) failed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err != nil
}

// newWorker makes a worker's state.
func (p *pipeline) newWorker() *worker {
	w := &worker{}
	if p.templated {
		w.tout.tmpl = p.parts.Part(&w.sink).(record.Templater)
		w.low = p.d.NewLowerer(p.cfg, &w.tout)
		return w
	}
	if p.settle != nil || p.join != nil {
		w.low = p.d.NewLowerer(p.cfg, &w.out)
		if p.parts != nil {
			w.part = p.parts.Part(&w.sink)
			w.app, _ = w.part.(record.Appender)
		}
	}
	return w
}

// process takes a batch through every stage and frees it.
func (p *pipeline) process(w *worker, b *batch) {
	if b.block {
		b.split(p.maxLine())
		p.blank.Add(b.blank)
	}
	switch {
	case p.templated:
		p.templatedBatch(w, b)
		return // freed by handOn
	case p.settle != nil || p.join != nil:
		p.chunked(w, b)
	default:
		p.sequential(b)
	}
	b.reset()
	p.free <- b
}

// chunked: lower (any order), settle or join (in order), encode (any
// order), write (in order).
func (p *pipeline) chunked(w *worker, b *batch) {
	o := p.o
	if !p.failed() {
		b.chunk.Reset()
		w.out.c = &b.chunk
		for i := range b.items {
			it := &b.items[i]
			if it.long > 0 {
				w.out.Diag(lowering.LongLine(it.pos(p.name), it.long, p.opts.MaxLine), 1)
				continue
			}
			w.low.Line(it.pos(p.name), b.text[it.start:it.end]) // a Chunk takes every record
		}
	}
	p.orderTurn.wait(b.seq)
	if !p.failed() {
		if p.join != nil {
			b.out = b.out[:0]
			// A Joiner fails only when its output does: joinOutput keeps
			// every record until the run stops (strict, INP004).
			_ = p.join.Join(&b.chunk, &joinOutput{b, o})
			if i, ok := p.join.(lowering.Idler); ok && b.idle {
				_ = i.Idle(&joinOutput{b, o})
			}
		} else {
			settleBatch(b, p.settle, o)
		}
		b.settled = true
		if err := o.stopped(); err != nil {
			// The records before the stop are still written.
			p.fail(err)
		}
	}
	p.orderTurn.done()
	encoded := false
	switch {
	case w.app != nil && b.settled:
		b.enc, b.terr = b.appendTo(p.join != nil, w.app, b.enc[:0])
		encoded = true
	case w.part != nil && b.settled:
		b.buf.Reset()
		w.sink.b = &b.buf
		// An error is the JSON of attrs failing; the writer reports it
		// below.
		_ = b.write(p.join != nil, w.part)
		w.part.Flush()
		w.sink.b = nil
		encoded = true
	}
	p.writeTurn.wait(b.seq)
	if b.settled && o.werr == nil {
		var err error
		switch {
		case encoded && w.app != nil:
			if err = p.parts.WriteEncoded(b.enc); err == nil {
				err = b.terr
			}
		case encoded:
			err = p.parts.WriteEncoded(b.buf.Bytes())
		default:
			err = b.write(p.join != nil, o.w)
		}
		if err == nil && b.idle {
			err = o.w.Flush()
		}
		if err != nil {
			o.werr = err
			p.fail(err)
		}
	}
	p.writeTurn.done()
}

// templatedBatch: lower and encode with holes (any order); then, in
// order, settle, fill the holes and write (handOn). It returns with the
// batch handed on: whoever runs the in-order stages frees it.
func (p *pipeline) templatedBatch(w *worker, b *batch) {
	if !p.failed() {
		w.tout.b = b
		for i := range b.items {
			it := &b.items[i]
			if it.long > 0 {
				w.tout.Diag(lowering.LongLine(it.pos(p.name), it.long, p.opts.MaxLine), 1)
				continue
			}
			// An error is an encoding's (b.terr), reported when written.
			_ = w.low.Line(it.pos(p.name), b.text[it.start:it.end])
		}
		w.tout.b = nil
	}
	p.handOn(w, b)
}

// sequencer takes the lowered batches of a templated run in any order and
// runs their in-order stages in input order, on whichever worker is free:
// a worker that hands on a batch out of turn goes on to lower the next one
// instead of waiting (on two cores shared with other programs, a worker
// whose thread is not running would otherwise stop the other at every
// batch).
type sequencer struct {
	mu       sync.Mutex
	next     int64            // the batch whose turn it is
	ready    map[int64]*batch // lowered, waiting for their turn
	draining bool             // a worker is running the in-order stages
}

// handOn passes a lowered batch to the in-order stages. Unless another
// worker is running them, it runs them for every batch whose turn it is,
// this one or not, and frees them.
func (p *pipeline) handOn(w *worker, b *batch) {
	s := &p.seqr
	s.mu.Lock()
	s.ready[b.seq] = b
	if s.draining {
		// The worker running them takes b in its turn.
		s.mu.Unlock()
		return
	}
	s.draining = true
	for {
		b, ok := s.ready[s.next]
		if !ok {
			s.draining = false
			s.mu.Unlock()
			return
		}
		delete(s.ready, s.next)
		s.next++
		s.mu.Unlock()
		p.settleAndWrite(w, b)
		b.reset()
		p.free <- b
		s.mu.Lock()
	}
}

// settleAndWrite runs the in-order stages of a templated batch: settle,
// fill the holes, write.
func (p *pipeline) settleAndWrite(w *worker, b *batch) {
	o := p.o
	if !p.failed() {
		settleTemplates(b, p.settle, o)
		b.settled = true
		if err := o.stopped(); err != nil {
			// The records before the stop are still written.
			p.fail(err)
		}
	}
	if !b.settled || o.werr != nil {
		return
	}
	out, start := p.filled[:0], 0
	for i := range b.recs {
		rc := &b.recs[i]
		var ts *int64
		if rc.hasTS {
			ts = &rc.ts
		}
		out = w.tout.tmpl.AppendFilled(out, b.tmpl[start:rc.end], rc.holes, rc.seq, ts)
		start = rc.end
	}
	p.filled = out
	err := p.parts.WriteEncoded(out)
	if err == nil {
		err = b.terr
	}
	if err == nil && b.idle {
		err = o.w.Flush()
	}
	if err != nil {
		o.werr = err
		p.fail(err)
	}
}

// appendTo appends the records of a settled batch, encoded by a, to dst,
// in order, until an encoding fails: the records before it stand.
func (b *batch) appendTo(joined bool, a record.Appender, dst []byte) ([]byte, error) {
	var err error
	if joined {
		for _, r := range b.out {
			if dst, err = a.AppendRecord(dst, r); err != nil {
				return dst, err
			}
		}
		return dst, nil
	}
	for i := range b.chunk.Records {
		if dst, err = a.AppendRecord(dst, &b.chunk.Records[i]); err != nil {
			return dst, err
		}
	}
	return dst, nil
}

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

// sequential: parse (in order, a Staged lowering), then lower and write
// (in order).
func (p *pipeline) sequential(b *batch) {
	o := p.o
	if p.staged != nil {
		p.parseTurn.wait(b.seq)
		if !p.failed() {
			for i := range b.items {
				it := &b.items[i]
				var parsed any
				switch {
				case it.long > 0:
				case p.batchStaged != nil:
					if b.store == nil {
						b.store = p.batchStaged.NewStore()
					}
					parsed = p.batchStaged.ParseIn(b.store, it.pos(p.name), b.text[it.start:it.end])
				default:
					parsed = p.staged.Parse(it.pos(p.name), b.text[it.start:it.end])
				}
				b.parsed = append(b.parsed, parsed)
			}
		}
		p.parseTurn.done()
	}
	p.orderTurn.wait(b.seq)
	defer p.orderTurn.done()
	if p.failed() {
		return
	}
	for i := range b.items {
		it := &b.items[i]
		var err error
		switch {
		case it.long > 0:
			d := lowering.LongLine(it.pos(p.name), it.long, p.opts.MaxLine)
			if sk, ok := p.low.(lowering.LineSkipper); ok {
				err = sk.SkipLine(d, 1)
			} else {
				o.Diag(d, 1)
			}
		case p.staged != nil:
			err = p.staged.Lower(b.parsed[i])
		default:
			err = p.low.Line(it.pos(p.name), b.text[it.start:it.end])
		}
		if err == nil {
			err = o.stopped()
		}
		if err != nil {
			p.fail(err)
			return
		}
	}
	if b.idle {
		if i, ok := p.low.(lowering.Idler); ok {
			if err := i.Idle(o); err != nil {
				p.fail(err)
				return
			}
		}
		if err := o.w.Flush(); err != nil {
			o.werr = err
			p.fail(err)
		}
	}
}

// end ends the lowering after the last batch: what a Joiner still holds,
// a Staged lowering's end, a lowering's End.
func (p *pipeline) end(pos ast.Pos) error {
	switch {
	case p.join != nil:
		return p.join.End(p.o)
	case p.settle != nil:
		return nil
	case p.staged != nil:
		return p.staged.Finish(p.staged.ParseEnd(pos), pos)
	}
	return p.low.End(pos)
}

// runLines runs one input's lines through the pipeline on workers
// goroutines. It returns what was read, the end of the input, the error
// that ended the reading (the reader's own, reported after what was read
// is lowered) and the error that ended the run (a writer's, Strict's,
// INP004's, ctx's).
func runLines(parent context.Context, opts Options, d Dialect, cfg lowering.Config, br *bufio.Reader, live *liveReader, name string, o *output, workers int) (st lowering.LineStats, end ast.Pos, readErr, err error) {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	p := &pipeline{name: name, opts: opts, d: d, cfg: cfg, o: o, cancel: cancel,
		parseTurn: newTurn(), orderTurn: newTurn(), writeTurn: newTurn()}
	limit := opts.batchBytes
	switch {
	case d.NewSettler != nil && workers == 1 && !opts.Strict:
		// On one goroutine a settled dialect's lowering settles its own
		// records and writes them as it makes them: no chunk to copy
		// them into, no encoding into a batch buffer to copy out again.
		p.low = d.NewLowerer(cfg, o)
	case d.NewJoiner != nil:
		p.join = d.NewJoiner(cfg)
		if limit == 0 {
			limit = joinBatchBytes
		}
	case d.NewSettler != nil:
		p.settle = d.NewSettler(cfg)
	default:
		p.low = d.NewLowerer(cfg, o)
		p.staged, _ = p.low.(lowering.Staged)
		p.batchStaged, _ = p.low.(lowering.BatchStaged)
	}
	if limit == 0 {
		limit = batchBytes
	}
	p.parts, _ = o.w.(record.Parts)
	if p.settle != nil && p.parts != nil {
		_, p.templated = p.parts.Part(io.Discard).(record.Templater)
	}
	if opts.Strict {
		// A line a batch: the run stops at the line of its first error,
		// having read no further.
		workers, limit = 1, 1
	}

	var (
		free  chan *batch
		work  chan *batch
		wg    sync.WaitGroup
		first *worker // the calling goroutine's, when workers == 1
	)
	p.seqr.ready = map[int64]*batch{}
	if workers == 1 {
		first = p.newWorker()
		free = make(chan *batch, 1)
		free <- &batch{}
		p.free = free
	} else {
		// Batches in flight. More of them (4 a worker) kept a templated
		// run no busier on the shared cores, and JSONL's encoding of a
		// batch is 3.5 times its input: peak RSS on 100 MB went from 48
		// to 58 MiB.
		inFlight := 2 * workers
		free = make(chan *batch, inFlight)
		for range inFlight {
			free <- &batch{}
		}
		p.free = free
		work = make(chan *batch, inFlight)
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				w := p.newWorker()
				for b := range work {
					p.process(w, b)
				}
			}()
		}
	}

	var (
		cur *batch
		seq int64
	)
	send := func(idle bool) error {
		if cur == nil || len(cur.items) == 0 && !cur.block {
			return nil
		}
		cur.seq, cur.idle = seq, idle
		if !cur.block {
			cur.text = string(cur.raw)
		}
		seq++
		b := cur
		cur = nil
		if first != nil {
			p.process(first, b)
			if p.failed() {
				return ctx.Err()
			}
			return nil
		}
		work <- b
		return nil
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
	var rerr error
	if live == nil && !opts.Strict {
		// The workers split the blocks into lines.
		st, end, rerr = p.readBlocks(ctx, br, limit,
			func() (*batch, error) {
				if err := take(); err != nil {
					return nil, err
				}
				return cur, nil
			},
			func(b *batch) error { cur = b; return send(false) })
	} else {
		st, end, rerr = lowering.LineBytes(ctx, br, name, opts.MaxLine,
			p.lineTo(take, send, &cur, limit), p.longTo(take, send, &cur))
	}
	send(false)
	if work != nil {
		close(work)
		wg.Wait()
	}
	st.Blank += p.blank.Load()
	if p.err != nil {
		return st, end, nil, p.err
	}
	if rerr != nil && parent.Err() != nil {
		return st, end, nil, rerr
	}
	// What is still held is passed on, also when the reader failed.
	if err := p.end(end); err != nil {
		return st, end, rerr, err
	}
	return st, end, rerr, o.stopped()
}

// lineTo returns the function that puts a line LineBytes read into the
// batch at hand (*cur, taken by take), sending it on when full.
func (p *pipeline) lineTo(take func() error, send func(bool) error, cur **batch, limit int) func(ast.Pos, []byte) error {
	return func(pos ast.Pos, text []byte) error {
		if err := take(); err != nil {
			return err
		}
		b := *cur
		start := len(b.raw)
		b.raw = append(b.raw, text...)
		it := newItem(pos)
		it.start, it.end = start, len(b.raw)
		b.items = append(b.items, it)
		if len(b.raw) >= limit {
			return send(false)
		}
		return nil
	}
}

// longTo returns the function that puts a line too long to pass on into
// the batch at hand.
func (p *pipeline) longTo(take func() error, send func(bool) error, cur **batch) func(ast.Pos, int64) error {
	return func(pos ast.Pos, n int64) error {
		if err := take(); err != nil {
			return err
		}
		it := newItem(pos)
		it.long = n
		(*cur).items = append((*cur).items, it)
		if p.opts.Strict {
			return send(false)
		}
		return nil
	}
}

// readBlocks is the reader of an input that is not followed, in a run
// that is not strict: it reads the input in blocks of about limit bytes of
// whole lines straight into the batches (take gives the one at hand, send
// passes it on), no line copied on its own, and the workers cut them into
// lines (batch.split). The lines, their positions, the blank ones and
// those too long come out as lowering.LineBytes makes them; the blank
// lines are counted by split (pipeline.blank), not here.
func (p *pipeline) readBlocks(ctx context.Context, br *bufio.Reader, limit int, take func() (*batch, error), send func(*batch) error) (st lowering.LineStats, end ast.Pos, err error) {
	maxLine := p.maxLine()
	var (
		carry  []byte // the start of a line the last block could not end
		offset int    // of the next block in the input
		line   = 1    // its line
		eof    bool
	)
	defer func() {
		st.Lines, st.Bytes = int64(line-1), int64(offset)
		end = ast.Pos{File: p.name, Offset: offset, Line: line, Col: 1}
	}()
	for !eof {
		if err = ctx.Err(); err != nil {
			return
		}
		var b *batch
		if b, err = take(); err != nil {
			return
		}
		// A new block each time: its string is made of it, not copied
		// (split), so it is never written again.
		raw := append(make([]byte, 0, len(carry)+limit), carry...)
		carry = carry[:0]
		// Read until the block holds limit bytes and a line break, a line
		// longer than maxLine, or the end of the input.
		nl, searched := -1, 0
		for !eof {
			if len(raw) >= limit {
				if nl = bytes.LastIndexByte(raw[searched:], '\n'); nl >= 0 {
					nl += searched
					break
				}
				searched = len(raw)
				if len(raw) > maxLine+2 {
					break
				}
			}
			if len(raw) == cap(raw) {
				raw = slices.Grow(raw, limit)
			}
			n, rerr := br.Read(raw[len(raw):cap(raw)])
			raw = raw[:len(raw)+n]
			if rerr != nil {
				eof = true
				if rerr != io.EOF {
					err = rerr
				}
			}
		}
		if nl < 0 && !eof {
			// A line longer than maxLine (and its line break): skipped to
			// its end, its length counted.
			n := int64(len(raw))
			for {
				chunk, rerr := br.ReadSlice('\n')
				n += int64(len(chunk))
				if rerr == bufio.ErrBufferFull {
					continue
				}
				if rerr != nil {
					eof = true
					if rerr != io.EOF {
						err = rerr
					}
				}
				break
			}
			b.raw = raw[:0]
			b.block, b.offset, b.line = true, offset, line
			b.long = lineItem{offset: offset, line: line, col: 1, long: n}
			offset += int(n)
			line++
			if e := send(b); e != nil {
				return st, end, e
			}
			continue
		}
		cut := len(raw) // at the end of the input, the last line has no line break
		if nl >= 0 {
			cut = nl + 1
		}
		carry = append(carry, raw[cut:]...)
		b.raw = raw[:cut]
		if cut == 0 {
			continue // the input ended with the block before
		}
		lines := bytes.Count(b.raw, newline)
		if b.raw[cut-1] != '\n' {
			lines++
		}
		b.block, b.offset, b.line = true, offset, line
		offset += cut
		line += lines
		if e := send(b); e != nil {
			return st, end, e
		}
	}
	return st, end, err
}

// newline is the line break.
var newline = []byte{'\n'}

// byteOrderMark is UTF-8's, which lowering.LineBytes drops from the first
// line.
var byteOrderMark = []byte("\xef\xbb\xbf")

// split cuts the block of whole lines a batch holds (readBlocks) into the
// items of its lines, as lowering.LineBytes cuts an input: a line without
// its line break (and CR), the byte-order mark dropped from the input's
// first line, blank lines counted and not passed on, a line longer than
// maxLine passed as too long (its length with the line break when the
// whole is over maxLine+2 bytes, as LineBytes reads it, else without).
func (b *batch) split(maxLine int) {
	raw := b.raw
	// The block is the batch's own and is never written again (reset
	// drops it): its string is the same bytes.
	b.text = unsafe.String(unsafe.SliceData(raw), len(raw))
	off, line := b.offset, b.line
	for pos := 0; pos < len(raw); {
		end, next := len(raw), len(raw)
		nl := bytes.IndexByte(raw[pos:], '\n')
		if nl >= 0 {
			end = pos + nl
			next = end + 1
		}
		n := next - pos
		it := lineItem{offset: off, line: line, col: 1}
		if n > maxLine+2 {
			it.long = int64(n)
			b.items = append(b.items, it)
		} else {
			s, e := pos, end
			if nl >= 0 && e > s && raw[e-1] == '\r' {
				e--
			}
			if off == 0 && bytes.HasPrefix(raw[s:e], byteOrderMark) {
				s += 3
				it.offset += 3
				it.col += 3
			}
			switch {
			case e-s > maxLine:
				it.long = int64(e - s)
				b.items = append(b.items, it)
			case lowering.IsBlank(raw[s:e]):
				b.blank++
			default:
				it.start, it.end = s, e
				b.items = append(b.items, it)
			}
		}
		off += n
		line++
		pos = next
	}
	if b.long.long > 0 {
		b.items = append(b.items, b.long)
	}
}

// settleTemplates is settleBatch for a templated batch: the Settler is
// given a record with nothing but the TSNs it sets, and the values go into
// the batch's records.
func settleTemplates(b *batch, settle lowering.Settler, o *output) {
	var r record.Record
	di := 0
	for i := range b.recs {
		for di < len(b.diags) && b.diags[di].Before <= i {
			o.Diag(b.diags[di].Diag, b.diags[di].Skipped)
			di++
		}
		if o.stopped() != nil {
			// A strict run met an error, or the input is not of its
			// dialect: nothing more of it is written.
			b.recs = b.recs[:i]
			return
		}
		rc := &b.recs[i]
		r.TSNs = nil
		settle(&r, rc.note, &rc.ts)
		rc.hasTS = r.TSNs != nil
		o.release()
		o.sum.Records++
		rc.seq = o.sum.Records
	}
	for ; di < len(b.diags); di++ {
		o.Diag(b.diags[di].Diag, b.diags[di].Skipped)
	}
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
		if o.stopped() != nil {
			// A strict run met an error, or the input is not of its
			// dialect: nothing more of it is written.
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
