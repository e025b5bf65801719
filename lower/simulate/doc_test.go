package simulate

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/binfmt/stda"
	"github.com/tracekit/tracekit/lower/formatter"
)

// docBlocks returns the fenced blocks of the "Worked example" section of
// docs/simulate.md, by their info string (tsf, json, text).
func docBlocks(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile("../../docs/simulate.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	start := strings.Index(doc, "\n## Worked example\n")
	if start < 0 {
		t.Fatal(`docs/simulate.md has no "## Worked example" section`)
	}
	doc = doc[start+1:]
	if end := strings.Index(doc, "\n## "); end >= 0 {
		doc = doc[:end]
	}
	blocks := map[string]string{}
	for {
		i := strings.Index(doc, "\n```")
		if i < 0 {
			break
		}
		doc = doc[i+4:]
		nl := strings.IndexByte(doc, '\n')
		info := doc[:nl]
		doc = doc[nl+1:]
		j := strings.Index(doc, "\n```")
		if j < 0 {
			t.Fatalf("unterminated %s block", info)
		}
		if _, dup := blocks[info]; dup {
			t.Fatalf("two %s blocks", info)
		}
		blocks[info] = doc[:j+1]
		doc = doc[j+4:]
	}
	return blocks
}

// TestDocExample: the worked example of docs/simulate.md is what the
// simulator does. Its TSF compiles against the emitrep DLL, its state file
// reads, and the buffer formats to the text the page shows.
func TestDocExample(t *testing.T) {
	b := docBlocks(t)
	for _, k := range []string{"tsf", "json", "text"} {
		if b[k] == "" {
			t.Fatalf("no %s block in the worked example", k)
		}
	}
	c := compileSource(t, "example.tsf", []byte(b["tsf"]))
	if c.diags != "" {
		t.Errorf("the example TSF has diagnostics:\n%s", c.diags)
	}
	st, err := ParseState([]byte(b["json"]))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(c.tdf, st, Options{})
	if err != nil {
		t.Fatal(err)
	}
	buf, err := stda.Parse(res.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if _, err := formatter.WriteText(&out, buf.Records, formats(c.tff)); err != nil {
		t.Fatal(err)
	}
	for _, h := range res.Hits {
		for _, n := range h.Notes {
			fmt.Fprintf(&out, "note: hit %d: %s\n", h.Hit, n)
		}
	}
	if got := out.String(); got != b["text"] {
		t.Errorf("docs/simulate.md shows\n%s\nthe simulator gives\n%s", b["text"], got)
	}
}
