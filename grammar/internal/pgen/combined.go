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
	e.p("// pgenLexer_%s is the rules of %s merged into one automaton.", ld.name, ld.name)
	e.p("var pgenLexer_%s = pgenrt.Lexer{", ld.name)
	e.p("\tNames:  []string{%s},", names)
	e.p("\tGroups: %d,", ngroups)
	e.p("\tGroup: &[256]uint8{%s\n},", gb.String())
	e.p("\tTrans: []int16{%s\n},", tb.String())
	e.p("}")
}
