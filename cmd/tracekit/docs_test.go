package main

import (
	"bufio"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
)

// A docCommand is one shell command shown in a document.
type docCommand struct {
	file string // the document, relative to the module root
	line int    // its line in the document
	text string // the command (continuation lines joined)
}

// docCommandWords are the first words of the lines of an indented code
// block that are shell commands. Other indented lines (output shown, a
// list item's continuation, another language) are left alone; fenced
// blocks marked sh, shell, bash or console are commands throughout.
var docCommandWords = map[string]bool{
	"tracekit": true, "go": true, "make": true, "duckdb": true, "source": true,
	"mkdir": true, "cd": true, "trcust": true, "node": true, "strace": true,
}

// docCommands returns the shell commands of a Markdown document, in order:
// every line of a fenced block marked sh, shell, bash or console (a
// leading "$ " dropped, comments and blank lines skipped), and every line
// of an indented code block whose first word is in docCommandWords. A line
// ending in a backslash continues on the next.
func docCommands(name string, data []byte) []docCommand {
	var out []docCommand
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	n := 0
	fence, shell := "", false
	prevBlank := true
	inIndented := false
	var pending *docCommand
	add := func(line int, text string) {
		if pending != nil {
			pending.text += " " + strings.TrimSpace(text)
		} else {
			out = append(out, docCommand{file: name, line: line, text: strings.TrimSpace(text)})
			pending = &out[len(out)-1]
		}
		if strings.HasSuffix(pending.text, `\`) {
			pending.text = strings.TrimSpace(strings.TrimSuffix(pending.text, `\`))
		} else {
			pending = nil
		}
	}
	for sc.Scan() {
		n++
		l := sc.Text()
		trim := strings.TrimSpace(l)
		if fence != "" {
			if strings.HasPrefix(trim, fence) {
				fence, shell = "", false
				continue
			}
			if shell && trim != "" && !strings.HasPrefix(trim, "#") {
				add(n, strings.TrimPrefix(trim, "$ "))
			}
			continue
		}
		if strings.HasPrefix(trim, "```") {
			fence = "```"
			switch strings.TrimSpace(strings.TrimPrefix(trim, "```")) {
			case "sh", "shell", "bash", "console":
				shell = true
			}
			continue
		}
		indented := strings.HasPrefix(l, "    ") && trim != ""
		if indented && (prevBlank || inIndented) {
			inIndented = true
			if pending != nil {
				add(n, trim)
			} else if w, _, _ := strings.Cut(trim, " "); docCommandWords[w] {
				add(n, trim)
			}
		} else if trim != "" {
			inIndented = false
		}
		prevBlank = trim == ""
	}
	return out
}

// expectStatus reads the status a command's trailing comment promises
// ("# exit status 1"); 0 without one.
var expectStatus = regexp.MustCompile(`#\s*exit status (\d+)\s*$`)

