package main

import (
	"os"
	"strings"
	"testing"
)

// docExample returns the indented block after the line "    tracekit ARGS"
// in docs/analysis.md: the output the document shows for that command.
func docExample(t *testing.T, doc, args string) string {
	t.Helper()
	i := strings.Index(doc, "\n    tracekit "+args+"\n\n")
	if i < 0 {
		t.Fatalf("docs/analysis.md shows no %q", args)
	}
	rest := doc[i+len("\n    tracekit "+args+"\n\n"):]
	var out strings.Builder
	for _, l := range strings.SplitAfter(rest, "\n") {
		if !strings.HasPrefix(l, "    ") {
			break
		}
		out.WriteString(strings.TrimPrefix(l, "    "))
	}
	return out.String()
}

// TestAnalysisDocs: every example of docs/analysis.md prints what the
// document shows (the records example: its first lines), run from the
// repository's root as the document's commands are.
func TestAnalysisDocs(t *testing.T) {
	data, err := os.ReadFile("../../docs/analysis.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	t.Chdir("../..")
	for _, args := range []string{
		"stats --format table lower/analysis/filter/testdata/fork.strace",
		"stats --format json --by pid --sort calls lower/analysis/filter/testdata/fork.strace",
		"records --format text --pid 30133 --failed lower/analysis/filter/testdata/fork.strace",
		"tree --threads lower/analysis/tree/testdata/family.strace",
	} {
		want := docExample(t, doc, args)
		status, got, stderr := runCLI(strings.Fields(args)...)
		if status != exitOK {
			t.Errorf("%s: status %d %s", args, status, stderr)
		}
		want = strings.TrimSuffix(want, "...\n")
		if !strings.HasPrefix(got, want) || want == "" {
			t.Errorf("%s prints\n%s\nthe document shows\n%s", args, got, want)
		}
	}
}

// TestFilterFlags: bad filter values are usage errors (status 2); a
// filter that keeps nothing is no error.
func TestFilterFlags(t *testing.T) {
	in := "../../lower/analysis/filter/testdata/fork.strace"
	for _, args := range [][]string{
		{"records", "--min-dur", "soon", in},
		{"records", "--since", "25:99", in},
		{"records", "--event", "[", in},
		{"stats", "--by", "colour", in},
		{"stats", "--sort", "colour", in},
	} {
		if status, _, stderr := runCLI(args...); status != exitUsage {
			t.Errorf("%v: status %d, want 2: %s", args, status, stderr)
		}
	}
	if status, out, _ := runCLI("records", "--errno", "EPERM", in); status != exitOK || out != "" {
		t.Errorf("nothing kept: status %d, %q", status, out)
	}
}
