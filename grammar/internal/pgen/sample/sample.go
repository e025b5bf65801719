// Package sample is a grammar that uses every construct pgen supports, so
// that the generator's output is tested beyond the dialects' grammars: its
// tests run participle and the generated parser side by side.
package sample

//go:generate go run ..

import (
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

var (
	sampleLexer = lexer.MustSimple([]lexer.SimpleRule{
		{Name: "Str", Pattern: `'(?:[^'\\]|\\.)*'|"(?:[^"]|"")*"`},
		{Name: "Num", Pattern: `[-+]?(?:0x[0-9a-fA-F]+|[0-9]+(?:\.[0-9]*)?)`},
		{Name: "Key", Pattern: `(?:let|if|else|end)`},
		{Name: "Ident", Pattern: `[A-Za-z_][A-Za-z0-9_]*`},
		{Name: "Op", Pattern: `==|!=|<=|>=|[-+*/<>=(){}\[\],;:.!?|&]`},
		{Name: "Space", Pattern: `[ \t\r\n]+`},
		{Name: "Other", Pattern: `[^ \t\r\n]`},
	})
	// runLexer's every token is a run of bytes of one kind (or its first
	// byte then such a run): the flat parsers of such a lexer read the
	// tokens in place (pgen's runlex.go).
	runLexer = lexer.MustSimple([]lexer.SimpleRule{
		{Name: "Colon", Pattern: `:`},
		{Name: "Hex", Pattern: `#[0-9a-f]*`},
		{Name: "Word", Pattern: `[^ \t\r\n:#]+`},
		{Name: "Space", Pattern: `[ \t\r\n]+`},
	})
	fieldsParser  = participle.MustBuild[fields](participle.Lexer(runLexer), participle.Elide("Space"))
	programParser = participle.MustBuild[program](participle.Lexer(sampleLexer), participle.Elide("Space"), participle.UseLookahead(2))
	rowParser     = participle.MustBuild[row](participle.Lexer(sampleLexer), participle.Elide("Space"))
	// Built on first use, as the grammars of tracekit build theirs: pgen
	// reads the MustBuild inside.
	cellsParser = sync.OnceValue(func() *participle.Parser[cells] {
		return participle.MustBuild[cells](participle.Lexer(sampleLexer), participle.Elide("Space"))
	})
)

// row and cells are flat grammars, rows of tokens, whose parsers have a
// fast path that reads the tokens straight from the text (pgen's flat.go):
// one-token structs with and without a Pos, a bare token type, the last
// term repeated.
type row struct {
	Name word   `parser:"@@"`
	Num  number `parser:"Op @@"`
	Rest []word `parser:"@@+"`
}

type cells struct {
	First number   `parser:"@@"`
	Rest  []number `parser:"@@*"`
}

// fields is a flat grammar of runLexer.
type fields struct {
	Key  item    `parser:"@@ Colon"`
	Tag  hexItem `parser:"@@"`
	Vals []item  `parser:"@@*"`
}

type item struct {
	Pos  lexer.Position
	Text string `parser:"@Word"`
}

type hexItem struct {
	Text string `parser:"@Hex"`
}

type word struct {
	Pos  lexer.Position
	Text string `parser:"@Ident"`
}

type number struct {
	Text string `parser:"@Num"`
}

// program is a list of statements.
type program struct {
	Pos   lexer.Position
	Stmts []*stmt `parser:"( @@ ';'? )*"`
}

type stmt struct {
	Pos    lexer.Position
	Let    *letStmt `parser:"  @@"`
	If     *ifStmt  `parser:"| @@"`
	Call   *call    `parser:"| @@"`
	Empty  bool     `parser:"| @';'"`
	Labels []string `parser:"[ ':' @Ident { ',' @Ident } ]"`
}

type letStmt struct {
	Pos   lexer.Position
	Const bool    `parser:"'let' @'!'?"`
	Name  string  `parser:"@Ident"`
	Type  *string `parser:"( ':' @Ident ( '.' @Ident )* )?"`
	Value expr    `parser:"'=' @@"`
}

type ifStmt struct {
	Cond expr    `parser:"'if' @@"`
	Then []*stmt `parser:"'{' @@* '}'"`
	Else []stmt  `parser:"( 'else' '{' @@* '}' )?"`
}

type call struct {
	Pos  lexer.Position
	Name string  `parser:"@Ident ( '.' @Ident )*"`
	Args []*expr `parser:"'(' ( @@ ( ',' @@ )* ','? )? ')'"`
}

type expr struct {
	Left  term    `parser:"@@"`
	Ops   []opRHS `parser:"@@*"`
	Check *expr   `parser:"( '?' @@ ':' @@ )?"`
	Other *expr   `parser:""`
}

type opRHS struct {
	Op    string `parser:"@('==' | '!=' | '<' | '>' | '<=' | '>=' | '+' | '-' | '*' | '/' | '&' '&' | '|' '|')"`
	Right term   `parser:"@@"`
}

type term struct {
	Pos   lexer.Position
	Neg   bool     `parser:"@'-'?"`
	Num   *string  `parser:"(  @Num"`
	Str   *string  `parser:" | @Str"`
	Call  *call    `parser:" | @@"`
	Var   *string  `parser:" | @Ident"`
	Sub   *expr    `parser:" | '(' @@ ')'"`
	List  []string `parser:" | '[' ( @(Num | Str) ( ',' @(Num | Str) )* )? ']' )"`
	Index []expr   `parser:"( '[' @@ ']' )*"`
}
