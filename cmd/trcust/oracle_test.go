package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
)

// teeWriter writes to the console buffer and to its own.
type teeWriter struct{ console, own *bytes.Buffer }

func (w teeWriter) Write(p []byte) (int, error) {
	w.console.Write(p)
	return w.own.Write(p)
}

// TestOracle runs the TRCUST command line on every oracle case that needs
// no TDF, in a temporary directory holding a copy of its inputs, and
// compares the exit status, the console text (stdout and stderr as they
// interleave), stderr alone, and every file written, byte for byte. The
// path prefix of "Using ..." lines is the ".\" the README describes, and
// trcust prints the same for files in the current directory.
func TestOracle(t *testing.T) {
	dir, cases := corpus.Oracle(t)
	ran := 0
	for _, c := range cases {
		t.Run(c.Case, func(t *testing.T) {
			switch c.Case {
			case "e26d_dupallowed":
				t.Skip("under /D TRCUST 3.05A writes a malformed TFF for the duplicate minor; trcust writes a valid one (docs/compatibility.md)")
			}
			tmp := t.TempDir()
			copyFile := func(from, to string) {
				data, err := os.ReadFile(from)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(tmp, to), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, in := range c.Inputs {
				copyFile(filepath.Join(dir, c.Case, in), in)
			}
			if c.UsesEmitrep {
				copyFile(filepath.Join(dir, "..", "lx", "osfree_emitrep.dll"), "emitrep.dll")
				copyFile(filepath.Join(dir, "..", "lx", "osfree_emitrep.map"), "emitrep.map")
			}
			t.Chdir(tmp)
			var console, stdout, stderr bytes.Buffer
			status := run(c.Args, teeWriter{&console, &stdout}, teeWriter{&console, &stderr})
			// x_h11 and x_h26 (corpus.OracleDefect) are compared as any
			// case: trcust reproduces them, tracekit compile does not
			// (docs/compatibility.md).
			if status != c.Exit {
				t.Errorf("exit status %d, want %d", status, c.Exit)
			}
			want, err := os.ReadFile(filepath.Join(dir, c.Case, "console.txt"))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(console.Bytes(), want) {
				t.Errorf("console differs\n--- trcust\n%q\n--- TRCUST 3.05A\n%q", console.String(), want)
			}
			wantErr, _ := os.ReadFile(filepath.Join(dir, c.Case, "stderr.txt"))
			if !bytes.Equal(stderr.Bytes(), wantErr) {
				t.Errorf("stderr %q, want %q", stderr.String(), wantErr)
			}
			var got, wantFiles []string
			entries, _ := os.ReadDir(tmp)
			for _, e := range entries {
				got = append(got, e.Name())
			}
			wantFiles = append(wantFiles, c.Inputs...)
			if c.UsesEmitrep {
				wantFiles = append(wantFiles, "emitrep.dll", "emitrep.map")
			}
			for out := range c.Outputs {
				wantFiles = append(wantFiles, out)
				data, err := os.ReadFile(filepath.Join(tmp, out))
				if err != nil {
					t.Errorf("output %s: %v", out, err)
					continue
				}
				ref, _ := os.ReadFile(filepath.Join(dir, c.Case, out))
				if !bytes.Equal(data, ref) {
					t.Errorf("output %s differs from TRCUST's", out)
				}
			}
			sort.Strings(got)
			sort.Strings(wantFiles)
			if strings.Join(got, " ") != strings.Join(wantFiles, " ") {
				t.Errorf("files after the run: %v, want %v", got, wantFiles)
			}
			ran++
		})
	}
	t.Logf("%d oracle cases matched byte for byte", ran)
	// Every case but the one skipped above.
	if want := len(cases) - 1; ran != want && !t.Failed() {
		t.Errorf("%d cases matched, want %d", ran, want)
	}
}

// TestTracepointLimit runs trcust on TSFs of as many tracepoints as
// TRCUST 3.05A keeps and more (testdata/tplimit/README.md): 65,503 are
// fatal 7 at the line after the last, and nothing is written.
func TestTracepointLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds TSFs of 65,503 tracepoints")
	}
	dirs, err := filepath.Glob(filepath.Join("testdata", "tplimit", "[0-9]*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no cases in testdata/tplimit (%v)", err)
	}
	for _, dir := range dirs {
		n, err := strconv.Atoi(filepath.Base(dir))
		if err != nil {
			t.Fatal(err)
		}
		src := []byte("MODNAME = x.dll\nMAJOR = 0x42\n")
		for i := 1; i <= n; i++ {
			src = fmt.Appendf(src, "TRACE MINOR=0x%04X, TP=@STATIC, DESC=\"d\"\n", i%65536)
		}
		want := savedResult(t, dir)
		if len(want.Console) == 0 {
			t.Fatalf("%s: no console.txt", dir)
		}
		got := runOurs(t, map[string][]byte{"big.tsf": src}, false, nil, nil, []string{"big.tsf"})
		if d := compareResults(want, got); len(d) > 0 {
			t.Errorf("%d tracepoints: differs from TRCUST 3.05A in %v\n--- TRCUST 3.05A (exit %d)\n%s--- trcust (exit %d)\n%s", n, d, want.RC, want.Console, got.RC, got.Console)
		}
	}
}
