package main

import (
	"fmt"
	"go/ast"
	"go/token"
	"strconv"
	"strings"
	"text/scanner"
)

// The nodes of a participle grammar, as participle's own grammar builder
// shapes them (one node per term, sequences of two or more terms, groups
// with a mode, captures bound to one field).
type node interface{ isNode() }

type (
	// structNode is a struct type's grammar, shared by every use of the type.
	structNode struct {
		info *structInfo
	}
	// seqNode is two or more terms in a row.
	seqNode struct {
		items []node
	}
	// disjNode is two or more alternatives.
	disjNode struct {
		alts []node
	}
	// groupNode is a parenthesised expression or a modifier.
	groupNode struct {
		expr node
		mode groupMode
	}
	// captureNode is "@" or "@@", into one field of the struct being parsed.
	captureNode struct {
		owner *structInfo
		field *fieldInfo
		n     node
	}
	// refNode is a token type by name.
	refNode struct {
		name string
		typ  string // the Go expression of its type: a rule index, or a token type of a custom lexer
	}
	// litNode is a literal token value, of any type.
	litNode struct {
		s string
	}
)

func (*structNode) isNode()  {}
func (*seqNode) isNode()     {}
func (*disjNode) isNode()    {}
func (*groupNode) isNode()   {}
func (*captureNode) isNode() {}
func (*refNode) isNode()     {}
func (*litNode) isNode()     {}

type groupMode int

const (
	modeOnce groupMode = iota
	modeZeroOrOne
	modeZeroOrMore
	modeOneOrMore
)

// fieldKind is how a field takes what a capture gives it.
type fieldKind int

const (
	kindNone       fieldKind = iota
	kindString               // string: token values concatenated
	kindStringPtr            // *string
	kindBool                 // bool: set when a token was captured
	kindStrings              // []string: one element a token
	kindStruct               // T
	kindStructPtr            // *T
	kindStructs              // []T
	kindStructPtrs           // []*T
)

type fieldInfo struct {
	name     string
	kind     fieldKind
	elem     string // struct type name for the struct kinds
	tag      string
	hasTag   bool
	typeText string
}

type structInfo struct {
	name      string
	fields    []*fieldInfo
	hasPos    bool
	hasTokens bool
	node      *structNode
	expr      node
	done      bool
}

// refuse is a construct the generator does not support.
type refuse struct{ msg string }

func refusef(format string, args ...any) { panic(refuse{fmt.Sprintf(format, args...)}) }

// grammarBuilder reads the struct types of one package.
type grammarBuilder struct {
	types   map[string]*ast.StructType
	structs map[string]*structInfo
	rules   []string          // token type names in rule order
	symbols map[string]string // a custom lexer's token types: name -> Go expression
	elided  map[string]bool
}

func (g *grammarBuilder) ruleIndex(name string) int {
	for i, r := range g.rules {
		if r == name {
			return i
		}
	}
	return -1
}

func exprText(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.StarExpr:
		return "*" + exprText(e.X)
	case *ast.ArrayType:
		if e.Len != nil {
			return "[?]" + exprText(e.Elt)
		}
		return "[]" + exprText(e.Elt)
	case *ast.SelectorExpr:
		return exprText(e.X) + "." + e.Sel.Name
	}
	return fmt.Sprintf("%T", e)
}

// structType returns the grammar of a named struct type, building it once.
func (g *grammarBuilder) structType(name string) *structInfo {
	if s, ok := g.structs[name]; ok {
		return s
	}
	st, ok := g.types[name]
	if !ok {
		refusef("type %s: not a struct type declared in the package", name)
	}
	s := &structInfo{name: name}
	s.node = &structNode{info: s}
	g.structs[name] = s
	for _, f := range st.Fields.List {
		if len(f.Names) == 0 {
			refusef("%s: embedded field %s is not supported", name, exprText(f.Type))
		}
		for _, id := range f.Names {
			fi := &fieldInfo{name: id.Name, typeText: exprText(f.Type)}
			if f.Tag != nil {
				raw, _ := strconv.Unquote(f.Tag.Value)
				tag := reflectTag(raw)
				if v, ok := tag.lookup("parser"); ok {
					fi.tag, fi.hasTag = v, v != ""
				} else {
					fi.tag, fi.hasTag = raw, raw != ""
				}
			}
			if !id.IsExported() {
				fi.hasTag = false // participle skips unexported fields
			}
			if id.Name == "Pos" {
				if fi.typeText != "lexer.Position" {
					refusef("%s.Pos: a Pos field of type %s is not supported (only lexer.Position)", name, fi.typeText)
				}
				s.hasPos = true
			}
			if id.Name == "EndPos" {
				refusef("%s.%s: EndPos fields are not supported", name, id.Name)
			}
			if id.Name == "Tokens" && fi.typeText == "[]lexer.Token" {
				if g.symbols == nil {
					refusef("%s.Tokens: a Tokens field is supported with a custom lexer only", name)
				}
				s.hasTokens = true
			}
			s.fields = append(s.fields, fi)
		}
	}
	var tagged []*fieldInfo
	for _, f := range s.fields {
		if f.hasTag {
			tagged = append(tagged, f)
		}
	}
	if len(tagged) == 0 {
		refusef("%s: no grammar (no tagged field)", name)
	}
	lx := newTagLexer(name, tagged)
	e := g.parseDisjunction(s, lx)
	if e == nil {
		refusef("%s: no grammar found", name)
	}
	if t := lx.peek(); t.typ != scanner.EOF {
		refusef("%s.%s: unexpected %q in the tag", name, t.field.name, t.text)
	}
	s.expr = e
	s.done = true
	return s
}

