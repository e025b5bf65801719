package outfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Stream is one output file written as it is made, for outputs too large
// to hold: the bytes go to a temporary file beside the target, which Commit
// renames into place and Abort removes, so the target is written whole or
// not at all.
type Stream struct {
	f    *os.File
	path string
	done bool
}

// Create starts the file path: a temporary file in its directory.
func Create(path string) (*Stream, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, err
	}
	return &Stream{f: f, path: path}, nil
}

// Write appends p to the temporary file.
func (s *Stream) Write(p []byte) (int, error) {
	n, err := s.f.Write(p)
	if err != nil {
		err = fmt.Errorf("writing %s: %w", s.path, err)
	}
	return n, err
}

// Commit closes the temporary file and renames it to the target. On error
// the temporary file is removed and the target left as it was.
func (s *Stream) Commit() error {
	if s.done {
		return errors.New("outfile: " + s.path + " was already committed or aborted")
	}
	s.done = true
	err := s.f.Close()
	if err == nil {
		err = os.Chmod(s.f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(s.f.Name(), s.path)
	}
	if err != nil {
		os.Remove(s.f.Name())
		return fmt.Errorf("writing %s: %w", s.path, err)
	}
	return nil
}

// Abort removes the temporary file, unless Commit or Abort came before. It
// may be called on a nil Stream (no file), so that it can be deferred.
func (s *Stream) Abort() {
	if s == nil || s.done {
		return
	}
	s.done = true
	s.f.Close()
	os.Remove(s.f.Name())
}
