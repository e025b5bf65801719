package tsfparse

import (
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/tracekit/tracekit/ast/tsf"
)

// This file turns participle's parse structures into the typed tree of
// ast/tsf. What is wrong with the shape of a construct (a malformed number,
// a register term after a displacement, a '*' after DIRECT) is reported
// here; what is wrong with its meaning (an unknown register, a length out
// of range) is left to the checker.

// parseNumber reads a TSF number: decimal, or hexadecimal after 0x. A
// leading zero stays decimal (the reference's own samples write ID=08 for
// 8). Values must fit in 32 bits, and their digits in as many as a 32-bit
// number has.
func parseNumber(text string) (uint64, string) {
	digits, base := text, 10
	if len(text) >= 2 && (text[:2] == "0x" || text[:2] == "0X") {
		if len(text) == 2 {
			// IBM's behaviour: "0x" with no digits is 0 (OPCODE=0x is
			// compared as 0x00).
			return 0, ""
		}
		digits, base = text[2:], 16
	}
	if base == 16 && len(digits) > 8 || base == 10 && len(digits) > 10 {
		// IBM's behaviour: TRCUST 3.05A counts the digits, leading zeros
		// included, before it reads a value: more than a 32-bit number
		// can have (8 hex, 10 decimal) is out of range whatever they are
		// worth (MINOR=0x000000006 is "minor code out of range", MAJOR=
		// 00000000042 "MAJOR out of range, 1 used").
		return 0, "does not fit in 32 bits"
	}
	v, err := strconv.ParseUint(digits, base, 64)
	switch {
	case err != nil && errorsIsRange(err):
		return 0, "does not fit in 32 bits"
	case err != nil:
		return 0, "not a number"
	case v > 0xFFFFFFFF:
		return 0, "does not fit in 32 bits"
	}
	return v, ""
}

func errorsIsRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// number converts a number token, reporting "number expected" (65) when it
// is malformed.
func (p *parser) number(t *numTok) (*tsf.Number, bool) {
	return p.numberOr(t.Pos, t.Text, tsf.ErrNumber, t.Text)
}

// numberOr converts the number text at pos, reporting code with args when
// it is malformed (TRCUST 3.05A's message depends on where the number
// stands).
func (p *parser) numberOr(pos lexer.Position, text string, code tsf.Code, args ...any) (*tsf.Number, bool) {
	n := &tsf.Number{Pos: astPos(pos), Text: text}
	n.Value, n.Err = parseNumber(text)
	if n.Err != "" {
		d := code.Diagnostic(n.Pos, 0, args...)
		d.Detail = n.Err
		p.add(d)
		return n, false
	}
	return n, true
}

// numberOrZero converts a number token that TRCUST reads as 0 when it is
// malformed (IBM's behaviour: MAJOR=12ab is "MAJOR out of range, 1 used",
// MINOR=0xQ "minor code out of range"): the number keeps its Err, and no
// diagnostic is given here; the range check that follows gives it.
func (p *parser) numberOrZero(t *numTok, at lexer.Position) *tsf.Number {
	if t == nil {
		return &tsf.Number{Pos: astPos(at), Err: "not a number"}
	}
	n := new(tsf.Number)
	numberOrZeroInto(n, t.Pos, t.Text)
	return n
}

// numberOrZeroInto is numberOrZero into *n, for the number text at pos.
func numberOrZeroInto(n *tsf.Number, pos lexer.Position, text string) {
	n.Pos, n.Text = astPos(pos), text
	n.Value, n.Err = parseNumber(text)
	if n.Err != "" {
		n.Value = 0
	}
}

// signed converts the number num after the sign at pos.
func (p *parser) signed(pos lexer.Position, sign string, num *numTok) (*tsf.Signed, bool) {
	n, ok := p.number(num)
	return &tsf.Signed{Pos: astPos(pos), Neg: sign == "-", Num: n}, ok
}

// orbitNumber converts a number of ORBIT, read after the token at after:
// "missing 'number' before" what stands there when it is no number.
func (p *parser) orbitNumber(t *operandTok, after lexer.Position) (*tsf.Number, bool) {
	if t != nil && t.Number != "" {
		// A malformed number too (IBM's behaviour: "ORBIT=(4D,1)").
		return p.numberOr(t.Pos, t.Number, tsf.ErrSyntax, "number", t.Number)
	}
	if tok, ok := p.tokenAt(after, true); ok {
		p.add(tsf.ErrSyntax.Diagnostic(astPos(tok.Pos), 0, "number", tok.Value))
	} else {
		p.readPastEnd()
	}
	return nil, false
}

