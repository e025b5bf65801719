package simulate

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
	"github.com/tracekit/tracekit/ast/golden"
	"github.com/tracekit/tracekit/binfmt/dyndata"
	"github.com/tracekit/tracekit/binfmt/stda"
	"github.com/tracekit/tracekit/binfmt/tdf"
	"github.com/tracekit/tracekit/binfmt/tff"
	"github.com/tracekit/tracekit/binfmt/tracefmt"
	"github.com/tracekit/tracekit/lower/formatter"
	"github.com/tracekit/tracekit/lower/tsfcheck"
	"github.com/tracekit/tracekit/lower/tsfcompile"
)

// compiled is a TSF compiled against the emitrep DLL and its MAP file: the
// TDF and the TFF as read back from their bytes, and the compiler's
// diagnostics as text.
type compiled struct {
	tdf   *tdf.File
	tff   *tff.File
	diags string
}

// compileTSF compiles testdata/NAME with the real pipeline, as tracekit
// compile chains it (cmd/tracekit/compile.go), against
// ../shared/corpus/os2/lx/osfree_emitrep.dll and osfree_emitrep.map. It
// skips the test when the shared corpus is absent and fails it when the
// compile has an error.
func compileTSF(t testing.TB, name string) compiled {
	t.Helper()
	path := filepath.Join("testdata", name)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return compileSource(t, filepath.ToSlash(path), src)
}

// compileSource compiles the TSF src, named path in diagnostics, as
// compileTSF does.
func compileSource(t testing.TB, path string, src []byte) compiled {
	t.Helper()
	lxDir := corpus.Path(t, "corpus", "os2", "lx")
	m, diags := tsfcompile.Check(path, src, tsfcheck.Options{})
	if diags.Failed() {
		t.Fatalf("%s: front end:\n%v", path, diags)
	}
	srcs := tsfcompile.Sources{
		ModulePath: filepath.Join(lxDir, "osfree_emitrep.dll"),
		ModuleName: "emitrep.dll",
		ModuleAt:   m.ModNamePos,
		MapPath:    filepath.Join(lxDir, "osfree_emitrep.map"),
	}
	mod, ds := tsfcompile.OpenModule(srcs)
	if mod == nil {
		t.Fatalf("%s: %v", srcs.ModulePath, ds)
	}
	defer mod.Close()
	mp, ds := tsfcompile.OpenMap(srcs)
	if mp == nil {
		t.Fatalf("%s: %v", srcs.MapPath, ds)
	}
	back := tsfcompile.Compile(m, mod, mp, srcs)
	diags = append(diags, back.Compiled...)
	tf, ds := back.Program.TDF()
	diags = append(diags, ds...)
	if diags.Failed() {
		t.Fatalf("%s: back end:\n%v", path, diags)
	}
	tffFile := tsfcompile.BuildTFF(back.Program.KeptModule())
	if tffFile == nil {
		t.Fatalf("%s: no TFF", path)
	}
	// What the command line writes is what the simulator and the
	// formatter read: go through the bytes.
	tdfBytes, err := tf.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	tffBytes, err := tffFile.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var c compiled
	if c.tdf, err = tdf.Parse(tdfBytes); err != nil {
		t.Fatal(err)
	}
	if c.tff, err = tff.Parse(tffBytes); err != nil {
		t.Fatal(err)
	}
	diags.Sort()
	var b strings.Builder
	diags.WriteText(&b)
	c.diags = b.String()
	return c
}

// formats turns a TFF into the formatter's lookup table.
func formats(f *tff.File) formatter.Map {
	mm := map[uint16]*formatter.Format{}
	for _, r := range f.Records {
		mm[r.Minor] = &formatter.Format{Desc: r.Desc, Fmts: r.Fmts}
	}
	return formatter.Map{uint8(f.Major): mm}
}

// readBack parses what Run wrote, an STDA or a save file, as TRACEFMT
// would read it.
func readBack(t testing.TB, res *Result, opt Options) *stda.Buffer {
	t.Helper()
	switch opt.Output {
	case OutputSave:
		if k := tracefmt.Detect(res.Bytes); k != tracefmt.KindSaveFile {
			t.Fatalf("output detected as %v, want a save file", k)
		}
		f, err := tracefmt.Parse(res.Bytes)
		if err != nil {
			t.Fatalf("save file reads with an error: %v", err)
		}
		return f.STDA
	default:
		if k := tracefmt.Detect(res.Bytes); k != tracefmt.KindSTDA {
			t.Fatalf("output detected as %v, want an STDA", k)
		}
		b, err := stda.Parse(res.Bytes)
		if err != nil {
			t.Fatalf("STDA reads with an error: %v", err)
		}
		return b
	}
}

// roundTrip is one end-to-end case: a TSF compiled against emitrep, a
// state file, the buffer options.
type roundTrip struct {
	name  string // the golden file is testdata/NAME.golden
	tsf   string // under testdata, or a sample's name when sample is set
	state string // under testdata
	opt   Options
	// sample, when set, adapts one of the reference's sample TSFs,
	// read from the shared corpus.
	sample *sample
}

