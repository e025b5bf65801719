package tsfparse

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/ast/tsf"
)

// Token types of the TSF scanner, as participle sees them.
const (
	tokIdent  lexer.TokenType = -2 - iota // keyword, register or name: MINOR, FEBP, PRE
	tokSymbol                             // .name: the value holds the name without the dot
	tokNumber                             // 123, 0x1F, 08 (validated later)
	tokString                             // "...": the value holds what stands between the quotes
	tokPath                               // a module or source file name after "MODNAME =" or "@"
	tokPunct                              // = , ( ) + - * @ and any other single character
)

// definition tells participle the token types; the scanning itself is done
// by scan, before participle runs.
type definition struct{}

func (definition) Symbols() map[string]lexer.TokenType {
	return map[string]lexer.TokenType{
		"EOF":    lexer.EOF,
		"Ident":  tokIdent,
		"Symbol": tokSymbol,
		"Number": tokNumber,
		"String": tokString,
		"Path":   tokPath,
		"Punct":  tokPunct,
	}
}

// Lex scans r whole and returns its tokens. The parser does not use it (it
// scans first and hands participle one statement at a time) but it makes
// the definition complete, for tools that want the TSF tokens.
func (definition) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	src, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	res := scan(filename, src)
	if res.stopAt >= 0 {
		return nil, res.diags
	}
	return &sliceLexer{toks: res.toks, eof: lexPos(res.eof)}, nil
}

// sliceLexer hands participle a slice of scanned tokens, then EOF.
type sliceLexer struct {
	toks []lexer.Token
	eof  lexer.Position
}

func (l *sliceLexer) Next() (lexer.Token, error) {
	if len(l.toks) == 0 {
		return lexer.EOFToken(l.eof), nil
	}
	t := l.toks[0]
	l.toks = l.toks[1:]
	return t, nil
}

// scanResult is what scan returns: the tokens (without a closing EOF), the
// diagnostics found while scanning, and, when a severe lexical error
// stopped the scan, its index in the token stream (tokens from stopAt on
// were never produced).
type scanResult struct {
	toks   []lexer.Token
	diags  diag.List
	stopAt int // -1 when the scan reached the end of the file
	cut    int // the offset of the token a severe lexical error stopped in, -1 if none
	eof    ast.Pos
	// notes maps the offset of a token to what the scanner noted of it
	// (tokenNote).
	notes map[int]tokenNote
}

// scanner splits a TSF into tokens in the manner of go/scanner. Comments
// (";" to the end of the line, and C comments that nest and may span lines)
// and white space separate tokens and are dropped. A Ctrl-Z ends the file,
// as it does for the DOS and OS/2 C runtime.
type scanner struct {
	file string
	// src is the TSF as one string, copied once from the caller's bytes
	// (which the parse then no longer holds): a token's value is a slice
	// of it, so that scanning allocates nothing a token.
	src  string
	off  int
	line int
	col  int
	mode Mode
	res  scanResult
	// touching is the offset of the token a C comment touches while that
	// comment is skipped, -1 otherwise (tokenNote.line).
	touching int
	// notes are the entries of res.notes not yet handed to the
	// parser (parse).
	notes []tokenNote
	// atSlashes are the slashes glued to the '@' just scanned: they go
	// before the file name after it, '@' and name being one token of
	// TRCUST 3.05A's ("TP=/ @STATIC" is "TP=@/STATIC", IBM's behaviour).
	atSlashes int
	// nul says that the TSF holds a NUL byte: only then may a token's
	// text end before its bytes do (cString).
	nul bool
	// pathNext: the last token is "@", or "=" after MODNAME, or MODNAME
	// without '=' (inPathContext); modName: the last token is the word
	// MODNAME.
	pathNext, modName bool
	// held is what TRCUST 3.05A's token buffer holds of the comments
	// skipped since the last token: two bytes for a comment's "/*", one
	// for a "/*" nested in it, one for a ';' comment. It counts with the
	// next token against MaxToken (IBM's behaviour, tried with its
	// binary: a word of 257 bytes after "/* x */" is fatal 17, one of 256
	// is not; 255 after "/* a */ /* b */" or "/* a /* b /* c */ */ */",
	// 256 after "/* x /* y */ z */", 258 after "; c" and a new line; a
	// string of 256 bytes between its quotes after "/* x */").
	held int
}

