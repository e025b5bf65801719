package tsf

import "testing"

// TestRegister: the names TRCUST 3.05A knows, in either case, their width,
// and which are segment registers.
func TestRegister(t *testing.T) {
	for _, tc := range []struct {
		name     string
		wide, ok bool
		seg      bool
	}{
		{"EAX", true, true, false}, {"esp", true, true, false}, {"EIP", true, true, false}, {"eFlags", true, true, false},
		{"AX", false, true, false}, {"ip", false, true, false}, {"FLAGS", false, true, false},
		{"ES", false, true, true}, {"gs", false, true, true}, {"Cs", false, true, true},
		{"AL", false, false, false}, {"EAXX", false, false, false}, {"", false, false, false}, {"CR0", false, false, false},
	} {
		wide, ok := Register(tc.name)
		if wide != tc.wide || ok != tc.ok || SegmentRegister(tc.name) != tc.seg {
			t.Errorf("%q: Register = %v, %v; SegmentRegister = %v; want %v, %v, %v", tc.name, wide, ok, SegmentRegister(tc.name), tc.wide, tc.ok, tc.seg)
		}
	}
}
