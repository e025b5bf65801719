// Package tsfparse parses OS/2 Trace Source Files (the input of IBM's
// TRCUST) into the syntax tree of ast/tsf.
//
// The grammar (syntax.go) is written for participle; the scanner (scan.go)
// is written by hand because TSF comments nest and a file name after
// MODNAME or '@' is one token. Parsing goes one statement at a time, and a
// TRACE statement one field at a time, so that a syntax error discards only
// the statement it is in (the reference, section 1.6: "ERROR messages will
// normally cause a tracepoint definition to be discarded and processing
// continues with the next definition"), while a severe error stops the
// parse as it stops TRCUST.
package tsfparse

import (
	"errors"
	"runtime"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/ast/tsf"
)

// Parse parses the Trace Source File src, named filename in positions. It
// returns the tree and the syntax diagnostics sorted by position. The tree
// is never nil.
func Parse(filename string, src []byte) (*tsf.File, diag.List) {
	return parse(filename, src, 0, false, nil)
}

// Mode selects where the scanner reads a TSF as TRCUST 3.05A does rather
// than as tracekit does; the zero Mode is tracekit's.
type Mode uint

const (
	// TRCUSTStrings reads strings as TRCUST 3.05A's lexer does (IBM's
	// behaviour, each point tried with its binary):
	//
	//   - only \" is an escape: a backslash before any other character
	//     is that one character, so in "C:\\" the last backslash and
	//     the quote make an escaped quote and the string runs on (to the
	//     next quote, or to severe 36 at the end of the line);
	//   - a NUL byte is severe 37, "NULL in literal", each time, but the
	//     scan goes on and nothing is aborted: the string's value ends at
	//     the NUL (TRCUST writes its files and exits 0).
	//
	// tracekit reads \\ as a pair and stops at a NUL
	// (docs/compatibility.md); the trcust command line, whose job is to
	// do what TRCUST did, sets this mode.
	TRCUSTStrings Mode = 1 << iota
	// TRCUSTComments lets a comment left open at the end of the file
	// swallow the rest of it without a word, as TRCUST 3.05A does (oracle
	// x_h26); tracekit reports severe 201 (docs/compatibility.md).
	TRCUSTComments
	// ShareSource lets the tree's names and strings share src's memory
	// instead of a copy of it: the caller must not change src once it
	// has handed it over (lower/tsfcompile, which reads the file into a
	// buffer of its own, saves the copy: 5 MB of a TSF of 65,535
	// tracepoints).
	ShareSource
)

// ParseMode parses as Parse does, reading what mode names as TRCUST 3.05A
// reads it.
func ParseMode(filename string, src []byte, mode Mode) (*tsf.File, diag.List) {
	return parse(filename, src, mode, false, nil)
}

// ParseEach parses as ParseMode does and calls each with every statement as
// soon as it is parsed, in source order, before the statement joins the
// tree: a caller can check a statement while the rest of the file is still
// unread, and drop what it no longer needs (lower/tsfcompile does, to keep
// the memory of a large TSF small).
//
// each returns whether the statement joins the tree (File.Stmts). When it
// returns false it also says that it keeps no reference to the statement's
// fields, nor to anything below them: the parser then reuses their storage
// for the statements that follow.
//
// each runs on the caller's goroutine, one statement at a time, while
// goroutines of the parser scan and parse the statements after it.
func ParseEach(filename string, src []byte, mode Mode, each func(tsf.Stmt) bool) (*tsf.File, diag.List) {
	return parse(filename, src, mode, false, each)
}

// parse parses with the generated parsers (parsers_gen.go), or with
// participle's, the reference they are tested against. The file is scanned
// and parsed as it goes, on as many cores as there are:
//
//   - one goroutine scans the file and splits its tokens into statements
//     (statements), and hands them on a batch at a time: the complete
//     statements (a statement is complete once the one after it has
//     begun: it ends where that one starts), and at the end the statement
//     the scan ended in, the last, so that it is known as such, even when
//     a severe lexical error drops the statement it stopped in;
//   - workers parse the batches, each batch by one of them, into
//     statements of the tree and the diagnostics of its statements;
//   - this goroutine takes the batches in the order of the file, calls
//     each with their statements and adds them to the tree, then hands
//     the batch back for its tokens and nodes to be used again.
//
// The tokens and nodes held stay few however long the file: a batch holds
// a few statements and only a few batches are under way at a time.
//
// each, when not nil, is called with every statement parsed and decides
// whether it joins the tree, as ParseEach says.
func parse(filename string, src []byte, mode Mode, reference bool, each func(tsf.Stmt) bool) (*tsf.File, diag.List) {
	return parseBatched(filename, src, mode, reference, each, batchStatements, parseWorkers())
}

// parseWorkers is how many workers parse: one a core, within reason.
func parseWorkers() int { return min(max(runtime.GOMAXPROCS(0), 1), 4) }

// parseBatched is parse with batches of batch statements and workers
// parsers (tests try small batches, so that files of a few statements
// cross batches, and one worker or several).
func parseBatched(filename string, src []byte, mode Mode, reference bool, each func(tsf.Stmt) bool, batch, workers int) (*tsf.File, diag.List) {
	text := unsafe.String(unsafe.SliceData(src), len(src))
	if mode&ShareSource == 0 {
		text = string(src)
	}
	s := newScanner(filename, text)
	s.mode = mode
	work := make(chan *stmtBatch, workers)
	order := make(chan *stmtBatch, 2*workers+2)
	free := make(chan *stmtBatch, 2*workers+4)
	done := make(chan struct{})
	defer close(done)
	go s.statements(batch, work, order, free, done)
	for range workers {
		go parseBatches(reference, work)
	}
	out := &tsf.File{Name: filename}
	var diags diag.List
	sawTrace := false
	for b := range order {
		<-b.parsed
		if b.panicked != nil {
			panic(b.panicked)
		}
		diags = append(diags, b.diags...)
		sawTrace = sawTrace || b.hasTrace()
		reuse := true
		for i, st := range b.out {
			if st == nil {
				continue
			}
			kept := each == nil || each(st)
			b.marks[i].kept = kept
			reuse = reuse && !kept
			if kept {
				out.Stmts = append(out.Stmts, st)
			}
		}
		if b.final {
			out.EOF, out.Aborted = b.eof, b.aborted
			if !sawTrace && !b.aborted && !slices.ContainsFunc(diags, isPrematureEOF) && diags.Worst() < diag.Severe {
				// One premature end: a statement the end cut has said so;
				// none after a severe error, where TRCUST stopped (IBM's
				// behaviour: "MODNAME=," alone is 33 alone).
				diags.Add(noTrace(b.eof))
			}
			break
		}
		b.recycle(reuse)
		select {
		case free <- b:
		default:
		}
	}
	diags.Sort()
	return out, diags
}

// batchStatements is how many complete statements the scanner hands on at
// a time.
const batchStatements = 16

// stmtBatch is what the scanner hands the parsers: tokens, the complete
// statements among them, each followed in toks by the first token of the
// next, and the comments noted since the last batch (every note on a token
// of the batch's statements is in it). The final batch also holds, from
// tail on, the statement the scan ended in, and what the scan found.
//
// The worker that parses it adds the statements of the tree (out, nil for
// a statement that makes none; their fields' nodes taken from nodes and
// fields) and their diagnostics, and tells that it is done on parsed.
type stmtBatch struct {
	toks  []lexer.Token
	stmts []stmtSpan
	notes []tokenNote

	final    bool
	tail     int
	eof      ast.Pos
	aborted  bool      // a severe lexical error stopped the scan
	cut      int       // scanResult.cut
	scanned  diag.List // the scanner's diagnostics
	panicked any       // a panic of the scanner or the worker, raised again in the caller

	parsed chan struct{}
	out    []tsf.Stmt
	diags  diag.List
	nodes  fieldNodes
	marks  []nodeMark // per statement of out: where its nodes end
	// fields is the chunk the statements' fields are cut from; the first
	// keptFields are those of statements kept with them.
	fields     []tsf.Field
	keptFields int
}

// cutAfterEquals reports whether a statement toks, whose first n tokens
// the grammar took, ends with them, the last an '=': its value is missing.
func cutAfterEquals(toks []lexer.Token, n int) bool {
	return n == len(toks) && n > 0 && toks[n-1].Type == tokPunct && toks[n-1].Value == "="
}

// isPrematureEOF reports whether d is severe 34, "premature end of file".
func isPrematureEOF(d diag.Diagnostic) bool {
	code, _ := tsf.CodeOf(d)
	return code == tsf.SeverePrematureEOF
}

// noTrace is the diagnostic of a file without a TRACE statement, at its
// end eof: it ends too early for TRCUST 3.05A (severe 34; IBM's
// behaviour).
func noTrace(eof ast.Pos) diag.Diagnostic {
	d := tsf.SeverePrematureEOF.Diagnostic(eof, 0)
	d.Detail = "the file has no TRACE statement"
	return d
}

// hasTrace reports whether a statement of the batch, or its tail, starts
// with the keyword TRACE.
func (b *stmtBatch) hasTrace() bool {
	starts := func(i int) bool { return i < len(b.toks) && isTrace(&b.toks[i]) }
	for _, st := range b.stmts {
		if starts(st.start) {
			return true
		}
	}
	return b.final && starts(b.tail)
}

// stmtSpan is a statement of a batch: toks[start:end].
type stmtSpan struct{ start, end int }

// newBatch returns an empty batch for about n statements.
func newBatch(n int) *stmtBatch {
	return &stmtBatch{toks: make([]lexer.Token, 0, 32*n), parsed: make(chan struct{}, 1)}
}

// recycle empties the batch for the next statements. Its nodes are given
// out again but those of the statements kept with their fields; its chunk
// of fields too when reuse says that no statement kept its fields.
func (b *stmtBatch) recycle(reuse bool) {
	b.nodes.recycle(b.marks)
	if !reuse {
		// The fields kept stay where they are; the next ones are cut
		// after them.
		b.keptFields = len(b.fields)
	}
	b.fields = b.fields[:b.keptFields]
	b.toks, b.stmts, b.notes = b.toks[:0], b.stmts[:0], b.notes[:0]
	clear(b.out)
	b.out, b.diags, b.marks = b.out[:0], nil, b.marks[:0]
}

