// Package pgenrt is the run time of the parsers that grammar/internal/pgen
// generates: the state of a parse branch with participle's rules for the
// deepest error, the table-driven lexer, the tokens of one parse and the
// errors a parse returns (participle's own types). A generated
// parsers_gen.go holds only what its grammar adds: the tables of its
// lexers and one function a grammar node.
//
// Nothing here uses reflection or regular expressions; the small methods
// the generated code calls at every token are written to be inlined.
package pgenrt

// Err is a parse error not yet made an error value: the token it is at
// and the index of what was expected in the parser's table of "expected"
// texts (-1: nothing named). On is false for no error, and the Err is
// then zero: a parse function returns its Err on when it failed, and
// the zero Err, with whether it matched, when it did not.
type Err struct {
	On     bool
	Tok    int32
	Expect int32
}

// State is the state of one parse branch: the token cursor and the
// deepest error seen, as participle tracks them. A branch is tried on a
// copy of its parent's State.
type State struct {
	Cur    int
	derr   Err
	ddepth int
}

// Fail returns the error at the cursor, expect naming what was expected.
func (c *State) Fail(expect int32) Err {
	return Err{On: true, Tok: int32(c.Cur), Expect: expect}
}

// Miss returns the error of a sequence whose item at the cursor failed
// with e, or, when e is off, did not match: expect names what was expected.
func (c *State) Miss(e Err, expect int32) Err {
	if e.On {
		return e
	}
	return c.Fail(expect)
}

// Close returns the result of the parse of a struct's expression, m and
// e, recording e as the deepest error when it is one.
func (c *State) Close(m bool, e Err) (bool, Err) {
	if e.On {
		c.MaybeUpdate(e)
		return true, e
	}
	return m, Err{}
}

// MaybeUpdate records err as the deepest error when the cursor is at
// least as deep as the one recorded.
func (c *State) MaybeUpdate(err Err) {
	if c.Cur >= c.ddepth {
		c.derr = err
		c.ddepth = c.Cur
	}
}

// Accept takes the cursor of branch b, and its deepest error when it is
// at least as deep.
func (c *State) Accept(b *State) {
	c.Cur = b.Cur
	if b.ddepth >= c.ddepth {
		c.ddepth = b.ddepth
		c.derr = b.derr
	}
}

// Stop records the error err of the failed branch b and reports whether
// the branch went further than the lookahead allows, accepting it then.
func (c *State) Stop(err Err, b *State, lookahead int) bool {
	if b.ddepth > c.ddepth {
		c.derr = b.derr
		c.ddepth = b.ddepth
	} else if b.Cur >= c.ddepth {
		c.derr = err
		c.ddepth = max(b.Cur, b.ddepth)
	}
	if b.Cur > c.Cur+lookahead {
		c.Accept(b)
		return true
	}
	return false
}

// Deepest returns the deepest error when it lies beyond the cursor, else err.
func (c *State) Deepest(err Err) Err {
	if c.Cur >= c.ddepth || !c.derr.On {
		return err
	}
	return c.derr
}

// slabChunk is how many values a Slab allocates at a time.
const slabChunk = 32

// Slab hands out values of T from chunks it keeps from parse to parse. Its
// zero value is ready to use.
type Slab[T any] struct {
	chunks [][]T
	i, n   int
}

// Reset makes every value handed out since the last Reset free again.
func (s *Slab[T]) Reset() { s.i, s.n = 0, 0 }

// Alloc returns a value of T, as it was left by its last use.
func (s *Slab[T]) Alloc() *T {
	if len(s.chunks) == 0 {
		s.chunks = append(s.chunks, make([]T, slabChunk))
	}
	if s.n == len(s.chunks[s.i]) {
		s.i, s.n = s.i+1, 0
		if s.i == len(s.chunks) {
			s.chunks = append(s.chunks, make([]T, slabChunk))
		}
	}
	x := &s.chunks[s.i][s.n]
	s.n++
	return x
}

// Tree returns out, or nil and err when err is not nil: the result of a
// ParseString that parsed into out.
func Tree[T any](out *T, err error) (*T, error) {
	if err != nil {
		return nil, err
	}
	return out, nil
}

// expected returns the "expected" text of e from a parser's table.
func expected(e Err, expect []string) string {
	if e.Expect < 0 {
		return ""
	}
	return expect[e.Expect]
}
