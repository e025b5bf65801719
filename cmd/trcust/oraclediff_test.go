package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
	"github.com/tracekit/tracekit/lower/tsfcompile/tsfgen"
)

// The differential harness: TestOracleDiff generates TRCUST runs
// (lower/tsfcompile/tsfgen), runs each through IBM's TRCUST 3.05A (through
// ../shared/oracle-runner/run-case) and through trcust, and compares the
// exit status, the console (stdout and stderr as they interleave, CRLF and
// all: run-case gives TRCUST no DPATH, so its ".\NAME" prefixes are what
// trcust prints too) and every file written, byte for byte. A case that
// differs is minimised by delta debugging over the lines of its TSF (the
// smallest program that still differs in the same way) and printed.
//
// It needs IBM's binary: it skips, saying so, unless TRCUST_EXE and
// TWOINE_BUILD are set as the oracle-runner README says. `make oracle-diff
// N=1000` runs it. Environment:
//
//	ORACLE_N      number of cases (default 200)
//	ORACLE_SEED   the first seed (default 1); case i has seed ORACLE_SEED+i
//	ORACLE_SEEDS  a comma-separated list of seeds to run instead
//	ORACLE_JOBS   IBM runs at once (default 2)
//	ORACLE_MIN    how many differing cases to minimise (default 10; the
//	              first of each kind of difference first)
//	ORACLE_CACHE  where IBM's results are kept between runs, by the hash of
//	              the inputs and the command line (default
//	              $TMPDIR/tracekit-oracle-cache)
//	ORACLE_OUT    a folder to write each differing case to (inputs, IBM's
//	              outputs under ibm/, trcust's under ours/)
//	ORACLE_FAIL   set to 1 to fail the test when a case differs
//	ORACLE_KEEP   with ORACLE_OUT, a regular expression: every case whose
//	              console from IBM matches it is written too, under
//	              keep-SEED (to study a behaviour on the cases that agree)
func TestOracleDiff(t *testing.T) {
	if os.Getenv("TRCUST_EXE") == "" || os.Getenv("TWOINE_BUILD") == "" {
		t.Skip("TRCUST_EXE and TWOINE_BUILD are not set: the differential test against IBM's TRCUST 3.05A needs its binary (../shared/oracle-runner/README.md)")
	}
	h := newHarness(t)
	var seeds []int64
	if s := os.Getenv("ORACLE_SEEDS"); s != "" {
		for _, f := range strings.Split(s, ",") {
			v, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
			if err != nil {
				t.Fatalf("ORACLE_SEEDS: %v", err)
			}
			seeds = append(seeds, v)
		}
	} else {
		n, first := envInt("ORACLE_N", 200), envInt("ORACLE_SEED", 1)
		for i := 0; i < n; i++ {
			seeds = append(seeds, int64(first+i))
		}
	}
	cases := make([]*tsfgen.Case, len(seeds))
	for i, s := range seeds {
		cases[i] = tsfgen.Generate(s)
		if m := cases[i].Module; m != "" {
			// The module replaces emitrep.dll (withEmitrep gives way to
			// the case's files).
			dll, err := os.ReadFile(corpus.Path(t, "corpus", "os2", "lx", m))
			if err != nil {
				t.Fatal(err)
			}
			cases[i].Files["emitrep.dll"] = dll
		}
	}

	// IBM runs ahead on ORACLE_JOBS workers; the cases are judged in order.
	ibm := make([]chan oracleResult, len(cases))
	for i := range ibm {
		ibm[i] = make(chan oracleResult, 1)
	}
	work := make(chan int)
	var wg sync.WaitGroup
	for j := envInt("ORACLE_JOBS", 2); j > 0; j-- {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				ibm[i] <- h.ibm(cases[i].Files, cases[i].Emitrep, cases[i].Args)
			}
		}()
	}
	go func() {
		for i := range cases {
			work <- i
		}
		close(work)
	}()
	defer wg.Wait()

	var sum diffSummary
	sum.byFeature = map[string]*[2]int{}
	sum.buckets = map[string][]int64{}
	sum.departures = map[string][]int64{}
	var failing []*tsfgen.Case
	var failAspects []string
	var keep *regexp.Regexp
	if k := os.Getenv("ORACLE_KEEP"); k != "" {
		keep = regexp.MustCompile(k)
	}
	for i, c := range cases {
		want := <-ibm[i]
		if want.err != "" {
			t.Fatalf("seed %d: IBM's TRCUST did not run: %s", c.Seed, want.err)
		}
		got := h.ours(c.Files, c.Emitrep, c.Args)
		d := compareResults(want, got)
		if dep := departure(c, want, got); dep != "" && len(d) > 0 {
			sum.departures[dep] = append(sum.departures[dep], c.Seed)
			if out := os.Getenv("ORACLE_OUT"); out != "" {
				saveCase(t, filepath.Join(out, fmt.Sprintf("explained-%d", c.Seed)), c.Files, c.Args, c.Emitrep, want, got)
			}
			d = nil
		}
		sum.add(c, d)
		if out := os.Getenv("ORACLE_OUT"); keep != nil && out != "" && len(d) == 0 && keep.MatchString(want.console) {
			saveCase(t, filepath.Join(out, fmt.Sprintf("keep-%d", c.Seed)), c.Files, c.Args, c.Emitrep, want, got)
		}
		if len(d) > 0 {
			key := bucketKey(want, got, d)
			sum.buckets[key] = append(sum.buckets[key], c.Seed)
			failing = append(failing, c)
			failAspects = append(failAspects, key)
			if out := os.Getenv("ORACLE_OUT"); out != "" {
				saveCase(t, filepath.Join(out, fmt.Sprint(c.Seed)), c.Files, c.Args, c.Emitrep, want, got)
			}
		}
	}
	t.Log("\n" + sum.String())

	// Minimise the first case of each bucket, the largest buckets first.
	budget := envInt("ORACLE_MIN", 10)
	keys := make([]string, 0, len(sum.buckets))
	for k := range sum.buckets {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if len(sum.buckets[keys[i]]) != len(sum.buckets[keys[j]]) {
			return len(sum.buckets[keys[i]]) > len(sum.buckets[keys[j]])
		}
		return keys[i] < keys[j]
	})
	for _, k := range keys {
		if budget == 0 {
			break
		}
		for i, c := range failing {
			if failAspects[i] != k || c.TSF == "" {
				continue
			}
			budget--
			min := h.minimise(c)
			files := map[string][]byte{}
			for n, b := range c.Files {
				files[n] = b
			}
			files[c.TSF] = min
			want := h.ibm(files, c.Emitrep, c.Args)
			got := h.ours(files, c.Emitrep, c.Args)
			t.Logf("seed %d (%s), minimised: trcust %s\n%s\n--- TRCUST 3.05A (exit %d)\n%s--- trcust (exit %d)\n%s",
				c.Seed, k, strings.Join(c.Args, " "), min, want.rc, want.console, got.rc, got.console)
			if out := os.Getenv("ORACLE_OUT"); out != "" {
				saveCase(t, filepath.Join(out, fmt.Sprintf("min-%d", c.Seed)), files, c.Args, c.Emitrep, want, got)
			}
			break
		}
	}
	if os.Getenv("ORACLE_FAIL") == "1" && len(failing) > 0 {
		t.Errorf("%d of %d cases differ from IBM's TRCUST", len(failing), len(cases))
	}
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return v
	}
	return def
}

