package progress

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStart: no bar for a pipe or a buffer, for a small input, or when
// quiet; a nil bar takes every call.
func TestStart(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for _, tc := range []struct {
		w     io.Writer
		total int64
		quiet bool
	}{{w, Threshold, false}, {&bytes.Buffer{}, Threshold, false}, {w, 10, false}, {w, Threshold, true}} {
		if b := Start(tc.w, tc.total, "x", tc.quiet); b != nil {
			t.Errorf("%T %d %v: a bar", tc.w, tc.total, tc.quiet)
		}
	}
	var none *Bar
	none.Add(1)
	none.Describe("y")
	none.Finish()
}

// TestFile: the reader counts on the bar what it reads, reads the file
// whole, and reports a missing file on its first Read.
func TestFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "in")
	data := strings.Repeat("0102 13 29 9450:1 0\n", 1000)
	os.WriteFile(path, []byte(data), 0o644)
	var out bytes.Buffer
	b := New(&out, int64(len(data)), "reading", true)
	got, err := io.ReadAll(b.File(path))
	if err != nil || string(got) != data {
		t.Fatalf("read %d bytes, %v", len(got), err)
	}
	if n := b.pb.State().CurrentNum; n != int64(len(data)) {
		t.Errorf("bar at %d, want %d", n, len(data))
	}
	b.Finish()
	if !strings.Contains(out.String(), "reading") || !strings.HasSuffix(out.String(), "\r") {
		t.Errorf("bar output %q", out.String())
	}
	if _, err := b.File(path + ".missing").Read(make([]byte, 1)); !os.IsNotExist(err) {
		t.Errorf("missing file: %v", err)
	}
}
