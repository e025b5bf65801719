package mapfile

import (
	"fmt"
	"strings"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
)

// line is one line of the input without its line ending.
type line struct {
	text   string
	pos    ast.Pos // position of the first byte of the line
	fields []field
}

// field is a blank-separated word of a line with its byte column.
type field struct {
	text string
	col  int // 1-based
}

// isBlank reports whether c separates fields: space, tab, form feed (some
// LINK versions put one before a page of the listing), vertical tab and a
// stray carriage return.
func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r'
}

// splitLines cuts src at LF; a CR before the LF is dropped.
func splitLines(file string, src []byte) []line {
	var out []line
	for off, n := 0, 1; off < len(src); n++ {
		end := off
		for end < len(src) && src[end] != '\n' {
			end++
		}
		next := end + 1
		if end > off && src[end-1] == '\r' {
			end--
		}
		text := string(src[off:end])
		out = append(out, line{text: text, pos: ast.Pos{File: file, Offset: off, Line: n, Col: 1}, fields: splitFields(text)})
		off = next
	}
	return out
}

func splitFields(s string) []field {
	var fs []field
	for i := 0; i < len(s); {
		for i < len(s) && isBlank(s[i]) {
			i++
		}
		if i == len(s) {
			break
		}
		j := i
		for j < len(s) && !isBlank(s[j]) {
			j++
		}
		fs = append(fs, field{text: s[i:j], col: i + 1})
		i = j
	}
	return fs
}

// at returns the position of column col of l.
func (l *line) at(col int) ast.Pos {
	p := l.pos
	p.Col = col
	p.Offset += col - 1
	return p
}

// rest returns the text of l from field i to the end, trimmed.
func (l *line) rest(i int) string {
	if i >= len(l.fields) {
		return ""
	}
	return strings.TrimRight(l.text[l.fields[i].col-1:], " \t\f\v\r")
}

// words reports whether the fields of l are exactly ws.
func (l *line) words(ws ...string) bool {
	if len(l.fields) != len(ws) {
		return false
	}
	for i, w := range ws {
		if l.fields[i].text != w {
			return false
		}
	}
	return true
}

// hasPrefixWords reports whether the first fields of l are ws.
func (l *line) hasPrefixWords(ws ...string) bool {
	if len(l.fields) < len(ws) {
		return false
	}
	for i, w := range ws {
		if l.fields[i].text != w {
			return false
		}
	}
	return true
}

// numError describes why a number could not be read.
type numError struct {
	rangeErr bool // the digits were fine but the value is too large
	msg      string
}

// parseHex reads 1 or more hex digits into a value of at most bits bits.
func parseHex(s string, bits uint) (uint64, *numError) {
	if s == "" {
		return 0, &numError{msg: "missing hex number"}
	}
	var v uint64
	for i := 0; i < len(s); i++ {
		if !isHexDigit(s[i]) {
			return 0, &numError{msg: fmt.Sprintf("%q is not a hex number", s)}
		}
		d := hexDigit(s[i])
		if v > (1<<bits-1)>>4 {
			return 0, &numError{rangeErr: true, msg: fmt.Sprintf("%s does not fit in %d bits", s, bits)}
		}
		v = v<<4 | uint64(d)
	}
	if v > 1<<bits-1 {
		return 0, &numError{rangeErr: true, msg: fmt.Sprintf("%s does not fit in %d bits", s, bits)}
	}
	return v, nil
}

// parseAddr reads "SSSS:OOOO" (any number of hex digits on each side).
func parseAddr(s string) (Addr, *numError) {
	i := strings.IndexByte(s, ':')
	if i < 0 {
		return Addr{}, &numError{msg: fmt.Sprintf("%q is not a seg:offset address", s)}
	}
	seg, e := parseHex(s[:i], 16)
	if e != nil {
		return Addr{}, e
	}
	off, e := parseHex(s[i+1:], 32)
	if e != nil {
		return Addr{}, e
	}
	return Addr{Seg: uint16(seg), Off: uint32(off)}, nil
}

// isAddr reports whether s looks like a seg:offset address (for detection
// only; parseAddr checks it properly).
func isAddr(s string) bool {
	i := strings.IndexByte(s, ':')
	if i < 1 || i == len(s)-1 {
		return false
	}
	for j := 0; j < len(s); j++ {
		if j != i && !isHexDigit(s[j]) {
			return false
		}
	}
	return true
}

// hexDigit returns the value of c, a hex digit (isHexDigit).
func hexDigit(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// parser holds the state shared by the LINK and wlink parsers.
type parser struct {
	m     *Map
	lines []line
	diags diag.List
}

func (p *parser) report(sev diag.Severity, pos ast.Pos, code diag.Code, format string, args ...any) {
	p.diags.Add(diag.Diagnostic{Pos: pos, Severity: sev, Code: code, Msg: fmt.Sprintf(format, args...)})
}

// numDiag reports a bad number in field f of l: MAP09 when the digits were
// fine but the value is out of range, the item's own code otherwise.
func (p *parser) numDiag(l *line, f field, code diag.Code, what string, e *numError) {
	if e.rangeErr {
		p.report(diag.Error, l.at(f.col), CodeRange, "%s: %s; line skipped", what, e.msg)
		return
	}
	p.report(diag.Error, l.at(f.col), code, "%s: %s; line skipped", what, e.msg)
}

// entry reads a line that names the program entry point: the words of form,
// the last of them the address.
func (p *parser) entry(l *line, form string) {
	fs := l.fields
	n := strings.Count(form, " ") + 1
	if len(fs) != n {
		p.report(diag.Error, l.at(fs[0].col), CodeEntry, "entry point line: want %q; line skipped", form)
		return
	}
	a, e := parseAddr(fs[n-1].text)
	if e != nil {
		p.numDiag(l, fs[n-1], CodeEntry, "entry point address", e)
		return
	}
	p.setEntry(l.at(fs[0].col), a)
}

// setEntry records the program entry point, keeping the first.
func (p *parser) setEntry(pos ast.Pos, a Addr) {
	if p.m.Entry != nil {
		p.report(diag.Warning, pos, CodeSecondEntry, "second program entry point %s ignored; the first, at %s, is kept", a, p.m.Entry.Pos)
		return
	}
	p.m.Entry = &EntryPoint{Pos: pos, Addr: a}
}

// detect decides the flavour: wlink by its banner or boxed titles, LINK by
// its table titles, LINK386 or LINK16 by the width of the first offsets.
func detect(lines []line) Flavor {
	for i := range lines {
		l := &lines[i]
		if strings.Contains(l.text, "Watcom Linker") || strings.Contains(l.text, "WATCOM Linker") {
			return FlavorWatcom
		}
		if t, ok := boxTitle(l.text); ok && (t == "Segments" || t == "Memory Map" || t == "Groups") {
			return FlavorWatcom
		}
	}
	isLINK := false
	for i := range lines {
		if linkTitle(&lines[i]) != secNone {
			isLINK = true
			break
		}
	}
	if !isLINK {
		return FlavorUnknown
	}
	// The first address with an offset of 4 or 8 digits decides; group
	// origins ("0002:0") are too short to say.
	for i := range lines {
		fs := lines[i].fields
		if len(fs) == 0 || !isAddr(fs[0].text) {
			continue
		}
		switch len(fs[0].text) - strings.IndexByte(fs[0].text, ':') - 1 {
		case 4:
			return FlavorLINK16
		case 8:
			return FlavorLINK386
		}
	}
	return FlavorLINK386
}
