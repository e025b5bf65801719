package main

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"sort"
	"strconv"
	"strings"
)

// firstSet is a superset of the tokens on which the parse of a node that
// cannot match nothing may do anything but miss quietly: return no match
// and no error, the state and the fields as they were. On any other token
// the emitted code skips the node (an alternative, an iteration of a
// repetition, the allocation of a captured struct) without changing what
// the parse does.
//
// A literal matches on its text alone, so with a generated lexer it is
// counted as the tokens of the rules whose pattern matches its text (a
// token's text is always a match of its rule), narrowed to that text.
// With a custom lexer it is counted under the type "" (any type), tested
// as the literal's own match is (pgenrt.Tokens.Is: the text, in any case
// for the types that fold case).
type firstSet struct {
	all   bool                       // any token (nodes that can match nothing)
	types map[string]bool            // token types, any text
	lits  map[string]map[string]bool // token type ("" for any, custom lexers) -> texts
}

func (f *firstSet) addType(t string) {
	if f.types == nil {
		f.types = map[string]bool{}
	}
	f.types[t] = true
}

func (f *firstSet) addLit(t, s string) {
	if f.lits == nil {
		f.lits = map[string]map[string]bool{}
	}
	if f.lits[t] == nil {
		f.lits[t] = map[string]bool{}
	}
	f.lits[t][s] = true
}

func (f *firstSet) union(g firstSet) {
	if g.all {
		f.all = true
	}
	for t := range g.types {
		f.addType(t)
	}
	for t, ss := range g.lits {
		for s := range ss {
			f.addLit(t, s)
		}
	}
}

// firstSets computes the first sets of a group's nodes.
type firstSets struct {
	g       *grammarBuilder
	custom  bool
	rules   []*regexp.Regexp // the generated lexer's rules, anchored at both ends
	only    []string         // the one text a rule matches, "" when it matches several
	memo    map[node]firstSet
	visited map[*structInfo]bool
}

func newFirstSets(g *grammarBuilder, pd *parserDef) *firstSets {
	fs := &firstSets{g: g, custom: pd.custom != nil, memo: map[node]firstSet{}, visited: map[*structInfo]bool{}}
	if pd.lexer != nil {
		for _, r := range pd.lexer.rules {
			fs.rules = append(fs.rules, regexp.MustCompile(`^(?:`+r.pattern+`)$`))
			only := ""
			if re, err := syntax.Parse(r.pattern, syntax.Perl); err == nil {
				if re = re.Simplify(); re.Op == syntax.OpLiteral && re.Flags&syntax.FoldCase == 0 {
					only = string(re.Rune)
				}
			}
			fs.only = append(fs.only, only)
		}
	}
	return fs
}

// of returns the first set of n.
func (fs *firstSets) of(n node) firstSet {
	if f, ok := fs.memo[n]; ok {
		return f
	}
	var f firstSet
	if nullable(n, map[*structInfo]bool{}) {
		f.all = true
		fs.memo[n] = f
		return f
	}
	switch n := n.(type) {
	case *structNode:
		if fs.visited[n.info] {
			// Left recursion, which participle does not end either.
			return firstSet{all: true}
		}
		fs.visited[n.info] = true
		f = fs.of(n.info.expr)
		delete(fs.visited, n.info)
	case *seqNode:
		// The first item cannot match nothing: a sequence whose first
		// item misses quietly does too.
		f = fs.of(n.items[0])
	case *disjNode:
		for _, a := range n.alts {
			f.union(fs.of(a))
		}
	case *groupNode:
		// Once or one or more: a first iteration that misses quietly
		// leaves the group without a match.
		f = fs.of(n.expr)
	case *captureNode:
		f = fs.of(n.n)
	case *refNode:
		f.addType(n.typ)
	case *litNode:
		if fs.custom {
			f.addLit("", n.s)
			break
		}
		for i, re := range fs.rules {
			switch {
			case fs.g.elided[fs.g.rules[i]] || !re.MatchString(n.s):
			case fs.only[i] == n.s:
				f.addType(strconv.Itoa(i)) // every token of the rule
			default:
				f.addLit(strconv.Itoa(i), n.s)
			}
		}
	default:
		f.all = true
	}
	fs.memo[n] = f
	return f
}

