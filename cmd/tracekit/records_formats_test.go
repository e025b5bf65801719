package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
	"github.com/tracekit/tracekit/binfmt/stda"
	"github.com/tracekit/tracekit/binfmt/tracefmt"
	"github.com/tracekit/tracekit/lower/dialect"
	"github.com/tracekit/tracekit/lower/record/recordtest"
)

// formatInputs returns a trace file of every dialect with the dialect it
// is read in: every file of the shared corpus that a dialect recognises and
// reads records from,
// the repository's hand-written fixtures of the dialects the corpus has no
// file of (winstrace, prf, prfcsv: no public sample exists; found by
// detecting the dialect of every fixture of lower/dialect), and an STDA
// and its TRACEFMT save file built here. It fails when a registered dialect
// has no input, so that a new dialect is checked too.
func formatInputs(t *testing.T) map[string]string {
	t.Helper()
	inputs := map[string]string{}
	add := func(path string) {
		head := make([]byte, 8<<10)
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		n, _ := f.Read(head)
		f.Close()
		d, err := dialect.Detect(path, head[:n])
		if err != nil {
			return
		}
		// A name pattern may claim a file of a dialect not registered
		// (yet): only files giving records count.
		if _, out, _ := runCLI("records", "--keep-going", "--dialect", d.Name, path); out != "" {
			inputs[path] = d.Name
		}
	}
	root := corpus.Path(t, "corpus")
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.Contains(path, "trcust-oracle") && filepath.Ext(path) != ".md" {
			add(path)
		}
		return nil
	})
	// The lowerings' own fixtures, for the dialects the corpus has no file
	// of (and a new dialect, without an edit here).
	covered := map[string]bool{}
	for _, d := range inputs {
		covered[d] = true
	}
	fixtures, _ := filepath.Glob("../../lower/dialect/*/testdata/*")
	for _, p := range fixtures {
		switch filepath.Ext(p) {
		case ".diag", ".jsonl", ".md":
			continue
		}
		if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() || strings.HasPrefix(filepath.Base(p), "bad.") {
			continue
		}
		head, _ := os.ReadFile(p)
		if d, err := dialect.Detect(p, head); err == nil && !covered[d.Name] {
			add(p)
		}
	}
	dir := t.TempDir()
	w, err := stda.NewWriter(stda.FormatNew, 256)
	if err != nil {
		t.Fatal(err)
	}
	w.SetTraceTimes(stda.TraceTime{Year: 1996, Month: 8, Day: 7, Hour: 21, Minute: 57, Second: 7}, stda.TraceTime{})
	for _, r := range []stda.Record{
		{Flags: stda.FlagDynamic, PID: 0x21, Major: 0x42, Minor: 1, Time: stda.Timestamp{Len: 4, Hours: 21, Minutes: 57, Seconds: 8}, Data: []byte{0, 4}},
		{Flags: stda.FlagNoTime, PID: 0, Major: 0x30, Minor: 5, Data: []byte("static")},
		{Flags: stda.FlagDynamic, PID: 0x22, Major: 0x42, Minor: 2, Time: stda.Timestamp{Len: 4, Hours: 21, Minutes: 57, Seconds: 9, Hundredths: 50}, Data: []byte{0xAB}},
	} {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	save, err := tracefmt.Marshal(tracefmt.DateTime{Hours: 22, Day: 7, Month: 8, Year: 1996}, w.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"synthetic.stda": w.Bytes(), "synthetic.sav": save} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		add(p)
	}
	have := map[string]bool{}
	for _, d := range inputs {
		have[d] = true
	}
	for _, d := range dialect.Names() {
		if !have[d] {
			t.Errorf("no input of dialect %s to check the output formats on", d)
		}
	}
	return inputs
}

