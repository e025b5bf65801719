package simulate

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/tracekit/tracekit/ast/golden"
	"github.com/tracekit/tracekit/binfmt/stda"
	"github.com/tracekit/tracekit/lower/formatter"
)

// TestFMTControls is the done-when: a TSF → compile → simulate →
// format round trip reproduces, for each FMT control, the printed form
// the TRCUST reference gives in section 1.3.5.7. testdata/fmtcontrols.tsf
// holds each of the reference's FMT statements as written, one per
// tracepoint; its state logs the values the reference shows; each
// record's formatted lines must be the reference's "generates" lines.
func TestFMTControls(t *testing.T) {
	rt := roundTrip{name: "fmtcontrols", tsf: "fmtcontrols.tsf", state: "fmtcontrols.state.json"}
	text, buf, _, c := rt.run(t)
	golden.Check(t, filepath.Join("testdata", rt.name+".golden"), []byte(text))

	// The reference's examples, control by control (trcust-tsf-reference.txt
	// lines 893-1018; %C from the later edition the reference README
	// cites, whose text gives no example).
	for _, tc := range []struct {
		control string
		minor   uint16
		want    []string
	}{
		{"%I", 0x01, []string{"ignore ten bytes here", "       and two more here"}},
		{"%P", 0x02, []string{"memory byte = C2"}},
		{"%B", 0x03, []string{"memory byte = 01"}},
		{"%W register", 0x04, []string{"register word = 0001"}},
		{"%W memory", 0x05, []string{"memory word = 0001"}},
		{"%D register", 0x06, []string{"double word EAX = 0000 4B2C"}},
		{"%D memory", 0x07, []string{"double memory word = 0000 4B2C"}},
		{"%F", 0x08, []string{"flat address EAX = 00004B2C"}},
		{"%Q", 0x09, []string{"quad word from regs EAX and EBX = 00004B2C 00000001"}},
		{"%A registers", 0x0A, []string{"segmented address in SS:SP = 00B7:0001"}},
		{"%A memory", 0x0B, []string{"segmented address in memory = 00B7:0001"}},
		{"%R", 0x0C, []string{"log a variable number of words from memory = 0001 0004"}},
		{"%S", 0x0D, []string{`string = c:\os2\os2.ini`}},
		{"%U", 0x0E, []string{"garbage = 00 00 00 03 c2 c1 c4 ff 04 00 09 c0 18"}},
		{"%X", 0x0F, []string{"major code = 00C2"}},
		{"%Y", 0x81, []string{"minor code = 0081"}},
		// TRCUST 3.05A stores %C as a control (oracle x_b01): 0x41 prints
		// as "A" and 0x07, outside 0x20-0x7F, as ".".
		{"%C", 0x10, []string{"characters = A."}},
	} {
		t.Run(tc.control, func(t *testing.T) {
			rec := recordOf(t, buf, tc.minor)
			res := formatter.FormatRecord(rec, formats(c.tff))
			if res.Raw || len(res.Diags) > 0 {
				t.Fatalf("raw %v, diagnostics %v", res.Raw, res.Diags)
			}
			if got := res.Lines[1:]; !slices.Equal(got, tc.want) {
				t.Errorf("minor %04X prints\n%q\nthe reference gives\n%q", tc.minor, got, tc.want)
			}
		})
	}
}

// recordOf returns the one record of buf with the given minor code.
func recordOf(t *testing.T, buf *stda.Buffer, minor uint16) *stda.Record {
	t.Helper()
	var found *stda.Record
	for i := range buf.Records {
		if buf.Records[i].Minor == minor {
			if found != nil {
				t.Fatalf("two records of minor %04X", minor)
			}
			found = &buf.Records[i]
		}
	}
	if found == nil {
		t.Fatalf("no record of minor %04X in the buffer", minor)
	}
	return found
}
