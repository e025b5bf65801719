package dialect

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// followPoll is how often a followed file is looked at when no change
// was announced (some file systems announce none).
const followPoll = 250 * time.Millisecond

// follower reads a file as "tail -F" does: at its end it waits for the
// file to grow; when the file is truncated it reads again from its start;
// when the name comes to stand for another file (a log rotated, or made
// anew) it reads the rest of the old one, then the new one from its start.
// It ends, as at the end of a file, when stop is closed. What is no
// regular file (a FIFO, a device) has no size to grow and cannot be read
// again: it is read as a pipe is, as it comes, to its end (a FIFO's
// writer closing it).
type follower struct {
	name   string
	f      *os.File
	stop   <-chan struct{}
	watch  *fsnotify.Watcher // nil when the system offers no notification
	off    int64
	stream bool // no regular file: read as it comes
}

// openFollow opens name to follow it until stop is closed.
func openFollow(name string, stop <-chan struct{}) (*follower, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	fl := &follower{name: name, f: f, stop: stop}
	if st, err := f.Stat(); err == nil && !st.Mode().IsRegular() {
		fl.stream = true
		return fl, nil
	}
	if w, err := fsnotify.NewWatcher(); err == nil {
		// The directory is watched, not the file: a rotated file's name
		// is made anew there.
		if w.Add(filepath.Dir(name)) == nil {
			fl.watch = w
		} else {
			w.Close()
		}
	}
	return fl, nil
}

// Read reads what the file holds past what was read, waiting for more at
// its end.
func (fl *follower) Read(p []byte) (int, error) {
	if fl.stream {
		return fl.f.Read(p)
	}
	for {
		n, err := fl.f.Read(p)
		fl.off += int64(n)
		if n > 0 {
			return n, nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, err
		}
		// At the end: has the file been truncated or replaced?
		if again, err := fl.reopen(); err != nil {
			return 0, err
		} else if again {
			continue
		}
		if !fl.wait() {
			// Stopped: what the file still holds is read first.
			n, err := fl.f.Read(p)
			fl.off += int64(n)
			if n > 0 {
				return n, nil
			}
			if err == nil {
				err = io.EOF
			}
			return 0, err
		}
	}
}

// reopen starts again when the file was truncated (from its start) or the
// name now stands for another file (that file, from its start). It
// reports whether there may be more to read.
func (fl *follower) reopen() (bool, error) {
	cur, err := fl.f.Stat()
	if err != nil {
		return false, err
	}
	if cur.Size() < fl.off {
		if _, err := fl.f.Seek(0, io.SeekStart); err != nil {
			return false, err
		}
		fl.off = 0
		return true, nil
	}
	st, err := os.Stat(fl.name)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil // rotated away, not made anew yet
	}
	if err != nil {
		return false, err
	}
	if os.SameFile(st, cur) {
		return false, nil
	}
	nf, err := os.Open(fl.name)
	if err != nil {
		return false, nil
	}
	fl.f.Close()
	fl.f, fl.off = nf, 0
	return true, nil
}

// wait waits for a change, a poll's interval or stop; it reports false
// when stopped.
func (fl *follower) wait() bool {
	t := time.NewTimer(followPoll)
	defer t.Stop()
	var events <-chan fsnotify.Event
	var errs <-chan error
	if fl.watch != nil {
		events, errs = fl.watch.Events, fl.watch.Errors
	}
	for {
		select {
		case <-fl.stop:
			return false
		case <-t.C:
			return true
		case ev, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			if filepath.Clean(ev.Name) == filepath.Clean(fl.name) {
				return true
			}
		case _, ok := <-errs:
			if !ok {
				errs = nil
			}
		}
	}
}

// Close closes the file and the watch.
func (fl *follower) Close() error {
	if fl.watch != nil {
		fl.watch.Close()
	}
	return fl.f.Close()
}
