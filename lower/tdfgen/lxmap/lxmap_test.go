package lxmap

import (
	"errors"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
	"github.com/tracekit/tracekit/binfmt/lx"
	"github.com/tracekit/tracekit/grammar/mapfile"
)

// TestEmitrep resolves names and reads bytes of the oracle's DLL.
func TestEmitrep(t *testing.T) {
	f, err := lx.Open(corpus.Path(t, "corpus", "os2", "lx", "osfree_emitrep.dll"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, _, err := mapfile.ParseFile(corpus.Path(t, "corpus", "os2", "lx", "osfree_emitrep.map"))
	if err != nil {
		t.Fatal(err)
	}
	exact, fold := NewSymbols(m, false), NewSymbols(m, true)
	for _, tc := range []struct {
		s        *Symbols
		name     string
		obj, off uint32
		ok       bool
	}{
		{exact, "emit", 1, 0, true},
		{exact, "malloc", 1, 0xDC0, true},
		{exact, "errno", 2, 0xBF8, true},
		{exact, "EMIT", 0, 0, false},
		{fold, "EMIT", 1, 0, true},
		{exact, "DosWrite", 0, 0, false}, // imported
		{exact, "nosuch", 0, 0, false},
	} {
		obj, off, ok := tc.s.Lookup(tc.name)
		if obj != tc.obj || off != tc.off || ok != tc.ok {
			t.Errorf("Lookup(%q, fold %v) = %d, %#x, %v", tc.name, tc.s.IgnoreCase, obj, off, ok)
		}
	}
	for _, tc := range []struct {
		obj, off uint32
		name     string
		disp     uint32
	}{
		{1, 0, "emit", 0},
		{1, 0x307, "emit", 0x307},
		{2, 0xBF9, "errno", 1},
		{2, 0xBFC, "_pBucketArr", 0},
		{1, 0xDC0, "malloc", 0},
		{9, 0, "", 0},
	} {
		name, disp, ok := exact.Symbol(tc.obj, tc.off)
		if name != tc.name || disp != tc.disp || ok != (tc.name != "") {
			t.Errorf("Symbol(%d, %#x) = %q+%#x %v", tc.obj, tc.off, name, disp, ok)
		}
	}
	// Next: where a procedure ends, for RETEP.
	for _, tc := range []struct {
		name      string
		obj, off  uint32
		next      uint32
		ok, found bool
	}{
		{"emit", 1, 0, 0x30C, true, true},                // emit ends at ReportEmitterNewClass
		{"malloc", 1, 0xDC0, 0x1090, true, true},         // malloc at free
		{"malloc", 1, 0xDC1, 0, false, false},            // not malloc's address
		{"DosGetMessage", 1, 0x4422, 0x4440, true, true}, // object 2 follows: the end of _MSGSEG32
		{"_end", 2, 0xC6C, 0, false, false},              // the last line of the table
		{"emit", 9, 0, 0, false, false},                  // no such object
		{"nosuch", 1, 0, 0x30C, true, true},              // the address decides, not the name (IBM's behaviour, session 16)
		{"emit", 0x10001, 0, 0, false, false},            // an object number no MAP line can hold
	} {
		next, ok, found := exact.Next(tc.name, tc.obj, tc.off)
		if next != tc.next || ok != tc.ok || found != tc.found {
			t.Errorf("Next(%s, %d, %#x) = %#x, %v, %v; want %#x, %v, %v", tc.name, tc.obj, tc.off, next, ok, found, tc.next, tc.ok, tc.found)
		}
	}
	mod := Module{File: f}
	for _, tc := range []struct {
		obj, off uint32
		b        byte
		ok       bool
	}{
		{1, 0, 0x55, true}, {1, 4, 0xEC, true}, {1, 0x307, 0xC9, true}, {2, 0xBF8, 0, true},
		{0, 0, 0, false}, {3, 0, 0, false}, {1, 0x100000, 0, false},
	} {
		b, err := mod.ByteAt(tc.obj, tc.off)
		if b != tc.b || (err == nil) != tc.ok {
			t.Errorf("ByteAt(%d, %#x) = %#x, %v", tc.obj, tc.off, b, err)
		}
	}
	// An object the module does not have, read through the page buffer
	// (IBM's behaviour, oraclediff case bad_object_reads_page_table): as
	// an object of no pages whose first page is the module's page 0.
	buf := Module{File: f, Buffer: &PageBuffer{}}
	for _, tc := range []struct {
		obj, off uint32
		b        byte
		invalid  bool // 139
	}{
		{1, 0xFF2, 0xF4, false},      // object 1's page 0 into the buffer
		{3, 4, 0xEC, true},           // the entry before the table: no page read, the buffer's byte
		{3, 0x1000, 0x55, false},     // the module's page 1, object 1's first
		{3, 0x5004, 0x14, false},     // page 5, object 1's short last page
		{3, 0x80000000, 0x00, true},  // the entry before the table again
		{3, 0xFFFFFFF2, 0x00, false}, // the entry at 0xFFF0: a page of zeros
		{1, 0x4FF2, 0x00, false},     // past page 4's stored bytes: the zeros left
		{0, 0, 0x00, true},           // object 0: no page read
	} {
		b, err := buf.ByteAt(tc.obj, tc.off)
		var noObj *NoObjectError
		if tc.obj != 1 && !errors.As(err, &noObj) {
			t.Errorf("ByteAt(%d, %#x): error %v, want a NoObjectError", tc.obj, tc.off, err)
			continue
		}
		if b != tc.b || (noObj != nil && noObj.InvalidPage() != tc.invalid) {
			t.Errorf("ByteAt(%d, %#x) = %#x, %v; want %#x, 139 %v", tc.obj, tc.off, b, err, tc.b, tc.invalid)
		}
	}
}

// TestExportsNext checks Lookup and Next over the module's exported names,
// the fallback without a MAP file: emitrep.dll exports emit alone, at
// 1:0, so no export follows it (the procedure runs to the end of its
// object), and a name differing in case is found only with IgnoreCase.
func TestExportsNext(t *testing.T) {
	f, err := lx.Open(corpus.Path(t, "corpus", "os2", "lx", "osfree_emitrep.dll"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	x := Exports{File: f}
	if obj, off, ok := x.Lookup("emit"); !ok || obj != 1 || off != 0 {
		t.Errorf("Lookup(emit) = %d, %#x, %v; want 1, 0", obj, off, ok)
	}
	if _, _, ok := x.Lookup("EMIT"); ok {
		t.Error("Lookup(EMIT) found without IgnoreCase")
	}
	if obj, _, ok := (Exports{File: f, IgnoreCase: true}).Lookup("EMIT"); !ok || obj != 1 {
		t.Error("Lookup(EMIT) not found with IgnoreCase")
	}
	for _, tc := range []struct{ obj, off uint32 }{{1, 0}, {1, 0x300}, {2, 0}} {
		if next, ok, _ := x.Next("", tc.obj, tc.off); ok {
			t.Errorf("Next(%d, %#x) = %#x, want none", tc.obj, tc.off, next)
		}
	}
}

// TestNextSegmentRuns: object N's end is run number N of the segment
// table, whatever its object, unless it is of a higher-numbered object
// (session 17, probed with TRCUST 3.05A on 2ine's hello.exe: getenv at 2:E
// before a line 3:156; oraclediff cases retep_end_table_*).
func TestNextSegmentRuns(t *testing.T) {
	const (
		data27 = " 0001:00000000 000000027H DATA32                 DATA 32-bit\n"
		code12 = " 0002:00000000 000000012H CODE32                 CODE 32-bit\n"
		code30 = " 0002:00000012 000000030H CODE2                  CODE 32-bit\n"
		x200   = " 0003:00000000 000000200H X                      DATA 32-bit\n"
	)
	for _, tc := range []struct {
		what, segs, next string
		want             uint32
	}{
		{"DATA32, CODE32: CODE32's end", data27 + code12, " 0003:00000156       exit\n", 0x12},
		{"same, next line of object 2 past it", data27 + code12, " 0002:00000156       exit\n", 0x12},
		{"a third object after: CODE32's end", data27 + code12 + x200, " 0003:00000156       exit\n", 0x12},
		{"CODE32, DATA32: run 2 is DATA32's", code12 + data27, " 0003:00000156       exit\n", 0x27},
		{"CODE32 in two lines, DATA32: run 2 is DATA32's", code12 + code30 + data27, " 0003:00000156       exit\n", 0x27},
		{"DATA32, CODE32 in two lines: the run's end", data27 + code12 + code30, " 0003:00000156       exit\n", 0x42},
		{"run 2 of object 3: no bound", data27 + x200 + code12, " 0003:00000156       exit\n", 0x156},
	} {
		text := "\n hello\n\n Start         Length     Name                   Class\n" + tc.segs +
			"\n  Address         Publics by Value\n\n 0002:00000001       fclose\n 0002:0000000E       getenv\n" + tc.next + "\nProgram entry point at 0002:00000011\n"
		m, _, err := mapfile.Parse("t.map", []byte(text))
		if err != nil {
			t.Fatalf("%s: %v", tc.what, err)
		}
		next, ok, found := NewSymbols(m, false).Next("getenv", 2, 0xE)
		if next != tc.want || !ok || !found {
			t.Errorf("%s: Next = %#x, %v, %v; want %#x", tc.what, next, ok, found, tc.want)
		}
	}
}

// TestNextSegments checks where Next ends a procedure against the segment
// table, on MAP files like those probed with TRCUST 3.05A (session 15,
// the oraclediff cases retep_end_segment_cap, retep_symbol_past_segments
// and retep_table_led_by_other_object): the object's segments bound the
// end for a symbol before their end; a symbol past it takes the next
// line's offset whatever its object; a table that starts with another
// object bounds nothing.
func TestNextSegments(t *testing.T) {
	mapText := func(segs, byValue string) string {
		return "\n emitrep\n\n Start         Length     Name                   Class\n" + segs +
			"\n  Address         Publics by Value\n\n" + byValue + "\nProgram entry point at 0001:00000648\n"
	}
	const (
		code4410 = " 0001:00000000 000004410H CODE32                 CODE 32-bit\n 0002:00000000 0000008B0H DATA32                 DATA 32-bit\n"
		code4420 = " 0001:00000000 000004420H CODE32                 CODE 32-bit\n 0002:00000000 0000008B0H DATA32                 DATA 32-bit\n"
		code3000 = " 0001:00000000 000003000H CODE32                 CODE 32-bit\n 0002:00000000 0000008B0H DATA32                 DATA 32-bit\n"
		twoCode  = " 0001:00000000 000004000H CODE32                 CODE 32-bit\n 0001:00004000 000000410H CODE2                  CODE 32-bit\n 0002:00000000 0000008B0H DATA32                 DATA 32-bit\n"
		dataLead = " 0002:00000000 0000008B0H DATA32                 DATA 32-bit\n 0001:00000000 000004410H CODE32                 CODE 32-bit\n 0003:00000000 000000010H XX                     DATA 32-bit\n"
		strspn   = " 0001:00003F3C       free\n 0001:00004414       strspn\n 0002:00000007       errno\n"
		dataNext = " 0001:00003F3C       free\n 0002:00000007       errno\n"
	)
	for _, tc := range []struct {
		what          string
		segs, byValue string
		next          uint32
	}{
		{"next line past CODE32's end: CODE32's end", code4410, strspn, 0x4410},
		{"next line before CODE32's end: the line", code4420, strspn, 0x4414},
		{"two segments of object 1: the end of the last", twoCode, strspn, 0x4410},
		{"another object next: CODE32's end", code4410, dataNext, 0x4410},
		{"symbol past CODE32's end, another object next: its offset", code3000, dataNext, 7},
		{"symbol past CODE32's end, same object next: its offset", code3000, strspn, 0x4414},
		{"table led by another object: no bound", dataLead, strspn, 0x4414},
		{"CODE32 alone: its end", " 0001:00000000 000004410H CODE32                 CODE 32-bit\n", strspn, 0x4410},
		{"object 1 in two lines alone: the run's end", " 0001:00000000 000004000H CODE32                 CODE 32-bit\n 0001:00004000 000000410H CODE2                  CODE 32-bit\n", strspn, 0x4410},
		{"run 1 of object 3: no bound", " 0003:00000000 000005000H X                      DATA 32-bit\n 0001:00000000 000004410H CODE32                 CODE 32-bit\n", dataNext, 7},
	} {
		m, _, err := mapfile.Parse("t.map", []byte(mapText(tc.segs, tc.byValue)))
		if err != nil {
			t.Fatalf("%s: %v", tc.what, err)
		}
		next, ok, found := NewSymbols(m, false).Next("free", 1, 0x3F3C)
		if next != tc.next || !ok || !found {
			t.Errorf("%s: Next = %#x, %v, %v; want %#x", tc.what, next, ok, found, tc.next)
		}
	}
}
