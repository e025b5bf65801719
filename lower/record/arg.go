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
	KindArray   Kind = "array"   // an array or set of items: Fields, unlabelled (strace [a, b], [INT CHLD])
	KindOp      Kind = "op"      // an operator applied to operands: Op and Fields (a flag set O_RDONLY|O_CLOEXEC is Op "|")
	KindCall    Kind = "call"    // a macro or function as the trace writes it: Str the name, Fields the arguments (htons(80))
	KindFD      Kind = "fd"      // a file descriptor with what it refers to: Neg, Mag and Text (or Str for a name like AT_FDCWD), Path
	KindElided  Kind = "elided"  // values the trace left out ("..." or a lone comment such as /* 22 vars */)
)

// Arg is a structured argument or return value.
type Arg struct {
	Name   string // the label of a structure field or a named argument; "" when unlabelled
	Kind   Kind
	Neg    bool   // KindInt: the value is negative
	Mag    uint64 // KindInt: the magnitude
	Str    string // KindStr: the decoded string; KindSym: the identifier; KindCall: the name; KindFD: a named descriptor
	Text   string // KindInt, KindStr, KindFD: the value as written, when known
	Bytes  []byte // KindBytes
	Fields []Arg  // KindStruct, KindArray: the members; KindOp, KindCall: the operands or arguments
	In     *Arg   // KindInOut: the value given to the call
	Out    *Arg   // KindInOut: the value the call left
	Op     string // KindOp: the operator ("|", "&&", "==", "~")
	Path   string // KindFD: what the descriptor refers to (strace -y: /etc/passwd, its escapes decoded; -yy: TCP:[1.2.3.4:80->5.6.7.8:9])
	// Deleted marks a KindFD whose file was removed (strace -y writes
	// "(deleted)" after the decoration: 3</tmp/x>(deleted)).
	Deleted bool
	// Truncated marks a KindStr the trace cut short (strace "..."...).
	Truncated bool
	// Comment is a comment the trace wrote after the value, without its
	// delimiters (strace /* 30 vars */); any kind may carry one.
	Comment string
}

// IntArg returns an integer argument.
func IntArg(neg bool, mag uint64, text string) Arg {
	var a Arg
	a.SetInt(neg, mag, text)
	return a
}

// SetInt makes a the integer IntArg returns, a field at a time (for a
// lowering that fills arguments in place: a whole Arg copied into the heap
// costs a write barrier on each of its pointers). Minus zero is zero.
func (a *Arg) SetInt(neg bool, mag uint64, text string) {
	a.Kind, a.Neg, a.Mag, a.Text = KindInt, neg && mag != 0, mag, text
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

// ArrayArg returns an array of items.
func ArrayArg(items ...Arg) Arg { return Arg{Kind: KindArray, Fields: items} }

// OpArg returns an operator applied to operands.
func OpArg(op string, operands ...Arg) Arg { return Arg{Kind: KindOp, Op: op, Fields: operands} }

// CallArg returns a macro or function with its arguments.
func CallArg(name string, args ...Arg) Arg { return Arg{Kind: KindCall, Str: name, Fields: args} }

// ElidedArg returns the mark of values left out.
func ElidedArg() Arg { return Arg{Kind: KindElided} }

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
	// One switch: each kind writes its "kind" member as a constant,
	// then its own members.
	switch a.Kind {
	case KindInt:
		b = append(b, `"kind":"int"`...)
		b = a.appendInt(b)
	case KindStr:
		b = append(b, `"kind":"str"`...)
		b = appendMember(b, `,"str":`, a.Str)
		b = appendOptString(b, `,"text":`, a.Text)
		if a.Truncated {
			b = append(b, `,"truncated":true`...)
		}
	case KindArray, KindStruct:
		if a.Kind == KindArray {
			b = append(b, `"kind":"array"`...)
		} else {
			b = append(b, `"kind":"struct"`...)
		}
		b = appendFields(b, a.Fields)
	case KindOp:
		b = append(b, `"kind":"op"`...)
		b = appendMember(b, `,"op":`, a.Op)
		b = appendFields(b, a.Fields)
	case KindCall:
		b = append(b, `"kind":"call"`...)
		b = appendMember(b, `,"sym":`, a.Str)
		b = appendFields(b, a.Fields)
	case KindFD:
		b = append(b, `"kind":"fd"`...)
		if a.Str != "" {
			b = appendMember(b, `,"sym":`, a.Str)
		} else {
			b = a.appendInt(b)
		}
		b = appendMember(b, `,"path":`, a.Path)
		if a.Deleted {
			b = append(b, `,"deleted":true`...)
		}
	case KindSym:
		b = append(b, `"kind":"sym"`...)
		b = appendMember(b, `,"sym":`, a.Str)
	case KindBytes:
		b = append(b, `"kind":"bytes"`...)
		b = append(b, `,"hex":"`...)
		b = hex.AppendEncode(b, a.Bytes)
		b = append(b, '"')
	case KindInOut:
		b = append(b, `"kind":"inout"`...)
		b = append(b, `,"in":`...)
		b = appendArgOrUnknown(b, a.In)
		b = append(b, `,"out":`...)
		b = appendArgOrUnknown(b, a.Out)
	case KindUnknown:
		b = append(b, `"kind":"unknown"`...)
	case KindElided:
		b = append(b, `"kind":"elided"`...)
	default:
		b = append(b, `"kind":`...)
		b = appendString(b, string(a.Kind))
	}
	b = appendOptString(b, `,"comment":`, a.Comment)
	return append(b, '}')
}

