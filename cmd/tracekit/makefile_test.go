package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tracekit/tracekit/ast/corpus"
)

// docBlock returns the text of the first fenced block marked lang in the
// Markdown file.
func docBlock(t *testing.T, file, lang string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "\n```"+lang+"\n")
	if !ok {
		t.Fatalf("%s has no %s block", file, lang)
	}
	block, _, ok := strings.Cut(rest, "\n```")
	if !ok {
		t.Fatalf("%s: the %s block is not closed", file, lang)
	}
	return block + "\n"
}

// buildTracekit builds the command into a temporary folder.
func buildTracekit(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "tracekit")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// makeRun is one run of make in a folder: its status and the TSFs it
// compiled (from the recipe lines it echoed).
func makeRun(t *testing.T, dir, bin string, args ...string) (status int, compiled []string, out string) {
	t.Helper()
	// -Otarget: the output of each compile in one piece, so that two
	// failing at once do not interleave their lines.
	cmd := exec.Command("make", append([]string{"-j4", "-Otarget", "TRACEKIT=" + bin}, args...)...)
	cmd.Dir = dir
	raw, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		status = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(l, bin+" compile ") {
			f := strings.Fields(l)
			compiled = append(compiled, f[len(f)-1])
		}
	}
	slices.Sort(compiled)
	return status, compiled, string(raw)
}

// TestMakefileExample runs the Makefile of docs/makefiles.md with make -j4
// on synthetic TSFs (always) and, when the shared corpus is present, on the
// corpus TSFs that compile on their own and on oracle TSFs with dynamic
// tracepoints on emitrep.dll. Every output must be byte for byte what
// compile writes alone; a second run compiles nothing; a touched TSF is
// the only one compiled again; a deleted TSF, or a deleted MAP file that
// depfiles name, does not stop make, and the TSFs that read the MAP file
// are compiled again (against the module's exports).
func TestMakefileExample(t *testing.T) {
	if testing.Short() {
		t.Skip("runs make (not with -short)")
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	makefile := docBlock(t, "../../docs/makefiles.md", "make")
	bin := buildTracekit(t)

	t.Run("synthetic", func(t *testing.T) {
		dir := t.TempDir()
		write(t, filepath.Join(dir, "Makefile"), makefile)
		// Synthetic TSFs; b and c share a major code.
		for name, major := range map[string]int{"a": 0x31, "b": 0x32, "c": 0x32} {
			write(t, filepath.Join(dir, name+".tsf"), fmt.Sprintf(
				"; synthetic\nMODNAME = %s.dll\nMAJOR = 0x%X\nTRACE MINOR=1, TP=@STATIC, DESC=\"%s\", FMT=\"x = %%W\"\n", name, major, name))
		}
		checkMake(t, dir, bin, []string{"a.tsf", "b.tsf", "c.tsf"}, "")
	})

	t.Run("corpus", func(t *testing.T) {
		tsfDir := corpus.Path(t, "corpus", "os2", "tsf")
		oracle, cases := corpus.Oracle(t)
		lx := corpus.Path(t, "corpus", "os2", "lx")
		dir := t.TempDir()
		write(t, filepath.Join(dir, "Makefile"), makefile)
		var names []string
		all, _ := filepath.Glob(filepath.Join(tsfDir, "*.tsf"))
		for _, f := range all {
			names = append(names, filepath.Base(f))
			copyTo(t, f, filepath.Join(dir, filepath.Base(f)))
		}
		n := 0
		for _, c := range cases {
			if !c.UsesEmitrep || c.Exit != 0 || len(c.Inputs) != 1 || !strings.HasPrefix(c.Case, "d") || n == 8 {
				continue
			}
			n++
			name := c.Case + ".tsf"
			names = append(names, name)
			copyTo(t, filepath.Join(oracle, c.Case, c.Inputs[0]), filepath.Join(dir, name))
		}
		copyTo(t, filepath.Join(lx, "osfree_emitrep.dll"), filepath.Join(dir, "emitrep.dll"))
		copyTo(t, filepath.Join(lx, "osfree_emitrep.map"), filepath.Join(dir, "emitrep.map"))
		// Keep the TSFs that compile on their own: the others fail under
		// make too (make -k shows it), and would run again on every run.
		var ok []string
		for _, name := range names {
			cmd := exec.Command(bin, "compile", "--out-dir", t.TempDir(), name)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Logf("%s does not compile on its own (%v), left out:\n%s", name, err, out)
				if err := os.Remove(filepath.Join(dir, name)); err != nil {
					t.Fatal(err)
				}
				continue
			}
			ok = append(ok, name)
		}
		if n == 0 || len(ok) < 3 {
			t.Fatalf("only %d TSFs compile (%d from the oracle)", len(ok), n)
		}
		t.Logf("%d TSFs (%d of emitrep.dll)", len(ok), n)
		checkMake(t, dir, bin, ok, "emitrep.map")
	})
}

