package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestVersionFlag: --version prints one line naming tracekit and the Go
// version, and exits 0.
func TestVersionFlag(t *testing.T) {
	status, stdout, stderr := runCLI("--version")
	if status != exitOK || stderr != "" || !strings.HasPrefix(stdout, "tracekit ") || !strings.HasSuffix(stdout, " "+runtime.Version()+"\n") {
		t.Errorf("status %d, %q, %q", status, stdout, stderr)
	}
}

// TestInstalledBinary is the acceptance check for --version and
// completion: a tracekit built by go install prints the revision of the
// checkout, prints the completion code of bash, zsh and fish naming its own
// path, answers a shell's completion request (COMP_LINE, the protocol all
// three use through "complete -C"), and bash, where installed, takes the
// code.
func TestInstalledBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and installs tracekit (not with -short)")
	}
	gobin := t.TempDir()
	install := exec.Command("go", "install", ".")
	install.Env = append(os.Environ(), "GOBIN="+gobin, "GOFLAGS=-buildvcs=auto")
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install: %v\n%s", err, out)
	}
	bin := filepath.Join(gobin, "tracekit")
	run := func(env []string, args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("tracekit %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	v := run(nil, "--version")
	if !strings.HasPrefix(v, "tracekit ") || !strings.HasSuffix(v, "\n") {
		t.Errorf("--version: %q", v)
	}
	rev, err := exec.Command("git", "rev-parse", "HEAD").Output()
	top, _ := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	st, _ := os.Stat(filepath.Join(strings.TrimSpace(string(top)), ".git"))
	switch {
	case err != nil:
		t.Logf("no git checkout (%v): the revision is not compared", err)
	case st == nil || !st.IsDir():
		// The go command finds a repository by its .git directory only: a
		// worktree's .git file gets no stamp.
		t.Logf("a git worktree: go install stamps no revision here, so it is not compared")
	default:
		if want := "revision " + strings.TrimSpace(string(rev)); !strings.Contains(v, want) {
			t.Errorf("--version: %q does not name %s", v, want)
		}
	}
	for _, sh := range []string{"bash", "zsh", "fish"} {
		if code := run(nil, "completion", "-c", sh); !strings.Contains(code, bin) || !strings.Contains(code, "tracekit") {
			t.Errorf("completion -c %s: %q", sh, code)
		}
		if how := run(nil, "completion", sh); !strings.Contains(how, "tracekit completion -c "+sh) {
			t.Errorf("completion %s: %q", sh, how)
		}
	}
	for line, want := range map[string]string{
		"tracekit rec":                "records",
		"tracekit records --format ":  "parquet",
		"tracekit records --no-":      "--no-pair",
		"tracekit completion ":        "fish",
		"tracekit format --qu":        "--quiet",
		"tracekit --vers":             "--version",
		"tracekit compile --tff-d":    "--tff-dir",
		"tracekit records --format c": "csv",
	} {
		got := strings.Fields(run([]string{"COMP_LINE=" + line, "COMP_POINT=" + strconv.Itoa(len(line))}))
		if !contains(got, want) {
			t.Errorf("completing %q: %v, want %s among them", line, got, want)
		}
	}
	if _, err := exec.LookPath("bash"); err == nil {
		out, err := exec.Command("bash", "-c", "source <('"+bin+"' completion -c bash) && complete -p tracekit").CombinedOutput()
		if err != nil || !strings.Contains(string(out), bin) || !strings.HasSuffix(strings.TrimSpace(string(out)), " tracekit") {
			t.Errorf("bash: %v\n%s", err, out)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
