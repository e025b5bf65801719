package tff

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestMarshalJSON(t *testing.T) {
	f := &File{Major: 0x30, Records: []Record{
		rec(1, "caf\xe9 <&>", "\x01W=\x01P\x01D", "\x01Z"),
		rec(2, ""),
	}}
	got, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"kind":"tff","major":48,"records":[` +
		`{"minor":1,"desc":"café \u003c\u0026\u003e","fmt":["%W=%P%D","\u0001Z"]},` +
		`{"minor":2,"desc":"","fmt":[]}]}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	empty, _ := json.Marshal(&File{Major: 1})
	if string(empty) != `{"kind":"tff","major":1,"records":[]}` {
		t.Errorf("empty file: %s", empty)
	}
}

func TestWriteText(t *testing.T) {
	f := &File{Major: 0x30, Records: []Record{rec(0x8001, "caf\xe9\t\\", "\x01P\x01S \x01Z")}}
	var b bytes.Buffer
	if err := f.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	const want = "TFF major 0x0030 (48), 1 records\n" +
		"minor 0x8001 (32769), 17 bytes\n" +
		"  DESC \"café\\t\\\\\"\n" +
		"  FMT  \"%P%S \\x01Z\"\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// TestTSF lists synthetic records that are hard to quote and compiles the
// listing back (tsfmini_test.go), or checks the error for what TSF cannot
// express.
func TestTSF(t *testing.T) {
	tests := []struct {
		name string
		f    *File
		err  string // "" when the listing must compile back
	}{
		{"quotes", &File{Major: 1, Records: []Record{recT(1, `say "hi"`, `"%W"`)}}, ""},
		{"backslash pairs", &File{Major: 1, Records: []Record{recT(1, `a\\`, `\\"`, `\n\t\%W`, `\x`)}}, ""},
		{"high bytes and tab", &File{Major: 0x1388, Records: []Record{recT(0xFFFF, "caf\xe9\t", "\xff%W")}}, ""},
		{"comment chars", &File{Major: 1, Records: []Record{recT(1, "; not /* a */ comment", "=,()")}}, ""},
		{"stored controls", &File{Major: 1, Records: []Record{rec(2, "d", string(EncodeFMT([]byte(" %p  %w %i12 %% %Z %"))))}}, ""},
		{"major 0", &File{Major: 0}, "tff: major code 0 cannot be written as TSF: TRCUST reads MAJOR = 0 as 1"},
		{"minor 0", &File{Major: 1, Records: []Record{rec(0, "d")}}, "tff: minor code 0 cannot be written as TSF: TRCUST rejects MINOR=0"},
		{"duplicate", &File{Major: 1, Records: []Record{rec(4, "a"), rec(4, "b")}}, "tff: minor 0x0004 is used twice"},
		{"LF in DESC", &File{Major: 1, Records: []Record{rec(1, "a\nb")}}, `tff: minor 0x0001: DESC "a\nb" holds the control byte 0x0A, which a TSF string cannot hold`},
		{"0x01 in DESC", &File{Major: 1, Records: []Record{rec(1, "\x01W")}}, `DESC "\x01W" holds the control byte 0x01`},
		{"CR in FMT", &File{Major: 1, Records: []Record{rec(1, "d", "a\r")}}, `tff: minor 0x0001: FMT 1 "a\r" holds the control byte 0x0D`},
		{"DESC ends in backslash", &File{Major: 1, Records: []Record{rec(1, `a\`)}}, `tff: minor 0x0001: DESC "a\\" ends in a backslash, which would escape the closing quote in TSF`},
		{"DESC odd backslashes", &File{Major: 1, Records: []Record{rec(1, `a\\\`)}}, `ends in a backslash`},
		{"backslash quote", &File{Major: 1, Records: []Record{rec(1, "d", `a\"b`)}}, `tff: minor 0x0001: FMT 1 "a\\\"b" has a backslash directly before a quote, which TSF cannot express (\" is a quote alone)`},
		{"literal %W", &File{Major: 1, Records: []Record{rec(3, "d", "ok", "%W")}}, `tff: minor 0x0003: FMT 2 "%W" has stored controls that no TSF text gives`},
		{"blanks after Ctrl P", &File{Major: 1, Records: []Record{rec(3, "d", "\x01P  \x01W x")}}, ""},
		{"unknown control", &File{Major: 1, Records: []Record{rec(3, "d", "\x01Z")}}, `holds the control byte 0x01`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			err := tt.f.TSF(&b)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("got error %v, want %q", err, tt.err)
				}
				if b.Len() != 0 {
					t.Errorf("TSF wrote %q before failing", b.String())
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			g, err := miniCompile(b.String())
			if err != nil {
				t.Fatalf("%v\n%s", err, b.String())
			}
			want, err1 := tt.f.MarshalBinary()
			got, err2 := g.MarshalBinary()
			if err1 != nil || err2 != nil || !bytes.Equal(got, want) {
				t.Errorf("listing compiles to other bytes (%v, %v)\n%s", err1, err2, b.String())
			}
		})
	}
}

// recT is rec with FMT lines given as TSF text.
func recT(minor uint16, desc string, texts ...string) Record {
	r := Record{Minor: minor, Desc: []byte(desc)}
	for _, x := range texts {
		r.Fmts = append(r.Fmts, EncodeFMT([]byte(x)))
	}
	return r
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriterErrors(t *testing.T) {
	f := &File{Major: 1, Records: []Record{rec(1, "d")}}
	if err := f.TSF(failWriter{}); err == nil {
		t.Error("TSF ignored a write error")
	}
	if err := f.WriteText(failWriter{}); err == nil {
		t.Error("WriteText ignored a write error")
	}
}
