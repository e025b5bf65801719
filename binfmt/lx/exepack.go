package lx

import "encoding/binary"

// UnpackIterated expands EXEPACK1 data (page flag 1, "iterated data page")
// from src into dst and returns the number of bytes written. The data is a
// sequence of iteration records: a 16-bit repeat count, a 16-bit pattern
// length and the pattern, which is written count times. A record with a
// zero count or a zero length writes nothing. The records must not expand
// past len(dst); bytes of dst after the last one are left as they are (the
// caller passes a zeroed page). The same record format serves NE iterated
// segments.
//
// An error is a *FormatError whose Off is the offset in src of the bad
// record.
func UnpackIterated(dst, src []byte) (int, error) {
	d, s := 0, 0
	for s < len(src) {
		rec := s
		if len(src)-s < 4 {
			return d, &FormatError{Off: int64(rec), Msg: "iteration record header cut short"}
		}
		count := int(binary.LittleEndian.Uint16(src[s:]))
		size := int(binary.LittleEndian.Uint16(src[s+2:]))
		s += 4
		if size > len(src)-s {
			return d, &FormatError{Off: int64(rec), Msg: "iteration record pattern runs past the page data"}
		}
		pat := src[s : s+size]
		s += size
		if count == 0 || size == 0 {
			continue
		}
		if count*size > len(dst)-d {
			return d, &FormatError{Off: int64(rec), Msg: "iteration record expands past the end of the page"}
		}
		for range count {
			d += copy(dst[d:], pat)
		}
	}
	return d, nil
}

// UnpackCompressed expands EXEPACK2 data (page flag 5, "compressed page")
// from src into dst and returns the number of bytes written. The encoding
// is described in docs/lx.md: each token starts with a byte whose two low
// bits choose a literal run or fill (0), a short back-reference with up to
// 3 literals (1), a back-reference (2), or a long back-reference with up to
// 15 literals (3). A fill token with a zero count ends the data. Copies are
// made byte by byte, so a back-reference may overlap the bytes it writes.
// Output never passes len(dst); the rest of dst is left as it is.
//
// An error is a *FormatError whose Off is the offset in src of the bad
// token.
func UnpackCompressed(dst, src []byte) (int, error) {
	d, s := 0, 0
	bad := func(at int, msg string) (int, error) {
		return d, &FormatError{Off: int64(at), Msg: msg}
	}
	literal := func(at, n int) error {
		if n > len(src)-s {
			return &FormatError{Off: int64(at), Msg: "literal bytes run past the page data"}
		}
		if n > len(dst)-d {
			return &FormatError{Off: int64(at), Msg: "literal bytes expand past the end of the page"}
		}
		d += copy(dst[d:], src[s:s+n])
		s += n
		return nil
	}
	backref := func(at, dist, n int) error {
		if dist == 0 || dist > d {
			return &FormatError{Off: int64(at), Msg: "back-reference before the start of the page"}
		}
		if n > len(dst)-d {
			return &FormatError{Off: int64(at), Msg: "back-reference expands past the end of the page"}
		}
		for i := 0; i < n; i++ { // byte by byte: the source may overlap the output
			dst[d] = dst[d-dist]
			d++
		}
		return nil
	}
	for s < len(src) {
		at := s
		b0 := int(src[s])
		switch b0 & 3 {
		case 0:
			if b0 != 0 { // literal run of b0>>2 bytes
				s++
				if err := literal(at, b0>>2); err != nil {
					return d, err
				}
				continue
			}
			if len(src)-s < 2 {
				return bad(at, "fill token cut short")
			}
			n := int(src[s+1])
			if n == 0 { // end of data
				return d, nil
			}
			if len(src)-s < 3 {
				return bad(at, "fill token cut short")
			}
			if n > len(dst)-d {
				return bad(at, "fill expands past the end of the page")
			}
			fill := src[s+2]
			for i := 0; i < n; i++ {
				dst[d+i] = fill
			}
			d += n
			s += 3
		case 1:
			if len(src)-s < 2 {
				return bad(at, "short back-reference token cut short")
			}
			b1 := int(src[s+1])
			lits := (b0 >> 2) & 3
			n := (b0>>4)&7 + 3
			dist := b1<<1 | b0>>7
			s += 2
			if err := literal(at, lits); err != nil {
				return d, err
			}
			if err := backref(at, dist, n); err != nil {
				return d, err
			}
		case 2:
			if len(src)-s < 2 {
				return bad(at, "back-reference token cut short")
			}
			b1 := int(src[s+1])
			n := (b0>>2)&3 + 3
			dist := b1<<4 | b0>>4
			s += 2
			if err := backref(at, dist, n); err != nil {
				return d, err
			}
		case 3:
			if len(src)-s < 3 {
				return bad(at, "long back-reference token cut short")
			}
			b1, b2 := int(src[s+1]), int(src[s+2])
			lits := (b0 >> 2) & 15
			n := (b1&15)<<2 | b0>>6
			dist := b2<<4 | b1>>4
			s += 3
			if err := literal(at, lits); err != nil {
				return d, err
			}
			if n > 0 {
				if err := backref(at, dist, n); err != nil {
					return d, err
				}
			}
		}
	}
	return d, nil
}
