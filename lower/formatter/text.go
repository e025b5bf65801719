package formatter

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/tracekit/tracekit/ast/diag"
	"github.com/tracekit/tracekit/binfmt/stda"
)

// Indent starts every formatted line of a text block.
const Indent = "    "

// BlockHeader returns the first line of a record's text block:
//
//	#INDEX  @OFFSET  TIME  pid PPPP  flags FF NAMES  major MM  minor NNNN
//
// INDEX is the record's number (oldest first, from 0), OFFSET its offset
// in the STDA (4 hex digits), TIME its time stamp ("hh:mm:ss.hh" new
// format, "ss.hh" old format, "-" none), PPPP the process ID in hex
// followed by " (interrupt)" when it is 0, FF the flag byte in hex and
// NAMES its bits spelled out by stda.FlagString; MM and NNNN are the major
// and minor codes in hex.
func BlockHeader(index int, rec *stda.Record) string {
	pid := fmt.Sprintf("%04X", rec.PID)
	if rec.PID == 0 {
		pid += " (interrupt)"
	}
	return fmt.Sprintf("#%d  @%04X  %s  pid %s  flags %02X %s  major %02X  minor %04X",
		index, rec.Offset, rec.Time, pid, rec.Flags, stda.FlagString(rec.Flags), rec.Major, rec.Minor)
}

// WriteBlock writes one record's text block: the BlockHeader line, then
// each line of res indented by Indent (a line holding LF is cut there and
// each piece indented), then an empty line.
func WriteBlock(w io.Writer, index int, rec *stda.Record, res *Result) error {
	var sb strings.Builder
	sb.WriteString(BlockHeader(index, rec))
	sb.WriteByte('\n')
	for _, ln := range res.Lines {
		for _, piece := range strings.Split(ln, "\n") {
			sb.WriteString(Indent)
			sb.WriteString(strings.TrimSuffix(piece, "\r"))
			sb.WriteByte('\n')
		}
	}
	sb.WriteByte('\n')
	_, err := io.WriteString(w, sb.String())
	return err
}

// WriteText formats every record with FormatRecord and writes its block,
// oldest first. It returns the diagnostics of all records, in order, and
// the first write error.
func WriteText(w io.Writer, recs []stda.Record, fs Formats) (diag.List, error) {
	bw := bufio.NewWriter(w)
	var diags diag.List
	var fm Formatter
	var buf []byte
	for i := range recs {
		var ds diag.List
		buf, ds = fm.AppendBlock(buf[:0], i, &recs[i], fs)
		diags = append(diags, ds...)
		if _, err := bw.Write(buf); err != nil {
			return diags, err
		}
	}
	return diags, bw.Flush()
}
