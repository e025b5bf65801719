package osfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFind(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "emitrep.dll"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "EmitRep.Map"), nil, 0o644)
	os.Mkdir(filepath.Join(dir, "TRC0030.TFF"), 0o755)
	for _, tc := range []struct {
		name, want string
		ok         bool
	}{
		{"emitrep.dll", "emitrep.dll", true},
		{"emitrep.DLL", "emitrep.dll", true},
		{"EMITREP.MAP", "EmitRep.Map", true},
		{"TRC0030.TFF", "", false}, // a directory
		{"nosuch", "", false},
	} {
		got, ok := Find(dir, tc.name)
		if ok != tc.ok || ok && got != filepath.Join(dir, tc.want) {
			t.Errorf("Find(%q) = %q, %v", tc.name, got, ok)
		}
	}
	if _, ok := Find(filepath.Join(dir, "missing"), "x"); ok {
		t.Error("found a file in a missing directory")
	}
}
