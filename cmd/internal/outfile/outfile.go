// Package outfile is the one place tracekit's commands write their output
// files. A name given by the user is one of:
//
//   - "-": standard output, written as it comes;
//   - a FIFO, a character or block device, or a socket: written in place
//     (opened, or for a socket connected to, never created or replaced),
//     so that /dev/null stays a device and a reader of a FIFO gets every
//     byte;
//   - a regular file, or a name that does not exist yet: written to a
//     temporary file in the target's own directory and renamed over it
//     (with fsync) only when the run succeeds, keeping the permissions of a
//     file it replaces, so that a failed or interrupted run never leaves a
//     partial file and a makefile never finds a fresh-looking target.
//
// A symbolic link is followed: the file it points to is what is written or
// replaced, in that file's directory; the link stays a link.
//
// Every file is opened through a Run, which knows the temporary files not
// yet renamed: Run.Abort removes them all, from the handler of a signal or
// a panic. Errors of writing an output are *Error, so that a command can
// tell them from errors of its input (exit status 3, not 1).
package outfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"sync"
	"syscall"

	"github.com/google/renameio/v2"
)

// Stdout is the name that stands for standard output.
const Stdout = "-"

// Kind is how an output is written.
type Kind int

// The kinds of output.
const (
	KindStdout  Kind = iota // standard output
	KindReplace             // a regular file, replaced whole by a temporary file's rename
	KindInPlace             // a FIFO, device or socket, written as it is
)

