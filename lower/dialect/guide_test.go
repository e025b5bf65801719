package dialect_test

import (
	"bufio"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// guideFiles returns the files the worked example of docs/dialects.md
// writes (the fenced blocks marked file=PATH, by path) and its registry
// line (the block marked registry).
func guideFiles(t *testing.T, doc string) (files map[string]string, registryLine string) {
	t.Helper()
	data, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	files = map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	var name string
	var body strings.Builder
	in, isRegistry := false, false
	for sc.Scan() {
		l := sc.Text()
		switch {
		case !in && strings.HasPrefix(l, "```"):
			in = true
			info := strings.Fields(strings.TrimPrefix(l, "```"))
			name, isRegistry = "", false
			body.Reset()
			for _, f := range info {
				if p, ok := strings.CutPrefix(f, "file="); ok {
					name = p
				}
				isRegistry = isRegistry || f == "registry"
			}
		case in && strings.HasPrefix(l, "```"):
			in = false
			if name != "" {
				files[name] = body.String()
			}
			if isRegistry {
				registryLine = strings.TrimRight(body.String(), "\n")
			}
		case in:
			body.WriteString(l + "\n")
		}
	}
	return files, registryLine
}

// TestGuideDialect builds the worked example of docs/dialects.md from the
// guide's own code blocks, in a copy of the module: it writes each block to
// its file, adds the guide's registry line (and the package's import) and
// nothing else, then builds tracekit, lists the dialects, reads the guide's
// testdata with and without --dialect, and runs the registry's tests (every
// dialect's output on many cores against one, and the command line's help
// texts) over the new dialect. So the guide cannot rot, and adding a line
// dialect stays its folders and one registry line.
func TestGuideDialect(t *testing.T) {
	if testing.Short() {
		t.Skip("copies the module and runs go build and go test in it (not with -short)")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	files, line := guideFiles(t, filepath.Join(root, "docs", "dialects.md"))
	if len(files) < 4 || line == "" {
		t.Fatalf("the guide gives %d files and registry line %q", len(files), line)
	}
	work := filepath.Join(t.TempDir(), "tracekit")
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if rel == ".git" || rel == "bin" || strings.HasSuffix(rel, "testdata/fuzz") {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(work, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(work, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	var pkg string
	for name, text := range files {
		if _, err := os.Stat(filepath.Join(root, name)); err == nil {
			t.Fatalf("the guide's %s would overwrite a file of the module", name)
		}
		p := filepath.Join(work, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if dir, ok := strings.CutPrefix(filepath.Dir(name), "lower/dialect/"); ok && filepath.Ext(name) == ".go" {
			pkg = dir
		}
	}
	if pkg == "" {
		t.Fatal("the guide writes no lowering under lower/dialect")
	}
	// The registry line, before the binary dialects, and its import.
	reg := filepath.Join(work, "lower", "dialect", "dialect.go")
	src, err := os.ReadFile(reg)
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	const anchor = "\t\tbuffer.STDA(),\n"
	const imp = "\t\"github.com/tracekit/tracekit/lower/dialect/buffer\"\n"
	if !strings.Contains(text, anchor) || !strings.Contains(text, imp) {
		t.Fatal("lower/dialect/dialect.go: the registry's binary dialects or their import not found")
	}
	text = strings.Replace(text, anchor, line+"\n"+anchor, 1)
	text = strings.Replace(text, imp, imp+"\t\"github.com/tracekit/tracekit/lower/dialect/"+pkg+"\"\n", 1)
	if err := os.WriteFile(reg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}

	gocmd := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = work
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	bin := filepath.Join(t.TempDir(), "tracekit")
	gocmd("build", "-o", bin, "./cmd/tracekit")
	gocmd("vet", "./ast/"+pkg, "./grammar/"+pkg, "./lower/dialect/"+pkg)
	tk := func(want int, args ...string) (string, string) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = work
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		status := 0
		if ee, ok := err.(*exec.ExitError); ok {
			status = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if status != want {
			t.Fatalf("tracekit %s: status %d, want %d\n%s%s", strings.Join(args, " "), status, want, out, stderr.String())
		}
		return string(out), stderr.String()
	}
	if out, _ := tk(0, "dialects"); !strings.Contains(out, "\n"+pkg+" ") && !strings.HasPrefix(out, pkg+" ") {
		t.Errorf("tracekit dialects does not list %s:\n%s", pkg, out)
	}
	// The testdata, by file pattern and content, and by content alone.
	var inputs []string
	for name := range files {
		if strings.HasPrefix(name, "lower/dialect/"+pkg+"/testdata/") && filepath.Ext(name) != ".md" {
			inputs = append(inputs, name)
		}
	}
	if len(inputs) == 0 {
		t.Fatal("the guide gives no testdata")
	}
	for _, in := range inputs {
		plain := filepath.Join(t.TempDir(), "trace.txt")
		if err := os.WriteFile(plain, []byte(files[in]), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{in, plain} {
			out, _ := tk(0, "records", path)
			lines := strings.Split(strings.TrimSpace(out), "\n")
			if want := strings.Count(strings.TrimSpace(files[in]), "\n") + 1; len(lines) != want {
				t.Fatalf("records %s: %d records, want %d\n%s", path, len(lines), want, out)
			}
			var r struct {
				Dialect, Event string
				PID            *uint64
			}
			if err := json.Unmarshal([]byte(lines[0]), &r); err != nil || r.Dialect != pkg || r.Event == "" || r.PID == nil {
				t.Errorf("records %s: %v %+v", path, err, r)
			}
		}
	}
	// A malformed line: a positioned diagnostic, the line skipped, status 1.
	bad := filepath.Join(t.TempDir(), "bad."+pkg)
	if err := os.WriteFile(bad, []byte(files[inputs[0]]+"12.5 x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr := tk(1, "records", "--dialect", pkg, bad); !strings.Contains(stderr, bad+":") || !strings.Contains(stderr, "error") {
		t.Errorf("a malformed line: %s", stderr)
	}
	if out, _ := tk(0, "ast", "--dialect", pkg, inputs[0]); !strings.Contains(out, "Event") {
		t.Errorf("ast: %s", out)
	}
	// The tests that run every registered dialect, now with this one.
	gocmd("test", "-count=1", "-run", "^(TestRegistry|TestParallelMatchesOneCore|TestJoinAcrossBatches)$", "./lower/dialect/")
	gocmd("test", "-count=1", "-run", "^(TestHelpNamesDialects)$", "./cmd/tracekit/")
}
