package simulate

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// openStateJSON is OpenState with encoding/json alone (parseStateJSON):
// the oracle of the streaming reader.
func openStateJSON(name string) (*State, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	st, err := parseStateJSON(data)
	var se *StateError
	if errors.As(err, &se) {
		se.File = name
	}
	return st, err
}

// sameState checks that ParseState gives what encoding/json alone gives:
// the same State, or the same error.
func sameState(t *testing.T, data []byte) {
	t.Helper()
	got, gerr := ParseState(data)
	want, werr := parseStateJSON(data)
	if fmt.Sprint(gerr) != fmt.Sprint(werr) {
		t.Fatalf("ParseState error %v, encoding/json's %v", gerr, werr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ParseState gives\n%+v\nencoding/json\n%+v", got, want)
	}
}

// sameRun checks that RunFile on the state file path gives what OpenState
// and Run give: the same Result (hits included) or the same error.
func sameRun(t *testing.T, c compiled, path string, opt Options) {
	t.Helper()
	want, werr := func() (*Result, error) {
		st, err := openStateJSON(path)
		if err != nil {
			return nil, err
		}
		return Run(c.tdf, st, opt)
	}()
	got, gerr := RunFile(c.tdf, path, opt)
	if fmt.Sprint(gerr) != fmt.Sprint(werr) {
		t.Fatalf("%s: RunFile error %v, OpenState and Run %v", path, gerr, werr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: RunFile and OpenState+Run differ", path)
	}
}

// sameStream checks that the streaming reader, through buffers of a few
// sizes (every token cut somewhere), either leaves the file to ParseState
// every time or gives what OpenState and Run give every time.
func sameStream(t *testing.T, c compiled, path string, opt Options) {
	t.Helper()
	st, err := openStateJSON(path)
	var want *Result
	if err == nil {
		want, err = Run(c.tdf, st, opt)
	}
	declined := 0
	sizes := []int{1, 2, 5, 13, 64, streamBufSize}
	for _, size := range sizes {
		got, gerr := runStream(c.tdf, path, opt, size)
		switch {
		case gerr != nil:
			// declined, or a hit that cannot run before what ParseState
			// would say of the file: RunFile reads it again
			declined++
		case err != nil:
			t.Fatalf("%s, %d-byte buffer: the streaming reader ran a file OpenState and Run refuse (%v)", path, size, err)
		case !reflect.DeepEqual(got, want):
			t.Fatalf("%s, %d-byte buffer: the streaming reader's result differs from OpenState and Run's", path, size)
		}
	}
	if declined != 0 && declined != len(sizes) {
		t.Fatalf("%s: the streaming reader declined with %d buffer sizes of %d", path, declined, len(sizes))
	}
}

// TestRunFileMatches runs the state files of testdata and variants of the
// benchmark's (every kind of mistake the streaming reader leaves to
// ParseState, and forms it takes on) through RunFile and through
// OpenState and Run.
func TestRunFileMatches(t *testing.T) {
	// every state file of testdata that has a TSF beside it
	files, _ := filepath.Glob("testdata/*.state.json")
	for _, f := range files {
		tsf := strings.TrimSuffix(filepath.Base(f), ".state.json") + ".tsf"
		if _, err := os.Stat(filepath.Join("testdata", tsf)); err != nil {
			continue
		}
		for _, opt := range []Options{{Size: 0xFFFF}, {Size: 0x100, Next: 0x80}} {
			sameRun(t, compileTSF(t, tsf), f, opt)
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sameState(t, data)
	}
	c := compileTSF(t, "statements.tsf")
	dir := t.TempDir()
	base := benchState(t, 30)
	hits := bytes.Index(base, []byte(`"hits"`))
	variants := map[string][]byte{
		"plain":             base,
		"no hits":           append(append([]byte{}, base[:hits]...), `"hits": []}`...),
		"hits first":        append(append([]byte(`{"hits": [{"minor": 1, "pid": 1, "time": "00:00:00.00"}], `), base[1:hits]...), `"comment": "x"}`...),
		"member after hits": append(bytes.TrimSuffix(bytes.TrimSpace(bytes.Clone(base)), []byte("}")), `, "comment": "after"}`...),
		"text after":        append(append([]byte{}, base...), " x"...),
	}
	edits := [][2]string{
		{`"minor": 1,`, `"minor": "0x1",`},
		{`"minor": 1,`, `"Minor": 1,`},
		{`"minor": 1,`, `"minor": 1, "minor": 1,`},
		{`"minor": 1,`, `"minor": 1, "tp": "0001:00000DC0",`},
		{`"minor": 1,`, `"tp": "0001:00000DC0",`},
		{`"minor": 1,`, `"tp": "0001:zz",`},
		{`"minor": 1,`, `"minor": 99,`},
		{`"minor": 1,`, `"minor": 01,`},
		{`"minor": 1,`, `"minor": 1.0,`},
		{`"minor": 1,`, `"minor": -1,`},
		{`"minor": 1,`, `"minor": 65536,`},
		{`"minor": 1,`, `"minor": null,`},
		{`"minor": 1,`, `"minor": 1 ,"comment": "caf\u00e9 \"q\"",`},
		{`"minor": 1,`, `"minor": 1, "memory": [{"address": "0x20BF8", "hex": "01 00 00 00"}],`},
		{`"minor": 1,`, `"minor": 1, "memory": [{"address": 200000, "asciiz": "a\"b\\c\n\t\/", "comment": "x"}, {"hex": "00", "address": "0x20BF8"}],`},
		{`"minor": 1,`, `"minor": 1, "memory": [],`},
		{`"minor": 1,`, `"minor": 1, "memory": [{}],`},
		{`"minor": 1,`, `"minor": 1, "memory": [{"address": 1, "hex": "00", "string": "a"}],`},
		{`"minor": 1,`, `"minor": 1, "memory": [{"address": 1, "hex": "0"}],`},
		{`"minor": 1,`, `"minor": 1, "memory": [{"address": 1, "string": "café\u0041"}],`},
		{`"minor": 1,`, `"minor": 1, "memory": [{"address": 1, "string": "Ā"}],`},
		{`"minor": 1,`, `"minor": 1, "memory": [{"address": 4294967295, "string": "ab"}],`},
		{`"minor": 1,`, `"minor": 1, "memory": [{"address": 1, "asciiz": "x", "address": 2}],`},
		{`"minor": 1,`, `"minor": 1, "memory": [{"address": 1, "Hex": "00"}],`},
		{`"minor": 1,`, `"minor": 1, "memory": {"address": 1, "hex": "00"},`},
		{`"minor": 1,`, `"minor": 1, "external": false,`},
		{`"minor": 1,`, `"minor": 1, "external": null,`},
		{`"minor": 1,`, `"minor": 1, "registers": {"eax": 1, "EAX": 2},`},
		{`"minor": 1,`, `"minor": 1, "registers": {"EAX": 1, "EAX": 2},`},
		{`"minor": 1,`, `"minor": 1, "registers": {"AX": 1},`},
		{`"minor": 1,`, `"minor": 1, "registers": {"CS": "0x10000"},`},
		{`"minor": 1,`, `"minor": 1, "registers": {"ebx": "  0x10 ", "CS": 5},`},
		{`"minor": 1,`, `"minor": 1, "registers": {},`},
		{`"minor": 1,`, `"minor": 1 "pid": 3,`},
		{`"pid": "0x21"`, `"pid": 70000`},
		{`"pid": "0x21", `, ``},
		{`"time": "00:00:00.00"`, `"time": "00:00:00.0"`},
		{`"time": "00:00:00.00"`, `"time": "24:00:00.00"`},
		{`"time": "00:00:00.00"}`, `"time": "00:00:00.00"}x`},
		{`"time": "00:00:00.00"}`, `"time": "00:00:00.00",}`},
		{`"version": 1`, `"version": 2`},
		{`"version": 1,`, `"version": 1,,`},
		{`"version": 1,`, `"version": 1`},
		{`"registers": {`, `"Registers": {`},
		{`"comment": "Synthetic`, `"comment": "Synth\"etic`},
	}
	// hits across batches of the reading goroutine, and mistakes after
	// the first batches
	for _, n := range []int{hitBatchSize - 1, hitBatchSize, 2 * hitBatchSize, 3*hitBatchSize + 7} {
		b := benchState(t, n)
		variants[fmt.Sprintf("%d hits", n)] = b
		last := bytes.LastIndex(b, []byte(`"pid"`))
		variants[fmt.Sprintf("%d hits, the last one bad", n)] = append(append(append([]byte{}, b[:last]...), `"pid": -1, "x`...), b[last+5:]...)
		at := bytes.LastIndex(b, []byte(`{"minor": `)) + len(`{"minor": `)
		comma := at + bytes.IndexByte(b[at:], ',')
		variants[fmt.Sprintf("%d hits, the last one's tracepoint unknown", n)] = append(append(append([]byte{}, b[:at]...), "99"...), b[comma:]...)
	}
	for i, e := range edits {
		b := bytes.Replace(base, []byte(e[0]), []byte(e[1]), 1)
		if bytes.Equal(b, base) {
			t.Fatalf("edit %d (%q) changes nothing", i, e[0])
		}
		variants[fmt.Sprintf("edit %d %s", i, e[1])] = b
	}
	for name, data := range variants {
		path := filepath.Join(dir, "state.json")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			for _, opt := range []Options{{Size: 0xFFFF}, {Size: 0x200}, {Output: OutputSave}} {
				sameRun(t, c, path, opt)
			}
			sameStream(t, c, path, Options{Size: 0xFFFF})
			sameState(t, data)
		})
	}
}

// TestRunFileStreams checks that the benchmark's state file is read by
// the streaming reader, not handed to ParseState.
func TestRunFileStreams(t *testing.T) {
	c := compileTSF(t, "statements.tsf")
	path := filepath.Join(t.TempDir(), "state.json")
	if err := os.WriteFile(path, benchState(t, 300), 0o644); err != nil {
		t.Fatal(err)
	}
	// the benchmark's hits, and those of statements.state.json
	// (registers, memory, escapes), read through buffers of every size
	// from one byte (every string, number and literal cut somewhere) to
	// the real one: each time the result OpenState and Run give
	for _, name := range []string{path, "testdata/statements.state.json"} {
		st, err := openStateJSON(name)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Run(c.tdf, st, Options{Size: 0xFFFF})
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range []int{1, 2, 3, 4, 5, 7, 11, 16, 31, 64, 100, 257, 1000, streamBufSize} {
			got, err := runStream(c.tdf, name, Options{Size: 0xFFFF}, size)
			if err != nil {
				t.Fatalf("%s, %d-byte buffer: the streaming reader declined: %v", name, size, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s, %d-byte buffer: the streaming reader's result differs from OpenState and Run's", name, size)
			}
		}
	}
}

// FuzzRunFile: RunFile on any state text gives what OpenState and Run give.
func FuzzRunFile(f *testing.F) {
	f.Add(benchState(f, 12))
	f.Add([]byte(`{"version": 1, "hits": [{"minor": 1, "pid": 1, "time": "00:00:00.00", "registers": {"EAX": "0x10"}}]}`))
	c := compileTSF(f, "statements.tsf")
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "state.json")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		sameRun(t, c, path, Options{Size: 0x400})
	})
}

