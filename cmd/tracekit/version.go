package main

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/alecthomas/kong"
)

// versionFlag is --version: it prints version() and exits with status 0,
// as kong.VersionFlag does with the variable "version", which would have
// to be made (and interpolated for every flag, fillDialectLists) on every
// run.
type versionFlag bool

// BeforeReset prints the version and ends the run.
func (versionFlag) BeforeReset(app *kong.Kong) error {
	fmt.Fprintln(app.Stdout, version())
	app.Exit(0)
	return nil
}

// version describes the build: the module version and the VCS revision,
// its time and whether the tree was modified, from the build information
// the go command stamps into the binary, then the Go version, e.g.
// "tracekit v0.0.0-20261123141700-6c2a58f0e1d2 (revision 6c2a58f…,
// 2026-11-23T14:17:00Z) go1.26.8". A build without VCS stamping (-buildvcs=
// false, or built outside a repository) has no revision.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "tracekit (no build information)"
	}
	s := "tracekit " + bi.Main.Version
	var vcs []string
	for _, kv := range bi.Settings {
		switch kv.Key {
		case "vcs.revision":
			vcs = append([]string{"revision " + kv.Value}, vcs...)
		case "vcs.time":
			vcs = append(vcs, kv.Value)
		case "vcs.modified":
			if kv.Value == "true" {
				vcs = append(vcs, "modified")
			}
		}
	}
	if len(vcs) > 0 {
		s += " (" + strings.Join(vcs, ", ") + ")"
	}
	return s + " " + bi.GoVersion
}
