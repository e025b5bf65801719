// Package osfile finds files as OS/2 tools name them: OS/2 file systems
// ignore case, so MODNAME emitrep gives emitrep.DLL, TRACEFMT looks for
// TRC00C2.TFF, and a MAP file is EMITREP.MAP or emitrep.map alike. On a
// file system that keeps case, a name is matched against a directory's
// entries in any case.
package osfile

import (
	"os"
	"path/filepath"
	"strings"
)

// Find returns the path of the regular file named name in dir, matching
// the name in any case; an exact match wins.
func Find(dir, name string) (string, bool) {
	p := filepath.Join(dir, name)
	if st, err := os.Stat(p); err == nil && !st.IsDir() {
		return p, true
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", false
	}
	for _, e := range entries {
		if !e.IsDir() && strings.EqualFold(e.Name(), name) {
			return filepath.Join(dir, e.Name()), true
		}
	}
	return "", false
}
