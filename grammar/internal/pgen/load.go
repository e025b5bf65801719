package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// lexerDef is a lexer.MustSimple rule list.
type lexerDef struct {
	name  string
	rules []lexRule
}

type lexRule struct {
	name, pattern string
}

// customLexer is a lexer.Definition type of the package whose Symbols
// method returns a map literal: the generated parser then takes the tokens
// it scanned (ParseTokens).
type customLexer struct {
	typeName string
	names    []string          // token type names, sorted
	exprs    map[string]string // name -> Go expression of its lexer.TokenType
}

// parserDef is one participle.MustBuild call.
type parserDef struct {
	name      string // the variable
	root      string // the root struct type
	lexer     *lexerDef
	custom    *customLexer
	elide     []string
	ci        []string // case-insensitive token types
	lookahead int
}

// pkgInfo is what pgen reads from a grammar package.
type pkgInfo struct {
	files   []*ast.File
	name    string
	types   map[string]*ast.StructType
	lexers  map[string]*lexerDef
	parsers []*parserDef
}

// Generate reads the grammar package in dir and returns the generated
// source. An unsupported construct is an error naming it.
func Generate(dir string) (src []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			ref, ok := r.(refuse)
			if !ok {
				panic(r)
			}
			src, err = nil, fmt.Errorf("%s: %s", dir, ref.msg)
		}
	}()
	pkg, err := loadPackage(dir)
	if err != nil {
		return nil, err
	}
	return emit(pkg)
}

