package main

import "testing"

// TestMemoryTunerLimit: the soft limit stays at its floor while a
// collection leaves at most nine tenths of it live, and follows twice the
// live heap beyond, so that a program larger than the limit is not
// collected without end.
func TestMemoryTunerLimit(t *testing.T) {
	tn := &memoryTuner{floor: 48 << 20}
	for _, tc := range []struct {
		live, want int64
		change     bool
	}{
		{0, 48 << 20, false},
		{41 << 20, 48 << 20, false}, // 65,535 static tracepoints: the limit holds
		{(48 << 20) / 10 * 9, 48 << 20, false},
		{(48<<20)/10*9 + 1, 2 * ((48<<20)/10*9 + 1), true},
		{230 << 20, 460 << 20, true}, // 65,535 dynamic tracepoints
	} {
		got, change := tn.limitFor(tc.live)
		if got != tc.want || change != tc.change {
			t.Errorf("limitFor(%d) = %d, %v; want %d, %v", tc.live, got, change, tc.want, tc.change)
		}
	}
}
