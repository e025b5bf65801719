package record

import (
	"encoding/hex"
	"strconv"
	"strings"
)

// Kind is the form of an argument value.
type Kind string

// The kinds of argument values.
const (
	KindInt     Kind = "int"     // an integer: Neg and Mag, Text as written
	KindStr     Kind = "str"     // a string: Str decoded, Text as written
	KindSym     Kind = "sym"     // a symbolic identifier: Str
	KindUnknown Kind = "unknown" // a value the trace does not give ("???")
	KindBytes   Kind = "bytes"   // raw bytes: Bytes
	KindStruct  Kind = "struct"  // a structure: Fields, each named (labelled) or not
	KindInOut   Kind = "inout"   // an in-out pair: In and Out
)

// Arg is a structured argument or return value.
type Arg struct {
	Name   string // the label of a structure field or a named argument; "" when unlabelled
	Kind   Kind
	Neg    bool   // KindInt: the value is negative
	Mag    uint64 // KindInt: the magnitude
	Str    string // KindStr: the decoded string; KindSym: the identifier
	Text   string // KindInt, KindStr: the value as written, when known
	Bytes  []byte // KindBytes
	Fields []Arg  // KindStruct
	In     *Arg   // KindInOut: the value given to the call
	Out    *Arg   // KindInOut: the value the call left
}

// IntArg returns an integer argument.
func IntArg(neg bool, mag uint64, text string) Arg {
	return Arg{Kind: KindInt, Neg: neg && mag != 0, Mag: mag, Text: text}
}

// UintArg returns a non-negative integer argument.
func UintArg(v uint64, text string) Arg { return Arg{Kind: KindInt, Mag: v, Text: text} }

// StrArg returns a string argument.
func StrArg(s, text string) Arg { return Arg{Kind: KindStr, Str: s, Text: text} }

// SymArg returns a symbolic identifier.
func SymArg(name string) Arg { return Arg{Kind: KindSym, Str: name} }

// UnknownArg returns the unknown value.
func UnknownArg() Arg { return Arg{Kind: KindUnknown} }

// BytesArg returns a raw-bytes argument.
func BytesArg(b []byte) Arg { return Arg{Kind: KindBytes, Bytes: b} }

// StructArg returns a structure of fields.
func StructArg(fields ...Arg) Arg { return Arg{Kind: KindStruct, Fields: fields} }

// InOutArg returns an in-out pair.
func InOutArg(in, out Arg) Arg { return Arg{Kind: KindInOut, In: &in, Out: &out} }

// Named returns a with its name set.
func (a Arg) Named(name string) Arg {
	a.Name = name
	return a
}

// MarshalJSON writes the argument in the form docs/record.schema.json
// describes.
func (a Arg) MarshalJSON() ([]byte, error) { return a.appendJSON(nil), nil }

func (a *Arg) appendJSON(b []byte) []byte {
	b = append(b, '{')
	if a.Name != "" {
		b = append(b, `"name":`...)
		b = appendString(b, a.Name)
		b = append(b, ',')
	}
	b = append(b, `"kind":`...)
	b = appendString(b, string(a.Kind))
	switch a.Kind {
	case KindInt:
		b = append(b, `,"int":`...)
		if a.Neg {
			b = append(b, '-')
		}
		b = strconv.AppendUint(b, a.Mag, 10)
		if a.Text != "" {
			b = append(b, `,"text":`...)
			b = appendString(b, a.Text)
		}
	case KindStr:
		b = append(b, `,"str":`...)
		b = appendString(b, a.Str)
		if a.Text != "" {
			b = append(b, `,"text":`...)
			b = appendString(b, a.Text)
		}
	case KindSym:
		b = append(b, `,"sym":`...)
		b = appendString(b, a.Str)
	case KindBytes:
		b = append(b, `,"hex":"`...)
		b = hex.AppendEncode(b, a.Bytes)
		b = append(b, '"')
	case KindStruct:
		b = append(b, `,"fields":`...)
		b = appendArgs(b, a.Fields)
	case KindInOut:
		b = append(b, `,"in":`...)
		b = appendArgOrUnknown(b, a.In)
		b = append(b, `,"out":`...)
		b = appendArgOrUnknown(b, a.Out)
	}
	return append(b, '}')
}

func appendArgOrUnknown(b []byte, a *Arg) []byte {
	if a == nil {
		u := UnknownArg()
		a = &u
	}
	return a.appendJSON(b)
}

func appendArgs(b []byte, args []Arg) []byte {
	b = append(b, '[')
	for i := range args {
		if i > 0 {
			b = append(b, ',')
		}
		b = args[i].appendJSON(b)
	}
	return append(b, ']')
}

// String renders the argument as the text writer prints it: integers and
// strings as written, symbols bare, ??? for unknown, hex for bytes,
// {label=value, value} for structures and <in|out> for in-out pairs.
func (a Arg) String() string {
	var sb strings.Builder
	a.writeText(&sb)
	return sb.String()
}

func (a *Arg) writeText(sb *strings.Builder) {
	if a.Name != "" {
		sb.WriteString(a.Name)
		sb.WriteByte('=')
	}
	switch a.Kind {
	case KindInt:
		if a.Text != "" {
			sb.WriteString(a.Text)
			return
		}
		if a.Neg {
			sb.WriteByte('-')
		}
		sb.WriteString(strconv.FormatUint(a.Mag, 10))
	case KindStr:
		if a.Text != "" {
			sb.WriteString(a.Text)
			return
		}
		sb.WriteString(strconv.Quote(a.Str))
	case KindSym:
		sb.WriteString(a.Str)
	case KindUnknown:
		sb.WriteString("???")
	case KindBytes:
		sb.WriteString(hex.EncodeToString(a.Bytes))
	case KindStruct:
		sb.WriteByte('{')
		for i := range a.Fields {
			if i > 0 {
				sb.WriteString(", ")
			}
			a.Fields[i].writeText(sb)
		}
		sb.WriteByte('}')
	case KindInOut:
		sb.WriteByte('<')
		writeOrUnknown(sb, a.In)
		sb.WriteByte('|')
		writeOrUnknown(sb, a.Out)
		sb.WriteByte('>')
	default:
		sb.WriteString("?" + string(a.Kind))
	}
}

func writeOrUnknown(sb *strings.Builder, a *Arg) {
	if a == nil {
		sb.WriteString("???")
		return
	}
	a.writeText(sb)
}

// Equal reports whether a and b are the same value, names included.
func (a *Arg) Equal(b *Arg) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Name != b.Name || a.Kind != b.Kind || a.Neg != b.Neg || a.Mag != b.Mag ||
		a.Str != b.Str || a.Text != b.Text || string(a.Bytes) != string(b.Bytes) ||
		len(a.Fields) != len(b.Fields) {
		return false
	}
	for i := range a.Fields {
		if !a.Fields[i].Equal(&b.Fields[i]) {
			return false
		}
	}
	return a.In.Equal(b.In) && a.Out.Equal(b.Out)
}
