// Package mapfile parses linker MAP files of OS/2 modules into a typed
// structure: IBM LINK386 maps (32-bit, seg:oooooooo addresses), 16-bit LINK
// maps (seg:oooo addresses) and Open Watcom wlink maps. The flavour is
// detected from the text. docs/mapfiles.md describes the three layouts and
// what is taken from each.
//
// TRCUST resolves a tracepoint symbol (TP=.name) through the map of the
// module; Map.Lookup does the same here and returns the object (segment)
// number and offset, which binfmt/lx.File.ReadObject then reads.
//
// # Why a hand-written line scanner
//
// tracekit uses participle for languages with nesting (the Trace Source
// File grammar). A MAP file has none: it is a report made of titled tables,
// one item per line, whose columns are separated by blanks. Which table a
// line belongs to is decided by the last title line seen, and a bad line
// must be skipped with a diagnostic while the rest of the table is kept. A
// line scanner that splits each line into blank-separated fields, with their
// byte columns, expresses that directly and gives exact positions; a
// grammar would have to model the section state and the recovery by hand
// anyway.
//
// # Diagnostics
//
// Parse never stops at a bad line: it adds a diag.Diagnostic with the
// file:line:col of the offending field and goes on with the next line. A
// line that is skipped gives an Error, a line that is kept or that carries
// nothing needed gives a Warning. The codes are the Code constants.
//
// An input that is not recognisably any of the three flavours is an error
// (ErrUnknownFormat), not a diagnostic.
package mapfile

import (
	"cmp"
	"errors"
	"fmt"
	"os"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
)

// Diagnostic codes of the MAP file readers.
const (
	CodeSegment      diag.Code = "MAP01" // error: malformed segment line (LINK or wlink "Segments")
	CodeGroup        diag.Code = "MAP02" // error: malformed group line (LINK "Origin Group" or wlink "Groups")
	CodeExport       diag.Code = "MAP03" // error: malformed export line
	CodePublic       diag.Code = "MAP04" // error: malformed public symbol line (LINK "Publics by Name/Value")
	CodeImport       diag.Code = "MAP05" // warning: malformed import detail "(MODULE.ENTRY)" on an Imp line; the symbol is kept without its import
	CodeEntry        diag.Code = "MAP06" // error: malformed "Program entry point at" or wlink "Entry point address:" line
	CodeSecondEntry  diag.Code = "MAP07" // warning: a second program entry point; the first is kept
	CodeUnrecognised diag.Code = "MAP08" // warning: unrecognised line outside any table, ignored
	CodeRange        diag.Code = "MAP09" // error: address or number out of range (segment above FFFF, offset or length above FFFFFFFF)
	CodeMemoryMap    diag.Code = "MAP10" // error: malformed wlink "Memory Map" symbol line
	CodeImported     diag.Code = "MAP11" // error: malformed wlink "Imported Symbols" line
	CodeModule       diag.Code = "MAP12" // error: wlink "Module:" line without a module name
	CodeNoModule     diag.Code = "MAP13" // warning: LINK map without a module name line before the first table
)

// Flavor is the kind of linker that wrote a map.
type Flavor int

// The map flavours.
const (
	FlavorUnknown Flavor = iota
	FlavorLINK386        // IBM LINK386: 32-bit offsets (0001:00000DC0)
	FlavorLINK16         // 16-bit LINK (IBM or Microsoft): 16-bit offsets (0001:0026)
	FlavorWatcom         // Open Watcom wlink: boxed section titles
)

// String returns "LINK386", "LINK16", "wlink" or "unknown".
func (f Flavor) String() string {
	switch f {
	case FlavorLINK386:
		return "LINK386"
	case FlavorLINK16:
		return "LINK16"
	case FlavorWatcom:
		return "wlink"
	}
	return "unknown"
}

// ErrUnknownFormat is returned (wrapped) for input that is not a MAP file
// of a known flavour.
var ErrUnknownFormat = errors.New("unknown MAP format")

// Addr is a logical address: segment (LX object) number and offset.
type Addr struct {
	Seg uint16
	Off uint32
}

// String returns "SSSS:OOOOOOOO".
func (a Addr) String() string { return fmt.Sprintf("%04X:%08X", a.Seg, a.Off) }

// Compare orders addresses by segment (or object), then offset: -1, 0 or
// +1 as a is before, at or after b.
func (a Addr) Compare(b Addr) int {
	return cmp.Or(cmp.Compare(a.Seg, b.Seg), cmp.Compare(a.Off, b.Off))
}

// Segment is one line of the segment table.
type Segment struct {
	Pos    ast.Pos
	Start  Addr
	Length uint32
	Name   string
	Class  string
	Group  string // wlink only: the group column ("AUTO" when none)
	Bits   string // LINK386 only: the "32-bit" (or "16-bit") column, if present
}

// Group is one line of the group table.
type Group struct {
	Pos    ast.Pos
	Origin Addr
	Name   string
	Size   uint32 // wlink only
}

// Export is one line of the LINK export table: the exported name and the
// internal name it stands for.
type Export struct {
	Pos   ast.Pos
	Addr  Addr
	Name  string // the exported name
	Alias string // the "Alias" column: the internal (public) name
}

// Public is one public symbol line.
type Public struct {
	Pos  ast.Pos
	Addr Addr
	Name string
	Imp  bool // LINK "Imp": imported; Addr is 0000:0 and Import says from where
	Abs  bool // LINK "Abs": an absolute symbol; Addr.Off is its value
	// Import is set for Imp lines with a readable "(MODULE.ENTRY)" part.
	Import *Import
	// Module is the wlink "Module:" the symbol was listed under.
	Module string
	// Ref is the wlink reference mark after the address: '*' unreferenced,
	// '+' only referenced locally, 0 for none.
	Ref byte
}

