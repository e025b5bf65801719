package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/cmd/internal/outfile"
	"github.com/tracekit/tracekit/cmd/internal/progress"
	"github.com/tracekit/tracekit/lower/dialect"
)

// The checks of "Files, signals, pipes and errors": where records -o
// writes, what a signal leaves, when a pipe's records leave, the exit
// statuses, and what standard error holds.

const straceLines = "1234  openat(AT_FDCWD, \"/etc/passwd\", O_RDONLY) = 3\n1234  read(3, \"root\", 4) = 4\n1234  close(3) = 0\n"

// writeInput writes a small strace log into dir.
func writeInput(t *testing.T, dir string) string {
	t.Helper()
	in := filepath.Join(dir, "in.strace")
	if err := os.WriteFile(in, []byte(straceLines), 0o644); err != nil {
		t.Fatal(err)
	}
	return in
}

// dirNames lists dir.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	es, _ := os.ReadDir(dir)
	var n []string
	for _, e := range es {
		n = append(n, e.Name())
	}
	return n
}

func TestOutputSymlinkFollowed(t *testing.T) {
	dir := t.TempDir()
	in := writeInput(t, dir)
	target := filepath.Join(dir, "real.jsonl")
	os.WriteFile(target, []byte("old\n"), 0o600)
	link := filepath.Join(dir, "link.jsonl")
	os.Symlink("real.jsonl", link)
	if status, _, stderr := runCLI("records", "-o", link, in); status != exitOK {
		t.Fatalf("status %d: %s", status, stderr)
	}
	st, err := os.Lstat(link)
	if err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link is gone: %v %v", st, err)
	}
	data, _ := os.ReadFile(target)
	if n := bytes.Count(data, []byte("\n")); n != 3 || !bytes.Contains(data, []byte(`"openat"`)) {
		t.Errorf("target holds %q", data)
	}
	if st, _ := os.Stat(target); st.Mode().Perm() != 0o600 {
		t.Errorf("permissions %v, want kept -rw-------", st.Mode())
	}
}

func TestOutputFIFO(t *testing.T) {
	dir := t.TempDir()
	in := writeInput(t, dir)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs:", err)
	}
	got := make(chan []byte)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- nil
			return
		}
		data, _ := io.ReadAll(f)
		f.Close()
		got <- data
	}()
	status, _, stderr := runCLI("records", "--format", "csv", "-o", fifo, in)
	if status != exitOK {
		t.Fatalf("status %d: %s", status, stderr)
	}
	data := <-got
	if lines := strings.Split(strings.TrimSpace(string(data)), "\n"); len(lines) != 4 {
		t.Errorf("the reader got %d lines, want a header and 3 records:\n%s", len(lines), data)
	}
	if st, _ := os.Lstat(fifo); st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO is now %v", st.Mode())
	}
	if names := dirNames(t, dir); len(names) != 2 {
		t.Errorf("files %v", names)
	}
}

func TestOutputDashAndDevices(t *testing.T) {
	dir := t.TempDir()
	in := writeInput(t, dir)
	t.Chdir(dir)
	status, stdout, _ := runCLI("records", "-o", "-", "in.strace")
	if status != exitOK || strings.Count(stdout, "\n") != 3 {
		t.Errorf("-o -: status %d, %q", status, stdout)
	}
	if _, err := os.Stat(filepath.Join(dir, "-")); err == nil {
		t.Error("-o - made a file named -")
	}
	if status, _, stderr := runCLI("records", "-o", "/dev/null", in); status != exitOK {
		t.Errorf("/dev/null: status %d %s", status, stderr)
	}
	if st, _ := os.Lstat("/dev/null"); st.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("/dev/null is now %v", st.Mode())
	}
	if _, err := os.Stat("/dev/full"); err == nil {
		status, _, stderr := runCLI("records", "-o", "/dev/full", in)
		if status != exitOutput || !strings.Contains(stderr, "/dev/full") {
			t.Errorf("/dev/full: status %d, %q; want 3 naming it", status, stderr)
		}
		if st, _ := os.Lstat("/dev/full"); st.Mode()&os.ModeCharDevice == 0 {
			t.Fatalf("/dev/full is now %v", st.Mode())
		}
	}
}

