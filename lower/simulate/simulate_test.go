package simulate

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/binfmt/stda"
	"github.com/tracekit/tracekit/binfmt/tdf"
	"github.com/tracekit/tracekit/binfmt/tracefmt"
)

// twoTracepoints is a synthetic TDF: minor 1 at 1:0 logs EAX, minor 2 at
// 1:10 logs 40 bytes at EBX.
func twoTracepoints() *tdf.File {
	return &tdf.File{MaxDataLength: 512, Major: 0x42, Tracepoints: []tdf.Tracepoint{
		{Object: 1, Offset: 0, Minor: 1, Major: 0x42, RPN: []byte{0x00, 0x21, 0x01}},
		{Object: 1, Offset: 0x10, Minor: 2, Major: 0x42, RPN: []byte{0x10, 40, 0, 0x03, 0x22}},
	}}
}

// fortyBytes is a hit of minor 2 whose 40 bytes are readable.
func fortyBytes() Hit {
	h := hitAt(2)
	h.Registers = map[Reg]uint32{RegEBX: 0x80000}
	h.Memory = []Region{{Addr: 0x80000, Data: make([]byte, 40)}}
	return h
}

func hitAt(minor uint16) Hit {
	return Hit{Minor: minor, PID: 5, Time: stda.Timestamp{Len: 4, Hours: 1, Minutes: 2, Seconds: 3, Hundredths: 4}}
}