// reflectTag is a struct tag with reflect's lookup.
type reflectTag string

func (tag reflectTag) lookup(key string) (string, bool) {
	for tag != "" {
		i := 0
		for i < len(tag) && tag[i] == ' ' {
			i++
		}
		tag = tag[i:]
		if tag == "" {
			break
		}
		i = 0
		for i < len(tag) && tag[i] > ' ' && tag[i] != ':' && tag[i] != '"' && tag[i] != 0x7f {
			i++
		}
		if i == 0 || i+1 >= len(tag) || tag[i] != ':' || tag[i+1] != '"' {
			break
		}
		name := string(tag[:i])
		tag = tag[i+1:]
		i = 1
		for i < len(tag) && tag[i] != '"' {
			if tag[i] == '\\' {
				i++
			}
			i++
		}
		if i >= len(tag) {
			break
		}
		qvalue := string(tag[:i+1])
		tag = tag[i+1:]
		if key == name {
			value, err := strconv.Unquote(qvalue)
			if err != nil {
				break
			}
			return value, true
		}
	}
	return "", false
}

// tagToken is one token of the tags of a struct, with the field it is in.
type tagToken struct {
	typ   rune
	text  string
	field *fieldInfo
}

// tagLexer reads the tags of a struct's fields as one stream, as
// participle's struct lexer does.
type tagLexer struct {
	toks []tagToken
	i    int
}

func newTagLexer(structName string, fields []*fieldInfo) *tagLexer {
	lx := &tagLexer{}
	for _, f := range fields {
		var s scanner.Scanner
		s.Init(strings.NewReader(f.tag))
		s.Error = func(s *scanner.Scanner, msg string) {
			if !strings.HasSuffix(msg, "char literal") {
				refusef("%s.%s: tag: %s", structName, f.name, msg)
			}
		}
		for {
			typ := s.Scan()
			if typ == scanner.EOF {
				break
			}
			text := s.TokenText()
			switch typ {
			case scanner.Char:
				text = "\"" + text[1:len(text)-1] + "\""
				fallthrough
			case scanner.String:
				v, err := strconv.Unquote(text)
				if err != nil {
					refusef("%s.%s: tag literal %s: %v", structName, f.name, text, err)
				}
				text = v
				typ = scanner.String
			case scanner.RawString:
				text = text[1 : len(text)-1]
				typ = scanner.String
			}
			lx.toks = append(lx.toks, tagToken{typ: typ, text: text, field: f})
		}
	}
	return lx
}

func (lx *tagLexer) peek() tagToken {
	if lx.i < len(lx.toks) {
		return lx.toks[lx.i]
	}
	var f *fieldInfo
	if len(lx.toks) > 0 {
		f = lx.toks[len(lx.toks)-1].field
	}
	return tagToken{typ: scanner.EOF, field: f}
}

func (lx *tagLexer) next() tagToken {
	t := lx.peek()
	if lx.i < len(lx.toks) {
		lx.i++
	}
	return t
}

func (g *grammarBuilder) parseDisjunction(s *structInfo, lx *tagLexer) node {
	var alts []node
	for {
		n := g.parseSequence(s, lx)
		if n == nil {
			refusef("%s.%s: alternative %d is empty", s.name, lx.peek().field.name, len(alts)+1)
		}
		alts = append(alts, n)
		if lx.peek().typ != '|' {
			break
		}
		lx.next()
	}
	if len(alts) == 1 {
		return alts[0]
	}
	return &disjNode{alts: alts}
}