// appendInt appends the members of an integer: "int" and, when the value
// was written otherwise, "text".
func (a *Arg) appendInt(b []byte) []byte {
	b = append(b, `,"int":`...)
	if a.Neg {
		b = append(b, '-')
	}
	b = appendUint(b, a.Mag)
	return appendOptString(b, `,"text":`, a.Text)
}

// appendMember appends key and s as a JSON string.
func appendMember(b []byte, key, s string) []byte {
	b = append(b, key...)
	return appendString(b, s)
}

// appendFields appends the "fields" member: the args as a JSON array.
func appendFields(b []byte, fields []Arg) []byte {
	b = append(b, `,"fields":`...)
	return appendArgs(b, fields)
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
			break
		}
		if a.Neg {
			sb.WriteByte('-')
		}
		sb.WriteString(strconv.FormatUint(a.Mag, 10))
	case KindStr:
		if a.Text != "" {
			sb.WriteString(a.Text)
		} else {
			sb.WriteString(strconv.Quote(a.Str))
		}
		if a.Truncated {
			sb.WriteString("...")
		}
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
	case KindArray:
		sb.WriteByte('[')
		writeList(sb, a.Fields)
		sb.WriteByte(']')
	case KindOp:
		if len(a.Fields) == 1 {
			sb.WriteString(a.Op)
			a.Fields[0].writeText(sb)
			break
		}
		for i := range a.Fields {
			if i > 0 {
				if a.Op == "|" {
					sb.WriteString(a.Op)
				} else {
					sb.WriteString(" " + a.Op + " ")
				}
			}
			a.Fields[i].writeText(sb)
		}
	case KindCall:
		sb.WriteString(a.Str)
		sb.WriteByte('(')
		writeList(sb, a.Fields)
		sb.WriteByte(')')
	case KindFD:
		if a.Str != "" {
			sb.WriteString(a.Str)
		} else if a.Text != "" {
			sb.WriteString(a.Text)
		} else {
			if a.Neg {
				sb.WriteByte('-')
			}
			sb.WriteString(strconv.FormatUint(a.Mag, 10))
		}
		sb.WriteString("<" + a.Path + ">")
		if a.Deleted {
			sb.WriteString("(deleted)")
		}
	case KindElided:
		sb.WriteString("...")
	default:
		sb.WriteString("?" + string(a.Kind))
	}
	if a.Comment != "" {
		sb.WriteString(" /* " + a.Comment + " */")
	}
}