// oracleResult is what one run did: exit status, console, files written.
type oracleResult struct {
	RC      int               `json:"rc"`
	Console []byte            `json:"console"`
	Files   map[string][]byte `json:"files"`
	err     string
	rc      int
	console string
}

// harness runs cases through IBM's TRCUST and through trcust.
type harness struct {
	t               *testing.T
	runner          string
	emitDLL, emitMP []byte
	cache           string
	ourMu           sync.Mutex // trcust runs in this process, in its own current directory
}

func newHarness(t *testing.T) *harness {
	h := &harness{t: t, runner: corpus.Path(t, "oracle-runner", "run-case")}
	var err error
	if h.emitDLL, err = os.ReadFile(corpus.Path(t, "corpus", "os2", "lx", "osfree_emitrep.dll")); err != nil {
		t.Fatal(err)
	}
	if h.emitMP, err = os.ReadFile(corpus.Path(t, "corpus", "os2", "lx", "osfree_emitrep.map")); err != nil {
		t.Fatal(err)
	}
	h.cache = os.Getenv("ORACLE_CACHE")
	if h.cache == "" {
		h.cache = filepath.Join(os.TempDir(), "tracekit-oracle-cache")
	}
	if err := os.MkdirAll(h.cache, 0o755); err != nil {
		t.Fatal(err)
	}
	return h
}

