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

func TestCodeOf(t *testing.T) {
	for _, tt := range []struct {
		code diag.Code
		want Code
		ok   bool
	}{
		{"TRC094", ErrDupMinor, true},
		{"TRC212", 212, true},
		{"TRC001", FatalNoTSF, true},
		{"TRC94", 0, false},
		{"TRCabc", 0, false},
		{"LST001", 0, false},
		{"", 0, false},
	} {
		got, ok := CodeOf(diag.Diagnostic{Code: tt.code})
		if got != tt.want || ok != tt.ok {
			t.Errorf("CodeOf(%q) = %d, %v; want %d, %v", tt.code, got, ok, tt.want, tt.ok)
		}
	}
	if c, ok := CodeOf(ErrDupMinor.Diagnostic(Pos{}, 0, 1, 1)); !ok || c != ErrDupMinor {
		t.Errorf("CodeOf of a built diagnostic = %d, %v", c, ok)
	}
}