func scan(file string, src []byte) scanResult {
	s := newScanner(file, string(src))
	for s.next() {
	}
	s.res.eof = s.pos()
	return s.res
}

func newScanner(file, src string) *scanner {
	s := &scanner{file: file, src: src, line: 1, col: 1, touching: -1, nul: strings.IndexByte(src, 0) >= 0}
	s.res.stopAt, s.res.cut = -1, -1
	s.res.notes = make(map[int]tokenNote)
	return s
}

func (s *scanner) pos() ast.Pos {
	return ast.Pos{File: s.file, Offset: s.off, Line: s.line, Col: s.col}
}

// mark is a place in the TSF without its file name: where a token starts,
// kept while it is scanned. It holds no pointer, so that it is copied
// whole at no cost; a token's position is written from it field by field
// (a struct written in parts and read back at once, as a copy does, is a
// store the processor cannot forward).
type mark struct{ off, line, col int }

func (s *scanner) mark() mark { return mark{s.off, s.line, s.col} }

// at returns the position of m.
func (s *scanner) at(m mark) ast.Pos {
	return ast.Pos{File: s.file, Offset: m.off, Line: m.line, Col: m.col}
}

func lexPos(p ast.Pos) lexer.Position {
	return lexer.Position{Filename: p.File, Offset: p.Offset, Line: p.Line, Column: p.Col}
}

func astPos(p lexer.Position) ast.Pos {
	return ast.Pos{File: p.Filename, Offset: p.Offset, Line: p.Line, Col: p.Column}
}

// advance moves past n bytes, keeping line and column.
func (s *scanner) advance(n int) {
	for i := 0; i < n && s.off < len(s.src); i++ {
		if s.src[s.off] == '\n' {
			s.line++
			s.col = 1
		} else {
			s.col++
		}
		s.off++
	}
}

// skip moves past n bytes that hold no new line.
func (s *scanner) skip(n int) {
	s.off += n
	s.col += n
}

func (s *scanner) peek(i int) byte {
	if s.off+i < len(s.src) {
		return s.src[s.off+i]
	}
	return 0
}

// commentAt reports whether a C comment starts n bytes after the scan
// position.
func (s *scanner) commentAt(n int) bool { return s.peek(n) == '/' && s.peek(n+1) == '*' }

func (s *scanner) atEnd() bool { return s.endsAt(s.off) }

// endsAt reports whether the file ends at offset i for TRCUST 3.05A: its
// last byte is before i, or a Ctrl-Z stands there.
func (s *scanner) endsAt(i int) bool { return i >= len(s.src) || s.src[i] == 0x1A }

// MaxToken is the length at which TRCUST 3.05A's lexer gives up on a token
// (IBM's behaviour, read from its binary's answers): a word, number, symbol
// or file name of 259 bytes or more, or a string whose text between the
// quotes is 258 bytes or more, is fatal 17, "token in TSF file exceeds 259
// bytes", at the token's line, and nothing after it is read; but a word
// at the limit that ends the file is read (wordTooLong).
const MaxToken = 259

// wordLen is the length of the word, number or symbol at the scan position
// (0 for any other token).
func (s *scanner) wordLen() int {
	c := s.src[s.off]
	n := 0
	switch {
	case isIdentStart(c) || c >= '0' && c <= '9':
		n = 1
	case c == '.' && s.off+1 < len(s.src) && wordChars[s.peek(1)] && s.peek(1) != '.' && !s.commentAt(1):
		// IBM's behaviour: any byte a word runs on through starts a
		// symbol ("TP=.%d" and "TP=.&a" are "symbol not found: %d" and
		// "&a").
		n = 2
	case c == '.' && s.peek(1) == '.' && s.off+1 < len(s.src):
		// IBM's behaviour: a second dot is the symbol's first character
		// ("TP=..malloc" is "symbol not found: .malloc").
		n = 2
	default:
		return 0
	}
	// A symbol runs on through a dot as a word does (IBM's behaviour:
	// "TP=.malloc.x" is "symbol not found: malloc.x").
	for s.off+n < len(s.src) && wordChars[s.src[s.off+n]] && !s.commentAt(n) {
		n++
	}
	return n
}

