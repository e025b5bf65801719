package tsflist

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
	"github.com/tracekit/tracekit/ast/golden"
	"github.com/tracekit/tracekit/ast/tsf"
	"github.com/tracekit/tracekit/binfmt/tff"
	"github.com/tracekit/tracekit/grammar/tsfparse"
	"github.com/tracekit/tracekit/lower/tsfcheck"
	"github.com/tracekit/tracekit/lower/tsfcompile"
)

// listTFF lists f as text.
func listTFF(f *tff.File) (string, error) {
	l, err := TFF(f)
	var b bytes.Buffer
	err = Write(&b, l, err)
	return b.String(), err
}

// compileTFF compiles a listing with tracekit's own compiler and returns
// the TFF it writes.
func compileTFF(src string) (*tff.File, error) {
	m, diags := tsfcompile.Check("listing.tsf", []byte(src), tsfcheck.Options{})
	if diags.Failed() {
		return nil, fmt.Errorf("%v", diags)
	}
	f := tsfcompile.BuildTFF(m)
	if f == nil {
		return nil, errors.New("no tracepoint")
	}
	return f, nil
}

// roundTrip checks that the listing of f compiles back to f's bytes.
func roundTrip(t *testing.T, label string, f *tff.File) {
	t.Helper()
	text, err := listTFF(f)
	if err != nil {
		t.Errorf("%s: %v", label, err)
		return
	}
	g, err := compileTFF(text)
	if err != nil {
		t.Errorf("%s: the listing does not compile: %v\n%s", label, err, text)
		return
	}
	want, err1 := f.MarshalBinary()
	got, err2 := g.MarshalBinary()
	if err1 != nil || err2 != nil || !bytes.Equal(got, want) {
		t.Errorf("%s: the listing compiles to other bytes (%v, %v)\n%s", label, err1, err2, text)
	}
}

func rec(minor uint16, desc string, fmts ...string) tff.Record {
	r := tff.Record{Minor: minor, Desc: []byte(desc)}
	for _, f := range fmts {
		r.Fmts = append(r.Fmts, []byte(f))
	}
	return r
}

// recT is rec with FMT lines given as TSF text.
func recT(minor uint16, desc string, texts ...string) tff.Record {
	r := tff.Record{Minor: minor, Desc: []byte(desc)}
	for _, x := range texts {
		r.Fmts = append(r.Fmts, tff.EncodeFMT([]byte(x)))
	}
	return r
}

