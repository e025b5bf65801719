// Package chunk hands out syntax-tree nodes and byte slices from larger
// allocations, so that a parser that makes many small nodes a line costs a
// fraction of an allocation a node. Chunks are never reused: the nodes stay
// valid as long as anything points at them, so a lowering may keep them.
package chunk

// Of hands out values of T, 64 to an allocation. A nil *Of allocates each
// value on its own.
type Of[T any] struct{ free []T }

// New returns a pointer to v's copy.
func (c *Of[T]) New(v T) *T {
	if c == nil {
		x := new(T)
		*x = v
		return x
	}
	if len(c.free) == 0 {
		c.free = make([]T, 64)
	}
	x := &c.free[0]
	c.free = c.free[1:]
	*x = v
	return x
}

// Slices hands out empty slices of T with room for n elements (their
// capacity is n: appending more moves them). A nil *Slices makes each.
type Slices[T any] struct{ free []T }

// Make returns an empty slice with capacity n.
func (s *Slices[T]) Make(n int) []T {
	if s == nil {
		return make([]T, 0, n)
	}
	return cut(&s.free, n, 64, 256)
}

// Bytes hands out byte slices from 4 KiB allocations. A nil *Bytes makes
// each.
type Bytes struct{ free []byte }

// Copy returns a copy of b.
func (a *Bytes) Copy(b []byte) []byte {
	x := a.Make(len(b))
	return append(x, b...)
}

// CopyString returns the bytes of s.
func (a *Bytes) CopyString(s string) []byte {
	x := a.Make(len(s))
	return append(x, s...)
}

// Make returns an empty slice with capacity n.
func (a *Bytes) Make(n int) []byte {
	if a == nil {
		return make([]byte, 0, n)
	}
	return cut(&a.free, n, 1024, 4096)
}

// cut returns an empty slice with capacity n from the front of *free,
// which it first makes size long when it is too short; a slice of more than
// most elements is made on its own.
func cut[T any](free *[]T, n, most, size int) []T {
	if n > most {
		return make([]T, 0, n)
	}
	if len(*free) < n {
		*free = make([]T, size)
	}
	x := (*free)[:0:n]
	*free = (*free)[n:]
	return x
}