// workdir makes a folder holding the inputs of a run.
func (h *harness) workdir(files map[string][]byte, emitrep bool) (string, error) {
	dir, err := os.MkdirTemp("", "oraclediff")
	if err != nil {
		return "", err
	}
	if emitrep {
		files = withEmitrep(files, h.emitDLL, h.emitMP)
	}
	for n, b := range files {
		if err := writeTreeFile(dir, n, b); err != nil {
			return "", err
		}
	}
	return dir, nil
}

func withEmitrep(files map[string][]byte, dll, mp []byte) map[string][]byte {
	all := map[string][]byte{"emitrep.dll": dll, "emitrep.map": mp}
	for n, b := range files {
		all[n] = b
	}
	return all
}

// key is the cache key of a run: its inputs and command line.
func runKey(files map[string][]byte, emitrep bool, args []string) string {
	s := sha256.New()
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(s, "%q %d\n", n, len(files[n]))
		s.Write(files[n])
	}
	fmt.Fprintf(s, "emitrep=%v args=%q", emitrep, args)
	return hex.EncodeToString(s.Sum(nil))
}

// ibm runs IBM's TRCUST on a case (or takes its result from the cache).
func (h *harness) ibm(files map[string][]byte, emitrep bool, args []string) oracleResult {
	cached := filepath.Join(h.cache, runKey(files, emitrep, args)+".json")
	var r oracleResult
	if data, err := os.ReadFile(cached); err == nil && json.Unmarshal(data, &r) == nil {
		r.rc, r.console = r.RC, string(r.Console)
		return r
	}
	dir, err := h.workdir(files, emitrep)
	if err != nil {
		return oracleResult{err: err.Error()}
	}
	defer os.RemoveAll(dir)
	res, err := os.MkdirTemp("", "oraclediff-res")
	if err != nil {
		return oracleResult{err: err.Error()}
	}
	defer os.RemoveAll(res)
	cmd := exec.Command(h.runner, append([]string{"-o", res, dir}, args...)...)
	cmd.Dir = dir // not this process's current directory: trcust's runs change it
	if out, err := cmd.CombinedOutput(); err != nil {
		return oracleResult{err: fmt.Sprintf("%v: %s", err, out)}
	}
	r.Console, _ = os.ReadFile(filepath.Join(res, "console.txt"))
	rc, _ := os.ReadFile(filepath.Join(res, "rc"))
	r.RC, _ = strconv.Atoi(strings.TrimSpace(string(rc)))
	// What TRCUST wrote: the files new or changed, in folders too
	// (run-case's outputs list names those at the top only).
	all := files
	if emitrep {
		all = withEmitrep(files, h.emitDLL, h.emitMP)
	}
	r.Files = written(h.t, dir, all)
	if data, err := json.Marshal(&r); err == nil {
		_ = os.WriteFile(cached+".tmp", data, 0o644)
		_ = os.Rename(cached+".tmp", cached)
	}
	r.rc, r.console = r.RC, string(r.Console)
	return r
}

// ours runs trcust on a case, in this process.
func (h *harness) ours(files map[string][]byte, emitrep bool, args []string) (r oracleResult) {
	h.ourMu.Lock()
	defer h.ourMu.Unlock()
	return runOurs(h.t, files, emitrep, h.emitDLL, h.emitMP, args)
}

