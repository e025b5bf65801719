package main

import (
	"sort"
	"strings"
)

// A flat grammar is a root struct whose grammar is a row of tokens: each
// term a token type or a capture of a struct parsed in place (oneToken)
// into a field of its own, the last term possibly a repetition of such a
// capture into a slice ("@@*", "@@+"). Its parser gets a fast path, the
// function flat: it reads the tokens straight from the text with the
// lexer's automaton (pgenToken_X) into the fields, with no token list and
// no function a term. It takes only what it can take exactly as the
// general path does: a line that parses, with no line feed and no rune
// from U+0080 on (so that a token's line is 1 and its column its offset
// plus one). On anything else it gives up, and the general path, which
// knows the errors, does the work again from the start. The flat parsers
// of a run lexer (runlex.go) call no token reader: they read in place.

// flatTerm is one term of a flat grammar.
type flatTerm struct {
	ref   *refNode    // the token type the term matches
	field *fieldInfo  // the root's field captured into; nil for a bare token type
	elem  *structInfo // the one-token struct the field holds
	text  *fieldInfo  // elem's field taking the token's text
	mode  groupMode   // modeOnce, or the last term's repetition
}

// flatTerms returns the terms of root's grammar when it is flat.
func flatTerms(g *grammarBuilder, root *structInfo) ([]flatTerm, bool) {
	if root.hasPos || root.hasTokens {
		return nil, false
	}
	var items []node
	switch n := unwrap(root.expr).(type) {
	case *seqNode:
		items = n.items
	default:
		items = []node{n}
	}
	var terms []flatTerm
	seen := map[*fieldInfo]bool{}
	for i, it := range items {
		t := flatTerm{mode: modeOnce}
		it = unwrap(it)
		if gn, ok := it.(*groupNode); ok && i == len(items)-1 && (gn.mode == modeZeroOrMore || gn.mode == modeOneOrMore) {
			t.mode = gn.mode
			it = unwrap(gn.expr)
		}
		switch n := it.(type) {
		case *refNode:
			if t.mode != modeOnce || g.elided[n.name] {
				return nil, false
			}
			t.ref = n
		case *captureNode:
			in := inlined(n)
			if in == nil || seen[n.field] {
				return nil, false
			}
			if (t.mode == modeOnce) != (n.field.kind == kindStruct) {
				return nil, false
			}
			t.text, t.ref, _ = oneToken(in)
			if g.elided[t.ref.name] {
				return nil, false
			}
			seen[n.field] = true
			t.field, t.elem = n.field, in
		default:
			return nil, false
		}
		terms = append(terms, t)
	}
	return terms, true
}