// TestRunErrors: what Run refuses, and how it says so.
func TestRunErrors(t *testing.T) {
	dup := twoTracepoints()
	dup.Tracepoints[1].Minor = 1
	big := twoTracepoints()
	big.Tracepoints[0].Major = 0x100
	zero := twoTracepoints()
	zero.Tracepoints[0].Major = 0
	for _, tc := range []struct {
		name string
		tdf  *tdf.File
		hits []Hit
		opt  Options
		want string
	}{
		{"no such minor", twoTracepoints(), []Hit{hitAt(1), hitAt(9)}, Options{},
			"hit 1: tracepoint minor 0x0009 at 00000000:00000000: the TDF has no tracepoint with minor code 0x0009"},
		{"no such address", twoTracepoints(), []Hit{{ByAddress: true, Object: 2, Offset: 4}}, Options{},
			"hit 0: tracepoint minor 0x0000 at 00000002:00000004: the TDF has no tracepoint at 00000002:00000004"},
		{"two tracepoints of one minor", dup, []Hit{hitAt(1)}, Options{},
			`hit 0: tracepoint minor 0x0001 at 00000000:00000000: two tracepoints have this minor code (at 00000001:00000000 and 00000001:00000010); name the one to hit with "tp"`},
		{"major above 255", big, []Hit{hitAt(1)}, Options{},
			"hit 0: tracepoint minor 0x0001 at 00000001:00000000: major code 0x100 does not fit the one byte an STDA record has for it"},
		{"major 0 and no data", zero, []Hit{{Minor: 1, Registers: nil}}, Options{},
			""},
		{"record too large", twoTracepoints(), []Hit{fortyBytes()}, Options{Size: stda.FirstNew + 60},
			"hit 0: tracepoint minor 0x0002 at 00000001:00000010: a record of 55 bytes does not fit a 90-byte STDA with its end marker; give a larger buffer"},
		{"size too small", twoTracepoints(), nil, Options{Size: 20}, "stda: NewWriter: size 20 outside 46-65536"},
		{"size too large", twoTracepoints(), nil, Options{Size: 0x10001}, "stda: NewWriter: size 65537 outside"},
		{"next outside", twoTracepoints(), nil, Options{Next: 5}, "stda: SetNext: offset 0x0005 outside the circular area"},
		{"bad format", twoTracepoints(), nil, Options{Format: 7}, "invalid format"},
		{"bad output", twoTracepoints(), nil, Options{Output: 9}, "simulate: unknown output output(9)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := testState()
			st.Hits = tc.hits
			res, err := Run(tc.tdf, st, tc.opt)
			if tc.want == "" {
				// Major 0: the record is the end marker unless it has
				// data; EAX gives it 4 bytes, so it is written.
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || res != nil {
				t.Fatalf("got %v, %v", res, err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error\n%s\ndoes not say\n%s", err, tc.want)
			}
		})
	}
	if _, err := Run(nil, &State{}, Options{}); err == nil {
		t.Error("nil TDF accepted")
	}
	if _, err := Run(twoTracepoints(), nil, Options{}); err == nil {
		t.Error("nil state accepted")
	}
	// Major 0 and no data would read as the end marker.
	f := twoTracepoints()
	f.Tracepoints[0] = tdf.Tracepoint{Object: 1, Minor: 1, Major: 0}
	st := testState()
	st.Hits = []Hit{hitAt(1)}
	if _, err := Run(f, st, Options{}); err == nil || !strings.Contains(err.Error(), "end marker") {
		t.Errorf("major 0 with no data: %v", err)
	}
	var re *RunError
	_, err := Run(dup, &State{Hits: []Hit{hitAt(1)}}, Options{})
	if !errors.As(err, &re) || re.Hit != 0 || re.RPNOffset != -1 {
		t.Errorf("%#v", err)
	}
}

// TestRecordFields: the trailer fields of the records, for each format:
// flags, PID, minor, major, the time stamp the format stores.
func TestRecordFields(t *testing.T) {
	for _, f := range []stda.Format{stda.FormatOld, stda.FormatNew} {
		st := testState()
		h := hitAt(1)
		h.PID = 0
		h2 := hitAt(1)
		h2.External = true
		st.Hits = []Hit{h, h2}
		st.TraceOn = stda.TraceTime{Year: 1995, Month: 1, Day: 2, Hour: 3, Minute: 4, Second: 5, Hundredths: 6}
		res, err := Run(twoTracepoints(), st, Options{Format: f})
		if err != nil {
			t.Fatal(err)
		}
		b, err := stda.Parse(res.Bytes)
		if err != nil {
			t.Fatal(err)
		}
		if len(b.Records) != 2 || b.Format != f {
			t.Fatalf("%v: %d records, format %v", f, len(b.Records), b.Format)
		}
		want := stda.Timestamp{Len: 4, Hours: 1, Minutes: 2, Seconds: 3, Hundredths: 4}
		if f == stda.FormatOld {
			want = stda.Timestamp{Len: 2, Seconds: 3, Hundredths: 4}
		}
		r := b.Records[0]
		if r.Flags != 0x0C || r.PID != 0 || r.Minor != 1 || r.Major != 0x42 || r.Time != want || !bytes.Equal(r.Data, []byte{0x2C, 0x4B, 0, 0}) {
			t.Errorf("%v: record %+v", f, r)
		}
		if b.Records[1].Flags != 0x0D {
			t.Errorf("%v: external record flags %02X", f, b.Records[1].Flags)
		}
		if f == stda.FormatNew && b.TraceOn != st.TraceOn {
			t.Errorf("trace-on time %v", b.TraceOn)
		}
	}
}

// TestSaveFile: the save file holds the STDA Run would write, with the
// state's save time and the check key.
func TestSaveFile(t *testing.T) {
	st := testState()
	st.Hits = []Hit{hitAt(1)}
	st.Saved = tracefmt.DateTime{Hours: 14, Minutes: 3, Day: 3, Month: 3, Year: 1995, TimeZone: -1, Weekday: 5}
	plain, err := Run(twoTracepoints(), st, Options{Size: 0x100})
	if err != nil {
		t.Fatal(err)
	}
	save, err := Run(twoTracepoints(), st, Options{Size: 0x100, Output: OutputSave})
	if err != nil {
		t.Fatal(err)
	}
	f, err := tracefmt.Parse(save.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	if f.DateTime != st.Saved || !bytes.Equal(save.Bytes[tracefmt.STDAOffset:], plain.Bytes) || len(f.STDA.Records) != 1 {
		t.Errorf("save file %+v", f.Header)
	}
}

// TestHitOverrides: a hit's registers and memory hold for that hit only.
func TestHitOverrides(t *testing.T) {
	st := testState()
	st.Registers[RegEBX] = 0x30010
	h := hitAt(2)
	h.Registers = map[Reg]uint32{RegEBX: 0x80000, RegDS: 0x123456}
	h.Memory = []Region{{Addr: 0x80000, Data: bytes.Repeat([]byte{0xAB}, 40)}, {Addr: 0x80001, Data: []byte{0xCD}}}
	st.Hits = []Hit{hitAt(2), h, hitAt(2)}
	st.Memory = append(st.Memory, Region{Addr: 0x30010, Data: bytes.Repeat([]byte{0x11}, 40)})
	res, err := Run(twoTracepoints(), st, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := append([]byte{0, 40, 0, 0xAB, 0xCD}, bytes.Repeat([]byte{0xAB}, 38)...)
	if got := res.Hits[1].Record.Data; !bytes.Equal(got, want) {
		t.Errorf("hit 1 logs % x", got)
	}
	for _, i := range []int{0, 2} {
		if got := res.Hits[i].Record.Data; !bytes.Equal(got[3:], bytes.Repeat([]byte{0x11}, 40)) {
			t.Errorf("hit %d logs % x", i, got)
		}
	}
}

// TestParseOutput names the outputs.
func TestParseOutput(t *testing.T) {
	for _, o := range []Output{OutputSTDA, OutputSave} {
		if got, err := ParseOutput(o.String()); err != nil || got != o {
			t.Errorf("%v: %v %v", o, got, err)
		}
	}
	if _, err := ParseOutput("tff"); err == nil {
		t.Error("tff accepted")
	}
}