// String names the kind.
func (k Kind) String() string {
	switch k {
	case KindStdout:
		return "standard output"
	case KindReplace:
		return "regular file"
	case KindInPlace:
		return "written in place"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Error is an output that could not be opened or written: the name as the
// user gave it, and why.
type Error struct {
	Name string
	Err  error
}

// Error says which output failed and why.
func (e *Error) Error() string {
	var pe *fs.PathError
	if errors.As(e.Err, &pe) {
		return fmt.Sprintf("writing %s: %v", e.Name, pe.Err)
	}
	return fmt.Sprintf("writing %s: %v", e.Name, e.Err)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// ErrAborted is the cause of an Error after Run.Abort.
var ErrAborted = errors.New("the run was interrupted")

// maxLinks bounds the symbolic links followed from one name, as the
// kernel's ELOOP does.
const maxLinks = 40

// Run is the set of outputs of one command run. The zero Run writes "-" to
// os.Stdout; NewRun names the standard output to use.
type Run struct {
	stdout io.Writer

	mu      sync.Mutex
	pending map[*File]struct{}
	aborted bool
	// creating counts the temporary files being created, not yet in
	// pending: Abort waits for them (created), so that none is left
	// behind when the process exits right after it.
	creating int
	created  *sync.Cond
}

// NewRun returns a Run whose "-" is stdout.
func NewRun(stdout io.Writer) *Run {
	return &Run{stdout: stdout}
}

// Abort removes every temporary file not yet renamed into place and makes
// later Creates and Commits fail with ErrAborted. It is safe to call from
// another goroutine (a signal handler) while files are being written: a
// Commit either completed before it or fails.
func (r *Run) Abort() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.aborted = true
	for f := range r.pending {
		f.pf.Cleanup()
		f.done = true
	}
	r.pending = nil
	// A temporary file created on disk but not yet registered is removed
	// by its Create, which sees aborted; wait for it.
	for r.creating > 0 {
		r.cond().Wait()
	}
}

// cond returns the condition Abort waits on; r.mu is held.
func (r *Run) cond() *sync.Cond {
	if r.created == nil {
		r.created = sync.NewCond(&r.mu)
	}
	return r.created
}

// Pending returns the temporary files not yet renamed, for tests.
func (r *Run) Pending() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var names []string
	for f := range r.pending {
		names = append(names, f.pf.Name())
	}
	return names
}

// File is one output on its way.
type File struct {
	run    *Run
	name   string // as given
	target string // the file written: name with symbolic links resolved
	kind   Kind
	w      io.Writer
	closer io.Closer             // KindInPlace
	pf     *renameio.PendingFile // KindReplace
	done   bool
}

// Create opens the output name. Nothing visible changes for a regular file
// until Commit.
func (r *Run) Create(name string) (*File, error) {
	r.mu.Lock()
	aborted := r.aborted
	r.mu.Unlock()
	if aborted {
		return nil, &Error{name, ErrAborted}
	}
	f := &File{run: r, name: name}
	if name == Stdout {
		f.kind, f.w = KindStdout, r.stdout
		if f.w == nil {
			f.w = os.Stdout
		}
		return f, nil
	}
	target, st, err := inspect(name)
	if err != nil {
		return nil, err
	}
	f.target = target
	switch {
	case st != nil && st.Mode()&fs.ModeSocket != 0:
		c, err := net.Dial("unix", target)
		if err != nil {
			return nil, &Error{name, err}
		}
		f.kind, f.w, f.closer = KindInPlace, c, c
		return f, nil
	case st != nil && !st.Mode().IsRegular():
		// A FIFO or a device: opened as it is; O_TRUNC means nothing to
		// either, and nothing is created.
		of, err := os.OpenFile(target, os.O_WRONLY, 0)
		if err != nil {
			return nil, &Error{name, err}
		}
		f.kind, f.w, f.closer = KindInPlace, of, of
		return f, nil
	}
	dir := filepath.Dir(target)
	r.mu.Lock()
	if r.aborted {
		r.mu.Unlock()
		return nil, &Error{name, ErrAborted}
	}
	r.creating++
	r.mu.Unlock()
	pf, err := renameio.NewPendingFile(target,
		renameio.WithTempDir(dir),
		renameio.WithPermissions(0o666), // less the umask, as for any new file
		renameio.WithExistingPermissions())
	r.mu.Lock()
	defer r.mu.Unlock()
	defer func() {
		r.creating--
		r.cond().Broadcast()
	}()
	if err != nil {
		return nil, &Error{name, err}
	}
	f.kind, f.w, f.pf = KindReplace, pf, pf
	if r.aborted {
		pf.Cleanup()
		return nil, &Error{name, ErrAborted}
	}
	if r.pending == nil {
		r.pending = make(map[*File]struct{})
	}
	r.pending[f] = struct{}{}
	return f, nil
}

// inspect finds the file name stands for (resolve) and says, as an
// *Error, why Create cannot open it when that can be told without
// creating anything: a directory in its place, or, for a file that is not
// there yet, its folder missing. st is nil for a file to be created.
func inspect(name string) (target string, st fs.FileInfo, err error) {
	target, err = resolve(name)
	if err != nil {
		return "", nil, &Error{name, err}
	}
	st, err = os.Stat(target)
	switch {
	case err == nil && st.IsDir():
		return "", nil, &Error{name, errors.New("is a directory")}
	case err == nil:
		return target, st, nil
	case !errors.Is(err, fs.ErrNotExist):
		return "", nil, &Error{name, err}
	}
	dir := filepath.Dir(target)
	if st, err := os.Stat(dir); err != nil {
		return "", nil, &Error{name, fmt.Errorf("directory %s: %w", dir, errors.Unwrap(err))}
	} else if !st.IsDir() {
		return "", nil, &Error{name, fmt.Errorf("%s is not a directory", dir)}
	}
	return target, nil, nil
}

// Check says, as an *Error, why Create would fail for name, as far as it
// can be told without creating anything (inspect). A command that must
// refuse early, before it reads its inputs, checks first and creates at
// the end.
func Check(name string) error {
	if name == Stdout {
		return nil
	}
	_, _, err := inspect(name)
	return err
}

// resolve follows the symbolic links of name to the file they end at,
// which need not exist yet (a dangling link names the file to create).
func resolve(name string) (string, error) {
	p := name
	for range maxLinks {
		st, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return p, nil
		}
		if err != nil {
			return "", err
		}
		if st.Mode()&fs.ModeSymlink == 0 {
			return p, nil
		}
		link, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(p), link)
		}
		p = link
	}
	return "", &fs.PathError{Op: "open", Path: name, Err: syscall.ELOOP}
}