// statements scans the file and splits its tokens into statements, and
// hands them to the workers (work) batch statements at a time, each batch
// also to the caller (order), in the order of the file, the final batch
// last; it takes the batches the caller is done with from free, and stops
// when done is closed (the caller gave up: it panicked).
func (s *scanner) statements(batch int, work, order chan<- *stmtBatch, free <-chan *stmtBatch, done <-chan struct{}) {
	defer close(work)
	send := func(b *stmtBatch) bool {
		select {
		case order <- b:
		case <-done:
			return false
		}
		select {
		case work <- b:
			return true
		case <-done:
			return false
		}
	}
	b := newBatch(batch)
	defer func() {
		if x := recover(); x != nil {
			p := newBatch(0)
			p.final, p.panicked = true, x
			p.parsed <- struct{}{}
			select {
			case order <- p:
			case <-done:
			}
		}
	}()
	s.res.toks = b.toks
	var sp splitter
	// [mid, len) is the statement being scanned; seen counts the tokens
	// already given to the splitter.
	mid, seen := 0, 0
	for s.next() {
		toks := s.res.toks
		for ; seen < len(toks); seen++ {
			if !sp.starts(toks, mid, seen) || seen == mid {
				continue
			}
			b.stmts = append(b.stmts, stmtSpan{mid, seen})
			mid = seen
		}
		if len(b.stmts) < batch {
			continue
		}
		// Hand the batch on; the statement being scanned starts the next
		// one (the scanner looks back at most at the token before the one
		// it scans, which is in it: it starts with a word).
		var nb *stmtBatch
		select {
		case nb = <-free:
		default:
			nb = newBatch(batch)
		}
		nb.toks = append(nb.toks, toks[mid:]...)
		b.toks = toks
		// The notes on the statement carried over stay for the next batch.
		k := 0
		for _, n := range s.notes {
			if n.off < toks[mid].Pos.Offset {
				b.notes = append(b.notes, n)
			} else {
				s.notes[k] = n
				k++
			}
		}
		s.notes = s.notes[:k]
		if !send(b) {
			return
		}
		b = nb
		s.res.toks = b.toks
		seen -= mid
		mid = 0
	}
	b.toks, b.notes, s.notes = s.res.toks, append(b.notes, s.notes...), nil
	b.final, b.tail = true, mid
	b.eof, b.aborted, b.cut, b.scanned = s.pos(), s.res.stopAt >= 0, s.res.cut, s.res.diags
	send(b)
}

// parseBatches parses the batches of work until it is closed.
func parseBatches(reference bool, work <-chan *stmtBatch) {
	p := &parser{reference: reference}
	if reference {
		p.g = theGrammar()
	}
	for b := range work {
		p.batch(b)
		b.parsed <- struct{}{}
	}
}

// batch parses the statements of b.
func (p *parser) batch(b *stmtBatch) {
	defer func() {
		if x := recover(); x != nil {
			b.panicked = x
		}
	}()
	p.b, p.diags, p.eof = b, b.diags, ast.Pos{}
	if b.final {
		p.eof = b.eof
	}
	for _, st := range b.stmts {
		p.next = p.unexpectedText(b.toks[st.end])
		p.add1(p.statement(b.toks[st.start:st.end], astPos(b.toks[st.end].Pos), false))
	}
	p.next = ""
	if b.final {
		tail := b.toks[b.tail:]
		switch {
		case b.aborted:
			// A severe lexical error stopped the scan inside the
			// statement being scanned: what was scanned of it is
			// incomplete, and TRCUST stops there too.
			if len(tail) > 0 && isTrace(&tail[0]) {
				// The fields read before the error are checked all the
				// same (IBM's behaviour: TRCUST reads a TRACE field by
				// field, so a TP before the broken string is resolved
				// first, and a missing MODNAME is reported before "new
				// line in literal"). The statement is broken; what it
				// lacks at the cut says nothing (see add).
				p.partial, p.cut = true, b.cut
				p.add1(p.statement(tail, p.eof, true))
				p.partial = false
			} else if len(tail) > 0 {
				if st := cutHeader(tail, b.scanned); st != nil {
					p.add1(st)
				} else {
					// Any other statement, and tokens outside any: TRCUST
					// reads what it can before its lexer meets the error,
					// and says what it finds wrong there first (IBM's
					// behaviour, fresh seed 1363825: after MODNAME's
					// value, "%F(b \"xx" is "unexpected: %F", "(" and
					// "b", then "new line in literal"; "TYPELIST xyz
					// \"xx" is the list's severe syntax error). What the
					// cut leaves missing says nothing (add).
					p.partial, p.cut = true, b.cut
					p.add1(p.statement(tail, p.eof, true))
					p.partial = false
				}
			}
		case len(tail) > 0:
			st := p.statement(tail, p.eof, true)
			if h := headerCut(tail, p.eof); h != nil {
				// The file ends after a header keyword (and '='): the
				// statement is still one, for its redefinition, which
				// TRCUST reports right after the keyword, before it
				// meets the end (IBM's behaviour: "MAJOR=1" then
				// "MAJOR" alone is "MAJOR redefinition" at that line,
				// not the premature end; a first MAJOR so cut is the
				// premature end, which the statement reported).
				st = h
			}
			p.add1(st)
		}
		// The scanner's messages go first: where one stands at the same
		// place as the parser's, TRCUST printed it as it read the token,
		// before it said what was wrong with the token (a NUL in a
		// string).
		p.diags = append(slices.Clip(b.scanned), p.diags...)
	}
	b.diags, p.b = p.diags, nil
}

// cutHeader returns, for a MAJOR, MAXDATALENGTH or TDFID statement whose
// value a lexical error stopped the scan in (scanned holds the error), the
// statement with Cut set and the error's position as the value's, and nil
// for any other: TRCUST 3.05A checks those for a redefinition before it
// reads the value (IBM's behaviour, tried with its binary: a second
// "MAJOR=" before a number of 259 digits, or before a string broken by a
// new line, is "MAJOR redefinition"; a second MODNAME is not checked
// first).
func cutHeader(tail []lexer.Token, scanned diag.List) tsf.Stmt {
	i := slices.IndexFunc(scanned, func(d diag.Diagnostic) bool { return d.Severity >= diag.Severe })
	if i < 0 {
		return nil
	}
	return headerCut(tail, scanned[i].Pos)
}

// headerCut returns, for tail a MAJOR, MAXDATALENGTH or TDFID keyword and
// nothing after it but '=', the statement cut short at at (its Cut set),
// else nil: when the value was read, what cut the statement is after it,
// in what follows (parse's aborted statement).
func headerCut(tail []lexer.Token, at ast.Pos) tsf.Stmt {
	if tail[0].Type != tokIdent {
		return nil
	}
	for _, t := range tail[1:] {
		if !isPunct(t, "=") {
			return nil
		}
	}
	pos, v := astPos(tail[0].Pos), &tsf.Number{Pos: at}
	switch strings.ToUpper(tail[0].Value) {
	case "MAJOR":
		return &tsf.Major{Pos: pos, Value: v, Cut: true}
	case "TDFID":
		return &tsf.TDFID{Pos: pos, Value: v, Cut: true}
	case "MAXDATALENGTH", "MAXDATALEN":
		return &tsf.MaxDataLength{Pos: pos, Spelling: tail[0].Value, Value: v, Cut: true}
	}
	return nil
}

// add1 adds the statement s (nil when its tokens made none) to the batch,
// with where the nodes of the next one begin.
func (p *parser) add1(s tsf.Stmt) {
	b := p.b
	b.out = append(b.out, s)
	b.marks = append(b.marks, b.nodes.mark())
}

// parser parses statements: those of a batch (b) for a worker, or others
// for the tests.
type parser struct {
	g         *grammar
	reference bool // parse with participle instead of the generated parsers
	headerGen headerParserGen
	listGen   listParserGen
	fieldGen  fieldParserGen
	fieldOut  field // the field fieldGen parses into, converted at once
	eof       ast.Pos
	out       *tsf.File // the tree, for the tests that parse without batches
	diags     diag.List
	traces    []tsf.Trace // where newTrace takes the next TRACE from
	b         *stmtBatch  // the batch being parsed: its nodes, fields and notes
	nodes     fieldNodes  // the nodes of the fields when there is no batch
	partial   bool        // parsing a TRACE cut short by a severe lexical error
	cut       int         // the offset of the token that error stopped in, -1 if none
	// stmt and stmtEnd are the tokens and the end of the TRACE statement
	// being parsed (tokenAt), stmtLast whether it is the file's last.
	stmt     []lexer.Token
	stmtEnd  ast.Pos
	stmtLast bool
	// next is the word that starts the statement after the one being
	// parsed, as messages name it ("missing ')' before 'TRACE'",
	// "invalid number found: GROUPLIST"); "" when unknown (nextWord).
	next string
	// pastEnd says that converting a field met the end of the file where
	// TRCUST 3.05A reads on for a token (ORBIT=(1, OPCODE=+): the
	// statement's premature end (tsf.Trace.PastEnd).
	pastEnd bool
	// notes are the scanner's scanResult.notes when there is no batch,
	// else the batch's notes say them.
	notes map[int]tokenNote
	cur   []lexer.Token // the tokens of any statement being parsed (unexpectedText)
}

// unexpectedText is unexpectedText with the slashes glued to a
// punctuation token before it (tokenNote): TRCUST 3.05A names "/ ("
// "/(" (IBM's behaviour).
func (p *parser) unexpectedText(t lexer.Token) string {
	if isPunct(t, "@") {
		// '@' and the file name after it are one token of TRCUST's, named
		// by the name (unexpectedAt): "DESC=@x" is "missing 'literal'
		// before 'x'", "DESC=@" "before ''" (IBM's behaviour).
		if i, ok := slices.BinarySearchFunc(p.cur, t.Pos.Offset, func(t lexer.Token, off int) int { return t.Pos.Offset - off }); ok {
			text, _ := p.unexpectedAt(p.cur, i)
			return text
		}
	}
	if t.Type == tokPunct {
		if n := p.note(t.Pos.Offset).slashes; n > 0 {
			return strings.Repeat("/", n) + t.Value
		}
	}
	return unexpectedText(t)
}

// note is what the scanner noted of the token at off (tokenNote).
func (p *parser) note(off int) tokenNote {
	if p.b == nil {
		return p.notes[off]
	}
	for _, n := range p.b.notes {
		if n.off == off {
			return n
		}
	}
	return tokenNote{}
}

// commentLine is the line where a C comment that touches the token at off
// ends, 0 when there is none (tokenNote.line).
func (p *parser) commentLine(off int) int { return p.note(off).line }

// fieldNodes returns where the nodes of fields come from.
func (p *parser) fieldNodes() *fieldNodes {
	if p.b != nil {
		return &p.b.nodes
	}
	return &p.nodes
}

