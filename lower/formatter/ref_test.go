package formatter

import (
	"bytes"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
	"github.com/tracekit/tracekit/binfmt/stda"
	"github.com/tracekit/tracekit/binfmt/tff"
)

// TestCorpusTFFsMatchReference formats random records through every record
// of every TFF that IBM's TRCUST wrote in the shared corpus (the FMT lines
// of real tracepoints): Apply as refApply does, and AppendBlock as
// FormatRecord and WriteBlock do.
func TestCorpusTFFsMatchReference(t *testing.T) {
	dir := corpus.Path(t, "corpus", "os2", "trcust-oracle")
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.TFF"))
	rng := rand.New(rand.NewPCG(5, 6))
	n := 0
	for _, name := range files {
		f, err := tff.Open(name)
		if err != nil {
			continue // the corpus holds broken TFFs on purpose
		}
		for _, r := range f.Records {
			form := &Format{Desc: r.Desc, Fmts: r.Fmts}
			for range 8 {
				data := make([]byte, rng.IntN(64))
				for i := range data {
					data[i] = byte(rng.IntN(256))
				}
				if rng.IntN(2) == 0 && len(data) > 3 { // a valid prefix
					data[0], data[1], data[2] = byte(rng.IntN(2)), byte(len(data)-3), 0
				}
				rec := &stda.Record{Flags: byte(rng.IntN(256)), Major: uint8(f.Major), Minor: r.Minor, Data: data, PID: uint16(rng.IntN(3))}
				if got, want := Apply(rec, form), refApply(rec, form); !reflect.DeepEqual(got, want) {
					t.Fatalf("%s minor %04X, data % x: Apply gives %#v, byte by byte %#v", name, r.Minor, data, got, want)
				}
				sameBlock(t, rec, form)
				n++
			}
		}
	}
	t.Logf("%d records formatted through %d TFFs", n, len(files))
}

// refApply is Apply with refRun in place of the compiled lines.
func refApply(rec *stda.Record, f *Format) Result {
	st := &state{}
	st.start(rec)
	lines := []string{string(trimEnd(f.Desc))}
	for _, ln := range splitLines(f.Fmts) {
		st.line++
		st.out = st.out[:0]
		st.refRun(ln)
		lines = append(lines, string(st.out))
		if st.stopped {
			break
		}
	}
	return Result{Lines: lines, Stopped: st.stopped, Diags: st.diags}
}

// refRun formats one FMT line onto s.out byte by byte, as the formatter
// did before its lines were compiled (compileLine): the oracle of
// FuzzApply.
func (s *state) refRun(ln []byte) {
	for j := 0; j < len(ln) && !s.stopped; {
		if ln[j] != tff.Ctrl {
			k := bytes.IndexByte(ln[j:], tff.Ctrl)
			if k < 0 {
				k = len(ln) - j
			}
			s.out = append(s.out, ln[j:j+k]...)
			j += k
			continue
		}
		if j+1 >= len(ln) {
			s.diag(s.pos, "control byte 0x01 at the end of the line")
			return
		}
		op := ln[j+1]
		j += 2
		switch op {
		case tff.CtrlByte, tff.CtrlWord, tff.CtrlDword, tff.CtrlFlat, tff.CtrlQuad, tff.CtrlSegmented, tff.CtrlChar:
			if s.need(dataSize(op), op) {
				s.value(op)
			}
		case tff.CtrlPrefix:
			s.prefix()
		case tff.CtrlString:
			s.str()
		case tff.CtrlRest:
			s.out = appendHexBytes(s.out, s.data[s.pos:])
			s.pos = len(s.data)
			s.fresh = false
		case tff.CtrlMajor:
			s.out = appendHex(s.out, uint64(s.rec.Major), 4)
		case tff.CtrlMinor:
			s.out = appendHex(s.out, uint64(s.rec.Minor), 4)
		case tff.CtrlIgnore:
			j = s.refIgnore(ln, j)
		case tff.CtrlRepeat:
			if j+1 < len(ln) && ln[j] == tff.Ctrl && dataSize(ln[j+1]) > 0 {
				s.repeat(ln[j+1])
				j += 2
			} else {
				s.diag(s.pos, "%%R is not followed by a value control (B W D F Q A C); ignored")
			}
		default:
			s.diag(s.pos, "unknown control 0x01 %q; ignored", op)
		}
	}
}

// refIgnore handles %I for refRun: it reads the decimal count at ln[j:] and the blank
// that ends it, skips that many data bytes and returns the new j.
func (s *state) refIgnore(ln []byte, j int) int {
	n, digits := 0, 0
	for j < len(ln) && ln[j] >= '0' && ln[j] <= '9' {
		if n < maxSkip {
			n = n*10 + int(ln[j]-'0')
		}
		j++
		digits++
	}
	if digits == 0 {
		s.diag(s.pos, "%%I without a decimal count; ignored")
		return j
	}
	if j < len(ln) && ln[j] == ' ' {
		j++
	}
	if left := len(s.data) - s.pos; n > left {
		s.diag(s.pos, "data too short: %%I%d skips %d bytes, %d left", n, n, left)
		s.short()
		return j
	}
	s.pos += n
	s.fresh = false
	return j
}
