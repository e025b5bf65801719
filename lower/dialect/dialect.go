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
	"io"
	"path"
	"strings"

	"github.com/tracekit/tracekit/lower/dialect/buffer"
	"github.com/tracekit/tracekit/lower/dialect/gen"
	"github.com/tracekit/tracekit/lower/dialect/lowering"
	"github.com/tracekit/tracekit/lower/dialect/ntstrace"
	"github.com/tracekit/tracekit/lower/dialect/os2strace"
	"github.com/tracekit/tracekit/lower/dialect/prf"
	"github.com/tracekit/tracekit/lower/dialect/strace"
	"github.com/tracekit/tracekit/lower/dialect/winstrace"
)

// Dialect is one registry entry: name, description, file patterns, content
// sniffer and the constructors of its lowering and parser.
type Dialect = lowering.Dialect

// registry lists the dialects, the more specific sniffers first. This is
// the one place a dialect is registered: the command line's help, its
// completion, "tracekit dialects" and "tracekit generate", and the tests
// that run every dialect, all take the list from here.
func registry() []Dialect {
	return []Dialect{
		generated(os2strace.Strace(), gen.OS2Strace),
		generated(os2strace.MTE(), gen.OS2MTE),
		generated(winstrace.Dialect(), gen.WinStrace),
		ntstrace.Dialect(),
		generated(prf.Dump(), gen.PRF),
		generated(prf.CSV(), gen.PRFCSV),
		generated(strace.Dialect(), gen.Strace),
		buffer.STDA(),
		buffer.SaveFile(),
	}
}

// generated sets the generator of a dialect whose generator is in package
// gen (a new dialect sets its own Generate in its entry).
func generated(d Dialect, g func(io.Writer, int64) error) Dialect {
	d.Generate = g
	return d
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

// Generated returns the names of the dialects with a generator, in
// registry order.
func Generated() []string {
	var names []string
	for _, d := range registry() {
		if d.Generate != nil {
			names = append(names, d.Name)
		}
	}
	return names
}

// Generate writes about size bytes (never more) of valid synthetic input of
// the named dialect to w.
func Generate(name string, w io.Writer, size int64) error {
	d, ok := Lookup(name)
	if !ok || d.Generate == nil {
		return fmt.Errorf("no generator for dialect %q (have %s)", name, strings.Join(Generated(), ", "))
	}
	return d.Generate(w, size)
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
		return Dialect{}, fmt.Errorf("cannot tell the dialect: the content looks like no registered dialect's and no file pattern decides; give one with --dialect (\"tracekit dialects\" lists them)")
	}
	for _, d := range sniffed {
		if Matches(d, name) {
			return d, nil
		}
	}
	return sniffed[0], nil
}