// readPastEnd notes that TRCUST 3.05A reads on for a token of the field
// being converted and meets the end of the file (IBM's behaviour:
// "ORBIT=(1," and "OPCODE=+" at the end are severe 34; parser.pastEnd).
func (p *parser) readPastEnd() {
	if p.stmtLast && !p.partial {
		p.pastEnd = true
	}
}

// lastPos is the position of the last token a field took.
func lastPos(toks []lexer.Token) tsf.Pos {
	if len(toks) == 0 {
		return tsf.Pos{}
	}
	return astPos(toks[len(toks)-1].Pos)
}

// The fields of a TRACE statement that every tracepoint has are allocated
// each with the node below it, in one allocation: a large TSF makes
// hundreds of thousands.
type (
	minorNode struct {
		tsf.Minor
		num tsf.Number
	}
	tpNode struct {
		tsf.TP
		static tsf.StaticTP
	}
	descNode struct {
		tsf.Desc
		text tsf.String
	}
	fmtNode struct {
		tsf.Fmt
		text tsf.String
	}
)

// field converts one TRACE field; it returns nil after reporting an error.
func (p *parser) field(f *field) tsf.Field {
	switch {
	case f.Minor != nil:
		mn := p.fieldNodes().minors.get()
		m := &mn.Minor
		m.Pos, m.End = astPos(f.Minor.Pos), lastPos(f.Minor.Tokens)
		if len(f.Minor.Tokens) > 0 {
			m.Written = f.Minor.Tokens[0].Value
		}
		v := f.Minor.Value
		switch {
		case v == nil:
			// IBM's behaviour: "MINOR= ," and "MINOR=-1" are "minor code
			// not specified".
			end := f.Minor.Pos
			if len(f.Minor.Tokens) > 0 {
				end = f.Minor.Tokens[len(f.Minor.Tokens)-1].Pos
			}
			m.Bad = &tsf.Word{Pos: astPos(end)}
		case v.Number != "":
			m.Value = &mn.num
			numberOrZeroInto(m.Value, v.Pos, v.Number)
		case v.Symbol != "":
			m.Bad = &tsf.Word{Pos: astPos(v.Pos), Text: "." + v.Symbol}
		default:
			m.Bad = &tsf.Word{Pos: astPos(v.Pos), Text: v.Ident}
		}
		return m
	case f.TP != nil:
		return p.tp(f.TP)
	case f.Opcode != nil:
		v := f.Opcode.Value
		if toks := f.Opcode.Tokens; v == nil && len(toks) > 2 && isSign(toks[len(toks)-1]) {
			if _, ok := p.tokenAt(toks[len(toks)-1].Pos, true); !ok {
				// A sign, then the end of the file: TRCUST reads on for
				// the number (IBM's behaviour).
				p.readPastEnd()
				if p.pastEnd {
					return nil
				}
			}
		}
		if v == nil || v.Number == "" {
			// IBM's behaviour: "OPCODE=abc" and "OPCODE= ," drop the
			// tracepoint without a message.
			at, word := f.Opcode.Pos, ""
			if v != nil {
				at, word = v.Pos, v.Ident
				if v.Symbol != "" {
					word = "." + v.Symbol
				}
			}
			p.add(tsf.ErrOpcodeWord.Diagnostic(astPos(at), 0, word))
			return nil
		}
		// IBM's behaviour: 217, not 65, for OPCODE.
		n, ok := p.numberOr(v.Pos, v.Number, tsf.ErrInvalidNumber, v.Number)
		if !ok {
			return nil
		}
		if f.Opcode.Neg {
			// IBM's behaviour: OPCODE=-1 is taken (and then does not
			// match the byte at the TP); its low byte is compared.
			n.Text = "-" + n.Text
			n.Value = uint64(uint8(-n.Value))
		}
		return &tsf.Opcode{Pos: astPos(f.Opcode.Pos), Value: n, End: lastPos(f.Opcode.Tokens)}
	case f.Type != nil:
		t := &tsf.Type{Pos: astPos(f.Type.Pos), End: lastPos(f.Type.Tokens)}
		for _, n := range f.Type.Names {
			t.Names = append(t.Names, &tsf.Word{Pos: astPos(n.Pos), Text: n.Text})
		}
		return t
	case f.Group != nil:
		return &tsf.Group{Pos: astPos(f.Group.Pos), End: lastPos(f.Group.Tokens),
			Name: &tsf.Word{Pos: astPos(f.Group.Name.Pos), Text: f.Group.Name.Text}}
	case f.Text != nil:
		var s *tsf.String
		var out tsf.Field
		pos, end := astPos(f.Text.Pos), lastPos(f.Text.Tokens)
		if strings.EqualFold(f.Text.Key, "DESC") {
			n := p.fieldNodes().descs.get()
			n.Pos, n.End, n.Text = pos, end, &n.text
			s, out = &n.text, &n.Desc
		} else {
			n := p.fieldNodes().fmts.get()
			n.Pos, n.End, n.Text = pos, end, &n.text
			s, out = &n.text, &n.Fmt
		}
		s.Pos, s.Raw, s.Value = astPos(f.Text.Text.Pos), f.Text.Text.Raw, tsf.Unquote(f.Text.Text.Raw)
		return out
	case f.Len != nil:
		l := &tsf.Len{Pos: astPos(f.Len.Pos), End: lastPos(f.Len.Tokens)}
		var ok bool
		if l.Addr, ok = p.address(f.Len.Addr, true); !ok {
			if l.Addr == nil {
				return nil
			}
			// Checked as far as it was read (tsf.Len.Cut).
			l.Cut = true
			return l
		}
		if l.Flag, ok = p.flag(f.Len.Flag); !ok {
			// The address was read and is checked before the flag's
			// error (tsf.Len.Cut).
			l.Flag, l.Cut = nil, true
		}
		return l
	case f.Regs != nil:
		r := &tsf.Regs{Pos: astPos(f.Regs.Pos), End: lastPos(f.Regs.Tokens)}
		for _, t := range f.Regs.Regs {
			item := &tsf.RegItem{Pos: astPos(t.Pos), Name: t.Name}
			if t.Variable != "" {
				item.Name, item.Variable = t.Variable, true
			} else if t.Name == "" {
				// A '.' alone is a variable with no name (IBM's behaviour:
				// "REGS=(.)" is "symbol not found: ").
				tok, ok := p.tokenAt(t.Pos, false)
				item.Variable = ok && tok.Type == tokSymbol
			}
			r.Regs = append(r.Regs, item)
		}
		return r
	case f.Mem != nil:
		return p.mem(f.Mem)
	case f.Orbit != nil:
		o := &tsf.Orbit{Pos: astPos(f.Orbit.Pos), End: lastPos(f.Orbit.Tokens)}
		// TRCUST 3.05A reads two numbers and a ')' (IBM's behaviour):
		// ORBIT=(1) is "missing 'number' before ')'" (oracle d80),
		// ORBIT=(x,2) and ORBIT=(1,-2) "missing 'number' before" the word
		// or the sign.
		at := f.Orbit.Pos // ORBIT, then '=' and '(' before A
		for range 2 {
			if t, ok := p.tokenAt(at, true); ok {
				at = t.Pos
			}
		}
		var ok bool
		if o.A, ok = p.orbitNumber(f.Orbit.A, at); !ok {
			return nil
		}
		at = f.Orbit.A.Pos
		if f.Orbit.Comma {
			if t, ok := p.tokenAt(at, true); ok {
				at = t.Pos
			}
		}
		if o.B, ok = p.orbitNumber(f.Orbit.B, at); !ok {
			return nil
		}
		if !f.Orbit.Close {
			if t, ok := p.tokenAt(f.Orbit.B.Pos, true); ok {
				p.add(tsf.ErrSyntax.Diagnostic(astPos(t.Pos), 0, ")", t.Value))
			} else {
				p.readPastEnd()
			}
			return nil
		}
		return o
	case f.OpFlag != nil:
		return &tsf.OpFlag{Pos: astPos(f.OpFlag.Pos), Name: strings.ToUpper(f.OpFlag.Name)}
	}
	return nil
}