// TestExitStatuses: one table for every command (status.go).
func TestExitStatuses(t *testing.T) {
	dir := t.TempDir()
	in := writeInput(t, dir)
	bad := filepath.Join(dir, "bad.strace")
	os.WriteFile(bad, []byte(straceLines+"1234  this is not strace\n"), 0o644)
	garbage := filepath.Join(dir, "garbage.stda")
	os.WriteFile(garbage, bytes.Repeat([]byte{0xA5}, 300), 0o644)
	for _, tc := range []struct {
		args   []string
		status int
	}{
		{[]string{"records", in}, exitOK},
		{[]string{"records", bad}, exitError},
		{[]string{"records", "--keep-going", bad}, exitOK},
		{[]string{"records", filepath.Join(dir, "missing")}, exitError},
		{[]string{"records", "--dialect", "stda", garbage}, exitError},
		{[]string{"records", "--dialect", "nosuch", in}, exitUsage},
		{[]string{"records", "--format", "nosuch", in}, exitUsage},
		{[]string{"records", "--nosuch", in}, exitUsage},
		{[]string{"records", "-o", filepath.Join(dir, "no", "such", "out"), in}, exitOutput},
		{[]string{"generate", "--dialect", "nosuch", "--size", "10", "-o", filepath.Join(dir, "g")}, exitUsage},
		{[]string{"compile", "--tff-dir", filepath.Join(dir, "missing"), "../../testdata/example.tsf"}, exitOutput},
		{[]string{"compile", "--tff-dir", dir, "../../testdata/example.tsf"}, exitOK},
		{[]string{"combine", "-o", filepath.Join(dir, "no", "C.TFF"), filepath.Join(dir, "TRC00C2.TFF")}, exitOutput},
		{[]string{"check", filepath.Join(dir, "missing.tsf")}, exitError},
	} {
		status, _, stderr := runCLI(tc.args...)
		if status != tc.status {
			t.Errorf("%v: status %d, want %d\n%s", tc.args, status, tc.status, stderr)
		}
	}
	// An unknown dialect prints no "0 inputs" summary.
	if _, _, stderr := runCLI("records", "--dialect", "nosuch", in); strings.Contains(stderr, "0 inputs") || !strings.Contains(stderr, "unknown dialect") {
		t.Errorf("unknown dialect: %q", stderr)
	}
	// Skipped lines keep the readable records in -o; --strict writes nothing.
	out := filepath.Join(dir, "kept.jsonl")
	if status, _, _ := runCLI("records", "-o", out, bad); status != exitError {
		t.Errorf("status %d", status)
	}
	if data, _ := os.ReadFile(out); bytes.Count(data, []byte("\n")) != 3 {
		t.Errorf("-o kept %q, want the 3 readable records", data)
	}
	strict := filepath.Join(dir, "strict.jsonl")
	if status, _, _ := runCLI("records", "--strict", "-o", strict, bad); status != exitError {
		t.Errorf("--strict: status %d", status)
	}
	if _, err := os.Stat(strict); err == nil {
		t.Error("--strict wrote its output after an error")
	}
}

// TestHelpShowsStatuses: --help ends with the table, and README.md shows
// the same table.
func TestHelpShowsStatuses(t *testing.T) {
	_, stdout, _ := runCLI("--help")
	if !strings.Contains(stdout, "Exit status:\n"+statusTableText("  ")) {
		t.Errorf("--help lacks the exit statuses:\n%s", stdout)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), statusTableText("    ")) {
		t.Errorf("README.md lacks the exit-status table as --help prints it:\n%s", statusTableText("    "))
	}
}

// TestJSONOnlyStderr: under --diagnostics=json every line on standard
// error is a JSON object, the summary and a fatal error included.
func TestJSONOnlyStderr(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.strace")
	os.WriteFile(bad, []byte(straceLines+"1234  this is not strace\n"), 0o644)
	for _, args := range [][]string{
		{"records", "--diagnostics=json", "--stats", bad},
		{"records", "--diagnostics=json", filepath.Join(dir, "missing")},
		{"records", "--diagnostics=json", "-o", filepath.Join(dir, "no", "x"), bad},
	} {
		_, _, stderr := runCLI(args...)
		lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
		if len(lines) < 1 || lines[0] == "" {
			t.Errorf("%v: %q", args, stderr)
		}
		for _, l := range lines {
			var v map[string]any
			if err := json.Unmarshal([]byte(l), &v); err != nil {
				t.Errorf("%v: not JSON: %q", args, l)
			}
		}
	}
}

