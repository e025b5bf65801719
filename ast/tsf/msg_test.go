package tsf

import (
	"os"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/diag"
)

// TestDocumented checks that every message code is listed in
// docs/diagnostics.md, and that the severities follow the ranges of the
// reference (section 1.6.2).
func TestDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/diagnostics.md")
	if err != nil {
		t.Fatal(err)
	}
	for code, m := range Messages {
		if !strings.Contains(string(doc), "| "+code.String()+" |") {
			t.Errorf("%s is not in docs/diagnostics.md", code)
		}
		var want diag.Severity
		switch {
		case code <= 31:
			want = diag.Fatal
		case code <= 63:
			want = diag.Severe
		case code <= 127:
			want = diag.Error
		case code <= 199:
			want = diag.Warning
		default:
			continue
		}
		if m.Severity != want {
			t.Errorf("%s has severity %s, want %s", code, m.Severity, want)
		}
	}
}

func TestDiagnosticText(t *testing.T) {
	d := ErrDupMinor.Diagnostic(Pos{File: "a.tsf", Line: 3, Col: 7}, 0, "00D3")
	if got := d.String(); got != "a.tsf:3:7: error: duplicate minor code = 00D3, ignored [TRC094]" {
		t.Errorf("got %q", got)
	}
	if LegacyLine(d) != 3 {
		t.Errorf("legacy line %d", LegacyLine(d))
	}
	if got := WarnFmtSkip.Diagnostic(Pos{Line: 1, Col: 1}, 0).Msg; got != "format control %I needs a decimal byte count and a blank" {
		t.Errorf("got %q", got)
	}
}
