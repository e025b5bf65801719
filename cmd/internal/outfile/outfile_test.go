package outfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// entries lists the names in dir.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestRegularReplacedWhole(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "out.json")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := NewRun(nil)
	f, err := r.Create(target)
	if err != nil {
		t.Fatal(err)
	}
	if f.Kind() != KindReplace {
		t.Errorf("kind %v", f.Kind())
	}
	f.Write([]byte("new"))
	if data, _ := os.ReadFile(target); string(data) != "old" {
		t.Errorf("target changed before Commit: %q", data)
	}
	if len(r.Pending()) != 1 {
		t.Errorf("pending %v", r.Pending())
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(target)
	st, _ := os.Stat(target)
	if string(data) != "new" || st.Mode().Perm() != 0o600 {
		t.Errorf("%q %v, want \"new\" -rw-------", data, st.Mode())
	}
	if got := entries(t, dir); len(got) != 1 || len(r.Pending()) != 0 {
		t.Errorf("left %v, pending %v", got, r.Pending())
	}
}

func TestAbortLeavesTarget(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "t")
	r := NewRun(nil)
	f, _ := r.Create(target)
	f.Write([]byte("half"))
	f.Abort()
	f.Abort()
	if got := entries(t, dir); len(got) != 0 {
		t.Errorf("Abort left %v", got)
	}
	var none *File
	none.Abort()
}

func TestRunAbortRemovesPending(t *testing.T) {
	dir := t.TempDir()
	r := NewRun(nil)
	a, _ := r.Create(filepath.Join(dir, "a"))
	b, _ := r.Create(filepath.Join(dir, "b"))
	a.Write([]byte("x"))
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	r.Abort()
	if got := entries(t, dir); len(got) != 1 || got[0] != "b" {
		t.Errorf("after Abort: %v, want [b]", got)
	}
	if err := a.Commit(); !errors.Is(err, ErrAborted) {
		t.Errorf("Commit after Abort: %v", err)
	}
	if _, err := r.Create(filepath.Join(dir, "c")); !errors.Is(err, ErrAborted) {
		t.Errorf("Create after Abort: %v", err)
	}
}

func TestSymlinkFollowed(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "real")
	os.Mkdir(sub, 0o755)
	target := filepath.Join(sub, "data.json")
	os.WriteFile(target, []byte("old"), 0o640)
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink("real/data.json", link); err != nil {
		t.Fatal(err)
	}
	r := NewRun(nil)
	f, err := r.Create(link)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("new"))
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", st.Mode(), err)
	}
	data, _ := os.ReadFile(target)
	st, _ := os.Stat(target)
	if string(data) != "new" || st.Mode().Perm() != 0o640 {
		t.Errorf("target %q %v", data, st.Mode())
	}
	// A dangling link names the file to create.
	dangling := filepath.Join(dir, "dangling")
	os.Symlink(filepath.Join(sub, "fresh"), dangling)
	f, _ = r.Create(dangling)
	f.Write([]byte("fresh"))
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(sub, "fresh")); string(data) != "fresh" {
		t.Errorf("dangling link target %q", data)
	}
	// A loop is an error, not a hang.
	loop := filepath.Join(dir, "loop")
	os.Symlink("loop", loop)
	if _, err := r.Create(loop); !errors.Is(err, syscall.ELOOP) {
		t.Errorf("loop: %v", err)
	}
}

func TestFIFOWrittenInPlace(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	want := bytes.Repeat([]byte("0123456789abcdef"), 64<<10) // 1 MiB: more than a pipe holds
	got := make(chan []byte)
	go func() {
		rf, err := os.Open(fifo)
		if err != nil {
			got <- nil
			return
		}
		data, _ := io.ReadAll(rf)
		rf.Close()
		got <- data
	}()
	r := NewRun(nil)
	f, err := r.Create(fifo)
	if err != nil {
		t.Fatal(err)
	}
	if f.Kind() != KindInPlace {
		t.Errorf("kind %v", f.Kind())
	}
	if _, err := f.Write(want); err != nil {
		t.Fatal(err)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if data := <-got; !bytes.Equal(data, want) {
		t.Errorf("the reader got %d bytes, want %d", len(data), len(want))
	}
	if st, _ := os.Lstat(fifo); st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO became %v", st.Mode())
	}
	if got := entries(t, dir); len(got) != 1 {
		t.Errorf("files %v", got)
	}
}

