package tdfgen_test

import (
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/ast/tsf"
	"github.com/tracekit/tracekit/binfmt/tdf"
	"github.com/tracekit/tracekit/lower/tdfgen"
	"github.com/tracekit/tracekit/lower/tsfcheck"
	"github.com/tracekit/tracekit/lower/tsfcompile"
	"github.com/tracekit/tracekit/lower/tsflist"
)

// fakeSyms and fakeMod are a small module: code in object 1, data in
// object 2, and object 300 to test segmented limits.
type fakeSyms map[string][2]uint32

// Next returns the lowest symbol address of object obj above off.
func (s fakeSyms) Next(_ string, obj, off uint32) (uint32, bool, bool) {
	next, ok := uint32(0), false
	for _, v := range s {
		if v[0] == obj && v[1] > off && (!ok || v[1] < next) {
			next, ok = v[1], true
		}
	}
	return next, ok, true
}

func (s fakeSyms) Lookup(name string) (uint32, uint32, bool) {
	v, ok := s[name]
	if !ok {
		// The placeholder names of tsflist.Decompile stand for their address.
		var obj, off uint32
		if n, _ := fmt.Sscanf(name, "obj%d_%08X", &obj, &off); n == 2 && tsflist.PlaceholderSymbol(obj, off) == name {
			return obj, off, true
		}
	}
	return v[0], v[1], ok
}

type fakeMod map[[2]uint32]byte

func (m fakeMod) ByteAt(obj, off uint32) (byte, error) {
	if b, ok := m[[2]uint32{obj, off}]; ok {
		return b, nil
	}
	if obj == 1 && off < 0x1000 {
		return 0x90, nil
	}
	return 0, errors.New("outside the object")
}

// Object gives object 1 as 0x1000 NOPs with the bytes set in m, ending in
// LEAVE, RET.
func (m fakeMod) Object(obj uint32) ([]byte, bool, error) {
	if obj != 1 {
		return nil, false, errors.New("no such object")
	}
	code := make([]byte, 0x1000)
	for i := range code {
		code[i], _ = m.ByteAt(1, uint32(i))
	}
	code[0xFFE], code[0xFFF] = 0xC9, 0xC3
	return code, true, nil
}

var (
	syms = fakeSyms{"f": {1, 0x10}, "g": {1, 0x20}, "pushf": {1, 0x30}, "int3": {1, 0x40}, "v": {2, 0x100}, "far": {300, 4}, "big": {2, 0x12345}, "end": {1, 0xFFC}}
	mod  = fakeMod{{1, 0x10}: 0x55, {1, 0x20}: 0x8B, {1, 0x30}: 0x9C, {1, 0x40}: 0xCC, {2, 0x100}: 0x00}
)

// compile compiles a TSF body (MODNAME and MAJOR are added) with the fake
// module.
func compile(t *testing.T, body string, opt tdfgen.Options) (*tdf.File, *tdfgen.Program, diag.List) {
	t.Helper()
	src := "MODNAME = c:\\dir\\fake.dll\r\nMAJOR = 0x42\r\n" + body
	m, diags := tsfcompile.Check("t.tsf", []byte(src), tsfcheck.Options{})
	if diags.Failed() {
		t.Fatalf("%q: front end: %v", body, diags)
	}
	return tdfgen.Build(m, syms, mod, opt)
}

