package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestCommandLine checks what no oracle case shows: no TSF named, an
// unknown switch, a TSF named without its extension, switches in any case.
func TestCommandLine(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "x.TSF"), []byte("MAJOR = 0x30\r\nTRACE MINOR=1, TP=@STATIC, DESC=\"d\"\r\n"), 0o644)
	t.Chdir(dir)
	for _, tc := range []struct {
		args   []string
		status int
		out    string
	}{
		{nil, 1, "\r\nTrcust Version 3.05A\r\nTRCUST(1) FATAL: TSF file not specified\r\n"},
		{[]string{"x", "/q"}, 0, "\r\nTrcust Version 3.05A\r\nTRCUST(1) ERROR: invalid parameter: '/q', ignored\r\n\r\nUsing source file: .\\x.TSF\r\nCreating TFF file: .\\TRC0030.TFF \t # records = 1\r\n"},
		{[]string{"x.TSF", "/w0", "/q"}, 0, "\r\nTrcust Version 3.05A\r\n\r\nUsing source file: .\\x.TSF\r\nCreating TFF file: .\\TRC0030.TFF \t # records = 1\r\n"},
	} {
		var out, errb bytes.Buffer
		status := run(tc.args, &out, &errb)
		if status != tc.status || out.String() != tc.out {
			t.Errorf("%v: status %d\n%q\nwant %d\n%q", tc.args, status, out.String(), tc.status, tc.out)
		}
		if want := status == 1; want != (errb.Len() > 0) {
			t.Errorf("%v: stderr %q", tc.args, errb.String())
		}
	}
}
