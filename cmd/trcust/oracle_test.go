package main

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
)

// needsTDF says why a case cannot be run before the TDF back end exists:
// it writes a TDF, or its messages come from reading the module, the MAP
// file or the RPN program.
func needsTDF(c corpus.OracleCase) string {
	for name := range c.Outputs {
		if strings.EqualFold(filepath.Ext(name), ".TDF") {
			return "it writes a TDF"
		}
	}
	switch c.Case {
	case "e11_nosym", "d53_regsym", "d59b_casesens":
		return "symbol lookup in the MAP file (79)"
	case "d55_linenum":
		return "debug information (91)"
	case "d61_opcmismatch":
		return "the opcode in the module (77)"
	case "d63_regs17":
		return "the RPN stack (97)"
	case "e28b_rpn255":
		return "the RPN length (83)"
	case "d68_nomap":
		return "symbol information (39)"
	case "e26w0", "e26w1", "e26w2":
		return "a valid dynamic tracepoint (TRCUST 3.05A writes no TDF here, see docs)"
	}
	if strings.HasPrefix(c.Case, "d") {
		return "dynamic tracepoints"
	}
	return ""
}

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
			if why := needsTDF(c); why != "" {
				t.Skipf("needs the TDF back end: %s", why)
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
}
