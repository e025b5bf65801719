package lx

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tracekit/tracekit/ast/corpus"
)

// addSeeds adds a small synthetic module with every page and entry kind
// and, when the shared corpus is there, the small real modules (the large
// emitrep DLL would make each minimisation step slow).
func addSeeds(f *testing.F) {
	small := testModule(2, false)
	for i := range small.objects {
		for k := range small.objects[i].pages {
			if d := small.objects[i].pages[k].data; len(d) > 64 {
				small.objects[i].pages[k].data = d[:64]
			}
		}
	}
	f.Add(small.build())
	if root := corpus.Root(); root != "" {
		for _, elem := range realModules[1:] {
			if b, err := os.ReadFile(filepath.Join(append([]string{root}, elem...)...)); err == nil && len(b) < 8192 {
				f.Add(b)
			}
		}
	}
}

// FuzzNewFile reads arbitrary input as an LX module: no panic, no hang,
// errors are FormatErrors, and every object reads without a panic.
func FuzzNewFile(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := NewFile(bytes.NewReader(data))
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("NewFile error is not a *FormatError: %v", err)
			}
			return
		}
		m.Exports()
		for i, o := range m.Objects {
			if i == 8 {
				break
			}
			n := int(min(o.VirtualSize, 3*m.PageSize))
			if b, err := m.ReadObject(o.Number, 0, n); err == nil && len(b) != n {
				t.Fatalf("object %d: %d bytes, want %d", o.Number, len(b), n)
			}
			if o.VirtualSize > 0 {
				m.ReadObject(o.Number, o.VirtualSize-1, 1)
			}
		}
	})
}

// FuzzUnpack feeds arbitrary page data to both decoders.
func FuzzUnpack(f *testing.F) {
	f.Add(encodeCompressed(words(4096)))
	f.Add(encodeIterated(pattern(4096, 7)))
	f.Add(cat(prefix291, 0xC7, 0x35, 0x12, "Q"))
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, unpack := range []func(dst, src []byte) (int, error){UnpackIterated, UnpackCompressed} {
			dst := make([]byte, 4096)
			n, err := unpack(dst, src)
			if n < 0 || n > len(dst) {
				t.Fatalf("wrote %d bytes into a %d-byte page (err %v)", n, len(dst), err)
			}
		}
	})
}

// FuzzRoundTrip encodes arbitrary pages with the test encoders and checks
// that the decoders give them back.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte("push ebp; mov ebp,esp; push ebp; mov ebp,esp"))
	f.Add(bytes.Repeat([]byte{0xCC}, 300))
	f.Fuzz(func(t *testing.T, page []byte) {
		if len(page) > 4096 {
			page = page[:4096]
		}
		for name, c := range map[string]struct {
			enc func([]byte) []byte
			dec func(dst, src []byte) (int, error)
		}{"EXEPACK1": {encodeIterated, UnpackIterated}, "EXEPACK2": {encodeCompressed, UnpackCompressed}} {
			dst := make([]byte, 4096)
			n, err := c.dec(dst, c.enc(page))
			if err != nil || !bytes.Equal(dst[:n], page) {
				t.Fatalf("%s round trip: %d bytes, %v", name, n, err)
			}
		}
	})
}
