package tsf

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Comment is a line comment of a TSF listing: ";" and Text. The parser
// reads comments as white space and makes no Comment; a listing built from
// a TFF or a TDF holds them, and Fprint prints them in their place.
type Comment struct {
	Pos  Pos
	Text string // without the ";" and the blank after it
}

func (*Comment) stmtNode() {}

// Position implements Node.
func (c *Comment) Position() Pos { return c.Pos }

// Fprint writes f as TSF text, the form every TSF listing of tracekit has:
//
//   - a header statement a line: "MODNAME = name", "MAJOR = n",
//     "MAXDATALENGTH = n", "TDFID = n", "TYPELIST NAME=n,ID=i, NAME=...";
//   - a blank line before each TRACE statement, or before the comments
//     that stand right before it;
//   - "TRACE " and its fields, one a line, separated by a comma, the
//     second and later indented by two blanks;
//   - a comment as ";" and its text.
//
// Numbers, names and strings are printed as written (Number.Text,
// Word.Text, String.Raw), so a parsed file prints with its own spellings and
// a built one with those it was given. The terms of an address are printed
// in a fixed order: base, registers, displacements, the (i) term.
func Fprint(w io.Writer, f *File) error {
	var b bytes.Buffer
	for i, s := range f.Stmts {
		if i > 0 && startsTrace(f.Stmts, i) {
			b.WriteByte('\n')
		}
		if err := printStmt(&b, s); err != nil {
			return err
		}
		b.WriteByte('\n')
	}
	_, err := w.Write(b.Bytes())
	return err
}

// startsTrace reports whether stmts[i] is a TRACE statement that no comment
// precedes, or the first of the comments right before a TRACE statement.
func startsTrace(stmts []Stmt, i int) bool {
	if _, ok := stmts[i-1].(*Comment); ok {
		return false
	}
	for _, s := range stmts[i:] {
		switch s.(type) {
		case *Trace:
			return true
		case *Comment:
			continue
		}
		return false
	}
	return false
}

func printStmt(b *bytes.Buffer, s Stmt) error {
	switch s := s.(type) {
	case *Comment:
		if strings.ContainsAny(s.Text, "\r\n") {
			return fmt.Errorf("tsf: comment %q holds a line end", s.Text)
		}
		b.WriteByte(';')
		if s.Text != "" {
			b.WriteString(" " + s.Text)
		}
	case *ModName:
		b.WriteString("MODNAME = " + s.Path.Text)
	case *Major:
		b.WriteString("MAJOR = " + s.Value.Text)
	case *MaxDataLength:
		kw := s.Spelling
		if kw == "" {
			kw = "MAXDATALENGTH"
		}
		b.WriteString(kw + " = " + s.Value.Text)
	case *TDFID:
		b.WriteString("TDFID = " + s.Value.Text)
	case *TypeList:
		printList(b, "TYPELIST", s.Entries)
	case *GroupList:
		printList(b, "GROUPLIST", s.Entries)
	case *Trace:
		b.WriteString("TRACE ")
		for i, f := range printOrder(s.Fields) {
			if i > 0 {
				b.WriteString(",\n  ")
			}
			text, err := FieldText(f)
			if err != nil {
				return err
			}
			b.WriteString(text)
		}
	default:
		return fmt.Errorf("tsf: cannot print a %T", s)
	}
	return nil
}

// printOrder returns the fields of a TRACE in the order printed: as given,
// but for TYPE and GROUP fields at the end, which go before the last field
// of another kind. TRCUST 3.05A wants a ',' or another field after a TYPE
// or GROUP, and takes the end of the file there as premature (34); their
// place among the fields means nothing.
func printOrder(fields []Field) []Field {
	n := len(fields)
	for n > 0 && isTypeOrGroup(fields[n-1]) {
		n--
	}
	if n == 0 || n == len(fields) {
		return fields
	}
	out := append([]Field{}, fields[:n-1]...)
	out = append(out, fields[n:]...)
	return append(out, fields[n-1])
}

func isTypeOrGroup(f Field) bool {
	switch f.(type) {
	case *Type, *Group:
		return true
	}
	return false
}

func printList(b *bytes.Buffer, kw string, entries []*ListEntry) {
	b.WriteString(kw)
	for i, e := range entries {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(" NAME=" + e.Name.Text)
		if e.ID != nil {
			b.WriteString(",ID=" + e.ID.Text)
		}
	}
}

// FieldText returns the TSF text of one TRACE field: "MEM32=(.errno,INDIRECT,4)".
func FieldText(f Field) (string, error) {
	switch f := f.(type) {
	case *Minor:
		if f.Bad != nil {
			return "MINOR=" + f.Bad.Text, nil
		}
		return "MINOR=" + f.Value.Text, nil
	case *TP:
		return "TP=" + targetText(f.Target), nil
	case *Opcode:
		return "OPCODE=" + f.Value.Text, nil
	case *Type:
		names := make([]string, len(f.Names))
		for i, n := range f.Names {
			names[i] = n.Text
		}
		return "TYPE=(" + strings.Join(names, ",") + ")", nil
	case *Group:
		return "GROUP=" + f.Name.Text, nil
	case *Desc:
		return "DESC=" + stringText(f.Text), nil
	case *Fmt:
		return "FMT=" + stringText(f.Text), nil
	case *Len:
		return "LEN=(" + AddressText(f.Addr) + "," + flagText(f.Flag) + ")", nil
	case *Regs:
		names := make([]string, len(f.Regs))
		for i, r := range f.Regs {
			names[i] = r.Name
			if r.Variable {
				names[i] = "." + r.Name
			}
		}
		return "REGS=(" + strings.Join(names, ",") + ")", nil
	case *Mem:
		length := "LEN"
		if f.Length != nil {
			length = f.Length.Text
		}
		return f.Kind.String() + "=(" + AddressText(f.Addr) + "," + flagText(f.Flag) + "," + length + ")", nil
	case *Orbit:
		return "ORBIT=(" + f.A.Text + "," + f.B.Text + ")", nil
	case *OpFlag:
		return f.Name, nil
	}
	return "", fmt.Errorf("tsf: cannot print a %T field", f)
}