// headerKeywords start a header statement, listKeywords a TYPELIST or
// GROUPLIST, before the first TRACE; after it, only TRACE starts a statement
// and the others are unexpected inside it.
var (
	headerKeywords = []string{"MODNAME", "MAJOR", "MAXDATALENGTH", "MAXDATALEN", "TDFID"}
	listKeywords   = []string{"TYPELIST", "GROUPLIST"}
	opFlagKeywords = []string{"ABORTOP", "REMOVEOP"}
	fieldKeywords  = []string{"MINOR", "TP", "OPCODE", "TYPE", "GROUP", "DESC", "FMT", "LEN",
		"REGS", "MEM32", "MEM", "ASCIIZ32", "ASCIIZ", "ORBIT", "ABORTOP", "REMOVEOP"}
)

func isWord(t *lexer.Token, words []string) bool {
	if t.Type != tokIdent || t.Value == "" {
		return false
	}
	c := t.Value[0]
	if c >= 'a' && c <= 'z' {
		c -= 'a' - 'A'
	}
	for _, w := range words {
		// The words are upper case: an ASCII first byte folds to no
		// other's first letter (only K and S fold to runes outside
		// ASCII, which start no ASCII byte), so it is tested first.
		if c < utf8.RuneSelf && c != w[0] {
			continue
		}
		if isKeyword(t.Value, w) {
			return true
		}
	}
	return false
}

// isKeyword reports whether v is the keyword kw (upper-case letters and
// digits) in any case, as strings.EqualFold does: byte by byte when v is as
// long as kw; EqualFold decides a longer v with bytes from 0x80 on (the
// Kelvin sign folds to K, the long s to S).
func isKeyword(v, kw string) bool {
	if len(v) != len(kw) {
		// A rune folding to an ASCII letter is longer than it: a shorter
		// v is never kw.
		if len(v) < len(kw) {
			return false
		}
		for i := 0; i < len(v); i++ {
			if v[i] >= utf8.RuneSelf {
				return strings.EqualFold(v, kw)
			}
		}
		return false
	}
	// As long as kw, v folds to it only byte by byte: a rune from 0x80
	// on that folds to an ASCII letter takes more bytes than the letter.
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		if c != kw[i] {
			return false
		}
	}
	return true
}

// isTrace reports whether t is the keyword TRACE, in any case.
func isTrace(t *lexer.Token) bool { return t.Type == tokIdent && isKeyword(t.Value, "TRACE") }

// split cuts the token stream into statements: a statement keyword starts a
// new one unless it stands inside parentheses or after '=' (GROUP=TRACE
// names a group).
func split(toks []lexer.Token) [][]lexer.Token {
	var stmts [][]lexer.Token
	var sp splitter
	start := 0
	for i := range toks {
		if sp.starts(toks, start, i) && i > start {
			stmts = append(stmts, toks[start:i])
			start = i
		}
	}
	if start < len(toks) {
		stmts = append(stmts, toks[start:])
	}
	return stmts
}

// splitter tells where statements start, token by token.
type splitter struct {
	depth  int
	traced bool // a TRACE statement was seen: only TRACE starts one now
	// listed: a TYPELIST or GROUPLIST was seen, and header keywords start
	// no statement any more. IBM's behaviour: TRCUST 3.05A reads the
	// header statements, then the lists, then the TRACE statements; a
	// MAJOR, MODNAME, MAXDATALENGTH or TDFID after a list is a run of
	// unexpected tokens, each reported and ignored (TRCUST(n) ERROR:
	// unexpected: MAJOR, ignored / =, ignored / 0x30, ignored).
	listed bool
}

// starts takes token i of toks, whose current statement starts at start,
// and reports whether it starts a new statement (or is the first token).
func (sp *splitter) starts(toks []lexer.Token, start, i int) bool {
	t := &toks[i]
	switch t.Type {
	case tokPunct:
		switch t.Value {
		case "(":
			sp.depth++
		case ")":
			if sp.depth > 0 {
				sp.depth--
			}
		}
		return i == start
	case tokIdent:
	default:
		// Only a word starts a statement; any token is the first of its
		// own.
		return i == start
	}
	if i == start {
		sp.traced = sp.traced || isTrace(t)
		sp.listed = sp.listed || isWord(t, listKeywords)
		return true
	}
	trace := isTrace(t)
	if !trace && sp.traced {
		return false
	}
	starts := trace || !sp.traced && (!sp.listed && isWord(t, headerKeywords) || isWord(t, listKeywords))
	// TRACE starts a statement inside parentheses too (IBM's behaviour,
	// tried with its binary: after "REGS=(EAX," or a stray "(((" the
	// next TRACE is read, "missing ')' before 'TRACE'").
	// After "=" a word is a value only for GROUP (IBM's behaviour, tried
	// with its binary after each keyword: "GROUP=" then TRACE is the
	// group TRACE; "FMT=", "MINOR=", "x=" then TRACE start a statement).
	afterGroup := i >= 2 && isPunct(toks[i-1], "=") && toks[i-2].Type == tokIdent &&
		(strings.EqualFold(toks[i-2].Value, "GROUP") || strings.EqualFold(toks[i-2].Value, "NAME"))
	// A header or list keyword after '=' starts one too (IBM's behaviour:
	// "MAXDATALENGTH=" before "TDFID=5" warns of the value it did not
	// find, and TDFID is read).
	if starts && (sp.depth == 0 || trace) && !afterGroup {
		sp.depth = 0
		sp.traced = sp.traced || trace
		sp.listed = sp.listed || isWord(t, listKeywords)
		return true
	}
	return false
}

// symbolTP returns the target of f when f is a TP field naming a symbol.
func symbolTP(f tsf.Field) (*tsf.SymbolTP, bool) {
	tp, ok := f.(*tsf.TP)
	if !ok {
		return nil, false
	}
	st, ok := tp.Target.(*tsf.SymbolTP)
	return st, ok
}

// nextWord is the word that starts the next statement (parser.next),
// TRACE when it is not known.
func (p *parser) nextWord() string {
	if p.next != "" {
		return p.next
	}
	return "TRACE"
}

// isPunct reports whether t is the punctuation p (a string holding "(" is
// text, not a parenthesis).
func isPunct(t lexer.Token, p string) bool { return t.Type == tokPunct && t.Value == p }

// statement parses one statement, which ends at end; last tells whether
// it is the last of the file. It returns nil when the tokens make no
// statement.
func (p *parser) statement(st []lexer.Token, end ast.Pos, last bool) tsf.Stmt {
	p.cur = st
	defer func() { p.cur = nil }()
	head := &st[0]
	var s tsf.Stmt
	switch {
	case isTrace(head):
		s = p.trace(st, end, last)
	case isWord(head, headerKeywords):
		s = p.header(st, end, last)
	case isWord(head, listKeywords):
		s = p.list(st, end, last)
	default:
		p.unexpected(st)
	}
	return s
}

// add adds d to the diagnostics. In a TRACE cut short by a severe lexical
// error, what the cut causes (a field missing at the end, reported at the
// end) says nothing; a token the statement cannot place before the cut is
// reported as in any statement (IBM's behaviour: TRCUST 3.05A prints
// "unexpected: %dx, ignored" before "new line in literal" on the same
// line).
func (p *parser) add(d diag.Diagnostic) {
	if p.partial && d.Pos.Offset >= p.eof.Offset {
		return
	}
	p.diags.Add(d)
}

// posSince is the position of the last diagnostic added after the first
// n, or end when there is none (add dropped it: a statement cut short by a
// severe lexical error), so that an earlier statement's diagnostic is not
// taken for this one's (tsf.Trace.BrokenAt).
func (p *parser) posSince(n int, end ast.Pos) ast.Pos {
	if len(p.diags) > n {
		return p.diags[len(p.diags)-1].Pos
	}
	return end
}

// unexpected reports each of toks as unexpected, at its own line: outside a
// TRACE statement TRCUST 3.05A reads a token it cannot place, says
// "unexpected: <token>, ignored" and goes on with the next token (IBM's
// behaviour, seen on generated programs).
//
// A word after '.' is named without the dot: TRCUST reads '.' as the start
// of a symbol and keeps the name after it ("MODNAME=.\emitrep.dll" after a
// TYPELIST gives "unexpected: \emitrep.dll, ignored"; IBM's behaviour).
func (p *parser) unexpected(toks []lexer.Token) {
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		text, name := p.unexpectedAt(toks, i)
		if name {
			i++
		}
		p.add(tsf.ErrUnexpected.Diagnostic(astPos(t.Pos), p.commentLine(t.Pos.Offset), text))
	}
}

// unexpectedAt is how TRCUST 3.05A names the unexpected token toks[i]
// (unexpectedText); name says that the token after it, a file name, is
// part of it: the '@' and the file name after it are one token of TRCUST's,
// named by the file name (IBM's behaviour: "TP=@a.c" outside a TRACE is
// "unexpected: a.c", a lone '@' "unexpected: ").
func (p *parser) unexpectedAt(toks []lexer.Token, i int) (text string, name bool) {
	if !isPunct(toks[i], "@") {
		return p.unexpectedText(toks[i]), false
	}
	if i+1 < len(toks) && toks[i+1].Type == tokPath {
		return toks[i+1].Value, true
	}
	// A lone '@' is named by the slashes glued to it ("/ @ ," is
	// "unexpected: /", IBM's behaviour).
	return strings.Repeat("/", p.note(toks[i].Pos.Offset).slashes), false
}

// peeker returns a participle lexer over toks followed by an EOF at end.
func peeker(toks []lexer.Token, end ast.Pos) *lexer.PeekingLexer {
	// Upgrade fails only when the lexer's Next does, and a sliceLexer's
	// Next never fails.
	pl, _ := lexer.Upgrade(&sliceLexer{toks: toks, eof: lexPos(end)})
	return pl
}

// consumed returns how many tokens a parse took from pl.
func consumed(pl *lexer.PeekingLexer) int { return pl.MakeCheckpoint().Cursor() }