// run compiles, simulates, reads the buffer back and formats it, and
// returns the whole story as text for the golden file.
func (rt roundTrip) run(t testing.TB) (string, *stda.Buffer, *Result, compiled) {
	t.Helper()
	var c compiled
	if rt.sample != nil {
		c = compileSource(t, "corpus/os2/tsf/"+rt.sample.file+" (adapted)", rt.sample.source(t))
	} else {
		c = compileTSF(t, rt.tsf)
	}
	st, err := OpenState(filepath.Join("testdata", rt.state))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(c.tdf, st, rt.opt)
	if err != nil {
		t.Fatal(err)
	}
	buf := readBack(t, res, rt.opt)

	var b strings.Builder
	fmt.Fprintf(&b, "# %s simulated with %s\n", rt.tsf, rt.state)
	fmt.Fprintf(&b, "# options: format %v, size %d, next %d, output %v\n", formatOf(rt.opt), sizeOf(rt.opt), rt.opt.Next, rt.opt.Output)
	b.WriteString("\n## compiler diagnostics\n")
	if c.diags == "" {
		b.WriteString("(none)\n")
	}
	b.WriteString(c.diags)
	b.WriteString("\n## TDF\n")
	if err := c.tdf.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	b.WriteString("\n## hits\n")
	for _, h := range res.Hits {
		fmt.Fprintf(&b, "hit %d: minor %04X at %08X:%08X  pid %04X  flags %02X %s\n", h.Hit, h.Minor, h.Object, h.Offset,
			h.Record.PID, h.Record.Flags, stda.FlagString(h.Record.Flags))
		fmt.Fprintf(&b, "  data (%d bytes): %s\n", len(h.Record.Data), hexDump(h.Record.Data))
		if h.Status != dyndata.StatusValid {
			fmt.Fprintf(&b, "  status %02X\n", byte(h.Status))
		}
		for _, n := range h.Notes {
			fmt.Fprintf(&b, "  note: %s\n", n)
		}
	}
	fmt.Fprintf(&b, "\n## buffer\nFIRST %#04x LAST %#04x NEXT %#04x, %v format, end marker ", buf.First, buf.Last, buf.Next, buf.Format)
	if buf.End >= 0 {
		fmt.Fprintf(&b, "at %#04x", buf.End)
	} else {
		b.WriteString("none")
	}
	fmt.Fprintf(&b, ", %d records read back, %d dropped\n", len(buf.Records), res.Dropped)
	b.WriteString("\n## formatted\n")
	diags, err := formatter.WriteText(&b, buf.Records, formats(c.tff))
	if err != nil {
		t.Fatal(err)
	}
	b.WriteString("## formatter diagnostics\n")
	if len(diags) == 0 {
		b.WriteString("(none)\n")
	}
	for _, d := range diags {
		fmt.Fprintf(&b, "%s\n", d.Msg)
	}
	return b.String(), buf, res, c
}

func formatOf(o Options) stda.Format {
	if o.Format == 0 {
		return stda.FormatNew
	}
	return o.Format
}

func sizeOf(o Options) int {
	if o.Size == 0 {
		return DefaultSize
	}
	return o.Size
}

// hexDump prints bytes as lower-case hex pairs, as %U does.
func hexDump(b []byte) string {
	if len(b) == 0 {
		return "-"
	}
	var sb strings.Builder
	for i, c := range b {
		if i > 0 {
			sb.WriteByte(' ')
		}
		fmt.Fprintf(&sb, "%02x", c)
	}
	return sb.String()
}

// TestRoundTrip compiles each TSF of testdata against the emitrep DLL,
// simulates the hits of its state file, reads the buffer back and formats
// it through the compiled TFF, and compares the whole with the golden file.
// The records must also read back exactly as Run wrote them, oldest first.
func TestRoundTrip(t *testing.T) {
	for _, rt := range roundTrips {
		t.Run(rt.name, func(t *testing.T) {
			text, buf, res, _ := rt.run(t)
			golden.Check(t, filepath.Join("testdata", rt.name+".golden"), []byte(text))
			kept := res.Hits[res.Dropped:]
			if len(buf.Records) != len(kept) {
				t.Fatalf("%d records read back, %d written and kept", len(buf.Records), len(kept))
			}
			for i, r := range buf.Records {
				w := kept[i].Record
				if r.Flags != w.Flags || r.PID != w.PID || r.Minor != w.Minor || r.Major != w.Major || !bytes.Equal(r.Data, w.Data) {
					t.Errorf("record %d reads back as %+v, written %+v", i, r, w)
				}
			}
		})
	}
}

var roundTrips = []roundTrip{}

func init() {
	roundTrips = append(roundTrips, roundTrip{name: "statements", tsf: "statements.tsf", state: "statements.state.json"})
}

func init() {
	roundTrips = append(roundTrips, roundTrip{name: "statuses", tsf: "statuses.tsf", state: "statuses.state.json", opt: Options{Format: stda.FormatOld}})
}

func init() {
	roundTrips = append(roundTrips,
		roundTrip{name: "maxdata", tsf: "maxdata.tsf", state: "maxdata.state.json"},
		// A new-format buffer too small for the fourteen records: it
		// wraps round and gives up the oldest.
		roundTrip{name: "wrap-new", tsf: "wrap.tsf", state: "wrap.state.json", opt: Options{Format: stda.FormatNew, Size: stda.FirstNew + 160}},
		// The same, old format, as a save file.
		roundTrip{name: "wrap-old-save", tsf: "wrap.tsf", state: "wrap.state.json", opt: Options{Format: stda.FormatOld, Size: stda.FirstOld + 150, Output: OutputSave}},
		// A buffer that holds every record, the first written in the
		// middle of the area: the records wrap from LAST to FIRST and the
		// end marker lies in the middle, just below the oldest record.
		roundTrip{name: "end-marker-middle", tsf: "wrap.tsf", state: "wrap.state.json", opt: Options{Format: stda.FormatNew, Size: 0x200, Next: 0x180}},
	)
}
