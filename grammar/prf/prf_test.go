package prf

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	prfast "github.com/tracekit/tracekit/ast/prf"
)

const header = "Offset    +0 +1 +2 +3 +4 +5 +6 +7 +8 +9 +a +b +c +d +e +f  0123456789abcdef"

// feed runs the dump parser over lines and returns the records and the
// diagnostics.
func feed(lines []string) ([]*prfast.Record, diag.List) {
	var p DumpParser
	var recs []*prfast.Record
	var all diag.List
	off := 0
	for i, l := range lines {
		pos := ast.Pos{File: "t.prf", Offset: off, Line: i + 1, Col: 1}
		off += len(l) + 1
		if strings.TrimSpace(l) == "" {
			continue
		}
		r, d := p.Line(pos, l)
		if r != nil {
			recs = append(recs, r)
		}
		all = append(all, d...)
	}
	if r := p.End(); r != nil {
		recs = append(recs, r)
	}
	return recs, all
}

func TestDumpParser(t *testing.T) {
	lines := []string{
		"PRF: Rec Process: 4120 Thread: 0x1a2c",
		"Trace: 1",
		"ProcessName: my  server ",
		"Event: 0x8000 Time: 2000/02/12 13:43:44",
		"   363/200/000",
		"Rc: -3",
		"ClientAP: 10.0.0.1 11 - 12 RootAP: 10.0.0.2 21 - 22",
		"SendSCD: a b ReceiveSCD: c",
		"LookupName: x:y",
		"INT: java:comp/env OPR: do it*",
		header,
		"00000000  41 42 43 44 45 46 47 48 49 4a 4b 4c 4d 4e 4f 50  ABCDEFGHIJKLMNOP",
		"00000010  51 00                                            Q.",
		"PRF: ErrRec Process: 1 Thread: 2",
		"Event: 0x8100",
	}
	recs, diags := feed(lines)
	if len(diags) != 0 || len(recs) != 2 {
		t.Fatalf("%d records, %v", len(recs), diags)
	}
	r := recs[0]
	checks := []struct{ got, want string }{
		{r.Status.Text, "Rec"}, {r.Process.Text, "4120"}, {r.Thread.Text, "0x1a2c"}, {r.Trace.Text, "1"},
		{r.ProcessName.Text, "my  server"}, {r.Event.Text, "0x8000"}, {r.Date.Text, "2000/02/12"}, {r.Clock.Text, "13:43:44"},
		{r.SubSecond.Text, "363/200/000"}, {r.Rc.Text, "-3"},
		{r.ClientAP.IP.Text + " " + r.ClientAP.PID.Text + " " + r.ClientAP.CommNo.Text, "10.0.0.1 11 12"},
		{r.RootAP.IP.Text + " " + r.RootAP.PID.Text + " " + r.RootAP.CommNo.Text, "10.0.0.2 21 22"},
		{r.SendSCD.Text, "a b"}, {r.ReceiveSCD.Text, "c"}, {r.LookupName.Text, "x:y"},
		{r.INT.Text, "java:comp/env"}, {r.OPR.Text, "do it*"},
		{string(r.OPT.Data), "ABCDEFGHIJKLMNOPQ\x00"}, {string(r.ASCII.Data), "ABCDEFGHIJKLMNOPQ."},
		{strconv.Itoa(r.Lines), "13"}, {r.SubSecond.Pos.String(), "t.prf:5:4"}, {r.INT.Pos.String(), "t.prf:10:6"},
		{recs[1].Status.Text, "ErrRec"}, {strconv.Itoa(recs[1].Lines), "2"},
	}
	for i, c := range checks {
		if c.got != c.want {
			t.Errorf("check %d: %q, want %q", i, c.got, c.want)
		}
	}
}

