package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
	"github.com/tracekit/tracekit/ast/golden"
)

// TestDumpTDF: the dump of every oracle TDF shows each RPN program as named
// operations, and its JSON validates against docs/tdf-dump.schema.json.
func TestDumpTDF(t *testing.T) {
	dir, _ := corpus.Oracle(t)
	tdfs, _ := filepath.Glob(filepath.Join(dir, "*", "*.TDF"))
	others, _ := filepath.Glob(filepath.Join(dir, "*", "*.tdf"))
	tdfs = append(tdfs, others...)
	if len(tdfs) != 94 {
		t.Fatalf("%d TDFs in the oracle, want 94 (78 in the first 141 cases, 16 in the x_ cases)", len(tdfs))
	}
	schema := golden.Schema(t, "../../docs/tdf-dump.schema.json")
	for _, name := range tdfs {
		status, text, stderr := runCLI("dump", name)
		if status != exitOK || !strings.Contains(text, "tracepoint minor") {
			t.Errorf("%s: status %d %s\n%s", name, status, stderr, text)
		}
		if strings.Contains(text, "unknown") {
			t.Errorf("%s: an RPN operation without a name:\n%s", name, text)
		}
		status, js, stderr := runCLI("dump", "--json", name)
		if status != exitOK {
			t.Fatalf("%s: status %d %s", name, status, stderr)
		}
		if err := golden.Validate(schema, []byte(js)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestCompileTDF compiles an oracle TSF against the real module and MAP
// file, byte for byte, and checks that each broken input gives one clear
// diagnostic and no output.
func TestCompileTDF(t *testing.T) {
	dir, _ := corpus.Oracle(t)
	lx := corpus.Path(t, "corpus", "os2", "lx")
	maps := corpus.Path(t, "corpus", "os2", "maps")
	read := func(path string) []byte {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	dll := read(filepath.Join(lx, "osfree_emitrep.dll"))
	mapText := read(filepath.Join(lx, "osfree_emitrep.map"))
	tsf := string(read(filepath.Join(dir, "d01_emit_regs", "d01.tsf")))
	for _, tc := range []struct {
		name      string
		tsf       string
		dll, mapf []byte
		want      string // the one diagnostic; "" for success
	}{
		{"ok", tsf, dll, mapText, ""},
		{"symbol the map lacks", strings.Replace(tsf, "TP=.emit", "TP=.nosuch", 1), dll, mapText, "error: symbol not found: nosuch [TRC079]"},
		{"module neither LX nor NE", tsf, append([]byte("MZ"), make([]byte, 126)...), mapText, "fatal: unknown EXE header type for: "},
		// An NE module is read as TRCUST reads one: emit at 1:0 is
		// hello16.exe's first byte, 0xCC (INT 3).
		{"NE module", tsf, read(filepath.Join(lx, "2ine_hello16.exe")), mapText, "error: opcode at TP address cannot be traced"},
		{"truncated LX", tsf, dll[:5000], mapText, "fatal: error reading file: "},
		// TRCUST takes the lines of an address and a name for symbols,
		// exports and groups among them; the aliases of exports are none.
		{"MAP without publics", tsf, dll, read(filepath.Join(maps, "devcon12_MOUSEDLL.MAP")), "error: symbol not found: emit [TRC079]"},
		{"no MAP file at all", tsf, dll, []byte("Some prose.\n 0001:00000000 emit\n"), "emitrep.map is no LINK, LINK386 or wlink MAP file: only its lines of an address and a name are read [TRC220]"},
		{"no MAP: exports", tsf, dll, nil, "warning: no MAP file: symbols resolved through the module's exports"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			work := t.TempDir()
			os.WriteFile(filepath.Join(work, "x.tsf"), []byte(tc.tsf), 0o644)
			os.WriteFile(filepath.Join(work, "emitrep.dll"), tc.dll, 0o644)
			if tc.mapf != nil {
				os.WriteFile(filepath.Join(work, "emitrep.map"), tc.mapf, 0o644)
			}
			out := t.TempDir()
			status, _, stderr := runCLI("compile", "--tff-dir", out, "-o", filepath.Join(out, "x.TDF"), filepath.Join(work, "x.tsf"))
			if tc.want == "" {
				if status != exitOK || stderr != "" {
					t.Fatalf("status %d %s", status, stderr)
				}
				for name, ref := range map[string]string{"x.TDF": "d01_emit_regs/d01.TDF", "TRC0042.TFF": "d01_emit_regs/TRC0042.TFF"} {
					if got, want := read(filepath.Join(out, name)), read(filepath.Join(dir, ref)); string(got) != string(want) {
						t.Errorf("%s differs from TRCUST's %s", name, ref)
					}
				}
				return
			}
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if len(lines) != 1 || !strings.Contains(lines[0], tc.want) {
				t.Errorf("status %d, diagnostics:\n%s\nwant one with %q", status, stderr, tc.want)
			}
			if strings.Contains(tc.want, "warning:") || strings.Contains(tc.want, "[TRC220]") {
				// A warning only: emit is found (the module exports it, the
				// text names it), and the TDF is TRCUST's, byte for byte.
				if got, want := read(filepath.Join(out, "x.TDF")), read(filepath.Join(dir, "d01_emit_regs", "d01.TDF")); status != exitOK || string(got) != string(want) {
					t.Errorf("status %d; TDF differs from d01's", status)
				}
				return
			}
			if status != exitError {
				t.Errorf("status %d", status)
			}
			if got := files(t, out); len(got) != 0 {
				t.Errorf("wrote %v", got)
			}
		})
	}
}
