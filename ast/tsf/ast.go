// Package tsf declares the syntax tree of an OS/2 Trace Source File (TSF),
// the input language of IBM's Dynamic Trace Customizer (TRCUST), as the
// reference "Dynamic Trace Customizer V2.1" section 1.3 defines it.
//
// The tree is what the source says, structured but not yet checked: a
// number that is out of range, a register name that does not exist or a
// keyword used twice are all representable, and the checker in
// lower/tsfcheck reports them. Every node carries its position.
package tsf

import (
	"strings"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
)

// Pos is a source position.
type Pos = ast.Pos

// Node is implemented by every node of the tree.
type Node interface {
	Position() Pos // where the node starts
}

// File is a whole Trace Source File.
type File struct {
	Name  string
	Stmts []Stmt // in source order; statements with syntax errors are left out
	// EOF is the position just past the last byte of the file.
	EOF Pos
	// Aborted is set when a severe syntax error stopped the parser: Stmts
	// then holds only the statements before it.
	Aborted bool
}

// Stmt is a top-level statement: *ModName, *Major, *MaxDataLength, *TDFID,
// *TypeList, *GroupList or *Trace.
type Stmt interface {
	Node
	stmtNode()
}

// ModName is "MODNAME = [d:][path]name" (section 1.3.2).
type ModName struct {
	Pos  Pos
	Path *Word // the module path as written
}

// ModuleFile returns the file name of the module path name: what follows
// its last backslash or colon, [d:][path] being the rest. A / is no
// separator to TRCUST 3.05A (IBM's behaviour, session 19:
// MODNAME=./emitrep.dll is stored whole in the TDF, and x.y/emitrep has an
// extension, so no ".DLL" is added).
func ModuleFile(name string) string {
	return name[strings.LastIndexAny(name, `\:`)+1:]
}

// Major is "MAJOR = nnn" (section 1.3.2).
type Major struct {
	Pos   Pos
	Value *Number
	// Cut is set when a lexical error stopped the scan before the value
	// (a token too long, a broken string): Value then only says where.
	// TRCUST 3.05A checks for a redefinition before it reads the value
	// (IBM's behaviour, tried with its binary).
	Cut bool
}

// MaxDataLength is "MAXDATALENGTH = nnnn" (section 1.3.2); the reference's
// own samples spell it MAXDATALEN.
type MaxDataLength struct {
	Pos      Pos
	Spelling string // MAXDATALENGTH or MAXDATALEN, in the case written
	Value    *Number
	Cut      bool // as Major's
}

// TDFID is "TDFID = n", a header keyword of TRCUST 3.05A that the V2.1
// reference names only in messages 41 and 142.
type TDFID struct {
	Pos   Pos
	Value *Number
	Cut   bool // as Major's
}

// The most entries a TYPELIST and a GROUPLIST take (reference sections
// 1.3.3 and 1.3.4).
const (
	MaxTypes  = 16
	MaxGroups = 48
)

// TypeList is "TYPELIST NAME=n,ID=v,..." (section 1.3.3).
type TypeList struct {
	Pos     Pos
	Entries []*ListEntry
}

// GroupList is "GROUPLIST NAME=n,ID=v,..." (section 1.3.4).
type GroupList struct {
	Pos     Pos
	Entries []*ListEntry
}

// ListEntry is one "NAME=n,ID=v" pair of a TYPELIST or GROUPLIST. ID is
// nil for an entry that broke after its name: TRCUST 3.05A has judged the
// name (its length) when it meets the error, and defines nothing.
type ListEntry struct {
	Pos  Pos
	Name *Word
	ID   *Number
}

// Trace is one TRACE statement (section 1.3.5): its fields in source order.
type Trace struct {
	Pos    Pos
	Fields []Field
	// End is where the statement ends: the position of the token after it
	// (the next TRACE keyword) or the end of the file.
	End Pos
	// Broken is set when a syntax error made the parser skip the rest of the
	// statement; Fields then holds what came before the error, and
	// BrokenAt is the position of the parser's diagnostic.
	Broken   bool
	BrokenAt Pos
	// PastEnd is set when the last field of the file is TYPE or GROUP:
	// TRCUST 3.05A reads on for a ',' and meets the end of the file
	// (severe 34), unless an error made it skip the statement first.
	PastEnd bool
}

