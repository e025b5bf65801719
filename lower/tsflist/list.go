// Package tsflist reads trace format files and trace definition files back
// into Trace Source Files, as IBM's TFFLST and TDFLST did: TFF builds the
// TSF a TFF was compiled from, TDF the TSF a TDF was compiled from, with
// the data statements its RPN programs were assembled from (Decompile).
// The results are ast/tsf syntax trees, printed with tsf.Fprint; compiling
// the printed text gives the same bytes back (the tests check every oracle
// file).
//
// binfmt/tff and binfmt/tdf read and write the bytes; this package is the
// semantic step from bytes to TSF, as go/printer and x/mod/modfile keep
// printing apart from the data they print.
package tsflist

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/tracekit/tracekit/ast/tsf"
	"github.com/tracekit/tracekit/binfmt/tdf"
	"github.com/tracekit/tracekit/binfmt/tff"
)

// TFF returns the TSF listing of a trace format file: a comment, MAJOR,
// and one @STATIC TRACE statement a record with its MINOR, DESC and FMT
// lines (TRCUST writes no MODNAME or address into a TFF; @STATIC compiles
// to the same TFF record as any tracepoint). It fails, writing nothing,
// when the file holds what no TSF can give:
//
//   - major 0 (TRCUST reads MAJOR = 0 as 1), minor 0 (TRCUST rejects it), or
//     a minor used twice;
//   - a DESC or FMT value that no quoted string has (tsf.Quote);
//   - an FMT line with stored controls that no TSF text encodes to
//     (tff.DecodeFMT then tff.EncodeFMT does not give it back).
func TFF(f *tff.File) (*tsf.File, error) {
	if f.Major == 0 {
		return nil, errors.New("tff: major code 0 cannot be written as TSF: TRCUST reads MAJOR = 0 as 1")
	}
	out := &tsf.File{Stmts: []tsf.Stmt{
		&tsf.Comment{Text: fmt.Sprintf("TSF listing of a trace format file: major 0x%04X, %d records", f.Major, len(f.Records))},
		&tsf.Major{Value: hex4(uint64(f.Major))},
	}}
	seen := make(map[uint16]bool, len(f.Records))
	for _, r := range f.Records {
		if r.Minor == 0 {
			return nil, errors.New("tff: minor code 0 cannot be written as TSF: TRCUST rejects MINOR=0")
		}
		if seen[r.Minor] {
			return nil, fmt.Errorf("tff: minor 0x%04X is used twice", r.Minor)
		}
		seen[r.Minor] = true
		desc, err := str(r.Desc)
		if err != nil {
			return nil, fmt.Errorf("tff: minor 0x%04X: DESC %w", r.Minor, err)
		}
		t := &tsf.Trace{Fields: []tsf.Field{
			&tsf.Minor{Value: hex4(uint64(r.Minor))},
			&tsf.TP{Target: &tsf.StaticTP{}},
			&tsf.Desc{Text: desc},
		}}
		for i, l := range r.Fmts {
			text := tff.DecodeFMT(l)
			if !bytes.Equal(tff.EncodeFMT([]byte(text)), l) {
				return nil, fmt.Errorf("tff: minor 0x%04X: FMT %d %q has stored controls that no TSF text gives", r.Minor, i+1, l)
			}
			s, err := str([]byte(text))
			if err != nil {
				return nil, fmt.Errorf("tff: minor 0x%04X: FMT %d %w", r.Minor, i+1, err)
			}
			t.Fields = append(t.Fields, &tsf.Fmt{Text: s})
		}
		out.Stmts = append(out.Stmts, t)
	}
	return out, nil
}