// Import is an imported symbol: from an LINK Imp line or a wlink
// "Imported Symbols" line.
type Import struct {
	Pos     ast.Pos
	Name    string // the name the module uses
	Module  string // the module it comes from (DOSCALLS)
	Entry   string // the entry in that module: an ordinal ("299") or a name
	Ordinal int    // the entry as a number, or 0 when Entry is a name
}

// EntryPoint is the program entry point line.
type EntryPoint struct {
	Pos  ast.Pos
	Addr Addr
}

// Map is a parsed MAP file. Lists keep file order.
type Map struct {
	File   string // the file name given to Parse
	Flavor Flavor

	Module    string  // module name (LINK: first line; wlink: image name without extension)
	ModulePos ast.Pos // where Module was read
	Image     string  // wlink only: the "Executable Image:" file name
	Target    string  // wlink only: the "creating a ..." line

	Segments       []Segment
	Groups         []Group
	Exports        []Export
	PublicsByName  []Public // LINK "Publics by Name"
	PublicsByValue []Public // LINK "Publics by Value"
	MemoryMap      []Public // wlink "Memory Map"
	Imports        []Import // LINK Imp lines (one per name) and wlink "Imported Symbols"
	Libraries      []string // wlink "Libraries Used"
	Entry          *EntryPoint

	// Names are the lines that TRCUST 3.05A takes for symbols, in file
	// order (trcustNames): it finds a name there and nowhere else.
	Names []Public
	// ByValue is the index in Names of the first line after the first
	// "Publics by Value" title, where TRCUST looks for the end of a
	// procedure for RETEP; -1 when the file has no such title.
	ByValue int
}

// SymbolKind tells where Lookup found a symbol.
type SymbolKind int

// Symbol kinds.
const (
	KindPublic SymbolKind = iota + 1 // a public symbol (LINK publics, wlink memory map)
	KindExport                       // an export line (exported name or alias)
)

// String returns "public" or "export".
func (k SymbolKind) String() string {
	switch k {
	case KindPublic:
		return "public"
	case KindExport:
		return "export"
	}
	return "kind(?)"
}

// Symbol is the result of Lookup.
type Symbol struct {
	Name     string     // the name as spelled in the map
	Seg      uint16     // LX object number (32-bit maps) or segment number (16-bit maps)
	Off      uint32     // offset in Seg
	Kind     SymbolKind // where it was found
	Imported bool       // an Imp symbol: it lives in another module (Seg is 0)
	Abs      bool       // an absolute symbol: Off is a value, not an address
	Pos      ast.Pos    // the line it was read from
}

// Lookup finds a symbol by name: first among the public symbols (by name,
// by value, wlink memory map), then among the export lines (exported name,
// then alias). An exact match anywhere wins over a case-insensitive one;
// with caseInsensitive false only exact matches count. Imported symbols
// are returned with Imported set, since they have no address in this
// module.
func (m *Map) Lookup(name string, caseInsensitive bool) (Symbol, bool) {
	if s, ok := m.lookup(func(n string) bool { return n == name }); ok {
		return s, true
	}
	if caseInsensitive {
		return m.lookup(func(n string) bool { return EqualFold(n, name) })
	}
	return Symbol{}, false
}

func (m *Map) lookup(match func(string) bool) (Symbol, bool) {
	for _, list := range [][]Public{m.PublicsByName, m.PublicsByValue, m.MemoryMap} {
		for _, p := range list {
			if match(p.Name) {
				return Symbol{Name: p.Name, Seg: p.Addr.Seg, Off: p.Addr.Off, Kind: KindPublic,
					Imported: p.Imp, Abs: p.Abs, Pos: p.Pos}, true
			}
		}
	}
	for _, alias := range []bool{false, true} {
		for _, e := range m.Exports {
			n := e.Name
			if alias {
				n = e.Alias
			}
			if n != "" && match(n) {
				return Symbol{Name: n, Seg: e.Addr.Seg, Off: e.Addr.Off, Kind: KindExport, Pos: e.Pos}, true
			}
		}
	}
	return Symbol{}, false
}

// EqualFold compares ASCII letters without case, as OS/2 tools do; bytes
// outside ASCII must match exactly.
func EqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'a' <= x && x <= 'z' {
			x -= 'a' - 'A'
		}
		if 'a' <= y && y <= 'z' {
			y -= 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// ParseFile reads and parses the named MAP file.
func ParseFile(path string) (*Map, diag.List, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	return Parse(path, src)
}

// Parse parses the MAP file text src; filename is used in positions. It
// returns the map and the diagnostics for lines that were skipped or
// doubtful. The error is non-nil (wrapping ErrUnknownFormat) only when src
// is not a MAP file of a known flavour; the map then holds only the Names
// TRCUST would read in it.
func Parse(filename string, src []byte) (*Map, diag.List, error) {
	lines := splitLines(filename, src)
	flavor := detect(lines)
	p := &parser{m: &Map{File: filename, Flavor: flavor}, lines: lines}
	switch flavor {
	case FlavorLINK386, FlavorLINK16:
		p.parseLINK()
	case FlavorWatcom:
		p.parseWatcom()
	default:
		m := &Map{File: filename}
		m.Names, m.ByValue = trcustNames(lines)
		return m, nil, fmt.Errorf("mapfile: %s: %w (no LINK segment or publics table and no Open Watcom banner)", filename, ErrUnknownFormat)
	}
	p.m.Names, p.m.ByValue = trcustNames(lines)
	return p.m, p.diags, nil
}