func (p *parser) tp(f *tpField) tsf.Field {
	if f.At != nil && strings.EqualFold(f.At.File.Text, "STATIC") {
		if f.At.Line != nil {
			// "@STATIC,n": a line number makes no sense here.
			p.add(tsf.ErrUnexpected.Diagnostic(astPos(f.At.Line.Pos), 0, f.At.Line.Text))
			return nil
		}
		n := p.fieldNodes().tps.get()
		n.Pos, n.End = astPos(f.Pos), lastPos(f.Tokens)
		n.static.Pos = astPos(f.At.Pos)
		n.Target = &n.static
		return &n.TP
	}
	tp := &tsf.TP{Pos: astPos(f.Pos), End: lastPos(f.Tokens)}
	switch {
	case f.At != nil:
		lt := &tsf.LineTP{Pos: astPos(f.At.Pos), File: &tsf.Word{Pos: astPos(f.At.File.Pos), Text: f.At.File.Text}}
		if f.At.Line == nil {
			// The line number is required: "@file,linenum" (message 92,
			// which the checker gives: TRCUST 3.05A first looks for the
			// module).
			tp.Target = lt
			return tp
		}
		var ok bool
		if lt.Line, ok = p.number(f.At.Line); !ok {
			return nil
		}
		tp.Target = lt
	default:
		s := f.Symbol
		st := &tsf.SymbolTP{Pos: astPos(s.Pos), Name: &tsf.Word{Pos: astPos(s.Pos), Text: s.Name}}
		for _, o := range s.Offsets {
			if o.Num == nil {
				continue
			}
			if _, err := parseNumber(o.Num.Text); err != "" {
				// IBM's behaviour: TRCUST 3.05A resolves the symbol, then
				// refuses the offset (tsf.SymbolTP.BadOffset; fresh seed
				// 931174), one that is no number as one too large
				// (+4294967296, +00000000004: hand probes, session 21).
				st.BadOffset = new(tsf.Number)
				numberOrZeroInto(st.BadOffset, o.Num.Pos, o.Num.Text)
				break
			}
			off, ok := p.signed(o.Pos, o.Signs[len(o.Signs)-1], o.Num)
			if !ok {
				return nil
			}
			st.Offsets = append(st.Offsets, off)
		}
		if s.RetEP != nil {
			st.RetEP = &tsf.Word{Pos: astPos(s.RetEP.Pos), Text: s.RetEP.Text}
		}
		tp.Target = st
	}
	return tp
}

