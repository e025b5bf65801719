package mapfile

import (
	"strconv"
	"strings"

	"github.com/tracekit/tracekit/ast/diag"
)

// section is the table a LINK map line belongs to.
type section int

const (
	secNone section = iota
	secSegments
	secGroups
	secExports
	secPubName
	secPubValue
	secLineNums
	secEntry // the "Program entry point at" line itself
)

// linkTitle recognises the title lines of a LINK map.
func linkTitle(l *line) section {
	switch {
	case l.hasPrefixWords("Start", "Length", "Name", "Class"):
		return secSegments
	case l.words("Origin", "Group"):
		return secGroups
	case l.hasPrefixWords("Address", "Export"):
		return secExports
	case l.words("Address", "Publics", "by", "Name"):
		return secPubName
	case l.words("Address", "Publics", "by", "Value"):
		return secPubValue
	case l.hasPrefixWords("Line", "numbers", "for"):
		return secLineNums
	case l.hasPrefixWords("Program", "entry", "point", "at"):
		return secEntry
	}
	return secNone
}

// parseLINK parses a LINK386 or 16-bit LINK map.
func (p *parser) parseLINK() {
	sec := secNone
	seenTitle := false
	for i := range p.lines {
		l := &p.lines[i]
		if len(l.fields) == 0 {
			continue
		}
		if t := linkTitle(l); t != secNone {
			seenTitle = true
			if t == secEntry {
				p.entry(l, "Program entry point at SEG:OFF")
				sec = secNone
				continue
			}
			sec = t
			continue
		}
		if !seenTitle && p.m.Module == "" {
			// The module name is the first line of the map.
			p.m.Module = l.rest(0)
			p.m.ModulePos = l.at(l.fields[0].col)
			continue
		}
		switch sec {
		case secSegments:
			p.linkSegment(l)
		case secGroups:
			p.linkGroup(l)
		case secExports:
			p.linkExport(l)
		case secPubName:
			if pub, ok := p.linkPublic(l); ok {
				p.m.PublicsByName = append(p.m.PublicsByName, pub)
			}
		case secPubValue:
			if pub, ok := p.linkPublic(l); ok {
				p.m.PublicsByValue = append(p.m.PublicsByValue, pub)
			}
		case secLineNums:
			if !isLineNumberLine(l) {
				p.report(diag.Warning, l.at(l.fields[0].col), CodeUnrecognised, "unrecognised line in a line-number table ignored")
			}
		default:
			p.report(diag.Warning, l.at(l.fields[0].col), CodeUnrecognised, "unrecognised line outside any table ignored")
		}
	}
	if p.m.Module == "" && len(p.lines) > 0 {
		p.report(diag.Warning, p.lines[0].pos, CodeNoModule, "no module name line before the first table")
	}
	p.collectImports()
}

// linkSegment reads " 0001:00000000 000004410H CODE32    CODE 32-bit".
func (p *parser) linkSegment(l *line) {
	fs := l.fields
	if len(fs) < 4 || len(fs) > 5 {
		p.report(diag.Error, l.at(fs[0].col), CodeSegment, "segment line: want START LENGTH NAME CLASS [32-bit], got %d fields; line skipped", len(fs))
		return
	}
	start, e := parseAddr(fs[0].text)
	if e != nil {
		p.numDiag(l, fs[0], CodeSegment, "segment start", e)
		return
	}
	ln := fs[1].text
	if !strings.HasSuffix(ln, "H") && !strings.HasSuffix(ln, "h") {
		p.report(diag.Error, l.at(fs[1].col), CodeSegment, "segment length %q: want hex digits followed by H; line skipped", ln)
		return
	}
	length, e := parseHex(ln[:len(ln)-1], 32)
	if e != nil {
		p.numDiag(l, fs[1], CodeSegment, "segment length", e)
		return
	}
	s := Segment{Pos: l.at(fs[0].col), Start: start, Length: uint32(length), Name: fs[2].text, Class: fs[3].text}
	if len(fs) == 5 {
		s.Bits = fs[4].text
	}
	p.m.Segments = append(p.m.Segments, s)
}

