package simulate

import (
	"bytes"
	"os"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
	"github.com/tracekit/tracekit/binfmt/stda"
)

// sample is one of the reference's sample TSFs (trcust-tsf-reference.txt
// 1.5, kept in ../shared/corpus/os2/tsf, never copied here) adapted to
// the emitrep DLL: each replacement gives a symbol of the sample's module
// an emitrep symbol, or mends one of the sample's own mistakes (each is
// said). The data statements and FMT strings stay as the sample wrote them.
type sample struct {
	file    string
	replace []replacement
}

// replacement replaces old by new, which must occur n times.
type replacement struct {
	old, new string
	n        int
}

// source reads the sample from the shared corpus and adapts it. It skips
// the test when the corpus is absent.
func (s *sample) source(t testing.TB) []byte {
	t.Helper()
	data, err := os.ReadFile(corpus.Path(t, "corpus", "os2", "tsf", s.file))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range s.replace {
		if n := bytes.Count(data, []byte(r.old)); n != r.n {
			t.Fatalf("%s: %q occurs %d times, want %d", s.file, r.old, n, r.n)
		}
		data = bytes.ReplaceAll(data, []byte(r.old), []byte(r.new))
	}
	return data
}

var (
	// 1.5.1, TSF using 16-bit segmented addressing.
	sample16 = &sample{file: "sg244640_16bit_xxx.tsf", replace: []replacement{
		{`MODNAME=\c\src\xxx.dll`, `MODNAME=emitrep.dll`, 1},
		{`TP=.xxalloc,`, `TP=.malloc,`, 1},
		{`OPCODE=0x8B,`, `OPCODE=0x55,`, 1}, // the byte at malloc
		{`TP=.Foo,`, `TP=.free,`, 1},
		{`TP=.Goo,`, `TP=.exit,`, 1},
		{`TP=.Hoo,`, `TP=.fclose,`, 1},
		{`TP=.Zoo,`, `TP=.fflush,`, 1},
		// The sample gives minor 0xB3 twice (TRC094).
		{`MINOR=0xB3, TP=.CheckIt,`, `MINOR=0xB4, TP=.getenv,`, 1},
		{`.NameIt,`, `.__decimal_point,`, 1},
		{`TP=.CheckIt,RETEP,`, `TP=.getenv,RETEP,`, 1},
		{`.Status_Rec+`, `._pBucketArr+`, 3},
		// TP=@file,line needs debug information the DLL does not have
		// (TRC091).
		{`TP=@check.c,58,`, `TP=.strspn,`, 1},
		{`(v_ptr,`, `(_dttm_ptr,`, 1},
		{`(.v_ptr,`, `(._dttm_ptr,`, 1},
		{`TP=.LookUp,`, `TP=.wcstombs,`, 1},
		// The sample ends its last TRACE with a comma (TRC034).
		{`DESC="(APP) LookUp  Pre-Invocation",`, `DESC="(APP) LookUp  Pre-Invocation"`, 1},
	}}

	// 1.5.2, TSF using 32-bit addressing.
	sample32 = &sample{file: "sg244640_32bit.tsf", replace: []replacement{
		{`MODNAME=NEWCALLS.DLL`, `MODNAME=emitrep.dll`, 1},
		{`TP=.NewAllocSeg,`, `TP=.malloc,`, 1},
		{`TP=.Foo,`, `TP=.free,`, 1},
		{`TP=.Goo,`, `TP=.exit,`, 1},
		{`TP=.Hoo,`, `TP=.fclose,`, 1},
		{`TP=.Zoo,`, `TP=.fflush,`, 1},
		// MEM takes no flat register address (TRC089): MEM32 is meant.
		{`MEM=(FEAX+EDI,INDIRECT*-2,2)`, `MEM32=(FEAX+EDI,INDIRECT*-2,2)`, 1},
		// The sample gives minor 0xD3 twice (TRC094).
		{`MINOR=0xD3, TP=.CheckIt,`, `MINOR=0xD4, TP=.getenv,`, 1},
		{`.NameIt,`, `.__decimal_point,`, 1},
		{`TP=.CheckIt,RETEP,`, `TP=.getenv,RETEP,`, 1},
		{`.Status_Rec+`, `._pBucketArr+`, 3},
		{`TP=._LookUp,`, `TP=._ltoa,`, 1},
	}}

	// 1.5.3, TSF using a mix of 16-bit and 32-bit addressing.
	sampleMixed = &sample{file: "sg244640_mixed_mixcalls.tsf", replace: []replacement{
		{`MODNAME=MIXCALLS.DLL`, `MODNAME=emitrep.dll`, 1},
		{`TP=.MixStub,`, `TP=.malloc,`, 1},
		{`TP=.FlatStub,`, `TP=.free,`, 1},
		{`(.p_seg_info,`, `(._cvt_buf_ptr,`, 1},
	}}

	// The sample TSF of the formatting section (DosOpen), 32-bit.
	sampleFormat = &sample{file: "sg244640_tsfformat_sample.tsf", replace: []replacement{
		{`MODNAME = doscall1.dll`, `MODNAME = emitrep.dll`, 1},
		{`TP=.DosOpen,`, `TP=.emit,`, 1},
		{`(.FileName,`, `(._ctable,`, 1},
		// TP=@file,line needs debug information (TRC091).
		{`TP=@dosopen1.c,28,`, `TP=.malloc,`, 1},
		{`(.handle,`, `(._osmode,`, 1},
		{`TP=.DosOpenC,RETEP,`, `TP=.emit,RETEP,`, 1},
		{`(.retcode,`, `(.errno,`, 1},
		{`(var_struct+2,`, `(_pBucketArr+2,`, 1},
		{`(.var_struct,`, `(._pBucketArr,`, 1},
	}}
)

func init() {
	roundTrips = append(roundTrips,
		roundTrip{name: "sample-16bit", tsf: "sg244640_16bit_xxx.tsf", sample: sample16, state: "sample-16bit.state.json", opt: Options{Format: stda.FormatOld}},
		roundTrip{name: "sample-32bit", tsf: "sg244640_32bit.tsf", sample: sample32, state: "sample-32bit.state.json"},
		roundTrip{name: "sample-mixed", tsf: "sg244640_mixed_mixcalls.tsf", sample: sampleMixed, state: "sample-mixed.state.json"},
		roundTrip{name: "sample-dosopen", tsf: "sg244640_tsfformat_sample.tsf", sample: sampleFormat, state: "sample-dosopen.state.json", opt: Options{Output: OutputSave}},
	)
}