func (p *parser) mem(f *memField) tsf.Field {
	m := &tsf.Mem{Pos: astPos(f.Pos), End: lastPos(f.Tokens)}
	switch strings.ToUpper(f.Kind) {
	case "MEM32":
		m.Kind = tsf.MEM32
	case "MEM":
		m.Kind = tsf.MEM
	case "ASCIIZ32":
		m.Kind = tsf.ASCIIZ32
	default:
		m.Kind = tsf.ASCIIZ
	}
	var ok bool
	if m.Addr, ok = p.address(f.Addr, false); !ok {
		if m.Addr == nil {
			return nil
		}
		// Checked as far as it was read (tsf.Mem.Cut).
		m.Cut = true
		return m
	}
	if m.Flag, ok = p.flag(f.Flag); !ok {
		// The address was read and is checked before the flag's error
		// (IBM's behaviour: "MEM=(FEBP,I*+-4,4)" is "use segmented Regs
		// with MEM/ASCIIZ"), and so is the flag as far as it was read
		// (tsf.Mem.Cut).
		m.Cut = true
		return m
	}
	l := f.Length
	switch {
	case l.Number != "":
		// IBM's behaviour: a malformed length is a syntax error, given
		// after the address is checked (tsf.Mem.BadLength).
		n := &tsf.Number{Pos: astPos(l.Pos), Text: l.Number}
		if n.Value, n.Err = parseNumber(l.Number); n.Err != "" {
			d := tsf.ErrSyntax.Diagnostic(n.Pos, 0, "data length", l.Number)
			d.Detail = n.Err
			m.BadLength = &d
			return m
		}
		m.Length = n
	case strings.EqualFold(l.Ident, "LEN"):
		m.UseLen = &tsf.Word{Pos: astPos(l.Pos), Text: l.Ident}
	default:
		// IBM's behaviour: a word is "invalid number found", a symbol
		// named without its dot.
		text := l.Ident
		switch {
		case l.Symbol != "":
			text = l.Symbol
		case l.Minus != "":
			text = l.Minus
		}
		d := tsf.ErrInvalidNumber.Diagnostic(astPos(l.Pos), 0, text)
		d.Detail = "the length is a number (or LEN, for MEM and MEM32)"
		m.BadLength = &d
	}
	return m
}

