package tsfparse

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/ast/tsf"
)

// checkPositions fails when a diagnostic has no position inside the file.
func checkPositions(t *testing.T, src []byte, diags diag.List) {
	t.Helper()
	for _, d := range diags {
		if d.Pos.Line < 1 || d.Pos.Col < 1 || d.Pos.Offset < 0 || d.Pos.Offset > len(src) || tsf.LegacyLine(d) < 1 {
			t.Fatalf("diagnostic without a proper position: %+v", d)
		}
	}
}

// TestShapes checks the tree built for the three address forms, the TP
// forms and the INDIRECT chains, against hand-written expectations.
func TestShapes(t *testing.T) {
	src := []byte(`; synthetic
MODNAME = c:\x\y.dll
MAJOR = 0x30
TRACE MINOR=1, TP=.emit+4,RETEP,
  LEN=(v_ptr,INDIRECT*+6*-8),
  MEM32=(.var+2-1+(4),I**,LEN),
  MEM32=(FEBP+EDI-ESI+8+(2),INDIRECT*+4*,10),
  MEM=(RDS+DI+0x10+(6),IF,6),
  REGS=(eax,.regvar)
TRACE MINOR=2, TP=@dosopen1.c,28, DESC="a\"b\\c"
TRACE MINOR=3, TP=@Static
`)
	f, diags := Parse("shapes.tsf", src)
	checkPositions(t, src, diags)
	if len(diags) != 0 {
		t.Fatalf("unexpected diagnostics: %v", diags)
	}
	if len(f.Stmts) != 5 {
		t.Fatalf("got %d statements, want 5", len(f.Stmts))
	}
	if mn := f.Stmts[0].(*tsf.ModName); mn.Path.Text != `c:\x\y.dll` {
		t.Errorf("MODNAME path %q", mn.Path.Text)
	}
	tr := f.Stmts[2].(*tsf.Trace)
	tp := tr.Fields[1].(*tsf.TP).Target.(*tsf.SymbolTP)
	if tp.Name.Text != "emit" || len(tp.Offsets) != 1 || tp.Offsets[0].Int() != 4 || tp.RetEP == nil {
		t.Errorf("TP %+v", tp)
	}
	l := tr.Fields[2].(*tsf.Len)
	if a := l.Addr.(*tsf.SymbolAddr); a.Dot || a.Name.Text != "v_ptr" {
		t.Errorf("LEN address %+v", a)
	}
	if ch := l.Flag.Chain; l.Flag.Kind != tsf.Indirect || len(ch) != 2 || ch[0].Offset.Int() != 6 || ch[1].Offset.Int() != -8 {
		t.Errorf("LEN flag %+v", l.Flag)
	}
	m1 := tr.Fields[3].(*tsf.Mem)
	sa := m1.Addr.(*tsf.SymbolAddr)
	if !sa.Dot || len(sa.Disps) != 2 || sa.Disps[0].Int() != 2 || sa.Disps[1].Int() != -1 || sa.Indirect.Int() != 4 || m1.UseLen == nil {
		t.Errorf("symbolic address %+v", sa)
	}
	if len(m1.Flag.Chain) != 2 || m1.Flag.Chain[0].Offset != nil {
		t.Errorf("I** chain %+v", m1.Flag.Chain)
	}
	fa := tr.Fields[4].(*tsf.Mem).Addr.(*tsf.FlatAddr)
	if fa.Base.Text != "EBP" || len(fa.Index) != 2 || !fa.Index[1].Neg || fa.Index[1].Reg.Text != "ESI" || fa.Disps[0].Int() != 8 || fa.Indirect.Int() != 2 {
		t.Errorf("flat address %+v", fa)
	}
	ga := tr.Fields[5].(*tsf.Mem).Addr.(*tsf.SegAddr)
	if ga.Seg.Text != "DS" || ga.Regs[0].Reg.Text != "DI" || ga.Disps[0].Num.Value != 0x10 || ga.Indirect.Int() != 6 {
		t.Errorf("segment address %+v", ga)
	}
	if r := tr.Fields[6].(*tsf.Regs).Regs; r[0].Name != "eax" || !r[1].Variable || r[1].Name != "regvar" {
		t.Errorf("REGS %+v", r)
	}
	tr2 := f.Stmts[3].(*tsf.Trace)
	if lt := tr2.Fields[1].(*tsf.TP).Target.(*tsf.LineTP); lt.File.Text != "dosopen1.c" || lt.Line.Value != 28 {
		t.Errorf("line TP %+v", lt)
	}
	if d := tr2.Fields[2].(*tsf.Desc).Text; d.Raw != `a\"b\\c` || d.Value != `a"b\\c` {
		t.Errorf("DESC raw %q value %q", d.Raw, d.Value)
	}
	if _, ok := f.Stmts[4].(*tsf.Trace).Fields[1].(*tsf.TP).Target.(*tsf.StaticTP); !ok {
		t.Error("@Static is not a static TP")
	}
}

// TestNumbers checks the number rules: decimal, 0x hex, a leading zero
// stays decimal, at most 32 bits.
func TestNumbers(t *testing.T) {
	for _, tc := range []struct {
		text string
		want uint64
		bad  bool
	}{
		{"08", 8, false}, {"0x2B", 43, false}, {"0X10", 16, false}, {"4294967295", 0xFFFFFFFF, false},
		{"4294967296", 0, true}, {"0x", 0, false}, {"12abc", 0, true}, {"0xFFFFFFFFF", 0, true}, // "0x" is 0: IBM's behaviour
	} {
		v, err := parseNumber(tc.text)
		if (err != "") != tc.bad || v != tc.want {
			t.Errorf("parseNumber(%q) = %d, %q", tc.text, v, err)
		}
	}
}

