package tsfcompile

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
	"github.com/tracekit/tracekit/ast/golden"
	"github.com/tracekit/tracekit/ast/tsf"
	"github.com/tracekit/tracekit/lower/tsfcheck"
)

// TestModule checks the values of the checked module: defaults, the
// default extension, list entries and the minor codes, auto and given.
func TestModule(t *testing.T) {
	for _, tc := range []struct {
		src                  string
		mod                  string
		major, maxData, tdf  uint16
		minors               []uint16
		types, groups        int
		typeMask, groupOfTP0 uint16
	}{
		{"MODNAME = a\\b\\emitrep\nTRACE TP=.x\nTRACE TP=.y", `a\b\emitrep.DLL`, 1, 512, 0, []uint16{1, 2}, 0, 0, 0, 0},
		{"MODNAME = os2krnl\nMAJOR=0x100\nMAXDATALEN=4099\nTDFID=5\nTRACE MINOR=9, TP=.x", "os2krnl", 0x100, 4099, 5, []uint16{9}, 0, 0, 0, 0},
		{"MODNAME = x.sys\nTYPELIST NAME=PRE,ID=1,NAME=API,ID=0x80\nGROUPLIST NAME=DOS,ID=0x2B\nTRACE MINOR=1, TP=.x, TYPE=(pre,API), GROUP=dos, OPCODE=0x55",
			"x.sys", 1, 512, 0, []uint16{1}, 2, 1, 0x81, 0x2B},
		{"MAJOR=0x30\nTRACE TP=@STATIC\nTRACE FOO\nTRACE TP=@STATIC", "", 0x30, 512, 0, []uint16{1, 2}, 0, 0, 0, 0}, // IBM numbers after the tracepoints kept
	} {
		m, diags := Check("t.tsf", []byte(tc.src), tsfcheck.Options{})
		var minors []uint16
		for _, tp := range m.Tracepoints {
			minors = append(minors, tp.Minor)
		}
		if m.ModName != tc.mod || m.Major != tc.major || m.MaxDataLength != tc.maxData || m.TDFID != tc.tdf ||
			!reflect.DeepEqual(minors, tc.minors) || len(m.Types) != tc.types || len(m.Groups) != tc.groups {
			t.Errorf("%q: got mod %q major %#x maxdata %d tdfid %d minors %v types %d groups %d (diags %v)",
				tc.src, m.ModName, m.Major, m.MaxDataLength, m.TDFID, minors, len(m.Types), len(m.Groups), diags)
			continue
		}
		if len(m.Tracepoints) > 0 && (m.Tracepoints[0].TypeMask != tc.typeMask || m.Tracepoints[0].Group != tc.groupOfTP0) {
			t.Errorf("%q: type mask %#x group %#x", tc.src, m.Tracepoints[0].TypeMask, m.Tracepoints[0].Group)
		}
	}
}

// TestTooManyTracepoints checks fatal message 7 for the tracepoint one
// over the limit, found at the end of its statement (the line after it):
// the 65536th by default, the 65503rd under TRCUST 3.05A's limit (IBM's
// behaviour, session 19).
func TestTooManyTracepoints(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 65536-tracepoint file")
	}
	for _, limit := range []int{tsfcheck.MaxTracepoints, tsfcheck.TRCUSTMaxTracepoints} {
		var b strings.Builder
		b.WriteString("MAJOR = 0x30\n")
		for i := 0; i <= limit; i++ {
			b.WriteString("TRACE TP=@STATIC\n")
		}
		b.WriteString("TRACE TP=@STATIC, FOO\n") // not read
		_, diags := Check("many.tsf", []byte(b.String()), tsfcheck.Options{MaxTracepoints: limit})
		if len(diags) != 1 || diags[0].Code != "TRC007" || diags[0].Pos.Line != 3+limit {
			t.Errorf("limit %d: got %v", limit, diags)
		}
	}
}

// TestCorpusGolden checks the diagnostics of every real TSF sample against
// its golden file; the goldens show the mistakes of the reference's own
// samples.
func TestCorpusGolden(t *testing.T) {
	dir := corpus.Path(t, "corpus", "os2", "tsf")
	files, _ := filepath.Glob(filepath.Join(dir, "*.tsf"))
	if len(files) == 0 {
		t.Fatal("no samples")
	}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		shown := "corpus/os2/tsf/" + filepath.Base(name)
		_, diags := Check(shown, src, tsfcheck.Options{})
		var b strings.Builder
		diags.WriteText(&b)
		golden.Check(t, filepath.Join("testdata", strings.TrimSuffix(filepath.Base(name), ".tsf")+".golden"), []byte(b.String()))
	}
}