func targetText(t TPTarget) string {
	switch t := t.(type) {
	case *StaticTP:
		return "@STATIC"
	case *LineTP:
		if t.Line == nil {
			return "@" + t.File.Text
		}
		return "@" + t.File.Text + "," + t.Line.Text
	case *SymbolTP:
		s := "." + t.Name.Text
		for _, o := range t.Offsets {
			s += signedText(o)
		}
		if t.RetEP != nil {
			s += ",RETEP"
		}
		return s
	}
	return ""
}

func stringText(s *String) string { return `"` + s.Raw + `"` }

// AddressText returns the TSF text of an address specification.
func AddressText(a Address) string {
	var b strings.Builder
	var disps []*Signed
	var ind *Signed
	switch a := a.(type) {
	case *SymbolAddr:
		if a.Dot {
			b.WriteByte('.')
		}
		b.WriteString(a.Name.Text)
		disps, ind = a.Disps, a.Indirect
	case *FlatAddr:
		b.WriteString("F" + a.Base.Text)
		writeRegs(&b, a.Index)
		disps, ind = a.Disps, a.Indirect
	case *SegAddr:
		b.WriteString("R" + a.Seg.Text)
		writeRegs(&b, a.Regs)
		disps, ind = a.Disps, a.Indirect
	}
	for _, d := range disps {
		b.WriteString(signedText(d))
	}
	if ind != nil {
		s := signedText(ind)
		b.WriteString(s[:1] + "(" + s[1:] + ")")
	}
	return b.String()
}

func writeRegs(b *strings.Builder, regs []*SignedReg) {
	for _, r := range regs {
		if r.Neg {
			b.WriteByte('-')
		} else {
			b.WriteByte('+')
		}
		b.WriteString(r.Reg.Text)
	}
}

func signedText(s *Signed) string {
	if s.Neg {
		return "-" + s.Num.Text
	}
	return "+" + s.Num.Text
}

func flagText(f *Flag) string {
	kw := f.Spelling
	if kw == "" {
		kw = f.Kind.String()
	}
	for _, lv := range f.Chain {
		kw += "*"
		if lv.Offset != nil {
			kw += signedText(lv.Offset)
		}
	}
	return kw
}

// Unquote returns what TRCUST stores for the text between the quotes of a
// TSF string: \" becomes ", and every other backslash is kept as written
// (oracle s05: "\\", "\n" and "\t" reach the TFF unchanged). A backslash
// right before a quote makes an escaped quote whatever comes before it, as
// in TRCUST 3.05A's lexer (raw a\\\"b is stored a\\"b); on the strings
// tracekit's scanner ends at \\" this is the same as reading \\ as a pair.
func Unquote(raw string) string {
	// IndexByte first: most strings hold no backslash at all.
	if i := strings.IndexByte(raw, '\\'); i < 0 || !strings.Contains(raw[i:], `\"`) {
		return raw
	}
	var b strings.Builder
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c == '\\' && i+1 < len(raw) && raw[i+1] == '"' {
			b.WriteByte('"')
			i++
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// Quote returns the text to write between the quotes of a TSF string whose
// value (what TRCUST stores) is v, the inverse of Unquote, or an error
// saying why no TSF string has that value:
//
//   - a control byte other than TAB (a string cannot span lines, and
//     TRCUST stops at a NUL);
//   - a backslash right before a quote, or at the end: the lexer takes a
//     backslash and the next byte as a pair and turns only \" into ", so
//     \" would lose the backslash, and a final backslash would escape the
//     closing quote.
//
// A quote is written \"; every other backslash as it stands.
func Quote(v []byte) (string, error) {
	for _, c := range v {
		if (c < 0x20 && c != '\t') || c == 0x7F {
			return "", fmt.Errorf("%s holds the control byte 0x%02X, which a TSF string cannot hold", quoteLatin1(v), c)
		}
	}
	var b strings.Builder
	b.Grow(len(v))
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			switch {
			case i+1 == len(v):
				return "", fmt.Errorf("%s ends in a backslash, which would escape the closing quote in TSF", quoteLatin1(v))
			case v[i+1] == '"':
				return "", errors.New(quoteLatin1(v) + ` has a backslash directly before a quote, which TSF cannot express (\" is a quote alone)`)
			}
			b.WriteByte(c)
			b.WriteByte(v[i+1])
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

// quoteLatin1 quotes v for a message, each byte as the Latin-1 character
// it stands for.
func quoteLatin1(v []byte) string {
	r := make([]rune, len(v))
	for i, c := range v {
		r[i] = rune(c)
	}
	return strconv.Quote(string(r))
}
