package record

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/golden"
	"github.com/tracekit/tracekit/lower/record/recordtest"
)

// samples are records with every field and every kind of argument.
func samples() []*Record {
	in := IntArg(true, 5, "-0x5")
	return []*Record{
		{Dialect: "os2strace", Source: "a.out", Line: 1, Seq: 1, Time: "9450:1545341324", TSNs: Int(0), CPU: Uint(0),
			Event: "0x13/0x29", Major: Uint(0x13), Minor: Uint(0x29), Phase: Instant,
			Args: []Arg{UintArg(0xfff37182, "fff37182"), BytesArg([]byte{0x26, 0})},
			Data: []string{"fff37182", "2600"}, Attrs: Attrs{"hook": "0x0102", "hook_type": "32bit"}},
		{Dialect: "winstrace", Source: "b.wst", Line: 7, Seq: 2, PID: Uint(100), TID: Uint(200), Event: "NtOpenFile",
			Phase: Complete,
			Args: []Arg{
				UnknownArg(),
				StrArg("C:\\a \"b\"\n<&>", `"C:\\a \"b\"\n<&>"`),
				SymArg("FILE_READ_DATA"),
				StructArg(IntArg(false, 24, "24").Named("Length"), StructArg(), InOutArg(in, UnknownArg())).Named("attrs"),
				IntArg(true, 18446744073709551615, ""),
			},
			Ret: &Arg{Kind: KindSym, Str: "STATUS_SUCCESS"}, Attrs: Attrs{"id": uint64(7), "exit_line": 9}},
		{Dialect: "prf", Source: "c,d.prf", Line: 3, Seq: 3, Time: "2000/02/12 13:43:44 363/200/000", TSNs: Int(-1), PID: Uint(1),
			TID: Uint(18446744073709551615), Process: "cj start\tsv", Event: "0x8000", Phase: Instant, Status: StatusError,
			Ret: &Arg{Kind: KindInt, Neg: true, Mag: 1, Text: "-1"}, Data: []string{"00ff"},
			Attrs: Attrs{"int": "a.b*", "client_ap": map[string]any{"ip": "::1", "pid": uint64(2)}}},
		{Dialect: "winstrace", Source: "-", Line: 1, Seq: 4, Event: "NtClose", Phase: Exit, Unpaired: true, DurNs: Int(123000), Errno: "EBADF"},
	}
}

// TestWriters compares the three output forms with golden files and checks
// that each is well formed: JSONL against the schema, CSV by re-reading it.
func TestWriters(t *testing.T) {
	v := recordtest.NewValidator(t)
	for _, format := range Formats() {
		t.Run(format, func(t *testing.T) {
			var out bytes.Buffer
			w, err := NewWriter(format, &out)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range samples() {
				if err := w.Write(r); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			switch format {
			case "jsonl":
				if n := v.JSONL(t, "samples", out.Bytes()); n != len(samples()) {
					t.Errorf("%d lines", n)
				}
			case "csv":
				rows, err := csv.NewReader(bytes.NewReader(out.Bytes())).ReadAll()
				if err != nil || len(rows) != len(samples())+1 {
					t.Fatalf("%d rows, %v", len(rows), err)
				}
				for _, row := range rows {
					if len(row) != len(CSVColumns()) {
						t.Errorf("row of %d cells", len(row))
					}
				}
			case "text":
				if n := strings.Count(out.String(), "\n"); n != len(samples()) {
					t.Errorf("%d lines", n)
				}
			case "chrome":
				st, err := recordtest.CheckChrome(out.Bytes())
				if err != nil {
					t.Error(err)
				}
				if st.Phases["X"] != 1 || st.Phases["i"] != 3 || st.Phases["M"] != 5 {
					t.Errorf("phases %v", st.Phases)
				}
			}
			golden.Check(t, filepath.Join("testdata", "samples."+format), out.Bytes())
		})
	}
	if _, err := NewWriter("xml", nil); err == nil {
		t.Error("NewWriter accepted an unknown format")
	}
}

// TestCSVHeaderAlone: a CSV writer that got no record still prints its
// header.
func TestCSVHeaderAlone(t *testing.T) {
	var out bytes.Buffer
	w := NewCSV(&out)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != strings.Join(CSVColumns(), ",")+"\n" {
		t.Errorf("got %q", got)
	}
}

func TestArgString(t *testing.T) {
	tests := []struct {
		arg  Arg
		want string
	}{
		{IntArg(false, 42, ""), "42"},
		{IntArg(true, 42, ""), "-42"},
		{IntArg(true, 0, ""), "0"},
		{IntArg(false, 16, "0x10"), "0x10"},
		{StrArg("a\"b", ""), `"a\"b"`},
		{StrArg("x", `"\x78"`), `"\x78"`},
		{SymArg("TRUE"), "TRUE"},
		{UnknownArg(), "???"},
		{BytesArg([]byte{0xab, 1}), "ab01"},
		{StructArg(), "{}"},
		{StructArg(UintArg(1, "").Named("a"), UnknownArg()), "{a=1, ???}"},
		{InOutArg(UintArg(1, ""), UnknownArg()), "<1|???>"},
		{Arg{Kind: KindInOut}, "<???|???>"},
		{UintArg(3, "").Named("n"), "n=3"},
	}
	for _, tt := range tests {
		if got := tt.arg.String(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.arg, got, tt.want)
		}
	}
}

