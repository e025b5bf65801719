package main

import (
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
	index := map[string]int{}
	var tuples [][]int
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
		key := listKey(t)
		if i, ok := index[key]; ok {
			return i, false
		}
		i := len(tuples)
		index[key] = i
		tuples = append(tuples, t)
		cb.trans = append(cb.trans, [numClasses]int{})
		cb.accept = append(cb.accept, acc)
		return i, true
	}
	if _, ok := add(make([]int, len(dfas))); !ok {
		return nil, false // no rule at all
	}
	for s := 0; s < len(tuples); s++ {
		for c := 0; c < numClasses; c++ {
			next := make([]int, len(dfas))
			for i, st := range tuples[s] {
				next[i] = -1
				if st >= 0 {
					next[i] = dfas[i].trans[st][c]
				}
			}
			cb.trans[s][c], _ = add(next)
		}
		if len(tuples) > maxCombinedStates {
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

// combinedLexer writes the lexer of ld as one loop over the merged
// automaton: a table of the byte groups, the transitions by group and the
// accepting rule of each state.
func (e *emitter) combinedLexer(ld *lexerDef, cb *combined) {
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
	var tb strings.Builder
	for s := range cb.trans {
		tb.WriteString("\n")
		for g := 0; g < ngroups; g++ {
			c := 0
			for group[c] != g {
				c++
			}
			tb.WriteString(strconv.Itoa(cb.trans[s][c]))
			tb.WriteString(",")
		}
	}
	var ab, lb strings.Builder
	for st, a := range cb.accept {
		ab.WriteString(strconv.Itoa(a) + ",")
		loops := false
		for c := 0; c < numClasses; c++ {
			if c != '\n' && c != hiClass && cb.trans[st][c] == st {
				loops = a >= 0
			}
		}
		lb.WriteString(strconv.FormatBool(loops) + ",")
	}
	e.p("")
	e.p("// The rules of %s merged into one automaton: the group of each byte (bytes", ld.name)
	e.p("// from 0x80 on stand for whole runes), the next state by state and group")
	e.p("// (-1: no rule goes on) and the first rule that accepts in each state (-1: none).")
	e.p("var pgenGroup_%s = [256]uint8{%s\n}", ld.name, gb.String())
	e.p("var pgenTrans_%s = [...]int16{%s\n}", ld.name, tb.String())
	e.p("var pgenAccept_%s = [...]int8{%s}", ld.name, ab.String())
	e.p("")
	e.p("// pgenLoops_%s marks the accepting states that some ASCII bytes but the line feed", ld.name)
	e.p("// lead back to: the lexer reads runs of them in a loop of its own.")
	e.p("var pgenLoops_%s = [...]bool{%s}", ld.name, lb.String())
	e.p(`
// pgenLex_%[1]s splits s into tokens as participle's lexer does with the rules of %[1]s, tried in order;
// tokens of the rules in the elide mask are left out. The last token is the end of the input.
func pgenLex_%[1]s(filename, s string, elide uint64, toks []pgenToken) ([]pgenToken, error) {
	line, col := int32(1), int32(1)
	pos := 0
	for pos < len(s) {
		st, rule, end := 0, int(pgenAccept_%[1]s[0]), pos
		plain := true // no line break and no multi-byte rune read
		for p := pos; p < len(s); {
			g := int(pgenGroup_%[1]s[s[p]])
			size := 1
			if g >= %[3]d { // a line feed or a non-ASCII byte
				plain = false
				if g > %[3]d {
					_, size = utf8.DecodeRuneInString(s[p:])
				}
			}
			st = int(pgenTrans_%[1]s[st*%[2]d+g])
			if st < 0 {
				break
			}
			p += size
			if a := pgenAccept_%[1]s[st]; a >= 0 {
				if pgenLoops_%[1]s[st] {
					for row := st * %[2]d; p < len(s); p++ {
						g := int(pgenGroup_%[1]s[s[p]])
						if g >= %[3]d || int(pgenTrans_%[1]s[row+g]) != st {
							break
						}
					}
				}
				rule, end = int(a), p
			}
		}
		if rule < 0 {
			return toks, pgenLexError(lexer.Position{Filename: filename, Offset: pos, Line: int(line), Column: int(col)}, s[pos:])
		}
		if end == pos {
			return toks, &lexer.Error{Msg: "lexer: rule " + strconv.Quote(pgenRuleNames_%[1]s[rule]) + " did not match any input", Pos: lexer.Position{Filename: filename, Offset: pos, Line: int(line), Column: int(col)}}
		}
		if elide&(1<<uint(rule)) == 0 {
			toks = append(toks, pgenToken{typ: int32(rule), start: int32(pos), end: int32(end), line: line, col: col})
		}
		if plain {
			col += int32(end - pos)
		} else {
			line, col = pgenAdvance(line, col, s[pos:end])
		}
		pos = end
	}
	return append(toks, pgenToken{typ: -1, start: int32(pos), end: int32(pos), line: line, col: col}), nil
}`, ld.name, ngroups, ngroups-2)
}