func loadPackage(dir string) (*pkgInfo, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	pkg := &pkgInfo{types: map[string]*ast.StructType{}, lexers: map[string]*lexerDef{}}
	var files []*ast.File
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") || strings.HasSuffix(n, "_gen.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		if pkg.name == "" {
			pkg.name = f.Name.Name
		}
		files = append(files, f)
	}
	pkg.files = files
	if len(files) == 0 {
		return nil, fmt.Errorf("no Go files")
	}
	type pending struct {
		name string
		call *ast.CallExpr
		root string
	}
	var builds []pending
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range gd.Specs {
				switch sp := spec.(type) {
				case *ast.TypeSpec:
					if st, ok := sp.Type.(*ast.StructType); ok {
						pkg.types[sp.Name.Name] = st
					}
				case *ast.ValueSpec:
					for i, v := range sp.Values {
						if i >= len(sp.Names) {
							break
						}
						name := sp.Names[i].Name
						v = onceValue(v)
						if cl, ok := v.(*ast.CompositeLit); ok {
							// A struct of parsers: each keyed MustBuild is
							// named for its key.
							for _, e := range cl.Elts {
								kv, ok := e.(*ast.KeyValueExpr)
								if !ok {
									continue
								}
								if call, ok := kv.Value.(*ast.CallExpr); ok {
									if root, ok := mustBuild(call); ok {
										builds = append(builds, pending{exprText(kv.Key) + "Parser", call, root})
									}
								}
							}
							continue
						}
						call, ok := v.(*ast.CallExpr)
						if !ok {
							continue
						}
						if root, ok := mustBuild(call); ok {
							builds = append(builds, pending{name, call, root})
						} else if isSel(call.Fun, "lexer", "MustSimple") {
							pkg.lexers[name] = readLexer(name, call)
						}
					}
				}
			}
		}
	}
	sort.Slice(builds, func(i, j int) bool { return builds[i].name < builds[j].name })
	for _, b := range builds {
		pd := &parserDef{name: b.name, root: b.root, lookahead: 1}
		args := b.call.Args
		if b.call.Ellipsis.IsValid() {
			args = optionList(pkg, b.name, args)
		}
		for _, a := range args {
			opt, ok := a.(*ast.CallExpr)
			if !ok {
				refusef("parser %s: option %s is not supported (want participle.Lexer, Elide, UseLookahead or CaseInsensitive calls)", b.name, exprText(a))
			}
			switch {
			case isSel(opt.Fun, "participle", "Lexer"):
				if cl, ok := opt.Args[0].(*ast.CompositeLit); ok {
					pd.custom = readCustomLexer(pkg, b.name, exprText(cl.Type))
					break
				}
				id, ok := opt.Args[0].(*ast.Ident)
				if !ok || pkg.lexers[id.Name] == nil {
					refusef("parser %s: the lexer must be a package-level lexer.MustSimple variable or a T{} of a type whose Symbols method returns a map literal", b.name)
				}
				pd.lexer = pkg.lexers[id.Name]
			case isSel(opt.Fun, "participle", "CaseInsensitive"):
				for _, e := range opt.Args {
					pd.ci = append(pd.ci, stringLit(b.name, e))
				}
			case isSel(opt.Fun, "participle", "Elide"):
				for _, e := range opt.Args {
					pd.elide = append(pd.elide, stringLit(b.name, e))
				}
			case isSel(opt.Fun, "participle", "UseLookahead"):
				lit, ok := opt.Args[0].(*ast.BasicLit)
				if !ok || lit.Kind != token.INT {
					refusef("parser %s: UseLookahead wants an integer literal", b.name)
				}
				n, _ := strconv.Atoi(lit.Value)
				if n < 1 {
					refusef("parser %s: UseLookahead(%d): only a positive lookahead is supported", b.name, n)
				}
				pd.lookahead = n
			default:
				refusef("parser %s: option %s is not supported", b.name, exprText(opt.Fun))
			}
		}
		if pd.lexer == nil && pd.custom == nil {
			refusef("parser %s: participle's default lexer is not supported; give a lexer.MustSimple lexer", b.name)
		}
		if pd.custom != nil && len(pd.elide) > 0 {
			refusef("parser %s: Elide with a custom lexer is not supported", b.name)
		}
		if pd.lexer != nil && len(pd.ci) > 0 {
			refusef("parser %s: CaseInsensitive is supported with a custom lexer only", b.name)
		}
		for _, e := range pd.elide {
			found := false
			for _, r := range pd.lexer.rules {
				found = found || r.name == e
			}
			if !found {
				refusef("parser %s: Elide(%q) names no rule of %s", b.name, e, pd.lexer.name)
			}
		}
		for _, t := range pd.ci {
			if pd.custom.exprs[t] == "" {
				refusef("parser %s: CaseInsensitive(%q) names no token type", b.name, t)
			}
		}
		pkg.parsers = append(pkg.parsers, pd)
	}
	if len(pkg.parsers) == 0 {
		return nil, fmt.Errorf("no participle.MustBuild[T] variable in package %s", pkg.name)
	}
	return pkg, nil
}

// onceValue returns what a sync.OnceValue(func() T { return X }) builds,
// X: a grammar package builds participle's parsers on first use (they are
// the reference the generated parsers are tested against, and building
// them all when the program starts would cost every command some
// milliseconds). Any other expression is returned as it is.
func onceValue(e ast.Expr) ast.Expr {
	call, ok := e.(*ast.CallExpr)
	if !ok || !isSel(call.Fun, "sync", "OnceValue") || len(call.Args) != 1 {
		return e
	}
	fn, ok := call.Args[0].(*ast.FuncLit)
	if !ok || len(fn.Body.List) != 1 {
		return e
	}
	ret, ok := fn.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return e
	}
	x := ret.Results[0]
	if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
		x = u.X
	}
	return x
}

func isSel(e ast.Expr, pkg, name string) bool {
	s, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := s.X.(*ast.Ident)
	return ok && x.Name == pkg && s.Sel.Name == name
}

func mustBuild(call *ast.CallExpr) (string, bool) {
	ix, ok := call.Fun.(*ast.IndexExpr)
	if !ok || !isSel(ix.X, "participle", "MustBuild") {
		return "", false
	}
	id, ok := ix.Index.(*ast.Ident)
	if !ok {
		refusef("participle.MustBuild[%s]: the root must be a struct type of the package", exprText(ix.Index))
	}
	return id.Name, true
}

