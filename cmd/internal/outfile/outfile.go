// Package outfile writes a command's output files all or nothing: each is
// written to a temporary file in its own directory, and only when every one
// was written are they renamed into place. A run that fails never leaves a
// partial file behind, and a makefile never finds a fresh-looking target
// from a failed run.
package outfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Set is a set of files to write together. The zero Set is ready to use.
type Set struct {
	files []file
}

type file struct {
	path string
	data []byte
}

// Add schedules data to be written to path.
func (s *Set) Add(path string, data []byte) {
	s.files = append(s.files, file{path, data})
}

// Paths returns the paths scheduled, in the order they were added.
func (s *Set) Paths() []string {
	var out []string
	for _, f := range s.files {
		out = append(out, f.path)
	}
	return out
}

// Commit writes every file to a temporary file beside its target, then
// renames them all into place. On error no target is created or changed
// (unless a rename itself fails part way, which it reports) and every
// temporary file is removed.
func (s *Set) Commit() (err error) {
	var temps []string
	defer func() {
		if err != nil {
			for _, t := range temps {
				os.Remove(t)
			}
		}
	}()
	for _, f := range s.files {
		t, err := os.CreateTemp(filepath.Dir(f.path), "."+filepath.Base(f.path)+".*.tmp")
		if err != nil {
			return err
		}
		temps = append(temps, t.Name())
		_, werr := t.Write(f.data)
		cerr := t.Close()
		if err := errors.Join(werr, cerr); err != nil {
			return fmt.Errorf("writing %s: %w", f.path, err)
		}
		if err := os.Chmod(t.Name(), 0o644); err != nil {
			return err
		}
	}
	for i, f := range s.files {
		if err := os.Rename(temps[i], f.path); err != nil {
			return fmt.Errorf("writing %s: %w", f.path, err)
		}
	}
	temps = nil
	return nil
}

// Stream is one output file written as it is produced: to a temporary file
// beside the target, renamed into place by Commit, removed by Abort. Memory
// does not grow with the output, and a run that fails leaves nothing behind.
type Stream struct {
	path string
	tmp  *os.File
	done bool
}

// Create starts a Stream to path.
func Create(path string) (*Stream, error) {
	t, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, err
	}
	return &Stream{path: path, tmp: t}, nil
}

// Write writes to the temporary file.
func (s *Stream) Write(p []byte) (int, error) { return s.tmp.Write(p) }

// Commit closes the temporary file and renames it into place. After a
// failed Commit nothing is left behind.
func (s *Stream) Commit() error {
	if s.done {
		return errors.New("outfile: stream already finished")
	}
	s.done = true
	name := s.tmp.Name()
	err := s.tmp.Close()
	if err == nil {
		err = os.Chmod(name, 0o644)
	}
	if err == nil {
		err = os.Rename(name, s.path)
	}
	if err != nil {
		os.Remove(name)
		return fmt.Errorf("writing %s: %w", s.path, err)
	}
	return nil
}

// Abort removes the temporary file; it does nothing after Commit or Abort.
func (s *Stream) Abort() {
	if s.done {
		return
	}
	s.done = true
	s.tmp.Close()
	os.Remove(s.tmp.Name())
}