// wordChars are the bytes a word, number or symbol runs on through
// (isIdentChar, isOther, '.'), and plainChars the bytes a string holds that
// need no look (all but the quote, the backslash, CR, LF, NUL and Ctrl-Z).
var wordChars, plainChars = func() (w, plain [256]bool) {
	for c := range w {
		b := byte(c)
		w[c] = isIdentChar(b) || isOther(b) || b == '.'
		plain[c] = b != '"' && b != '\\' && b != '\r' && b != '\n' && b != 0 && b != 0x1A
	}
	return w, plain
}()

// tooLongFor reports whether a token of n bytes at the scan position is
// too long for TRCUST 3.05A (MaxToken, with what its buffer holds: held).
func (s *scanner) tooLongFor(n int) bool { return s.held+n >= MaxToken }

// wordTooLong is tooLongFor for a word, number, symbol or run of other
// characters of n bytes, which TRCUST 3.05A takes at the limit when it ends
// the file, nothing (or a Ctrl-Z) after it: its lexer overflows the
// buffer only when it reads the byte after (IBM's behaviour, session 19:
// 259 bytes of F or & at the end of the file are "unexpected", with a new
// line after them fatal 17).
func (s *scanner) wordTooLong(n int) bool {
	if s.held+n == MaxToken && s.endsAt(s.off+n) {
		return false
	}
	return s.tooLongFor(n)
}

// tooLong stops the scan with fatal 17 at start.
func (s *scanner) tooLong(start ast.Pos) bool { return s.tooLongAt(start, start) }

// tooLongAt is tooLong with the message at at, ordered after the messages
// of the token before it.
func (s *scanner) tooLongAt(start, at ast.Pos) bool {
	d := tsf.FatalTokenTooLong.Diagnostic(at, 0, fmt.Sprint(MaxToken))
	d.Detail = "TRCUST 3.05A reads tokens of up to 258 bytes"
	return s.stopIn(start, d)
}

// stopIn is stop for an error inside the token that starts at start.
func (s *scanner) stopIn(start ast.Pos, d diag.Diagnostic) bool {
	s.res.cut = start.Offset
	return s.stop(d)
}

// stop records a severe lexical error and ends the scan.
func (s *scanner) stop(d diag.Diagnostic) bool {
	s.res.diags.Add(d)
	s.res.stopAt = len(s.res.toks)
	return false
}

func (s *scanner) emit(t lexer.TokenType, value string, at mark) {
	if t != tokString && s.nul {
		value = cString(value)
	}
	if s.atSlashes > 0 {
		// Slashes glued to the '@' before: TRCUST's token of both.
		if t == tokPath {
			value = strings.Repeat("/", s.atSlashes) + value
		}
		s.atSlashes = 0
	}
	s.res.toks = append(s.res.toks, lexer.Token{})
	tok := &s.res.toks[len(s.res.toks)-1]
	tok.Type, tok.Value = t, value
	s.held = 0
	if t == tokPunct && value == "@" {
		// TRCUST 3.05A reads the file name after '@' into the token the
		// '@' starts: a name of 258 bytes there is fatal 17, 257 is
		// not (IBM's behaviour).
		s.held = 1
	}
	// What inPathContext looks at, kept as the tokens are made.
	s.pathNext = t == tokPunct && value == "@" || value == "=" && s.modName
	s.modName = t == tokIdent && isKeyword(value, "MODNAME")
	tok.Pos.Filename, tok.Pos.Offset, tok.Pos.Line, tok.Pos.Column = s.file, at.off, at.line, at.col
}

// skipSpace skips white space and comments. With sameLine it stops at a
// new line. It reports false when an unclosed comment stopped the scan.
func (s *scanner) skipSpace(sameLine bool) bool {
	for !s.atEnd() {
		c := s.src[s.off]
		switch {
		case c == '\n' && sameLine:
			return true
		case c == '\n':
			s.off++
			s.line++
			s.col = 1
		case c == ' ' || c == '\t' || c == '\r':
			s.skip(1)
		case c == ';':
			s.held++
			for !s.atEnd() && s.src[s.off] != '\n' {
				s.skip(1)
			}
		case c == '/' && s.peek(1) == '*':
			if !s.comment() {
				return false
			}
		default:
			return true
		}
	}
	return true
}

