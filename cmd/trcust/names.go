package main

import (
	"path/filepath"
	"strings"
)

// TRCUST 3.05A reads the file names of its command line as OS/2 names:
// a backslash separates folders, and a name's extension is what follows
// its last dot when no backslash comes after it. A / opens a folder when
// the file is opened, but is no separator to TRCUST itself (IBM's
// behaviour, tried with its binary: "a.tsf sub.d/o" writes the TDF
// sub.d/o, whose extension is ".d/o", and the TFF in the current folder).

// os2Ext returns the extension of name as TRCUST sees it, the dot
// included: "" for sub.d\o, ".d/o" for sub.d/o.
func os2Ext(name string) string {
	i := strings.LastIndexByte(name, '.')
	if i < 0 || i < strings.LastIndexByte(name, '\\') {
		return ""
	}
	return name[i:]
}

// os2Dir returns the folder part of name: up to its last backslash,
// which it keeps ("" when it has none).
func os2Dir(name string) string {
	return name[:strings.LastIndexByte(name, '\\')+1]
}

// localPath returns the path on this system of a name TRCUST writes:
// each backslash a folder separator.
func localPath(name string) string {
	return filepath.FromSlash(strings.ReplaceAll(name, `\`, "/"))
}

// tdfFileName returns the name of the TDF TRCUST writes: given, the name
// on the command line after the TSF, as it stands when it has an
// extension (oracle d46: other.tdf) and with ".TDF" added when it has none
// (d46b: other.TDF); without one, or with one that ends in a backslash (a
// folder: "a.tsf sub\" writes a.TDF), the TSF's name from its last
// backslash on, in the current folder, with ".TDF" for its extension
// (d01.tsf gives d01.TDF, sub\deep\c.tsf gives c.TDF, sub/b.tsf gives
// sub/b.TDF). IBM's behaviour.
func tdfFileName(tsfName, given string) string {
	if given != "" && !strings.HasSuffix(given, `\`) {
		if os2Ext(given) == "" {
			return given + ".TDF"
		}
		return given
	}
	base := tsfName[len(os2Dir(tsfName)):]
	return strings.TrimSuffix(base, os2Ext(base)) + ".TDF"
}