// runOurs runs trcust's run in a fresh directory holding files and returns
// what it did; a panic is reported as exit status -1.
func runOurs(t testing.TB, files map[string][]byte, emitrep bool, dll, mp []byte, args []string) (r oracleResult) {
	if emitrep {
		files = withEmitrep(files, dll, mp)
	}
	dir, err := os.MkdirTemp("", "oraclediff-ours")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	for n, b := range files {
		if err := writeTreeFile(dir, n, b); err != nil {
			t.Fatal(err)
		}
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := os.Chdir(wd); err != nil {
			t.Fatal(err)
		}
	}()
	var console, stdout, stderr bytes.Buffer
	func() {
		defer func() {
			if p := recover(); p != nil {
				r.RC = -1
				fmt.Fprintf(&console, "PANIC: %v", p)
			}
		}()
		r.RC = run(args, teeWriter{&console, &stdout}, teeWriter{&console, &stderr})
	}()
	r.Console = console.Bytes()
	r.Files = written(t, dir, files)
	r.rc, r.console = r.RC, string(r.Console)
	return r
}

// written returns what a run wrote in dir: its files, by slash-separated
// name, that are not among inputs as they were.
func written(t testing.TB, dir string, inputs map[string][]byte) map[string][]byte {
	out := map[string][]byte{}
	for n, data := range readTree(t, dir) {
		if old, ok := inputs[n]; !ok || !bytes.Equal(old, data) {
			out[n] = data
		}
	}
	return out
}

// savedResult returns what IBM's TRCUST did in a saved case's folder (its
// ibm/ folder, or a folder of that form): console.txt, rc and the files.
func savedResult(t testing.TB, dir string) oracleResult {
	want := oracleResult{Files: map[string][]byte{}}
	for n, data := range readTree(t, dir) {
		switch n {
		case "console.txt":
			want.Console = data
		case "rc":
			want.RC, _ = strconv.Atoi(strings.TrimSpace(string(data)))
		default:
			want.Files[n] = data
		}
	}
	return want
}

// writeTreeFile writes the file of slash-separated name under dir, making
// its folders.
func writeTreeFile(dir, name string, data []byte) error {
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, data, 0o644)
}

// readTree returns the files under dir by their slash-separated names
// relative to it (a case's inputs and outputs may lie in folders: "a.tsf
// sub\o.tdf" writes sub/o.tdf and sub/TRC0005.TFF).
func readTree(t testing.TB, dir string) map[string][]byte {
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)], err = os.ReadFile(p)
		return err
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return files
}

// Aspects of a difference.
const (
	aspExit    = "exit"
	aspConsole = "console"
	aspTFF     = "tff"
	aspTDF     = "tdf"
	aspOther   = "other-file"
)

// fileKind sorts an output file into TFF, TDF or other.
func fileKind(name string) string {
	switch strings.ToUpper(filepath.Ext(name)) {
	case ".TDF":
		return aspTDF
	case ".TMI":
		return aspOther
	}
	return aspTFF // TRC00xx.TFF, and a /C= destination of any name
}

// compareResults lists the aspects in which two runs differ, sorted.
func compareResults(want, got oracleResult) []string {
	set := map[string]bool{}
	if want.RC != got.RC {
		set[aspExit] = true
	}
	if !bytes.Equal(want.Console, got.Console) {
		set[aspConsole] = true
	}
	for n, b := range want.Files {
		if g, ok := got.Files[n]; !ok || !bytes.Equal(g, b) {
			set[fileKind(n)] = true
		}
	}
	for n := range got.Files {
		if _, ok := want.Files[n]; !ok {
			set[fileKind(n)] = true
		}
	}
	var out []string
	for a := range set {
		out = append(out, a)
	}
	sort.Strings(out)
	return out
}

var digits = regexp.MustCompile(`[0-9A-Fa-f]{4,}|[0-9]+`)