func (s *ModName) stmtNode()       {}
func (s *Major) stmtNode()         {}
func (s *MaxDataLength) stmtNode() {}
func (s *TDFID) stmtNode()         {}
func (s *TypeList) stmtNode()      {}
func (s *GroupList) stmtNode()     {}
func (s *Trace) stmtNode()         {}

// Position implements Node.
func (s *ModName) Position() Pos { return s.Pos }

// Position implements Node.
func (s *Major) Position() Pos { return s.Pos }

// Position implements Node.
func (s *MaxDataLength) Position() Pos { return s.Pos }

// Position implements Node.
func (s *TDFID) Position() Pos { return s.Pos }

// Position implements Node.
func (s *TypeList) Position() Pos { return s.Pos }

// Position implements Node.
func (s *GroupList) Position() Pos { return s.Pos }

// Position implements Node.
func (s *Trace) Position() Pos { return s.Pos }

// Position implements Node.
func (e *ListEntry) Position() Pos { return e.Pos }

// Field is one keyword parameter of a TRACE statement: *Minor, *TP,
// *Opcode, *Type, *Group, *Desc, *Fmt, *Len, *Regs, *Mem, *Orbit or *OpFlag.
type Field interface {
	Node
	// Keyword returns the keyword as the reference spells it (upper case).
	Keyword() string
	// Last returns the position of the field's last token.
	Last() Pos
	fieldNode()
}

// Minor is "MINOR=nnnnn" (section 1.3.5.1). Value is nil when something
// other than a number was written; Bad then holds it.
type Minor struct {
	Pos     Pos
	Written string // the keyword "MINOR" as written, in its case
	Value   *Number
	Bad     *Word
	End     Pos
}

// TP is "TP=target" (section 1.3.5.2).
type TP struct {
	Pos    Pos
	Target TPTarget
	End    Pos
	// Next is where the token after the field stands (a ',', a stray
	// token, the next statement, the end of the file): TRCUST 3.05A has
	// read it when it reports that RETEP found no return point (144) at
	// its line. NextField is the same past a ',': the token after it,
	// where it reports a symbol not found (79). Zero when the parser did
	// not set them.
	Next, NextField Pos
}

// TPTarget is *StaticTP, *LineTP or *SymbolTP.
type TPTarget interface {
	Node
	tpTarget()
}

// StaticTP is "TP=@STATIC": a format record only.
type StaticTP struct {
	Pos Pos // the '@'
}

// LineTP is "TP=@filename,linenum": needs debug information in the module.
type LineTP struct {
	Pos  Pos // the '@'
	File *Word
	Line *Number // nil when the line number is missing (an error, 92)
}

// SymbolTP is "TP=.name[{+|-}offs][,RETEP]". TRCUST 3.05A takes any
// number of offsets, and adds them up.
type SymbolTP struct {
	Pos     Pos // the '.'
	Name    *Word
	Offsets []*Signed // in source order, none when absent
	RetEP   *Word     // the RETEP keyword, nil when absent
	// BadOffset is an offset that is no number ("0x4z"), nil otherwise:
	// TRCUST 3.05A resolves the symbol with the offsets before it, then
	// says "invalid number found" (217) and "unexpected" (66) of it and
	// refuses the tracepoint. Offsets ends before it.
	BadOffset *Number
}

func (*StaticTP) tpTarget() {}
func (*LineTP) tpTarget()   {}
func (*SymbolTP) tpTarget() {}

// Position implements Node.
func (t *StaticTP) Position() Pos { return t.Pos }

// Position implements Node.
func (t *LineTP) Position() Pos { return t.Pos }

// Position implements Node.
func (t *SymbolTP) Position() Pos { return t.Pos }

// Opcode is "OPCODE=0xnn" (section 1.3.5.3).
type Opcode struct {
	Pos   Pos
	Value *Number
	End   Pos
	// Next is where the token after the field stands (a ',', the next
	// statement, the end of the file): TRCUST 3.05A has read it when it
	// reports an OPCODE out of range.
	Next Pos
}

// Type is "TYPE=(name[,name]...)" (section 1.3.5.4).
type Type struct {
	Pos   Pos
	Names []*Word
	End   Pos
}

