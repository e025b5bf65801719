package tracefmt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/golden"
	"github.com/tracekit/tracekit/binfmt/stda"
)

var saveTime = DateTime{Hours: 14, Minutes: 5, Seconds: 30, Hundredths: 12, Day: 24, Month: 8, Year: 1995, TimeZone: -60, Weekday: 4}

// buildSTDA returns a synthetic STDA with a few records.
func buildSTDA(t testing.TB, f stda.Format, size int) []byte {
	t.Helper()
	w, err := stda.NewWriter(f, size)
	if err != nil {
		t.Fatal(err)
	}
	w.SetTraceTimes(stda.TraceTime{Year: 1995, Month: 8, Day: 24, Hour: 14}, stda.TraceTime{Year: 1995, Month: 8, Day: 24, Hour: 14, Minute: 5})
	recs := []stda.Record{
		{Flags: stda.FlagDynamic | stda.FlagProtect, PID: 0x21, Minor: 1, Major: 0xC2, Time: stda.Timestamp{Hours: 14, Minutes: 1, Seconds: 2, Hundredths: 3}, Data: []byte{0, 2, 0, 0x2C, 0x4B}},
		{Flags: stda.FlagProtect, PID: 0, Minor: 0x8001, Major: 0xC2, Time: stda.Timestamp{Hours: 14, Minutes: 1, Seconds: 2, Hundredths: 4}, Data: []byte("c:\\os2\\os2.ini\x00")},
		{Flags: stda.FlagNoTime, PID: 7, Minor: 0x30, Major: 0x10},
	}
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	return w.Bytes()
}

