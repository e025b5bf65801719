package record

import (
	"bytes"
	"strings"
	"testing"
)

// TestTemplateMatchesWrite: a record encoded by AppendTemplate, then
// filled with its Seq and TSNs by AppendFilled, is the bytes Write writes,
// for every writer that offers templates, with every place of seq and
// ts_ns in a column list, with and without a ts_ns.
func TestTemplateMatchesWrite(t *testing.T) {
	lists := [][]string{
		{"time", "ts_ns", "cpu", "major", "minor", "event", "data"},
		{"ts_ns"}, {"seq"}, {"ts_ns", "seq"}, {"seq", "ts_ns"},
		{"ts_ns", "event"}, {"event", "ts_ns"}, {"ts_ns", "dur_ns"}, {"dur_ns", "ts_ns"},
		{"line", "seq", "time", "ts_ns", "attrs", "args"},
		{"event", "cpu"},
	}
	type maker struct {
		name string
		mk   func(*bytes.Buffer) Writer
	}
	makers := []maker{
		{"csv", func(b *bytes.Buffer) Writer { return NewCSV(b) }},
		{"jsonl", func(b *bytes.Buffer) Writer { return NewJSONL(b) }},
	}
	for _, format := range FieldFormats {
		for _, l := range lists {
			makers = append(makers, maker{format + " " + strings.Join(l, ","), func(b *bytes.Buffer) Writer {
				w, err := NewFieldsWriter(format, b, l)
				if err != nil {
					t.Fatal(err)
				}
				return w
			}})
		}
	}
	for _, m := range makers {
		var dummy bytes.Buffer
		part := m.mk(&dummy).(Parts).Part(&dummy)
		tm, ok := part.(Templater)
		if !ok {
			t.Fatalf("%s: the part writer offers no templates", m.name)
		}
		for i := range 3 * len(tricky) {
			r := trickyRecord(i)
			if i%5 == 1 {
				r.TSNs = Int(0)
			}
			var want bytes.Buffer
			w := m.mk(&want).(Parts).Part(&want)
			if err := w.Write(r); err != nil {
				t.Fatal(err)
			}
			w.Flush()
			// The template of a record with other values where the holes
			// are: they must not leak into it.
			blank := *r
			blank.Seq, blank.TSNs = 987654, Int(-123456)
			pre := []byte("before")
			b, h, err := tm.AppendTemplate(pre, &blank)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(b, []byte("987654")) || bytes.Contains(b, []byte("123456")) {
				t.Errorf("%s: record %d: the template holds the values of its holes: %q", m.name, i, b)
			}
			got := tm.AppendFilled([]byte("x"), b[len(pre):], h, r.Seq, r.TSNs)
			if string(got[1:]) != want.String() {
				t.Errorf("%s: record %d:\nfilled %q\nwrite  %q", m.name, i, got[1:], want.String())
			}
		}
	}
}
