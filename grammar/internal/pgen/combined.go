package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// maxCombinedStates bounds the merged automaton of one lexer; a lexer whose
// rules need more keeps one automaton a rule.
const maxCombinedStates = 2048

// combined is the rules of one lexer merged into one automaton that reads
// a token in one pass, with participle's priority: the rules are tried in
// order and the first that matches wins, with its own (leftmost-first)
// match. A state is the tuple of the rules' states; once a rule accepts,
// the rules after it can no longer win and are dropped from the tuple, so
// the lowest rule accepting in the state reached last, at the position it
// was last reached, is the token.
type combined struct {
	trans  [][numClasses]int // -1: no rule can go on
	accept []int             // lowest rule accepting in the state, -1: none
}

// combine merges the rules' automata; false when the merge needs more than
// maxCombinedStates states.
func combine(dfas []*dfa) (*combined, bool) {
	cb := &combined{}
	var set stateSet
	// prune drops the rules after the first accepting one and returns the
	// tuple's state (-1 when every rule is dead) and whether it is new.
	add := func(t []int) (int, bool) {
		acc := -1
		for i, s := range t {
			if s >= 0 && dfas[i].accept[s] {
				acc = i
				for j := i + 1; j < len(t); j++ {
					t[j] = -1
				}
				break
			}
		}
		live := false
		for _, s := range t {
			live = live || s >= 0
		}
		if !live {
			return -1, false
		}
		i, isNew := set.add(t)
		if isNew {
			cb.trans = append(cb.trans, [numClasses]int{})
			cb.accept = append(cb.accept, acc)
		}
		return i, isNew
	}
	if _, ok := add(make([]int, len(dfas))); !ok {
		return nil, false // no rule at all
	}
	for s := 0; s < len(set.lists); s++ {
		for c := 0; c < numClasses; c++ {
			next := make([]int, len(dfas))
			for i, st := range set.lists[s] {
				next[i] = -1
				if st >= 0 {
					next[i] = dfas[i].trans[st][c]
				}
			}
			cb.trans[s][c], _ = add(next)
		}
		if len(set.lists) > maxCombinedStates {
			return nil, false
		}
	}
	return cb, true
}

// classes groups the input classes that every state treats alike: it
// returns the group of each input class and the number of groups. The line
// feed and the non-ASCII class get groups of their own, the last two, so
// that the lexer tells them (which need a rune decoded or the line counted)
// with one comparison.
func (cb *combined) classes() ([numClasses]int, int) {
	var group [numClasses]int
	seen := map[string]int{}
	for c := 0; c < numClasses; c++ {
		if c == '\n' || c == hiClass {
			continue
		}
		var b strings.Builder
		for s := range cb.trans {
			b.WriteString(strconv.Itoa(cb.trans[s][c]))
			b.WriteByte(',')
		}
		g, ok := seen[b.String()]
		if !ok {
			g = len(seen)
			seen[b.String()] = g
		}
		group[c] = g
	}
	n := len(seen)
	group['\n'], group[hiClass] = n, n+1
	return group, n + 2
}

// fits reports whether the offsets of the automaton's rows, as
// combinedLexer writes them, fit the int16 entries of pgenrt.Lexer.Trans.
func (cb *combined) fits() bool {
	_, ngroups := cb.classes()
	return len(cb.trans)*(ngroups+2) <= math.MaxInt16
}