func (g *grammarBuilder) parseSequence(s *structInfo, lx *tagLexer) node {
	var items []node
	for lx.peek().typ != scanner.EOF {
		t := g.parseTerm(s, lx, true)
		if t == nil {
			break
		}
		items = append(items, t)
	}
	switch len(items) {
	case 0:
		return nil
	case 1:
		return items[0]
	}
	return &seqNode{items: items}
}

func (g *grammarBuilder) parseTerm(s *structInfo, lx *tagLexer, allowUnknown bool) node {
	n := g.parseTermNoModifiers(s, lx, allowUnknown)
	if n == nil {
		return nil
	}
	switch t := lx.peek(); t.typ {
	case '+':
		lx.next()
		return &groupNode{expr: n, mode: modeOneOrMore}
	case '*':
		lx.next()
		return &groupNode{expr: n, mode: modeZeroOrMore}
	case '?':
		lx.next()
		return &groupNode{expr: n, mode: modeZeroOrOne}
	case '!':
		refusef("%s.%s: the non-empty modifier \"!\" is not supported", s.name, t.field.name)
	}
	return n
}

func (g *grammarBuilder) parseTermNoModifiers(s *structInfo, lx *tagLexer, allowUnknown bool) node {
	t := lx.peek()
	switch t.typ {
	case '@':
		return g.parseCapture(s, lx)
	case scanner.String:
		lx.next()
		if lx.peek().typ == ':' {
			refusef("%s.%s: the literal type constraint %q:Type is not supported", s.name, t.field.name, t.text)
		}
		if t.text == "" {
			refusef("%s.%s: the empty literal is not supported", s.name, t.field.name)
		}
		return &litNode{s: t.text}
	case '~':
		refusef("%s.%s: negation \"~\" is not supported", s.name, t.field.name)
	case '!':
		refusef("%s.%s: negation \"!\" is not supported", s.name, t.field.name)
	case '[', '{':
		lx.next()
		d := g.parseDisjunction(s, lx)
		want, mode := ']', modeZeroOrOne
		if t.typ == '{' {
			want, mode = '}', modeZeroOrMore
		}
		if c := lx.next(); c.typ != want {
			refusef("%s.%s: expected %c in the tag, got %q", s.name, t.field.name, want, c.text)
		}
		return &groupNode{expr: d, mode: mode}
	case '(':
		lx.next()
		if lx.peek().typ == '?' {
			refusef("%s.%s: lookahead groups \"(?= )\" and \"(?! )\" are not supported", s.name, t.field.name)
		}
		d := g.parseDisjunction(s, lx)
		if c := lx.next(); c.typ != ')' {
			refusef("%s.%s: expected ) in the tag, got %q", s.name, t.field.name, c.text)
		}
		return &groupNode{expr: d, mode: modeOnce}
	case scanner.Ident:
		lx.next()
		if g.symbols != nil {
			e, ok := g.symbols[t.text]
			if !ok || t.text == "EOF" {
				refusef("%s.%s: unknown token type %q", s.name, t.field.name, t.text)
			}
			return &refNode{name: t.text, typ: e}
		}
		i := g.ruleIndex(t.text)
		if i < 0 {
			refusef("%s.%s: unknown token type %q", s.name, t.field.name, t.text)
		}
		if g.elided[t.text] {
			refusef("%s.%s: a reference to the elided token type %s is not supported", s.name, t.field.name, t.text)
		}
		return &refNode{name: t.text, typ: strconv.Itoa(i)}
	case scanner.EOF:
		return nil
	}
	if allowUnknown {
		return nil
	}
	refusef("%s.%s: unexpected %q in the tag", s.name, t.field.name, t.text)
	return nil
}