// comment skips a C comment, which may nest (reference section 1.3.1).
func (s *scanner) comment() bool {
	start := s.pos()
	depth := 0
	for !s.atEnd() {
		switch {
		case s.src[s.off] == '/' && s.peek(1) == '*':
			depth++
			s.held++ // see held: two for the outermost "/*", one for a nested one
			if depth == 1 {
				s.held++
			}
			s.advance(2)
		case s.src[s.off] == '*' && s.peek(1) == '/':
			depth--
			s.advance(2)
			if depth == 0 {
				s.commentEnds()
				return true
			}
		default:
			s.advance(1)
		}
	}
	// TRCUST 3.05A silently takes the rest of the file as comment.
	if s.mode&TRCUSTComments != 0 {
		s.commentEnds()
		return true
	}
	d := tsf.SevereUnclosedComment.Diagnostic(start, 0)
	d.Detail = "the comment opened here runs to the end of the file"
	return s.stop(d)
}

// commentEnd returns the offset just past the C comment that starts at the
// scan position (comments nest), or -1 when it is not closed; it reads
// without moving.
func (s *scanner) commentEnd() int {
	depth := 0
	for i := s.off; i+1 < len(s.src) && s.src[i] != 0x1A; {
		switch {
		case s.src[i] == '/' && s.src[i+1] == '*':
			depth++
			i += 2
		case s.src[i] == '*' && s.src[i+1] == '/':
			depth--
			i += 2
			if depth == 0 {
				return i
			}
		default:
			i++
		}
	}
	return -1
}

// cString is a word as TRCUST 3.05A reads it: up to a NUL in it, the C
// string it is (IBM's behaviour, tried with its binary: a word runs on
// through a NUL, and "MINOR\0=2" is MINOR, "MINOR=2\05" the minor code 2,
// "0x\010" the number 0x (0), "REGS=(EAX\0Y)" EAX, ".emit\0x" the symbol
// emit).
func cString(v string) string {
	if i := strings.IndexByte(v, 0); i >= 0 {
		return v[:i]
	}
	return v
}

// commentEnds records, when the C comment that ends here touches a token,
// the line it ends on for that token (tokenNote.line), also in
// notes for the parser that reads the statements as they are scanned
// (parse).
func (s *scanner) commentEnds() {
	if s.touching >= 0 {
		s.note(tokenNote{off: s.touching, line: s.line})
		s.touching = -1
	}
}

// tokenNote is what the scanner notes of the token at off, for the
// messages about it.
type tokenNote struct {
	off int
	// line is where a C comment that touches the word, number, symbol or
	// run ends ("junk/*"), 0 when none does: TRCUST 3.05A's lexer skips it
	// before it hands the token on, so a message about the token stands at
	// that line (IBM's behaviour).
	line int
	// slashes are the slashes glued to the punctuation token ("/ (" is
	// "(" glued to one), which TRCUST 3.05A names with the token
	// ("unexpected: /(").
	slashes int
}

// note records n in scanResult.notes, merged with what was noted of the
// same token (a word with comments inside it: the last one's end), and in
// notes for the parser that reads the statements as they are scanned
// (parse).
func (s *scanner) note(n tokenNote) {
	if old, ok := s.res.notes[n.off]; ok {
		n.line, n.slashes = max(n.line, old.line), n.slashes+old.slashes
	}
	s.res.notes[n.off] = n
	if k := len(s.notes); k > 0 && s.notes[k-1].off == n.off {
		s.notes[k-1] = n
	} else {
		s.notes = append(s.notes, n)
	}
}

func isIdentStart(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_' || c == '$' || c == '?'
}

func isIdentChar(c byte) bool {
	return isIdentStart(c) || c >= '0' && c <= '9' || c == '@'
}

// inPathContext reports whether the next token is a file name: after
// "MODNAME =" (the "=" of any type) and after "@". emit keeps the answer,
// and glue, which makes a token of two, sets it to false.
func (s *scanner) inPathContext() bool { return s.pathNext }

