package tsf

import "testing"

// TestModuleFile checks where a MODNAME path ends: at its last backslash
// or colon, a / being none (IBM's behaviour).
func TestModuleFile(t *testing.T) {
	for in, want := range map[string]string{
		`emitrep.dll`:      "emitrep.dll",
		`.\emitrep.dll`:    "emitrep.dll",
		`c:emitrep.DLL`:    "emitrep.DLL",
		`C:\os2\dll\x.dll`: "x.dll",
		`./emitrep.dll`:    "./emitrep.dll",
		`a/b\c/x.sys`:      "c/x.sys",
		`x.y/emitrep`:      "x.y/emitrep",
		`dir\`:             "",
	} {
		if got := ModuleFile(in); got != want {
			t.Errorf("ModuleFile(%q) = %q, want %q", in, got, want)
		}
	}
}