// bucketKey names the kind of a difference: the aspects, and for a console
// difference the first line that differs on each side, numbers masked.
func bucketKey(want, got oracleResult, aspects []string) string {
	key := strings.Join(aspects, "+")
	if !bytes.Equal(want.Console, got.Console) {
		w := strings.Split(strings.ReplaceAll(want.console, "\r", ""), "\n")
		g := strings.Split(strings.ReplaceAll(got.console, "\r", ""), "\n")
		i := 0
		for i < len(w) && i < len(g) && w[i] == g[i] {
			i++
		}
		line := func(l []string) string {
			if i < len(l) {
				return digits.ReplaceAllString(l[i], "N")
			}
			return "<end>"
		}
		key += fmt.Sprintf(" | IBM: %s | trcust: %s", line(w), line(g))
	}
	return key
}

// diffSummary counts cases and differences.
type diffSummary struct {
	cases, compile, combine, faulty  int
	differ, exit, console, tff, tdf  int
	other                            int
	byFeature                        map[string]*[2]int // cases, differing
	buckets                          map[string][]int64
	departures                       map[string][]int64 // explained differences, by why
	faultyDiffer, validDiffer, valid int
}

func (s *diffSummary) add(c *tsfgen.Case, d []string) {
	s.cases++
	if c.TSF == "" {
		s.combine++
	} else {
		s.compile++
	}
	if c.Faulty() {
		s.faulty++
	} else {
		s.valid++
	}
	for _, f := range c.Features {
		if s.byFeature[f] == nil {
			s.byFeature[f] = new([2]int)
		}
		s.byFeature[f][0]++
		if len(d) > 0 {
			s.byFeature[f][1]++
		}
	}
	if len(d) == 0 {
		return
	}
	s.differ++
	if c.Faulty() {
		s.faultyDiffer++
	} else {
		s.validDiffer++
	}
	for _, a := range d {
		switch a {
		case aspExit:
			s.exit++
		case aspConsole:
			s.console++
		case aspTFF:
			s.tff++
		case aspTDF:
			s.tdf++
		case aspOther:
			s.other++
		}
	}
}

func (s *diffSummary) String() string {
	var b strings.Builder
	pct := func(bad int) float64 { return 100 * float64(s.cases-bad) / float64(s.cases) }
	fmt.Fprintf(&b, "cases %d (compile %d, combine %d; faulty %d, valid %d)\n", s.cases, s.compile, s.combine, s.faulty, s.valid)
	fmt.Fprintf(&b, "differ %d (faulty %d, valid %d): exit %d, console %d, TFF %d, TDF %d, other files %d\n",
		s.differ, s.faultyDiffer, s.validDiffer, s.exit, s.console, s.tff, s.tdf, s.other)
	fmt.Fprintf(&b, "match: all %.1f%%, exit %.1f%%, console %.1f%%, TFF %.1f%%, TDF %.1f%%\n",
		pct(s.differ), pct(s.exit), pct(s.console), pct(s.tff), pct(s.tdf))
	ndep := 0
	for _, v := range s.departures {
		ndep += len(v)
	}
	fmt.Fprintf(&b, "explained differences, not counted above: %d\n", ndep)
	deps := make([]string, 0, len(s.departures))
	for k := range s.departures {
		deps = append(deps, k)
	}
	sort.Strings(deps)
	for _, k := range deps {
		v := s.departures[k]
		fmt.Fprintf(&b, "  %4d  %s  %v\n", len(v), k, v[:min(len(v), 6)])
	}
	b.WriteString("by feature (cases, differing):\n")
	feats := make([]string, 0, len(s.byFeature))
	for f := range s.byFeature {
		feats = append(feats, f)
	}
	sort.Strings(feats)
	for _, f := range feats {
		v := s.byFeature[f]
		fmt.Fprintf(&b, "  %-28s %5d %5d\n", f, v[0], v[1])
	}
	b.WriteString("differences by kind (cases, seeds):\n")
	keys := make([]string, 0, len(s.buckets))
	for k := range s.buckets {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if len(s.buckets[keys[i]]) != len(s.buckets[keys[j]]) {
			return len(s.buckets[keys[i]]) > len(s.buckets[keys[j]])
		}
		return keys[i] < keys[j]
	})
	for _, k := range keys {
		seeds := s.buckets[k]
		shown := seeds
		if len(shown) > 6 {
			shown = shown[:6]
		}
		fmt.Fprintf(&b, "  %4d  %s  %v\n", len(seeds), k, shown)
	}
	return b.String()
}