// next scans one token; it reports false at the end of the file or when a
// severe error stopped the scan.
func (s *scanner) next() bool {
	if s.modName {
		// IBM's behaviour: "MODNAME emitrep.dll" names the module (with
		// warning 133, "'=' expected"), so a file name may follow the
		// keyword itself.
		if !s.skipSpace(false) {
			return false
		}
		s.pathNext = !s.atEnd() && s.src[s.off] != '='
	}
	if s.inPathContext() {
		// After "MODNAME =" the name may be on a later line (IBM's
		// behaviour: "MODNAME=" at the end of a line names the module
		// TRACE). After '@' it starts right there: comments are skipped,
		// blanks are not, and a blank or a new line after the '@' (or
		// after a comment there) leaves the file name empty (IBM's
		// behaviour, tried with its binary: "TP=@ a.c,10" and "TP=@/* x */
		// a.c,10" are "missing 'comma' before 'linenum'" at a.c;
		// "TP=@/* x */a.c,10" names a.c).
		if s.res.toks[len(s.res.toks)-1].Value == "@" {
			for s.commentAt(0) {
				if !s.comment() {
					return false
				}
			}
			// The end of the file is as a blank (IBM's behaviour: "TP=@"
			// at the end is "missing 'comma' before 'linenum'").
			if s.atEnd() || strings.IndexByte(" \t\r\n", s.src[s.off]) >= 0 {
				s.emit(tokPath, "", s.mark())
				return true
			}
		} else if !s.skipSpace(false) {
			return false
		}
		if s.path() {
			return true
		}
		if s.res.stopAt >= 0 {
			return false // path stopped the scan (a file name too long)
		}
	}
	if !s.skipSpace(false) {
		return false
	}
	if s.atEnd() {
		return false
	}
	start := s.mark()
	c := s.src[s.off]
	n := s.wordLen()
	if s.wordTooLong(n) {
		return s.tooLong(s.at(start))
	}
	// IBM's behaviour: a word, number or symbol runs on through the
	// characters no token is made of, as TRCUST 3.05A reads it
	// ("unexpected: Entry%S, ignored", MINOR=5% "minor code out of range",
	// TP=.emit% "symbol not found: emit%"), and a word or a number through
	// dots ("done.%" is one token; MAJOR=1.5 is one malformed number, "out
	// of range").
	switch {
	case isIdentStart(c):
		// n is wordLen's: the word runs on through wordChars.
		s.emit(tokIdent, s.src[s.off:s.off+n], start)
		s.skip(n)
		return s.glue(start)
	case c >= '0' && c <= '9':
		s.emit(tokNumber, s.src[s.off:s.off+n], start)
		s.skip(n)
		return s.glue(start)
	case c == '.' && n > 0:
		// A symbol (wordLen).
		s.emit(tokSymbol, s.src[s.off+1:s.off+n], start)
		s.skip(n)
		return s.glue(start)
	case c == '.' && (s.off+1 == len(s.src) || !isOther(s.peek(1)) && s.peek(1) != '.' || s.commentAt(1)):
		// IBM's behaviour: a '.' alone is a symbol with no name ("TP=.,",
		// "TP=./* c */" and "TP=." at the end of the file are "symbol not
		// found: ").
		s.emit(tokSymbol, "", start)
		s.advance(1)
	case c == '"':
		return s.str()
	case c == '/':
		// IBM's behaviour, tried with its binary: a '/' that starts no
		// comment is put before the next token, whatever it is and
		// however far (blanks, new lines and comments between), which
		// keeps its kind and stands where it does: "/ x" is "unexpected:
		// /x" at the line of x, GROUP=/ G the group /G, "/ /x" the word
		// //x, and "/ ," a comma; before the end of the file it is no
		// token. A punctuation token keeps its text, so that the grammar
		// takes it, and the slashes are noted beside it for the messages
		// that name it: "/ (" is "unexpected: /(", "DESC=/ ," "missing
		// 'literal' before '/,'" (tokenNote.slashes).
		// The slashes in a row are counted first, so that a run of them
		// costs no recursion and no copy a slash.
		slashes := 0
		for !s.atEnd() && s.src[s.off] == '/' && !s.commentAt(0) {
			s.advance(1)
			slashes++
			// In TRCUST's token buffer: they count against MaxToken with
			// the token (IBM's behaviour: 300 of them before a word are
			// fatal 17).
			s.held++
			if !s.skipSpace(false) {
				return false
			}
		}
		n0 := len(s.res.toks)
		ok := s.next()
		if len(s.res.toks) > n0 {
			t := &s.res.toks[n0]
			if t.Type != tokPunct {
				t.Value = strings.Repeat("/", slashes) + t.Value
			} else {
				s.note(tokenNote{off: t.Pos.Offset, slashes: slashes})
				if t.Value == "@" {
					s.atSlashes = slashes
				}
			}
		}
		return ok
	case c == '!' || c == '=' && s.peek(1) == '=':
		// IBM's behaviour: TRCUST 3.05A reads '!' as a token of its own
		// ("x!y" is x, !, y), and "!=" and "==" as one token ("DESC==x"
		// is DESC and "==": "'=' expected before 'DESC', one assumed",
		// then "missing 'literal' before '=='").
		n := 1
		if s.peek(1) == '=' {
			n = 2
		}
		s.emit(tokPunct, s.src[s.off:s.off+n], start)
		s.skip(n)
	case c < utf8.RuneSelf && !isOther(c):
		// Punctuation of the grammar, one byte (no new line: skipSpace
		// took them).
		s.emit(tokPunct, s.src[s.off:s.off+1], start)
		s.skip(1)
	default:
		// Any other character: the parser reports it as unexpected.
		_, n := utf8.DecodeRuneInString(s.src[s.off:])
		if isOther(c) {
			// IBM's behaviour: TRCUST 3.05A reads a run of characters it
			// has no use for as one token ("unexpected: &&, ignored").
			// The run goes on through letters, digits and dots
			// ("unexpected: \\emitrep.dll, ignored").
			n = 1
			for s.off+n < len(s.src) && (isOther(s.src[s.off+n]) || isIdentChar(s.src[s.off+n]) || s.src[s.off+n] == '.') && !s.commentAt(n) {
				n++
			}
			// Such a run is a token of TRCUST's as a word is: 259 bytes
			// of "&" are fatal 17, 258 are not (IBM's behaviour).
			if s.wordTooLong(n) {
				return s.tooLong(s.at(start))
			}
		}
		if isOther(c) {
			// A word of TRCUST's, as one of letters is (IBM's behaviour:
			// "NAME=%x" and "NAME=#x" name a group, "REGS=(NUL x)" is
			// "register expected, '' found", "TYPE=(NUL x)" "typename
			// unknown: ").
			s.emit(tokIdent, s.src[s.off:s.off+n], start)
			s.advance(n)
			return s.glue(start)
		}
		s.emit(tokPunct, s.src[s.off:s.off+n], start)
		s.advance(n)
	}
	return true
}