// Name returns the name as given.
func (f *File) Name() string { return f.name }

// Kind says how the file is written.
func (f *File) Kind() Kind { return f.kind }

// Write writes p to the output; an error is an *Error.
func (f *File) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if err != nil {
		err = &Error{f.name, err}
	}
	return n, err
}

// Commit ends the output: a regular file is synced and renamed into place,
// a FIFO, device or socket closed; standard output is left open. After an
// error no target was created or changed (but what was written in place
// stays written).
func (f *File) Commit() error {
	switch f.kind {
	case KindStdout:
		f.done = true
		return nil
	case KindInPlace:
		if f.done {
			return nil
		}
		f.done = true
		if err := f.closer.Close(); err != nil {
			return &Error{f.name, err}
		}
		return nil
	}
	r := f.run
	r.mu.Lock()
	defer r.mu.Unlock()
	if f.done {
		if r.aborted {
			return &Error{f.name, ErrAborted}
		}
		return nil
	}
	f.done = true
	delete(r.pending, f)
	if err := f.pf.CloseAtomicallyReplace(); err != nil {
		f.pf.Cleanup()
		return &Error{f.name, err}
	}
	return nil
}

// Abort drops the output: a regular file's temporary file is removed and
// its target left as it was; a FIFO, device or socket is closed. It may be
// called on a nil File and after Commit (it does nothing then), so that it
// can be deferred.
func (f *File) Abort() {
	if f == nil || f.done {
		return
	}
	f.done = true
	switch f.kind {
	case KindInPlace:
		f.closer.Close()
	case KindReplace:
		f.run.mu.Lock()
		delete(f.run.pending, f)
		f.run.mu.Unlock()
		f.pf.Cleanup()
	}
}

// Data is one output held whole in memory.
type Data struct {
	Name  string
	Bytes []byte
}

// WriteAll writes several outputs all or nothing: the regular files are
// written to temporary files first, then the FIFOs and devices, then the
// regular files renamed into place. When one cannot be written, no regular
// target is created or changed.
func (r *Run) WriteAll(outs ...Data) (err error) {
	files := make([]*File, len(outs))
	defer func() {
		for _, f := range files {
			f.Abort()
		}
	}()
	for i, o := range outs {
		if files[i], err = r.Create(o.Name); err != nil {
			return err
		}
	}
	for _, inPlace := range []bool{false, true} {
		for i, f := range files {
			if (f.kind == KindReplace) == inPlace {
				continue
			}
			if _, err := f.Write(outs[i].Bytes); err != nil {
				return err
			}
		}
	}
	for _, f := range files {
		if err := f.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// Set is a set of outputs to write together, all or nothing. The zero Set
// writes through a Run of its own; a command that handles signals gives
// the Run it aborts (Run.NewSet).
type Set struct {
	run  *Run
	outs []Data
}

// NewSet returns an empty Set written through r.
func (r *Run) NewSet() *Set { return &Set{run: r} }

// Add schedules data to be written to name.
func (s *Set) Add(name string, data []byte) {
	s.outs = append(s.outs, Data{name, data})
}

// Paths returns the names scheduled, in the order they were added.
func (s *Set) Paths() []string {
	var out []string
	for _, o := range s.outs {
		out = append(out, o.Name)
	}
	return out
}

// Commit writes every output scheduled (Run.WriteAll).
func (s *Set) Commit() error {
	r := s.run
	if r == nil {
		r = NewRun(nil)
	}
	return r.WriteAll(s.outs...)
}

// Wrap returns a writer that writes to w and reports its errors as *Error
// naming name: what a command writes to standard output, so that a full
// disk or a closed pipe is told from a bad input.
func Wrap(name string, w io.Writer) io.Writer {
	return &wrapped{name, w}
}

type wrapped struct {
	name string
	w    io.Writer
}

func (w *wrapped) Write(p []byte) (int, error) {
	n, err := w.w.Write(p)
	if err != nil {
		err = &Error{w.name, err}
	}
	return n, err
}