// registerForm reports whether word names a register address form in a
// LEN: F followed by any register name TRCUST 3.05A knows, or R followed
// by a segment register. The flat register is judged after (IBM's
// behaviour, session 18: LEN=(FES,D) and LEN=(FAX+4,D) are "invalid flat
// register specified", LEN=(FAL,D) and LEN=(FEAXX,D) "symbol not found",
// LEN=(FEIP,D) a flat register address; "LEN=(FES" at the end of the
// file is that error and not premature end of file).
func registerForm(word string) bool {
	if len(word) < 2 {
		return false
	}
	// Only a capital F or R (IBM's behaviour, session 18: LEN=(feax,D)
	// and LEN=(rds+si,D) are "symbol not found", LEN=(Feax,D) is not).
	switch word[0] {
	case 'F':
		_, ok := tsf.Register(word[1:])
		return ok
	case 'R':
		return tsf.SegmentRegister(word[1:])
	}
	return false
}

// address converts an address specification into one of the three forms
// of section 1.3.5.15. A word beginning with F is the flat register form
// and one beginning with R the segment register form, as TRCUST reads
// them (oracle e06: FXYZ is "invalid flat register specified: XYZ"). In a
// LEN length_spec the dot of a symbol may be left out (the reference's own
// example LEN=(v_ptr,INDIRECT*+4)): there a word is a register form only
// when it names a real register, and a symbol otherwise.
//
// ok is false when the address breaks: its error is reported, and the
// address is returned as far as TRCUST 3.05A read it (nil when not even its
// base is one), for the checks TRCUST made as it read it (tsf.Mem.Cut).
func (p *parser) address(a *address, inLen bool) (tsf.Address, bool) {
	base := a.Base
	pos := astPos(a.Pos)
	var out tsf.Address
	// A word that begins with a NUL is the empty C string to TRCUST 3.05A
	// (cString): no address outside LEN, "invalid address specified: "
	// with nothing after the colon (IBM's behaviour, fresh seed 1352528:
	// MEM=(<NUL>FESP+8,D,4)); in LEN a symbol, "symbol not found: ".
	noText := base.Number == "" && base.Ident == "" && base.Symbol == ""
	emptyWord := noText && p.identAt(a.Pos.Offset)
	switch {
	case base.Symbol != "" || noText && !emptyWord:
		// A '.' alone is a symbol with no name (the scanner's empty
		// Symbol token).
		out = &tsf.SymbolAddr{Pos: pos, Dot: true, Name: &tsf.Word{Pos: pos, Text: base.Symbol}}
	case base.Number != "" && inLen:
		// A symbol, as whatever LEN's first token is (IBM's behaviour:
		// "LEN=(5,D)" is "symbol not found: 5").
		out = &tsf.SymbolAddr{Pos: pos, Name: &tsf.Word{Pos: pos, Text: base.Number}}
	case base.Number != "":
		// IBM's behaviour: "MEM=(5,D,4)" is "missing 'identifier' before
		// '5'".
		p.add(tsf.ErrSyntax.Diagnostic(pos, 0, identifierWanted, base.Number))
		return nil, false
	case inLen && !registerForm(base.Ident):
		out = &tsf.SymbolAddr{Pos: pos, Name: &tsf.Word{Pos: pos, Text: base.Ident}}
	case emptyWord:
		d := tsf.ErrAddressSpec.Diagnostic(pos, 0, "")
		d.Detail = "the word begins with a NUL byte, which ends it for TRCUST"
		p.add(d)
		return nil, false
	case base.Ident[0] == 'F' || base.Ident[0] == 'f':
		out = &tsf.FlatAddr{Pos: pos, Base: &tsf.Word{Pos: tsf.Pos{File: pos.File, Offset: pos.Offset + 1, Line: pos.Line, Col: pos.Col + 1}, Text: base.Ident[1:]}}
	case base.Ident[0] == 'R' || base.Ident[0] == 'r':
		out = &tsf.SegAddr{Pos: pos, Seg: &tsf.Word{Pos: tsf.Pos{File: pos.File, Offset: pos.Offset + 1, Line: pos.Line, Col: pos.Col + 1}, Text: base.Ident[1:]}}
	default:
		// Outside LEN a symbol needs its dot; a bare word is no address.
		d := tsf.ErrAddressSpec.Diagnostic(pos, 0, base.Ident)
		d.Detail = "a symbol is written .name, a flat register address F<reg>, a segment register address R<sreg>"
		p.add(d)
		return nil, false
	}
	return p.terms(out, a.Terms, inLen)
}

