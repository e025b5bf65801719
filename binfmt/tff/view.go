package tff

import (
	"bytes"
	"encoding/json"
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
