package tff

import (
	"bytes"
	"encoding/json"
	"errors"
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

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriterErrors(t *testing.T) {
	f := &File{Major: 1, Records: []Record{rec(1, "d")}}
	if err := f.WriteText(failWriter{}); err == nil {
		t.Error("WriteText ignored a write error")
	}
}