// header parses a header statement.
func (p *parser) header(toks []lexer.Token, end ast.Pos, last bool) tsf.Stmt {
	var h *header
	var n int
	var err error
	if p.reference {
		pl := peeker(toks, end)
		h, err = p.g.header.ParseFromLexer(pl, participle.AllowTrailing(true))
		n = consumed(pl)
	} else {
		h, n, err = p.headerGen.ParseTokens(toks, lexPos(end), true)
	}
	if err != nil {
		p.syntaxError(err, end, last, true)
		return nil
	}
	if last && !p.partial && cutAfterEquals(toks, n) {
		// IBM's behaviour: "MODNAME=" or "MAJOR=" at the end of the file:
		// TRCUST 3.05A reads on for the value and meets the end (severe
		// 34), before it judges a value it never read.
		d := tsf.SeverePrematureEOF.Diagnostic(end, 0)
		d.Detail = "the file ends before the value"
		p.add(d)
		return nil
	}
	if mn := h.ModName; mn != nil {
		if mn.Path == nil && last && !p.partial && n == 1 && len(toks) == 1 {
			// IBM's behaviour: "MODNAME" alone at the end of the file:
			// TRCUST 3.05A reads on for the '=' and meets the end (34
			// alone), as for "MAJOR".
			d := tsf.SeverePrematureEOF.Diagnostic(end, 0)
			d.Detail = "the file ends before the value"
			p.add(d)
			return nil
		}
		if mn.Path == nil {
			// IBM's behaviour: TRCUST 3.05A stops at the token that is
			// no file name; without the '=' it has assumed one first
			// ("MODNAME 5" warns 133, then 33).
			pos := end
			if n < len(toks) {
				pos = astPos(toks[n].Pos)
			}
			if !mn.Eq {
				at := pos
				at.Offset--
				p.add(tsf.WarnExpected.Diagnostic(at, 0, "=", toks[0].Value))
			}
			p.add(tsf.SevereNoModName.Diagnostic(pos, 0))
			return nil
		}
		if !mn.Eq {
			p.add(tsf.WarnExpected.Diagnostic(astPos(mn.Path.Pos), 0, "=", toks[0].Value))
		}
		// Each token after the name (and its comma) is unexpected.
		p.unexpected(toks[n:])
		return &tsf.ModName{Pos: astPos(mn.Pos), Path: &tsf.Word{Pos: astPos(mn.Path.Pos), Text: mn.Path.Text}}
	}
	a := h.Assign
	if last && !p.partial && len(toks) == 1 {
		// IBM's behaviour: "MAJOR" at the end of the file: TRCUST 3.05A
		// reads on for the '=' and meets the end (34), as after "MAJOR=".
		d := tsf.SeverePrematureEOF.Diagnostic(end, 0)
		d.Detail = "the file ends before the value"
		p.add(d)
		return nil
	}
	if a.Comma != nil && strings.EqualFold(a.Key, "TDFID") {
		// IBM's behaviour: TDFID takes no comma after its value, MAJOR
		// and MAXDATALENGTH one ("TDFID=1," is "unexpected: ,").
		n--
	}
	// Where a missing value is reported: at the last token read, or
	// without the '=' at the token after the keyword (the end of the
	// statement when nothing follows).
	at := toks[n-1].Pos
	if a.Eq && a.Value == nil && n == len(toks) {
		// Nothing after the '=': TRCUST reads the next statement's first
		// word as the value, judges it there and reads that statement
		// (IBM's behaviour: "MAXDATALENGTH=" before "TDFID=5" warns at
		// TDFID's line), ordered just before it.
		at = lexPos(end)
		at.Offset--
	}
	if !a.Eq {
		at = lexPos(end)
		if len(toks) > 1 {
			// Just before that token: TRCUST judges the value it reads
			// there before it finds the token unexpected (IBM's
			// behaviour: "MAXDATALENGTH x= 512" warns "out of range"
			// before "unexpected: x").
			at = toks[1].Pos
			at.Offset--
		}
		// IBM's behaviour: "MAJOR 0x42" is warning 133, as for MODNAME,
		// naming the keyword as written.
		p.add(tsf.WarnExpected.Diagnostic(astPos(at), 0, "=", a.Key))
	}
	// IBM's behaviour: each token after the value and its comma (or
	// after the '=', when no number follows it) is unexpected.
	p.unexpected(toks[n:])
	num := p.numberOrZero(a.Value, at)
	pos := astPos(a.Pos)
	switch strings.ToUpper(a.Key) {
	case "MAJOR":
		return &tsf.Major{Pos: pos, Value: num}
	case "TDFID":
		return &tsf.TDFID{Pos: pos, Value: num}
	}
	return &tsf.MaxDataLength{Pos: pos, Spelling: a.Key, Value: num}
}

// list parses a TYPELIST or GROUPLIST.
func (p *parser) list(toks []lexer.Token, end ast.Pos, last bool) tsf.Stmt {
	pos := astPos(toks[0].Pos)
	typeList := strings.EqualFold(toks[0].Value, "TYPELIST")
	max := tsf.MaxGroups
	if typeList {
		max = tsf.MaxTypes
	}
	toks = p.assumeListEquals(toks, max)
	var entries []*tsf.ListEntry
	// rest is the list keyword and the entries still to read: after an
	// entry with an error, TRCUST 3.05A skips to the next NAME and reads
	// on from there (IBM's behaviour: "NAME=A ID=1, NAME=B, ID=2" is the
	// missing ',' and the entry B).
	rest := toks
	for {
		l, n, err := p.parseList(rest, end)
		if err == nil && n < len(rest) && isWord(&rest[n], nameKeyword) {
			// An entry that is not whole after whole ones: its error
			// comes from reading it on its own.
			entries = p.listEntries(entries, l)
			rest = append([]lexer.Token{rest[0]}, rest[n:]...)
			continue
		}
		if err == nil {
			entries = p.listEntries(entries, l)
			if len(entries) <= max {
				// IBM's behaviour: after a list with too many entries
				// (134) TRCUST 3.05A skips what follows it to the next
				// TRACE without a word.
				p.unexpected(rest[n:])
			}
			if l.Trailing != nil && last {
				// TRCUST 3.05A takes a comma before the end of the file
				// as the end of the statement (oracle x_h35); tracekit
				// says so.
				p.add(tsf.WarnTrailingComma.Diagnostic(astPos(l.Trailing.Pos), p.eof.Line))
			}
			break
		}
		at, skip := p.listError(err, end, last)
		// The entries before the one that failed, then the next NAME: the
		// one TRCUST stopped at, too (IBM's behaviour: "NAME=DBG,ID=
		// NAME=G2,ID=3" is "invalid number found: NAME", and G2 is read).
		start, next := 0, 0
		for i := 1; i < len(rest); i++ {
			if isWord(&rest[i], nameKeyword) {
				if rest[i].Pos.Offset < at {
					start = i
				} else if next == 0 {
					next = i
				}
			}
		}
		if start > 1 {
			if l, _, err := p.parseList(rest[:start], end); err == nil {
				entries = p.listEntries(entries, l)
			}
		}
		if start > 0 && start+2 < len(rest) && isPunct(rest[start+1], "=") && rest[start+2].Type == tokIdent && rest[start+2].Pos.Offset < at {
			// The entry broke after its name, which TRCUST 3.05A has read
			// and judged (IBM's behaviour: "NAME=LONGGROUPNAME ID=3",
			// "NAME=LONGGROUPNAME, ID=x" and a list cut by the end of the
			// file after the name warn that the name is too long, before
			// the error).
			nt := rest[start+2]
			entries = append(entries, &tsf.ListEntry{Pos: astPos(rest[start].Pos), Name: &tsf.Word{Pos: astPos(nt.Pos), Text: nt.Value}})
		}
		if !skip || next == 0 {
			// A severe error ends the list, whose entries read before
			// it stand (TRCUST 3.05A has judged them; "TYPELIST
			// redefinition" of a second list comes before the error,
			// IBM's behaviour, fresh seed 970983).
			break
		}
		rest = append([]lexer.Token{rest[0]}, rest[next:]...)
	}
	if typeList {
		return &tsf.TypeList{Pos: pos, Entries: entries}
	}
	return &tsf.GroupList{Pos: pos, Entries: entries}
}

// nameKeyword is the keyword an entry of a TYPELIST or GROUPLIST starts with.
var nameKeyword = []string{"NAME"}

// assumedAt is where warning 133 of the '=' a field's or a list entry's
// keyword toks[i] lacks stands: ordered just before the keyword, at the
// line of the token after it, which TRCUST 3.05A has read when it says so
// (IBM's behaviour: "MINOR" then "5" on the next line is the warning at
// the line of 5; a header keyword's stays at its own line).
func assumedAt(toks []lexer.Token, i int) ast.Pos {
	at := astPos(toks[i].Pos)
	at.Offset--
	at.Line = toks[i+1].Pos.Line
	return at
}

// insertEquals returns toks with the '=' that keyword toks[i] lacks put in
// after it, at the keyword's last byte, where no token starts; toks itself
// is left as it is.
func insertEquals(toks []lexer.Token, i int) []lexer.Token {
	eq := toks[i]
	eq.Type, eq.Value = tokPunct, "="
	eq.Pos.Offset += len(toks[i].Value) - 1
	eq.Pos.Column += len(toks[i].Value) - 1
	return append(append(toks[:i+1:i+1], eq), toks[i+1:]...)
}

// idKeyword is the keyword of an entry's ID.
var idKeyword = []string{"ID"}

// assumeListEquals puts in the '=' that a NAME or ID keyword of a list's
// entry lacks (before a token that is no '='), with warning 133
// (assumedAt), the keyword as written. IBM's behaviour: TRCUST 3.05A
// assumes it, as it does after a field's keyword ("NAME G, ID 3" is two
// warnings "'=' expected before 'NAME', one assumed" and "... 'ID' ..."
// and the entry G; "NAME 5" the warning, then "missing 'identifier'
// before '5'"), in the entries it reads: it reads them as the grammar
// says, goes on at the next NAME after an entry it could not read (a
// missing ',' after a name: "NAME=G ID 3" is that error alone), and stops
// at a token that is no NAME where an entry starts (the rest is
// unexpected). From the entry after the last one the list may hold (max)
// TRCUST reads nothing ("too many typenames"): the '=' is put in there
// without a word, for the grammar (the entries stand, for the checker's
// warning).
func (p *parser) assumeListEquals(toks []lexer.Token, max int) []lexer.Token {
	n := 0
	assume := func(i int) {
		if i+1 >= len(toks) || isPunct(toks[i+1], "=") {
			return
		}
		if n < max {
			p.add(tsf.WarnExpected.Diagnostic(assumedAt(toks, i), 0, "=", toks[i].Value))
		}
		toks = insertEquals(toks, i)
	}
	// nextName is the index of the next NAME after i, len(toks) when
	// there is none.
	nextName := func(i int) int {
		for i++; i < len(toks) && !isWord(&toks[i], nameKeyword); i++ {
		}
		return i
	}
	for i := 1; i < len(toks); n++ {
		if !isWord(&toks[i], nameKeyword) {
			break
		}
		assume(i)
		// NAME = name , ID = id [,]
		if i+4 >= len(toks) || !isPunct(toks[i+3], ",") {
			i = nextName(i)
			continue
		}
		if !isWord(&toks[i+4], idKeyword) {
			break // severe 38
		}
		assume(i + 4)
		i += 7
		if i < len(toks) && isPunct(toks[i], ",") {
			i++
		}
	}
	return toks
}