// TestDocsCommands runs every shell command shown in README.md and
// docs/*.md, in document order, in a copy of the module in a temporary
// folder with a freshly built tracekit and trcust first on PATH (and "go
// run ./cmd/tracekit" standing for the built binary), so that the
// documentation cannot rot. Each must exit 0, or the status its trailing
// comment names ("# exit status 1"). A command is skipped, saying why, when
// it needs what is absent here: the shared corpus (../shared), or a program
// (duckdb, node, zsh, fish...) not on PATH; "make test" and "go test" are
// skipped as they are what runs this test.
func TestDocsCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("builds tracekit and runs the documents' commands (not with -short)")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	docs = append([]string{filepath.Join(root, "README.md")}, docs...)
	var cmds []docCommand
	for _, d := range docs {
		data, err := os.ReadFile(d)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, d)
		cmds = append(cmds, docCommands(rel, data)...)
	}
	if len(cmds) < 5 {
		t.Fatalf("found only %d commands in the documents", len(cmds))
	}

	tmp := t.TempDir()
	bin := filepath.Join(tmp, "bin")
	for _, name := range []string{"tracekit", "trcust"} {
		build := exec.Command("go", "build", "-o", filepath.Join(bin, name), "./cmd/"+name)
		build.Dir = root
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", name, err, out)
		}
	}
	work := filepath.Join(tmp, "tracekit")
	copyModule(t, root, work)
	shared := corpus.Root()
	if shared != "" {
		if err := os.Symlink(shared, filepath.Join(tmp, "shared")); err != nil {
			t.Fatal(err)
		}
	}
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "HOME="+tmp)

	ran := 0
	for _, c := range cmds {
		where := c.file + ":" + strconv.Itoa(c.line)
		text := strings.ReplaceAll(c.text, "go run ./cmd/tracekit", "tracekit")
		text = strings.ReplaceAll(text, "go run ./cmd/trcust", "trcust")
		want := 0
		if m := expectStatus.FindStringSubmatch(text); m != nil {
			want, _ = strconv.Atoi(m[1])
		}
		shell := "bash"
		if i := strings.LastIndex(text, "# "); i >= 0 {
			for _, sh := range []string{"zsh", "fish"} {
				if strings.HasPrefix(text[i+2:], sh) {
					shell = sh
				}
			}
		}
		if skip := docSkip(text, shell, shared); skip != "" {
			t.Logf("%s: skipped (%s): %s", where, skip, c.text)
			continue
		}
		cmd := exec.Command(shell, "-c", text)
		cmd.Dir = work
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		status := 0
		if ee, ok := err.(*exec.ExitError); ok {
			status = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s: %s: %v", where, c.text, err)
		}
		if status != want {
			t.Errorf("%s: %s: exit status %d, want %d\n%s", where, c.text, status, want, out)
			continue
		}
		ran++
	}
	t.Logf("ran %d of %d commands shown in the documents", ran, len(cmds))

	// The README's list of dialects is what "tracekit dialects" prints.
	list, err := exec.Command(filepath.Join(bin, "tracekit"), "dialects").Output()
	if err != nil {
		t.Fatalf("tracekit dialects: %v", err)
	}
	readme, _ := os.ReadFile(filepath.Join(root, "README.md"))
	if !strings.Contains(string(readme), "```text\n"+string(list)+"```\n") {
		t.Errorf("README.md does not show what \"tracekit dialects\" prints, in a text block:\n%s", list)
	}
	if ran == 0 {
		t.Error("no command of the documents ran")
	}
}

// docSkip says why a document's command cannot run here, or "".
func docSkip(text, shell, shared string) string {
	if strings.HasPrefix(text, "make test") || strings.HasPrefix(text, "go test") || strings.HasPrefix(text, "make bench") {
		return "it runs this test"
	}
	if strings.Contains(text, "../shared") && shared == "" {
		return "the shared corpus (../shared) is absent"
	}
	if _, err := exec.LookPath(shell); err != nil {
		return shell + " is not installed"
	}
	w, _, _ := strings.Cut(text, " ")
	if w != "tracekit" && w != "trcust" && w != "source" && w != "mkdir" && w != "cd" {
		if _, err := exec.LookPath(w); err != nil {
			return w + " is not installed"
		}
	}
	for _, tool := range []string{"duckdb", "node", "strace"} {
		if strings.Contains(text, "| "+tool) || strings.Contains(text, "&& "+tool+" ") {
			if _, err := exec.LookPath(tool); err != nil {
				return tool + " is not installed"
			}
		}
	}
	return ""
}

// copyModule copies the module's files (not .git, not bin/) from src to dst.
func copyModule(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			if rel == ".git" || rel == "bin" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestDocCommandsFound: the extraction takes the commands of fenced shell
// blocks and indented blocks, and leaves output, other languages and list
// continuations alone.
func TestDocCommandsFound(t *testing.T) {
	doc := "Text\n\n    tracekit dump X.TFF\n    output line\n    go run ./cmd/tracekit check \\\n      a.tsf\n\n" +
		"1. item\n    continues here\n\n```sh\n# a comment\n$ make -j4\n\nduckdb -c 'x'\n```\n\n```text\ntracekit not this\n```\n" +
		"\n    df = spark.read.parquet(\"x\")\n"
	got := docCommands("d.md", []byte(doc))
	want := []docCommand{
		{"d.md", 3, "tracekit dump X.TFF"},
		{"d.md", 5, "go run ./cmd/tracekit check a.tsf"},
		{"d.md", 13, "make -j4"},
		{"d.md", 15, "duckdb -c 'x'"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}
