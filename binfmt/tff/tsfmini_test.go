package tff

// A test-only reader for the part of TSF that a TFF depends on: the MAJOR
// line and the MINOR, DESC and FMT keywords of TRACE statements. It lexes
// strings the way TRCUST does (a backslash and the next byte are a pair; only
// \" becomes ", every other pair stays as written) and skips everything else
// (comments, other keywords and their values). It is not the TSF front end
// (grammar/tsfparse); it lets these tests compile the oracle sources and the
// listings File.TSF writes.

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

type miniTok struct {
	kind byte // 'w' word, 's' string, or the punctuation byte itself
	text string
}

func miniLex(src string) ([]miniTok, error) {
	var toks []miniTok
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
		case c == ';':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			depth := 0
			for {
				if i+1 >= len(src) {
					return nil, errors.New("unterminated comment")
				}
				if src[i] == '/' && src[i+1] == '*' {
					depth++
					i += 2
				} else if src[i] == '*' && src[i+1] == '/' {
					depth--
					i += 2
					if depth == 0 {
						break
					}
				} else {
					i++
				}
			}
		case c == '"':
			var v strings.Builder
			i++
			for {
				if i >= len(src) || src[i] == '\n' || src[i] == '\r' {
					return nil, errors.New("new line in literal")
				}
				if src[i] == '"' {
					i++
					break
				}
				if src[i] == '\\' && i+1 < len(src) {
					if src[i+1] == '\n' || src[i+1] == '\r' {
						return nil, errors.New("new line in literal")
					}
					if src[i+1] != '"' {
						v.WriteByte('\\')
					}
					v.WriteByte(src[i+1])
					i += 2
					continue
				}
				v.WriteByte(src[i])
				i++
			}
			toks = append(toks, miniTok{'s', v.String()})
		case strings.IndexByte("=,()", c) >= 0:
			toks = append(toks, miniTok{c, string(c)})
			i++
		default:
			j := i
			for j < len(src) && strings.IndexByte(" \t\r\n=,()\";", src[j]) < 0 {
				j++
			}
			toks = append(toks, miniTok{'w', src[i:j]})
			i = j
		}
	}
	return toks, nil
}

// miniCompile returns the File that TRCUST would write for src, assuming
// every TRACE statement is accepted. It fails for a TRACE without MINOR (the
// numbering rule is not modelled) and for a MAJOR other than 1-0xFFFF.
func miniCompile(src string) (*File, error) {
	toks, err := miniLex(src)
	if err != nil {
		return nil, err
	}
	f := &File{}
	var cur *Record
	haveMinor := false
	finish := func() error {
		if cur != nil && !haveMinor {
			return errors.New("TRACE without MINOR")
		}
		return nil
	}
	num := func(s string) (uint64, error) { return strconv.ParseUint(s, 0, 32) }
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind != 'w' {
			continue
		}
		kw := strings.ToUpper(t.text)
		if kw == "TRACE" {
			if err := finish(); err != nil {
				return nil, err
			}
			f.Records = append(f.Records, Record{Desc: []byte{}})
			cur = &f.Records[len(f.Records)-1]
			haveMinor = false
			continue
		}
		if i+2 >= len(toks) || toks[i+1].kind != '=' {
			continue
		}
		v := toks[i+2]
		switch {
		case kw == "MAJOR" && cur == nil:
			n, err := num(v.text)
			if err != nil || n == 0 || n > 0xFFFF {
				return nil, fmt.Errorf("MAJOR %q not modelled", v.text)
			}
			f.Major = uint16(n)
		case kw == "MINOR" && cur != nil:
			n, err := num(v.text)
			if err != nil || n == 0 || n > 0xFFFF {
				return nil, fmt.Errorf("MINOR %q not modelled", v.text)
			}
			cur.Minor = uint16(n)
			haveMinor = true
		case kw == "DESC" && cur != nil && v.kind == 's':
			cur.Desc = []byte(v.text)
		case kw == "FMT" && cur != nil && v.kind == 's':
			cur.Fmts = append(cur.Fmts, EncodeFMT([]byte(v.text)))
		default:
			continue
		}
		i += 2
	}
	if err := finish(); err != nil {
		return nil, err
	}
	return f, nil
}
