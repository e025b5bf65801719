package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestCommandLine checks what no oracle case shows: no TSF named, an
// unknown switch (upper-cased in the message, as TRCUST does), a TSF named
// without its extension, switches in any case; no arguments: the usage.
func TestCommandLine(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "x.TSF"), []byte("MAJOR = 0x30\r\nTRACE MINOR=1, TP=@STATIC, DESC=\"d\"\r\n"), 0o644)
	t.Chdir(dir)
	for _, tc := range []struct {
		args   []string
		status int
		out    string
	}{
		{nil, 0, "\r\nTrcust Version 3.05A\r\n" + usage},
		{[]string{"/W1"}, 1, "\r\nTrcust Version 3.05A\r\nTRCUST(1) FATAL: TSF file not specified\r\n"},
		{[]string{"x", "/q"}, 0, "\r\nTrcust Version 3.05A\r\nTRCUST(1) ERROR: invalid parameter: '/Q', ignored\r\n\r\nUsing source file: .\\x.TSF\r\nCreating TFF file: .\\TRC0030.TFF \t # records = 1\r\n"},
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

// TestSearchRange checks /RSnnn as TRCUST 3.05A reads it (each value tried
// with IBM's binary through the oracle runner).
func TestSearchRange(t *testing.T) {
	// whole: a number TRCUST keeps as the range, refused (ok false) or not.
	for _, tc := range []struct {
		s         string
		n         int
		whole, ok bool
	}{
		{"", 0, true, true}, {"0", 0, true, true}, {"256", 256, true, true}, {"257", 256, true, false}, {"999", 256, true, false},
		{"65535", 256, true, false}, {"65536", 0, true, true}, {"65792", 256, true, true}, {"70000", 256, true, false},
		{"0X10", 16, true, true}, {"0X", 0, true, true}, {"08", 8, true, true}, {"010", 10, true, true}, {"011", 11, true, true},
		{"0010", 10, true, true}, {"0x1FF", 256, true, false},
		{"5X", 0, false, false}, {"0A", 0, false, false}, {"00X5", 0, false, false}, {"+5", 0, false, false}, {"-1", 0, false, false},
		{"ABC", 0, false, false}, {"4294967296", 0, false, false}, {"2147483648", 0, false, false},
	} {
		n, whole, ok := searchRange(tc.s)
		if whole != tc.whole || ok != tc.ok || whole && n != tc.n {
			t.Errorf("/RS%s: %d %v %v, want %d %v %v", tc.s, n, whole, ok, tc.n, tc.whole, tc.ok)
		}
	}
}