// combinedLexer writes the lexer of ld as the tables of the merged
// automaton: the group of each byte, the transitions by group, the
// accepting rule of each state and the states that loop.
func (e *emitter) combinedLexer(ld *lexerDef, cb *combined, names string) {
	group, ngroups := cb.classes()
	var gb strings.Builder
	for b := 0; b < 256; b++ {
		if b%32 == 0 {
			gb.WriteString("\n")
		}
		c := min(b, hiClass)
		gb.WriteString(strconv.Itoa(group[c]))
		gb.WriteString(",")
	}
	// A state's row: the next rows by group, its rule, whether it loops
	// (1) or ends every token (2).
	stride := ngroups + 2
	var tb strings.Builder
	for s := range cb.trans {
		tb.WriteString("\n")
		for g := 0; g < ngroups; g++ {
			c := 0
			for group[c] != g {
				c++
			}
			next := cb.trans[s][c]
			if next >= 0 {
				next *= stride
			}
			tb.WriteString(strconv.Itoa(next) + ", ")
		}
		a := cb.accept[s]
		loops := 0
		for c := 0; c < numClasses; c++ {
			if c != '\n' && c != hiClass && cb.trans[s][c] == s && a >= 0 {
				loops = 1
			}
		}
		if a >= 0 {
			final := true
			for c := 0; c < numClasses; c++ {
				final = final && cb.trans[s][c] < 0
			}
			if final {
				loops = 2 // the token ends here
			}
		}
		tb.WriteString(strconv.Itoa(a) + ", " + strconv.Itoa(loops) + ",")
	}
	e.p("")
	e.p("// pgenGroup_%s is the group of each byte for %s's automaton.", ld.name, ld.name)
	e.p("var pgenGroup_%s = [256]uint8{%s\n}", ld.name, gb.String())
	e.p("")
	e.p("// pgenLexer_%s is the rules of %s merged into one automaton.", ld.name, ld.name)
	e.p("var pgenLexer_%s = pgenrt.Lexer{", ld.name)
	e.p("\tNames:  []string{%s},", names)
	e.p("\tGroups: %d,", ngroups)
	e.p("\tGroup: &pgenGroup_%s,", ld.name)
	e.p("\tTrans: []int16{%s\n},", tb.String())
	e.p("\tCode: pgenLex_%s,", ld.name)
	e.p("}")
	e.lexFunc(ld, cb, group, ngroups)
	e.tokenFuncs[ld.name] = func() { e.tokenFunc(ld, cb, group, ngroups) }
	if rl, ok := cb.runTokens(group, ngroups); ok {
		e.runLexers[ld.name] = rl
	}
}

// lexFunc writes the lexer of ld as code, the Code of its pgenrt.Lexer:
// pgenrt.Lexer.Lex's loop over the tokens with the merged automaton in
// it, a labelled block a state that records the rule the state accepts,
// reads the run of bytes that lead back to it in a loop of its own, then
// switches on the group of the next byte to the block of the next state.
// The state is where the code is, so that reading a byte is a table
// lookup and a branch the processor predicts, not a chain of loads
// through the transition table.
func (e *emitter) lexFunc(ld *lexerDef, cb *combined, group [numClasses]int, ngroups int) {
	e.p("")
	e.p("// pgenLex_%s is pgenrt.Lexer.Lex with %s's automaton as code,", ld.name, ld.name)
	e.p("// one labelled block a state.")
	e.p("func pgenLex_%s(lx *pgenrt.Lexer, filename, s string, elide uint64, toks []pgenrt.Token) ([]pgenrt.Token, error) {", ld.name)
	e.p("\tgroup := &pgenGroup_%s", ld.name)
	e.p("\tline, col := int32(1), int32(1)")
	e.p("\tpos := 0")
	e.p("\tfor pos < len(s) {")
	e.lexStates(ld, cb, group, ngroups)
	e.p("\tdone:")
	e.p("\t\tif rule < 0 || end == pos {")
	e.p("\t\t\treturn toks, lx.Err(rule, filename, s, pos, line, col)")
	e.p("\t\t}")
	e.p("\t\tif elide&(1<<uint(rule)) == 0 {")
	e.p("\t\t\t// pgenrt.Push, written out: a call is not inlined here.")
	e.p("\t\t\tif len(toks) == cap(toks) {")
	e.p("\t\t\t\ttoks = pgenrt.Grow(toks)")
	e.p("\t\t\t}")
	e.p("\t\t\ttoks = toks[:len(toks)+1]")
	e.p("\t\t\tt := &toks[len(toks)-1]")
	e.p("\t\t\tt.Type, t.Start, t.End, t.Line, t.Col = int32(rule), int32(pos), int32(end), line, col")
	e.p("\t\t}")
	e.p("\t\tif plain {")
	e.p("\t\t\tcol += int32(end - pos)")
	e.p("\t\t} else {")
	e.p("\t\t\tline, col = pgenrt.Advance(line, col, s[pos:end])")
	e.p("\t\t}")
	e.p("\t\tpos = end")
	e.p("\t}")
	e.p("\treturn pgenrt.End(toks, pos, line, col), nil")
	e.p("}")
}

