package mapfile

import (
	"path"
	"strings"

	"github.com/tracekit/tracekit/ast/diag"
)

// boxTitle recognises a wlink section title line, "|   Memory Map   |",
// and returns the title.
func boxTitle(s string) (string, bool) {
	t := strings.TrimSpace(s)
	if len(t) < 3 || t[0] != '|' || t[len(t)-1] != '|' {
		return "", false
	}
	title := strings.TrimSpace(t[1 : len(t)-1])
	return title, title != ""
}

// isRule reports whether s is made only of the characters in set and
// blanks, with at least one of set: box borders "+-----+" and column
// underlines "=====   =======".
func isRule(s string, set string) bool {
	n := 0
	for i := 0; i < len(s); i++ {
		switch {
		case isBlank(s[i]):
		case strings.IndexByte(set, s[i]) >= 0:
			n++
		default:
			return false
		}
	}
	return n > 0
}

// parseWatcom parses an Open Watcom wlink map.
func (p *parser) parseWatcom() {
	title := ""
	module := "" // the current "Module:" of the memory map
	for i := range p.lines {
		l := &p.lines[i]
		if len(l.fields) == 0 || isRule(l.text, "+-") || isRule(l.text, "=") {
			continue
		}
		if t, ok := boxTitle(l.text); ok {
			title = t
			module = ""
			continue
		}
		// A column header is the line just above an "=====" underline.
		if i+1 < len(p.lines) && isRule(p.lines[i+1].text, "=") {
			continue
		}
		switch title {
		case "":
			p.watcomBanner(l)
		case "Groups":
			p.watcomGroup(l)
		case "Segments":
			p.watcomSegment(l)
		case "Memory Map":
			module = p.watcomSymbol(l, module)
		case "Imported Symbols":
			p.watcomImport(l)
		case "Libraries Used":
			p.m.Libraries = append(p.m.Libraries, l.rest(0))
		case "Linker Statistics":
			if l.hasPrefixWords("Entry", "point", "address:") {
				p.entry(l, "Entry point address: SEG:OFF")
			}
		default:
			// Sections tracekit does not use are skipped.
		}
	}
}

// watcomBanner takes the image name and target from the lines before the
// first box. Other banner lines (version, copyright, date) are ignored.
func (p *parser) watcomBanner(l *line) {
	switch {
	case l.hasPrefixWords("Executable", "Image:") && len(l.fields) > 2:
		p.m.Image = l.rest(2)
		base := path.Base(strings.ReplaceAll(p.m.Image, `\`, "/"))
		if i := strings.LastIndexByte(base, '.'); i > 0 {
			base = base[:i]
		}
		p.m.Module = base
		p.m.ModulePos = l.at(l.fields[2].col)
	case l.fields[0].text == "creating":
		p.m.Target = l.rest(0)
	}
}

// watcomGroup reads "DGROUP    0002:00000000    00000358".
func (p *parser) watcomGroup(l *line) {
	fs := l.fields
	if len(fs) != 3 {
		p.report(diag.Error, l.at(fs[0].col), CodeGroup, "group line: want NAME ADDRESS SIZE, got %d fields; line skipped", len(fs))
		return
	}
	a, e := parseAddr(fs[1].text)
	if e != nil {
		p.numDiag(l, fs[1], CodeGroup, "group address", e)
		return
	}
	size, e := parseHex(fs[2].text, 32)
	if e != nil {
		p.numDiag(l, fs[2], CodeGroup, "group size", e)
		return
	}
	p.m.Groups = append(p.m.Groups, Group{Pos: l.at(fs[0].col), Origin: a, Name: fs[0].text, Size: uint32(size)})
}

// watcomSegment reads "_TEXT   CODE   AUTO   0001:00000010   000001e3".
func (p *parser) watcomSegment(l *line) {
	fs := l.fields
	if len(fs) != 5 {
		p.report(diag.Error, l.at(fs[0].col), CodeSegment, "segment line: want NAME CLASS GROUP ADDRESS SIZE, got %d fields; line skipped", len(fs))
		return
	}
	a, e := parseAddr(fs[3].text)
	if e != nil {
		p.numDiag(l, fs[3], CodeSegment, "segment address", e)
		return
	}
	size, e := parseHex(fs[4].text, 32)
	if e != nil {
		p.numDiag(l, fs[4], CodeSegment, "segment size", e)
		return
	}
	p.m.Segments = append(p.m.Segments, Segment{Pos: l.at(fs[0].col), Start: a, Length: uint32(size),
		Name: fs[0].text, Class: fs[1].text, Group: fs[2].text})
}

// watcomSymbol reads a memory map line: "Module: file.obj(src.c)", a
// legend line "* = unreferenced symbol", or "0001:000000a0+ name". It
// returns the current module.
func (p *parser) watcomSymbol(l *line, module string) string {
	fs := l.fields
	if fs[0].text == "Module:" {
		if len(fs) < 2 {
			p.report(diag.Error, l.at(fs[0].col), CodeModule, "\"Module:\" line without a module name")
			return ""
		}
		return l.rest(1)
	}
	if len(fs) >= 2 && len(fs[0].text) == 1 && fs[1].text == "=" {
		return module // legend
	}
	addr := fs[0].text
	var ref byte
	if n := len(addr); n > 0 && isMark(addr[n-1]) {
		ref, addr = addr[n-1], addr[:n-1]
	}
	a, e := parseAddr(addr)
	if e != nil {
		p.numDiag(l, fs[0], CodeMemoryMap, "memory map symbol address", e)
		return module
	}
	if ref != 0 && ref != '*' && ref != '+' {
		p.report(diag.Error, l.at(fs[0].col+len(addr)), CodeMemoryMap, "memory map symbol: unknown mark %q after the address; line skipped", ref)
		return module
	}
	if len(fs) < 2 {
		p.report(diag.Error, l.at(fs[0].col+len(fs[0].text)), CodeMemoryMap, "memory map symbol line without a name; line skipped")
		return module
	}
	p.m.MemoryMap = append(p.m.MemoryMap, Public{Pos: l.at(fs[0].col), Addr: a, Name: l.rest(1), Module: module, Ref: ref})
	return module
}

// watcomImport reads "DosWrite     DOSCALLS.282" (or a module without an
// entry).
func (p *parser) watcomImport(l *line) {
	fs := l.fields
	if len(fs) != 2 {
		p.report(diag.Error, l.at(fs[0].col), CodeImported, "imported symbol line: want SYMBOL MODULE, got %d fields; line skipped", len(fs))
		return
	}
	imp := Import{Pos: l.at(fs[0].col), Name: fs[0].text, Module: fs[1].text}
	if i := strings.IndexByte(fs[1].text, '.'); i >= 0 {
		if d, ok := parseImportDetail("(" + fs[1].text + ")"); ok {
			imp.Module, imp.Entry, imp.Ordinal = d.Module, d.Entry, d.Ordinal
		} else {
			p.report(diag.Error, l.at(fs[1].col), CodeImported, "imported symbol module %q: want MODULE or MODULE.ENTRY; line skipped", fs[1].text)
			return
		}
	}
	p.m.Imports = append(p.m.Imports, imp)
}

// isMark reports whether c may be a reference mark after a memory map
// address: punctuation, not a letter, digit or colon.
func isMark(c byte) bool {
	return c > ' ' && c < 0x7F && c != ':' && !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z')
}
