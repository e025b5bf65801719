package tdf

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
)

// oracleSeeds returns every distinct oracle TDF, read at run time from the
// shared folder (nothing is copied into testdata).
func oracleSeeds(f *testing.F) [][]byte {
	if corpus.Root() == "" {
		return nil
	}
	dir := corpus.Path(f, "corpus", "os2", "trcust-oracle")
	var out [][]byte
	seen := map[string]bool{}
	for _, pat := range []string{"*.TDF", "*.tdf"} {
		paths, _ := filepath.Glob(filepath.Join(dir, "*", pat))
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			if !seen[string(data)] {
				seen[string(data)] = true
				out = append(out, data)
			}
		}
	}
	return out
}

// FuzzParse: Parse never panics; what it accepts writes back to the same
// bytes, and its views do not fail.
func FuzzParse(f *testing.F) {
	for _, s := range oracleSeeds(f) {
		f.Add(s)
	}
	ex, err := synthFile().MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(ex)
	f.Add([]byte(Magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse(data)
		if err != nil {
			if _, ok := err.(*FormatError); !ok {
				t.Fatalf("not a FormatError: %v", err)
			}
			return
		}
		out, err := file.MarshalBinary()
		if err != nil {
			t.Fatalf("MarshalBinary of a parsed file: %v", err)
		}
		if !bytes.Equal(out, data) {
			t.Fatalf("Parse accepted a file that does not write back the same\n in %x\nout %x", data, out)
		}
		if err := file.WriteText(io.Discard); err != nil {
			t.Fatal(err)
		}
		if _, err := json.Marshal(file); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzDisassemble: Disassemble never panics; the instructions it returns
// cover the program up to the error without gaps, and re-encode to the
// same bytes; Check and Decompile never panic, and Decompile's statements
// lie inside the program, in order.
func FuzzDisassemble(f *testing.F) {
	for _, s := range oracleSeeds(f) {
		if file, err := Parse(s); err == nil {
			for _, tp := range file.Tracepoints {
				f.Add(tp.RPN)
			}
		}
	}
	f.Add(synthFile().Tracepoints[0].RPN)
	f.Fuzz(func(t *testing.T, rpn []byte) {
		ops, err := Disassemble(rpn)
		var re []byte
		for _, op := range ops {
			if op.Off != len(re) {
				t.Fatalf("op %v at %d, want %d", op, op.Off, len(re))
			}
			re = append(re, byte(op.Code))
			switch op.Code.OperandSize() {
			case 1:
				re = append(re, byte(op.Arg))
			case 2:
				re = le.AppendUint16(re, uint16(op.Arg))
			case 4:
				re = le.AppendUint32(re, op.Arg)
			}
			_ = op.String()
			if op.Code.IsRegister() && op.Width != 16 && op.Width != 32 {
				t.Fatalf("register push %v without a width", op)
			}
		}
		if !bytes.Equal(re, rpn[:len(re)]) {
			t.Fatalf("re-encoded % x, program % x", re, rpn)
		}
		fe, isFE := err.(*FormatError)
		switch {
		case err == nil && len(re) != len(rpn):
			t.Fatalf("no error, but only %d of %d bytes decoded", len(re), len(rpn))
		case err != nil && (!isFE || fe.Off < int64(len(re)) || fe.Off > int64(len(rpn))):
			t.Fatalf("error %v after %d bytes", err, len(re))
		}
		_ = Check(ops)
	})
}
