// Package corpus finds the shared reference material (the folder "shared"
// beside the repository checkout: specifications and real files from public
// sources) for tests and benchmarks. The material is never copied into the
// repository; a test that needs it calls Path, which skips the test, saying
// so, when the folder is absent.
package corpus

import (
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
