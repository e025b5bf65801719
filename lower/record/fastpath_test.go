package record

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// tricky are strings that exercise CSV quoting and JSON escaping.
var tricky = []string{"", "plain", " lead", "\tlead", "a,b", `q"uote`, "cr\rlf\n", `\.`, `\.x`, "\u00a0nbsp", "\u2028", "<&>", "\xff\xfe", "é", "\x01\x1f", "\u0085x"}

// referenceCSVRow is a row as encoding/csv writes the fields.
func referenceCSVRow(t *testing.T, r *Record) string {
	t.Helper()
	str := func(a *Arg) string { return string(a.appendJSON(nil)) }
	opt := func(v *uint64) string {
		if v == nil {
			return ""
		}
		return strconv.FormatUint(*v, 10)
	}
	args, ret, attrs, unpaired, ts, dur := "", "", "", "", "", ""
	if len(r.Args) > 0 {
		args = string(appendArgs(nil, r.Args))
	}
	if r.Ret != nil {
		ret = str(r.Ret)
	}
	if len(r.Attrs) > 0 {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(map[string]any(r.Attrs)); err != nil {
			t.Fatal(err)
		}
		attrs = strings.TrimRight(buf.String(), "\n")
	}
	if r.Unpaired {
		unpaired = "true"
	}
	if r.TSNs != nil {
		ts = strconv.FormatInt(*r.TSNs, 10)
	}
	if r.DurNs != nil {
		dur = strconv.FormatInt(*r.DurNs, 10)
	}
	var out bytes.Buffer
	w := csv.NewWriter(&out)
	w.Write([]string{r.Dialect, r.Source, strconv.Itoa(r.Line), strconv.FormatInt(r.Seq, 10), r.Time, ts,
		opt(r.CPU), opt(r.PID), opt(r.TID), r.Process, r.Event, opt(r.Major), opt(r.Minor), string(r.Phase), unpaired,
		dur, r.Errno, args, ret, string(r.Status), strings.Join(r.Data, " "), attrs})
	w.Flush()
	return out.String()
}

func trickyRecord(i int) *Record {
	s := func(k int) string { return tricky[(i+k)%len(tricky)] }
	r := &Record{Dialect: s(0), Source: s(1), Line: i, Seq: int64(i), Time: s(2), Process: s(3), Event: s(4),
		Phase: Phase(s(5)), Errno: s(6), Status: Status(s(7)), Unpaired: i%2 == 0}
	if i%3 == 0 {
		r.TSNs, r.DurNs, r.CPU, r.Major = Int(int64(-i)), Int(int64(i)), Uint(uint64(i)), Uint(7)
	}
	if i%4 != 0 {
		r.Data = []string{s(8), s(9)}
		r.Args = []Arg{StrArg(s(10), s(11)), IntArg(true, 5, "-5"), StructArg(SymArg(s(12)).Named(s(13)))}
		r.Ret = &Arg{Kind: KindBytes, Bytes: []byte(s(14))}
		r.Attrs = Attrs{s(0): s(1), "n": i, "u": uint64(i), "b": true, "l": []string{s(2), s(3)},
			"m": map[string]any{s(4): int64(-1), "z": []any{s(5), 1.5, nil}}, "f": 0.1 * float64(i), "nil": nil}
	}
	return r
}

// TestCSVMatchesEncodingCSV: the append-based CSV writer writes what
// encoding/csv writes for the same cells.
func TestCSVMatchesEncodingCSV(t *testing.T) {
	for i := range 3 * len(tricky) {
		r := trickyRecord(i)
		var got bytes.Buffer
		w := NewCSV(&got)
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		var head bytes.Buffer
		hw := csv.NewWriter(&head)
		hw.Write(csvColumns)
		hw.Flush()
		want := head.String() + referenceCSVRow(t, r)
		if got.String() != want {
			t.Errorf("record %d:\ngot  %q\nwant %q", i, got.String(), want)
		}
	}
}

// TestAttrsMatchEncodingJSON: attrs are written as encoding/json writes the
// map.
func TestAttrsMatchEncodingJSON(t *testing.T) {
	for i := range 3 * len(tricky) {
		r := trickyRecord(i)
		if r.Attrs == nil {
			continue
		}
		got, err := appendAttrs(nil, r.Attrs)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.Encode(map[string]any(r.Attrs))
		if want := strings.TrimRight(buf.String(), "\n"); string(got) != want {
			t.Errorf("record %d:\ngot  %s\nwant %s", i, got, want)
		}
	}
}

