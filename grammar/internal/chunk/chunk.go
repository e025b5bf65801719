// Package chunk hands out syntax-tree nodes and byte slices from larger
// allocations, so that a parser that makes many small nodes a line costs a
// fraction of an allocation a node. Chunks are not reused unless told
// (Reset): the nodes stay valid as long as anything points at them, so a
// lowering may keep them.
package chunk

// Of hands out values of T, 64 to an allocation. A nil *Of allocates each
// value on its own.
type Of[T any] struct{ free, last []T }

// New returns a pointer to v's copy.
func (c *Of[T]) New(v T) *T {
	if c == nil {
		x := new(T)
		*x = v
		return x
	}
	if len(c.free) == 0 {
		c.last = make([]T, 64)
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
	return cut(&a.free, nil, n, 1024, 4096)
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

// Kept hands out values of T as Of does and keeps its allocations, which
// Rewind hands out again: for storage that is filled again and again with
// about as many values (a batch of lines), and so stops allocating once it
// has grown. Its zero value is ready to use.
type Kept[T any] struct {
	of    Of[T]
	kept  [][]T // the allocations, in the order they were made
	queue [][]T // those of kept not handed out again since Rewind
}

// New returns a pointer to v's copy.
func (k *Kept[T]) New(v T) *T {
	if len(k.of.free) == 0 {
		k.grow()
	}
	return k.of.New(v)
}

// grow gives of the next allocation to hand out values from: one kept, or
// a new one.
func (k *Kept[T]) grow() {
	if len(k.queue) > 0 {
		k.of.last, k.queue = k.queue[0], k.queue[1:]
	} else {
		k.of.last = make([]T, 64)
		k.kept = append(k.kept, k.of.last)
	}
	k.of.free = k.of.last
}

// Rewind hands out the values of every allocation again, in the order they
// were first handed out. Values New returned before must no longer be
// used. The values are not cleared: what they point to stays reachable
// until they are handed out again.
func (k *Kept[T]) Rewind() { k.of.free, k.of.last, k.queue = nil, nil, k.kept }

// KeptBytes hands out byte slices as Bytes does and keeps its 4 KiB
// allocations, which Rewind hands out again, as Kept does. Its zero value
// is ready to use.
type KeptBytes struct {
	b     Bytes
	kept  [][]byte
	queue [][]byte
}

// Make returns an empty slice with capacity n.
func (k *KeptBytes) Make(n int) []byte {
	if n <= keptMost && len(k.b.free) < n {
		if len(k.queue) > 0 {
			k.b.free, k.queue = k.queue[0], k.queue[1:]
		} else {
			k.b.free = make([]byte, keptSize)
			k.kept = append(k.kept, k.b.free)
		}
	}
	return k.b.Make(n)
}

// Rewind hands out the room of every 4 KiB allocation again. Slices Make
// returned before must no longer be used.
func (k *KeptBytes) Rewind() { k.b.free, k.queue = nil, k.kept }

// Bytes makes slices of more than keptMost bytes on their own, the others
// from allocations of keptSize (Bytes.Make's figures).
const (
	keptMost = 1024
	keptSize = 4096
)
