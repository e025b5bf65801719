package main

import (
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
	e.p("\tNext: pgenNext_%s,", ld.name)
	e.p("}")
	e.nextFunc(ld, cb, group, ngroups)
}

// nextFunc writes the merged automaton of ld as code, the Next of its
// pgenrt.Lexer: a labelled block a state that records the rule the state
// accepts, reads the run of bytes that lead back to it in a loop of its
// own, then switches on the group of the next byte to the block of the
// next state. The state is where the code is, so that reading a byte is a
// table lookup and a branch the processor predicts, not a chain of loads
// through the transition table.
func (e *emitter) nextFunc(ld *lexerDef, cb *combined, group [numClasses]int, ngroups int) {
	lf, hi := ngroups-2, ngroups-1
	// next[s][g] is the state after group g in state s.
	next := make([][]int, len(cb.trans))
	target := make([]bool, len(cb.trans))
	for s := range cb.trans {
		next[s] = make([]int, ngroups)
		for g := 0; g < ngroups; g++ {
			c := 0
			for group[c] != g {
				c++
			}
			next[s][g] = cb.trans[s][c]
			if t := cb.trans[s][c]; t >= 0 && !(t == s && g < lf && cb.accept[s] >= 0) {
				target[t] = true
			}
		}
	}
	e.p("")
	e.p("// pgenNext_%s reads the token at pos with %s's automaton, one", ld.name, ld.name)
	e.p("// labelled block a state (see pgenrt.Lexer.Next).")
	e.p("func pgenNext_%s(s string, pos int) (rule, end int, plain bool) {", ld.name)
	e.p("\tgroup := &pgenGroup_%s", ld.name)
	e.p("\tp := pos")
	e.p("\trule, end, plain = %d, pos, true", cb.accept[0])
	for st := range cb.trans {
		a := cb.accept[st]
		if target[st] {
			e.p("s%d:", st)
		}
		if a >= 0 {
			e.p("\t// accepts %s", ld.rules[a].name)
			// The run of ASCII bytes (no line feed) that lead back here.
			var self []int
			for g := 0; g < lf; g++ {
				if next[st][g] == st {
					self = append(self, g)
				}
			}
			switch {
			case len(self) == 1:
				e.p("\tfor p < len(s) && group[s[p]] == %d {", self[0])
				e.p("\t\tp++")
				e.p("\t}")
			case len(self) > 1:
				var mask uint64
				for _, g := range self {
					mask |= 1 << uint(g)
				}
				e.p("\tfor p < len(s) && %#x>>group[s[p]]&1 != 0 {", mask)
				e.p("\t\tp++")
				e.p("\t}")
			}
			e.p("\trule, end = %d, p", a)
		}
		// The transitions out, by next state, in the order of the states.
		var targets []int
		byTarget := map[int][]int{}
		for g := 0; g < ngroups; g++ {
			t := next[st][g]
			if t < 0 || (t == st && g < lf && a >= 0) {
				continue
			}
			if _, ok := byTarget[t]; !ok {
				targets = append(targets, t)
			}
			byTarget[t] = append(byTarget[t], g)
		}
		if len(targets) == 0 {
			e.p("\treturn")
			continue
		}
		e.p("\tif p == len(s) {")
		e.p("\t\treturn")
		e.p("\t}")
		e.p("\tswitch group[s[p]] {")
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
				e.p("\tcase %s:", strings.Join(ascii, ", "))
				e.p("\t\tp++")
				e.p("\t\tgoto s%d", t)
			}
			if hasLF {
				e.p("\tcase %d: // a line feed", lf)
				e.p("\t\tp, plain = p+1, false")
				e.p("\t\tgoto s%d", t)
			}
			if hasHi {
				e.p("\tcase %d: // a rune from U+0080 on", hi)
				e.p("\t\tp, plain = p+pgenrt.RuneLen(s[p:]), false")
				e.p("\t\tgoto s%d", t)
			}
		}
		e.p("\t}")
		e.p("\treturn")
	}
	e.p("}")
}