func mustMarshal(t testing.TB, dt DateTime, data []byte) []byte {
	t.Helper()
	b, err := Marshal(dt, data)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestLayout checks the byte positions of the reference's figure: length
// at 0, DATETIME at 4, check key at 0x0F, the STDA at 0x1A with its FIRST
// (STA), LAST (END) and NEXT (NXT) at 0x22, 0x24, 0x26 and, in the old
// format, the trace records from 0x28.
func TestLayout(t *testing.T) {
	body := buildSTDA(t, stda.FormatOld, 0x80)
	f := mustMarshal(t, saveTime, body)
	want := []struct {
		off  int
		want []byte
	}{
		{0x00, []byte{0x80, 0, 0, 0}},
		{0x04, []byte{14, 5, 30, 12, 24, 8, 0xCB, 0x07, 0xC4, 0xFF, 4}},
		// 'T'^14 'R'^5 'C'^30 'F'^12 'M'^24 'T'^8 'B'^0xCB 'U'^7 'F'^0xC4 'F'^0xFF '$'^4
		{0x0F, []byte{0x5A, 0x57, 0x5D, 0x4A, 0x55, 0x5C, 0x89, 0x52, 0x82, 0xB9, 0x20}},
		{0x1A, []byte("SYSTRACE")},
		{0x22, []byte{0x0E, 0}},
		{0x24, []byte{0x7F, 0}},
		{0x28, body[0x0E:0x14]},
	}
	for _, w := range want {
		if got := f[w.off : w.off+len(w.want)]; !bytes.Equal(got, w.want) {
			t.Errorf("offset %#x: % x, want % x", w.off, got, w.want)
		}
	}
	if !bytes.Equal(f[0x26:0x28], body[12:14]) {
		t.Errorf("NXT at 0x26: % x, want % x", f[0x26:0x28], body[12:14])
	}
}

func TestCheckKey(t *testing.T) {
	tests := []struct {
		dt   DateTime
		want string
	}{
		{DateTime{}, KeyMask},
		{DateTime{Hours: 0xFF, Minutes: 0xFF, Seconds: 0xFF, Hundredths: 0xFF, Day: 0xFF, Month: 0xFF, Year: 0xFFFF, TimeZone: -1, Weekday: 0xFF},
			"\xab\xad\xbc\xb9\xb2\xab\xbd\xaa\xb9\xb9\xdb"},
	}
	for _, tt := range tests {
		if got := tt.dt.Key(); string(got[:]) != tt.want {
			t.Errorf("%+v.Key() = % x, want % x", tt.dt, got, tt.want)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	for _, fm := range []stda.Format{stda.FormatOld, stda.FormatNew} {
		body := buildSTDA(t, fm, 0x100)
		f, err := Parse(mustMarshal(t, saveTime, body))
		if err != nil {
			t.Fatalf("%v: %v", fm, err)
		}
		if f.DateTime != saveTime || f.Length != 0x100 || f.CheckKey != saveTime.Key() {
			t.Errorf("%v: header %+v", fm, f.Header)
		}
		want, err := stda.Parse(body)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(f.STDA, want) {
			t.Errorf("%v: STDA\n got %+v\nwant %+v", fm, f.STDA, want)
		}
		if len(f.STDA.Records) != 3 {
			t.Errorf("%v: %d records", fm, len(f.STDA.Records))
		}
	}
}

func TestErrors(t *testing.T) {
	good := mustMarshal(t, saveTime, buildSTDA(t, stda.FormatNew, 0x60))
	patched := func(fn func(b []byte) []byte) []byte {
		return fn(append([]byte(nil), good...))
	}
	type want struct {
		fatal   bool
		key     bool    // a *CheckKeyError
		offs    []int64 // offsets of the *FormatErrors, in order
		msgs    []string
		records int
	}
	tests := []struct {
		name string
		data []byte
		want want
	}{
		{"good", good, want{records: 3}},
		{"truncated header", good[:0x19], want{fatal: true, offs: []int64{0x19}, msgs: []string{"truncated header"}}},
		{"length beyond the file", good[:len(good)-1], want{fatal: true, offs: []int64{0}, msgs: []string{"length 96 is more than the 95 bytes"}}},
		{"bad STDA header", patched(func(b []byte) []byte { b[0x1A] = 'X'; return b }), want{fatal: true, offs: []int64{0x1A}, msgs: []string{"STDA: identifier"}}},
		{"STDA LAST outside the length", patched(func(b []byte) []byte { binary.LittleEndian.PutUint32(b, 0x50); return b[:0x1A+0x50] }),
			want{fatal: true, offs: []int64{0x1A + 10}, msgs: []string{"LAST 0x005f lies outside the 80-byte buffer"}}},
		{"wrong check key", patched(func(b []byte) []byte { b[0x13] ^= 1; return b }), want{key: true, records: 3}},
		{"length larger than LAST+1, trailing bytes", patched(func(b []byte) []byte {
			binary.LittleEndian.PutUint32(b, 0x61)
			return append(b, 0xEE, 0xEF)
		}), want{offs: []int64{0, 0x1A + 0x61}, msgs: []string{"length 97 differs from the STDA's LAST+1 = 96", "1 bytes follow the STDA"}, records: 3}},
		{"walk error and wrong key", patched(func(b []byte) []byte {
			b[0x0F] ^= 0x80
			// the oldest record's trailer (after 5 data bytes and a 4-byte
			// time stamp at FIRST 0x1E) gets a length of 0xFFFF
			binary.LittleEndian.PutUint16(b[0x1A+0x1E+9+5:], 0xFFFF)
			return b
		}), want{key: true, offs: []int64{0x1A + 0x1E + 9}, msgs: []string{"STDA: trailer (major 0xc2 minor 0x0001) gives length 65535"}, records: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse(tt.data)
			if tt.want.fatal != (f == nil) {
				t.Fatalf("File = %v, err = %v; fatal want %v", f, err, tt.want.fatal)
			}
			var ck *CheckKeyError
			if errors.As(err, &ck) != tt.want.key {
				t.Errorf("err = %v; check key error want %v", err, tt.want.key)
			}
			if ck != nil && (ck.Off != OffCheckKey || ck.Got == ck.Want) {
				t.Errorf("check key error %+v", ck)
			}
			var fes []*FormatError
			collect(err, &fes)
			if len(fes) != len(tt.want.offs) {
				t.Fatalf("err = %v: %d FormatErrors, want %d", err, len(fes), len(tt.want.offs))
			}
			for i, fe := range fes {
				if fe.Off != tt.want.offs[i] || !strings.Contains(fe.Msg, tt.want.msgs[i]) {
					t.Errorf("error %d: %v, want offset %#x and %q", i, fe, tt.want.offs[i], tt.want.msgs[i])
				}
			}
			if f != nil && len(f.STDA.Records) != tt.want.records {
				t.Errorf("%d records, want %d", len(f.STDA.Records), tt.want.records)
			}
		})
	}
}

// collect gathers the *FormatErrors in err, following errors.Join.
func collect(err error, out *[]*FormatError) {
	if err == nil {
		return
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			collect(e, out)
		}
		return
	}
	if fe, ok := err.(*FormatError); ok {
		*out = append(*out, fe)
	}
}

func TestWalkErrorUnwraps(t *testing.T) {
	b := mustMarshal(t, saveTime, buildSTDA(t, stda.FormatNew, 0x60))
	binary.LittleEndian.PutUint16(b[0x1A+0x1E+9+5:], 0xFFFF)
	_, err := Parse(b)
	var se *stda.FormatError
	if !errors.As(err, &se) || se.Off != 0x1E+9 {
		t.Errorf("err = %v; want it to wrap the *stda.FormatError at STDA offset 0x27", err)
	}
}

func TestMarshalErrors(t *testing.T) {
	body := buildSTDA(t, stda.FormatOld, 0x40)
	if _, err := Marshal(saveTime, body[:0x3F]); err == nil {
		t.Error("Marshal accepted an STDA shorter than LAST+1")
	}
	if _, err := Marshal(saveTime, append(body, 0)); err == nil {
		t.Error("Marshal accepted an STDA longer than LAST+1")
	}
	if _, err := Marshal(saveTime, []byte("NOTTRACE")); err == nil {
		t.Error("Marshal accepted garbage")
	}
}

func TestDetect(t *testing.T) {
	body := buildSTDA(t, stda.FormatOld, 0x40)
	save := mustMarshal(t, saveTime, body)
	badKey := append([]byte(nil), save...)
	badKey[0x10] ^= 0xFF
	tests := []struct {
		name string
		data []byte
		want Kind
	}{
		{"stda", body, KindSTDA},
		{"save file", save, KindSaveFile},
		{"save file, wrong key", badKey, KindSaveFile},
		{"save file header only", save[:0x22], KindSaveFile},
		{"save file cut in the identifier", save[:0x21], KindUnknown},
		{"empty", nil, KindUnknown},
		{"text", []byte("systrace: a text file that mentions SYSTRACE at offset 0x1A? no"), KindUnknown},
		{"stda magic only", []byte("SYSTRACE"), KindSTDA},
		{"zeros", make([]byte, 100), KindUnknown},
	}
	for _, tt := range tests {
		if got := Detect(tt.data); got != tt.want {
			t.Errorf("%s: Detect = %v, want %v", tt.name, got, tt.want)
		}
	}
	if KindUnknown.String() != "unknown" || KindSTDA.String() != "stda" || KindSaveFile.String() != "savefile" {
		t.Error("Kind.String")
	}
}

func dump(f *File, err error) string {
	var sb strings.Builder
	if f == nil {
		fmt.Fprintf(&sb, "error: %v\n", err)
		return sb.String()
	}
	fmt.Fprintf(&sb, "length %d saved %v tz %d weekday %d key % x\n", f.Length, f.DateTime, f.DateTime.TimeZone, f.DateTime.Weekday, f.CheckKey[:])
	b := f.STDA
	fmt.Fprintf(&sb, "stda %v FIRST %#04x LAST %#04x NEXT %#04x\n", b.Format, b.First, b.Last, b.Next)
	for i, r := range b.Records {
		fmt.Fprintf(&sb, "%d @%#04x time %s pid %04X flags %02X major %02X minor %04X data % x\n", i, r.Offset, r.Time, r.PID, r.Flags, r.Major, r.Minor, r.Data)
	}
	if err != nil {
		for _, line := range strings.Split(err.Error(), "\n") {
			fmt.Fprintf(&sb, "error: %s\n", line)
		}
	}
	return sb.String()
}

func TestGolden(t *testing.T) {
	fixtures := []struct {
		name  string
		build func() []byte
	}{
		{"old", func() []byte { return mustMarshal(t, saveTime, buildSTDA(t, stda.FormatOld, 0x50)) }},
		{"new", func() []byte { return mustMarshal(t, saveTime, buildSTDA(t, stda.FormatNew, 0x60)) }},
		{"bad-key", func() []byte {
			b := mustMarshal(t, saveTime, buildSTDA(t, stda.FormatOld, 0x50))
			copy(b[OffCheckKey:], "TRCFMTBUFF$") // the key of an all-zero DATETIME
			return b
		}},
	}
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			bin := filepath.Join("testdata", "synthetic-"+fx.name+".sav")
			gold := filepath.Join("testdata", "synthetic-"+fx.name+".golden")
			built := fx.build()
			golden.Check(t, bin, built)
			data, err := os.ReadFile(bin)
			if err != nil {
				t.Fatal(err)
			}
			got := "# synthetic fixture (built by tracefmt_test.go, no real save file is public)\n" + dump(Parse(data))
			golden.Check(t, gold, []byte(got))
		})
	}
}

// FuzzParse: no panic, no hang, and a File only with a consistent STDA.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.sav"))
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse(data)
		if file == nil {
			if err == nil {
				t.Fatal("nil File and nil error")
			}
			return
		}
		if file.STDA == nil {
			t.Fatal("File without STDA")
		}
		if int64(file.Length) > int64(len(data)-STDAOffset) {
			t.Fatalf("length %d beyond the data", file.Length)
		}
		if Detect(data) != KindSaveFile {
			t.Fatalf("Parse accepted what Detect calls %v", Detect(data))
		}
		if file.CheckKey == file.DateTime.Key() {
			var ck *CheckKeyError
			if errors.As(err, &ck) {
				t.Fatal("CheckKeyError with a matching key")
			}
		}
	})
}
