// Package dialect is tracekit's registry of trace dialects and its library
// entry point: Records reads traces in any registered dialect and writes
// normalized records (lower/record); lower/astdump prints a dialect's syntax tree.
//
// A dialect is one participle grammar (grammar/<dialect>), its syntax tree
// (ast/<dialect>) and one lowering (a sub-package of this one), registered
// in registry below; docs/dialects.md walks through adding one.
package dialect

import (
	"fmt"
	"path"
	"strings"

	"github.com/tracekit/tracekit/lower/dialect/buffer"
	"github.com/tracekit/tracekit/lower/dialect/lowering"
	"github.com/tracekit/tracekit/lower/dialect/os2strace"
	"github.com/tracekit/tracekit/lower/dialect/prf"
	"github.com/tracekit/tracekit/lower/dialect/strace"
	"github.com/tracekit/tracekit/lower/dialect/winstrace"
)

// Dialect is one registry entry: name, description, file patterns, content
// sniffer and the constructors of its lowering and parser.
type Dialect = lowering.Dialect

// registry lists the dialects, the more specific sniffers first. This is
// the one place a dialect is registered.
func registry() []Dialect {
	return []Dialect{
		os2strace.Strace(),
		os2strace.MTE(),
		winstrace.Dialect(),
		prf.Dump(),
		prf.CSV(),
		strace.Dialect(),
		buffer.STDA(),
		buffer.SaveFile(),
	}
}

// List returns the registered dialects in registry order.
func List() []Dialect { return registry() }

// Names returns the names of the registered dialects in registry order.
func Names() []string {
	var names []string
	for _, d := range registry() {
		names = append(names, d.Name)
	}
	return names
}

// Lookup returns the dialect of the given name.
func Lookup(name string) (Dialect, bool) {
	for _, d := range registry() {
		if d.Name == name {
			return d, true
		}
	}
	return Dialect{}, false
}

// Matches reports whether a file name matches one of the dialect's
// patterns (on its base name, case-insensitively).
func Matches(d Dialect, name string) bool {
	base := strings.ToLower(path.Base(strings.ReplaceAll(name, `\`, "/")))
	for _, p := range d.Patterns {
		if ok, _ := path.Match(p, base); ok {
			return true
		}
	}
	return false
}

// Detect tells the dialect of an input from the head of its content (its
// first bytes) and its name. The sniffers decide; when several accept, a
// matching file pattern breaks the tie, else registry order does; when none
// accepts, a file pattern matched by exactly one dialect decides. It fails
// when nothing decides.
func Detect(name string, head []byte) (Dialect, error) {
	all := registry()
	var sniffed []Dialect
	for _, d := range all {
		if d.Sniff != nil && d.Sniff(head) {
			sniffed = append(sniffed, d)
		}
	}
	switch len(sniffed) {
	case 1:
		return sniffed[0], nil
	case 0:
		var byName []Dialect
		for _, d := range all {
			if name != "" && name != "-" && Matches(d, name) {
				byName = append(byName, d)
			}
		}
		if len(byName) == 1 {
			return byName[0], nil
		}
		return Dialect{}, fmt.Errorf("cannot tell the dialect: the content looks like none of %s and no file pattern decides; give one with --dialect", strings.Join(Names(), ", "))
	}
	for _, d := range sniffed {
		if Matches(d, name) {
			return d, nil
		}
	}
	return sniffed[0], nil
}