// glue continues the word, number, symbol or run just scanned into a
// string that touches it, as TRCUST 3.05A's lexer does (IBM's behaviour:
// `done.%", FMT="` is the one token "done.%, FMT=", unexpected): the token
// ends at the string's closing quote. When the string breaks (a new line,
// the end of the file), the token was never finished and is dropped.
func (s *scanner) glue(start mark) bool {
	for s.commentAt(0) && s.res.toks[len(s.res.toks)-1].Type != tokPunct {
		// A comment inside a word: TRCUST 3.05A skips it, and the word
		// goes on with what touches the comment's end (IBM's behaviour:
		// "junk/* c */more" is "unexpected: junkmore", ".em/* c */it"
		// the symbol emit, "MINOR=2/* c */5" the minor code 25).
		end := s.commentEnd()
		if end < 0 || end >= len(s.src) || !wordChars[s.src[end]] || s.commentAt(end-s.off) {
			break
		}
		cut := strings.IndexByte(s.src[s.res.toks[len(s.res.toks)-1].Pos.Offset:s.off], 0) >= 0
		// Its message stands at the line where the comment ends, as for
		// a comment that ends a word.
		s.touching = start.off
		if !s.comment() {
			return false
		}
		n := 0
		for s.off+n < len(s.src) && wordChars[s.src[s.off+n]] && !s.commentAt(n) {
			n++
		}
		tok := &s.res.toks[len(s.res.toks)-1]
		if !cut {
			// (After a NUL the C string has ended: nothing is added.)
			tok.Value = cString(tok.Value + s.src[s.off:s.off+n])
		}
		s.skip(n)
	}
	if s.peek(0) == '/' && s.peek(1) == '*' {
		s.touching = start.off
	}
	if s.atEnd() || s.src[s.off] != '"' {
		return true
	}
	k := len(s.res.toks) - 1
	word := s.res.toks[k]
	nd := len(s.res.diags)
	if !s.str() {
		s.res.toks = s.res.toks[:k]
		s.res.stopAt, s.res.cut = k, start.off
		return false
	}
	str := s.res.toks[len(s.res.toks)-1]
	// The token is a literal: its text without the quotes, what stands
	// before them too (IBM's behaviour: DESC=x"a" is the description
	// "xa", and FMT=NUL"c" the format "", the C string of the text).
	text := word.Value + str.Value // a symbol without its dot
	if strings.IndexByte(s.src[word.Pos.Offset:str.Pos.Offset], 0) >= 0 {
		text = word.Value
	}
	s.res.toks = append(s.res.toks[:k], lexer.Token{Type: tokString, Value: text, Pos: word.Pos})
	// The string's NULs were read as part of this one token: their
	// messages stand at its start, where the parser's about the token
	// stand, and go before them (IBM's behaviour: "junk<NUL>"a<NUL>b"" is
	// 37, then "unexpected: junk").
	for i := nd; i < len(s.res.diags); i++ {
		if d := &s.res.diags[i]; d.Pos.Offset == str.Pos.Offset {
			d.Pos = astPos(word.Pos)
		}
	}
	// Two bytes or more, neither "@" nor "=", and no word.
	s.pathNext, s.modName = false, false
	return true
}