func TestArgEqual(t *testing.T) {
	a := StructArg(UintArg(1, "1").Named("a"), InOutArg(UnknownArg(), SymArg("X")))
	b := StructArg(UintArg(1, "1").Named("a"), InOutArg(UnknownArg(), SymArg("X")))
	c := StructArg(UintArg(1, "1").Named("a"), InOutArg(UnknownArg(), SymArg("Y")))
	if !a.Equal(&b) || a.Equal(&c) || a.Equal(nil) {
		t.Error("Equal is wrong")
	}
}

// TestJSONStrings checks the JSON string writer against encoding/json.
func TestJSONStrings(t *testing.T) {
	for _, s := range []string{"", "plain", "\"\\/", "\x00\x01\x1f\x7f", "\b\f\n\r\t", "<>&", "\u2028\u2029", "bad \xff\xfe utf-8", "é日本\U0001F600", "\xed\xa0\x80"} {
		checkString(t, s)
	}
}

func checkString(t *testing.T, s string) {
	t.Helper()
	got := appendString(nil, s)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	want := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	if !bytes.Equal(got, want) {
		t.Errorf("%q: got %s, encoding/json %s", s, got, want)
	}
}

// FuzzJSONString: the hand-written JSON string writer agrees with
// encoding/json on every input.
func FuzzJSONString(f *testing.F) {
	for _, s := range []string{"", "a\"b", "\xff", "\u2028", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkString(t, s) })
}

// FuzzRecordJSON: a record built from arbitrary strings marshals to JSON
// that parses and is valid against the schema.
func FuzzRecordJSON(f *testing.F) {
	f.Add("winstrace", "a.wst", "NtX", "x", "\"x\"", uint64(5), true)
	v := recordtest.NewValidator(f)
	f.Fuzz(func(t *testing.T, dialect, source, event, str, text string, n uint64, neg bool) {
		if event == "" {
			event = "e"
		}
		r := &Record{Dialect: "d", Source: source, Line: 1, Seq: 1, Event: event, Phase: Instant, Process: str + "p",
			Args:  []Arg{IntArg(neg, n, ""), StrArg(str, ""), SymArg(event), StructArg(StrArg(text, "").Named(event))},
			Attrs: Attrs{"k": str, dialect: n}}
		b, err := r.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if err := v.Check(b); err != nil {
			t.Fatalf("%v: %s", err, b)
		}
	})
}

// TestSetInt: SetInt gives what IntArg gives, minus zero as zero, whatever
// the argument held before.
func TestSetInt(t *testing.T) {
	for _, tt := range []struct {
		neg  bool
		mag  uint64
		text string
	}{{true, 5, "-5"}, {false, 7, "0x7"}, {true, 0, "-0"}} {
		a := SymArg("old")
		a.SetInt(tt.neg, tt.mag, tt.text)
		a.Str = "" // SetInt leaves what an integer does not use
		if want := IntArg(tt.neg, tt.mag, tt.text); !a.Equal(&want) || a.Neg != (tt.neg && tt.mag != 0) {
			t.Errorf("SetInt(%v, %d, %q) = %+v, want %+v", tt.neg, tt.mag, tt.text, a, want)
		}
	}
}