func FuzzCSVField(f *testing.F) {
	for _, s := range tricky {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want bytes.Buffer
		w := csv.NewWriter(&want)
		w.Write([]string{s, "x"})
		w.Flush()
		got := string(appendCSVField(nil, s)) + ",x\n"
		if got != want.String() {
			t.Fatalf("%q: got %q, want %q", s, got, want.String())
		}
		if gb := string(appendCSVBytes(nil, []byte(s))) + ",x\n"; gb != got {
			t.Fatalf("%q: bytes %q, string %q", s, gb, got)
		}
	})
}

// TestAttrsJSONUsed: a record that carries its attrs as JSON is written
// with those bytes, in every format, and as the map would be when they are
// the map's encoding.
func TestAttrsJSONUsed(t *testing.T) {
	for _, format := range []string{"jsonl", "csv", "text", "chrome"} {
		for i := 1; i < 2*len(tricky); i++ {
			r := trickyRecord(i)
			if r.Attrs == nil {
				continue
			}
			write := func(r *Record) string {
				var out bytes.Buffer
				w, err := NewWriter(format, &out)
				if err != nil {
					t.Fatal(err)
				}
				if err := w.Write(r); err != nil {
					t.Fatal(err)
				}
				if err := w.Flush(); err != nil {
					t.Fatal(err)
				}
				return out.String()
			}
			want := write(r)
			enc, err := AppendAttrsJSON(nil, r.Attrs)
			if err != nil {
				t.Fatal(err)
			}
			r.AttrsJSON = enc
			if got := write(r); got != want {
				t.Errorf("%s, record %d, attrs given as JSON:\ngot  %q\nwant %q", format, i, got, want)
			}
			r.AttrsJSON = []byte(`{"given":"as JSON"}`)
			if got := write(r); !strings.Contains(got, "given") {
				t.Errorf("%s, record %d: the attrs' JSON was not used: %q", format, i, got)
			}
		}
	}
}

