package simulate

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/binfmt/stda"
	"github.com/tracekit/tracekit/binfmt/tracefmt"
)

// TestParseState reads a state that uses every member and checks the
// values it gives.
func TestParseState(t *testing.T) {
	src := `{
  "version": 1,
  "comment": "synthetic",
  "registers": {"eax": "0x4B2C", "EBX": 1, "Ds": "0b10110111", "EFLAGS": "582"},
  "selectors": [
    {"selector": "0xB7", "base": "0x30000", "limit": "0xFFFF", "comment": "data"},
    {"selector": "0x1234", "invalid": true},
    {"selector": "0x5678", "not_present": true, "base": 16}
  ],
  "objects": [{"object": 1, "base": "0x10000", "selector": "0x0F"}, {"object": 2, "base": "0x20000"}],
  "memory": [
    {"address": "0x30000", "hex": "01 02\n0a0B"},
    {"address": 196608, "string": "caf\u00e9"},
    {"address": "0x30100", "asciiz": "x"}
  ],
  "pages_not_present": ["0x51000", 4096],
  "times": {"trace_on": "1995-03-01 14:02:00.00", "trace_off": "1995-03-01 14:05:00.50", "saved": "1995-03-05 09:00:01.99"},
  "hits": [
    {"minor": "0x8001", "pid": 33, "time": "14:02:01.07", "comment": "by minor"},
    {"tp": "0001:00000DC0", "pid": "0x21", "time": "23:59:59.99", "external": true,
     "registers": {"esi": "0x10"}, "memory": [{"address": "0x30000", "hex": "ff"}]}
  ]
}`
	st, err := ParseState([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var regs Registers
	regs[RegEAX], regs[RegEBX], regs[RegDS], regs[RegEFLAGS] = 0x4B2C, 1, 0xB7, 582
	want := &State{
		Registers: regs,
		Selectors: []Selector{
			{Value: 0xB7, Base: 0x30000, Limit: 0xFFFF},
			{Value: 0x1234, Invalid: true},
			{Value: 0x5678, NotPresent: true, Base: 16},
		},
		Objects: []Object{{Number: 1, Base: 0x10000, Selector: 0x0F, HasSelector: true}, {Number: 2, Base: 0x20000}},
		Memory: []Region{
			{Addr: 0x30000, Data: []byte{1, 2, 0x0A, 0x0B}},
			{Addr: 0x30000, Data: []byte{'c', 'a', 'f', 0xE9}},
			{Addr: 0x30100, Data: []byte{'x', 0}},
		},
		PagesNotPresent: []uint32{0x51000, 0x1000},
		TraceOn:         stda.TraceTime{Year: 1995, Month: 3, Day: 1, Hour: 14, Minute: 2},
		TraceOff:        stda.TraceTime{Year: 1995, Month: 3, Day: 1, Hour: 14, Minute: 5, Hundredths: 50},
		Saved:           tracefmt.DateTime{Hours: 9, Minutes: 0, Seconds: 1, Hundredths: 99, Day: 5, Month: 3, Year: 1995, TimeZone: -1, Weekday: 0},
		Hits: []Hit{
			{Minor: 0x8001, PID: 33, Time: stda.Timestamp{Len: 4, Hours: 14, Minutes: 2, Seconds: 1, Hundredths: 7}, Memory: nil},
			{ByAddress: true, Object: 1, Offset: 0xDC0, PID: 0x21, Time: stda.Timestamp{Len: 4, Hours: 23, Minutes: 59, Seconds: 59, Hundredths: 99},
				External: true, Registers: map[Reg]uint32{RegESI: 0x10}, Memory: []Region{{Addr: 0x30000, Data: []byte{0xFF}}}},
		},
	}
	if !reflect.DeepEqual(st, want) {
		t.Errorf("got\n%+v\nwant\n%+v", st, want)
	}
}

// TestStateErrors: each mistake gives one error that names the member or
// the place, and no State.
func TestStateErrors(t *testing.T) {
	const hit = `{"minor": 1, "pid": 1, "time": "00:00:00.00"}`
	wrap := func(members string) string { return `{"version": 1, "hits": [` + hit + `]` + members + `}` }
	for _, tc := range []struct {
		name, src, want string
	}{
		{"empty", ``, `state: empty input: want a JSON object`},
		{"syntax", "{\n  \"version\": 1,\n  \"hits\": [}\n}", `state:3:12: invalid character '}' looking for beginning of value`},
		{"cut short", `{"version": 1, "hits": [`, `state:1:25: unexpected end of input`},
		{"not an object", `[1]`, `state:1:1: the state: want an object, not array`},
		{"text after", `{"version": 1, "hits": []} {}`, `state:1:28: text after the state object: {`},
		{"unknown member", "{\"version\": 1,\n \"hits\": [], \"regs\": {}}", `state:2:14: unknown member "regs"; the members are comment hits memory objects pages_not_present registers selectors times version`},
		{"unknown member in a hit", `{"version": 1, "hits": [{"minor": 1, "pid": 1, "time": "00:00:00.00", "PID": 2}]}`, `state:1:71: unknown member "PID" in hits[0]; the members are comment external memory minor pid registers time tp`},
		{"member twice", `{"version": 1, "hits": [], "version": 1}`, `state:1:28: version: given twice`},
		{"member twice in a region", wrap(`, "memory": [{"address": 1, "hex": "", "hex": ""}]`), `memory[0].hex: given twice`},
		{"unknown member in times", wrap(`, "times": {"on": ""}`), `unknown member "on" in times; the members are saved trace_off trace_on`},
		{"type", `{"version": 1, "hits": {}}`, `state:1:24: hits: want an array, not object`},
		{"type in a hit", `{"version": 1, "hits": [{"tp": 5}]}`, `hits.tp: want a string, not number`},
		{"no version", `{"hits": []}`, `state: version: missing (required)`},
		{"version 2", `{"version": 2, "hits": []}`, `state: version: 2: this tracekit reads version 1`},
		{"no hits", `{"version": 1}`, `state: hits: missing (required; [] for no hits)`},
		{"null hits", `{"version": 1, "hits": null}`, `state: hits: missing (required; [] for no hits)`},
		{"hit without tracepoint", `{"version": 1, "hits": [{"pid": 1, "time": "00:00:00.00"}]}`, `state: hits[0]: missing the tracepoint: give "minor" or "tp"`},
		{"hit with both", `{"version": 1, "hits": [{"minor": 1, "tp": "1:0", "pid": 1, "time": "00:00:00.00"}]}`, `state: hits[0]: give the tracepoint by "minor" or by "tp", not both`},
		{"hit without pid", `{"version": 1, "hits": [{"minor": 1, "time": "00:00:00.00"}]}`, `state: hits[0].pid: missing (required)`},
		{"hit without time", `{"version": 1, "hits": [{"minor": 1, "pid": 1}]}`, `state: hits[0].time: missing (required)`},
		{"bad time", `{"version": 1, "hits": [{"minor": 1, "pid": 1, "time": "1:2:3"}]}`, `state: hits[0].time: "1:2:3": want a time as "14:02:01.00" (hours, minutes, seconds, hundredths)`},
		{"time out of range", `{"version": 1, "hits": [{"minor": 1, "pid": 1, "time": "12:60:00.00"}]}`, `state: hits[0].time: "12:60:00.00": field 2 is 60, at most 59`},
		{"minor too big", `{"version": 1, "hits": [{"minor": "0x10000", "pid": 1, "time": "00:00:00.00"}]}`, `state: hits[0].minor: "0x10000" is more than 0xFFFF`},
		{"pid negative", `{"version": 1, "hits": [{"minor": 1, "pid": -1, "time": "00:00:00.00"}]}`, `state: hits[0].pid: -1 is not a non-negative integer (write 75, "75" or "0x4B")`},
		{"pid fraction", `{"version": 1, "hits": [{"minor": 1, "pid": 1.5, "time": "00:00:00.00"}]}`, `state: hits[0].pid: 1.5 is not a non-negative integer`},
		{"pid not a number", `{"version": 1, "hits": [{"minor": 1, "pid": "0xZZ", "time": "00:00:00.00"}]}`, `state: hits[0].pid: "0xZZ" is not a number (write 75, "75" or "0x4B")`},
		{"bad tp", `{"version": 1, "hits": [{"tp": "emit", "pid": 1, "time": "00:00:00.00"}]}`, `state: hits[0].tp: "emit": want OBJECT:OFFSET in hex, as "0001:00000DC0"`},
		{"hit register", `{"version": 1, "hits": [{"minor": 1, "pid": 1, "time": "00:00:00.00", "registers": {"XAX": 1}}]}`, `state: hits[0].registers.XAX: unknown register; the registers are EAX ECX EDX EBX ESP EBP ESI EDI ES CS SS DS EFLAGS EIP FS GS`},
		{"16-bit register name", wrap(`, "registers": {"AX": 1}`), `state: registers.AX: unknown register (give EAX: 16-bit names read its low word)`},
		{"register twice", wrap(`, "registers": {"EAX": 1, "eax": 2}`), `state: registers.eax: EAX is given twice`},
		{"register missing value", wrap(`, "registers": {"EAX": null}`), `state: registers.EAX: missing (required)`},
		{"segment register too big", wrap(`, "registers": {"DS": "0x10000"}`), `state: registers.DS: "0x10000" is more than 0xFFFF`},
		{"register too big", wrap(`, "registers": {"EAX": 4294967296}`), `state: registers.EAX: 4294967296 is more than 0xFFFFFFFF`},
		{"selector without base", wrap(`, "selectors": [{"selector": 1, "limit": 2}]`), `state: selectors[0].base: missing (required)`},
		{"selector without limit", wrap(`, "selectors": [{"selector": 1, "base": 2}]`), `state: selectors[0].limit: missing (required)`},
		{"selector without value", wrap(`, "selectors": [{"invalid": true}]`), `state: selectors[0].selector: missing (required)`},
		{"selector twice", wrap(`, "selectors": [{"selector": 7, "invalid": true}, {"selector": "0x0007", "invalid": true}]`), `state: selectors[1].selector: selector 0x0007 is described again (first in selectors[0])`},
		{"selector both bad", wrap(`, "selectors": [{"selector": 7, "invalid": true, "not_present": true}]`), `state: selectors[0]: a selector is invalid or not present, not both`},
		{"object without base", wrap(`, "objects": [{"object": 1}]`), `state: objects[0].base: missing (required)`},
		{"object twice", wrap(`, "objects": [{"object": 1, "base": 0}, {"object": 1, "base": 0}]`), `state: objects[1].object: object 1 is described again (first in objects[0])`},
		{"object selector too big", wrap(`, "objects": [{"object": 1, "base": 0, "selector": 65536}]`), `state: objects[0].selector: 65536 is more than 0xFFFF`},
		{"region without bytes", wrap(`, "memory": [{"address": 0}]`), `state: memory[0]: give the bytes as one of "hex", "string" or "asciiz" (0 given)`},
		{"region with two", wrap(`, "memory": [{"address": 0, "hex": "", "string": ""}]`), `state: memory[0]: give the bytes as one of "hex", "string" or "asciiz" (2 given)`},
		{"region without address", wrap(`, "memory": [{"hex": "00"}]`), `state: memory[0].address: missing (required)`},
		{"odd hex", wrap(`, "memory": [{"address": 0, "hex": "01 2"}]`), `state: memory[0].hex: character 4: want pairs of hex digits, found "2"`},
		{"bad hex", wrap(`, "memory": [{"address": 0, "hex": "0g"}]`), `state: memory[0].hex: character 1: want pairs of hex digits, found "0g"`},
		{"not Latin-1", wrap(`, "memory": [{"address": 0, "string": "a\u20acb"}]`), `state: memory[0].string: character '€' at byte 1 is not in Latin-1 (U+0000-U+00FF); give such bytes with "hex"`},
		{"region past 4 GiB", wrap(`, "memory": [{"address": "0xFFFFFFFF", "hex": "01 02"}]`), `state: memory[0]: 2 bytes at 0xFFFFFFFF run past the 4 GiB address space`},
		{"hit region", `{"version": 1, "hits": [{"minor": 1, "pid": 1, "time": "00:00:00.00", "memory": [{"address": 0}]}]}`, `state: hits[0].memory[0]: give the bytes as one of`},
		{"page not aligned", wrap(`, "pages_not_present": ["0x51001"]`), `state: pages_not_present[0]: 0x51001 is not the start of a page (a multiple of 0x1000)`},
		{"bad trace time", wrap(`, "times": {"trace_on": "1995-02-30 00:00:00.00"}`), `state: times.trace_on: "1995-02-30 00:00:00.00": want a date and time as "1995-03-01 14:02:00.00"`},
		{"bad save time", wrap(`, "times": {"saved": "yesterday"}`), `state: times.saved: "yesterday": want a date and time`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := ParseState([]byte(tc.src))
			if err == nil || st != nil {
				t.Fatalf("got state %v, error %v", st, err)
			}
			var se *StateError
			if !errors.As(err, &se) {
				t.Fatalf("%T is not a *StateError: %v", err, err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error\n%s\ndoes not say\n%s", err, tc.want)
			}
		})
	}
}

// TestOpenState names the file in its errors.
func TestOpenState(t *testing.T) {
	name := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(name, []byte(`{"version": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := OpenState(name)
	if err == nil || err.Error() != name+": hits: missing (required; [] for no hits)" {
		t.Errorf("got %v", err)
	}
	if _, err := OpenState(filepath.Join(t.TempDir(), "absent.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("absent file: %v", err)
	}
	st, err := ReadState(strings.NewReader(`{"version": 1, "hits": []}`))
	if err != nil || st == nil || len(st.Hits) != 0 {
		t.Errorf("ReadState: %v %v", st, err)
	}
}

// TestRegNames: every register's name reads back.
func TestRegNames(t *testing.T) {
	for r := Reg(0); r < NumRegs; r++ {
		if got, ok := ParseReg(strings.ToLower(r.String())); !ok || got != r {
			t.Errorf("%v reads back as %v %v", r, got, ok)
		}
	}
	if NumRegs.String() != "reg(16)" {
		t.Errorf("%q", NumRegs.String())
	}
	segs := 0
	for r := Reg(0); r < NumRegs; r++ {
		if r.Segment() {
			segs++
		}
	}
	if segs != 6 {
		t.Errorf("%d segment registers", segs)
	}
}