// path scans a file name: a run of bytes up to white space, a comment, or
// one of the bytes that end a file name. It reports false when no name
// follows on the same line, or when what follows starts no file name (a
// digit starts a number, a quote a string, and '@' or an end byte is a
// token of its own), so that the next token is scanned as any other.
//
// IBM's behaviour, tried with its binary on every ASCII punctuation byte in
// "MODNAME=a?b" and "MODNAME=?b": TRCUST 3.05A ends a file name at
// - + * ! , ( ) = ; and the quote, and keeps every other byte in it ('/',
// '\\', ':', '@', '%', '&', control bytes and high bytes); "MODNAME=1abc",
// "MODNAME=!x" and "MODNAME=,x" are "module name not specified", and a
// string touching the name ("emitrep.dll"x y"") makes one token that names
// no module.
func (s *scanner) path() bool {
	afterAt := s.res.toks[len(s.res.toks)-1].Value == "@"
	start := s.mark()
	n := 0
	for s.off+n < len(s.src) {
		c := s.src[s.off+n]
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == 0x1A ||
			pathEnd[c] || c == '/' && s.peek(n+1) == '*' {
			break
		}
		n++
	}
	if n == 0 && !(afterAt && s.off < len(s.src) && s.src[s.off] != '"') {
		return false
	}
	if c := s.src[s.off]; !afterAt && (c >= '0' && c <= '9' || c == '@') {
		// A module name that starts so is none (IBM's behaviour:
		// "MODNAME = 1x.dll" is "module name not specified"); after
		// '@' it is a source file's name all the same ("TP=@12,5" is
		// "CodeView info does not exist for: 12", "TP=@@x.c,5" names
		// "@x.c").
		return false
	}
	// IBM's behaviour: "TP=@," names a file with no name (then the line
	// number is read after the comma), and so does an '@' before any
	// other byte that ends a name ("TP=@-5", "TP=@(1)" and "TP=@;" are
	// "missing 'comma' before 'linenum'"; a quote is not one: "TP=@"x""
	// is a string where a symbol belongs).
	if s.tooLongFor(n) {
		return s.tooLong(s.at(start))
	}
	s.emit(tokPath, s.src[s.off:s.off+n], start)
	s.skip(n) // a file name holds no new line
	return s.glue(start)
}

// pathEnd holds the bytes that end a file name (see path).
var pathEnd = func() (t [256]bool) {
	for _, c := range []byte(`-+*!,()=;"`) {
		t[c] = true
	}
	return t
}()

