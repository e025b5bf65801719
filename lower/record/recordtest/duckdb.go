package recordtest

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// duckdbFiles are the node package the DuckDB queries run in: its pinned
// @duckdb/node-api and the script.
//
//go:embed duckdb/package.json duckdb/query.mjs
var duckdbFiles embed.FS

// DuckDB is a real DuckDB (the @duckdb/node-api package run by node), for
// tests that read tracekit's output the way its users do.
type DuckDB struct {
	dir string
}

// NewDuckDB returns the DuckDB, installing the npm package on first use
// into TRACEKIT_DUCKDB_DIR, by default tracekit/duckdb in the user's cache
// directory. Without node or npm it skips the test, saying so, except
// under CI (CI=true), where it fails: CI installs them (.ci/run).
func NewDuckDB(tb testing.TB) *DuckDB {
	tb.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			msg := tool + " is not installed: the DuckDB checks of the Parquet and JSONL output need node, npm and the npm registry (.ci/run installs them)"
			if os.Getenv("CI") == "true" {
				tb.Fatal(msg)
			}
			tb.Skip(msg)
		}
	}
	dir := os.Getenv("TRACEKIT_DUCKDB_DIR")
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			cache = os.TempDir() // no HOME: a cache for this machine's session
		}
		dir = filepath.Join(cache, "tracekit", "duckdb")
	}
	if err := installDuckDB(dir); err != nil {
		tb.Fatalf("installing @duckdb/node-api into %s: %v", dir, err)
	}
	return &DuckDB{dir: dir}
}

// installDuckDB writes the package into dir and runs npm install there when
// the pinned package is not installed yet. A lock file keeps test binaries
// run at once from installing together.
func installDuckDB(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	lock, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return err
	}
	pkg, err := duckdbFiles.ReadFile("duckdb/package.json")
	if err != nil {
		return err
	}
	script, err := duckdbFiles.ReadFile("duckdb/query.mjs")
	if err != nil {
		return err
	}
	old, _ := os.ReadFile(filepath.Join(dir, "package.json"))
	_, statErr := os.Stat(filepath.Join(dir, "node_modules", "@duckdb", "node-api", "package.json"))
	if err := os.WriteFile(filepath.Join(dir, "query.mjs"), script, 0o644); err != nil {
		return err
	}
	if bytes.Equal(old, pkg) && statErr == nil {
		return nil
	}
	if err := os.WriteFile(filepath.Join(dir, "package.json"), pkg, 0o644); err != nil {
		return err
	}
	cmd := exec.Command("npm", "install", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@duckdb", "node-api", "package.json")); errors.Is(err, fs.ErrNotExist) {
		return errors.New("npm install did not install @duckdb/node-api")
	}
	return nil
}

// Query runs SQL statements in one in-memory DuckDB and returns the rows of
// each, as JSON objects (integers beyond JavaScript's as strings: DuckDB's
// getRowObjectsJson). It fails the test on any error.
func (d *DuckDB) Query(tb testing.TB, statements ...string) [][]map[string]any {
	tb.Helper()
	in, err := json.Marshal(statements)
	if err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command("node", filepath.Join(d.dir, "query.mjs"))
	cmd.Dir = d.dir
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("duckdb: %v\n%s", err, stderr.Bytes())
	}
	var res [][]map[string]any
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	if err := dec.Decode(&res); err != nil {
		tb.Fatalf("duckdb output: %v\n%s", err, out)
	}
	return res
}