// TestNUL checks that a NUL byte in a string is severe error 37 and stops
// the parse.
func TestNUL(t *testing.T) {
	src := []byte("MODNAME = a.dll\nTRACE MINOR=1, TP=@STATIC, DESC=\"a\x00b\"\nTRACE FOO\n")
	_, diags := Parse("nul.tsf", src)
	if len(diags) != 1 || diags[0].Code != "TRC037" || diags[0].Pos.Line != 2 || diags[0].Pos.Col != 35 {
		t.Fatalf("got %v", diags)
	}
}

// TestCorpusParses parses the real TSF samples: no syntax error but the
// trailing comma the reference's sample 1.5.1 ends with.
func TestCorpusParses(t *testing.T) {
	dir := corpus.Path(t, "corpus", "os2", "tsf")
	files, _ := filepath.Glob(filepath.Join(dir, "*.tsf"))
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, diags := Parse(filepath.Base(name), src)
		checkPositions(t, src, diags)
		want := 0
		if filepath.Base(name) == "sg244640_16bit_xxx.tsf" {
			want = 1
		}
		if len(diags) != want {
			t.Errorf("%s: %v", name, diags)
		}
		if len(f.Stmts) < 3 {
			t.Errorf("%s: only %d statements", name, len(f.Stmts))
		}
	}
}

// FuzzParse: no panic, no hang, every diagnostic positioned.
func FuzzParse(f *testing.F) {
	f.Add([]byte("MODNAME = a.dll\nMAJOR = 1\nTRACE MINOR=1, TP=.x, MEM32=(FEBP+EDI+(4),INDIRECT*+6*,LEN)\n"))
	f.Add([]byte("TRACE TP=@STATIC, DESC=\"a\\\"\", FMT=\"%P%W\" /* c /* n */ */ ; x\n"))
	f.Add([]byte("TYPELIST NAME=A,ID=1, GROUPLIST NAME=B,ID=2,"))
	f.Add([]byte("/* open"))
	f.Fuzz(func(t *testing.T, src []byte) {
		_, diags := Parse("fuzz.tsf", src)
		checkPositions(t, src, diags)
	})
}

// TestStringsDoNotSplit: punctuation inside a string is text. A DESC of
// "(" or "=" does not hide the TRACE keyword after it.
func TestStringsDoNotSplit(t *testing.T) {
	src := []byte("MODNAME = a.dll\nTRACE MINOR=1, TP=@STATIC, DESC=\"(\"\nTRACE MINOR=2, TP=@STATIC, DESC=\"=\"\nTRACE MINOR=3, TP=@STATIC, DESC=\")\"\n")
	f, diags := Parse("s.tsf", src)
	if len(diags) != 0 {
		t.Fatalf("%v", diags)
	}
	n := 0
	for _, s := range f.Stmts {
		if _, ok := s.(*tsf.Trace); ok {
			n++
		}
	}
	if n != 3 {
		t.Errorf("%d TRACE statements, want 3", n)
	}
}

// TestSyntaxNamesCoverGrammar checks that every parse structure of the
// grammar has a name in the user's words: participle names the structure
// it wanted in "(expected X)", and a name like LengthTok must never reach
// a message.
func TestSyntaxNamesCoverGrammar(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(rt reflect.Type) {
		for rt.Kind() == reflect.Pointer || rt.Kind() == reflect.Slice {
			rt = rt.Elem()
		}
		if rt.Kind() != reflect.Struct || seen[rt] || rt.PkgPath() != reflect.TypeFor[header]().PkgPath() {
			return
		}
		seen[rt] = true
		name := strings.ToUpper(rt.Name()[:1]) + rt.Name()[1:]
		if got := expected("unexpected token \"x\" (expected " + name + ")"); got == name {
			t.Errorf("expected(%q) = %q: the structure's name would reach a message; add it to syntaxNames", name, got)
		}
		for i := range rt.NumField() {
			walk(rt.Field(i).Type)
		}
	}
	for _, root := range []reflect.Type{reflect.TypeFor[header](), reflect.TypeFor[listStmt](), reflect.TypeFor[field]()} {
		walk(root)
	}
	if len(seen) < 20 {
		t.Fatalf("walked %d structures of the grammar, want them all", len(seen))
	}
}

// TestIsKeyword: isKeyword agrees with strings.EqualFold on every keyword
// against its spellings in other cases, with runes that fold to ASCII
// letters (the Kelvin sign to K, the long s to S), and against words
// longer, shorter and one byte off.
func TestIsKeyword(t *testing.T) {
	var kws []string
	for _, l := range [][]string{headerKeywords, listKeywords, fieldKeywords, nameKeyword, idKeyword, {"TRACE", "MODNAME", "MASK", "KS"}} {
		kws = append(kws, l...)
	}
	for _, kw := range kws {
		cands := []string{kw, strings.ToLower(kw), strings.ToUpper(kw[:1]) + strings.ToLower(kw[1:]), kw + "X", kw[:len(kw)-1], "X" + kw[1:], "",
			strings.ReplaceAll(kw, "K", "\u212A"), strings.ReplaceAll(kw, "S", "\u017F"), strings.ReplaceAll(strings.ToLower(kw), "s", "\u017F") + "x", kw + "\u00E9"}
		for _, c := range cands {
			if got, want := isKeyword(c, kw), strings.EqualFold(c, kw); got != want {
				t.Errorf("isKeyword(%q, %q) = %v, EqualFold says %v", c, kw, got, want)
			}
		}
	}
}