// parseList parses a TYPELIST or GROUPLIST statement toks; n is the number
// of tokens it took.
func (p *parser) parseList(toks []lexer.Token, end ast.Pos) (l *listStmt, n int, err error) {
	if p.reference {
		pl := peeker(toks, end)
		l, err = p.g.list.ParseFromLexer(pl, participle.AllowTrailing(true))
		return l, consumed(pl), err
	}
	return p.listGen.ParseTokens(toks, lexPos(end), true)
}

// listEntries appends the entries of l to entries. An ID that is no
// number, or one too large, is kept with its Err and the value 0, for the
// checker's "invalid ID" (IBM's behaviour: ID=12ab and ID=4294967296 are
// "invalid ID: 12ab, ignored", the list going on).
func (p *parser) listEntries(entries []*tsf.ListEntry, l *listStmt) []*tsf.ListEntry {
	for _, e := range l.Entries {
		id := new(tsf.Number)
		numberOrZeroInto(id, e.ID.Pos, e.ID.Text)
		entries = append(entries, &tsf.ListEntry{
			Pos:  astPos(e.Pos),
			Name: &tsf.Word{Pos: astPos(e.Name.Pos), Text: e.Name.Text},
			ID:   id,
		})
	}
	return entries
}

// trace parses a TRACE statement field by field. A syntax error marks it
// Broken and skips the rest of it.
func (p *parser) trace(toks []lexer.Token, end ast.Pos, last bool) *tsf.Trace {
	p.stmt, p.stmtEnd, p.stmtLast = toks, end, last
	t := p.newTrace()
	t.Pos, t.End, t.Broken = astPos(toks[0].Pos), end, p.partial
	if len(toks) == 1 && last && !p.partial {
		// IBM's behaviour: TRCUST 3.05A reads on after the keyword TRACE
		// for a field and meets the end of the file (severe 34, also
		// after a Ctrl-Z).
		t.PastEnd = true
	}
	i := 1
	if len(toks) > 1 && isPunct(toks[1], ",") {
		// IBM's behaviour: TRCUST 3.05A passes over one comma right after
		// TRACE ("TRACE , MINOR=2" is MINOR=2; a second is unexpected).
		i = 2
	}
	for i < len(toks) {
		n0 := len(p.diags)
		if !isWord(&toks[i], fieldKeywords) {
			p.unexpectedField(toks, i)
			t.Broken, t.BrokenAt = true, p.posSince(n0, end)
			return t
		}
		if i+1 < len(toks) && !isPunct(toks[i+1], "=") && !isWord(&toks[i], opFlagKeywords) {
			// IBM's behaviour: TRCUST 3.05A assumes the '=' a field's
			// keyword lacks, with warning 133 ("MINOR 5", "MEM
			// (.x,D,4)"), as for MODNAME and MAJOR. The warning is
			// ordered just before the keyword, at the line of the token
			// after it (assumedAt): TRCUST gives it as it reads that
			// token, before what the field says of its value
			// ("MINOR, TP=" is the warning, then "minor code not
			// specified") and before it opens the module for a TP. The
			// '=' is put in at the keyword's last byte, where no token
			// starts.
			if _, refused := refusedAtKeyword(t, toks[i]); !refused {
				// A data statement after TP=@STATIC or before the TP
				// is refused at its keyword, before TRCUST reads on for
				// the '=' (IBM's behaviour: "REGS (EAX)" there is that
				// error alone).
				p.add(tsf.WarnExpected.Diagnostic(assumedAt(toks, i), 0, "=", toks[i].Value))
			}
			toks = insertEquals(toks, i)
			p.stmt = toks
		}
		var f *field
		var n int
		var err error
		if p.reference {
			pl := peeker(toks[i:], end)
			f, err = p.g.field.ParseFromLexer(pl, participle.AllowTrailing(true))
			n = consumed(pl)
		} else {
			n, err = p.fieldGen.ParseTokensInto(toks[i:], lexPos(end), true, &p.fieldOut)
			f = &p.fieldOut
		}
		if err != nil {
			if d, ok := refusedAtKeyword(t, toks[i]); ok {
				// IBM's behaviour: after TP=@STATIC, or before the TP
				// field, TRCUST 3.05A refuses a data statement at its
				// keyword, before it reads the rest (fresh seed 911266):
				// no syntax error of it is reported.
				p.add(d)
				t.Broken, t.BrokenAt = true, p.posSince(n0, end)
				return t
			}
			m, reported := p.partialData(toks[i:], err, end)
			if p.pastEnd {
				p.pastEnd = false
				t.PastEnd = true
				return t
			}
			if m == nil {
				m = partialList(toks[i:], err)
			}
			if m != nil {
				// The statement breaks after a whole address: TRCUST
				// 3.05A has checked the address by then (IBM's
				// behaviour: "ASCIIZ32=(RSS+BP,,300)" is "use Flat reg
				// with MEM32/ASCIIZ32", not the missing flag; fresh seed
				// 911266). The checker checks it, and its error replaces
				// the parser's.
				if t.Fields == nil {
					t.Fields = p.newFields(fieldCount(toks))
				}
				t.Fields = append(t.Fields, m)
			}
			if reported {
				// The address broke before the parse did (IBM's
				// behaviour: "MEM=(.x+EAX 3,D,4)" is "missing ','
				// before 'EAX'"): one error for the statement.
				t.Broken, t.BrokenAt = true, p.posSince(n0, end)
				return t
			}
			if d, ok := redefinedAtKeyword(t, toks[i:]); ok {
				// IBM's behaviour: TRCUST 3.05A refuses a second MINOR,
				// TP, OPCODE, ORBIT or DESC as it reads the keyword,
				// before a value it cannot read ("MINOR=" then the next
				// TRACE is "MINOR redefinition").
				p.add(d)
				t.Broken, t.BrokenAt = true, p.posSince(n0, end)
				return t
			}
			p.syntaxError(err, end, last, false)
			t.Broken, t.BrokenAt = true, p.posSince(n0, end)
			return t
		}
		if d, ok := refusedAtKeyword(t, toks[i]); ok {
			// Refused at its keyword, before its address is converted
			// (IBM's behaviour: "ASCIIZ32=(errno,...)" after TP=@STATIC
			// is the STATIC message, not "invalid address specified",
			// fresh seed 942010; "MEM=(EBP,...)" before the TP field
			// "DATA_STATEMENT before TP statement", fresh seed 951541).
			p.add(d)
			t.Broken, t.BrokenAt = true, p.posSince(n0, end)
			return t
		}
		i += n
		if last && !p.partial && cutAfterEquals(toks, i) {
			if d, ok := redefinedAtKeyword(t, toks[i-n:]); ok {
				// A second MINOR or OPCODE is refused at its '=', before
				// the value TRCUST would read on for (IBM's behaviour:
				// "MINOR=1, ..., MINOR=" at the end is "MINOR
				// redefinition", the tracepoint ignored).
				p.add(d)
				t.Broken, t.BrokenAt = true, p.posSince(n0, end)
				return t
			}
			// IBM's behaviour: "MINOR=" or "OPCODE=" at the end of the
			// file: TRCUST 3.05A reads on for the value and meets the
			// end (severe 34), unless an error before it in the
			// statement spares it; the field was never read.
			t.PastEnd = true
			return t
		}
		fld := p.field(f)
		if fld == nil && p.pastEnd {
			p.pastEnd = false
			t.PastEnd = true
			return t
		}
		if fld == nil {
			t.Broken, t.BrokenAt = true, p.posSince(n0, end)
			return t
		}
		if _, cut := dataAddr(fld); cut {
			// Its address broke: what was read of it is checked (the
			// field's Cut).
			if t.Fields == nil {
				t.Fields = p.newFields(fieldCount(toks))
			}
			t.Fields = append(t.Fields, fld)
			t.Broken, t.BrokenAt = true, p.posSince(n0, end)
			return t
		}
		if m, ok := fld.(*tsf.Minor); ok && p.partial && i == len(toks) && m.Bad != nil && m.Bad.Text == "" {
			// "MINOR=" and the value a lexical error cut: what the cut
			// leaves out says nothing (IBM's behaviour, tried with its
			// binary: "MINOR=" before a number of 259 digits, or before
			// a string broken by a new line, is only that error).
			t.Broken, t.BrokenAt = true, p.posSince(n0, end)
			return t
		}
		if t.Fields == nil {
			t.Fields = p.newFields(fieldCount(toks))
		}
		t.Fields = append(t.Fields, fld)
		next := end
		if i < len(toks) {
			next = astPos(toks[i].Pos)
		}
		switch fld := fld.(type) {
		case *tsf.Opcode:
			fld.Next = next
		case *tsf.TP:
			// Past a comma, the token after it (oracle e11, d59b: the
			// next field's line).
			fld.Next, fld.NextField = next, next
			if i < len(toks) && toks[i].Value == "," {
				fld.NextField = end
				if i+1 < len(toks) {
					fld.NextField = astPos(toks[i+1].Pos)
				}
			}
			if st, ok := fld.Target.(*tsf.SymbolTP); ok && st.BadOffset != nil {
				// TRCUST reads the offset that is no number again as
				// the token after the TP (IBM's behaviour: "symbol not
				// found" at its line): at the token's end.
				at := st.BadOffset.Pos
				at.Offset, at.Col = at.Offset+len(st.BadOffset.Text), at.Col+len(st.BadOffset.Text)
				fld.Next, fld.NextField = at, at
			}
		}
		if st, ok := symbolTP(fld); ok && st.RetEP != nil && i < len(toks) && isPunct(toks[i], "=") {
			// IBM's behaviour: "RETEP=" is "Invalid RETEP criteria
			// specified" at the token after the '=' (the next
			// statement's, when the '=' ends this one), before the TP
			// is looked up; the statement is skipped, the run goes on.
			at := end
			if i+1 < len(toks) {
				at = astPos(toks[i+1].Pos)
			}
			// Found at RETEP: before the TP is resolved (IBM's
			// behaviour: TP=.nosuch,RETEP=5 is this message alone).
			d := tsf.FoundAtEnd(tsf.SevereRetEPCriteria.Diagnostic(at, 0), st.RetEP.Pos.Offset)
			d.Severity = diag.Error
			p.add(d)
			t.Broken, t.BrokenAt = true, p.posSince(n0, end)
			return t
		}
		if p.lineMissing(fld, toks, &i, end) {
			// The TP field stays, for the checks that come before the
			// line number (the module, fatal 2 without MODNAME).
			t.Broken, t.BrokenAt = true, p.posSince(n0, end)
			return t
		}
		if i == len(toks) {
			if last {
				if f.TP != nil && f.TP.Symbol != nil && len(f.TP.Symbol.Offsets) > 0 && f.TP.Symbol.Offsets[len(f.TP.Symbol.Offsets)-1].Num == nil && f.TP.Symbol.RetEP == nil {
					// IBM's behaviour: TRCUST 3.05A reads past the sign of
					// TP=.name+ for a number and meets the end of the file
					// (severe 34), as after TYPE and GROUP below.
					t.PastEnd = true
				}
				switch fld.(type) {
				case *tsf.Type, *tsf.Group:
					// IBM's behaviour: TRCUST 3.05A reads past a TYPE or
					// GROUP value for a comma and meets the end of the
					// file: severe 34 at the line of the end, for the
					// last field of the file only (every other field
					// may end it). The checker reports it, as an error
					// before it in the statement spares it.
					t.PastEnd = true
				}
			}
			break
		}
		switch next := toks[i]; {
		case next.Value == ",":
			i++
			if st, ok := symbolTP(fld); ok && st.RetEP == nil && i < len(toks) && isPunct(toks[i], ",") {
				// IBM's behaviour: after TP=.name and its comma TRCUST
				// 3.05A reads a token for RETEP, and passes over a comma
				// there ("TP=.emit+1, , DESC" is taken; a third comma is
				// unexpected), also at the end of the file, which it then
				// meets as the statement's end.
				i++
				break
			}
			if i == len(toks) && last {
				if tp, ok := fld.(*tsf.TP); ok {
					if st, ok := tp.Target.(*tsf.SymbolTP); ok && st.RetEP == nil {
						// IBM's behaviour: after TP=.name and a comma,
						// TRCUST 3.05A reads on for RETEP and meets the
						// end of the file (severe 34; fresh seed 942290).
						t.PastEnd = true
						break
					}
				}
				// The comma ends the last TRACE, as for 3.05A (x_h35).
				p.add(tsf.WarnTrailingComma.Diagnostic(astPos(next.Pos), p.eof.Line))
			}
		case isWord(&next, fieldKeywords):
			// TRCUST 3.05A takes the missing comma without a word (IBM's
			// behaviour); tracekit's own warning says so.
			p.add(tsf.WarnCommaAssumed.Diagnostic(astPos(next.Pos), 0, next.Value))
		default:
			p.unexpectedField(toks, i)
			t.Broken, t.BrokenAt = true, p.posSince(n0, end)
			return t
		}
	}
	return t
}

