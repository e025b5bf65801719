package tsfcompile

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/ast/tsf"
	"github.com/tracekit/tracekit/lower/tsfcheck"
)

// needsBackEnd lists the oracle cases whose messages come from reading the
// module, the MAP file or building the RPN program, which the front end
// does not do.
var needsBackEnd = map[string]string{
	"d53_regsym":      "symbol lookup (79)",
	"d55_linenum":     "debug information (91)",
	"d59b_casesens":   "symbol lookup (79)",
	"d61_opcmismatch": "opcode in the module (77)",
	"d63_regs17":      "RPN stack (97)",
	"d68_nomap":       "symbol information (39)",
	"e11_nosym":       "symbol lookup (79)",
	"e15_duptp":       "tracepoint addresses (105)",
	"e19_badmapext":   "MAP file name (14)",
	"e28b_rpn255":     "RPN length (83)",
}

// legacyLines renders diagnostics the way TRCUST 3.05A prints them,
// leaving out what 3.05A does not report, at message level w.
func legacyLines(l diag.List, w int) []string {
	min, _ := diag.LevelMin(w)
	var out []string
	for _, d := range l {
		code, _ := tsf.CodeOf(d)
		if tsf.Messages[code].Silent305A && d.Severity == diag.Warning || code >= 200 && d.Severity == diag.Warning {
			continue
		}
		if d.Severity < min {
			continue
		}
		out = append(out, fmt.Sprintf("TRCUST(%d) %s: %s", tsf.LegacyLine(d), strings.ToUpper(d.Severity.String()), d.Msg))
	}
	return out
}

// TestOracleMessages checks the front end's messages, their wording and
// the line TRCUST names, against every oracle case that compiles a TSF.
func TestOracleMessages(t *testing.T) {
	dir, cases := corpus.Oracle(t)
	checked := 0
	for _, c := range cases {
		if len(c.Args) == 0 || !strings.HasSuffix(strings.ToLower(c.Args[0]), ".tsf") || len(c.Inputs) == 0 {
			continue // combine mode, or no input file (e18)
		}
		t.Run(c.Case, func(t *testing.T) {
			if why, ok := needsBackEnd[c.Case]; ok {
				t.Skipf("needs the TDF back end: %s", why)
			}
			src, err := os.ReadFile(filepath.Join(dir, c.Case, c.Args[0]))
			if err != nil {
				t.Fatal(err)
			}
			opt := tsfcheck.Options{}
			level := 2
			for _, a := range c.Args[1:] {
				switch strings.ToUpper(a) {
				case "/D":
					opt.AllowDuplicateMinors = true
				case "/W0", "/W1", "/W2":
					level = int(a[2] - '0')
				}
			}
			_, diags := Check(c.Args[0], src, opt)
			got := legacyLines(diags, level)
			if d, ok := corpus.OracleDefect(c.Case); ok {
				if !slices.Contains(got, d.Message) {
					t.Errorf("messages %q lack %q (%s)", got, d.Message, d.Why)
				}
				checked++
				return
			}
			console, err := os.ReadFile(filepath.Join(dir, c.Case, "console.txt"))
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, line := range strings.Split(strings.ReplaceAll(string(console), "\r", ""), "\n") {
				if strings.HasPrefix(line, "TRCUST(") {
					want = append(want, line)
				}
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("messages differ\n--- tracekit\n%s\n--- TRCUST 3.05A\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			checked++
		})
	}
	t.Logf("%d oracle cases compared", checked)
}
