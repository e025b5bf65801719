// Package corpus finds the shared reference material (the folder "shared"
// beside the repository checkout: specifications and real files from public
// sources) for tests and benchmarks. The material is never copied into the
// repository; a test that needs it calls Path, which skips the test, saying
// so, when the folder is absent.
package corpus

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// Root returns the shared folder (../shared seen from the module root), or ""
// when it cannot be found.
func Root() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			shared := filepath.Join(dir, "..", "shared")
			if st, err := os.Stat(shared); err == nil && st.IsDir() {
				return shared
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Path joins elem to the shared folder and returns the result. It skips the
// test when the shared folder or the named file is absent.
func Path(tb testing.TB, elem ...string) string {
	tb.Helper()
	root := Root()
	if root == "" {
		tb.Skip("shared corpus (../shared beside the checkout) is absent; skipping")
	}
	p := filepath.Join(append([]string{root}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("shared corpus file %s is absent; skipping", p)
	}
	return p
}

// OracleCase is one case of the TRCUST oracle (corpus/os2/trcust-oracle):
// the command line IBM's TRCUST 3.05A ran, its exit status, its input files
// and the files it wrote.
type OracleCase struct {
	Case        string                     `json:"case"`
	Args        []string                   `json:"args"`
	Exit        int                        `json:"exit"`
	Inputs      []string                   `json:"inputs"`
	Outputs     map[string]json.RawMessage `json:"outputs"`
	UsesEmitrep bool                       `json:"uses_emitrep"`
}

// Oracle returns the oracle folder and its cases, from cases.json. It skips
// the test when the shared folder is absent.
func Oracle(tb testing.TB) (dir string, cases []OracleCase) {
	tb.Helper()
	dir = Path(tb, "corpus", "os2", "trcust-oracle")
	raw, err := os.ReadFile(filepath.Join(dir, "cases.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var idx struct{ Cases []OracleCase }
	if err := json.Unmarshal(raw, &idx); err != nil {
		tb.Fatalf("cases.json: %v", err)
	}
	if len(idx.Cases) == 0 {
		tb.Fatal("cases.json lists no case")
	}
	return dir, idx.Cases
}

// Defect is an oracle case where TRCUST 3.05A accepts what the reference
// forbids and tracekit keeps refusing it (docs/compatibility.md).
type Defect struct {
	Why string // what 3.05A does, and why tracekit does not follow
	// Message is what tracekit prints instead, as TRCUST prints a message:
	// "TRCUST(<line>) <SEVERITY>: <text>".
	Message string
	// Aborts is set when the message stops the run (exit status 1).
	Aborts bool
}

// OracleDefect returns the defect of an oracle case, if it is one. The
// conformance tests of tracekit's own pipeline (lower/tsfcompile,
// lower/tdfgen) check that tracekit gives the Message and writes nothing,
// instead of comparing with 3.05A's console and files; trcust, which does
// what TRCUST did, is compared with 3.05A on them as on any case.
func OracleDefect(name string) (Defect, bool) {
	switch name {
	case "x_h11_minor_range":
		return Defect{
			Why:     "3.05A keeps MINOR=70000 as its low 16 bits (0x1170) without a word; the reference's range is 1-65535 (message 68)",
			Message: "TRCUST(4) ERROR: minor code out of range",
		}, true
	case "x_h26_unclosed_comment":
		return Defect{
			Why:     "3.05A lets an unclosed comment swallow the rest of the file without a word and writes what came before it",
			Message: "TRCUST(5) SEVERE: unclosed comment",
			Aborts:  true,
		}, true
	}
	return Defect{}, false
}