// TestChromeEveryDialect is the acceptance check for --format
// chrome: every dialect's files give a trace that passes the Trace Event
// structure check (recordtest.CheckChrome: what Perfetto's importer needs),
// with one event per record, with the halves kept too.
func TestChromeEveryDialect(t *testing.T) {
	for path, d := range formatInputs(t) {
		for _, extra := range [][]string{nil, {"--no-pair"}} {
			args := append([]string{"records", "--keep-going", "--dialect", d}, extra...)
			status, jsonl, stderr := runCLI(append(args, path)...)
			if status != exitOK {
				t.Fatalf("%s: status %d: %s", path, status, stderr)
			}
			status, out, stderr := runCLI(append(args, "--format", "chrome", path)...)
			if status != exitOK {
				t.Fatalf("%s: status %d: %s", path, status, stderr)
			}
			st, err := recordtest.CheckChrome([]byte(out))
			if err != nil {
				t.Errorf("%s %v: %v", path, extra, err)
			}
			records := strings.Count(jsonl, "\n")
			if n := st.Phases["X"] + st.Phases["B"] + st.Phases["E"] + st.Phases["i"] - st.Unended; n != records || records == 0 {
				t.Errorf("%s %v: %d events (%v), %d records", path, extra, n, st.Phases, records)
			}
			if len(st.Clocks) != 1 {
				t.Errorf("%s: clocks %v", path, st.Clocks)
			}
		}
	}
}

// parquetColumns are the columns of the Parquet output as DuckDB types
// them: docs/records.md documents the same list.
var parquetColumns = []string{
	"dialect VARCHAR", "source VARCHAR", "line BIGINT", "seq BIGINT", "time VARCHAR",
	"ts_ns BIGINT", "ts TIMESTAMP WITH TIME ZONE", "cpu UBIGINT", "pid UBIGINT", "tid UBIGINT",
	"process VARCHAR", "event VARCHAR", "major UBIGINT", "minor UBIGINT", "phase VARCHAR",
	"unpaired BOOLEAN", "dur_ns BIGINT", "errno VARCHAR", "args VARCHAR", "ret VARCHAR",
	"status VARCHAR", "data VARCHAR[]", "attrs VARCHAR",
}

// TestParquetDuckDB is the acceptance check for --format parquet:
// DuckDB reads the file of every dialect's input with the documented
// columns, the same number of rows as the JSONL output, and the same value
// in every column of every row as DuckDB reads from the JSONL.
func TestParquetDuckDB(t *testing.T) {
	db := recordtest.NewDuckDB(t)
	dir := t.TempDir()
	var stmts []string
	var names []string
	i := 0
	for path, d := range formatInputs(t) {
		pq := filepath.Join(dir, fmt.Sprintf("%d.parquet", i))
		jl := filepath.Join(dir, fmt.Sprintf("%d.jsonl", i))
		i++
		if status, _, stderr := runCLI("records", "--keep-going", "--dialect", d, "--format", "parquet", "-o", pq, path); status != exitOK {
			t.Fatalf("%s: status %d: %s", path, status, stderr)
		}
		if status, _, stderr := runCLI("records", "--keep-going", "--dialect", d, "-o", jl, path); status != exitOK {
			t.Fatalf("%s: status %d: %s", path, status, stderr)
		}
		names = append(names, path)
		stmts = append(stmts, parquetChecks(pq, jl)...)
	}
	res := db.Query(t, stmts...)
	per := len(parquetChecks("", ""))
	var rows, withArgs int
	for k, path := range names {
		r := res[k*per : (k+1)*per]
		var cols []string
		for _, c := range r[0] {
			cols = append(cols, fmt.Sprint(c["column_name"], " ", c["column_type"]))
		}
		if got, want := strings.Join(cols, ", "), strings.Join(parquetColumns, ", "); got != want {
			t.Errorf("%s: columns\n%s\nwant\n%s", path, got, want)
		}
		counts := r[1][0]
		if counts["parquet"] != counts["jsonl"] || counts["parquet"] != counts["matched"] || fmt.Sprint(counts["parquet"]) == "0" {
			t.Errorf("%s: rows %v", path, counts)
		}
		for _, m := range r[2] {
			t.Errorf("%s: parquet and JSONL differ: %v", path, m)
		}
		var n, a int
		fmt.Sscan(fmt.Sprint(counts["parquet"]), &n)
		fmt.Sscan(fmt.Sprint(counts["args"]), &a)
		rows, withArgs = rows+n, withArgs+a
	}
	if rows == 0 || withArgs == 0 {
		t.Errorf("%d rows, %d with args: nothing was compared", rows, withArgs)
	}
	t.Logf("%d files, %d rows compared column by column", len(names), rows)
}