// TestStatements assembles one statement at a time, for the forms of
// docs/tdf.md; the forms the oracle does not show are marked.
func TestStatements(t *testing.T) {
	for _, tc := range []struct {
		stmts string
		rpn   string
	}{
		{"REGS=(EAX)", "00 21 01"},
		{"REGS=(eax,ebx,ax,cs,ip,eip)", "03 00 21 02 0d 09 00 14 03 0d 21 01"},
		{"MEM32=(.v,DIRECT,4)", "10 0400 1b 02000000 1a 00010000 16 22"},
		{"MEM32=(.v-0x100,DIRECT,4)", "10 0400 1b 02000000 22"},
		{"MEM32=(.v+4+4-2,I,8)", "10 0800 1b 02000000 1a 06010000 16 1c 22"},
		{"MEM=(.v,DIRECT,4)", "10 0400 11 02 10 0001 15"},
		{"MEM=(.v-0x100,DIRECT,4)", "10 0400 11 02 10 0000 15"}, // not in the oracle: a segmented symbol always pushes its offset
		{"ASCIIZ=(.v,INDIRECT*+2,9)", "10 0900 11 02 10 0001 13 10 0200 16 19"},
		{"MEM32=(FEBP-EDI+ESI-4,INDIRECT**-2,4)", "10 0400 05 07 16 06 16 1a fcffffff 16 1c 1c 1a feffffff 16 22"},
		{"MEM32=(FEBP,INDIRECT*+0,4)", "10 0400 05 1c 22"},                 // not in the oracle: an offset of 0 adds nothing
		{"MEM32=(FEBP-(8),INDIRECT,4)", "10 0400 05 1c 1a 08000000 16 22"}, // IBM: -(i) adds i; (i) with DIRECT is error 66
		// The (n) term follows the last fetch; it may not stand beside an
		// offset of the first level (x_b04, x_g01: TestTwoFirstLevelOffsets).
		{"MEM32=(.v+(4),INDIRECT,4)", "10 0400 1b 02000000 1a 00010000 16 1c 1a 04000000 16 22"},
		// With a * chain the (n) term is dropped (IBM's behaviour, tried
		// with TRCUST 3.05A).
		{"MEM=(RDS+DI+(4),INDIRECT**+8,4)", "10 0400 0b 07 13 13 10 0800 16 15"},
		{"MEM=(RSS+BP-SI-2,DIRECT,4)", "10 0400 0a 05 06 16 10 feff 16 15"},
		{"MEM=(RDS+4,DIRECT,4)", "10 0400 0b 10 0400 15"}, // not in the oracle: without a dreg the displacement is the offset
		{"MEM=(RDS,DIRECT,4)", "10 0400 0b 10 0000 15"},
		{"MEM=(RES+DI+(2),INDIRECT**,4)", "10 0400 08 07 13 13 15"},
		{"MEM32=(.v,IS,2)", "10 0200 1b 02000000 1a 00010000 16 1c 1f 15"},
		{"MEM32=(.v+(4),IS,2)", "10 0200 1b 02000000 1a 00010000 16 1c 1a 04000000 16 1f 15"}, // IBM: (i) added before the split
		{"ASCIIZ=(RSS+SP,IF,6)", "10 0600 0a 04 13 20 23"},
		// IS and IF name the pointer fetched: IS at a segmented address is
		// the far fetch alone (x_h21), IF at a flat one the dword fetch alone.
		{"MEM=(.v,IS,2)", "10 0200 11 02 10 0001 13 15"},
		{"ASCIIZ=(RDS+SI,IS,8)", "10 0800 0b 06 13 19"},
		{"MEM32=(FEBP+8,IF,4)", "10 0400 05 1a 08000000 16 1c 22"},
		{"ASCIIZ32=(.v,IF,8)", "10 0800 1b 02000000 1a 00010000 16 1c 23"},
		{"LEN=(v,DIRECT), MEM32=(.v,DIRECT,LEN)", "1b 02000000 1a 00010000 16 1c 1b 02000000 1a 00010000 16 22"},
		{"LEN=(v,DIRECT), MEM=(.v,DIRECT,LEN)", "11 02 10 0001 12 11 02 10 0001 15"}, // not in the oracle: a symbolic LEN takes its MEM's kind
		{"LEN=(FEBP+8,INDIRECT*-2), MEM32=(FEBP,DIRECT,LEN)", "05 1a 08000000 16 1c 1a feffffff 16 1c 05 22"},
		{"LEN=(RDS+DI,DIRECT), MEM=(RDS+DI,DIRECT,LEN)", "0b 07 12 0b 07 15"},
		{"MEM32=(.v,DIRECT,0x10004)", "10 0400 1b 02000000 1a 00010000 16 22"},
		{"ORBIT=(0x12345678,0xFFFF)", "1a 78563412 32 ffff"},
		// IBM's behaviour: a second value above 0xFFFF is written 0x0016
		// (TRCUST 3.05A, tried with seven values).
		{"ORBIT=(1,70000)", "1a 01000000 32 1600"},
		{"ORBIT=(9,0x123456)", "1a 09000000 32 1600"},
		{"ABORTOP", "31"},
		{"REMOVEOP", "33"}, // not both: TRCUST 3.05A refuses the second (103/104)
		{"MEM32=(.far,DIRECT,1)", "10 0100 1b 2c010000 1a 04000000 16 22"},
		{"REGS=(EAX,EBX,ECX,EDX,ESP,EBP,ESI,EDI,EAX,EBX,ECX,EDX,ESP,EBP,ESI,EDI)", "07 06 05 04 02 01 03 00 07 06 05 04 02 01 03 00 21 10"},
	} {
		f, _, diags := compile(t, "TRACE MINOR=1, TP=.f, "+tc.stmts+"\r\n", tdfgen.Options{})
		if diags.Failed() || f == nil {
			t.Errorf("%s: %v", tc.stmts, diags)
			continue
		}
		want, err := hex.DecodeString(strings.ReplaceAll(tc.rpn, " ", ""))
		if err != nil {
			t.Fatal(err)
		}
		got := f.Tracepoints[0].RPN
		if string(got) != string(want) {
			t.Errorf("%s:\n got % x\nwant % x", tc.stmts, got, want)
			continue
		}
		// Every program the generator writes keeps the stack in bounds
		// and reads back as statements that compile to the same bytes.
		ops, err := tdf.Disassemble(got)
		if err == nil {
			err = tdf.Check(ops)
		}
		if err != nil {
			t.Errorf("%s: %v", tc.stmts, err)
		}
		stmts, err := tsflist.Decompile(got, nil)
		if err != nil {
			t.Errorf("%s: Decompile: %v", tc.stmts, err)
			continue
		}
		var texts []string
		for _, s := range stmts {
			texts = append(texts, s.Text())
		}
		f2, _, diags := compile(t, "TRACE MINOR=1, TP=.f, "+strings.Join(texts, ", ")+"\r\n", tdfgen.Options{})
		if renamed(t, f2, diags) != string(want) {
			t.Errorf("%s: read back as %v, which compiles to other bytes", tc.stmts, texts)
		}
	}
}