// Group is "GROUP=name" (section 1.3.5.5).
type Group struct {
	Pos  Pos
	Name *Word
	End  Pos
}

// Desc is `DESC="text"` (section 1.3.5.6).
type Desc struct {
	Pos  Pos
	Text *String
	End  Pos
}

// Fmt is `FMT="text"` (section 1.3.5.7).
type Fmt struct {
	Pos  Pos
	Text *String
	End  Pos
}

// Len is "LEN=(length_spec,flag)" (section 1.3.5.8).
type Len struct {
	Pos  Pos
	Addr Address
	Flag *Flag // nil when Cut
	// Cut says that the statement broke in the address (a syntax error
	// the parser reported): Addr holds the address as far as TRCUST 3.05A
	// read it, which is checked, and whose symbol is looked up, as TRCUST
	// does as it reads it (tsf.Mem.Cut).
	Cut bool
	End Pos
}

// Regs is "REGS=(register[,register]...)" (section 1.3.5.10).
type Regs struct {
	Pos  Pos
	Regs []*RegItem
	// Cut says that the statement broke in its list (a syntax error the
	// parser reported): Regs holds the names read before the break, which
	// are checked as TRCUST 3.05A checks each as it reads it (IBM's
	// behaviour: "REGS=(DX, X" at the end of the file is "register
	// expected, 'X' found", not the premature end); nothing is logged.
	Cut bool
	End Pos
}

// RegItem is a register name, or ".name" for a C register variable.
type RegItem struct {
	Pos      Pos
	Name     string // as written, without the dot
	Variable bool   // written as .name
}

// MemKind tells the four memory data statements apart.
type MemKind int

// The memory data statements (sections 1.3.5.11 to 1.3.5.14).
const (
	MEM32 MemKind = iota + 1
	MEM
	ASCIIZ32
	ASCIIZ
)

var memKindNames = [...]string{MEM32: "MEM32", MEM: "MEM", ASCIIZ32: "ASCIIZ32", ASCIIZ: "ASCIIZ"}

// String returns the keyword.
func (k MemKind) String() string {
	if k >= MEM32 && k <= ASCIIZ {
		return memKindNames[k]
	}
	return "MemKind(?)"
}

// Flat reports whether the statement uses 0:32 flat addressing.
func (k MemKind) Flat() bool { return k == MEM32 || k == ASCIIZ32 }

// IsString reports whether the statement logs an ASCIIZ string.
func (k MemKind) IsString() bool { return k == ASCIIZ32 || k == ASCIIZ }

// Mem is "MEM32=(address_spec,flag,{length|LEN})" and its MEM, ASCIIZ32 and
// ASCIIZ siblings.
type Mem struct {
	Pos    Pos
	Kind   MemKind
	Addr   Address
	Flag   *Flag
	Length *Number // nil when the length is LEN
	UseLen *Word   // the LEN keyword in place of the length, nil otherwise
	// BadLength is the error of a length that is no number (a syntax
	// error, or 217 for a word), which TRCUST 3.05A gives after it has
	// checked the address (IBM's behaviour); nil otherwise. Length and
	// UseLen are nil then.
	BadLength *diag.Diagnostic
	// Cut says that the statement broke (a syntax error the parser
	// reported) after what it holds: Flag is nil when it broke before
	// its flag or in its word, and holds the levels read before a level
	// that broke; Length and UseLen are nil when it broke before its
	// length, and Addr holds the terms of an address that broke read
	// before the break. What it holds is checked, and the symbol of its address
	// looked up, as TRCUST 3.05A checks each part as it reads it (IBM's
	// behaviour: "MEM=(.nosuch+EAX,D,4)" is "symbol not found: nosuch");
	// the tracepoint is refused all the same.
	Cut bool
	End Pos
}

// Orbit is "ORBIT=(a,b)", a TRCUST 3.05A keyword the V2.1 reference does
// not describe (messages 101 and 102 name it).
type Orbit struct {
	Pos  Pos
	A, B *Number
	End  Pos
}

// OpFlag is one of the valueless TRCUST 3.05A keywords ABORTOP and REMOVEOP
// (messages 103 and 104 name them).
type OpFlag struct {
	Pos  Pos
	Name string // ABORTOP or REMOVEOP
}