// checkMake builds the TSFs of dir with the Makefile there and checks the
// runs TestMakefileExample describes; a non-empty mapFile is deleted last.
func checkMake(t *testing.T, dir, bin string, tsfs []string, mapFile string) {
	t.Helper()
	tsfs = slices.Sorted(slices.Values(tsfs))
	status, compiled, out := makeRun(t, dir, bin)
	if status != 0 || !slices.Equal(compiled, tsfs) {
		t.Fatalf("make: status %d, compiled %v, want %v\n%s", status, compiled, tsfs, out)
	}
	// Each TSF's outputs are what compile writes alone, and --print-outputs
	// names them.
	for _, name := range tsfs {
		stem := strings.TrimSuffix(name, ".tsf")
		alone := t.TempDir()
		cmd := exec.Command(bin, "compile", "--out-dir", alone, name)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
		cmd = exec.Command(bin, "compile", "--print-outputs", "--out-dir", filepath.Join("build", stem), "--depfile", filepath.Join("build", stem+".d"), name)
		cmd.Dir = dir
		printed, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s --print-outputs: %v", name, err)
		}
		written := files(t, alone)
		var want []string
		for _, f := range written {
			want = append(want, filepath.Join("build", stem, f))
			got, err := os.ReadFile(filepath.Join(dir, "build", stem, f))
			if err != nil {
				t.Errorf("%s: make did not write %s", name, f)
				continue
			}
			if data, _ := os.ReadFile(filepath.Join(alone, f)); !bytes.Equal(got, data) {
				t.Errorf("%s: %s differs from the one compile writes alone", name, f)
			}
		}
		want = append(want, filepath.Join("build", stem+".d"))
		got := strings.Fields(string(printed))
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: --print-outputs %v, written %v", name, got, want)
		}
	}
	if status, compiled, out := makeRun(t, dir, bin); status != 0 || len(compiled) != 0 {
		t.Errorf("second make: status %d, compiled %v\n%s", status, compiled, out)
	}
	// Every file a minute old, then one TSF touched now (a time in the
	// future would make make remake the included depfile forever).
	past := time.Now().Add(-time.Minute)
	err := filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, past, past)
	})
	if err != nil {
		t.Fatal(err)
	}
	touched := tsfs[len(tsfs)-1]
	if now := time.Now(); os.Chtimes(filepath.Join(dir, touched), now, now) != nil {
		t.Fatal("touch failed")
	}
	if status, compiled, out := makeRun(t, dir, bin); status != 0 || !slices.Equal(compiled, []string{touched}) {
		t.Errorf("make after touching %s: status %d, compiled %v\n%s", touched, status, compiled, out)
	}
	if err := os.Remove(filepath.Join(dir, tsfs[0])); err != nil {
		t.Fatal(err)
	}
	if status, compiled, out := makeRun(t, dir, bin); status != 0 || len(compiled) != 0 {
		t.Errorf("make after deleting %s: status %d, compiled %v\n%s", tsfs[0], status, compiled, out)
	}
	if mapFile == "" {
		return
	}
	var readers []string
	for _, name := range tsfs[1:] {
		dep, err := os.ReadFile(filepath.Join(dir, "build", strings.TrimSuffix(name, ".tsf")+".d"))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(dep), "\n"+mapFile+":\n") {
			readers = append(readers, name)
		}
	}
	if len(readers) == 0 {
		t.Fatalf("no depfile names %s", mapFile)
	}
	if err := os.Remove(filepath.Join(dir, mapFile)); err != nil {
		t.Fatal(err)
	}
	// make does not stop for want of the file: the TSFs that read it are
	// compiled again, against the module's exports; one that needs a symbol
	// only the MAP file has then fails (TRC079), as it does alone.
	status, compiled, out = makeRun(t, dir, bin, "-k")
	if compiled = slices.Compact(compiled); !slices.Equal(compiled, readers) || strings.Contains(out, "No rule to make target '"+mapFile) {
		t.Errorf("make after deleting %s: compiled %v, want %v\n%s", mapFile, compiled, readers, out)
	}
	failed := 0
	for _, name := range readers {
		stem := strings.TrimSuffix(name, ".tsf")
		cmd := exec.Command(bin, "compile", "--out-dir", t.TempDir(), name)
		cmd.Dir = dir
		alone, err := cmd.CombinedOutput()
		dep, _ := os.ReadFile(filepath.Join(dir, "build", stem+".d"))
		switch {
		case err == nil && strings.Contains(string(dep), mapFile):
			t.Errorf("%s: compiles without %s, but its depfile still names it:\n%s", name, mapFile, dep)
		case err != nil:
			failed++
			if !strings.Contains(out, strings.TrimSpace(string(alone))) {
				t.Errorf("%s: make does not show the error compile shows alone:\n%s", name, alone)
			}
		}
	}
	if (status != 0) != (failed > 0) {
		t.Errorf("make -k after deleting %s: status %d with %d TSFs failing", mapFile, status, failed)
	}
	t.Logf("after deleting %s: %d TSFs compiled again, %d of them fail without it", mapFile, len(readers), failed)
}