// renamed returns the RPN of a read-back program, or why there is none.
func renamed(t *testing.T, f *tdf.File, diags diag.List) string {
	t.Helper()
	if f != nil && !diags.Failed() {
		return string(f.Tracepoints[0].RPN)
	}
	return "not compiled: " + fmt.Sprint(diags)
}

// TestDiagnostics checks the messages of the back end, their text and the
// line TRCUST names, and that the tracepoint is left out.
func TestDiagnostics(t *testing.T) {
	regs17 := "REGS=(" + strings.Repeat("EAX,", 16) + "EAX)"
	mem := "MEM32=(.v,INDIRECT*+1*+2*+3,4)"
	for _, tc := range []struct {
		body string
		want string // TRCUST(line) SEVERITY: text
	}{
		{"TRACE MINOR=1, TP=.nosuch,\r\n DESC=\"d\"\r\n", "TRCUST(4) ERROR: symbol not found: nosuch"},
		{"TRACE MINOR=1, TP=.nosuch\r\nTRACE MINOR=2, TP=.g\r\n", "TRCUST(4) ERROR: symbol not found: nosuch"},
		{"TRACE MINOR=1, TP=.f,\r\n MEM32=(.nosuch,D,4)\r\n", "TRCUST(4) ERROR: symbol not found: nosuch"},
		{"TRACE MINOR=1, TP=.f,\r\n REGS=(EAX,.var)\r\n", "TRCUST(4) ERROR: symbol not found: var"},
		{"TRACE MINOR=1, TP=@f.c,10,\r\n DESC=\"d\"\r\n", "TRCUST(3) ERROR: CodeView info does not exist for: f.c"},
		{"TRACE MINOR=1, TP=.f,\r\n OPCODE=0x90\r\n", "TRCUST(5) ERROR: opcode mismatch at address to apply TP"},
		{"TRACE MINOR=1, TP=.pushf\r\n", "TRCUST(4) ERROR: opcode at TP address cannot be traced"},
		// IBM's behaviour: checked as the TP is resolved, at the line of
		// the token after the TP field, before the OPCODE.
		{"TRACE MINOR=1, TP=.int3, OPCODE=0xCC\r\n", "TRCUST(3) ERROR: opcode at TP address cannot be traced"},
		// IBM's behaviour: outside the object, two warnings, the TP kept.
		{"TRACE MINOR=1, TP=.end+4\r\n", "TRCUST(4) WARNING: offset 1000 is invalid for object number 1\nTRCUST(4) WARNING: page tracepoint to be applied at not valid"},
		{"TRACE MINOR=1, TP=.f-0x20\r\n", "TRCUST(4) WARNING: offset fffffff0 is invalid for object number 1\nTRCUST(4) WARNING: page tracepoint to be applied at not valid"},
		// Data: no code to decode; IBM warns at the line of the token after
		// RETEP (here the end of the file) and leaves the TP out. The
		// window's page, 18 bytes before big (0x12345), is not in the
		// fake's object 2: 138 and 139 first, as TRCUST warns for it.
		{"TRACE MINOR=1, TP=.v,RETEP\r\n", "TRCUST(4) WARNING: offset 12333 is invalid for object number 2\nTRCUST(4) WARNING: page tracepoint to be applied at not valid\nTRCUST(4) WARNING: unable to determine return point for v"},
		{"TRACE MINOR=1, TP=.f,\r\n DESC=\"d\",\r\n " + regs17 + "\r\n", "TRCUST(5) ERROR: RPN stack limit of 16 exceeded"},
		{"TRACE MINOR=1, TP=.f,\r\n " + strings.Repeat(mem+",\r\n ", 7) + mem + "\r\n", "TRCUST(11) ERROR: RPN command record exceeds 255 bytes"},
		{"TRACE MINOR=1, TP=.f, MEM=(.far,DIRECT,4)\r\n", "TRCUST(3) ERROR: invalid address specified: .far"},
		{"TRACE MINOR=1, TP=.f\r\nTRACE MINOR=2,\r\n TP=.f\r\n", "TRCUST(4) ERROR: duplicate TP address 00000001:00000010, ignored"},
	} {
		f, p, diags := compile(t, tc.body, tdfgen.Options{})
		var got []string
		for _, d := range diags {
			got = append(got, fmt.Sprintf("TRCUST(%d) %s: %s", tsf.LegacyLine(d), strings.ToUpper(d.Severity.String()), d.Msg))
		}
		if strings.Join(got, "\n") != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.body, got, tc.want)
			continue
		}
		if d := diags[0]; d.Pos.Line < 3 || d.Pos.Col < 1 {
			t.Errorf("%q: unpositioned %v", tc.body, d)
		}
		n := 0
		if f != nil {
			n = len(f.Tracepoints)
		}
		kept := len(p.Kept)
		if strings.Contains(tc.want, "duplicate TP") {
			// The TFF keeps both, the TDF one.
			if n != 1 || kept != 2 {
				t.Errorf("%q: %d records, %d kept", tc.body, n, kept)
			}
			continue
		}
		if strings.Contains(tc.want, "is invalid for object") && !strings.Contains(tc.want, "return point") {
			if n != 1 || kept != 1 || f.Tracepoints[0].Opcode != 0 {
				t.Errorf("%q: %d records, %d kept, want the tracepoint kept with opcode 0", tc.body, n, kept)
			}
			continue
		}
		if strings.Contains(tc.body, "MINOR=2") && (n != 1 || kept != 1) || !strings.Contains(tc.body, "MINOR=2") && (f != nil || kept != 0) {
			t.Errorf("%q: the tracepoint was not left out: %d records, %d kept", tc.body, n, kept)
		}
	}
}

