package record

import (
	"testing"

	"github.com/tracekit/tracekit/lower/record/recordtest"
)

// TestStraceKinds covers the kinds and members the strace dialect brought
// (array, op, call, fd, elided; comment, truncated): their JSON, valid
// against the schema, and their text.
func TestStraceKinds(t *testing.T) {
	v := recordtest.NewValidator(t)
	fd := Arg{Kind: KindFD, Mag: 3, Text: "3", Path: "/etc/passwd"}
	named := Arg{Kind: KindFD, Str: "AT_FDCWD", Path: "/home"}
	trunc := StrArg("ab", `"ab"`)
	trunc.Truncated = true
	env := ElidedArg()
	env.Comment = "22 vars"
	ptr := UintArg(0x7ffd, "0x7ffd")
	ptr.Comment = "30 vars"
	tests := []struct {
		arg        Arg
		json, text string
	}{
		{ArrayArg(SymArg("INT"), SymArg("CHLD")), `{"kind":"array","fields":[{"kind":"sym","sym":"INT"},{"kind":"sym","sym":"CHLD"}]}`, "[INT, CHLD]"},
		{ArrayArg(), `{"kind":"array","fields":[]}`, "[]"},
		{OpArg("|", SymArg("O_RDONLY"), SymArg("O_CLOEXEC")), `{"kind":"op","op":"|","fields":[{"kind":"sym","sym":"O_RDONLY"},{"kind":"sym","sym":"O_CLOEXEC"}]}`, "O_RDONLY|O_CLOEXEC"},
		{OpArg("==", CallArg("WEXITSTATUS", SymArg("s")), UintArg(0, "0")), `{"kind":"op","op":"==","fields":[{"kind":"call","sym":"WEXITSTATUS","fields":[{"kind":"sym","sym":"s"}]},{"kind":"int","int":0,"text":"0"}]}`, "WEXITSTATUS(s) == 0"},
		{OpArg("~", ArrayArg(SymArg("RTMIN"))), `{"kind":"op","op":"~","fields":[{"kind":"array","fields":[{"kind":"sym","sym":"RTMIN"}]}]}`, "~[RTMIN]"},
		{CallArg("htons", UintArg(80, "80")).Named("sin_port"), `{"name":"sin_port","kind":"call","sym":"htons","fields":[{"kind":"int","int":80,"text":"80"}]}`, "sin_port=htons(80)"},
		{fd, `{"kind":"fd","int":3,"text":"3","path":"/etc/passwd"}`, "3</etc/passwd>"},
		{named, `{"kind":"fd","sym":"AT_FDCWD","path":"/home"}`, "AT_FDCWD</home>"},
		{trunc, `{"kind":"str","str":"ab","text":"\"ab\"","truncated":true}`, `"ab"...`},
		{ArrayArg(env), `{"kind":"array","fields":[{"kind":"elided","comment":"22 vars"}]}`, "[... /* 22 vars */]"},
		{ptr, `{"kind":"int","int":32765,"text":"0x7ffd","comment":"30 vars"}`, "0x7ffd /* 30 vars */"},
	}
	for _, tt := range tests {
		got, _ := tt.arg.MarshalJSON()
		if string(got) != tt.json {
			t.Errorf("%s:\n got %s\nwant %s", tt.text, got, tt.json)
		}
		if s := tt.arg.String(); s != tt.text {
			t.Errorf("text %q, want %q", s, tt.text)
		}
		r := &Record{Dialect: "strace", Source: "s", Line: 1, Seq: 1, Event: "f", Phase: Complete, Args: []Arg{tt.arg}}
		line, err := r.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if err := v.Check(line); err != nil {
			t.Errorf("%s: not valid: %v", line, err)
		}
		c := tt.arg
		if !tt.arg.Equal(&c) {
			t.Errorf("%s: not equal to itself", tt.text)
		}
	}
	a, b := OpArg("|", SymArg("A")), OpArg("&", SymArg("A"))
	p, q := fd, fd
	q.Path = "/x"
	if a.Equal(&b) || p.Equal(&q) || trunc.Equal(&Arg{Kind: KindStr, Str: "ab", Text: `"ab"`}) || ptr.Equal(&Arg{Kind: KindInt, Mag: 0x7ffd, Text: "0x7ffd"}) {
		t.Error("Equal misses op, path, truncated or comment")
	}
}
