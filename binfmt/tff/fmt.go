package tff

import "strings"

// EncodeFMT returns the bytes TRCUST stores for an FMT string whose TSF value
// is s (the text between the quotes after the lexer has turned \" into ";
// every other backslash sequence stays as written).
//
//   - % and one of the letters of ControlLetters, in either case, becomes Ctrl
//     and the upper-case letter.
//   - %I or %i directly followed by a decimal digit becomes Ctrl 'I'; the
//     digits and what follows are read on as ordinary text.
//   - Every other % is copied as it stands, and the scan goes on with the byte
//     after it: %% stays %%, %Z, %k and a trailing % stay, %I followed by a
//     space stays.
//   - One blank (space) right after a %P is dropped, and only one:
//     " %P %W here" gives " " Ctrl 'P' Ctrl 'W' " here" (oracle s05),
//     "%P   %W" gives Ctrl 'P' "  " Ctrl 'W' (x_b01).
//   - All other bytes are copied.
//
// The oracle confirms each rule for the cases named in docs/tff.md; where it
// is silent (%% directly before a control letter, a blank after %P that no
// control follows, a TAB after %P) the rule above is the simplest reading.
func EncodeFMT(s []byte) []byte {
	return AppendFMT(make([]byte, 0, len(s)), s)
}

// AppendFMT appends the bytes EncodeFMT returns for s to dst and returns the
// extended slice. They are never more than len(s) bytes.
func AppendFMT(dst, s []byte) []byte {
	out := dst
	for i := 0; i < len(s); {
		c := s[i]
		if c != '%' || !isSourceCtrl(s, i) {
			out = append(out, c)
			i++
			continue
		}
		l := upper(s[i+1])
		out = append(out, Ctrl, l)
		i += 2
		if l == CtrlPrefix && i < len(s) && s[i] == ' ' {
			i++
		}
	}
	return out
}

// DecodeFMT returns TSF text for a stored FMT line: each control (Ctrl and a
// letter EncodeFMT writes) becomes % and the letter, and every other byte is
// kept. For every x that EncodeFMT can return, EncodeFMT(DecodeFMT(x)) == x.
//
// A Ctrl 'P' followed by a blank decodes with one blank more, the one
// EncodeFMT drops. Bytes that EncodeFMT only copies stay as they are, raw: a
// Ctrl followed by any other byte (a lower-case letter, 'I' without a digit
// after it) or at the end.
// Stored bytes no TSF text gives, such as a literal "%W", decode to text that
// encodes to something else; lower/tsflist.TFF detects this.
func DecodeFMT(stored []byte) string {
	var b strings.Builder
	b.Grow(len(stored) + len(stored)/4)
	for i := 0; i < len(stored); {
		if !isStoredCtrl(stored, i) {
			b.WriteByte(stored[i])
			i++
			continue
		}
		l := stored[i+1]
		b.WriteByte('%')
		b.WriteByte(l)
		i += 2
		if l == CtrlPrefix && i < len(stored) && stored[i] == ' ' {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// isSourceCtrl reports whether a control starts at s[i] in TSF text: % and a
// control letter, or %I and a digit.
func isSourceCtrl(s []byte, i int) bool {
	if i+1 >= len(s) || s[i] != '%' {
		return false
	}
	l := upper(s[i+1])
	if l == CtrlIgnore {
		return i+2 < len(s) && isDigit(s[i+2])
	}
	return strings.IndexByte(ControlLetters, l) >= 0
}

// isStoredCtrl reports whether a control that EncodeFMT writes starts at
// b[i]: Ctrl and a control letter, or Ctrl 'I' and a digit.
func isStoredCtrl(b []byte, i int) bool {
	if i+1 >= len(b) || b[i] != Ctrl {
		return false
	}
	l := b[i+1]
	if l == CtrlIgnore {
		return i+2 < len(b) && isDigit(b[i+2])
	}
	return strings.IndexByte(ControlLetters, l) >= 0
}

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