func stringLit(ctx string, e ast.Expr) string {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		refusef("%s: %s is not a string literal", ctx, exprText(e))
	}
	s, err := strconv.Unquote(lit.Value)
	if err != nil {
		refusef("%s: %v", ctx, err)
	}
	return s
}

func readLexer(name string, call *ast.CallExpr) *lexerDef {
	if len(call.Args) != 1 {
		refusef("lexer %s: lexer.MustSimple wants one rule list", name)
	}
	cl, ok := call.Args[0].(*ast.CompositeLit)
	if !ok {
		refusef("lexer %s: the rules must be a composite literal", name)
	}
	ld := &lexerDef{name: name}
	for _, e := range cl.Elts {
		r, ok := e.(*ast.CompositeLit)
		if !ok {
			refusef("lexer %s: a rule must be a {Name, Pattern} literal", name)
		}
		var rule lexRule
		for i, el := range r.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				switch exprText(kv.Key) {
				case "Name":
					rule.name = stringLit("lexer "+name, kv.Value)
				case "Pattern":
					rule.pattern = stringLit("lexer "+name, kv.Value)
				}
				continue
			}
			if i == 0 {
				rule.name = stringLit("lexer "+name, el)
			} else {
				rule.pattern = stringLit("lexer "+name, el)
			}
		}
		ld.rules = append(ld.rules, rule)
	}
	return ld
}

// optionList resolves "f()..." in a MustBuild call: f must be a function of
// the package that returns a []participle.Option literal.
func optionList(pkg *pkgInfo, parser string, args []ast.Expr) []ast.Expr {
	if len(args) != 1 {
		refusef("parser %s: options passed with ... must be one call of a function of the package", parser)
	}
	call, ok := args[0].(*ast.CallExpr)
	id, ok2 := call.Fun.(*ast.Ident)
	if !ok || !ok2 || len(call.Args) != 0 {
		refusef("parser %s: options passed with ... must be one call of a function of the package", parser)
	}
	for _, f := range pkg.files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || fd.Name.Name != id.Name || fd.Body == nil || len(fd.Body.List) != 1 {
				continue
			}
			ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
			if !ok || len(ret.Results) != 1 {
				continue
			}
			if cl, ok := ret.Results[0].(*ast.CompositeLit); ok {
				return cl.Elts
			}
		}
	}
	refusef("parser %s: %s() must be a function of the package whose body is one return of a []participle.Option literal", parser, id.Name)
	return nil
}

// readCustomLexer reads the Symbols method of a lexer definition type.
func readCustomLexer(pkg *pkgInfo, parser, typeName string) *customLexer {
	for _, f := range pkg.files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || fd.Name.Name != "Symbols" || len(fd.Recv.List) != 1 || exprText(fd.Recv.List[0].Type) != typeName || fd.Body == nil {
				continue
			}
			for _, st := range fd.Body.List {
				ret, ok := st.(*ast.ReturnStmt)
				if !ok || len(ret.Results) != 1 {
					continue
				}
				cl, ok := ret.Results[0].(*ast.CompositeLit)
				if !ok {
					continue
				}
				cx := &customLexer{typeName: typeName, exprs: map[string]string{}}
				for _, e := range cl.Elts {
					kv, ok := e.(*ast.KeyValueExpr)
					if !ok {
						refusef("parser %s: %s.Symbols: want \"Name\": type entries", parser, typeName)
					}
					name := stringLit(parser, kv.Key)
					cx.exprs[name] = exprText(kv.Value)
					cx.names = append(cx.names, name)
				}
				sort.Strings(cx.names)
				return cx
			}
		}
	}
	refusef("parser %s: the lexer %s has no Symbols method returning a map literal", parser, typeName)
	return nil
}