func (g *grammarBuilder) parseCapture(s *structInfo, lx *tagLexer) node {
	at := lx.next()
	f := at.field
	if lx.peek().typ == '@' {
		lx.next()
		elem, kind := structFieldKind(f.typeText)
		if kind == kindNone {
			refusef("%s.%s: @@ into a field of type %s is not supported (want T, *T, []T or []*T of a struct type)", s.name, f.name, f.typeText)
		}
		if f.kind != kindNone && f.kind != kind {
			refusef("%s.%s: captured twice in different ways", s.name, f.name)
		}
		f.kind, f.elem = kind, elem
		inner := g.structType(elem)
		return &captureNode{owner: s, field: f, n: inner.node}
	}
	var kind fieldKind
	switch f.typeText {
	case "string":
		kind = kindString
	case "*string":
		kind = kindStringPtr
	case "bool":
		kind = kindBool
	case "[]string":
		kind = kindStrings
	default:
		refusef("%s.%s: @ capture into a field of type %s is not supported (want string, *string, bool or []string)", s.name, f.name, f.typeText)
	}
	f.kind = kind
	n := g.parseTermNoModifiers(s, lx, false)
	if hasCapture(n) {
		refusef("%s.%s: a capture inside a capture is not supported", s.name, f.name)
	}
	return &captureNode{owner: s, field: f, n: n}
}

func structFieldKind(t string) (string, fieldKind) {
	isName := func(s string) bool { return token.IsIdentifier(s) && s != "string" && s != "bool" }
	switch {
	case strings.HasPrefix(t, "[]*") && isName(t[3:]):
		return t[3:], kindStructPtrs
	case strings.HasPrefix(t, "[]") && isName(t[2:]):
		return t[2:], kindStructs
	case strings.HasPrefix(t, "*") && isName(t[1:]):
		return t[1:], kindStructPtr
	case isName(t):
		return t, kindStruct
	}
	return "", kindNone
}

func hasCapture(n node) bool {
	switch n := n.(type) {
	case *captureNode, *structNode:
		return true
	case *seqNode:
		for _, m := range n.items {
			if hasCapture(m) {
				return true
			}
		}
	case *disjNode:
		for _, m := range n.alts {
			if hasCapture(m) {
				return true
			}
		}
	case *groupNode:
		return hasCapture(n.expr)
	}
	return false
}

// nullable reports whether n can match without taking a token.
func nullable(n node, seen map[*structInfo]bool) bool {
	switch n := n.(type) {
	case *structNode:
		if seen[n.info] {
			return false
		}
		seen[n.info] = true
		defer delete(seen, n.info)
		return nullable(n.info.expr, seen)
	case *seqNode:
		for _, m := range n.items {
			if !nullable(m, seen) {
				return false
			}
		}
		return true
	case *disjNode:
		for _, m := range n.alts {
			if nullable(m, seen) {
				return true
			}
		}
		return false
	case *groupNode:
		return n.mode == modeZeroOrOne || n.mode == modeZeroOrMore || nullable(n.expr, seen)
	case *captureNode:
		return nullable(n.n, seen)
	}
	return false
}

// ebnf renders n as participle's error messages do.
func ebnf(n node) string {
	var b strings.Builder
	writeEBNF(&b, true, n)
	return b.String()
}

func writeEBNF(b *strings.Builder, root bool, n node) {
	switch n := n.(type) {
	case *disjNode:
		if !root {
			b.WriteString("(")
		}
		for i, a := range n.alts {
			if i > 0 {
				b.WriteString(" | ")
			}
			writeEBNF(b, false, a)
		}
		if !root {
			b.WriteString(")")
		}
	case *structNode:
		b.WriteString(strings.ToUpper(n.info.name[:1]) + n.info.name[1:])
	case *seqNode:
		writeSeqEBNF(b, root, n.items)
	case *captureNode:
		writeEBNF(b, false, n.n)
	case *refNode:
		b.WriteString("<" + strings.ToLower(n.name) + ">")
	case *litNode:
		fmt.Fprintf(b, "%q", n.s)
	case *groupNode:
		if child, ok := n.expr.(*groupNode); ok && child.mode == modeOnce {
			writeEBNF(b, false, child.expr)
		} else if child, ok := n.expr.(*captureNode); ok {
			if gc, ok := child.n.(*groupNode); ok && gc.mode == modeOnce {
				writeEBNF(b, false, gc.expr)
			} else {
				writeEBNF(b, false, n.expr)
			}
		} else {
			writeEBNF(b, false, n.expr)
		}
		switch n.mode {
		case modeZeroOrOne:
			b.WriteString("?")
		case modeZeroOrMore:
			b.WriteString("*")
		case modeOneOrMore:
			b.WriteString("+")
		}
	}
}

func writeSeqEBNF(b *strings.Builder, root bool, items []node) {
	group := len(items) > 1 && !root
	if group {
		b.WriteString("(")
	}
	for i, it := range items {
		if i > 0 {
			b.WriteString(" ")
		}
		writeEBNF(b, false, it)
	}
	if group {
		b.WriteString(")")
	}
}
