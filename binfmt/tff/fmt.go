package tff

import "strings"

// EncodeFMT returns the bytes TRCUST stores for an FMT string whose TSF value
// is s (the text between the quotes after the lexer has turned \" into ";
// every other backslash sequence stays as written).
//
//   - % and one of the letters of ControlLetters, in either case, becomes Ctrl
//     and the upper-case letter, with two exceptions below (%R, and %I).
//   - %I or %i directly followed by a decimal digit becomes Ctrl 'I'; the
//     digits and what follows are read on as ordinary text.
//   - After a %P, one blank or TAB is dropped, and only one: " %P %W here"
//     gives " " Ctrl 'P' Ctrl 'W' " here" (oracle s05), "%P   %W" gives
//     Ctrl 'P' "  " Ctrl 'W' (x_b01). Otherwise a letter of PrefixedLetters
//     right after %P, in either case, is a control without its %: "%PW"
//     and "%Pw" give Ctrl 'P' Ctrl 'W', "%Pabc" Ctrl 'P' Ctrl 'A' "bc"; any
//     other byte (%PX, %PI5, %PP, %Pz) is read on as ordinary text.
//   - %R (repeat the following control) is a control only when the next %
//     in the string is followed by a letter of RepeatLetters, in either
//     case: "%R%W", "%R %W", "%RR%W", "%Rabc def%W" store Ctrl 'R'; "%R",
//     "%RW", "%R%S", "%R%P%W", "%R%%" keep "%R" as text.
//   - Every other % is copied as it stands, and the scan goes on with the byte
//     after it: %% stays %%, %Z, %k and a trailing % stay, %I followed by a
//     space stays.
//   - All other bytes are copied.
//
// The %P and %R rules are IBM's behaviour, read from TRCUST 3.05A's output
// on every letter after %P and after %R% (generated programs judged by IBM's
// binary; cmd/trcust/testdata/oraclediff has them); the reference says only
// that %R repeats "the following format control".
func EncodeFMT(s []byte) []byte {
	return AppendFMT(make([]byte, 0, len(s)+len(s)/3), s)
}

// PrefixedLetters are the controls that a letter right after %P stands for
// without its % (IBM's behaviour): the controls that format logged data.
const PrefixedLetters = "BWDFQASUC"

// RepeatLetters are the controls that %R can repeat (IBM's behaviour): %R
// is a control only when the next % control is one of them.
const RepeatLetters = "BWDFQAC"

// AppendFMT appends the bytes EncodeFMT returns for s to dst and returns the
// extended slice. They are never more than len(s)+len(s)/3 bytes (each
// "%PW" of three bytes stores four).
//
// s is the TSF text, as a string or as bytes.
func AppendFMT[S ~string | ~[]byte](dst []byte, s S) []byte {
	out := dst
	for i := 0; i < len(s); {
		if s[i] != '%' {
			// The run of text up to the next %, copied at once.
			j := i + 1
			for j < len(s) && s[j] != '%' {
				j++
			}
			out = append(out, s[i:j]...)
			i = j
			continue
		}
		if !isSourceCtrl(s, i) {
			out = append(out, '%')
			i++
			continue
		}
		l := upper(s[i+1])
		out = append(out, Ctrl, l)
		i += 2
		if l != CtrlPrefix || i >= len(s) {
			continue
		}
		switch n := s[i]; {
		case n == ' ' || n == '\t':
			i++
		case strings.IndexByte(PrefixedLetters, upper(n)) >= 0:
			out = append(out, Ctrl, upper(n))
			i++
		}
	}
	return out
}

// DecodeFMT returns TSF text for a stored FMT line: each control (Ctrl and a
// letter EncodeFMT writes) becomes % and the letter, and every other byte is
// kept. For every x that EncodeFMT can return, EncodeFMT(DecodeFMT(x)) == x.
//
// A Ctrl 'P' followed by a blank, a TAB or a letter of PrefixedLetters
// decodes with a blank after it, the one EncodeFMT drops (so that the
// letter stays a letter). Bytes that EncodeFMT only copies stay as they are, raw: a
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
		if l == CtrlPrefix && i < len(stored) {
			if n := stored[i]; n == ' ' || n == '\t' || strings.IndexByte(PrefixedLetters, upper(n)) >= 0 {
				// The blank EncodeFMT drops after %P, which also keeps
				// a letter after it from being read as a control.
				b.WriteByte(' ')
			}
		}
	}
	return b.String()
}

// isSourceCtrl reports whether a control starts at s[i] in TSF text: % and a
// control letter, or %I and a digit.
func isSourceCtrl[S ~string | ~[]byte](s S, i int) bool {
	if i+1 >= len(s) || s[i] != '%' {
		return false
	}
	l := upper(s[i+1])
	switch l {
	case CtrlIgnore:
		return i+2 < len(s) && isDigit(s[i+2])
	case 'R':
		j := i + 2
		for j < len(s) && s[j] != '%' {
			j++
		}
		return j+1 < len(s) && strings.IndexByte(RepeatLetters, upper(s[j+1])) >= 0
	}
	return controlLetter[l]
}

// controlLetter holds, for every byte, whether it is one of ControlLetters
// (a table: isSourceCtrl runs at every % of every FMT a compile reads).
var controlLetter = func() (t [256]bool) {
	for i := range len(ControlLetters) {
		t[ControlLetters[i]] = true
	}
	return t
}()

// isStoredCtrl reports whether a control that EncodeFMT writes starts at
// b[i]: Ctrl and a control letter, Ctrl 'I' and a digit, or Ctrl 'R' before
// a control it repeats.
func isStoredCtrl(b []byte, i int) bool {
	if i+1 >= len(b) || b[i] != Ctrl {
		return false
	}
	l := b[i+1]
	switch l {
	case CtrlIgnore:
		return i+2 < len(b) && isDigit(b[i+2])
	case 'R':
		// As EncodeFMT stores it: the next % or control is a control
		// that %R repeats.
		j := i + 2
		for j < len(b) && b[j] != '%' && b[j] != Ctrl {
			j++
		}
		return j+1 < len(b) && b[j] == Ctrl && strings.IndexByte(RepeatLetters, b[j+1]) >= 0
	}
	return controlLetter[l]
}

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