// TestNoSymbols checks severe message 39: without symbol information
// Compile stops at the first symbolic tracepoint.
func TestNoSymbols(t *testing.T) {
	m, diags := tsfcompile.Check("t.tsf", []byte("MODNAME=fake.dll\r\nTRACE MINOR=1, TP=@STATIC\r\nTRACE MINOR=2, TP=.f\r\nTRACE MINOR=3, TP=.nosuch\r\n"), tsfcheck.Options{})
	if diags.Failed() {
		t.Fatal(diags)
	}
	f, p, diags := tdfgen.Build(m, nil, mod, tdfgen.Options{ModulePath: `.\fake.dll`})
	if f != nil || len(diags) != 1 || diags[0].Severity != diag.Severe || diags[0].Msg != `symbolic info not given for .\fake.dll` || tsf.LegacyLine(diags[0]) != 3 {
		t.Errorf("got %v %v", f, diags)
	}
	if len(p.Kept) != 1 {
		t.Errorf("kept %d", len(p.Kept))
	}
	m, _ = tsfcompile.Check("t.tsf", []byte("MODNAME=fake.dll\r\nTRACE MINOR=1, TP=@f.c,1, MEM32=(.v,D,4)\r\n"), tsfcheck.Options{})
	_, _, diags = tdfgen.Build(m, nil, mod, tdfgen.Options{})
	if diags.Worst() != diag.Severe || diags[len(diags)-1].Msg != "symbolic info not given for fake.dll" {
		t.Errorf("data symbol without symbols: %v", diags)
	}
}