// linkGroup reads " 0002:0   DGROUP".
func (p *parser) linkGroup(l *line) {
	fs := l.fields
	if len(fs) != 2 {
		p.report(diag.Error, l.at(fs[0].col), CodeGroup, "group line: want ORIGIN NAME, got %d fields; line skipped", len(fs))
		return
	}
	a, e := parseAddr(fs[0].text)
	if e != nil {
		p.numDiag(l, fs[0], CodeGroup, "group origin", e)
		return
	}
	p.m.Groups = append(p.m.Groups, Group{Pos: l.at(fs[0].col), Origin: a, Name: fs[1].text})
}

// linkExport reads " 0001:00000000 emit                    emit".
func (p *parser) linkExport(l *line) {
	fs := l.fields
	if len(fs) < 2 || len(fs) > 3 {
		p.report(diag.Error, l.at(fs[0].col), CodeExport, "export line: want ADDRESS NAME [ALIAS], got %d fields; line skipped", len(fs))
		return
	}
	a, e := parseAddr(fs[0].text)
	if e != nil {
		p.numDiag(l, fs[0], CodeExport, "export address", e)
		return
	}
	x := Export{Pos: l.at(fs[0].col), Addr: a, Name: fs[1].text}
	if len(fs) == 3 {
		x.Alias = fs[2].text
	}
	p.m.Exports = append(p.m.Exports, x)
}

// linkPublic reads " 0001:00000DC0       malloc",
// " 0000:00000000  Imp  DosWrite             (DOSCALLS.282)" and
// " 0000:FE32  Abs  __acrtmsg".
func (p *parser) linkPublic(l *line) (Public, bool) {
	fs := l.fields
	a, e := parseAddr(fs[0].text)
	if e != nil {
		p.numDiag(l, fs[0], CodePublic, "public symbol address", e)
		return Public{}, false
	}
	pub := Public{Pos: l.at(fs[0].col), Addr: a}
	rest := fs[1:]
	if len(rest) >= 2 && (rest[0].text == "Imp" || rest[0].text == "Abs") {
		pub.Imp = rest[0].text == "Imp"
		pub.Abs = rest[0].text == "Abs"
		rest = rest[1:]
	}
	switch {
	case len(rest) == 0:
		p.report(diag.Error, l.at(fs[0].col+len(fs[0].text)), CodePublic, "public symbol line without a name; line skipped")
		return Public{}, false
	case len(rest) == 1:
		pub.Name = rest[0].text
	case pub.Imp:
		pub.Name = rest[0].text
		detail := l.rest(len(fs) - len(rest) + 1)
		if imp, ok := parseImportDetail(detail); ok {
			imp.Pos = pub.Pos
			imp.Name = pub.Name
			pub.Import = &imp
		} else {
			p.report(diag.Warning, l.at(rest[1].col), CodeImport, "import detail %q: want (MODULE.ENTRY); symbol kept without it", detail)
		}
	default:
		p.report(diag.Error, l.at(rest[1].col), CodePublic, "public symbol line: unexpected text %q after the name; line skipped", l.rest(len(fs)-len(rest)+1))
		return Public{}, false
	}
	return pub, true
}

// parseImportDetail reads "(DOSCALLS.282)" or "(some.SOMTEmitCClassData)".
func parseImportDetail(s string) (Import, bool) {
	if len(s) < 2 || s[0] != '(' || s[len(s)-1] != ')' {
		return Import{}, false
	}
	s = s[1 : len(s)-1]
	i := strings.IndexByte(s, '.')
	if i <= 0 || i == len(s)-1 || strings.ContainsAny(s, " \t") {
		return Import{}, false
	}
	imp := Import{Module: s[:i], Entry: s[i+1:]}
	if n, err := strconv.ParseUint(imp.Entry, 10, 16); err == nil {
		imp.Ordinal = int(n)
	}
	return imp, true
}

