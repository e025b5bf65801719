package main

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"
)

// A run lexer is a merged lexer each token of which is one byte of some
// groups (its entry) and then a run of bytes of some groups (its body,
// none for a token of one byte): white space, words, a colon. That is,
// from the start state each group leads to a state that accepts its rule
// and goes on only to itself, one such state a rule. A token is then told
// by its first byte and ends at the first byte its body does not take, so
// that the flat parsers of such a lexer read their tokens in place, with
// no call of pgenToken_X a token and no automaton state to carry: the
// tokens their rows expect, and the elided ones before each (flatRunFunc).
// The STRACE lexers are of this kind.

// runToken is the entry and the body of one rule of a run lexer, one bit a
// group.
type runToken struct {
	entry, body uint64
}

// runLexer is a run lexer's groups and its tokens by rule.
type runLexer struct {
	group   [numClasses]int
	ngroups int
	tokens  map[int]runToken
}

// runTokens returns the tokens of cb when it is a run lexer.
func (cb *combined) runTokens(group [numClasses]int, ngroups int) (*runLexer, bool) {
	if ngroups > 64 || cb.accept[0] >= 0 {
		return nil, false
	}
	class := make([]int, ngroups) // a class of each group
	for c := numClasses - 1; c >= 0; c-- {
		class[group[c]] = c
	}
	rl := &runLexer{group: group, ngroups: ngroups, tokens: map[int]runToken{}}
	stateOf := map[int]int{}
	for g := range ngroups {
		st := cb.trans[0][class[g]]
		if st < 0 {
			continue
		}
		r := cb.accept[st]
		if r < 0 {
			return nil, false
		}
		if s, ok := stateOf[r]; ok && s != st {
			return nil, false
		}
		stateOf[r] = st
		t := rl.tokens[r]
		t.entry |= 1 << g
		t.body = 0
		for h := range ngroups {
			switch cb.trans[st][class[h]] {
			case -1:
			case st:
				t.body |= 1 << h
			default:
				return nil, false
			}
		}
		rl.tokens[r] = t
	}
	return rl, true
}

// plain is the mask of the groups of ASCII bytes other than the line
// feed: the last two groups are the line feed's and the runes' from
// U+0080 on (combined.classes).
func (rl *runLexer) plain() uint64 { return 1<<uint(rl.ngroups-2) - 1 }

// groupTest returns the Go condition that the group g (an expression) is
// in mask.
func groupTest(g string, mask uint64) string {
	if bits.OnesCount64(mask) == 1 {
		return fmt.Sprintf("%s == %d", g, bits.TrailingZeros64(mask))
	}
	return fmt.Sprintf("%#x>>%s&1 != 0", mask, g)
}

// groupsOf lists the groups in mask.
func groupsOf(mask uint64) []int {
	var gs []int
	for ; mask != 0; mask &= mask - 1 {
		gs = append(gs, bits.TrailingZeros64(mask))
	}
	return gs
}

// runBody writes the code that reads the plain bytes of the body of token
// t from p on (8 at a time where wordRun can). A line feed or a rune from
// U+0080 on that the token would go on with is left where it is: no test
// of the fast path takes it (the elided tokens' and the entries' tests
// take plain bytes only), so the path ends without reaching the end of s,
// and gives up.
func (pe *parserEmitter) runBody(rl *runLexer, t runToken, indent string) {
	plain := t.body & rl.plain()
	if plain == 0 {
		return
	}
	pe.wordRun(rl.group, groupsOf(plain))
	pe.p("%sfor p < len(s) && %s {", indent, groupTest("group[s[p]]", plain))
	pe.p("%s\tp++", indent)
	pe.p("%s}", indent)
}