// TestFile checks the header, the list table and the order of the records
// of a built TDF.
func TestFile(t *testing.T) {
	body := "MAXDATALEN = 100\r\nTDFID = 3\r\nTYPELIST NAME=A,ID=1, NAME=LONGNAME9,ID=4\r\nGROUPLIST NAME=G,ID=7\r\n" +
		"TRACE MINOR=5, TP=.v, TYPE=(A,LONGNAME), GROUP=G\r\n" +
		"TRACE MINOR=1, TP=.g\r\n" +
		"TRACE MINOR=2, TP=@STATIC\r\n" +
		"TRACE MINOR=3, TP=.f+0x10, REGS=(EAX)\r\n"
	for _, keep := range []bool{false, true} {
		f, p, diags := compile(t, body, tdfgen.Options{KeepPath: keep})
		if f == nil {
			t.Fatal(diags)
		}
		wantName := "fake.dll"
		if keep {
			wantName = `c:\dir\fake.dll`
		}
		if f.ModName != wantName || f.MaxDataLength != 100 || f.TDFID != 3 || f.Major != 0x42 ||
			len(f.Types) != 2 || f.Types[1].Name != "LONGNAME" || len(f.Groups) != 1 || f.Groups[0].ID != 7 {
			t.Errorf("header %+v", f)
		}
		var order []string
		for _, tp := range f.Tracepoints {
			order = append(order, fmt.Sprintf("%d@%d:%X/%02X/%x/%x", tp.Minor, tp.Object, tp.Offset, tp.Opcode, tp.TypeMask, tp.Group))
		}
		// Minor 3 is at .f+0x10, which is .g: TRCUST sorts by minor code,
		// then that array by address (crtSort, the @STATIC tracepoint
		// after every address), which puts minor 1 first, and it is kept
		// (IBM's behaviour; oraclediff case dup_address_after_minor_sort
		// is this program on emitrep.dll).
		if got := strings.Join(order, " "); got != "1@1:20/8B/0/0 5@2:100/00/5/7" {
			t.Errorf("records %s", got)
		}
		if len(p.Kept) != 4 || len(p.Records) != 3 || len(p.KeptModule().Tracepoints) != 4 {
			t.Errorf("kept %d records %d", len(p.Kept), len(p.Records))
		}
		if len(diags) != 1 || diags[0].Msg != "duplicate TP address 00000001:00000020, ignored" || tsf.LegacyLine(diags[0]) != 10 {
			t.Errorf("diagnostics %v", diags)
		}
	}
	f, _, _ := compile(t, "TRACE MINOR=2, TP=@STATIC\r\n", tdfgen.Options{})
	if f != nil {
		t.Error("a TDF without dynamic tracepoints")
	}
}

// TestNames checks the module name and TDF file name rules.
func TestNames(t *testing.T) {
	for _, tc := range [][3]string{
		{`.\emitrep.dll`, "false", "emitrep.dll"},
		{`.\emitrep.dll`, "true", `.\emitrep.dll`},
		{`c:emitrep.DLL`, "false", "emitrep.DLL"},
		{`a/b/x.sys`, "false", "a/b/x.sys"}, // a / is no separator (IBM's behaviour)
		{`a/b\c/x.sys`, "false", "c/x.sys"},
		{`OS2KRNL`, "false", "OS2KRNL"},
	} {
		if got := tdfgen.ModName(tc[0], tc[1] == "true"); got != tc[2] {
			t.Errorf("ModName(%q, %s) = %q, want %q", tc[0], tc[1], got, tc[2])
		}
	}
	for _, tc := range [][3]string{
		{"d01.tsf", "", "d01.TDF"},
		{`dir\x.TSF`, "", `dir\x.TDF`},
		{"d46.tsf", "other.tdf", "other.tdf"},
		{"d46b.tsf", "other", "other.TDF"},
	} {
		if got := tdfgen.FileName(tc[0], tc[1]); got != tc[2] {
			t.Errorf("FileName(%q, %q) = %q, want %q", tc[0], tc[1], got, tc[2])
		}
	}
}