// isLineNumberLine reports whether l is a row of a LINK line-number table:
// pairs of a decimal line number and an address.
func isLineNumberLine(l *line) bool {
	if len(l.fields)%2 != 0 {
		return false
	}
	for i := 0; i < len(l.fields); i += 2 {
		if _, err := strconv.ParseUint(l.fields[i].text, 10, 32); err != nil || !isAddr(l.fields[i+1].text) {
			return false
		}
	}
	return true
}

// collectImports makes the import list from the Imp lines, one per name
// (LINK lists each import in both publics tables).
func (p *parser) collectImports() {
	seen := map[string]bool{}
	for _, list := range [][]Public{p.m.PublicsByName, p.m.PublicsByValue} {
		for _, pub := range list {
			if pub.Import == nil || seen[pub.Name] {
				continue
			}
			seen[pub.Name] = true
			p.m.Imports = append(p.m.Imports, *pub.Import)
		}
	}
}

// trcustNames returns the lines TRCUST 3.05A takes for symbols, in file
// order, whatever the map's flavour (IBM's behaviour, tried with its binary
// on MAP files written for it and on the devcon12 maps): it reads every
// line as C's sscanf reads "%x:%x %s" (trcustName), in any section and
// before the first, and keeps the name unless it starts with a digit or
// its object is 0. So a group line (" 0002:0   DGROUP") names a symbol, an
// export line its exported name but not its alias, an import or absolute
// line the word "Imp" or "Abs", "0001:0000043G x" the name "G" at 1:43,
// a wlink line "0001:000000a0+ f_" the name "+"; a segment line
// ("0001:00000000 000004410H CODE32") names none. byValue is the index in
// out of the first line after the first "Publics by Value" title, -1 when
// there is none (Map.ByValue).
func trcustNames(lines []line) (out []Public, byValue int) {
	byValue = -1
	for i := range lines {
		l := &lines[i]
		if byValue < 0 && strings.Contains(l.text, "Publics by Value") {
			byValue = len(out)
			continue
		}
		a, name, col, ok := trcustName(l.text)
		if !ok || a.Seg == 0 || !SymbolName(name) {
			continue
		}
		out = append(out, Public{Addr: a, Name: name, Pos: l.at(col)})
	}
	return out, byValue
}

// SymbolName reports whether TRCUST 3.05A takes name, read from a line of
// a MAP file, for a symbol: unless it starts with a digit (trcustNames;
// the .TMI's table skips such lines too, package lower/tmigen).
func SymbolName(name string) bool { return name != "" && !('0' <= name[0] && name[0] <= '9') }

// trcustName reads a line as sscanf(line, "%x:%x %s") does: blanks (the
// line has no LF: isBlank is C's isspace here), a hex
// number (an optional 0x, at least one digit), ':', blanks, a hex number,
// blanks, and a word up to the next blank. It returns the address (the
// segment's low 16 bits, the offset's low 32), the word and its column.
func trcustName(s string) (a Addr, name string, col int, ok bool) {
	i := 0
	hex := func() (uint64, bool) {
		for i < len(s) && isBlank(s[i]) {
			i++
		}
		if i+2 < len(s) && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X') && isHexDigit(s[i+2]) {
			i += 2
		}
		start := i
		var v uint64
		for i < len(s) && isHexDigit(s[i]) {
			v = v<<4 | uint64(hexDigit(s[i]))
			i++
		}
		return v, i > start
	}
	seg, ok := hex()
	if !ok || i == len(s) || s[i] != ':' {
		return Addr{}, "", 0, false
	}
	i++
	off, ok := hex()
	if !ok {
		return Addr{}, "", 0, false
	}
	for i < len(s) && isBlank(s[i]) {
		i++
	}
	start := i
	for i < len(s) && !isBlank(s[i]) {
		i++
	}
	if i == start {
		return Addr{}, "", 0, false
	}
	return Addr{Seg: uint16(seg), Off: uint32(off)}, s[start:i], start + 1, true
}