// parquetChecks are the DuckDB statements checking one Parquet file
// against the JSONL of the same input: its columns; the row counts (and
// the rows matched by source and seq, and those with args); the rows where
// any column differs.
func parquetChecks(pq, jl string) []string {
	p := fmt.Sprintf("read_parquet('%s')", pq)
	j := fmt.Sprintf("(SELECT json AS r FROM read_json_objects('%s', format = 'newline_delimited'))", jl)
	join := fmt.Sprintf("%s p JOIN %s j ON p.source = (j.r->>'source') AND p.seq = (j.r->>'seq')::BIGINT", p, j)
	differ := []string{
		"p.dialect IS DISTINCT FROM (j.r->>'dialect')",
		"p.line IS DISTINCT FROM (j.r->>'line')::BIGINT",
		"p.time IS DISTINCT FROM (j.r->>'time')",
		"p.ts_ns IS DISTINCT FROM (j.r->>'ts_ns')::BIGINT",
		// ts_ns floored to µs in integers: a DOUBLE quotient rounds epoch
		// nanoseconds (strace -ttt), which are past 2⁵³.
		"epoch_us(p.ts) IS DISTINCT FROM ((j.r->>'ts_ns')::HUGEINT - (((j.r->>'ts_ns')::HUGEINT % 1000) + 1000) % 1000) // 1000",
		"p.cpu IS DISTINCT FROM (j.r->>'cpu')::UBIGINT",
		"p.pid IS DISTINCT FROM (j.r->>'pid')::UBIGINT",
		"p.tid IS DISTINCT FROM (j.r->>'tid')::UBIGINT",
		"p.process IS DISTINCT FROM (j.r->>'process')",
		"p.event IS DISTINCT FROM (j.r->>'event')",
		"p.major IS DISTINCT FROM (j.r->>'major')::UBIGINT",
		"p.minor IS DISTINCT FROM (j.r->>'minor')::UBIGINT",
		"p.phase IS DISTINCT FROM (j.r->>'phase')",
		"p.unpaired IS DISTINCT FROM coalesce((j.r->>'unpaired')::BOOLEAN, false)",
		"p.dur_ns IS DISTINCT FROM (j.r->>'dur_ns')::BIGINT",
		"p.errno IS DISTINCT FROM (j.r->>'errno')",
		"(p.args::JSON->'$') IS DISTINCT FROM (j.r->'args')", // both re-serialized: escapes compare equal
		"(p.ret::JSON->'$') IS DISTINCT FROM (j.r->'ret')",
		"p.status IS DISTINCT FROM (j.r->>'status')",
		"p.data IS DISTINCT FROM (j.r->'data')::VARCHAR[]",
		"(p.attrs::JSON->'$') IS DISTINCT FROM (j.r->'attrs')",
	}
	return []string{
		fmt.Sprintf("DESCRIBE SELECT * FROM %s", p),
		fmt.Sprintf("SELECT (SELECT count(*) FROM %s) AS parquet, (SELECT count(*) FROM %s) AS jsonl, (SELECT count(*) FROM %s) AS matched, (SELECT count(args) FROM %s) AS args", p, j, join, p),
		fmt.Sprintf("SELECT p.seq, p.source, j.r AS jsonl FROM %s WHERE %s LIMIT 5", join, strings.Join(differ, " OR ")),
	}
}