// partialList returns, for a TYPE or REGS statement toks whose parse
// failed with err inside its list, the list as far as it was read before
// the token the parse stopped at; nil when no name was read. TRCUST 3.05A
// judges each name as it reads it, before the next token (IBM's behaviour,
// tried with its binary): "TYPE=(A, V" at the end of the file warns
// "typename unknown: V" before the premature end, "TYPE=(V 5)" before the
// missing ')'; "REGS=(DX, X" is "register expected, 'X' found", "REGS=(D"
// "missing ')' before 'D'" and "REGS=(.v" "symbol not found", each in
// place of the syntax error (the checker's, tsf.Regs.Cut).
func partialList(toks []lexer.Token, err error) tsf.Field {
	var ute *participle.UnexpectedTokenError
	if !errors.As(err, &ute) || len(toks) < 4 || !isPunct(toks[1], "=") || !isPunct(toks[2], "(") {
		return nil
	}
	e := len(toks)
	if !ute.Unexpected.EOF() {
		e = slices.IndexFunc(toks, func(t lexer.Token) bool { return t.Pos.Offset >= ute.Unexpected.Pos.Offset })
		if e < 0 {
			return nil
		}
	}
	if e <= 3 {
		return nil
	}
	read := toks[3:e]
	switch {
	case strings.EqualFold(toks[0].Value, "REGS"):
		r := &tsf.Regs{Pos: astPos(toks[0].Pos), End: lastPos(toks[:e]), Cut: true}
		for _, t := range read {
			if t.Type == tokIdent || t.Type == tokSymbol {
				r.Regs = append(r.Regs, &tsf.RegItem{Pos: astPos(t.Pos), Name: t.Value, Variable: t.Type == tokSymbol})
			}
		}
		return r
	case strings.EqualFold(toks[0].Value, "TYPE"):
		ty := &tsf.Type{Pos: astPos(toks[0].Pos), End: lastPos(toks[:e])}
		for _, t := range read {
			if t.Type == tokIdent {
				ty.Names = append(ty.Names, &tsf.Word{Pos: astPos(t.Pos), Text: t.Value})
			}
		}
		return ty
	}
	return nil
}

// partialData returns, for a MEM, MEM32, ASCIIZ, ASCIIZ32 or LEN statement
// toks whose parse failed with err after the base of its address, the
// statement as far as it was read, with Cut set (tsf.Mem.Cut, tsf.Len.Cut),
// and nil otherwise. Also at the end of the file: TRCUST 3.05A judges the
// address before it meets the end, and an error of it spares the premature
// end (tsfcheck.DropSuperseded). What was read is completed by the first of
// partialTails (lenTails for LEN) the grammar takes; the parts that come
// from the tail are left out. reported says that converting what was read
// reported an error (a term of the address TRCUST refuses): that error is
// the statement's, before the parser's.
func (p *parser) partialData(toks []lexer.Token, err error, end ast.Pos) (fld tsf.Field, reported bool) {
	var ute *participle.UnexpectedTokenError
	if !errors.As(err, &ute) || len(toks) < 4 {
		return nil, false
	}
	isLen := strings.EqualFold(toks[0].Value, "LEN")
	if !isLen && !isMemKeyword(toks[0].Value) || toks[1].Value != "=" || toks[2].Value != "(" {
		return nil, false
	}
	e, at := len(toks), lexPos(end)
	if !ute.Unexpected.EOF() {
		e = slices.IndexFunc(toks, func(t lexer.Token) bool { return t.Pos.Offset >= ute.Unexpected.Pos.Offset })
		if e < 0 {
			return nil, false
		}
		at = toks[e].Pos
	}
	if e == 3 && isLen && !ute.Unexpected.EOF() {
		// IBM's behaviour: TRCUST 3.05A reads LEN's first token as a
		// symbol, whatever it is: "LEN=(+8,D)" is "symbol not found: +",
		// the statement's one error (the back end's); at the end of the
		// file it reads on first ("LEN=(+" and "LEN=()" are 34).
		t := toks[3]
		if len(toks) == 4 {
			p.readPastEnd()
			if p.pastEnd {
				return nil, true
			}
		}
		// Its message stands at the line of the token after it, which
		// TRCUST has read (the next TRACE when none is left).
		next := end
		if len(toks) > 4 {
			next = astPos(toks[4].Pos)
		}
		return &tsf.Len{Pos: astPos(toks[0].Pos), End: next, Cut: true,
			Addr: &tsf.SymbolAddr{Pos: astPos(t.Pos), Name: &tsf.Word{Pos: astPos(t.Pos), Text: unexpectedText(t)}}}, true
	}
	if e <= 3 {
		return nil, false // no address read
	}
	tails := partialTails
	if isLen {
		tails = lenTails
	}
	for _, tail := range tails {
		whole := append(make([]lexer.Token, 0, e+len(tail)), toks[:e]...)
		for _, v := range tail {
			typ := tokPunct
			switch {
			case v == "DIRECT" || v == "BX":
				typ = tokIdent
			case v[0] >= '0' && v[0] <= '9':
				typ = tokNumber
			}
			whole = append(whole, lexer.Token{Type: typ, Value: v, Pos: at})
		}
		var f *field
		if p.reference {
			var err error
			if f, err = p.g.field.ParseFromLexer(peeker(whole, astPos(at)), participle.AllowTrailing(true)); err != nil {
				continue
			}
		} else {
			var out field
			if _, err := p.fieldGen.ParseTokensInto(whole, at, true, &out); err != nil {
				continue
			}
			f = &out
		}
		n0 := len(p.diags)
		fld := p.field(f)
		reported := len(p.diags) > n0
		if ute.Unexpected.EOF() && !reported && (e == 4 || isSign(toks[e-1])) && symbolAddr(fld) {
			// IBM's behaviour: TRCUST 3.05A reads on for a token after a
			// symbol's base or sign and meets the end of the file before
			// it looks the symbol up ("MEM=(.nosuch+" at the end is only
			// the premature end; "MEM=(.nosuch+4" is "symbol not found").
			return nil, false
		}
		if ute.Unexpected.EOF() && !reported {
			if want := numberAtEnd(toks[:e], isLen, symbolAddr(fld)); want != "" {
				// IBM's behaviour: a symbol's displacement or a flag
				// level's offset read at the end of the file ends what
				// TRCUST reads, and what it wants next is missing before
				// it ("MEM=(.stdin+4" and "MEM=(.stdin,I*+4" at the end
				// are "missing ',' before '4'", "LEN=(.stdin,I*4" "missing
				// ')' before '4'"; a register form's term is the
				// premature end).
				p.add(tsf.ErrSyntax.Diagnostic(astPos(toks[e-1].Pos), 0, want, toks[e-1].Value))
				reported = true
			}
		}
		synthetic := astPos(at)
		switch m := fld.(type) {
		case *tsf.Mem:
			if m.Flag != nil && m.Flag.Pos == synthetic {
				m.Flag = nil
			}
			if m.Flag == nil || m.Length != nil && m.Length.Pos == synthetic {
				m.Length = nil
			}
			if m.Flag == nil {
				m.UseLen, m.BadLength = nil, nil
			}
			// What TRCUST reports of it, at the line of the last token read.
			m.Cut, m.End = true, astPos(toks[e-1].Pos)
			return m, reported
		case *tsf.Len:
			if m.Flag != nil && m.Flag.Pos == synthetic {
				m.Flag = nil
			}
			if m.Flag == nil {
				m.Cut = true
			}
			m.End = astPos(toks[e-1].Pos)
			return m, reported
		}
		return nil, reported
	}
	return nil, false
}

// numberAtEnd returns what TRCUST 3.05A wants after the number that ends
// toks, a MEM, MEM32, ASCIIZ, ASCIIZ32 or (isLen) LEN statement the end of
// the file cuts: a ',' after a symbol's displacement (sym) or a flag
// level's offset of a memory statement, a ')' after a LEN's; "" when the
// statement ends otherwise.
func numberAtEnd(toks []lexer.Token, isLen, sym bool) string {
	e := len(toks)
	if e < 6 || toks[e-1].Type != tokNumber {
		return ""
	}
	commas := 0
	for _, t := range toks[3:e] {
		if isPunct(t, ",") {
			commas++
		}
	}
	signed := isSign(toks[e-2])
	level := isPunct(toks[e-2], "*") || signed && isPunct(toks[e-3], "*")
	switch {
	case commas == 0 && signed && sym:
		return ","
	case commas == 1 && level && isLen:
		return ")"
	case commas == 1 && level:
		return ","
	}
	return ""
}