func (*Minor) fieldNode()  {}
func (*TP) fieldNode()     {}
func (*Opcode) fieldNode() {}
func (*Type) fieldNode()   {}
func (*Group) fieldNode()  {}
func (*Desc) fieldNode()   {}
func (*Fmt) fieldNode()    {}
func (*Len) fieldNode()    {}
func (*Regs) fieldNode()   {}
func (*Mem) fieldNode()    {}
func (*Orbit) fieldNode()  {}
func (*OpFlag) fieldNode() {}

// Keyword implements Field.
func (*Minor) Keyword() string { return "MINOR" }

// Keyword implements Field.
func (*TP) Keyword() string { return "TP" }

// Keyword implements Field.
func (*Opcode) Keyword() string { return "OPCODE" }

// Keyword implements Field.
func (*Type) Keyword() string { return "TYPE" }

// Keyword implements Field.
func (*Group) Keyword() string { return "GROUP" }

// Keyword implements Field.
func (*Desc) Keyword() string { return "DESC" }

// Keyword implements Field.
func (*Fmt) Keyword() string { return "FMT" }

// Keyword implements Field.
func (*Len) Keyword() string { return "LEN" }

// Keyword implements Field.
func (*Regs) Keyword() string { return "REGS" }

// Keyword implements Field.
func (m *Mem) Keyword() string { return m.Kind.String() }

// Keyword implements Field.
func (*Orbit) Keyword() string { return "ORBIT" }

// Keyword implements Field.
func (f *OpFlag) Keyword() string { return f.Name }

// Position implements Node.
func (f *Minor) Position() Pos { return f.Pos }

// Position implements Node.
func (f *TP) Position() Pos { return f.Pos }

// Position implements Node.
func (f *Opcode) Position() Pos { return f.Pos }

// Position implements Node.
func (f *Type) Position() Pos { return f.Pos }

// Position implements Node.
func (f *Group) Position() Pos { return f.Pos }

// Position implements Node.
func (f *Desc) Position() Pos { return f.Pos }

// Position implements Node.
func (f *Fmt) Position() Pos { return f.Pos }

// Position implements Node.
func (f *Len) Position() Pos { return f.Pos }

// Position implements Node.
func (f *Regs) Position() Pos { return f.Pos }

// Position implements Node.
func (f *Mem) Position() Pos { return f.Pos }

// Position implements Node.
func (f *Orbit) Position() Pos { return f.Pos }

// Position implements Node.
func (f *OpFlag) Position() Pos { return f.Pos }

// Last implements Field.
func (f *Minor) Last() Pos { return f.End }

// Last implements Field.
func (f *TP) Last() Pos { return f.End }

// Last implements Field.
func (f *Opcode) Last() Pos { return f.End }

// Last implements Field.
func (f *Type) Last() Pos { return f.End }

// Last implements Field.
func (f *Group) Last() Pos { return f.End }

// Last implements Field.
func (f *Desc) Last() Pos { return f.End }

// Last implements Field.
func (f *Fmt) Last() Pos { return f.End }

// Last implements Field.
func (f *Len) Last() Pos { return f.End }

// Last implements Field.
func (f *Regs) Last() Pos { return f.End }

// Last implements Field.
func (f *Mem) Last() Pos { return f.End }

// Last implements Field.
func (f *Orbit) Last() Pos { return f.End }

// Last implements Field.
func (f *OpFlag) Last() Pos { return f.Pos }

// Address is an address specification (section 1.3.5.15): *SymbolAddr,
// *FlatAddr or *SegAddr.
type Address interface {
	Node
	// Indirect returns the "(i)" displacement added after the fetches, or
	// nil.
	IndirectDisp() *Signed
	addrNode()
}

// SymbolAddr is the symbolic name form ".name[{+|-}n]...[{+|-}(i)]". A LEN
// length_spec may leave out the dot (Dot is then false).
type SymbolAddr struct {
	Pos      Pos
	Dot      bool
	Name     *Word
	Disps    []*Signed
	Indirect *Signed
}

// FlatAddr is the flat register form
// "Fbreg[{+|-}ireg]...[{+|-}n]...[{+|-}(i)]".
type FlatAddr struct {
	Pos      Pos
	Base     *Word // the base register, without the F
	Index    []*SignedReg
	Disps    []*Signed
	Indirect *Signed
}