// TDF returns the TSF listing of a trace definition file: the header
// statements, and one TRACE statement a record with MINOR, TP (named
// through n when it has a name for the address, else a placeholder
// objN_OOOOOOOO; a comment gives the address as object:offset), OPCODE (the
// original byte, so that TRCUST checks the module has not changed), TYPE,
// GROUP, and the data statements Decompile reads from the program.
//
// What a TDF does not hold cannot be listed, and comments say so:
//
//   - DESC and FMT are in the TFF.
//   - Whether the TP was written as @file,line or with RETEP, and what
//     offset from a symbol: only the address the TP resolved to is stored.
//   - TYPE bits and a GROUP id that no list entry names have no spelling.
//   - An RPN program that Decompile cannot read to its end is listed as far
//     as it can, and a comment gives the rest as bytes.
//   - MINOR 0, a minor used twice (TRCUST needs /D) and MAXDATALENGTH
//     values outside 20-4099 are what TRCUST would not accept as they
//     stand.
func TDF(f *tdf.File, n Namer) (*tsf.File, error) {
	out := &tsf.File{}
	add := func(s tsf.Stmt) { out.Stmts = append(out.Stmts, s) }
	comment := func(format string, args ...any) { add(&tsf.Comment{Text: fmt.Sprintf(format, args...)}) }
	comment("TSF listing of a trace definition file: module %s, major 0x%04X, %d tracepoints", f.ModName, f.Major, len(f.Tracepoints))
	add(&tsf.ModName{Path: word(f.ModName)})
	add(&tsf.Major{Value: hex4(uint64(f.Major))})
	if f.MaxDataLength < 20 || f.MaxDataLength > 4099 {
		comment("MAXDATALENGTH %d is outside 20-4099: TRCUST would use 512", f.MaxDataLength)
	}
	add(&tsf.MaxDataLength{Value: decimal(uint64(f.MaxDataLength))})
	if f.TDFID != 0 {
		add(&tsf.TDFID{Value: decimal(uint64(f.TDFID))})
	}
	if l := listEntries(f.Types); l != nil {
		add(&tsf.TypeList{Entries: l})
	}
	if l := listEntries(f.Groups); l != nil {
		add(&tsf.GroupList{Entries: l})
	}
	minors := map[uint16]int{}
	for _, tp := range f.Tracepoints {
		minors[tp.Minor]++
	}
	for _, tp := range f.Tracepoints {
		comment("TP=%08X:%08X (object:offset), original opcode 0x%02X", tp.Object, tp.Offset, tp.Opcode)
		if tp.Minor == 0 {
			comment("MINOR 0 is out of range for TRCUST")
		}
		if minors[tp.Minor] > 1 {
			comment("minor 0x%04X is used by %d tracepoints: TRCUST accepts that only with /D", tp.Minor, minors[tp.Minor])
		}
		if tp.Major != f.Major {
			comment("the record has major 0x%04X, the file 0x%04X", tp.Major, f.Major)
		}
		d := &decompiler{n: n}
		t := &tsf.Trace{Fields: []tsf.Field{
			&tsf.Minor{Value: hex4(uint64(tp.Minor))},
			&tsf.TP{Target: d.target(tp.Object, tp.Offset)},
			&tsf.Opcode{Value: hex2(uint64(tp.Opcode))},
		}}
		var notes []string
		if tp.TypeMask != 0 {
			ty := &tsf.Type{}
			rest := tp.TypeMask
			for _, it := range f.Types {
				if it.ID != 0 && tp.TypeMask&it.ID == it.ID && rest&it.ID != 0 {
					ty.Names = append(ty.Names, word(it.Name))
					rest &^= it.ID
				}
			}
			if len(ty.Names) > 0 {
				t.Fields = append(t.Fields, ty)
			}
			if rest != 0 {
				notes = append(notes, fmt.Sprintf("type mask bits 0x%04X have no TYPELIST name", rest))
			}
		}
		if tp.Group != 0 {
			name := ""
			for _, it := range f.Groups {
				if it.ID == tp.Group {
					name = it.Name
					break
				}
			}
			if name != "" {
				t.Fields = append(t.Fields, &tsf.Group{Name: word(name)})
			} else {
				notes = append(notes, fmt.Sprintf("group 0x%04X has no GROUPLIST name", tp.Group))
			}
		}
		stmts, err := Decompile(tp.RPN, n)
		for _, s := range stmts {
			t.Fields = append(t.Fields, s.Field)
		}
		if err != nil {
			off := 0
			if e, ok := err.(*tdf.FormatError); ok {
				off = int(e.Off)
			}
			notes = append(notes, fmt.Sprintf("RPN bytes from +%d not reconstructed (%v): % X", off, err, tp.RPN[min(off, len(tp.RPN)):]))
		}
		for _, nt := range notes {
			comment("%s", nt)
		}
		add(t)
	}
	return out, nil
}

// Write prints a listing (TFF or TDF) to w with tsf.Fprint.
func Write(w io.Writer, f *tsf.File, err error) error {
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := tsf.Fprint(&b, f); err != nil {
		return err
	}
	_, err = w.Write(b.Bytes())
	return err
}

// target is the TP of a listed tracepoint: its symbol, or the placeholder.
func (d *decompiler) target(obj, off uint32) *tsf.SymbolTP {
	a := d.symbol(obj, off, true)
	t := &tsf.SymbolTP{Name: a.Name}
	if len(a.Disps) > 0 {
		t.Offsets = a.Disps[:1]
	}
	return t
}

func listEntries(l []tdf.ListItem) []*tsf.ListEntry {
	var out []*tsf.ListEntry
	for _, it := range l {
		out = append(out, &tsf.ListEntry{Name: word(it.Name), ID: hex4(uint64(it.ID))})
	}
	return out
}

// str is the quoted string whose value is v.
func str(v []byte) (*tsf.String, error) {
	raw, err := tsf.Quote(v)
	if err != nil {
		return nil, err
	}
	return &tsf.String{Raw: raw, Value: string(v)}, nil
}
