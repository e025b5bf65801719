package tsfparse

//go:generate go run ../internal/pgen

import (
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// This file is the TSF grammar, as participle parse structures (the syntax
// layer). Keywords match in any case (participle.CaseInsensitive on Ident
// tokens); names keep their case. convert.go turns the parse structures into
// the typed tree of ast/tsf.
//
// A file is parsed one statement at a time, and a TRACE statement one field
// at a time (see parse.go), so that an error discards only the statement it
// is in and the parser goes on with the next one.

// header is one header statement (reference section 1.3.2).
type header struct {
	ModName *modNameStmt `parser:"@@"`
	Assign  *assignStmt  `parser:"| @@"`
}

// modNameStmt is MODNAME = [d:][path]name, and a comma may follow the
// name. TRCUST 3.05A takes the name without the '=' (warning 133) and says
// "module name not specified" (33) when no file name follows (IBM's
// behaviour).
type modNameStmt struct {
	Pos   lexer.Position
	Eq    bool      `parser:"\"MODNAME\" @\"=\"?"`
	Path  *pathTok  `parser:"@@?"`
	Comma *punctTok `parser:"@@?"`
}

// assignStmt is MAJOR, MAXDATALENGTH (MAXDATALEN), or TDFID = number. A
// value that is not a number is left to the statement's end: TRCUST 3.05A
// uses the default ("MAJOR out of range, 1 used") and reports each token
// after the '=' as unexpected (IBM's behaviour). As for MODNAME, TRCUST
// takes the value without the '=' (warning 133), and one comma after the
// value of MAJOR and MAXDATALENGTH ("MAJOR 0x42," is MAJOR=0x42; the parser
// says TDFID's is unexpected).
type assignStmt struct {
	Pos   lexer.Position
	Key   string    `parser:"@(\"MAJOR\" | \"MAXDATALENGTH\" | \"MAXDATALEN\" | \"TDFID\")"`
	Eq    bool      `parser:"@\"=\"?"`
	Value *numTok   `parser:"@@?"`
	Comma *punctTok `parser:"@@?"`
}

// listStmt is TYPELIST or GROUPLIST NAME=n,ID=v[,NAME=n,ID=v]... with an
// optional trailing comma (sections 1.3.3 and 1.3.4). TRCUST 3.05A reads
// the comma between two entries if it is there (IBM's behaviour:
// "NAME=A, ID=1 NAME=B, ID=2" is two entries).
type listStmt struct {
	Pos      lexer.Position
	Kind     string       `parser:"@(\"TYPELIST\" | \"GROUPLIST\")"`
	Entries  []*listEntry `parser:"@@ ( \",\"? @@ )*"`
	Trailing *punctTok    `parser:"@@?"`
}

type listEntry struct {
	Pos    lexer.Position
	Name   *nameTok `parser:"\"NAME\" \"=\" @@"`
	ID     *numTok  `parser:"\",\" \"ID\" \"=\" @@"`
	Tokens []lexer.Token
}

// field is one keyword parameter of a TRACE statement (section 1.3.5).
type field struct {
	Minor  *minorField  `parser:"@@"`
	TP     *tpField     `parser:"| @@"`
	Opcode *opcodeField `parser:"| @@"`
	Type   *typeField   `parser:"| @@"`
	Group  *groupField  `parser:"| @@"`
	Text   *textField   `parser:"| @@"`
	Len    *lenField    `parser:"| @@"`
	Regs   *regsField   `parser:"| @@"`
	Mem    *memField    `parser:"| @@"`
	Orbit  *orbitField  `parser:"| @@"`
	OpFlag *opFlagField `parser:"| @@"`
}

// minorField is MINOR=nnnnn. A word in place of the number, or no value
// at all, is kept so that the checker can say "minor code not specified"
// as TRCUST does.
type minorField struct {
	Pos    lexer.Position
	Value  *scalarTok `parser:"\"MINOR\" \"=\" @@?"`
	Tokens []lexer.Token
}

// tpField is TP=@STATIC, TP=@filename,linenum or TP=.name[{+|-}offs][,RETEP].
type tpField struct {
	Pos    lexer.Position
	At     *atTarget  `parser:"\"TP\" \"=\" ( @@"`
	Symbol *symTarget `parser:"| @@ )"`
	Tokens []lexer.Token
}

type atTarget struct {
	Pos  lexer.Position
	File *pathTok `parser:"\"@\" @@"`
	Line *numTok  `parser:"( \",\" @@ )?"`
}

// symTarget is TP=.name[{+|-}offs]...[,RETEP]; TRCUST 3.05A also takes
// RETEP without the comma (IBM's behaviour: "TP=.malloc RETEP").
type symTarget struct {
	Pos     lexer.Position
	Name    string      `parser:"@Symbol"`
	Offsets []*tpOffset `parser:"@@*"`
	RetEP   *retEPTok   `parser:"( \",\"? @@ )?"`
}

// tpOffset is one {+|-}offs of TP=.name. TRCUST 3.05A adds up any number
// of them, and of a run of signs takes the last one; a sign with no number
// after it adds nothing (IBM's behaviour, tried with its binary:
// .fclose+0x10+0x20-4 is .fclose+0x2C, .fclose-+4 is .fclose+4, .fclose--4
// is .fclose-4, TP=.emit+, is .emit; in TP=.emit+abc the word is
// unexpected).
type tpOffset struct {
	Pos   lexer.Position
	Signs []string `parser:"@(\"+\" | \"-\")+"`
	Num   *numTok  `parser:"@@?"`
}

// opcodeField is OPCODE=0xnn. TRCUST 3.05A also takes a sign (IBM's
// behaviour: OPCODE=+0x55 is 0x55, OPCODE=-1 compares its low byte), and a
// word, which drops the tracepoint without a message.
type opcodeField struct {
	Pos    lexer.Position
	Neg    bool       `parser:"\"OPCODE\" \"=\" ( @\"-\" | \"+\" )?"`
	Value  *scalarTok `parser:"@@?"`
	Tokens []lexer.Token
}

// typeField is TYPE=(name[,name]...). TRCUST 3.05A reads a comma after a
// name as it comes (IBM's behaviour: TYPE=(A B) is TYPE=(A,B), TYPE=(A,)
// is TYPE=(A), and TYPE=() is no type), and says "missing ')' before" what
// is no name, a second comma too.
type typeField struct {
	Pos    lexer.Position
	Names  []*identTok `parser:"\"TYPE\" \"=\" \"(\" ( @@ \",\"? )* \")\""`
	Tokens []lexer.Token
}

// groupField is GROUP=name.
type groupField struct {
	Pos    lexer.Position
	Name   *nameTok `parser:"\"GROUP\" \"=\" @@"`
	Tokens []lexer.Token
}

// textField is DESC="..." or FMT="...".
type textField struct {
	Pos    lexer.Position
	Key    string    `parser:"@(\"DESC\" | \"FMT\")"`
	Text   *strToken `parser:"\"=\" @@"`
	Tokens []lexer.Token
}

// lenField is LEN=(length_spec,flag).
type lenField struct {
	Pos    lexer.Position
	Addr   *address `parser:"\"LEN\" \"=\" \"(\" @@"`
	Flag   *flag    `parser:"\",\" @@ \")\""`
	Tokens []lexer.Token
}

// regsField is REGS=(register[,register]...). TRCUST 3.05A takes REGS=()
// (IBM's behaviour: it logs no register) and a comma before the ')', and
// says "missing ')' before" what is no register or comma where one is
// wanted.
type regsField struct {
	Pos    lexer.Position
	Regs   []*regTok `parser:"\"REGS\" \"=\" \"(\" ( @@ ( \",\" @@ )* \",\"? )? \")\""`
	Tokens []lexer.Token
}

type regTok struct {
	Pos      lexer.Position
	Variable string `parser:"@Symbol"`
	Name     string `parser:"| @Ident"`
}

// memField is MEM32, MEM, ASCIIZ32 or ASCIIZ =(address_spec,flag,length).
// The length may be the word LEN (only MEM32 and MEM allow it; the checker
// says so).
type memField struct {
	Pos    lexer.Position
	Kind   string     `parser:"@(\"MEM32\" | \"MEM\" | \"ASCIIZ32\" | \"ASCIIZ\")"`
	Addr   *address   `parser:"\"=\" \"(\" @@"`
	Flag   *flag      `parser:"\",\" @@"`
	Length *lengthTok `parser:"\",\" @@ \")\""`
	Tokens []lexer.Token
}

// orbitField is ORBIT=(a,b), a TRCUST 3.05A keyword. TRCUST reads two
// numbers with or without the comma between them (IBM's behaviour:
// ORBIT=(1 2) is ORBIT=(1,2)) and its ')', and says "missing 'number'
// before" what is no number and "missing ')' before" what is no ')'
// (convert.go).
type orbitField struct {
	Pos    lexer.Position
	A      *operandTok `parser:"\"ORBIT\" \"=\" \"(\" @@?"`
	Comma  bool        `parser:"@\",\"?"`
	B      *operandTok `parser:"@@?"`
	Close  bool        `parser:"@\")\"?"`
	Tokens []lexer.Token
}

// opFlagField is ABORTOP or REMOVEOP, TRCUST 3.05A keywords without a value.
type opFlagField struct {
	Pos  lexer.Position
	Name string `parser:"@(\"ABORTOP\" | \"REMOVEOP\")"`
}

// address is an address specification (section 1.3.5.15): a base (a .name
// symbol, or a word such as FEBP, RDS or a dotless LEN symbol) followed by
// signed terms. convert.go sorts out which of the three forms it is.
type address struct {
	Pos   lexer.Position
	Base  *scalarTok `parser:"@@"`
	Terms []*term    `parser:"@@*"`
}

// term is what TRCUST 3.05A reads after an address's base, as it reads it
// (IBM's behaviour, tried with its binary on each form): a sign and what
// follows it (a number, a register, an "(i)" term, or, where TRCUST stops
// reading the address, nothing or a token that is none of these), or an
// "(i)" term without a sign. convert.go's terms judges them by the form
// of the address.
type term struct {
	Pos   lexer.Position
	Sign  string     `parser:"( @(\"+\" | \"-\")"`
	Paren *parenTerm `parser:"  ( @@"`
	Num   *numTok    `parser:"  | @@"`
	Reg   *identTok  `parser:"  | @@"`
	Other *otherTok  `parser:"  | @@ )?"`
	Bare  *parenTerm `parser:"| @@ )"`
}

// parenTerm is an "(i)" term: TRCUST 3.05A reads the token after the '('
// and then the one after that, and says what is wrong with them ("missing
// 'number' before", "missing ')' before"), so both are optional here.
type parenTerm struct {
	Pos   lexer.Position
	Inner *operandTok `parser:"\"(\" @@?"`
	Close string      `parser:"@\")\"?"`
}

// operandTok is the token inside an "(i)" term: a number, or what TRCUST
// 3.05A reads there and refuses; not a ',' or a ')', which end the term.
type operandTok struct {
	Pos    lexer.Position
	Number string `parser:"@Number"`
	Other  string `parser:"| @(Ident | Symbol | String | Path | \"(\" | \"*\" | \"=\" | \"@\" | \"+\" | \"-\")"`
}

// otherTok is a token after a sign that is no number, register or "(i)"
// term, which TRCUST 3.05A reads as the end of the address; not a ',', a
// ')' or a sign, which the grammar reads on from.
type otherTok struct {
	Pos  lexer.Position
	Text string `parser:"@(Symbol | String | Path | \"*\" | \"=\" | \"@\")"`
}

// flag is D[IRECT], I[NDIRECT][*[{+|-}i]]..., IS or IF.
type flag struct {
	Pos   lexer.Position
	Word  string   `parser:"@Ident"`
	Chain []*level `parser:"@@*"`
}

// level is a '*' of a flag's chain and its offset: a number with or
// without a sign (IBM's behaviour: I*4 is I*+4). After a sign TRCUST 3.05A
// reads a number, and says "invalid number found" of what is none
// (convert.go).
type level struct {
	Pos  lexer.Position
	Star string  `parser:"@\"*\""`
	Sign string  `parser:"@(\"+\" | \"-\")?"`
	Num  *numTok `parser:"@@?"`
}

type scalarTok struct {
	Pos    lexer.Position
	Number string `parser:"@Number"`
	Symbol string `parser:"| @Symbol"`
	Ident  string `parser:"| @Ident"`
}

// lengthTok is the length of MEM, MEM32, ASCIIZ and ASCIIZ32: a number,
// LEN, or what TRCUST 3.05A reads there and calls "invalid number found"
// (a word, a symbol, a minus sign: IBM's behaviour).
type lengthTok struct {
	Pos    lexer.Position
	Number string `parser:"@Number"`
	Symbol string `parser:"| @Symbol"`
	Ident  string `parser:"| @Ident"`
	Minus  string `parser:"| @\"-\" Number?"`
}

type numTok struct {
	Pos  lexer.Position
	Text string `parser:"@Number"`
}

type identTok struct {
	Pos  lexer.Position
	Text string `parser:"@Ident"`
}

// nameTok is the name of GROUP and of a TYPELIST or GROUPLIST entry, which
// TRCUST 3.05A calls an identifier ("missing 'identifier' before '5'":
// IBM's behaviour).
type nameTok struct {
	Pos  lexer.Position
	Text string `parser:"@Ident"`
}

type retEPTok struct {
	Pos  lexer.Position
	Text string `parser:"@\"RETEP\""`
}

type pathTok struct {
	Pos  lexer.Position
	Text string `parser:"@Path"`
}

type strToken struct {
	Pos lexer.Position
	Raw string `parser:"@String"`
}

type punctTok struct {
	Pos  lexer.Position
	Text string `parser:"@\",\""`
}

// grammar holds the participle parsers, the reference the generated ones
// are tested against: built once, on first use (theGrammar), and not
// changed after.
type grammar struct {
	header *participle.Parser[header]
	list   *participle.Parser[listStmt]
	field  *participle.Parser[field]
}

func options() []participle.Option {
	return []participle.Option{
		participle.Lexer(definition{}),
		participle.CaseInsensitive("Ident"),
		participle.UseLookahead(4),
	}
}

// theGrammar builds the participle parsers the first time it is called.
var theGrammar = sync.OnceValue(func() *grammar {
	return &grammar{
		header: participle.MustBuild[header](options()...),
		list:   participle.MustBuild[listStmt](options()...),
		field:  participle.MustBuild[field](options()...),
	}
})