// TestWrongDialectIsBrief: a Linux strace log read as os2strace stops
// after dialect.LeadingFailures lines with one error naming strace.
func TestWrongDialectIsBrief(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "big.log")
	os.WriteFile(in, bytes.Repeat([]byte(straceLines), 5000), 0o644)
	status, stdout, stderr := runCLI("records", "--dialect", "os2strace", in)
	if status != exitError || stdout != "" {
		t.Errorf("status %d, %d bytes out", status, len(stdout))
	}
	if len(stderr) > 4096 || !strings.Contains(stderr, "try --dialect strace") || !strings.Contains(stderr, "[INP004]") {
		t.Errorf("%d bytes of stderr:\n%s", len(stderr), stderr)
	}
}

// TestMaxErrors: at most N errors are printed, the rest counted.
func TestMaxErrors(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "many.strace")
	os.WriteFile(in, []byte(straceLines+strings.Repeat("1234  not strace at all\n", 30)), 0o644)
	_, _, stderr := runCLI("records", "--max-errors", "5", in)
	if n := strings.Count(stderr, "error:"); n != 5 || !strings.Contains(stderr, "25 more errors not shown") {
		t.Errorf("%d errors printed:\n%s", n, stderr)
	}
}

// TestLivePipe: records read from a pipe leave as their lines arrive,
// long before the input ends, on one worker and on several.
func TestLivePipe(t *testing.T) {
	for _, workers := range []string{"1", "0"} {
		t.Run("workers="+workers, func(t *testing.T) { livePipe(t, workers) })
	}
}

func livePipe(t *testing.T, workers string) {
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	done := make(chan int)
	go func() {
		done <- run([]string{"records", "--workers", workers, "--dialect", "strace", "-"}, inR, outW, &stderr)
		outW.Close()
	}()
	lines := bufio.NewReader(outR)
	for i, l := range strings.SplitAfter(strings.TrimSuffix(straceLines, "\n"), "\n") {
		start := time.Now()
		if _, err := io.WriteString(inW, strings.TrimSuffix(l, "\n")+"\n"); err != nil {
			t.Fatal(err)
		}
		// (Detection waits up to 100 ms for more of the first lines.)
		got := make(chan string, 1)
		go func() { s, _ := lines.ReadString('\n'); got <- s }()
		select {
		case s := <-got:
			if !strings.Contains(s, `"line":`+string(rune('1'+i))) {
				t.Errorf("record %d: %s", i+1, s)
			}
			t.Logf("record %d out %v after its line", i+1, time.Since(start))
		case <-time.After(5 * time.Second):
			t.Fatalf("record %d not written 5 s after its line arrived", i+1)
		}
	}
	inW.Close()
	if status := <-done; status != exitOK {
		t.Errorf("status %d: %s", status, stderr.String())
	}
}