// cond returns the Go expression that is true for the tokens of f, over
// t, the type of the token at the cursor of the state c, and whether it
// reads t.
func (f firstSet) cond(custom bool) (string, bool) {
	var types []string
	for t := range f.types {
		types = append(types, t)
	}
	sort.Strings(types)
	var parts []string
	if custom {
		for _, t := range types {
			parts = append(parts, "t == "+t)
		}
	} else if len(types) > 0 {
		var mask uint64
		for _, t := range types {
			i, _ := strconv.Atoi(t)
			mask |= 1 << uint(i)
		}
		// A shift of 32 bits or more (the end of the input, -1) gives 0.
		parts = append(parts, fmt.Sprintf("%#x>>uint32(t)&1 != 0", mask))
	}
	usesT := len(parts) > 0
	if texts := f.lits[""]; custom && len(texts) > 0 {
		// A custom lexer's literals, of any type.
		var ss []string
		for s := range texts {
			ss = append(ss, s)
		}
		sort.Strings(ss)
		for _, s := range ss {
			parts = append(parts, "p.Is(c.Cur, "+strconv.Quote(s)+")")
		}
	}
	var ltypes []string
	for t := range f.lits {
		if t != "" && !f.types[t] {
			ltypes = append(ltypes, t)
		}
	}
	sort.Slice(ltypes, func(i, j int) bool {
		a, _ := strconv.Atoi(ltypes[i])
		b, _ := strconv.Atoi(ltypes[j])
		return a < b
	})
	for _, t := range ltypes {
		var ss []string
		for s := range f.lits[t] {
			ss = append(ss, s)
		}
		sort.Strings(ss)
		var eq []string
		for _, s := range ss {
			eq = append(eq, "p.Text(c.Cur) == "+strconv.Quote(s))
		}
		parts = append(parts, fmt.Sprintf("t == %s && (%s)", t, strings.Join(eq, " || ")))
		usesT = true
	}
	if len(parts) == 0 {
		return "false", false
	}
	return strings.Join(parts, " || "), usesT
}

// empty returns a superset of the tokens on which the parse of n, a node
// that can match nothing, may do anything but match nothing quietly:
// return a match and no error with the state as it was. Fields of the
// struct being parsed may change: empty serves the items before the first
// that cannot match nothing in a struct's sequence, where the struct is
// dropped when that item then misses.
func (fs *firstSets) empty(n node) firstSet {
	switch n := n.(type) {
	case *groupNode:
		switch {
		case n.mode == modeOnce:
			return fs.empty(n.expr)
		case !nullable(n.expr, map[*structInfo]bool{}):
			// A first iteration that misses quietly ends the repetition.
			return fs.of(n.expr)
		}
	case *captureNode:
		if _, ok := n.n.(*structNode); !ok {
			return fs.empty(n.n)
		}
	case *seqNode:
		var f firstSet
		for _, m := range n.items {
			f.union(fs.empty(m))
		}
		return f
	}
	return firstSet{all: true}
}

// structFail tells how the parse of s fails on the tokens outside the
// returned set, when its expression is a sequence whose items before the
// first that cannot match nothing match nothing quietly there and that
// item misses quietly: with the sequence's error at the cursor, whose
// "expected" text is the sequence's rest from that item. ok is false when
// the expression is not such a sequence.
func (fs *firstSets) structFail(s *structInfo) (f firstSet, rest []node, ok bool) {
	seq, isSeq := s.expr.(*seqNode)
	if !isSeq {
		return firstSet{}, nil, false
	}
	for j, it := range seq.items {
		if !nullable(it, map[*structInfo]bool{}) {
			if j == 0 {
				return firstSet{}, nil, false
			}
			f.union(fs.of(it))
			return f, seq.items[j:], !f.all
		}
		f.union(fs.empty(it))
	}
	return firstSet{}, nil, false
}
