package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/lower/dialect"
)

// TestHelpNamesDialects: "tracekit help CMD" prints what "CMD --help"
// does, an unknown command is a usage error, and the help texts that
// speak of dialects name every registered one (from the registry, so a new
// dialect needs no edit of the command line).
func TestHelpNamesDialects(t *testing.T) {
	for _, cmd := range []string{"records", "compile", "dump", "ast"} {
		s1, h1, _ := runCLI("help", cmd)
		s2, h2, _ := runCLI(cmd, "--help")
		if s1 != exitOK || h1 == "" || h1 != h2 || s2 != exitOK {
			t.Errorf("help %s: status %d, %d; the texts differ: %v", cmd, s1, s2, h1 != h2)
		}
	}
	if status, _, stderr := runCLI("help", "nosuch"); status != exitUsage || !strings.Contains(stderr, "nosuch") {
		t.Errorf("help nosuch: status %d, %q", status, stderr)
	}
	_, root, _ := runCLI("--help")
	_, records, _ := runCLI("help", "records")
	_, ast, _ := runCLI("help", "ast")
	_, gen, _ := runCLI("help", "generate")
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	for _, d := range dialect.List() {
		for name, text := range map[string]string{"--help": root, "records --help": records, "ast --help": ast} {
			if !strings.Contains(flat(text), d.Name) {
				t.Errorf("%s does not name dialect %s", name, d.Name)
			}
		}
		if d.Generate != nil && !strings.Contains(flat(gen), d.Name) {
			t.Errorf("generate --help does not name dialect %s", d.Name)
		}
	}
	// The lists are filled in after kong builds the model
	// (fillDialectLists): none is left as written in the tags.
	for _, cmd := range []string{"records", "generate", "check", "stats", "tree", "filter", "format"} {
		_, text, _ := runCLI("help", cmd)
		for _, text := range []string{text, root} {
			if strings.Contains(text, "${") || strings.Contains(text, "$$") {
				t.Errorf("help %s holds a list not filled in:\n%s", cmd, text)
			}
		}
	}
	if !strings.Contains(flat(root), "TFF or a TDF") {
		t.Errorf("--help does not say dump prints a TDF:\n%s", root)
	}
}

// TestCompletionValues asks a built tracekit for completions as a shell
// does (COMP_LINE): --dialect offers every registered dialect, generate's
// those with a generator, and file arguments the files of each command's
// kinds, by the dialects' patterns for records, in either case.
func TestCompletionValues(t *testing.T) {
	if testing.Short() {
		t.Skip("builds tracekit (not with -short)")
	}
	bin := buildTracekit(t)
	dir := t.TempDir()
	for _, f := range []string{"a.wst", "STRACE.OUT", "x.strace", "notes.txt", "p.tsf", "Q.TSF", "TRC0001.TFF", "p.TDF", "buf.stda"} {
		write(t, filepath.Join(dir, f), "")
	}
	complete := func(line string) []string {
		cmd := exec.Command(bin)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "COMP_LINE="+line, "COMP_POINT="+strconv.Itoa(len(line)))
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		got := strings.Fields(string(out))
		slices.Sort(got)
		return slices.Compact(got)
	}
	sorted := func(s []string) []string { return slices.Sorted(slices.Values(s)) }
	for line, want := range map[string][]string{
		"tracekit records --dialect ":  sorted(dialect.Names()),
		"tracekit generate --dialect ": sorted(dialect.Generated()),
		"tracekit records ":            {"./", "STRACE.OUT", "a.wst", "buf.stda", "x.strace"},
		"tracekit compile ":            {"./", "Q.TSF", "p.tsf"},
		"tracekit check ":              {"./", "Q.TSF", "p.tsf"},
		"tracekit dump ":               {"./", "TRC0001.TFF", "p.TDF"},
		"tracekit format ":             {"./", "buf.stda"},
	} {
		if got := complete(line); !slices.Equal(got, want) {
			t.Errorf("completing %q: %v, want %v", line, got, want)
		}
	}
}
