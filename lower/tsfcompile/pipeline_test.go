package tsfcompile

import (
	"slices"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/ast/tsf"
	"github.com/tracekit/tracekit/lower/tsfcheck"
)

// TestRunStages checks when Run reads the module: never for static
// tracepoints; after an error only when Eager; not past a Locate that
// fails.
func TestRunStages(t *testing.T) {
	const static = "MODNAME = emitrep.dll\nMAJOR = 0x42\nTRACE MINOR=1, TP=@STATIC, DESC=\"s\"\n"
	const dynamic = static + "TRACE MINOR=2, TP=.emit, DESC=\"d\", REGS=(EAX)\n"
	const erring = dynamic + "TRACE MINOR=3, TP=.free, DESC=\"e\", FOO=1\n" // 66 on the last TRACE
	notFound := func(m *tsfcheck.Module) (Sources, diag.List) {
		return Sources{}, diag.List{tsf.FatalNotFound.Diagnostic(m.ModNamePos, 0, m.ModName)}
	}
	for _, tc := range []struct {
		name     string
		src      string
		eager    bool
		located  bool // Locate is called
		tff      bool
		failedAt string
	}{
		{"static", static, false, false, true, ""},
		{"static eager", static, true, false, true, ""},
		{"dynamic", dynamic, false, true, false, "TRC002"},
		{"error", erring, false, false, true, "TRC066"},
		{"error eager", erring, true, true, false, "TRC066"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			called := false
			res := Run(Request{Name: "t.tsf", Src: []byte(tc.src), Eager: tc.eager, Locate: func(m *tsfcheck.Module) (Sources, diag.List) {
				called = true
				return notFound(m)
			}})
			if called != tc.located || (res.TFF != nil) != tc.tff || res.TDF != nil || res.Opened {
				t.Errorf("Locate called %v, TFF %v, TDF %v, opened %v", called, res.TFF != nil, res.TDF != nil, res.Opened)
			}
			var codes []string
			for _, d := range res.All() {
				if d.Severity >= diag.Error {
					codes = append(codes, string(d.Code))
				}
			}
			if tc.failedAt == "" && len(codes) > 0 || tc.failedAt != "" && !slices.Contains(codes, tc.failedAt) {
				t.Errorf("errors %v, want %q", codes, tc.failedAt)
			}
		})
	}
}

// TestRunEmitrep compiles a dynamic tracepoint against the oracle's DLL
// and MAP file: every stage runs and the module and MAP are the inputs.
func TestRunEmitrep(t *testing.T) {
	dll := corpus.Path(t, "corpus", "os2", "lx", "osfree_emitrep.dll")
	mp := corpus.Path(t, "corpus", "os2", "lx", "osfree_emitrep.map")
	res := Run(Request{
		Name: "t.tsf",
		Src:  []byte("MODNAME = emitrep.dll\nMAJOR = 0x42\nTRACE MINOR=1, TP=.malloc,RETEP, DESC=\"r\", REGS=(EAX)\n"),
		Locate: func(m *tsfcheck.Module) (Sources, diag.List) {
			return Sources{ModuleAt: m.ModNamePos, ModulePath: dll, MapPath: mp}, nil
		},
	})
	if res.All().Failed() || !res.Opened || res.TFF == nil || res.TDF == nil {
		t.Fatalf("%v; opened %v", res.All(), res.Opened)
	}
	if tp := res.TDF.Tracepoints[0]; tp.Object != 1 || tp.Offset != 0x1080 || tp.Opcode != 0xC9 {
		t.Errorf("RETEP of malloc at %d:%#x (opcode %#x), want 1:0x1080 (LEAVE), as TRCUST in x_r01", tp.Object, tp.Offset, tp.Opcode)
	}
	if got := res.Inputs(); !slices.Equal(got, []string{dll, mp}) {
		t.Errorf("inputs %v", got)
	}
}