// FuzzParseState: ParseState on any text gives what encoding/json alone
// gives.
func FuzzParseState(f *testing.F) {
	f.Add(benchState(f, 12))
	f.Add([]byte(`{"version": 1, "hits": [{"minor": 1, "pid": 1, "time": "00:00:00.00", "registers": {"EAX": "0x10"}}]}`))
	f.Add([]byte(`{"version": 1, "hits": [{"tp": "1:0", "pid": "0x21", "time": "23:59:59.99", "external": true, "registers": {}, "memory": [{"address": "0x30000", "hex": "ff", "comment": "c"}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sameState(t, data)
	})
}

// TestParseRegBytes: parseRegBytes agrees with ParseReg on every register
// name in three spellings and on names that are none.
func TestParseRegBytes(t *testing.T) {
	names := []string{"", "E", "EAXX", "EFLAGSX", "AX", "eaX\x00", "EFLAGS"}
	for _, n := range regNames {
		names = append(names, n, strings.ToLower(n), strings.ToLower(n[:1])+n[1:])
	}
	for _, n := range names {
		r1, ok1 := ParseReg(n)
		r2, ok2 := parseRegBytes([]byte(n))
		if r1 != r2 || ok1 != ok2 {
			t.Errorf("%q: ParseReg %v %v, parseRegBytes %v %v", n, r1, ok1, r2, ok2)
		}
	}
}