// str scans a quoted string. A backslash takes the next character with it,
// so \" does not end the string. A raw new line is severe error 36 and a
// NUL byte severe error 37; both stop the scan, as they stop TRCUST. With
// TRCUSTStrings, only \" is an escape and a NUL does not stop the scan
// (see Mode).
func (s *scanner) str() bool {
	start := s.mark()
	s.skip(1)
	begin, cut := s.off, -1
	trcust := s.mode&TRCUSTStrings != 0
	for {
		if s.atEnd() {
			// The end of the file, or a Ctrl-Z, which ends it for
			// TRCUST 3.05A's C runtime (IBM's behaviour: "premature end
			// of file" for a Ctrl-Z in a string).
			at := s.at(start)
			if cut >= 0 {
				at = s.pos()
			}
			d := tsf.SeverePrematureEOF.Diagnostic(at, 0)
			d.Detail = "the string opened here is not closed"
			return s.stopIn(s.at(start), d)
		}
		if s.tooLongFor(s.off - begin + 1) {
			if cut >= 0 {
				// After a NUL's message (TRCUSTStrings), where TRCUST
				// prints it: after that one (IBM's behaviour, fresh
				// seed 1264315).
				return s.tooLongAt(s.at(start), s.pos())
			}
			return s.tooLong(s.at(start))
		}
		if plainChars[s.src[s.off]] {
			// A run of bytes that need no look, up to the length limit.
			j, limit := s.off+1, min(len(s.src), begin+MaxToken-1-s.held)
			for j < limit && plainChars[s.src[j]] {
				j++
			}
			s.skip(j - s.off)
			continue
		}
		switch c := s.src[s.off]; {
		case c == '"':
			end := s.off
			if cut >= 0 {
				end = cut
			}
			s.emit(tokString, s.src[begin:end], start)
			s.advance(1)
			return true
		case c == '\n' || c == '\r' && s.peek(1) == '\n':
			// A CR of its own is a character of the string (IBM's
			// behaviour: TRCUST 3.05A reads the file in text mode,
			// where only CR LF is a line end).
			at := s.at(start)
			if cut >= 0 {
				// After a NUL's message (TRCUSTStrings), where TRCUST
				// prints it: after that one.
				at = s.pos()
			}
			d := tsf.SevereNewLine.Diagnostic(at, 0)
			d.Detail = "the string opened here is not closed before the end of the line"
			return s.stopIn(s.at(start), d)
		case c == 0 && trcust:
			// IBM's behaviour: severe 37 is printed, but TRCUST goes
			// on as after an error, and stores the string up to the NUL.
			// It is printed as the string is read, before any message
			// about the string itself ("junk "a<NUL>b"" after the header
			// is 37, then "unexpected: a"): it stands at the string's
			// start, where those stand, and goes first there (the
			// scanner's messages come before the parser's).
			d := tsf.SevereNUL.Diagnostic(s.at(start), 0)
			d.Detail = "a NUL at column " + strconv.Itoa(s.pos().Col)
			d.Severity = diag.Error
			s.res.diags.Add(d)
			if cut < 0 {
				cut = s.off
			}
			s.advance(1)
		case c == 0:
			return s.stopIn(s.at(start), tsf.SevereNUL.Diagnostic(s.pos(), 0))
		case c == '\\' && trcust:
			if s.peek(1) == '"' {
				s.advance(2)
			} else {
				s.advance(1)
			}
		case c == '\\' && s.off+1 < len(s.src) && s.src[s.off+1] != '\n' && s.src[s.off+1] != '\r' && s.src[s.off+1] != 0:
			s.advance(2)
		default:
			s.advance(1)
		}
	}
}

// isOther reports whether c is a character no TSF token is made of: not
// white space, a letter, digit or ident character, a quote, ';', '/', or
// punctuation of the grammar.
func isOther(c byte) bool { return otherChars[c] }

// otherChars holds isOther for every byte.
var otherChars = func() (t [256]bool) {
	for c := range t {
		b := byte(c)
		// IBM's behaviour, tried with its binary on every punctuation
		// and control byte in "x?y ?z": TRCUST 3.05A ends a word only at
		// a space, TAB, CR or LF and at = , ( ) + - * @ . " ; and '!';
		// '/' (but for a comment), control bytes (form feed, vertical
		// TAB, ESC, ...), NUL and DEL run on in it (a NUL then ends the
		// word as TRCUST prints it: "symbol not found: ReportEm" for
		// ReportEm NUL itterNewClass).
		t[c] = !isIdentChar(b) && b != ' ' && b != '\t' && b != '\r' && b != '\n' && b != 0x1A && !strings.ContainsRune(`=,()+-*@.";!`, rune(b))
	}
	return t
}()
