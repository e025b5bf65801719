// Package progress shows a progress bar on standard error while a command
// works through a large input, when standard error is a terminal and the
// user did not ask for quiet. It wraps github.com/schollz/progressbar.
package progress

import (
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Threshold is the input size, in bytes, from which a bar is shown: below
// it a run is over too soon for a bar to tell anything.
const Threshold = 32 << 20

// Bar is a progress bar. A nil *Bar shows nothing, so that callers need
// not ask whether one is shown.
type Bar struct {
	pb   *progressbar.ProgressBar
	done bool
}

// Start returns a bar counting total bytes, described by desc, on w: nil
// unless w is a terminal, total is at least Threshold and quiet is false.
func Start(w io.Writer, total int64, desc string, quiet bool) *Bar {
	if !Show(w, total, quiet) {
		return nil
	}
	return New(w, total, desc, true)
}

// Show reports whether a bar is shown for an input of total bytes on w:
// when w is a terminal, total is at least Threshold and quiet is false.
func Show(w io.Writer, total int64, quiet bool) bool {
	return !quiet && total >= Threshold && IsTerminal(w)
}

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// New returns a bar on w whatever w is: of total bytes when bytes is true,
// else of total steps.
func New(w io.Writer, total int64, desc string, bytes bool) *Bar {
	return &Bar{pb: progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowBytes(bytes),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetWidth(30),
	)}
}

// Add counts n more bytes or steps done.
func (b *Bar) Add(n int64) {
	if b != nil {
		b.pb.Add64(n)
	}
}

// Describe changes the description, for a bar of steps.
func (b *Bar) Describe(desc string) {
	if b != nil {
		b.pb.Describe(desc)
	}
}

// Finish ends the bar and clears its line; later calls do nothing.
func (b *Bar) Finish() {
	if b != nil && !b.done {
		b.done = true
		b.pb.Finish()
	}
}

// File returns a reader of the named file that opens it on the first Read,
// closes it at its end or first error, and counts what it reads on the bar.
// Opened lazily, many inputs never hold many descriptors at once.
func (b *Bar) File(name string) io.Reader {
	return &file{name: name, bar: b}
}

// file is the reader File returns.
type file struct {
	name string
	bar  *Bar
	f    *os.File
	done bool
}

func (r *file) Read(p []byte) (int, error) {
	if r.done {
		return 0, io.EOF
	}
	if r.f == nil {
		f, err := os.Open(r.name)
		if err != nil {
			r.done = true
			return 0, err
		}
		r.f = f
	}
	n, err := r.f.Read(p)
	r.bar.Add(int64(n))
	if err != nil {
		r.done = true
		r.f.Close()
	}
	return n, err
}

// Clear clears the bar's line, so that a message can be printed on a
// clean line; the bar is drawn again on its next step.
func (b *Bar) Clear() {
	if b != nil && !b.done {
		b.pb.Clear()
	}
}
