package tdfgen

// crtSort sorts n elements as TRCUST 3.05A sorts its tracepoints by
// address (IBM's behaviour, worked out from its duplicate-address messages
// on 27 generated programs of 2 to 14 tracepoints, which it matches all):
// a quicksort that takes the first element of each part as the pivot,
// scans from the left past elements not above it and from the right past
// elements not below it, swaps the two it stops at, and finally swaps the
// pivot into place. It is not stable, and which of two tracepoints at one
// address it puts first is the one TRCUST keeps, so the order it leaves
// equal elements in is part of TRCUST's output.
//
// less reports whether element i sorts before element j; swap exchanges
// them.
func crtSort(n int, less func(i, j int) bool, swap func(i, j int)) {
	type span struct{ lo, hi int }
	stack := []span{{0, n - 1}}
	for len(stack) > 0 {
		lo, hi := stack[len(stack)-1].lo, stack[len(stack)-1].hi
		stack = stack[:len(stack)-1]
		if hi <= lo {
			continue
		}
		l, h := lo, hi+1
		for {
			for l++; l <= hi && !less(lo, l); l++ { // a[l] <= pivot
			}
			for h--; h > lo && !less(h, lo); h-- { // a[h] >= pivot
			}
			if h < l {
				break
			}
			swap(l, h)
		}
		if h != lo {
			swap(lo, h)
		}
		stack = append(stack, span{lo, h - 1}, span{l, hi})
	}
}

// CRTSort sorts n elements with TRCUST 3.05A's quicksort (crtSort), for the
// other tables TRCUST sorts with it (the .TMI records, lower/tmigen).
func CRTSort(n int, less func(i, j int) bool, swap func(i, j int)) { crtSort(n, less, swap) }