// identAt reports whether the token of the statement being parsed at
// offset off is a word (tokIdent), whatever its value.
func (p *parser) identAt(off int) bool {
	for i := range p.stmt {
		if t := &p.stmt[i]; t.Pos.Offset == off {
			return t.Type == tokIdent
		}
	}
	return false
}

// terms fills in an address's terms as TRCUST 3.05A reads them (IBM's
// behaviour, tried with its binary on each form and term):
//   - A symbol's address takes displacements. Signs in a row are one sign,
//     the last (".x+-4" is .x-4, ".x--4" too), and a sign before what is
//     no number ends the address: ".x+,D,4" is .x, and ".x+EAX" is "missing
//     ',' before 'EAX'" (the address is over, a ',' is wanted).
//   - A register form takes index registers and displacements in any
//     order (FEBP+4+EAX is FEBP+EAX+4: the registers are added first).
//     After a sign it wants a number or a register: "missing 'number'
//     before" anything else, a second sign too.
//   - Either takes one "(i)" term, with a sign or without, last; LEN takes
//     none ("missing ',' before '('"). The term holds a number ("missing
//     'number' before") and its ')' ("missing ')' before").
//
// On an error it reports it and returns the address with the terms read
// before it, and false. It reports none when the error is the end of the
// file, which is the parser's premature end (34).
func (p *parser) terms(out tsf.Address, terms []*term, inLen bool) (tsf.Address, bool) {
	var regs []*tsf.SignedReg
	var disps []*tsf.Signed
	var ind *tsf.Signed
	_, isSym := out.(*tsf.SymbolAddr)
	done := func() tsf.Address {
		switch a := out.(type) {
		case *tsf.SymbolAddr:
			a.Disps, a.Indirect = disps, ind
		case *tsf.FlatAddr:
			a.Index, a.Disps, a.Indirect = regs, disps, ind
		case *tsf.SegAddr:
			a.Regs, a.Disps, a.Indirect = regs, disps, ind
		}
		return out
	}
	// fail reports "missing 'want' before" the token at or after pos
	// (after it when after is set).
	fail := func(want string, pos lexer.Position, after bool) (tsf.Address, bool) {
		if tok, ok := p.tokenAt(pos, after); ok {
			p.add(tsf.ErrSyntax.Diagnostic(astPos(tok.Pos), 0, want, tok.Value))
		}
		return done(), false
	}
	for _, t := range terms {
		if ind != nil {
			// Nothing may follow the (i) displacement.
			return fail(",", t.Pos, false)
		}
		paren := t.Bare
		if t.Sign != "" {
			paren = t.Paren
		}
		neg := t.Sign == "-"
		switch {
		case paren != nil:
			if inLen {
				// IBM's behaviour: TRCUST 3.05A's LEN takes no (i) term.
				return fail(",", paren.Pos, false)
			}
			if paren.Inner == nil || paren.Inner.Number == "" {
				return fail("number", paren.Pos, true)
			}
			if paren.Close == "" {
				return fail(")", paren.Inner.Pos, true)
			}
			// A malformed number is no number there (IBM's behaviour:
			// "FEBP(4D)" is "missing 'number' before '4D'").
			n, ok := p.numberOr(paren.Inner.Pos, paren.Inner.Number, tsf.ErrSyntax, "number", paren.Inner.Number)
			if !ok {
				return done(), false
			}
			ind = &tsf.Signed{Pos: astPos(t.Pos), Neg: neg, Num: n}
		case t.Num != nil:
			// IBM's behaviour: a malformed displacement is "invalid
			// number found" ("FEBP+4D"), and after a symbol TRCUST then
			// finds no ',' before it either (".stdin+4D" gives both).
			n, ok := p.numberOr(t.Num.Pos, t.Num.Text, tsf.ErrInvalidNumber, t.Num.Text)
			if !ok {
				if isSym {
					p.add(tsf.ErrSyntax.Diagnostic(astPos(t.Num.Pos), 0, ",", t.Num.Text))
				}
				return done(), false
			}
			disps = append(disps, &tsf.Signed{Pos: astPos(t.Pos), Neg: neg, Num: n})
		case isSym:
			// A sign and no number: the sign alone goes, and a register or
			// another token ends the address.
			switch {
			case t.Reg != nil:
				return fail(",", t.Reg.Pos, false)
			case t.Other != nil:
				return fail(",", t.Other.Pos, false)
			}
		case t.Reg != nil:
			regs = append(regs, &tsf.SignedReg{Pos: astPos(t.Pos), Neg: neg, Reg: &tsf.Word{Pos: astPos(t.Reg.Pos), Text: t.Reg.Text}})
		default:
			return fail("number", t.Pos, true)
		}
	}
	return done(), true
}