// TestCSVAttrsCell: one CSV writer given records whose attrs JSON changes
// from record to record (same bytes, other bytes, a prefix of the same
// storage, other bytes of the same length, then others) writes each record's own JSON as its attrs cell.
func TestCSVAttrsCell(t *testing.T) {
	a := []byte(`{"a":"1","b":"x,y"}`)
	b := []byte(`{"c":"\"q\""}`)
	// c is as long as a, d longer.
	c := []byte(`{"a":"1","b":"x;y"}`)
	d := []byte(`{"p":"` + strings.Repeat("x", len(a)+16-8) + `"}`)
	jsons := [][]byte{a, a, b, a, a[:len(a)-1], b, b, c, a, d, a, d, c, c}
	var got bytes.Buffer
	w := NewCSV(&got)
	for i, j := range jsons {
		r := &Record{Event: "e", Phase: Instant, Line: i, Attrs: Attrs{"k": "v"}, AttrsJSON: j}
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(got.String(), "\n")
	for i, j := range jsons {
		if want := "," + string(appendCSVBytes(nil, j)); !strings.HasSuffix(rows[i+1], want) {
			t.Errorf("row %d: %q does not end in %q", i+1, rows[i+1], want)
		}
	}
}

// TestPlainPrefix: the run of plain bytes read eight at a time is the one
// read byte by byte, for every byte value at every place of strings of
// plain bytes of lengths around the word size.
func TestPlainPrefix(t *testing.T) {
	slow := func(s string) int {
		i := 0
		for i < len(s) && jsonPlain[s[i]] {
			i++
		}
		return i
	}
	for n := 0; n <= 25; n++ {
		base := []byte(strings.Repeat("aZ09 ~!", 4))[:n]
		if got := plainPrefix(string(base)); got != n {
			t.Fatalf("%q: %d, want %d", base, got, n)
		}
		for at := 0; at < n; at++ {
			for c := 0; c < 256; c++ {
				s := []byte(string(base))
				s[at] = byte(c)
				if got, want := plainPrefix(string(s)), slow(string(s)); got != want {
					t.Fatalf("%q: %d, want %d", s, got, want)
				}
			}
		}
	}
}

// TestCSVNeedsQuotesWords: the test read eight bytes at a time agrees with
// the byte-by-byte rule, for every byte value at every place.
func TestCSVNeedsQuotesWords(t *testing.T) {
	slow := func(s string) bool {
		if s == "" {
			return false
		}
		if c := s[0]; c == ' ' || c >= '\t' && c <= '\r' || c == '\\' && s == `\.` {
			return true
		}
		for i := 0; i < len(s); i++ {
			if csvSpecial[s[i]] {
				return true
			}
		}
		return false
	}
	for n := 0; n <= 25; n++ {
		base := []byte(strings.Repeat("aZ09~!:/", 4))[:n]
		for at := 0; at < n; at++ {
			for c := 0; c < 256; c++ {
				if at == 0 && c >= 0x80 {
					continue // a first byte from 0x80 on goes to unicode.IsSpace
				}
				s := []byte(string(base))
				s[at] = byte(c)
				if got, want := csvNeedsQuotes(string(s)), slow(string(s)); got != want {
					t.Fatalf("%q: %v, want %v", s, got, want)
				}
				if got := csvNeedsQuotes(s); got != slow(string(s)) {
					t.Fatalf("%q as bytes: %v", s, got)
				}
			}
		}
	}
}

// TestArgsCSV checks appendArgsCSV and appendArgCSV, which write the JSON
// with its quotes doubled in one pass, against encoding/csv quoting of
// appendArgs, for every kind, names, comments and tricky strings.
func TestArgsCSV(t *testing.T) {
	cases := [][]Arg{
		{IntArg(true, 5, "")},
		{UintArg(123, "0000007b"), UintArg(0, "0"), BytesArg([]byte{1, 0xab})},
		{BytesArg(nil)},
		{UintArg(1, ""), StrArg("x", "")}, {SymArg("S")},
		{{Kind: KindStr, Str: "cut", Text: `"cut"`, Truncated: true}, UnknownArg(), ElidedArg()},
		{OpArg("|", SymArg("O_RDONLY"), SymArg("O_CLOEXEC")), CallArg("htons", UintArg(80, "80"))},
		{{Kind: KindFD, Mag: 3, Text: "3", Path: "/etc/passwd"}, {Kind: KindFD, Str: "AT_FDCWD", Path: "/"}},
		{InOutArg(UintArg(1, "1"), SymArg("X")), {Kind: KindInOut}, ArrayArg(StructArg(IntArg(true, 9, "-9").Named("n")))},
	}
	for _, s := range tricky {
		cases = append(cases, []Arg{UintArg(7, s)}, []Arg{{Kind: KindInt, Mag: 1, Name: s}},
			[]Arg{{Kind: KindBytes, Bytes: []byte{2}, Comment: s}}, []Arg{StrArg(s, s), SymArg(s)},
			[]Arg{OpArg(s, CallArg(s)), {Kind: KindFD, Str: s, Path: s}, {Kind: Kind(s)}})
	}
	cell := func(v string) string {
		var want bytes.Buffer
		w := csv.NewWriter(&want)
		if err := w.Write([]string{v}); err != nil {
			t.Fatal(err)
		}
		w.Flush()
		return strings.TrimSuffix(want.String(), "\n")
	}
	for _, args := range cases {
		if got, want := string(appendArgsCSV([]byte("x"), args)), "x"+cell(string(appendArgs(nil, args))); got != want {
			t.Errorf("%+v: got %s, want %s", args, got, want)
		}
		for i := range args {
			if got, want := string(appendArgCSV([]byte("x"), &args[i])), "x"+cell(string(args[i].appendJSON(nil))); got != want {
				t.Errorf("%+v: got %s, want %s", args[i], got, want)
			}
		}
	}
}

// TestJSONLHead: one JSONL writer given records whose dialect and source
// change, return, or stay (the start of the JSON it keeps) writes each
// record as MarshalJSON does.
func TestJSONLHead(t *testing.T) {
	names := []string{"a", "a", "b", `q"`, "a", "", "a"}
	var got, want bytes.Buffer
	w := NewJSONL(&got)
	for i := range 3 * len(names) {
		r := &Record{Dialect: names[i%len(names)], Source: names[i/len(names)], Line: i, Event: "e", Phase: Instant}
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
		j, err := r.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		want.Write(append(j, '\n'))
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("got\n%s\nwant\n%s", got.String(), want.String())
	}
}
