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
	target := filepath.Join(dir, "out.jsonl")
	s, err := Create(target)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Write([]byte("a\n")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Fatalf("target exists before Commit: %v", err)
	}
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	s.Abort() // no effect after Commit
	if data, err := os.ReadFile(target); err != nil || string(data) != "a\n" {
		t.Fatalf("%q, %v", data, err)
	}
	s, err = Create(target)
	if err != nil {
		t.Fatal(err)
	}
	s.Write([]byte("b\n"))
	s.Abort()
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("left behind: %v", entries)
	}
	if data, _ := os.ReadFile(target); string(data) != "a\n" {
		t.Fatalf("aborted stream changed the target: %q", data)
	}
	if _, err := Create(filepath.Join(dir, "missing", "x")); err == nil {
		t.Fatal("Create in a missing directory succeeded")
	}
}