// flatFunc writes the fast path of gen, the parser of root, when root's
// grammar is flat, and returns the statement parse runs it with; "" when
// the grammar is not flat or its lexer has no code (pgenToken_X).
func (pe *parserEmitter) flatFunc(gen string, root *structInfo, lexer string, mask uint64) string {
	terms, ok := flatTerms(pe.g, root)
	if !ok || pe.tokenFuncs[lexer] == nil {
		return ""
	}
	var ebnfs []string
	for _, t := range terms {
		var n node = t.ref
		if t.field != nil {
			n = &captureNode{owner: root, field: t.field, n: t.elem.node}
		}
		if t.mode != modeOnce {
			n = &groupNode{expr: n, mode: t.mode}
		}
		ebnfs = append(ebnfs, ebnf(n))
	}
	w := pe.p
	w("")
	w("// flat is the fast path of parse for %s's row of tokens,", root.name)
	w("// %s,", strings.Join(ebnfs, " "))
	w("// read straight from s: false, when s is not a line that parses, of")
	w("// ASCII with no line feed, for the general path to do the work again.")
	w("func (*%s) flat(filename, s string, out *%s) bool {", gen, root.name)
	// The terms set every field of the root they capture, whole: the
	// root needs clearing only when some field is not captured.
	covered := 0
	for _, t := range terms {
		if t.field != nil {
			covered++
		}
	}
	switch last := terms[len(terms)-1]; {
	case covered != len(root.fields):
		w("\t%s", resetRoot(root))
	case last.mode != modeOnce:
		w("\tout.%s = out.%s[:0]", last.field.name, last.field.name)
	}
	if rl := pe.runLexers[lexer]; rl != nil {
		pe.flatRunFunc(rl, terms, ebnfs, mask)
		return "if p.flat(filename, s, out) {\nreturn nil\n}"
	}
	pe.wantToken[lexer] = true
	w("\trule, start, pos := 0, 0, 0")
	setTerm := func(t flatTerm, v string) {
		if t.elem.hasPos {
			w("\t%s.Pos.Filename = filename", v)
			w("\t%s.Pos.Offset, %s.Pos.Line, %s.Pos.Column = start, 1, start+1", v, v, v)
		}
		w("\t%s.%s = s[start:pos]", v, t.text.name)
	}
	for i, t := range terms {
		w("\t// %s", ebnfs[i])
		if t.mode != modeOnce {
			break
		}
		w("\tif rule, start, pos = pgenToken_%s(s, pos, %d); rule != %s {", lexer, mask, t.ref.typ)
		w("\t\treturn false")
		w("\t}")
		if t.field != nil {
			setTerm(t, "out."+t.field.name)
		}
	}
	last := terms[len(terms)-1]
	if last.mode == modeOnce {
		w("\trule, _, _ = pgenToken_%s(s, pos, %d)", lexer, mask)
		w("\treturn rule == -1")
		w("}")
		return "if p.flat(filename, s, out) {\nreturn nil\n}"
	}
	f := last.field.name
	w("\tfor {")
	w("\t\tvar end int")
	w("\t\tif rule, start, end = pgenToken_%s(s, pos, %d); rule != %s {", lexer, mask, last.ref.typ)
	w("\t\t\tbreak")
	w("\t\t}")
	w("\t\tpos = end")
	w("\t\tout.%s = append(out.%s, %s{})", f, f, last.elem.name)
	w("\t\tv := &out.%s[len(out.%s)-1]", f, f)
	setTerm(last, "v")
	w("\t}")
	if last.mode == modeOneOrMore {
		w("\treturn rule == -1 && len(out.%s) > 0", f)
	} else {
		w("\treturn rule == -1")
	}
	w("}")
	return "if p.flat(filename, s, out) {\nreturn nil\n}"
}

// tokenFunc writes pgenToken_X, the reader of one token of the flat
// parsers of lexer ld.
func (e *emitter) tokenFunc(ld *lexerDef, cb *combined, group [numClasses]int, ngroups int) {
	e.p("")
	e.p("// pgenToken_%s reads the token at pos with %s's automaton, as", ld.name, ld.name)
	e.p("// pgenLex_%s does, passing over the tokens of the rules in elide: its", ld.name)
	e.p("// rule, start and end; rule -1 at the end of s, -2 when no rule matches")
	e.p("// or a token holds a line feed or a rune from U+0080 on (left to the")
	e.p("// general path).")
	e.p("func pgenToken_%s(s string, pos int, elide uint64) (int, int, int) {", ld.name)
	e.p("\tgroup := &pgenGroup_%s", ld.name)
	e.p("\tfor pos < len(s) {")
	e.lexStates(ld, cb, group, ngroups)
	e.p("\tdone:")
	e.p("\t\tif rule < 0 || end == pos || !plain {")
	e.p("\t\t\treturn -2, pos, pos")
	e.p("\t\t}")
	e.p("\t\tif elide&(1<<uint(rule)) == 0 {")
	e.p("\t\t\treturn rule, pos, end")
	e.p("\t\t}")
	e.p("\t\tpos = end")
	e.p("\t}")
	e.p("\treturn -1, pos, pos")
	e.p("}")
}

// tokenFuncsWanted writes the token readers the flat parsers use.
func (e *emitter) tokenFuncsWanted(want map[string]bool, funcs map[string]func()) {
	var names []string
	for n := range want {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		funcs[n]()
	}
}