func TestDumpParserErrors(t *testing.T) {
	tests := []struct {
		lines []string
		want  string // code@line:col of each diagnostic
	}{
		{[]string{"Trace: 1"}, "PRF002@1:1"},
		{[]string{"PRF: Rec", "Trace: 1", "Trace: 2"}, "PRF003@3:8"},
		{[]string{"PRF: Rec", "Bogus"}, "PRF001@2:1"},
		{[]string{"PRF:", "Trace: 1"}, "PRF001@1:5 PRF002@2:1"},
		{[]string{"PRF: Rec", "00000000  00"}, "PRF001@2:1"},
		{[]string{"PRF: Rec", header, "00000000  0g"}, "PRF006@3:11"},
		{[]string{"PRF: Rec", header, "zz  00"}, "PRF006@3:1"},
		{[]string{"PRF: Rec", header, "00000010  00"}, "PRF007@3:1"},
		{[]string{"PRF: Rec", header, header}, "PRF006@3:1"},
		{[]string{"PRF: Rec", header, "Offset x"}, "PRF006@3:1"},
		{[]string{"PRF: Rec", "ClientAP: 1 2 3"}, "PRF001@2:15"},
		{[]string{"PRF: Rec", "ClientAP: 1 2 - 3", "ClientAP: 1 2 - 3"}, "PRF003@3:11"},
		{[]string{"PRF: Rec", "INT: a OPR: b", "INT: c"}, "PRF003@3:6"},
		{[]string{"PRF: Rec", "Event: 1 Time: 2000/01/01"}, "PRF001@2:26"},
	}
	for _, tt := range tests {
		_, diags := feed(tt.lines)
		var got []string
		for _, d := range diags {
			got = append(got, string(d.Code)+"@"+strconv.Itoa(d.Pos.Line)+":"+strconv.Itoa(d.Pos.Col))
		}
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("%q: %s, want %s (%v)", tt.lines, g, tt.want, diags)
		}
	}
}

func TestCSVParser(t *testing.T) {
	var p CSVParser
	pos := func(line int) ast.Pos { return ast.Pos{File: "t.csv", Line: line, Col: 1} }
	h, r, d := p.Line(pos(1), "PRF, Process ,Event,INT,OPT,ASCII,Zone")
	if h == nil || r != nil || len(d) != 1 || d[0].Code != prfast.CodeColumn || d[0].Pos.Col != 35 {
		t.Fatalf("header: %v %v %v", h, r, d)
	}
	_, r, d = p.Line(pos(2), `Rec, 12 ,0x8000,"a,""b""",41 42,"A,",+09`)
	if r == nil || len(d) != 0 {
		t.Fatalf("row: %v", d)
	}
	if r.Process.Text != "12" || r.Process.Pos.Col != 6 || r.INT.Text != `a,"b"` || string(r.OPT.Data) != "AB" || string(r.ASCII.Data) != "A," || len(r.Extra) != 1 || r.Extra[0].Name != "Zone" || r.Extra[0].Text != "+09" {
		t.Errorf("row: %+v", r)
	}
	for _, tt := range []struct{ line, want string }{
		{"Rec,1", "PRF008@1"},
		{`Rec,1,2,"x"y,00,a,z`, "PRF001@12"},
		{`Rec,1,2,"x,00,a,z`, "PRF001@9"},
		{`Rec,1,2,x,0z,a,z`, "PRF006@11"},
	} {
		_, r, d := p.Line(pos(3), tt.line)
		if r != nil || len(d) == 0 || string(d[0].Code)+"@"+strconv.Itoa(d[0].Pos.Col) != tt.want {
			t.Errorf("%q: %v", tt.line, d)
		}
	}
	// Without a header row the reference's order applies.
	var q CSVParser
	_, r, d = q.Line(pos(1), "Rec,1,0x2,3,p,0x8000,2000/02/12,13:43:44,363/200/000,0,ip,1,2,ip2,3,4,I,O,00,.")
	if r == nil || len(d) != 0 || r.Thread.Text != "0x2" || r.RootAP.CommNo.Text != "4" || r.OPR.Text != "O" {
		t.Errorf("%+v %v", r, d)
	}
	if len(DefaultColumns()) != 20 {
		t.Errorf("%d default columns", len(DefaultColumns()))
	}
}