// FuzzAssemble compiles a TRACE statement with arbitrary data statements:
// no panic; every program written keeps the stack within 16 items and the
// length within 255 bytes, and reads back (tsflist.Decompile) as statements
// that compile to the same bytes.
func FuzzAssemble(f *testing.F) {
	for _, s := range []string{
		"REGS=(EAX,BX,CS)", "MEM32=(.v+4,INDIRECT*+6*-8,10)", "LEN=(v,INDIRECT*+4), MEM=(.v,I,LEN)",
		"ASCIIZ=(RDS+SI-(2),IF,10), ASCIIZ32=(FEBP+EDI,IS,10)", "MEM=(RES+4,D,4), ORBIT=(1,2), ABORTOP",
		"LEN=(FEBP+8,DIRECT), MEM32=(FEBP+12,INDIRECT,LEN)", "MEM=(.big,D,1)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, stmts string) {
		src := "MODNAME = fake.dll\nTRACE MINOR=1, TP=.f, " + stmts + "\n"
		m, diags := tsfcompile.Check("f.tsf", []byte(src), tsfcheck.Options{})
		if diags.Failed() || len(m.Tracepoints) != 1 {
			return
		}
		file, _, diags := tdfgen.Build(m, syms, mod, tdfgen.Options{})
		for _, d := range diags {
			if d.Pos.Line < 1 || tsf.LegacyLine(d) < 1 {
				t.Fatalf("unpositioned %+v", d)
			}
		}
		if file == nil {
			return
		}
		rpn := file.Tracepoints[0].RPN
		ops, err := tdf.Disassemble(rpn)
		if err == nil {
			err = tdf.Check(ops)
		}
		if err != nil || len(rpn) > tdf.MaxRPN {
			t.Fatalf("%q: % x: %v", stmts, rpn, err)
		}
		back, err := tsflist.Decompile(rpn, nil)
		if err != nil {
			t.Fatalf("%q: % x: %v", stmts, rpn, err)
		}
		var texts []string
		for _, s := range back {
			texts = append(texts, s.Text())
		}
		// A program of no statements (a LEN nothing uses makes none)
		// reads back as a TRACE of no data statements.
		back2 := "MODNAME = fake.dll\nTRACE MINOR=1, TP=.f"
		for _, s := range texts {
			back2 += ", " + s
		}
		m2, diags := tsfcompile.Check("g.tsf", []byte(back2+"\n"), tsfcheck.Options{})
		f2, _, diags2 := tdfgen.Build(m2, syms, mod, tdfgen.Options{})
		if diags.Failed() || diags2.Failed() || f2 == nil || string(f2.Tracepoints[0].RPN) != string(rpn) {
			t.Fatalf("%q read back as %q: %v %v", stmts, texts, diags, diags2)
		}
	})
}

// TestIBMProgramsReadBack reads back every program IBM's TRCUST 3.05A wrote
// in the TDF files of cmd/trcust/testdata/oraclediff (tsflist.Decompile,
// the listing of tracekit dump --tsf) and compiles the statements again:
// each program comes from TSF statements, so each must read back whole, as
// statements that give the same bytes.
func TestIBMProgramsReadBack(t *testing.T) {
	files, err := filepath.Glob("../../cmd/trcust/testdata/oraclediff/*/ibm/*.[Tt][Dd][Ff]")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 100 {
		t.Fatalf("only %d TDF files under cmd/trcust/testdata/oraclediff", len(files))
	}
	programs := 0
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := tdf.Parse(data)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		for _, tp := range f.Tracepoints {
			programs++
			back, err := tsflist.Decompile(tp.RPN, nil)
			if err != nil {
				t.Errorf("%s: minor 0x%04X: % x: %v", name, tp.Minor, tp.RPN, err)
				continue
			}
			src := "MODNAME = fake.dll\nTRACE MINOR=1, TP=.f"
			for _, s := range back {
				src += ", " + s.Text()
			}
			m, diags := tsfcompile.Check("back.tsf", []byte(src+"\n"), tsfcheck.Options{})
			if diags.Failed() {
				t.Errorf("%s: minor 0x%04X: %q: %v", name, tp.Minor, src, diags)
				continue
			}
			again, _, diags := tdfgen.Build(m, syms, mod, tdfgen.Options{})
			if diags.Failed() || again == nil || string(again.Tracepoints[0].RPN) != string(tp.RPN) {
				var rpn []byte
				if again != nil {
					rpn = again.Tracepoints[0].RPN
				}
				t.Errorf("%s: minor 0x%04X: % x read back as %q, which gives % x %v", name, tp.Minor, tp.RPN, src, rpn, diags)
			}
		}
	}
	t.Logf("%d TDF files, %d programs", len(files), programs)
}