// TestParquetNeedsFile: parquet is written to a file only, and a failed
// run leaves no file behind.
func TestParquetNeedsFile(t *testing.T) {
	status, stdout, stderr := runCLI("records", "--format", "parquet", "../../lower/dialect/winstrace/testdata/pairs.wst")
	if status != exitUsage || stdout != "" || !strings.Contains(stderr, "needs -o") {
		t.Errorf("status %d, %q, %q", status, stdout, stderr)
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.out")
	os.WriteFile(bad, []byte("0102 13 29 9450:1545341324 0 fff37182 fff05c9c\nthis is not a hook\n"), 0o644)
	out := filepath.Join(dir, "t.parquet")
	if status, _, _ := runCLI("records", "--strict", "--dialect", "os2strace", "--format", "parquet", "-o", out, bad); status != exitError {
		t.Errorf("--strict: status %d", status)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("a failed run left %d files (want only the input)", len(entries))
	}
	if status, _, stderr := runCLI("records", "--keep-going", "--dialect", "os2strace", "--format", "parquet", "-o", out, bad); status != exitOK {
		t.Errorf("status %d: %s", status, stderr)
	}
	if data, err := os.ReadFile(out); err != nil || !bytes.HasPrefix(data, []byte("PAR1")) || !bytes.HasSuffix(data, []byte("PAR1")) {
		t.Errorf("not a Parquet file: %v", err)
	}
}

// TestChromeToFile: with -o the trace streams into the file, the same as
// on standard output.
func TestChromeToFile(t *testing.T) {
	in := "../../lower/dialect/winstrace/testdata/threads.wst"
	_, want, _ := runCLI("records", "--format", "chrome", in)
	out := filepath.Join(t.TempDir(), "t.json")
	if status, stdout, stderr := runCLI("records", "--format", "chrome", "-o", out, in); status != exitOK || stdout != "" {
		t.Fatalf("status %d, %q, %q", status, stdout, stderr)
	}
	if got, err := os.ReadFile(out); err != nil || string(got) != want || want == "" {
		t.Errorf("file differs from standard output (%v)", err)
	}
}

// TestParquetFieldsDuckDB: with --fields, DuckDB reads a Parquet file of
// exactly the listed columns, in the listed order and typed as in the full
// file, and every value of every row equals the full file's (itself
// checked against the JSONL by TestParquetDuckDB).
func TestParquetFieldsDuckDB(t *testing.T) {
	db := recordtest.NewDuckDB(t)
	dir := t.TempDir()
	lists := []string{
		"event,seq,source,data,ret,ts_ns,errno,pid,dur_ns,args,attrs",
		"seq,source,minor,major,cpu,time,phase,unpaired,status,line,tid,process,dialect",
	}
	types := map[string]string{}
	for _, c := range parquetColumns {
		name, typ, _ := strings.Cut(c, " ")
		types[name] = typ
	}
	inputs := formatInputs(t)
	paths := make([]string, 0, len(inputs))
	for p := range inputs {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	var stmts, what []string
	for i, path := range paths {
		d := inputs[path]
		full := filepath.Join(dir, fmt.Sprintf("%d.parquet", i))
		if status, _, stderr := runCLI("records", "--keep-going", "--dialect", d, "--format", "parquet", "-o", full, path); status != exitOK {
			t.Fatalf("%s: status %d: %s", path, status, stderr)
		}
		for k, list := range lists {
			some := filepath.Join(dir, fmt.Sprintf("%d-%d.parquet", i, k))
			if status, _, stderr := runCLI("records", "--keep-going", "--dialect", d, "--format", "parquet", "--fields", list, "-o", some, path); status != exitOK {
				t.Fatalf("%s: status %d: %s", path, status, stderr)
			}
			var differ []string
			for _, f := range strings.Split(list, ",") {
				differ = append(differ, fmt.Sprintf("s.%s IS DISTINCT FROM f.%s", f, f))
			}
			join := fmt.Sprintf("read_parquet('%s') s JOIN read_parquet('%s') f ON s.source = f.source AND s.seq = f.seq", some, full)
			stmts = append(stmts,
				fmt.Sprintf("DESCRIBE SELECT * FROM read_parquet('%s')", some),
				fmt.Sprintf("SELECT (SELECT count(*) FROM read_parquet('%s')) AS some, (SELECT count(*) FROM read_parquet('%s')) AS full, (SELECT count(*) FROM %s) AS matched", some, full, join),
				fmt.Sprintf("SELECT s.seq FROM %s WHERE %s LIMIT 5", join, strings.Join(differ, " OR ")))
			what = append(what, path+" --fields "+list)
		}
	}
	res := db.Query(t, stmts...)
	rows := 0
	for k, w := range what {
		r := res[3*k : 3*k+3]
		list := w[strings.LastIndex(w, " ")+1:]
		var cols, want []string
		for _, c := range r[0] {
			cols = append(cols, fmt.Sprint(c["column_name"], " ", c["column_type"]))
		}
		for _, f := range strings.Split(list, ",") {
			want = append(want, f+" "+types[f])
		}
		if got, want := strings.Join(cols, ", "), strings.Join(want, ", "); got != want {
			t.Errorf("%s: columns\n%s\nwant\n%s", w, got, want)
		}
		c := r[1][0]
		if fmt.Sprint(c["some"]) != fmt.Sprint(c["full"]) || fmt.Sprint(c["some"]) != fmt.Sprint(c["matched"]) {
			t.Errorf("%s: rows %v", w, c)
		}
		var n int
		fmt.Sscan(fmt.Sprint(c["some"]), &n)
		rows += n
		for _, m := range r[2] {
			t.Errorf("%s: differs from the full file at seq %v", w, m["seq"])
		}
	}
	if rows == 0 {
		t.Error("no rows compared")
	}
	t.Logf("%d files, %d rows compared", len(what), rows)
}