// lexStates writes the blocks of lexFunc that read one token from pos,
// one labelled block a state, each ending at the label done with the
// token's rule, its end and whether it is plain (see pgenrt.Lexer.Lex).
func (e *emitter) lexStates(ld *lexerDef, cb *combined, group [numClasses]int, ngroups int) {
	lf, hi := ngroups-2, ngroups-1
	// next[s][g] is the state after group g in state s; a run is the
	// ASCII groups (no line feed) that lead a state back to itself, read
	// in its own loop: an accepting state records its rule after the run,
	// one that does not accept (the inside of a quoted string) has
	// nothing to record.
	next := make([][]int, len(cb.trans))
	run := func(s, g int) bool { return next[s][g] == s && g < lf }
	for s := range cb.trans {
		next[s] = make([]int, ngroups)
		for g := 0; g < ngroups; g++ {
			c := 0
			for group[c] != g {
				c++
			}
			next[s][g] = cb.trans[s][c]
		}
	}
	target := make([]bool, len(cb.trans))
	for s := range cb.trans {
		for g := 0; g < ngroups; g++ {
			if t := next[s][g]; t >= 0 && !run(s, g) {
				target[t] = true
			}
		}
	}
	e.p("\t\tp := pos")
	e.p("\t\trule, end, plain := %d, pos, true", cb.accept[0])
	for st := range cb.trans {
		a := cb.accept[st]
		if target[st] {
			e.p("\ts%d:", st)
		}
		if a >= 0 {
			e.p("\t\t// accepts %s", ld.rules[a].name)
		}
		{
			var self []int
			for g := 0; g < ngroups; g++ {
				if run(st, g) {
					self = append(self, g)
				}
			}
			if len(self) > 0 {
				e.wordRun(group, self)
			}
			switch {
			case len(self) == 1:
				e.p("\t\tfor p < len(s) && group[s[p]] == %d {", self[0])
				e.p("\t\t\tp++")
				e.p("\t\t}")
			case len(self) > 1:
				var mask uint64
				for _, g := range self {
					mask |= 1 << uint(g)
				}
				e.p("\t\tfor p < len(s) && %#x>>group[s[p]]&1 != 0 {", mask)
				e.p("\t\t\tp++")
				e.p("\t\t}")
			}
		}
		if a >= 0 {
			e.p("\t\trule, end = %d, p", a)
		}
		// The transitions out, by next state, in the order first met.
		var targets []int
		byTarget := map[int][]int{}
		for g := 0; g < ngroups; g++ {
			t := next[st][g]
			if t < 0 || run(st, g) {
				continue
			}
			if _, ok := byTarget[t]; !ok {
				targets = append(targets, t)
			}
			byTarget[t] = append(byTarget[t], g)
		}
		if len(targets) == 0 {
			e.p("\t\tgoto done")
			continue
		}
		e.p("\t\tif p == len(s) {")
		e.p("\t\t\tgoto done")
		e.p("\t\t}")
		e.p("\t\tswitch group[s[p]] {")
		for _, t := range targets {
			var ascii []string
			var hasLF, hasHi bool
			for _, g := range byTarget[t] {
				switch g {
				case lf:
					hasLF = true
				case hi:
					hasHi = true
				default:
					ascii = append(ascii, strconv.Itoa(g))
				}
			}
			if len(ascii) > 0 {
				e.p("\t\tcase %s:", strings.Join(ascii, ", "))
				e.p("\t\t\tp++")
				e.p("\t\t\tgoto s%d", t)
			}
			if hasLF {
				e.p("\t\tcase %d: // a line feed", lf)
				e.p("\t\t\tp, plain = p+1, false")
				e.p("\t\t\tgoto s%d", t)
			}
			if hasHi {
				e.p("\t\tcase %d: // a rune from U+0080 on", hi)
				e.p("\t\t\tp, plain = p+pgenrt.RuneLen(s[p:]), false")
				e.p("\t\t\tgoto s%d", t)
			}
		}
		e.p("\t\t}")
		e.p("\t\tgoto done")
	}
}