func writeList(sb *strings.Builder, args []Arg) {
	for i := range args {
		if i > 0 {
			sb.WriteString(", ")
		}
		args[i].writeText(sb)
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
		len(a.Fields) != len(b.Fields) || a.Op != b.Op || a.Path != b.Path || a.Deleted != b.Deleted ||
		a.Truncated != b.Truncated || a.Comment != b.Comment {
		return false
	}
	for i := range a.Fields {
		if !a.Fields[i].Equal(&b.Fields[i]) {
			return false
		}
	}
	return a.In.Equal(b.In) && a.Out.Equal(b.Out)
}

// The CSV cells of args and ret are their JSON, quoted: the JSON holds
// "kind" keys, so encoding/csv always quotes it, doubling its quotes.
// appendArgsCSV and appendArgCSV write that cell in one pass, the JSON's
// quotes written doubled as they come (appendJSON's members, each quote
// doubled; TestArgsCSV holds the two to the same bytes), instead of
// encoding the JSON aside and copying it with its quotes doubled.

// appendArgsCSV appends the CSV cell of args (appendArgs, quoted).
func appendArgsCSV(b []byte, args []Arg) []byte {
	b = append(b, '"')
	b = appendArgsDoubled(b, args)
	return append(b, '"')
}

// appendArgCSV appends the CSV cell of one value (appendJSON, quoted).
func appendArgCSV(b []byte, a *Arg) []byte {
	b = append(b, '"')
	b = a.appendDoubled(b)
	return append(b, '"')
}

func appendArgsDoubled(b []byte, args []Arg) []byte {
	b = append(b, '[')
	for i := range args {
		if i > 0 {
			b = append(b, ',')
		}
		b = args[i].appendDoubled(b)
	}
	return append(b, ']')
}

// appendDoubled is appendJSON with the quotes doubled.
func (a *Arg) appendDoubled(b []byte) []byte {
	b = append(b, '{')
	if a.Name != "" {
		b = append(b, `""name"":`...)
		b = appendStringDoubled(b, a.Name)
		b = append(b, ',')
	}
	// One switch: each kind writes its "kind" member as a constant,
	// then its own members.
	switch a.Kind {
	case KindInt:
		b = append(b, `""kind"":""int""`...)
		b = a.appendIntDoubled(b)
	case KindStr:
		b = append(b, `""kind"":""str""`...)
		b = appendMemberDoubled(b, `,""str"":`, a.Str)
		if a.Text != "" {
			b = appendMemberDoubled(b, `,""text"":`, a.Text)
		}
		if a.Truncated {
			b = append(b, `,""truncated"":true`...)
		}
	case KindArray, KindStruct:
		if a.Kind == KindArray {
			b = append(b, `""kind"":""array""`...)
		} else {
			b = append(b, `""kind"":""struct""`...)
		}
		b = append(b, `,""fields"":`...)
		b = appendArgsDoubled(b, a.Fields)
	case KindOp:
		b = append(b, `""kind"":""op""`...)
		b = appendMemberDoubled(b, `,""op"":`, a.Op)
		b = append(b, `,""fields"":`...)
		b = appendArgsDoubled(b, a.Fields)
	case KindCall:
		b = append(b, `""kind"":""call""`...)
		b = appendMemberDoubled(b, `,""sym"":`, a.Str)
		b = append(b, `,""fields"":`...)
		b = appendArgsDoubled(b, a.Fields)
	case KindFD:
		b = append(b, `""kind"":""fd""`...)
		if a.Str != "" {
			b = appendMemberDoubled(b, `,""sym"":`, a.Str)
		} else {
			b = a.appendIntDoubled(b)
		}
		b = appendMemberDoubled(b, `,""path"":`, a.Path)
		if a.Deleted {
			b = append(b, `,""deleted"":true`...)
		}
	case KindSym:
		b = append(b, `""kind"":""sym""`...)
		b = appendMemberDoubled(b, `,""sym"":`, a.Str)
	case KindBytes:
		b = append(b, `""kind"":""bytes""`...)
		b = append(b, `,""hex"":""`...)
		b = hex.AppendEncode(b, a.Bytes)
		b = append(b, `""`...)
	case KindInOut:
		b = append(b, `""kind"":""inout""`...)
		b = append(b, `,""in"":`...)
		b = appendOrUnknownDoubled(b, a.In)
		b = append(b, `,""out"":`...)
		b = appendOrUnknownDoubled(b, a.Out)
	case KindUnknown:
		b = append(b, `""kind"":""unknown""`...)
	case KindElided:
		b = append(b, `""kind"":""elided""`...)
	default:
		b = append(b, `""kind"":`...)
		b = appendStringDoubled(b, string(a.Kind))
	}
	if a.Comment != "" {
		b = appendMemberDoubled(b, `,""comment"":`, a.Comment)
	}
	return append(b, '}')
}

func (a *Arg) appendIntDoubled(b []byte) []byte {
	b = append(b, `,""int"":`...)
	if a.Neg {
		b = append(b, '-')
	}
	b = appendUint(b, a.Mag)
	if a.Text != "" {
		b = appendMemberDoubled(b, `,""text"":`, a.Text)
	}
	return b
}

func appendMemberDoubled(b []byte, key, s string) []byte {
	b = append(b, key...)
	return appendStringDoubled(b, s)
}

func appendOrUnknownDoubled(b []byte, a *Arg) []byte {
	if a == nil {
		u := UnknownArg()
		a = &u
	}
	return a.appendDoubled(b)
}