func TestDevicesStayDevices(t *testing.T) {
	r := NewRun(nil)
	f, err := r.Create("/dev/null")
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("gone"))
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Lstat("/dev/null"); st.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("/dev/null is now %v", st.Mode())
	}
	if _, err := os.Stat("/dev/full"); err != nil {
		return
	}
	f, err = r.Create("/dev/full")
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.Write([]byte("x"))
	var oe *Error
	if !errors.As(err, &oe) || !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("/dev/full: %v, want an *Error of ENOSPC", err)
	}
	f.Abort()
	if st, _ := os.Lstat("/dev/full"); st.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("/dev/full is now %v", st.Mode())
	}
}

func TestSocketWrittenInPlace(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "s")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skip("no unix sockets:", err)
	}
	defer l.Close()
	got := make(chan string)
	go func() {
		c, err := l.Accept()
		if err != nil {
			got <- ""
			return
		}
		data, _ := io.ReadAll(c)
		got <- string(data)
	}()
	f, err := NewRun(nil).Create(sock)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("hello"))
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "hello" {
		t.Errorf("socket got %q", s)
	}
}

func TestStdout(t *testing.T) {
	var buf bytes.Buffer
	dir := t.TempDir()
	t.Chdir(dir)
	f, err := NewRun(&buf).Create("-")
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("out"))
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "out" || f.Kind() != KindStdout {
		t.Errorf("%q %v", buf.String(), f.Kind())
	}
	if got := entries(t, dir); len(got) != 0 {
		t.Errorf("made %v (a file named -?)", got)
	}
}

func TestCreateErrors(t *testing.T) {
	dir := t.TempDir()
	r := NewRun(nil)
	for _, name := range []string{dir, filepath.Join(dir, "no", "such", "x")} {
		_, err := r.Create(name)
		var oe *Error
		if !errors.As(err, &oe) || oe.Name != name {
			t.Errorf("%s: %v, want an *Error naming it", name, err)
		}
		if err != nil && strings.Contains(err.Error(), ".tmp") {
			t.Errorf("%s: the message names a temporary file: %v", name, err)
		}
	}
}

// TestCheck: Check refuses what Create would (a directory, a folder
// missing, also behind a symbolic link), accepts a file to make or
// replace and standard output, and creates nothing.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "old")
	if err := os.WriteFile(existing, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "link")
	if err := os.Symlink(filepath.Join(dir, "no", "x"), dangling); err != nil {
		t.Fatal(err)
	}
	for name, ok := range map[string]bool{
		dir:                           false,
		filepath.Join(dir, "no", "x"): false,
		dangling:                      false,
		filepath.Join(dir, "new"):     true,
		existing:                      true,
		Stdout:                        true,
	} {
		err := Check(name)
		var oe *Error
		if ok && err != nil || !ok && !(errors.As(err, &oe) && oe.Name == name) {
			t.Errorf("Check(%s) = %v, want ok %v", name, err, ok)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("Check made files: %v", entries)
	}
}

func TestWriteAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	r := NewRun(nil)
	err := r.WriteAll(Data{filepath.Join(dir, "a"), []byte("A")}, Data{filepath.Join(dir, "no", "b"), []byte("B")})
	if err == nil {
		t.Fatal("no error for a missing directory")
	}
	if got := entries(t, dir); len(got) != 0 {
		t.Errorf("left %v", got)
	}
	s := r.NewSet()
	s.Add(filepath.Join(dir, "a"), []byte("A"))
	s.Add(filepath.Join(dir, "b"), []byte("B"))
	s.Add("/dev/null", []byte("N"))
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := entries(t, dir); len(got) != 2 {
		t.Errorf("files %v, want a b", got)
	}
	var zero Set
	zero.Add(filepath.Join(dir, "c"), []byte("C"))
	if err := zero.Commit(); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "c")); string(data) != "C" {
		t.Errorf("zero Set wrote %q", data)
	}
	if p := s.Paths(); len(p) != 3 {
		t.Errorf("Paths %v", p)
	}
}

// TestAbortDuringCreate: Abort, as a signal handler calls it just before
// the process exits, leaves no temporary file behind, also one whose
// Create is under way (created on disk, not yet registered) when it runs.
func TestAbortDuringCreate(t *testing.T) {
	for round := range 50 {
		dir := t.TempDir()
		r := NewRun(io.Discard)
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if f, err := r.Create(filepath.Join(dir, fmt.Sprintf("out%d", i))); err == nil {
					f.Write([]byte("x"))
				}
			}()
		}
		time.Sleep(time.Duration(round%5) * 50 * time.Microsecond)
		r.Abort()
		// What the process would leave if it exited now.
		if names := entries(t, dir); len(names) != 0 {
			t.Fatalf("round %d: left %v after Abort", round, names)
		}
		wg.Wait()
	}
}
