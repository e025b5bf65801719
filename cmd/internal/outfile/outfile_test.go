package outfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCommitAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	var s Set
	s.Add(filepath.Join(dir, "a"), []byte("A"))
	s.Add(filepath.Join(dir, "no", "such", "b"), []byte("B"))
	if err := s.Commit(); err == nil {
		t.Fatal("no error for a missing directory")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left %d files behind", len(entries))
	}
	var ok Set
	ok.Add(filepath.Join(dir, "a"), []byte("A"))
	ok.Add(filepath.Join(dir, "b"), []byte("B"))
	if err := ok.Commit(); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"a", "b"} {
		data, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil || len(data) != 1 {
			t.Errorf("%s: %q %v", n, data, err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("%d files, want 2 (a temporary file left?)", len(entries))
	}
}

func TestStream(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "t.parquet")
	s, err := Create(target)
	if err != nil {
		t.Fatal(err)
	}
	s.Write([]byte("half"))
	if _, err := os.Stat(target); err == nil {
		t.Error("the target exists before Commit")
	}
	s.Abort()
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("Abort left %d files", len(entries))
	}
	s, _ = Create(target)
	s.Write([]byte("whole"))
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	s.Abort() // after Commit: nothing
	if data, err := os.ReadFile(target); err != nil || string(data) != "whole" {
		t.Errorf("%q %v", data, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files, want 1", len(entries))
	}
	if _, err := Create(filepath.Join(dir, "no", "such", "x")); err == nil {
		t.Error("Create in a missing directory succeeded")
	}
	var none *Stream
	none.Abort()
}