// TestTFF lists synthetic records that are hard to quote and compiles the
// listing back, or checks the error for what TSF cannot express.
func TestTFF(t *testing.T) {
	tests := []struct {
		name string
		f    *tff.File
		err  string // "" when the listing must compile back
	}{
		{"quotes", &tff.File{Major: 1, Records: []tff.Record{recT(1, `say "hi"`, `"%W"`)}}, ""},
		{"backslash pairs", &tff.File{Major: 1, Records: []tff.Record{recT(1, `a\\`, `\\"`, `\n\t\%W`, `\x`)}}, ""},
		{"high bytes and tab", &tff.File{Major: 0x1388, Records: []tff.Record{recT(0xFFFF, "caf\xe9\t", "\xff%W")}}, ""},
		{"comment chars", &tff.File{Major: 1, Records: []tff.Record{recT(1, "; not /* a */ comment", "=,()")}}, ""},
		{"stored controls", &tff.File{Major: 1, Records: []tff.Record{rec(2, "d", string(tff.EncodeFMT([]byte(" %p  %w %i12 %% %Z %"))))}}, ""},
		{"blanks after Ctrl P", &tff.File{Major: 1, Records: []tff.Record{rec(3, "d", "\x01P  \x01W x")}}, ""},
		{"%C", &tff.File{Major: 1, Records: []tff.Record{recT(3, "d", "%C %c")}}, ""},
		{"major 0", &tff.File{Major: 0}, "tff: major code 0 cannot be written as TSF: TRCUST reads MAJOR = 0 as 1"},
		{"minor 0", &tff.File{Major: 1, Records: []tff.Record{rec(0, "d")}}, "tff: minor code 0 cannot be written as TSF: TRCUST rejects MINOR=0"},
		{"duplicate", &tff.File{Major: 1, Records: []tff.Record{rec(4, "a"), rec(4, "b")}}, "tff: minor 0x0004 is used twice"},
		{"LF in DESC", &tff.File{Major: 1, Records: []tff.Record{rec(1, "a\nb")}}, `tff: minor 0x0001: DESC "a\nb" holds the control byte 0x0A, which a TSF string cannot hold`},
		{"0x01 in DESC", &tff.File{Major: 1, Records: []tff.Record{rec(1, "\x01W")}}, `DESC "\x01W" holds the control byte 0x01`},
		{"CR in FMT", &tff.File{Major: 1, Records: []tff.Record{rec(1, "d", "a\r")}}, `tff: minor 0x0001: FMT 1 "a\r" holds the control byte 0x0D`},
		{"DESC ends in backslash", &tff.File{Major: 1, Records: []tff.Record{rec(1, `a\`)}}, `tff: minor 0x0001: DESC "a\\" ends in a backslash, which would escape the closing quote in TSF`},
		{"DESC odd backslashes", &tff.File{Major: 1, Records: []tff.Record{rec(1, `a\\\`)}}, `ends in a backslash`},
		{"backslash quote", &tff.File{Major: 1, Records: []tff.Record{rec(1, "d", `a\"b`)}}, `tff: minor 0x0001: FMT 1 "a\\\"b" has a backslash directly before a quote, which TSF cannot express (\" is a quote alone)`},
		{"literal %W", &tff.File{Major: 1, Records: []tff.Record{rec(3, "d", "ok", "%W")}}, `tff: minor 0x0003: FMT 2 "%W" has stored controls that no TSF text gives`},
		{"unknown control", &tff.File{Major: 1, Records: []tff.Record{rec(3, "d", "\x01Z")}}, `holds the control byte 0x01`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.err == "" {
				roundTrip(t, tt.name, tt.f)
				return
			}
			l, err := TFF(tt.f)
			var b bytes.Buffer
			err = Write(&b, l, err)
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("got error %v, want %q", err, tt.err)
			}
			if b.Len() != 0 {
				t.Errorf("wrote %q before failing", b.String())
			}
		})
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteError(t *testing.T) {
	l, err := TFF(&tff.File{Major: 1, Records: []tff.Record{rec(1, "d")}})
	if err := Write(failWriter{}, l, err); err == nil {
		t.Error("Write ignored a write error")
	}
}

// TestOracleTFF lists every oracle TFF, compiles the listing with
// tracekit's compiler and compares the bytes. e26d's TFF is the malformed
// file TRCUST 3.05A writes under /D (docs/compatibility.md): TFF reports its
// duplicate minor instead.
func TestOracleTFF(t *testing.T) {
	labels, files := oracleFiles(t, ".tff")
	if len(files) == 0 {
		t.Fatal("no oracle TFF")
	}
	for i, data := range files {
		f, err := tff.Parse(data)
		if strings.HasPrefix(labels[i], "e26d_") {
			if err == nil {
				t.Errorf("%s: the malformed TFF parses", labels[i])
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", labels[i], err)
			continue
		}
		roundTrip(t, labels[i], f)
	}
}

// TestOracleTFFText: the listing writes each DESC and FMT string as the
// oracle's source did, but where TRCUST stored another spelling: the upper
// case of a control, one blank after %P fewer.
func TestOracleTFFText(t *testing.T) {
	dir := corpus.Path(t, "corpus", "os2", "trcust-oracle")
	for _, c := range []struct{ dir, tsf, tff string }{
		{"s01_pdguide", "pdguide_test.tsf", "TRC00DC.TFF"},
		{"s02_fmtupper", "s02.tsf", "TRC0030.TFF"},
		{"s04_order", "s04.tsf", "TRC0030.TFF"},
		{"s05_fmtedge", "s05.tsf", "TRC0030.TFF"},
		{"x_b01_fmt_edge", "x.tsf", "TRC0077.TFF"},
	} {
		src := readOracle(t, dir, c.dir, c.tsf)
		f, err := tff.Parse(readOracle(t, dir, c.dir, c.tff))
		if err != nil {
			t.Fatal(err)
		}
		text, err := listTFF(f)
		if err != nil {
			t.Fatal(err)
		}
		want, got := stringsOf(t, src), stringsOf(t, []byte(text))
		for i, w := range want {
			switch c.dir {
			case "s05_fmtedge":
				w = strings.ReplaceAll(w, "%p%w here", "%P%W here")
				w = strings.ReplaceAll(w, " %P %W here", " %P%W here")
			case "x_b01_fmt_edge":
				w = strings.ReplaceAll(w, "%c", "%C")
				w = strings.ReplaceAll(w, "%p%w%P %d %f %q %a %r%b %s %u %x %y", "%P%W%P%D %F %Q %A %R%B %S %U %X %Y")
				w = strings.ReplaceAll(w, "%i3", "%I3")
			}
			want[i] = w
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s: listing strings\n got %q\nwant %q", c.dir, got, want)
		}
	}
}

// stringsOf returns the DESC and FMT strings of a TSF as written.
func stringsOf(t *testing.T, src []byte) []string {
	t.Helper()
	f, diags := tsfparse.Parse("x.tsf", src)
	if len(diags) > 0 {
		t.Fatalf("%v", diags)
	}
	var out []string
	for _, s := range f.Stmts {
		tr, ok := s.(*tsf.Trace)
		if !ok {
			continue
		}
		for _, fl := range tr.Fields {
			switch fl := fl.(type) {
			case *tsf.Desc:
				out = append(out, fl.Text.Raw)
			case *tsf.Fmt:
				out = append(out, fl.Text.Raw)
			}
		}
	}
	return out
}

// TestTFFGolden checks the listings of some oracle TFFs against golden
// files (-update rewrites them; read every diff before accepting it).
func TestTFFGolden(t *testing.T) {
	dir := corpus.Path(t, "corpus", "os2", "trcust-oracle")
	for _, c := range []struct{ dir, name string }{
		{"s01_pdguide", "TRC00DC.TFF"},
		{"s04_order", "TRC0030.TFF"},
		{"s05_fmtedge", "TRC0030.TFF"},
		{"s06_nominor", "TRC0030.TFF"},
		{"c01_combine", "OUT.TFF"},
		{"d40_multi", "TRC0042.TFF"},
	} {
		f, err := tff.Parse(readOracle(t, dir, c.dir, c.name))
		if err != nil {
			t.Fatal(err)
		}
		text, err := listTFF(f)
		if err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", "tff_"+c.dir+".tsf"), []byte(text))
	}
}

// FuzzTFF: a listing TFF makes compiles back to the same bytes; when TFF
// refuses, nothing is written.
func FuzzTFF(f *testing.F) {
	f.Add(uint16(0x30), uint16(1), []byte("desc"), []byte("a=%W"))
	f.Add(uint16(1), uint16(0xFFFF), []byte(`a\\`), []byte(`q=\" %P %W`))
	f.Add(uint16(0x42), uint16(7), []byte("x"), []byte("%P   %W %C"))
	f.Fuzz(func(t *testing.T, major, minor uint16, desc, text []byte) {
		file := &tff.File{Major: major, Records: []tff.Record{{Minor: minor, Desc: desc, Fmts: [][]byte{tff.EncodeFMT(text)}}}}
		l, err := TFF(file)
		var b bytes.Buffer
		if err := Write(&b, l, err); err != nil {
			if b.Len() != 0 {
				t.Fatalf("wrote %q and failed", b.String())
			}
			return
		}
		if _, err := file.MarshalBinary(); err != nil {
			return // too long for a TFF record
		}
		roundTrip(t, "fuzz", file)
	})
}

// readOracle reads a file of an oracle case.
func readOracle(t *testing.T, dir, c, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, c, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
