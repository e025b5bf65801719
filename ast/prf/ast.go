// Package prf holds the syntax tree of the Hitachi Application Server
// performance analysis (PRF) trace as cprfed prints it, in its dump form
// (several "Key: value" lines a record, then a hex dump) and its CSV form
// (one row a record under a header row).
//
// Both forms build the same Record node, so one lowering serves both. Items
// are kept as written, with their positions; what they mean (numbers, times)
// is left to the lowering (lower/dialect/prf). The participle grammar in
// grammar/prf builds these nodes.
package prf

import (
	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
)

// Diagnostic codes of the prf and prfcsv dialects.
const (
	CodeSyntax     diag.Code = "PRF001" // error: a line that has none of the shapes of the form
	CodeOutside    diag.Code = "PRF002" // error: a dump line before the first "PRF:" line
	CodeRepeated   diag.Code = "PRF003" // error: an item given twice in one record; the second is skipped
	CodeNoEvent    diag.Code = "PRF004" // error: a record without an Event item; the record's lines are skipped
	CodeValue      diag.Code = "PRF005" // error: a malformed value (status, number, event id, date or time)
	CodeDump       diag.Code = "PRF006" // error: a malformed hex-dump line, or one before the "Offset" header
	CodeOffset     diag.Code = "PRF007" // warning: a hex-dump line whose offset is not the count of bytes before it
	CodeFields     diag.Code = "PRF008" // error: a CSV row whose number of fields differs from the header's
	CodeColumn     diag.Code = "PRF009" // warning: a CSV column the reference does not name; kept in attrs
	CodeTooLong    diag.Code = "PRF010" // error: a record's hex dump longer than the limit
	CodeNameLength diag.Code = "PRF011" // warning: an INT or OPR name longer than 33 characters
)

// Form tells the two printed forms apart.
type Form int

// The forms.
const (
	Dump Form = iota + 1 // cprfed -Dump
	CSV                  // cprfed -CSV
)

// String returns "dump" or "csv".
func (f Form) String() string {
	switch f {
	case Dump:
		return "dump"
	case CSV:
		return "csv"
	}
	return "form?"
}

// GoString keeps AST dumps readable.
func (f Form) GoString() string { return f.String() }

// Item is one output item as written. The zero Item is an item not given.
type Item struct {
	Pos  ast.Pos
	Text string
}

// Given reports whether the item was present in the input.
func (i Item) Given() bool { return i.Pos.IsValid() }

// AP is the address of a client or root application: IP address, process id
// and communication number.
type AP struct {
	Pos    ast.Pos
	IP     Item
	PID    Item
	CommNo Item
}

// Bytes is a run of bytes: the OPT dump information or the ASCII column.
type Bytes struct {
	Pos  ast.Pos
	Data []byte
}

// Extra is a CSV column the reference does not name, kept by its header.
type Extra struct {
	Name string
	Item
}

// Record is one trace record.
type Record struct {
	Pos         ast.Pos // the record's first line
	Form        Form
	Lines       int  // the number of source lines the record was built from
	Status      Item // PRF: "Rec" or "ErrRec"
	Process     Item // process id, decimal
	Thread      Item // thread id or hash value, hex (0x...) or decimal
	Trace       Item // serial number in the thread
	ProcessName Item
	Event       Item // event id, hex
	Date        Item // year/month/day
	Clock       Item // hour:minute:second
	SubSecond   Item // millisecond/microsecond/nanosecond
	Rc          Item // return code
	ClientAP    *AP
	RootAP      *AP
	INT         Item // interface name, verbatim
	OPR         Item // operation name, verbatim
	SendSCD     Item // older releases
	ReceiveSCD  Item // older releases
	LookupName  Item // older releases
	OPT         *Bytes
	ASCII       *Bytes
	Extra       []Extra
}

// Header is the header row of the CSV form.
type Header struct {
	Pos     ast.Pos
	Columns []Item
}