// SegAddr is the segment register form
// "Rsreg[{+|-}dreg]...[{+|-}n]...[{+|-}(i)]".
type SegAddr struct {
	Pos      Pos
	Seg      *Word // the segment register, without the R
	Regs     []*SignedReg
	Disps    []*Signed
	Indirect *Signed
}

func (*SymbolAddr) addrNode() {}
func (*FlatAddr) addrNode()   {}
func (*SegAddr) addrNode()    {}

// Position implements Node.
func (a *SymbolAddr) Position() Pos { return a.Pos }

// Position implements Node.
func (a *FlatAddr) Position() Pos { return a.Pos }

// Position implements Node.
func (a *SegAddr) Position() Pos { return a.Pos }

// IndirectDisp implements Address.
func (a *SymbolAddr) IndirectDisp() *Signed { return a.Indirect }

// IndirectDisp implements Address.
func (a *FlatAddr) IndirectDisp() *Signed { return a.Indirect }

// IndirectDisp implements Address.
func (a *SegAddr) IndirectDisp() *Signed { return a.Indirect }

// FlagKind is the level of indirection a data statement's flag asks for.
type FlagKind int

// The flags of sections 1.3.5.8 to 1.3.5.14.
const (
	Direct            FlagKind = iota + 1 // D[IRECT]
	Indirect                              // I[NDIRECT][*[{+|-}i]]...
	IndirectSegmented                     // IS
	IndirectFlat                          // IF
)

var flagKindNames = [...]string{Direct: "DIRECT", Indirect: "INDIRECT", IndirectSegmented: "IS", IndirectFlat: "IF"}

// String returns the keyword.
func (k FlagKind) String() string {
	if k >= Direct && k <= IndirectFlat {
		return flagKindNames[k]
	}
	return "FlagKind(?)"
}

// Flag is a data statement's flag. For INDIRECT, IS and IF, Chain holds the
// "*" levels written after it: INDIRECT*+6*+8 has two levels with offsets
// +6 and +8, INDIRECT*+4* has +4 then a bare level, plain INDIRECT has
// none. (After DIRECT a chain is kept for the checker to refuse.)
type Flag struct {
	Pos      Pos
	Kind     FlagKind // 0 when Spelling is not a flag
	Spelling string   // as written
	Chain    []*Level
}

// Level is one "*" of an INDIRECT chain, with its optional offset.
type Level struct {
	Pos    Pos // the '*'
	Offset *Signed
}

// Word is an identifier, a name or a path as written.
type Word struct {
	Pos  Pos
	Text string
}

// Number is a number as written: decimal, or hexadecimal with 0x. A
// leading zero does not make it octal (ID=08 is 8).
type Number struct {
	Pos   Pos
	Text  string
	Value uint64
	// Err is set when Text is not a number or does not fit in 32 bits;
	// Value is then 0.
	Err string
}

// Signed is a number with its sign, as in "+6" or "-0x10".
type Signed struct {
	Pos Pos // the sign
	Neg bool
	Num *Number
}

// Int returns the signed value.
func (s *Signed) Int() int64 {
	if s.Neg {
		return -int64(s.Num.Value)
	}
	return int64(s.Num.Value)
}

// SignedReg is a register term with its sign, as in "+EDI".
type SignedReg struct {
	Pos Pos // the sign
	Neg bool
	Reg *Word
}

// String is a quoted string. Raw is what stands between the quotes; Value
// is what TRCUST stores: every \" becomes ", and every other backslash
// sequence is kept as written.
type String struct {
	Pos   Pos // the opening quote
	Raw   string
	Value string
}

// Position implements Node.
func (w *Word) Position() Pos { return w.Pos }

// Position implements Node.
func (n *Number) Position() Pos { return n.Pos }

// Position implements Node.
func (s *Signed) Position() Pos { return s.Pos }

// Position implements Node.
func (s *SignedReg) Position() Pos { return s.Pos }

// Position implements Node.
func (s *String) Position() Pos { return s.Pos }

// Position implements Node.
func (f *Flag) Position() Pos { return f.Pos }

// Position implements Node.
func (r *RegItem) Position() Pos { return r.Pos }