// TestCSVLineIn: rows parsed into a Nodes hold what Line gives them; after
// Reset the next batch's records take the same storage, and a row then
// costs no allocation.
func TestCSVLineIn(t *testing.T) {
	rows := []string{
		"Rec,1,0x2,3,p,0x8000,2000/02/12,13:43:44,363/200/000,0,ip,1,2,ip2,3,4,I,O,00ff,.A",
		"ErrRec, 7 ,0x9,4,q,0x8001,2000/02/12,13:43:45,1/2/3,-1,,,,ip3,5,6,,,0a0b,..",
	}
	pos := ast.Pos{File: "t.csv", Line: 1, Col: 1}
	var want []prfast.Record
	var ref CSVParser
	for _, row := range rows {
		_, r, d := ref.Line(pos, row)
		if r == nil || len(d) != 0 {
			t.Fatalf("%q: %v", row, d)
		}
		want = append(want, *r)
	}
	var p CSVParser
	var n Nodes
	var first *prfast.Record
	for batch := range 3 {
		n.Reset()
		for i, row := range rows {
			_, r, d := p.LineIn(&n, pos, row)
			if r == nil || len(d) != 0 {
				t.Fatalf("batch %d, %q: %v", batch, row, d)
			}
			if !reflect.DeepEqual(*r, want[i]) {
				t.Errorf("batch %d, row %d: %+v, want %+v", batch, i, *r, want[i])
			}
			switch {
			case batch == 0 && i == 0:
				first = r
			case i == 0 && r != first:
				t.Errorf("batch %d: its first record is not where batch 0's was", batch)
			}
		}
	}
	if a := testing.AllocsPerRun(20, func() {
		n.Reset()
		for _, row := range rows {
			p.LineIn(&n, pos, row)
		}
	}); a != 0 {
		t.Errorf("%v allocations a batch after Reset, want 0", a)
	}
}

// FuzzDumpParser: whatever the lines, every line either ends up in a
// returned record or gets exactly one error diagnostic, and nothing panics.
func FuzzDumpParser(f *testing.F) {
	f.Add("PRF: Rec Process: 1 Thread: 0x1\nEvent: 0x8000 Time: 2000/02/12 13:43:44\n 1/2/3\n" + header + "\n00000000  41 42  AB\n")
	f.Add("PRF: Rec\nClientAP: 1 2 - 3 RootAP:\nINT: OPR:\nSendSCD: ReceiveSCD:\nPRF:\n")
	f.Fuzz(func(t *testing.T, text string) {
		lines := strings.Split(text, "\n")
		recs, diags := feed(lines)
		n := 0
		for _, l := range lines {
			if strings.TrimSpace(l) != "" {
				n++
			}
		}
		accounted := 0
		for _, r := range recs {
			if r.Lines < 1 {
				t.Fatalf("record without lines: %+v", r)
			}
			accounted += r.Lines
		}
		for _, d := range diags {
			if d.Severity >= diag.Error {
				accounted++
			}
		}
		if accounted != n {
			t.Fatalf("%d lines, %d accounted for (%d records, %v)", n, accounted, len(recs), diags)
		}
	})
}

// FuzzCSVParser: every row is a header, a record or at least one error;
// LineIn, into storage reset every few rows, gives what Line gives.
func FuzzCSVParser(f *testing.F) {
	f.Add("PRF,Process,Event\nRec,1,0x8000\n\"a\"\"b\",\"\",x\n")
	f.Add("Rec,1,0x2,3,p,0x8000,2000/02/12,13:43:44,363/200/000,0,ip,1,2,ip2,3,4,I,O,00ff,.A\nRec,2,0x3,4,q,0x8001,,,,,,,,,,,,,0a0b,..\n")
	f.Fuzz(func(t *testing.T, text string) {
		var p, q CSVParser
		var n Nodes
		for i, l := range strings.Split(text, "\n") {
			if i%3 == 0 {
				n.Reset()
			}
			pos := ast.Pos{File: "t.csv", Line: i + 1, Col: 1}
			h, r, d := p.Line(pos, l)
			h2, r2, d2 := q.LineIn(&n, pos, l)
			if !reflect.DeepEqual(h, h2) || (r == nil) != (r2 == nil) || r != nil && !reflect.DeepEqual(*r, *r2) || !reflect.DeepEqual(d, d2) {
				t.Fatalf("%q: LineIn gives %v %v %v, Line %v %v %v", l, h2, r2, d2, h, r, d)
			}
			switch {
			case h != nil && r != nil:
				t.Fatalf("%q: header and record", l)
			case h == nil && r == nil && !d.Failed():
				t.Fatalf("%q: neither header, record nor error", l)
			case r != nil && d.Failed():
				t.Fatalf("%q: record with errors %v", l, d)
			}
		}
	})
}