// departure names what explains a difference of a case from IBM's run: a
// departure docs/compatibility.md documents, "" when nothing does. A case
// it names is counted apart, not as a difference.
func departure(c *tsfgen.Case, want, got oracleResult) string {
	switch {
	case strings.Contains(want.console, "SIGSEGV") || want.RC == -11:
		// run-case says so in the console, or gives the signal as a
		// negative exit status (-11) with an empty console.
		return "IBM's TRCUST crashed (SIGSEGV under 2ine)"
	case slices.ContainsFunc(c.Args, func(a string) bool { return strings.EqualFold(a, "/D") }) && sameConsole(want, got) && sameFiles(want, got, aspTDF):
		return "compatibility: /D writes a valid TFF (e26d)"
	case slices.ContainsFunc(c.Args, func(a string) bool { return strings.EqualFold(a, "/D") }) && want.RC == got.RC &&
		bytes.Equal(tffCountLine.ReplaceAll(want.Console, nil), tffCountLine.ReplaceAll(got.Console, nil)) && sameFiles(want, got, aspTFF):
		// TRCUST 3.05A counts the duplicate in its malformed TFF (e26d);
		// trcust's valid one holds the records it can.
		return "compatibility: /D writes a valid TFF (e26d)"
	}
	return ""
}

// tffCountLine is the record count of the "Creating TFF file" line.
var tffCountLine = regexp.MustCompile(`# records = [0-9]+`)

func sameConsole(a, b oracleResult) bool { return a.RC == b.RC && bytes.Equal(a.Console, b.Console) }

// sameFiles reports whether two runs wrote the same files, those of kind
// skip left out ("" for none).
func sameFiles(a, b oracleResult, skip string) bool {
	for _, d := range compareResults(oracleResult{Files: a.Files}, oracleResult{Files: b.Files}) {
		if d != skip {
			return false
		}
	}
	return true
}

// minimise takes lines away from the case's TSF while the run still
// differs from IBM's in the same way (bucketKey) (ddmin, Zeller and Hildebrandt),
// then the words of the lines left, and returns the smallest TSF found.
func (h *harness) minimise(c *tsfgen.Case) []byte {
	files := map[string][]byte{}
	for n, b := range c.Files {
		files[n] = b
	}
	// The same kind of difference: the same aspects, and the same first
	// differing console lines (numbers masked).
	kind := func(tsf []byte) string {
		files[c.TSF] = tsf
		w := h.ibm(files, c.Emitrep, c.Args)
		if w.err != "" {
			return ""
		}
		g := h.ours(files, c.Emitrep, c.Args)
		d := compareResults(w, g)
		if len(d) == 0 {
			return ""
		}
		return bucketKey(w, g, d)
	}
	target := kind(c.Files[c.TSF])
	fails := func(tsf []byte) bool { return kind(tsf) == target }
	nl := "\r\n"
	if !bytes.Contains(c.Files[c.TSF], []byte("\r\n")) {
		nl = "\n"
	}
	join := func(parts []string) []byte { return []byte(strings.Join(parts, nl)) }
	lines := strings.Split(string(c.Files[c.TSF]), nl)
	lines = ddmin(lines, func(p []string) bool { return fails(join(p)) })
	// Then the blanks-separated words of each line.
	for i := range lines {
		words := strings.SplitAfter(lines[i], " ")
		if len(words) < 2 {
			continue
		}
		words = ddmin(words, func(p []string) bool {
			try := append(append(append([]string{}, lines[:i]...), strings.Join(p, "")), lines[i+1:]...)
			return fails(join(try))
		})
		lines[i] = strings.Join(words, "")
	}
	return join(lines)
}

