package main

import (
	"os"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/tracekit/tracekit/cmd/internal/progress"
)

// signals is how a run ends on SIGINT, SIGTERM or SIGHUP: the temporary
// files of its outputs are removed, its progress bar cleared, and it exits
// with 128 + the signal's number. A command that reads until told to stop
// (records --follow) sets a soft stop: the first signal ends its input and
// the run finishes as at the end of a file; a second one ends it hard.
type signals struct {
	e    *env
	exit func(int)

	mu   sync.Mutex
	bar  *progress.Bar
	soft func()
	// ended says that a signal is ending the run: its outputs are gone,
	// and no summary of what they held is printed (reporter.end).
	ended atomic.Bool
}

func newSignals(e *env, exit func(int)) *signals {
	return &signals{e: e, exit: exit}
}

// watch handles the signals from sig until stop is closed.
func (s *signals) watch(sig <-chan os.Signal, stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case v := <-sig:
			s.mu.Lock()
			soft := s.soft
			s.soft = nil
			s.mu.Unlock()
			if soft != nil {
				soft()
				continue
			}
			s.ended.Store(true)
			s.e.outs.Abort()
			s.clearBar()
			n := 1
			if sn, ok := v.(syscall.Signal); ok {
				n = int(sn)
			}
			s.exit(exitSignal + n)
			return
		}
	}
}

// setBar makes b the bar a signal or a diagnostic clears.
func (s *signals) setBar(b *progress.Bar) {
	s.mu.Lock()
	s.bar = b
	s.mu.Unlock()
}

// clearBar clears the progress bar's line, if one is shown; the bar
// draws itself again on its next step.
func (s *signals) clearBar() {
	s.mu.Lock()
	b := s.bar
	s.mu.Unlock()
	b.Clear()
}

// setSoft sets the soft stop of the next signal (nil: none).
func (s *signals) setSoft(fn func()) {
	s.mu.Lock()
	s.soft = fn
	s.mu.Unlock()
}