// readToken writes the code that reads the token tok at p: false when
// there is none (unless the code before has seen to that, atEnd false) or
// its first byte is none of tok's entry, else start at p and p past the
// token.
func (pe *parserEmitter) readToken(rl *runLexer, tok runToken, indent string, atEnd bool) {
	test := groupTest("group[s[p]]", tok.entry&rl.plain())
	if atEnd {
		test = "p == len(s) || !(" + test + ")"
	} else {
		test = "!(" + test + ")"
	}
	pe.p("%sif %s {", indent, test)
	pe.p("%s\treturn false", indent)
	pe.p("%s}", indent)
	pe.p("%sstart = p", indent)
	pe.p("%sp++", indent)
	pe.runBody(rl, tok, indent)
}

// skipElided writes the code that passes over the tokens of the rules in
// elide from p on.
func (pe *parserEmitter) skipElided(rl *runLexer, elide uint64) {
	var rules []int
	for r := range rl.tokens {
		if elide&(1<<uint(r)) != 0 {
			rules = append(rules, r)
		}
	}
	if len(rules) == 0 {
		return
	}
	slices.Sort(rules)
	label := fmt.Sprintf("e%d", pe.runs)
	pe.runs++
	pe.p("%s:", label)
	pe.p("\tfor p < len(s) {")
	pe.p("\t\tswitch g := group[s[p]]; {")
	for _, r := range rules {
		t := rl.tokens[r]
		entry := t.entry & rl.plain()
		if entry == 0 {
			continue
		}
		pe.p("\t\tcase %s:", groupTest("g", entry))
		pe.p("\t\t\tp++")
		pe.runBody(rl, t, "\t\t\t")
	}
	pe.p("\t\tdefault:")
	pe.p("\t\t\tbreak %s", label)
	pe.p("\t\t}")
	pe.p("\t}")
}

// flatRunFunc writes flatFunc's fast path for a run lexer: each term
// passes over the elided tokens, takes its token's first byte when the
// token's entry has its group, then the token's body. It gives up where
// pgenToken_X would: a token the row does not expect, no token, a line
// feed or a rune from U+0080 on (which no test takes, so that the row
// cannot reach the end of s).
func (pe *parserEmitter) flatRunFunc(rl *runLexer, terms []flatTerm, ebnfs []string, mask uint64) {
	w := pe.p
	w("\tgroup := &pgenGroup_%s", pe.pd.lexer.name)
	w("\tp, start := 0, 0")
	w("\t_ = start")
	setTerm := func(t flatTerm, v, indent string) {
		if t.elem.hasPos {
			w("%s%s.Pos.Filename = filename", indent, v)
			w("%s%s.Pos.Offset, %s.Pos.Line, %s.Pos.Column = start, 1, start+1", indent, v, v, v)
		}
		w("%s%s.%s = s[start:p]", indent, v, t.text.name)
	}
	token := func(t flatTerm) runToken {
		r, err := strconv.Atoi(t.ref.typ)
		if err != nil {
			panic("pgen: a run lexer's token type is its rule: " + t.ref.typ)
		}
		return rl.tokens[r]
	}
	for i, t := range terms {
		w("\t// %s", ebnfs[i])
		if t.mode != modeOnce {
			break
		}
		pe.skipElided(rl, mask)
		pe.readToken(rl, token(t), "\t", true)
		if t.field != nil {
			setTerm(t, "out."+t.field.name, "\t")
		}
	}
	last := terms[len(terms)-1]
	if last.mode == modeOnce {
		pe.skipElided(rl, mask)
		w("\treturn p == len(s)")
		w("}")
		return
	}
	f := last.field.name
	tok := token(last)
	w("\tfor {")
	pe.skipElided(rl, mask)
	w("\t\tif p == len(s) {")
	w("\t\t\tbreak")
	w("\t\t}")
	pe.readToken(rl, tok, "\t\t", false)
	w("\t\tout.%s = append(out.%s, %s{})", f, f, last.elem.name)
	w("\t\tv := &out.%s[len(out.%s)-1]", f, f)
	setTerm(last, "v", "\t\t")
	w("\t}")
	if last.mode == modeOneOrMore {
		w("\treturn len(out.%s) > 0", f)
	} else {
		w("\treturn true")
	}
	w("}")
}
