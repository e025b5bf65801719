package main

import (
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode"

	"github.com/tracekit/tracekit/grammar/internal/pgen/pgenrt"
)

// numClasses is the size of the lexer's input alphabet: the 128 ASCII bytes
// and one class for every rune from U+0080 on (and every byte of invalid
// UTF-8, which Go's regexp reads as U+FFFD). A pattern whose classes treat
// the non-ASCII runes unevenly is refused.
const numClasses = pgenrt.Classes

// hiClass is the class of the runes from U+0080 on.
const hiClass = pgenrt.HiClass

// dfa is a rule's pattern compiled for leftmost-first matching anchored at
// the start, as regexp's FindStringIndex of "^(?:pattern)" matches: states
// are ordered thread lists; a state is accepting when a thread reached the
// match and every lower-priority thread was dropped.
type dfa struct {
	trans  [][numClasses]int // -1: dead
	accept []bool
}

// compileDFA compiles one lexer rule's pattern.
func compileDFA(rule, pattern string) *dfa {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		refusef("lexer rule %s: %v", rule, err)
	}
	re = re.Simplify()
	prog, err := syntax.Compile(re)
	if err != nil {
		refusef("lexer rule %s: %v", rule, err)
	}
	for i := range prog.Inst {
		in := &prog.Inst[i]
		switch in.Op {
		case syntax.InstEmptyWidth:
			refusef("lexer rule %s: pattern %q: anchors and word boundaries are not supported", rule, pattern)
		case syntax.InstRune, syntax.InstRune1:
			if syntax.Flags(in.Arg)&syntax.FoldCase != 0 {
				refusef("lexer rule %s: pattern %q: case folding is not supported", rule, pattern)
			}
			hiCovered(rule, pattern, in.Rune)
		}
	}
	d := &dfa{}
	var set stateSet
	add := func(threads []int) (int, bool) {
		i, isNew := set.add(threads)
		if isNew {
			d.trans = append(d.trans, [numClasses]int{})
			acc := len(threads) > 0 && prog.Inst[threads[len(threads)-1]].Op == syntax.InstMatch
			d.accept = append(d.accept, acc)
		}
		return i, isNew
	}
	start := closure(prog, []int{prog.Start})
	add(start)
	for s := 0; s < len(set.lists); s++ {
		for c := 0; c < numClasses; c++ {
			r := rune(c)
			if c == hiClass {
				r = 0xFFFD
			}
			var next []int
			for _, pc := range set.lists[s] {
				in := &prog.Inst[pc]
				if in.Op == syntax.InstMatch {
					break
				}
				if matchRune(in, r) {
					next = append(next, int(in.Out))
				}
			}
			next = closure(prog, next)
			if len(next) == 0 {
				d.trans[s][c] = -1
				continue
			}
			i, _ := add(next)
			d.trans[s][c] = i
		}
		if len(set.lists) > 4096 {
			refusef("lexer rule %s: pattern %q needs too many states", rule, pattern)
		}
	}
	return d
}

// stateSet numbers the states of an automaton being built, each a list of
// ints (the threads of a rule's automaton, the rules' states of a merged
// one), by their contents.
type stateSet struct {
	index map[string]int
	lists [][]int
}

// add returns the number of the state l, and whether it is new.
func (s *stateSet) add(l []int) (int, bool) {
	key := listKey(l)
	if i, ok := s.index[key]; ok {
		return i, false
	}
	if s.index == nil {
		s.index = map[string]int{}
	}
	i := len(s.lists)
	s.index[key] = i
	s.lists = append(s.lists, l)
	return i, true
}

func listKey(l []int) string {
	var b strings.Builder
	for _, pc := range l {
		b.WriteString(strconv.Itoa(pc))
		b.WriteByte(',')
	}
	return b.String()
}

// closure follows the empty transitions of the threads in priority order,
// dropping duplicates and every thread after the first match.
func closure(prog *syntax.Prog, pcs []int) []int {
	var out []int
	seen := map[int]bool{}
	var visit func(pc int) bool // true: a match was reached
	visit = func(pc int) bool {
		if seen[pc] {
			return false
		}
		seen[pc] = true
		in := &prog.Inst[pc]
		switch in.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			if visit(int(in.Out)) {
				return true
			}
			return visit(int(in.Arg))
		case syntax.InstCapture, syntax.InstNop:
			return visit(int(in.Out))
		case syntax.InstFail:
			return false
		case syntax.InstMatch:
			out = append(out, pc)
			return true
		}
		out = append(out, pc)
		return false
	}
	for _, pc := range pcs {
		if visit(pc) {
			break
		}
	}
	return out
}

func matchRune(in *syntax.Inst, r rune) bool {
	switch in.Op {
	case syntax.InstRune, syntax.InstRune1:
		return in.MatchRune(r)
	case syntax.InstRuneAny:
		return true
	case syntax.InstRuneAnyNotNL:
		return r != '\n'
	}
	return false
}

// hiCovered refuses a character class that holds some but not all runes
// from U+0080 on.
func hiCovered(rule, pattern string, ranges []rune) {
	if len(ranges) == 1 {
		if ranges[0] >= 0x80 {
			refusef("lexer rule %s: pattern %q: non-ASCII literals are not supported", rule, pattern)
		}
		return
	}
	covered := rune(0x80) // next non-ASCII rune not yet seen covered
	some := false
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		if hi < 0x80 {
			continue
		}
		some = true
		if lo <= covered {
			if hi+1 > covered {
				covered = hi + 1
			}
		}
	}
	if some && covered <= unicode.MaxRune {
		refusef("lexer rule %s: pattern %q: a class that holds only some non-ASCII runes is not supported", rule, pattern)
	}
}