// dataAddr returns the address of f when it is a memory statement or LEN,
// and whether the statement broke (tsf.Mem.Cut, tsf.Len.Cut).
func dataAddr(f tsf.Field) (tsf.Address, bool) {
	switch f := f.(type) {
	case *tsf.Mem:
		return f.Addr, f.Cut
	case *tsf.Len:
		return f.Addr, f.Cut
	}
	return nil, false
}

// symbolAddr reports whether f is a memory statement or LEN whose address
// is a symbol's.
func symbolAddr(f tsf.Field) bool {
	a, _ := dataAddr(f)
	_, ok := a.(*tsf.SymbolAddr)
	return ok
}

// partialTails complete a memory statement broken at its closing
// parenthesis, in its length, before its length, in or before its flag,
// or in its address after the base (a register after a segment, a
// displacement after a sign).
var partialTails = [][]string{
	{")"}, {"1", ")"}, {",", "1", ")"}, {"DIRECT", ",", "1", ")"}, {",", "DIRECT", ",", "1", ")"},
	{"BX", ",", "DIRECT", ",", "1", ")"}, {"+", "BX", ",", "DIRECT", ",", "1", ")"}, {"2", ",", "DIRECT", ",", "1", ")"},
}

// lenTails complete a LEN statement broken at its closing parenthesis, in
// or before its flag, or in its address.
var lenTails = [][]string{{")"}, {"DIRECT", ")"}, {",", "DIRECT", ")"}, {")", ",", "DIRECT", ")"}}

// redefinedAtKeyword returns the error of a field toks (keyword first)
// that t already has and that TRCUST 3.05A refuses as a redefinition as
// it reads the keyword, at the line of the '=' after it.
func redefinedAtKeyword(t *tsf.Trace, toks []lexer.Token) (diag.Diagnostic, bool) {
	kw := strings.ToUpper(toks[0].Value)
	seen := false
	for _, f := range t.Fields {
		if f.Keyword() == kw {
			// An OPCODE of 0 is not defined yet for TRCUST 3.05A
			// (tsfcheck's OPCODE redefinition, IBM's behaviour).
			if o, ok := f.(*tsf.Opcode); ok && (o.Value == nil || o.Value.Value == 0) {
				continue
			}
			seen = true
			break
		}
	}
	if !seen {
		return diag.Diagnostic{}, false
	}
	at := toks[0].Pos
	if len(toks) > 1 && isPunct(toks[1], "=") {
		at = toks[1].Pos
	}
	pos, line := astPos(toks[0].Pos), at.Line
	switch kw {
	case "MINOR":
		return tsf.ErrMinorRedef.Diagnostic(pos, line), true
	case "TP":
		return tsf.ErrTPRedef.Diagnostic(pos, line), true
	case "OPCODE":
		return tsf.ErrOpcodeRedef.Diagnostic(pos, line), true
	case "ORBIT":
		return tsf.ErrOrbitRedef.Diagnostic(pos, line), true
	case "DESC":
		return tsf.ErrUnexpected.Diagnostic(pos, line, "multiple DESC statements"), true
	}
	return diag.Diagnostic{}, false
}

// refusedAtKeyword returns the error TRCUST 3.05A gives a data statement
// at its keyword kw, before it reads the rest: after TP=@STATIC ("...
// with STATIC tracepoint", DATA_STATEMENT naming MEM, MEM32, ASCIIZ and
// ASCIIZ32, REGS and LEN by name), and before any TP field
// ("DATA_STATEMENT before TP statement", "REGS before TP statement", and
// for LEN "syntax error: missing 'TP keyword' before 'LEN statement'").
// tsfcheck says the same of statements whose syntax is whole; here it is
// said before the statement is converted. It runs for every field of
// every TRACE: the keyword is looked at first.
func refusedAtKeyword(t *tsf.Trace, kw lexer.Token) (diag.Diagnostic, bool) {
	if kw.Value == "" {
		return diag.Diagnostic{}, false
	}
	// MEM, MEM32, ASCIIZ, ASCIIZ32, REGS and LEN, told by their first
	// byte first: no other byte folds to these (only K and S have folds
	// outside ASCII).
	var name string
	switch v := kw.Value; {
	case v[0]|0x20 == 'r' && isKeyword(v, "REGS"):
		name = "REGS"
	case v[0]|0x20 == 'l' && isKeyword(v, "LEN"):
		name = "LEN"
	case (v[0]|0x20 == 'm' || v[0]|0x20 == 'a') && isMemKeyword(v):
		name = "DATA_STATEMENT"
	default:
		// MINOR, ABORTOP and the rest: no check here.
		return diag.Diagnostic{}, false
	}
	hasTP, static := false, false
	for _, f := range t.Fields {
		if tp, ok := f.(*tsf.TP); ok {
			hasTP = true
			_, st := tp.Target.(*tsf.StaticTP)
			static = static || st
		}
	}
	pos := astPos(kw.Pos)
	switch {
	case static:
		return tsf.ErrUnexpected.Diagnostic(pos, 0, name+" with STATIC tracepoint"), true
	case hasTP:
		return diag.Diagnostic{}, false
	case name == "DATA_STATEMENT":
		return tsf.ErrUnexpected.Diagnostic(pos, 0, "DATA_STATEMENT before TP statement"), true
	case name == "REGS":
		return tsf.ErrUnexpected.Diagnostic(pos, 0, "REGS before TP statement"), true
	}
	return tsf.ErrSyntax.Diagnostic(pos, 0, "TP keyword", "LEN statement"), true
}

// isMemKeyword reports whether kw is MEM, MEM32, ASCIIZ or ASCIIZ32, in
// any case: the statements TRCUST names DATA_STATEMENT.
func isMemKeyword(kw string) bool {
	for _, k := range [...]string{"MEM", "MEM32", "ASCIIZ", "ASCIIZ32"} {
		if isKeyword(kw, k) {
			return true
		}
	}
	return false
}

// traceChunk and fieldChunk are how many TRACE statements and fields
// newTrace and newFields allocate at a time.
const (
	traceChunk = 64
	fieldChunk = 512
)

// newTrace returns a new TRACE statement. Statements are allocated a chunk
// at a time: every one is kept in the tree.
func (p *parser) newTrace() *tsf.Trace {
	if len(p.traces) == 0 {
		p.traces = make([]tsf.Trace, traceChunk)
	}
	t := &p.traces[0]
	p.traces = p.traces[1:]
	return t
}

// newFields returns an empty slice of fields with room for n, cut from
// the batch's chunk when n is small (its capacity is n: an append past it
// reallocates).
func (p *parser) newFields(n int) []tsf.Field {
	if n > fieldChunk/8 || p.b == nil {
		return make([]tsf.Field, 0, n)
	}
	b := p.b
	if cap(b.fields)-len(b.fields) < n {
		b.fields, b.keptFields = make([]tsf.Field, 0, fieldChunk), 0
	}
	f := b.fields[len(b.fields) : len(b.fields) : len(b.fields)+n]
	b.fields = b.fields[:len(b.fields)+n]
	return f
}

// fieldNodes hands out the nodes of the fields every tracepoint has. A
// batch's are given out again when the batch is (recycle), but those of
// the statements kept with their fields.
type fieldNodes struct {
	minors pool[minorNode]
	tps    pool[tpNode]
	descs  pool[descNode]
	fmts   pool[fmtNode]
}

// nodeMark is where the nodes of a statement end in each pool of a
// fieldNodes, and whether it was kept with its fields.
type nodeMark struct {
	minors, tps, descs, fmts int
	kept                     bool
}

// mark returns how many nodes each pool gave out.
func (f *fieldNodes) mark() nodeMark {
	return nodeMark{minors: f.minors.n, tps: f.tps.n, descs: f.descs.n, fmts: f.fmts.n}
}

// recycle makes the nodes given out free again, but those of the
// statements kept: marks holds, for each statement in turn, where its
// nodes end and whether it was kept.
func (f *fieldNodes) recycle(marks []nodeMark) {
	f.minors.recycle(marks, func(m nodeMark) int { return m.minors })
	f.tps.recycle(marks, func(m nodeMark) int { return m.tps })
	f.descs.recycle(marks, func(m nodeMark) int { return m.descs })
	f.fmts.recycle(marks, func(m nodeMark) int { return m.fmts })
}

// pool hands out values of T: the free ones it holds, cleared, or new ones.
type pool[T any] struct {
	items []*T // items[:n] are handed out, items[n:] free
	n     int
}

func (q *pool[T]) get() *T {
	if q.n < len(q.items) {
		x := q.items[q.n]
		q.n++
		var zero T
		*x = zero
		return x
	}
	x := new(T)
	q.items = append(q.items, x)
	q.n++
	return x
}

// recycle makes the values handed out free again, but those of the
// statements kept (see fieldNodes.recycle; end gives where a statement's
// values end): they are the tree's and leave the pool.
func (q *pool[T]) recycle(marks []nodeMark, end func(nodeMark) int) {
	k, from := 0, 0
	for _, m := range marks {
		to := end(m)
		if !m.kept {
			k += copy(q.items[k:], q.items[from:to])
		}
		from = to
	}
	k += copy(q.items[k:], q.items[from:])
	clear(q.items[k:])
	q.items, q.n = q.items[:k], 0
}

// lineMissing reports a TP=@file field without its line number, as TRCUST
// 3.05A does (IBM's behaviour, tried with its binary): it reads a ',' and
// takes the token after it as the line number, "line number missing or
// invalid: TRACE" when that is the next statement's TRACE; without the ','
// it says "syntax error: missing 'comma' before 'linenum'" at the next
// token. Either is the statement's error; *i moves past what was read.
func (p *parser) lineMissing(fld tsf.Field, toks []lexer.Token, i *int, end ast.Pos) bool {
	tp, ok := fld.(*tsf.TP)
	if !ok {
		return false
	}
	if lt, ok := tp.Target.(*tsf.LineTP); !ok || lt.Line != nil {
		return false
	}
	next := func(k int) lexer.Token {
		if k < len(toks) {
			return toks[k]
		}
		if end == p.eof {
			return lexer.EOFToken(lexPos(end))
		}
		return lexer.Token{Type: tokIdent, Value: p.nextWord(), Pos: lexPos(end)}
	}
	if t := next(*i); t.Value == "," && t.Type == tokPunct {
		t = next(*i + 1)
		if t.Type == lexer.EOF {
			p.add(tsf.SeverePrematureEOF.Diagnostic(astPos(t.Pos), 0))
		} else {
			p.add(tsf.ErrLineNumber.Diagnostic(astPos(t.Pos), 0, tokenText(t)))
		}
		*i += 2
		return true
	}
	t := next(*i)
	p.add(tsf.ErrSyntax.Diagnostic(astPos(t.Pos), 0, "comma", "linenum"))
	return true
}