// FuzzCheck runs the whole front end: no panic, no hang, every diagnostic
// positioned inside the input.
func FuzzCheck(f *testing.F) {
	f.Add([]byte("MODNAME = a\nMAJOR = 0\nTYPELIST NAME=A,ID=3\nTRACE MINOR=1, TP=.x, LEN=(x,DIRECT), MEM32=(.x,I*+2,LEN), FMT=\"%I\"\n"))
	f.Add([]byte("TRACE TP=@STATIC, DESC=\"d\", FMT=\"%P%Z\", REGS=(EAX)\nTRACE MINOR=1\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		_, diags := Check("fuzz.tsf", src, tsfcheck.Options{})
		for _, d := range diags {
			if d.Pos.Line < 1 || d.Pos.Col < 1 || d.Pos.Offset > len(src) || tsf.LegacyLine(d) < 1 {
				t.Fatalf("unpositioned diagnostic %+v", d)
			}
		}
	})
}

// TestCompactCheck checks that checking each statement as it is parsed,
// and dropping valid @STATIC TRACE statements (what Run does), finds what
// checking the whole tree finds: the same diagnostics, module, tracepoints,
// TFF bytes and first dynamic TP line; the tree holds every statement but
// those dropped.
func TestCompactCheck(t *testing.T) {
	srcs := map[string][]byte{
		"large.tsf": largeTSF(300),
		"mixed.tsf": []byte("MODNAME = emitrep\nMAJOR = 0x42\nTYPELIST NAME=PRE,ID=1\n" +
			"TRACE MINOR=1, TP=@STATIC, DESC=\"s\", FMT=\"%W\"\n" +
			"TRACE MINOR=2, TP=.emit, DESC=\"d\", REGS=(EAX), FMT=\"%P %F\"\n" +
			"TRACE MINOR=1, TP=@STATIC, DESC=\"dup\"\n" +
			"TRACE MINOR=3, TP=@STATIC, REGS=(EAX)\n" +
			"TRACE MINOR=4, TP=@STATIC, TP=.x\n" +
			"TRACE MINOR=5 TP=@STATIC, DESC=\"no comma\"\n"),
		"severe.tsf": []byte("MAJOR = 0x42\nTRACE MINOR=1, TP=@STATIC\nMAJOR = 0x43\nTRACE MINOR=2, TP=@STATIC\n"),
	}
	if root := corpus.Root(); root != "" { // the real samples too, when present
		files, _ := filepath.Glob(filepath.Join(root, "corpus", "os2", "tsf", "*.tsf"))
		for _, name := range files {
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			srcs[filepath.Base(name)] = src
		}
	}
	for name, src := range srcs {
		for _, opt := range []tsfcheck.Options{{}, {AllowDuplicateMinors: true}} {
			want, wantDiags := check(name, src, 0, opt, false)
			wantLine := FirstDynamicTP(want.File)
			got, gotDiags := check(name, src, 0, opt, true)
			if !reflect.DeepEqual(gotDiags, wantDiags) {
				t.Errorf("%s %+v: diagnostics\n%v\nwant\n%v", name, opt, gotDiags, wantDiags)
				continue
			}
			if got.ModName != want.ModName || got.ModNamePos != want.ModNamePos || got.Major != want.Major ||
				got.MaxDataLength != want.MaxDataLength || got.TDFID != want.TDFID ||
				!reflect.DeepEqual(got.Types, want.Types) || !reflect.DeepEqual(got.Groups, want.Groups) ||
				len(got.Tracepoints) != len(want.Tracepoints) {
				t.Errorf("%s %+v: the modules differ", name, opt)
				continue
			}
			dropped := map[*tsf.Trace]bool{}
			for i, tp := range got.Tracepoints {
				w := want.Tracepoints[i]
				if tp.Minor != w.Minor || tp.Desc != w.Desc || !slices.Equal(tp.Fmts, w.Fmts) || tp.Static() != w.Static() ||
					tp.Pos != w.Node.Pos || tp.DataBytes != w.DataBytes {
					t.Errorf("%s %+v: tracepoint %d differs", name, opt, i)
				}
				if tp.Static() {
					if tp.Node != nil || tp.TPField != nil {
						t.Errorf("%s %+v: static tracepoint %d keeps its statement", name, opt, i)
					}
					dropped[w.Node] = true
				} else if tp.Node.Pos != w.Node.Pos || tp.Node.End != w.Node.End {
					t.Errorf("%s %+v: tracepoint %d's statement differs", name, opt, i)
				}
			}
			var kept []string
			for _, st := range want.File.Stmts {
				if tr, ok := st.(*tsf.Trace); !ok || !dropped[tr] {
					kept = append(kept, fmt.Sprintf("%T %v", st, st.Position()))
				}
			}
			var gotKept []string
			for _, st := range got.File.Stmts {
				gotKept = append(gotKept, fmt.Sprintf("%T %v", st, st.Position()))
			}
			if !slices.Equal(gotKept, kept) {
				t.Errorf("%s %+v: the tree holds\n%v\nwant\n%v", name, opt, gotKept, kept)
			}
			if line := FirstDynamicTP(got.File); line != wantLine {
				t.Errorf("%s %+v: first dynamic TP at line %d, want %d", name, opt, line, wantLine)
			}
			if !reflect.DeepEqual(BuildTFF(got), BuildTFF(want)) {
				t.Errorf("%s %+v: the TFFs differ", name, opt)
			}
		}
	}
}
