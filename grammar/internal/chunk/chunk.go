// Package chunk hands out syntax-tree nodes and byte slices from larger
// allocations, so that a parser that makes many small nodes a line costs a
// fraction of an allocation a node. Chunks are not reused unless told
// (Reset, Rewind): the nodes stay valid as long as anything points at them,
// so a lowering may keep them.
package chunk

// Of hands out values of T, 64 to an allocation. A nil *Of allocates each
// value on its own. An Of whose Keep is set keeps its allocations, which
// Rewind hands out again.
type Of[T any] struct {
	free, last []T
	// Keep makes Of keep every allocation it makes, for Rewind: storage
	// that is filled again and again with about as many values (a batch
	// of lines), and so stops allocating once it has grown.
	Keep bool
	kept [][]T // Keep: the allocations, in the order they were made
	used int   // Keep: how many of kept were handed out since Rewind
}

// New returns a pointer to v's copy.
func (c *Of[T]) New(v T) *T {
	if c == nil {
		x := new(T)
		*x = v
		return x
	}
	if len(c.free) == 0 {
		switch {
		case !c.Keep:
			c.last = make([]T, 64)
		case c.used < len(c.kept):
			c.last = c.kept[c.used]
			c.used++
		default:
			c.last = make([]T, 64)
			c.kept = append(c.kept, c.last)
			c.used++
		}
		c.free = c.last
	}
	x := &c.free[0]
	c.free = c.free[1:]
	*x = v
	return x
}

// Reset hands out the values of the last allocation again: for a parser
// whose nodes are not used once it parses its next line, so that lines
// cost no allocations. Values New returned before must no longer be used.
func (c *Of[T]) Reset() { c.free = c.last }

// Rewind hands out the values of every allocation a Keep Of made again, in
// the order they were first handed out. Values New returned before must no
// longer be used. The values are not cleared: what they point to stays
// reachable until they are handed out again.
func (c *Of[T]) Rewind() { c.free, c.last, c.used = nil, nil, 0 }

// Slices hands out empty slices of T with room for n elements (their
// capacity is n: appending more moves them). A nil *Slices makes each.
type Slices[T any] struct{ free, last []T }

// Make returns an empty slice with capacity n.
func (s *Slices[T]) Make(n int) []T {
	if s == nil {
		return make([]T, 0, n)
	}
	return cut(&s.free, &s.last, n, 64, 256)
}

// Reset hands out the room of the last allocation again, as Of.Reset
// does.
func (s *Slices[T]) Reset() { s.free = s.last }

// Bytes hands out byte slices from 4 KiB allocations. A nil *Bytes makes
// each. A Bytes whose Keep is set keeps its 4 KiB allocations, which Rewind
// hands out again, as Of does.
type Bytes struct {
	free []byte
	Keep bool     // keep every 4 KiB allocation, for Rewind
	kept [][]byte // Keep: the allocations, in the order they were made
	used int      // Keep: how many of kept were handed out since Rewind
}

// A Bytes makes slices of more than bytesMost on their own, the others
// from allocations of bytesSize.
const (
	bytesMost = 1024
	bytesSize = 4096
)

// Rewind hands out the room of every 4 KiB allocation a Keep Bytes made
// again. Slices Make returned before must no longer be used.
func (a *Bytes) Rewind() { a.free, a.used = nil, 0 }

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
	if a.Keep && n <= bytesMost && len(a.free) < n {
		if a.used == len(a.kept) {
			a.kept = append(a.kept, make([]byte, bytesSize))
		}
		a.free = a.kept[a.used]
		a.used++
	}
	return cut(&a.free, nil, n, bytesMost, bytesSize)
}

// cut returns an empty slice with capacity n from the front of *free,
// which it first makes size long when it is too short (keeping the new
// allocation in *last, when last is not nil, for Reset); a slice of more
// than most elements is made on its own.
func cut[T any](free, last *[]T, n, most, size int) []T {
	if n > most {
		return make([]T, 0, n)
	}
	if len(*free) < n {
		*free = make([]T, size)
		if last != nil {
			*last = *free
		}
	}
	x := (*free)[:0:n]
	*free = (*free)[n:]
	return x
}
