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

// parserDef is one participle.MustBuild call.
type parserDef struct {
	name      string // the variable
	root      string // the root struct type
	lexer     *lexerDef
	elide     []string
	lookahead int
}

// pkgInfo is what pgen reads from a grammar package.
type pkgInfo struct {
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
						call, ok := v.(*ast.CallExpr)
						if !ok {
							continue
						}
						name := sp.Names[i].Name
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
		for _, a := range b.call.Args {
			opt, ok := a.(*ast.CallExpr)
			if !ok {
				refusef("parser %s: option %s is not supported (want participle.Lexer, Elide or UseLookahead calls)", b.name, exprText(a))
			}
			if b.call.Ellipsis.IsValid() {
				refusef("parser %s: options passed with ... are not supported", b.name)
			}
			switch {
			case isSel(opt.Fun, "participle", "Lexer"):
				id, ok := opt.Args[0].(*ast.Ident)
				if !ok || pkg.lexers[id.Name] == nil {
					refusef("parser %s: the lexer must be a package-level lexer.MustSimple variable", b.name)
				}
				pd.lexer = pkg.lexers[id.Name]
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
		if pd.lexer == nil {
			refusef("parser %s: participle's default lexer is not supported; give a lexer.MustSimple lexer", b.name)
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
		pkg.parsers = append(pkg.parsers, pd)
	}
	if len(pkg.parsers) == 0 {
		return nil, fmt.Errorf("no participle.MustBuild[T] variable in package %s", pkg.name)
	}
	return pkg, nil
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