// maxRunStops is how many bytes above the control characters a run read 8
// bytes at a time may stop at: each costs a test a word.
const maxRunStops = 3

// wordRun writes, before the loop that reads a run of the groups in self a
// byte at a time, one that passes over it 8 bytes at a time, when the
// bytes that end it are few: those below some bound (white space and the
// control characters), up to maxRunStops others, and every byte from 0x80
// on (which the run never takes: a rune from U+0080 on has a group of its
// own). (A run of white space, which every other byte ends, was tried
// with a test of the ranges of bytes it takes: more instructions than
// the mispredicted branches it saved, on STRACE and strace lines alike.)
//
// The test of 8 bytes flags its lowest byte that may end the run exactly
// (a borrow or a carry only passes upwards, from a flagged byte), so the
// loop goes straight to that byte and leaves it to the byte loop, which
// says whether it does end the run: a byte flagged that the run takes
// (a control character it takes below the bound) costs time, never a
// wrong token. The last bytes of s, fewer than 8, are read in one load of
// s's last 8 when s has 8. A token of any length is so read in a few
// steps and without a branch a byte: STRACE's long hex data words and its
// short ones alike.
func (e *emitter) wordRun(group [numClasses]int, self []int) {
	in := func(c int) bool {
		for _, g := range self {
			if group[c] == g {
				return true
			}
		}
		return false
	}
	// below is the bound: one past the last control character or space
	// that ends the run, so that the test stops at each of them (a
	// control character the run takes below it only stops the test).
	below := 0
	for c := 0; c <= ' '; c++ {
		if !in(c) {
			below = c + 1
		}
	}
	var stops []int
	for c := below; c < 0x80; c++ {
		if !in(c) {
			stops = append(stops, c)
		}
	}
	if len(stops) > maxRunStops {
		return
	}
	test := "w"
	if below > 0 {
		test = fmt.Sprintf("(w-%#x*pgenrt.Ones)|w", below)
	}
	for _, c := range stops {
		test += fmt.Sprintf("|pgenrt.ZeroBytes(w^(%#x*pgenrt.Ones))", c)
	}
	e.p("\t\tfor p+8 <= len(s) {")
	e.p("\t\t\tw := pgenrt.Load8(s[p:])")
	e.p("\t\t\tif m := (%s) & pgenrt.Highs; m != 0 {", test)
	e.p("\t\t\t\tp += pgenrt.FirstByte(m)")
	e.p("\t\t\t\tgoto r%d", e.runs)
	e.p("\t\t\t}")
	e.p("\t\t\tp += 8")
	e.p("\t\t}")
	e.p("\t\tif n := len(s) - p; n > 0 && len(s) >= 8 {")
	e.p("\t\t\tw := pgenrt.Tail8(s, n)")
	e.p("\t\t\tp += pgenrt.FirstByte((%s)&pgenrt.Highs | pgenrt.Highs<<(8*uint(n)))", test)
	e.p("\t\t}")
	e.p("\tr%d:", e.runs)
	e.runs++
}
