package tree

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tracekit/tracekit/lower/dialect"
)

// traced builds testdata/family.c and traces it with the real strace -f;
// it skips when gcc or strace is absent (never under CI, which has both).
func traced(t *testing.T) []byte {
	t.Helper()
	for _, tool := range []string{"gcc", "strace"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is absent under CI", tool)
			}
			t.Skipf("%s is absent; skipping", tool)
		}
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "family")
	if out, err := exec.Command("gcc", "-O1", "-pthread", "-o", bin, "testdata/family.c").CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	log := filepath.Join(dir, "family.strace")
	if out, err := exec.Command("strace", "-f", "-s", "256", "-o", log, bin).CombinedOutput(); err != nil {
		t.Skipf("strace cannot trace here: %v\n%s", err, out)
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestFamily: the tree of a workload with a thread, a child that execs
// "sh -c 'exit 3'" and a child killed by SIGTERM, traced by the real strace:
// every edge and how each ended, as the workload makes them; in JSON too.
func TestFamily(t *testing.T) {
	data := traced(t)
	tr := New()
	sum, err := dialect.Records(context.Background(), dialect.Options{Dialect: "strace"},
		[]dialect.Input{{Name: "family.strace", Reader: bytes.NewReader(data)}}, tr, nil)
	if err != nil || sum.Incomplete() {
		t.Fatalf("%v %s\n%s", err, sum, data)
	}
	roots := tr.Roots(false)
	if len(roots) != 1 {
		t.Fatalf("%d roots, want the program alone", len(roots))
	}
	root := roots[0]
	if len(root.Argv) != 1 || filepath.Base(root.Argv[0]) != "family" || root.Exit == nil || *root.Exit != 0 {
		t.Errorf("root: argv %q exit %v", root.Argv, root.Exit)
	}
	if len(root.Kids) != 2 {
		t.Fatalf("root has %d children, want the two forks", len(root.Kids))
	}
	sh, killed := root.Kids[0], root.Kids[1]
	if !slices.Equal(sh.Argv, []string{"sh", "-c", "exit 3"}) || sh.Exit == nil || *sh.Exit != 3 || sh.PPID != root.PID {
		t.Errorf("first child: argv %q exit %v ppid %d", sh.Argv, sh.Exit, sh.PPID)
	}
	if killed.Signal != "SIGTERM" || killed.PPID != root.PID {
		t.Errorf("second child: signal %q ppid %d", killed.Signal, killed.PPID)
	}
	roots = tr.Roots(true)
	var threads []*Node
	for _, k := range roots[0].Kids {
		if k.Thread {
			threads = append(threads, k)
		}
	}
	if len(roots) != 1 || len(threads) != 1 || threads[0].PID != root.PID {
		t.Errorf("with threads: %d roots, %d threads under the program", len(roots), len(threads))
	}
	var b bytes.Buffer
	if err := Write(&b, "json", roots); err != nil {
		t.Fatal(err)
	}
	var n int
	for _, l := range bytes.Split(bytes.TrimSpace(b.Bytes()), []byte("\n")) {
		var obj map[string]any
		if err := json.Unmarshal(l, &obj); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		for _, k := range []string{"pid", "ppid", "tid", "argv", "start_ns", "end_ns", "exit", "signal", "calls"} {
			if _, ok := obj[k]; !ok {
				t.Errorf("node %q lacks %s", l, k)
			}
		}
		n++
	}
	if n != 4 {
		t.Errorf("%d JSON nodes, want 4", n)
	}
}