func write(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyTo(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	write(t, to, string(data))
}

// TestCompileOutputs: --out-dir puts the TFF and the TDF's default name in
// one folder, --print-outputs names the files and writes nothing, and the
// depfile has its own name among the targets and a phony target for each
// input but the TSF.
func TestCompileOutputs(t *testing.T) {
	out := t.TempDir()
	status, stdout, stderr := runCLI("compile", "--print-outputs", "--out-dir", out, "--depfile", filepath.Join(out, "x.d"), "../../testdata/example.tsf")
	if want := filepath.Join(out, "TRC00C2.TFF") + "\n" + filepath.Join(out, "x.d") + "\n"; status != exitOK || stdout != want || stderr != "" {
		t.Errorf("--print-outputs: status %d, %q (want %q), %q", status, stdout, want, stderr)
	}
	if got := files(t, out); len(got) != 0 {
		t.Errorf("--print-outputs wrote %v", got)
	}
	// A dynamic tracepoint: the TDF is named too, in --out-dir; the module
	// is not needed to name it.
	src := filepath.Join(out, "dyn.tsf")
	write(t, src, "MODNAME = nowhere.dll\nMAJOR = 0x123\nTRACE MINOR=1, TP=.f, DESC=\"f\"\n")
	status, stdout, _ = runCLI("compile", "--print-outputs", "--out-dir", "o", src)
	if want := filepath.Join("o", "TRC0123.TFF") + "\n" + filepath.Join("o", "dyn.TDF") + "\n"; status != exitOK || stdout != want {
		t.Errorf("--print-outputs of a dynamic TSF: status %d, %q, want %q", status, stdout, want)
	}
	// The module missing: where it was looked for, and the flags to use.
	status, _, stderr = runCLI("compile", "--out-dir", out, "--path", "/nonexistent", src)
	if status != exitError || !strings.Contains(stderr, "nowhere.dll (looked in "+out+", ., /nonexistent") || !strings.Contains(stderr, "--module") || !strings.Contains(stderr, "--path") {
		t.Errorf("missing module: status %d, %q", status, stderr)
	}
	// Errors: the names still, the diagnostics, status 1.
	write(t, src, "MAJOR = 0x30\nTRACE MINOR=1, TP=@STATIC, DESC=\"ok\"\nTRACE MINOR=1, TP=@STATIC, DESC=\"dup\"\n")
	status, stdout, stderr = runCLI("compile", "--print-outputs", src)
	if status != exitError || stdout != "TRC0030.TFF\n" || !strings.Contains(stderr, "[TRC094]") {
		t.Errorf("--print-outputs with an error: status %d, %q, %q", status, stdout, stderr)
	}
	status, _, stderr = runCLI("compile", "--out-dir", filepath.Join(out, "missing"), "../../testdata/example.tsf")
	if status != exitOutput || !strings.Contains(stderr, "--out-dir "+filepath.Join(out, "missing")+": no such directory") {
		t.Errorf("missing --out-dir: status %d, %q", status, stderr)
	}
	status, _, stderr = runCLI("compile", "--tff-dir", filepath.Join(out, "missing"), "../../testdata/example.tsf")
	if status != exitOutput || !strings.Contains(stderr, "--tff-dir "+filepath.Join(out, "missing")+": no such directory") {
		t.Errorf("missing --tff-dir: status %d, %q", status, stderr)
	}
	if got := files(t, out); !slices.Equal(got, []string{"dyn.tsf"}) {
		t.Errorf("left behind %v", got)
	}
	if got := string(depRule([]string{"b/TRC0042.TFF", "b/d 1.TDF", "b/d.d"}, "d.tsf", []string{"emitrep.dll", "x/emitrep.map"})); got != "b/TRC0042.TFF b/d\\ 1.TDF b/d.d: d.tsf emitrep.dll x/emitrep.map\n\nemitrep.dll:\n\nx/emitrep.map:\n" {
		t.Errorf("depRule: %q", got)
	}
}
