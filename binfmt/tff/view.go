package tff

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// jsonFile is the JSON view of a File.
type jsonFile struct {
	Kind    string       `json:"kind"`
	Major   uint16       `json:"major"`
	Records []jsonRecord `json:"records"`
}

type jsonRecord struct {
	Minor uint16   `json:"minor"`
	Desc  string   `json:"desc"`
	Fmt   []string `json:"fmt"`
}

// MarshalJSON implements json.Marshaler with the view of tracekit dump
// --json:
//
//	{"kind":"tff","major":48,"records":[{"minor":1,"desc":"one-one","fmt":["b=%D"]}]}
//
// Records keep their order; fmt holds each FMT line decoded with DecodeFMT
// and is [] when there is none. Every byte stands for the Unicode code point
// of the same number (ISO 8859-1), so that no byte is lost whatever code page
// the text was written in; a byte below 0x20, such as a raw 0x01 DecodeFMT
// kept, appears as a \u00XX escape.
func (f *File) MarshalJSON() ([]byte, error) {
	v := jsonFile{Kind: "tff", Major: f.Major, Records: make([]jsonRecord, len(f.Records))}
	for i, r := range f.Records {
		jr := jsonRecord{Minor: r.Minor, Desc: latin1(r.Desc), Fmt: make([]string, len(r.Fmts))}
		for k, l := range r.Fmts {
			jr.Fmt[k] = latin1([]byte(DecodeFMT(l)))
		}
		v.Records[i] = jr
	}
	return json.Marshal(v)
}

// latin1 returns b with each byte read as the code point of its value.
func latin1(b []byte) string {
	var s strings.Builder
	s.Grow(len(b))
	for _, c := range b {
		s.WriteRune(rune(c))
	}
	return s.String()
}

// WriteText writes a listing of f for people to read: a line for the file,
// then per record a line with its minor and data block length, the DESC and
// each FMT line decoded with DecodeFMT. Strings are quoted as in Go, reading
// each byte as the code point of its value, so control bytes show as escapes.
//
//	TFF major 0x0030 (48), 2 records
//	minor 0x0001 (1), 15 bytes
//	  DESC "one-one"
//	  FMT  "b=%D"
func (f *File) WriteText(w io.Writer) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "TFF major 0x%04X (%d), %d records\n", f.Major, f.Major, len(f.Records))
	for _, r := range f.Records {
		fmt.Fprintf(&b, "minor 0x%04X (%d), %d bytes\n", r.Minor, r.Minor, r.blockLen())
		fmt.Fprintf(&b, "  DESC %s\n", strconv.Quote(latin1(r.Desc)))
		for _, l := range r.Fmts {
			fmt.Fprintf(&b, "  FMT  %s\n", strconv.Quote(latin1([]byte(DecodeFMT(l)))))
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// TSF writes f as trace source, as IBM's TFFLST did: a comment line, the
// MAJOR line and one TRACE statement per record with TP=@STATIC, the DESC and
// the FMT lines decoded with DecodeFMT, in record order. No MODNAME line is
// written; TRCUST needs none when every tracepoint is @STATIC. Lines end in
// LF. Compiling the listing with TRCUST gives f's bytes back.
//
// TSF writes nothing and returns an error when the listing would not compile
// back to the same bytes:
//
//   - major code 0, which TRCUST turns into 1, or minor code 0, which it
//     rejects; a minor used twice;
//   - a DESC or FMT holding a control byte (below 0x20 other than TAB, or
//     0x7F): CR, LF and NUL end or break a TSF line, and raw controls, such
//     as a 0x01 in a DESC, are not text;
//   - an FMT line that DecodeFMT cannot turn into text that encodes back to
//     it (a literal "%W"), or only into text with raw 0x01 bytes (Ctrl and a
//     letter that is no control, blanks stored between Ctrl 'P' and another
//     control);
//   - a string with a backslash directly before a quote or at its end. The
//     TSF lexer takes a backslash and the next byte as a pair and turns only
//     \" into ", so no quoted string can give such a value: \" would lose the
//     backslash, and a final backslash would escape the closing quote. Every
//     other backslash is written as it stands.
func (f *File) TSF(w io.Writer) error {
	var b bytes.Buffer
	if f.Major == 0 {
		return errors.New("tff: major code 0 cannot be written as TSF: TRCUST reads MAJOR = 0 as 1")
	}
	fmt.Fprintf(&b, "; TSF listing of a trace format file: major 0x%04X, %d records\n", f.Major, len(f.Records))
	fmt.Fprintf(&b, "MAJOR = 0x%04X\n", f.Major)
	seen := make(map[uint16]bool, len(f.Records))
	for _, r := range f.Records {
		if r.Minor == 0 {
			return errors.New("tff: minor code 0 cannot be written as TSF: TRCUST rejects MINOR=0")
		}
		if seen[r.Minor] {
			return fmt.Errorf("tff: minor 0x%04X is used twice", r.Minor)
		}
		seen[r.Minor] = true
		desc, err := quoteTSF(r.Desc)
		if err != nil {
			return fmt.Errorf("tff: minor 0x%04X: DESC %w", r.Minor, err)
		}
		fmt.Fprintf(&b, "\nTRACE MINOR=0x%04X,\n  TP=@STATIC,\n  DESC=%s", r.Minor, desc)
		for i, l := range r.Fmts {
			text := DecodeFMT(l)
			if !bytes.Equal(EncodeFMT([]byte(text)), l) {
				return fmt.Errorf("tff: minor 0x%04X: FMT %d %s has stored controls that no TSF text gives", r.Minor, i+1, strconv.Quote(latin1(l)))
			}
			q, err := quoteTSF([]byte(text))
			if err != nil {
				return fmt.Errorf("tff: minor 0x%04X: FMT %d %w", r.Minor, i+1, err)
			}
			fmt.Fprintf(&b, ",\n  FMT=%s", q)
		}
		b.WriteByte('\n')
	}
	_, err := w.Write(b.Bytes())
	return err
}

// quoteTSF returns v as a quoted TSF string whose value is v, or an error
// saying why there is none.
func quoteTSF(v []byte) (string, error) {
	for _, c := range v {
		if (c < 0x20 && c != '\t') || c == 0x7F {
			return "", fmt.Errorf("%s holds the control byte 0x%02X, which a TSF string cannot hold", strconv.Quote(latin1(v)), c)
		}
	}
	var b strings.Builder
	b.Grow(len(v) + 2)
	b.WriteByte('"')
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			switch {
			case i+1 == len(v):
				return "", fmt.Errorf("%s ends in a backslash, which would escape the closing quote in TSF", strconv.Quote(latin1(v)))
			case v[i+1] == '"':
				return "", fmt.Errorf(`%s has a backslash directly before a quote, which TSF cannot express (\" is a quote alone)`, strconv.Quote(latin1(v)))
			}
			b.WriteByte(c)
			b.WriteByte(v[i+1])
			i++
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String(), nil
}