// tokenAt returns the token of the statement being parsed that starts at
// pos, or the one after it when after is set, as TRCUST 3.05A names it in
// a message. At the end of the statement it is the next TRACE; false at
// the end of the file, where the parser reports the premature end.
func (p *parser) tokenAt(pos lexer.Position, after bool) (lexer.Token, bool) {
	for _, t := range p.stmt {
		if t.Pos.Offset > pos.Offset || !after && t.Pos.Offset == pos.Offset {
			return t, true
		}
	}
	if p.stmtLast {
		return lexer.Token{}, false
	}
	// The next statement's TRACE, ordered just before it: an error
	// named after it is this statement's (syntaxError).
	at := lexPos(p.stmtEnd)
	at.Offset--
	return lexer.Token{Value: p.nextWord(), Pos: at}, true
}

// flag converts a flag; only INDIRECT takes a "*" chain. On an error it
// reports it and returns false, with the flag as far as TRCUST 3.05A read
// it (the levels before the one that broke; nil when the word itself
// broke), which is checked as TRCUST checks it as it reads it (IBM's
// behaviour: an (i) term and a first level's offset are "two indirect
// offsets for first level" before a later level's error).
func (p *parser) flag(f *flag) (*tsf.Flag, bool) {
	out := &tsf.Flag{Pos: astPos(f.Pos), Spelling: f.Word}
	switch strings.ToUpper(f.Word) {
	case "D", "DIRECT":
		out.Kind = tsf.Direct
	case "I", "INDIRECT":
		out.Kind = tsf.Indirect
	case "IS":
		out.Kind = tsf.IndirectSegmented
	case "IF":
		out.Kind = tsf.IndirectFlat
	}
	if out.Kind == 0 && len(f.Chain) > 0 {
		// A chain after DIRECT is kept: the checker refuses it after the
		// address (IBM's behaviour: "unexpected: * after DIRECT"). IS
		// and IF take one as INDIRECT does (IBM's behaviour, tried with
		// its binary: IS*+4* fetches twice before the split).
		// An unknown word with a chain is refused at the word (IBM's
		// behaviour: "XYZ*" and "INDI*" are "missing 'DIRECT/INDIRECT'
		// before 'XYZ'", fresh seed 1200018).
		p.add(tsf.ErrSyntax.Diagnostic(astPos(f.Pos), 0, "DIRECT/INDIRECT", f.Word))
		return nil, false
	}
	for _, l := range f.Chain {
		lv := &tsf.Level{Pos: astPos(l.Pos)}
		switch {
		case l.Num != nil:
			// IBM's behaviour: a malformed level offset is "invalid
			// number found", given twice ("I*4D").
			n, ok := p.numberOr(l.Num.Pos, l.Num.Text, tsf.ErrInvalidNumber, l.Num.Text)
			if !ok {
				p.add(tsf.ErrInvalidNumber.Diagnostic(astPos(l.Num.Pos), 0, l.Num.Text))
				return out, false
			}
			pos := n.Pos
			if l.Sign != "" {
				if t, ok := p.tokenAt(l.Pos, true); ok {
					pos = astPos(t.Pos)
				}
			}
			lv.Offset = &tsf.Signed{Pos: pos, Neg: l.Sign == "-", Num: n}
		case l.Sign != "":
			// IBM's behaviour: after the sign TRCUST 3.05A reads a
			// number ("I*+-4" is "invalid number found: -", "I*+," of
			// ',').
			if sign, ok := p.tokenAt(l.Pos, true); ok {
				if t, ok := p.tokenAt(sign.Pos, true); ok {
					p.add(tsf.ErrInvalidNumber.Diagnostic(astPos(t.Pos), 0, t.Value))
				}
			}
			return out, false
		}
		out.Chain = append(out.Chain, lv)
	}
	return out, true
}

// isSign reports whether t is the punctuation '+' or '-'.
func isSign(t lexer.Token) bool { return isPunct(t, "+") || isPunct(t, "-") }