// ddmin is Zeller's delta debugging: the smallest sub-list of items (in
// order) found for which fails holds, given that it holds for items.
func ddmin(items []string, fails func([]string) bool) []string {
	n := 2
	for len(items) >= 2 {
		chunk := (len(items) + n - 1) / n
		reduced := false
		for start := 0; start < len(items); start += chunk {
			end := min(start+chunk, len(items))
			complement := append(append([]string{}, items[:start]...), items[end:]...)
			if len(complement) > 0 && fails(complement) {
				items, n, reduced = complement, max(n-1, 2), true
				break
			}
		}
		if !reduced {
			if n >= len(items) {
				break
			}
			n = min(2*n, len(items))
		}
	}
	return items
}

// saveCase writes a case's inputs, command line and both results to dir.
func saveCase(t *testing.T, dir string, files map[string][]byte, args []string, emitrep bool, want, got oracleResult) {
	for sub, r := range map[string]oracleResult{"ibm": want, "ours": got} {
		d := filepath.Join(dir, sub)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		_ = os.WriteFile(filepath.Join(d, "console.txt"), r.Console, 0o644)
		_ = os.WriteFile(filepath.Join(d, "rc"), []byte(fmt.Sprintln(r.RC)), 0o644)
		for n, b := range r.Files {
			_ = writeTreeFile(d, n, b)
		}
	}
	in := filepath.Join(dir, "in")
	_ = os.MkdirAll(in, 0o755)
	for n, b := range files {
		_ = writeTreeFile(in, n, b)
	}
	a := strings.Join(args, "\n") + "\n"
	if emitrep {
		a = "#emitrep\n" + a
	}
	_ = os.WriteFile(filepath.Join(dir, "args"), []byte(a), 0o644)
}

// TestOracleDiffCases runs trcust on every case of testdata/oraclediff
// (programs the differential harness found differing from IBM's TRCUST
// 3.05A, minimised, with IBM's outputs beside them: README.md there) and
// compares the exit status, the console and every file written with IBM's,
// byte for byte. It needs no IBM binary; a case that runs against emitrep.dll
// or another module of the shared corpus ("#module") skips when the corpus
// is absent.
func TestOracleDiffCases(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "oraclediff", "*", "args"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no cases in testdata/oraclediff (%v)", err)
	}
	for _, argsFile := range dirs {
		dir := filepath.Dir(argsFile)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			raw, err := os.ReadFile(argsFile)
			if err != nil {
				t.Fatal(err)
			}
			var args []string
			emitrep := false
			files := map[string][]byte{}
			for _, l := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
				if l == "#emitrep" {
					emitrep = true
					continue
				}
				if mod, ok := strings.CutPrefix(l, "#module "); ok {
					// "#module CORPUS LOCAL": a module of the shared
					// corpus, copied in as LOCAL.
					from, to, _ := strings.Cut(mod, " ")
					data, err := os.ReadFile(corpus.Path(t, "corpus", "os2", "lx", from))
					if err != nil {
						t.Fatal(err)
					}
					files[to] = data
					continue
				}
				if l == "" {
					continue // no arguments at all
				}
				args = append(args, l)
			}
			var dll, mp []byte
			if emitrep {
				dll, _ = os.ReadFile(corpus.Path(t, "corpus", "os2", "lx", "osfree_emitrep.dll"))
				mp, _ = os.ReadFile(corpus.Path(t, "corpus", "os2", "lx", "osfree_emitrep.map"))
			}
			for n, data := range readTree(t, filepath.Join(dir, "in")) {
				files[n] = data
			}
			want := savedResult(t, filepath.Join(dir, "ibm"))
			got := runOurs(t, files, emitrep, dll, mp, args)
			if d := compareResults(want, got); len(d) > 0 {
				t.Errorf("differs from TRCUST 3.05A in %v\n--- TRCUST 3.05A (exit %d)\n%s--- trcust (exit %d)\n%s", d, want.RC, want.Console, got.RC, got.Console)
			}
		})
	}
}