// unexpectedField reports toks[i], where a TRACE statement wants a field,
// as unexpected. TRCUST 3.05A's tokens run on to the next delimiter, and a
// quote inside one opens a string (IBM's behaviour: `x"b` and `x\\"b` are
// one token for it): when toks[i], no delimiter, is the last token and
// touches the string a severe lexical error stopped in, TRCUST never
// finished it and reports nothing for it.
func (p *parser) unexpectedField(toks []lexer.Token, i int) {
	if p.partial && p.cut >= 0 && i == len(toks)-1 && toks[i].Pos.Offset+tokenLen(toks[i]) == p.cut &&
		toks[i].Type != tokString && !(toks[i].Type == tokPunct && strings.Contains("=,()+-*@/", toks[i].Value)) {
		// Only a token that is no delimiter runs into the quote; "%W,"
		// before the string ends at the comma and is reported, and so is
		// a string, which ends at its own quote ("x""y: "unexpected: x"
		// before "new line in literal"; IBM's behaviour).
		return
	}
	text, _ := p.unexpectedAt(toks, i)
	p.add(tsf.ErrUnexpected.Diagnostic(astPos(toks[i].Pos), p.commentLine(toks[i].Pos.Offset), text))
}

// unexpectedText is how TRCUST 3.05A names a token it did not expect, also
// in a syntax error: a symbol without its dot (IBM's behaviour, tried with
// its binary: "TP=.fclose, .malloc" gives "unexpected: malloc",
// "TYPE=(.x)" "missing ')' before 'x'"), else as tokenText.
func unexpectedText(t lexer.Token) string {
	if t.Type == tokSymbol || t.Type == tokPath {
		return strings.TrimPrefix(tokenText(t), ".")
	}
	return tokenText(t)
}

// tokenLen is how many bytes of the TSF the token t spans.
func tokenLen(t lexer.Token) int {
	switch t.Type {
	case tokString:
		return len(t.Value) + 2
	case tokSymbol:
		return len(t.Value) + 1
	}
	return len(t.Value)
}

// fieldCount is how many fields the TRACE statement toks has when it is
// well formed: one more than its commas outside parentheses.
func fieldCount(toks []lexer.Token) int {
	n, depth := 1, 0
	for _, t := range toks {
		if t.Type != tokPunct {
			continue
		}
		switch t.Value {
		case "(":
			depth++
		case ")":
			depth = max(depth-1, 0)
		case ",":
			if depth == 0 {
				n++
			}
		}
	}
	return n
}

// tokenText is how a token is named in a message.
func tokenText(t lexer.Token) string {
	switch t.Type {
	case lexer.EOF:
		return "end of file"
	case tokSymbol:
		return "." + t.Value
	case tokString:
		// Without its quotes, as TRCUST 3.05A names it ("unexpected:
		// stray, ignored" for "stray": IBM's behaviour), and with \"
		// read as the quote it stands for.
		return strings.ReplaceAll(t.Value, `\"`, `"`)
	}
	return t.Value
}

// listError reports the syntax error err of a TYPELIST or GROUPLIST as
// TRCUST 3.05A does (IBM's behaviour, tried with its binary): a missing ','
// after a name, a name that is no identifier and an ID that is no number
// ("invalid number found", 217) are errors of the entry, which TRCUST skips
// to go on at the next NAME (skip is true); a missing ID keyword is severe
// 38, "keyword 'ID' expected"; the rest is severe, as syntaxError says. at
// is the offset of the token it failed at (the end of the statement at the
// end of the file).
func (p *parser) listError(err error, end ast.Pos, last bool) (at int, skip bool) {
	var ute *participle.UnexpectedTokenError
	if !errors.As(err, &ute) || ute.Unexpected.EOF() && last {
		p.syntaxError(err, end, last, true)
		return end.Offset, false
	}
	tok := ute.Unexpected
	pos, before := astPos(tok.Pos), p.unexpectedText(tok)
	if tok.EOF() {
		before = p.nextWord()
	}
	switch expected(ute.Message()) {
	case ",":
		p.add(tsf.ErrSyntax.Diagnostic(pos, 0, ",", before))
		return pos.Offset, true
	case "number":
		p.add(tsf.ErrInvalidNumber.Diagnostic(pos, 0, before))
		return pos.Offset, true
	case identifierWanted:
		p.add(tsf.ErrSyntax.Diagnostic(pos, 0, identifierWanted, before))
		return pos.Offset, true
	case "ID":
		p.add(tsf.SevereKeyword.Diagnostic(pos, 0, "ID", before))
	default:
		p.syntaxError(err, end, last, true)
	}
	return pos.Offset, false
}

// syntaxError turns a participle error into a TRCUST diagnostic: "number
// expected" (65) where a number was wanted, "syntax error: missing 'x'
// before 'y'" otherwise (74, or its severe twin 35 in the header and the
// type and group lists, where TRCUST aborts), "keyword expected" (38) for a
// missing NAME or ID keyword, and "premature end of file" (34) when the file
// ends inside a statement.
func (p *parser) syntaxError(err error, end ast.Pos, last, severe bool) {
	var ute *participle.UnexpectedTokenError
	if !errors.As(err, &ute) {
		var perr participle.Error
		pos := end
		if errors.As(err, &perr) {
			pos = astPos(perr.Position())
		}
		d := tsf.ErrSyntax.Diagnostic(pos, 0, "?", "?")
		d.Detail = err.Error()
		p.add(d)
		return
	}
	tok := ute.Unexpected
	pos := astPos(tok.Pos)
	before := p.unexpectedText(tok)
	if tok.EOF() {
		if last {
			d := tsf.SeverePrematureEOF.Diagnostic(pos, 0)
			d.Detail = "the file ends inside a statement"
			p.add(d)
			return
		}
		before = p.nextWord()
		// At the next TRACE, but ordered just before it: the error is
		// this statement's, not the next one's (whose TP TRCUST goes on
		// to resolve), and none when TRCUST stopped reading this one
		// before it (IBM's behaviour: a TP not found, no return point).
		pos.Offset--
	}
	want := expected(ute.Message())
	if want == "file name" && tok.Type == tokString && p.afterAt(tok) {
		// IBM's behaviour: a quote right after '@' names no file; TRCUST
		// 3.05A reads the string where the TP's symbol belongs
		// (TP=@"x" is "missing '.symbol' before 'x'").
		want = syntaxNames["SymTarget"]
	}
	switch {
	case want == "number":
		p.add(tsf.ErrNumber.Diagnostic(pos, 0, before))
	case want == lengthWanted:
		p.add(tsf.ErrInvalidNumber.Diagnostic(pos, 0, before))
	case severe:
		// A missing NAME or ID keyword too: TRCUST 3.05A says "syntax
		// error : missing 'NAME' before 'ID'" (IBM's behaviour), not the
		// reference's 38.
		p.add(tsf.SevereMissing.Diagnostic(pos, 0, want, before))
	default:
		p.add(tsf.ErrSyntax.Diagnostic(pos, 0, want, before))
	}
}

// afterAt reports whether the token before t in the statement is '@'.
func (p *parser) afterAt(t lexer.Token) bool {
	i, ok := slices.BinarySearchFunc(p.cur, t.Pos.Offset, func(t lexer.Token, off int) int { return t.Pos.Offset - off })
	return ok && i > 0 && isPunct(p.cur[i-1], "@")
}

// syntaxNames names the parse structures of syntax.go in messages.
var syntaxNames = map[string]string{
	"PathTok": "file name", "NumTok": "number", "IdentTok": "name",
	// IBM's behaviour: "FMT=" before the next TRACE is "missing 'literal'
	// before 'TRACE'".
	"StrToken":  "literal",
	"ListEntry": "NAME", "ScalarTok": "value", "TpOffset": "+", "NameTok": identifierWanted,
	// IBM's behaviour: "MEM=(+4,D,4)" is "missing 'identifier' before '+'".
	"Address": identifierWanted,
	// TRCUST 3.05A's own words (IBM's behaviour): "missing
	// 'DIRECT/INDIRECT' before ','", "missing '.symbol' before 'emit'".
	"Flag": "DIRECT/INDIRECT", "RegTok": "register", "AtTarget": ".symbol", "SymTarget": ".symbol",
	// What a memory statement's length is not: "invalid number found"
	// (217) names the token found (IBM's behaviour: "MEM32=(FEBP,DIRECT,)"
	// is "invalid number found: )").
	"LengthTok": lengthWanted,
	// The rest, so that no name of a parse structure reaches a message
	// (TestSyntaxNamesCoverGrammar).
	"Header": "MAJOR", "ModNameStmt": "MODNAME", "AssignStmt": "MAJOR", "ListStmt": "TYPELIST",
	"Field": "keyword", "MinorField": "MINOR", "TpField": "TP", "OpcodeField": "OPCODE",
	"TypeField": "TYPE", "GroupField": "GROUP", "TextField": "DESC", "LenField": "LEN",
	"RegsField": "REGS", "MemField": "MEM", "OrbitField": "ORBIT", "OpFlagField": "ABORTOP",
	"Term": "address", "ParenTerm": "(", "OperandTok": "number", "OtherTok": "address", "Level": "*", "RetEPTok": "RETEP", "PunctTok": ",",
}

// identifierWanted is what expected returns when the name of GROUP or of
// a list entry was wanted.
const identifierWanted = "identifier"

// lengthWanted is what expected returns when a memory statement's length
// was wanted.
const lengthWanted = "length"

// expected names what participle wanted, from the "(expected ...)" part of
// its message: the first literal or token type it lists.
func expected(msg string) string {
	i := strings.LastIndex(msg, "(expected ")
	if i < 0 {
		return "?"
	}
	s := strings.TrimSuffix(msg[i+len("(expected "):], ")")
	s = strings.TrimSpace(s)
	// A group of alternatives, "(AtTarget | SymTarget)", is named by
	// its first.
	s = strings.TrimPrefix(s, "(")
	if strings.HasPrefix(s, `"`) {
		if j := strings.Index(s[1:], `"`); j >= 0 {
			s = s[:j+2]
		}
	} else if j := strings.IndexAny(s, " |)"); j > 0 {
		s = s[:j]
	}
	if name, ok := syntaxNames[s]; ok {
		return name
	}
	switch {
	case strings.HasPrefix(s, `"`):
		return strings.ToUpper(strings.Trim(s, `"`))
	case strings.EqualFold(s, "<number>"):
		return "number"
	case strings.EqualFold(s, "<string>"):
		return "literal"
	case strings.EqualFold(s, "<path>"):
		return "file name"
	case strings.EqualFold(s, "<symbol>"):
		return ".name"
	case strings.EqualFold(s, "<ident>"):
		return "name"
	}
	return strings.Trim(s, "<>")
}
