package tdfgen_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
	"github.com/tracekit/tracekit/binfmt/tdf"
	"github.com/tracekit/tracekit/lower/tdfgen"
	"github.com/tracekit/tracekit/lower/tsfcheck"
	"github.com/tracekit/tracekit/lower/tsfcompile"
	"github.com/tracekit/tracekit/lower/tsflist"
)

// TestListingRoundTrip writes every oracle TDF as TSF (tsflist.TDF, with
// the MAP file naming the addresses), compiles the listing again and
// checks that it gives the same bytes: the listing reconstructs every
// statement of every oracle program.
func TestListingRoundTrip(t *testing.T) {
	dir, cases := corpus.Oracle(t)
	e := loadEmitrep(t)
	n := 0
	for _, c := range cases {
		for name := range c.Outputs {
			if !strings.EqualFold(filepath.Ext(name), ".tdf") {
				continue
			}
			want, err := os.ReadFile(filepath.Join(dir, c.Case, name))
			if err != nil {
				t.Fatal(err)
			}
			f, err := tdf.Parse(want)
			if err != nil {
				t.Fatal(err)
			}
			var listing bytes.Buffer
			l, err := tsflist.TDF(f, e.syms[false])
			if err := tsflist.Write(&listing, l, err); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(listing.String(), "not reconstructed") {
				t.Errorf("%s: listing has unreconstructed RPN:\n%s", c.Case, listing.String())
				continue
			}
			m, diags := tsfcompile.Check("listing.tsf", listing.Bytes(), tsfcheck.Options{AllowDuplicateMinors: true})
			if diags.Failed() {
				t.Errorf("%s: the listing does not compile: %v\n%s", c.Case, diags, listing.String())
				continue
			}
			g, _, diags := tdfgen.Build(m, e.syms[false], e.mod, tdfgen.Options{KeepPath: true})
			if diags.Failed() || g == nil {
				t.Errorf("%s: %v\n%s", c.Case, diags, listing.String())
				continue
			}
			got, err := g.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s: the listing compiles to other bytes\n%s\n got %x\nwant %x", c.Case, listing.String(), got, want)
			}
			n++
		}
	}
	if n != oracleTDFs {
		t.Errorf("%d TDFs listed, want %d", n, oracleTDFs)
	}
}