// TestSignalCleansUp: a signal during records -o removes the temporary
// file, clears the progress bar and exits 128 + the signal.
func TestSignalCleansUp(t *testing.T) {
	dir := t.TempDir()
	var bar bytes.Buffer
	e := &env{stdout: io.Discard, stderr: io.Discard, outs: outfile.NewRun(io.Discard)}
	var status int
	var wg sync.WaitGroup
	wg.Add(1)
	e.signals = newSignals(e, func(s int) { status = s; wg.Done() })
	f, err := e.outs.Create(filepath.Join(dir, "out.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("half a record"))
	b := progress.New(&bar, 100, "records", false)
	b.Add(50)
	e.signals.setBar(b)
	sig := make(chan os.Signal, 1)
	go e.signals.watch(sig, make(chan struct{}))
	sig <- syscall.SIGTERM
	wg.Wait()
	if status != 143 {
		t.Errorf("status %d, want 143", status)
	}
	if names := dirNames(t, dir); len(names) != 0 {
		t.Errorf("left %v", names)
	}
	if !strings.HasSuffix(bar.String(), "\r") {
		t.Errorf("the bar was not cleared: %q", bar.String())
	}
	// The run's summary, reached as the signal ends it, is not printed:
	// it would count records no file holds.
	var stderr bytes.Buffer
	e.stderr = &stderr
	for _, f := range []diagFlags{{Diagnostics: "text"}, {Diagnostics: "json"}} {
		newReporter(e, "records", f, diag.Warning, 0).end(dialect.Summary{Lines: 10, Records: 10})
	}
	if stderr.Len() > 0 {
		t.Errorf("a summary after the signal: %q", stderr.String())
	}
}

// TestSignalSubprocess: SIGTERM to a real tracekit reading a slow pipe
// into -o: exit status 143, no temporary file left.
func TestSignalSubprocess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds tracekit (not with -short)")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "tracekit")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	outDir := filepath.Join(dir, "out")
	os.Mkdir(outDir, 0o755)
	cmd := exec.Command(bin, "records", "--dialect", "strace", "-o", filepath.Join(outDir, "trace.jsonl"), "-")
	stdin, _ := cmd.StdinPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	io.WriteString(stdin, straceLines)
	// Wait for the temporary file to appear: the run is under way.
	deadline := time.Now().Add(10 * time.Second)
	for len(dirNames(t, outDir)) == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if len(dirNames(t, outDir)) == 0 {
		t.Fatal("no temporary file appeared")
	}
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 143 {
		t.Errorf("exit status %d (%v), want 143; stderr %q", code, err, stderr.String())
	}
	if names := dirNames(t, outDir); len(names) != 0 {
		t.Errorf("left %v", names)
	}
	stdin.Close()
}

// TestFollow: --follow writes the records of a growing file as its lines
// come, reads it again from its start when it is truncated, and ends
// normally (status 0) at the first signal.
func TestFollow(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "grow.strace")
	lines := strings.SplitAfter(straceLines, "\n")
	os.WriteFile(in, []byte(lines[0]), 0o644)
	outR, outW, _ := os.Pipe()
	sig := make(chan os.Signal, 1)
	var stderr bytes.Buffer
	done := make(chan int)
	go func() {
		done <- runSignals([]string{"records", "--follow", "--format", "text", in}, strings.NewReader(""), outW, &stderr, sig, func(int) { t.Error("the signal ended the run hard") })
		outW.Close()
	}()
	out := bufio.NewReader(outR)
	next := func(want string) { t.Helper(); nextRecord(t, out, want) }
	next("openat")
	f, _ := os.OpenFile(in, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(lines[1])
	f.Close()
	next("read")
	os.WriteFile(in, []byte(lines[2]), 0o644) // truncated: read again from the start
	next("close")
	sig <- syscall.SIGINT
	select {
	case status := <-done:
		if status != exitOK {
			t.Errorf("status %d: %s", status, stderr.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the run did not end after the signal")
	}
}

// nextRecord reads the next line of out, which must hold want, within 5 s.
func nextRecord(t *testing.T, out *bufio.Reader, want string) {
	t.Helper()
	got := make(chan string, 1)
	go func() { s, _ := out.ReadString('\n'); got <- s }()
	select {
	case s := <-got:
		if !strings.Contains(s, want) {
			t.Errorf("got %q, want %s", s, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("no record for %s within 5 s", want)
	}
}

// TestFollowFIFO: --follow on a FIFO reads it as it comes, each record as
// its line arrives, and ends normally when its writer closes it (a FIFO
// has no size and cannot be read again from its start).
func TestFollowFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "live.strace")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	lines := strings.SplitAfter(straceLines, "\n")
	outR, outW, _ := os.Pipe()
	var stderr bytes.Buffer
	done := make(chan int)
	go func() {
		done <- runSignals([]string{"records", "--follow", "--format", "text", fifo}, strings.NewReader(""), outW, &stderr, make(chan os.Signal), func(int) {})
		outW.Close()
	}()
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := bufio.NewReader(outR)
	for i, want := range []string{"openat", "read"} {
		w.WriteString(lines[i])
		nextRecord(t, out, want)
	}
	w.Close()
	select {
	case status := <-done:
		if status != exitOK {
			t.Errorf("status %d: %s", status, stderr.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the run did not end when the FIFO's writer closed it")
	}
}

// TestStderrReadable: a malformed line with control bytes in it is
// reported in the dialect's words, its line shown with a caret, and no
// raw control byte reaches standard error.
func TestStderrReadable(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "ctl.strace")
	os.WriteFile(in, []byte("1234  read(3, \"x\", 1) = 1\n1234  wr\x7fite(1, \"a\x01b\", 3) = 3\n\x7fline\n"), 0o644)
	_, _, stderr := runCLI("records", "--dialect", "strace", in)
	for i := 0; i < len(stderr); i++ {
		if c := stderr[i]; c < 0x20 && c != '\n' || c == 0x7f {
			t.Fatalf("raw byte %#x on stderr:\n%q", c, stderr)
		}
	}
	for _, want := range []string{`unexpected character "\x7f"`, "\n    \\x7fline\n    ^\n"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if internals := []string{"lexer", "unexpected token", "(expected"}; strings.Contains(stderr, internals[0]) || strings.Contains(stderr, internals[1]) || strings.Contains(stderr, internals[2]) {
		t.Errorf("parser internals on stderr:\n%s", stderr)
	}
}
