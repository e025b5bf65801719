package dialect

import (
	"bytes"
	"context"
	"io"
	"os"
	"sync"
	"time"
)

// Live input: a pipe, a terminal or a followed file (--follow) gives its
// lines as a producer writes them. Records must then leave as soon as the
// lines they come from are complete, not when a batch fills or the input
// ends. The one policy, whichever path lowers the lines: whenever the
// reader has taken every byte that has arrived and the input stays quiet
// for idleAfter, it calls its idle hook, which hands on the lines read so
// far (the batch at hand), lets a Joiner pass on what it holds only in case
// more lines add to it (lowering.Idler), and flushes what has been written. Whole files never
// wait, so they are read in full batches at full speed.

// idleAfter is how long a live input must be quiet before the idle hook
// runs: a producer writes a line's parts (a call and its -k stack frames)
// within microseconds, so a pause this long means the lines so far are
// complete, while records still leave well within 200 ms of their line.
const idleAfter = 20 * time.Millisecond

// liveChunk is how much a live reader's pump reads at once.
const liveChunk = 64 << 10

// liveReader reads its source on a goroutine of its own (the pump), so
// that it can tell "no byte has arrived yet" from "a byte is on its way":
// Read calls idle before it waits.
type liveReader struct {
	ctx    context.Context
	chunks chan []byte
	free   chan []byte
	err    error // after chunks is closed: the source's error (nil at EOF)
	cur    []byte
	back   []byte // cur's buffer, to give back to the pump
	idle   func()
	mu     sync.Mutex
}

// newLiveReader starts a pump reading r until its end, its first error or
// ctx is done.
func newLiveReader(ctx context.Context, r io.Reader) *liveReader {
	l := &liveReader{ctx: ctx, chunks: make(chan []byte, 4), free: make(chan []byte, 4)}
	go l.pump(r)
	return l
}

func (l *liveReader) pump(r io.Reader) {
	defer close(l.chunks)
	for {
		var buf []byte
		select {
		case buf = <-l.free:
		default:
			buf = make([]byte, liveChunk)
		}
		n, err := r.Read(buf[:cap(buf)])
		if n > 0 {
			select {
			case l.chunks <- buf[:n]:
			case <-l.ctx.Done():
				return
			}
		}
		if err != nil {
			if err != io.EOF {
				l.mu.Lock()
				l.err = err
				l.mu.Unlock()
			}
			return
		}
	}
}

// setIdle sets the hook Read calls before it waits for input.
func (l *liveReader) setIdle(idle func()) { l.idle = idle }

// Read returns what has arrived, waiting (after calling the idle hook)
// when nothing has.
func (l *liveReader) Read(p []byte) (int, error) {
	if len(l.cur) == 0 {
		if l.back != nil {
			select {
			case l.free <- l.back:
			default:
			}
			l.back = nil
		}
		var (
			c  []byte
			ok bool
		)
		select {
		case c, ok = <-l.chunks:
		default:
			t := time.NewTimer(idleAfter)
			select {
			case c, ok = <-l.chunks:
				t.Stop()
			case <-t.C:
				if l.idle != nil {
					l.idle()
				}
				select {
				case c, ok = <-l.chunks:
				case <-l.ctx.Done():
					return 0, l.ctx.Err()
				}
			case <-l.ctx.Done():
				t.Stop()
				return 0, l.ctx.Err()
			}
		}
		if !ok {
			l.mu.Lock()
			err := l.err
			l.mu.Unlock()
			if err == nil {
				err = io.EOF
			}
			return 0, err
		}
		l.cur, l.back = c, c
	}
	n := copy(p, l.cur)
	l.cur = l.cur[n:]
	return n, nil
}

// headWait is how long detection waits for more of a live input's head
// once it holds a complete line.
const headWait = 100 * time.Millisecond

// head returns the first bytes of a live input for Detect: up to HeadSize
// bytes, less when the input ends or pauses for headWait after a complete
// line has arrived. The bytes are then read again through the returned
// reader.
func (l *liveReader) head() ([]byte, io.Reader, error) {
	var buf bytes.Buffer
	var timer <-chan time.Time
	for buf.Len() < HeadSize {
		var (
			c  []byte
			ok bool
		)
		select {
		case c, ok = <-l.chunks:
		case <-timer:
			return l.replay(buf.Bytes()), l.withHead(buf.Bytes()), nil
		case <-l.ctx.Done():
			return nil, nil, l.ctx.Err()
		}
		if !ok {
			l.mu.Lock()
			err := l.err
			l.mu.Unlock()
			return l.replay(buf.Bytes()), l.withHead(buf.Bytes()), err
		}
		buf.Write(c)
		if timer == nil && bytes.IndexByte(buf.Bytes(), '\n') >= 0 {
			timer = time.After(headWait)
		}
	}
	return l.replay(buf.Bytes()), l.withHead(buf.Bytes()), nil
}

func (l *liveReader) replay(b []byte) []byte {
	if len(b) > HeadSize {
		return b[:HeadSize]
	}
	return b
}

// withHead returns a reader of the head, then the rest through l.
func (l *liveReader) withHead(head []byte) io.Reader {
	l.cur = append([]byte(nil), head...)
	return l
}

// isLive reports whether r, an input about to be read, gives its bytes as
// they are written: a pipe, a terminal, a socket or a device, not a
// regular file.
func isLive(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && !st.Mode().IsRegular()
}
