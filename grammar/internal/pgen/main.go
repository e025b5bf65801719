// Command pgen writes a specialised parser for every participle grammar of
// a Go package: the struct types and their parser tags stay the one
// definition of the syntax, and pgen turns them, with the lexer rules and
// the parser options, into plain Go code (a table-driven lexer and
// recursive-descent functions) that builds the same structs and reports
// the same errors at the same positions as participle's reflective parser,
// without reflection or regular expressions at run time.
//
// It is run by "go generate" from a //go:generate line in the grammar
// package:
//
//	//go:generate go run ../internal/pgen
//
// and writes parsers_gen.go beside the grammar. For each package-level
//
//	var xParser = participle.MustBuild[T](participle.Lexer(xLexer), ...)
//
// (or the same MustBuild inside sync.OnceValue(func() *participle.Parser[T]
// { return ... }), participle's parser built on first use) whose lexer is
// a package-level lexer.MustSimple rule list, the output
// holds the type xParserGen with ParseString and ParseInto methods. A
// MustBuild keyed k in a package-level struct literal gives kParserGen; a
// lexer given as T{}, a definition type whose Symbols method returns a map
// literal, gives ParseTokens, which parses tokens the package scanned
// itself (as grammar/tsfparse does).
// Constructs it does not support are refused, naming the struct, the field
// and the construct; docs/dialects.md lists the supported subset.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

// OutputName is the file pgen writes in the grammar package.
const OutputName = "parsers_gen.go"

func main() {
	dir := flag.String("dir", ".", "the grammar package's directory")
	out := flag.String("o", "", "the file to write (default: DIR/"+OutputName+")")
	flag.Parse()
	src, err := Generate(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "pgen:", err)
		os.Exit(1)
	}
	path := *out
	if path == "" {
		path = filepath.Join(*dir, OutputName)
	}
	if err := os.WriteFile(path, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "pgen:", err)
		os.Exit(1)
	}
}
