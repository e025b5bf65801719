package buffer_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/ast/golden"
	"github.com/tracekit/tracekit/binfmt/stda"
	"github.com/tracekit/tracekit/binfmt/tracefmt"
	"github.com/tracekit/tracekit/lower/dialect"
	"github.com/tracekit/tracekit/lower/record"
)

// synthetic builds a new-format STDA of 256 bytes with three records (the
// third wrapping) and returns it with its save file.
func synthetic(t *testing.T) (buf, save []byte) {
	w, err := stda.NewWriter(stda.FormatNew, 256)
	if err != nil {
		t.Fatal(err)
	}
	w.SetTraceTimes(stda.TraceTime{Year: 1996, Month: 8, Day: 7, Hour: 21, Minute: 57, Second: 7, Hundredths: 3}, stda.TraceTime{})
	for i, r := range []stda.Record{
		{Flags: stda.FlagDynamic, PID: 0x21, Major: 0x42, Minor: 1, Time: stda.Timestamp{Len: 4, Hours: 21, Minutes: 57, Seconds: 8}, Data: []byte{0, 4, 0, 0x2C, 0x4B, 0, 0}},
		{Flags: stda.FlagNoTime, PID: 0, Major: 0x30, Minor: 5, Data: []byte("static")},
		{Flags: stda.FlagDynamic, PID: 0x22, Major: 0x42, Minor: 2, Time: stda.Timestamp{Len: 4, Hours: 21, Minutes: 57, Seconds: 9, Hundredths: 50}, Data: bytes.Repeat([]byte{0xAB}, 150)},
	} {
		if err := w.Write(r); err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
	}
	buf = w.Bytes()
	save, err = tracefmt.Marshal(tracefmt.DateTime{Hours: 22, Day: 7, Month: 8, Year: 1996}, buf)
	if err != nil {
		t.Fatal(err)
	}
	return buf, save
}

// run reads inputs through the registry, the dialect told from the content.
func run(t *testing.T, inputs ...dialect.Input) (string, diag.List, dialect.Summary) {
	var out bytes.Buffer
	var diags diag.List
	sum, err := dialect.Records(context.Background(), dialect.Options{KeepGoing: true}, inputs, record.NewJSONL(&out), func(d diag.Diagnostic) { diags.Add(d) })
	if err != nil {
		t.Fatal(err)
	}
	return out.String(), diags, sum
}

// TestRecords reads a synthetic STDA and its save file: the same records,
// told apart by dialect and offset; then damaged copies.
func TestRecords(t *testing.T) {
	buf, save := synthetic(t)
	out, diags, sum := run(t, dialect.Input{Name: "synthetic.stda", Reader: bytes.NewReader(buf)},
		dialect.Input{Name: "synthetic.sav", Reader: bytes.NewReader(save)})
	if len(diags) != 0 || sum.Records != 6 {
		t.Fatalf("%d records, diagnostics %v", sum.Records, diags)
	}
	golden.Check(t, "testdata/synthetic.jsonl", []byte(out))

	// A save file whose check key is wrong is read, with a warning.
	bad := append([]byte(nil), save...)
	bad[tracefmt.OffCheckKey] ^= 0xFF
	// An STDA whose NEXT points outside it ends the walk at once.
	broken := append([]byte(nil), buf...)
	broken[12], broken[13] = 0xFF, 0x7F
	_, diags, sum = run(t, dialect.Input{Name: "badkey.sav", Reader: bytes.NewReader(bad)},
		dialect.Input{Name: "broken.stda", Reader: bytes.NewReader(broken)},
		dialect.Input{Name: "text.stda", Reader: strings.NewReader("SYST")})
	var got []string
	for _, d := range diags {
		got = append(got, string(d.Code)+" "+d.Severity.String())
	}
	if sum.Records != 3 || strings.Join(got, ",") != "BUF003 warning,BUF001 error,BUF001 error" {
		t.Errorf("%d records, diagnostics %v", sum.Records, diags)
	}
}

// FuzzLower: any input gives records or diagnostics, never a panic.
func FuzzLower(f *testing.F) {
	f.Add([]byte("SYSTRACE\x1e\x00\xff\x00\x1e\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var out bytes.Buffer
		dialect.Records(context.Background(), dialect.Options{Dialect: "stda", KeepGoing: true},
			[]dialect.Input{{Name: "fuzz", Reader: bytes.NewReader(data)}}, record.NewJSONL(&out), nil)
	})
}
