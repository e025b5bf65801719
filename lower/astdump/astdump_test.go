package astdump

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast/golden"
)

// TestDumpAST compares the syntax-tree dumps of a few lines of each dialect
// with golden files.
func TestDumpAST(t *testing.T) {
	cases := []struct{ dialect, name, input string }{
		{"os2strace", "os2strace", " 104   13   4b 9450:1545343593 0 00000001 00000004 fff05d1c fff405a3\n 102 13 29 9450 1 0\n"},
		{"", "os2mte", "0002 00020000 00004000 0000000d fb1e0828 E:\\OS2\\EPWMP.EXE\n"},
		{"winstrace", "winstrace", "> 1 * 100 200 NtOpenFile[3](???, {Length=24, Name=\"\\\\??\\\\C:\\\\a\"}, <0|???>)\n< 1 100 200 NtOpenFile[3](0x7c, ???, <???|-1>) == STATUS_SUCCESS\n"},
		{"prf", "prf", "PRF: Rec Process: 1 Thread: 0x1\nEvent: 0x8000 Time: 2000/02/12 13:43:44 363/200/000\nINT: a OPR: b\nOffset    +0 +1 +2 +3 +4 +5 +6 +7 +8 +9 +a +b +c +d +e +f  0123456789abcdef\n00000000  41 42                                            AB\n"},
		{"prfcsv", "prfcsv", "PRF,Process,Event\nRec,1,0x8000\n"},
		{"strace", "strace", "[pid 7] 10:00:00.000001 openat(AT_FDCWD</h>, \"/x\"..., O_RDONLY|O_CLOEXEC, [1 => 2]) = -1 ENOENT (No such file or directory) <0.000010>\n > /lib/libc.so.6(open+0x1) [0x1]\n--- SIGCHLD {si_signo=SIGCHLD, si_status=~[1 2]} ---\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			err := Dump(c.dialect, c.name+".txt", strings.NewReader(c.input), &out)
			if (err != nil) != (c.name == "os2strace") {
				t.Errorf("err = %v", err)
			}
			golden.Check(t, filepath.Join("testdata", "ast", c.name+".txt"), out.Bytes())
		})
	}
	if err := Dump("nosuch", "x", strings.NewReader(""), io.Discard); err == nil {
		t.Error("no error for an unknown dialect")
	}
}

// TestDumpTSF: a TSF prints as one tree, its diagnostics as comments
// before it, and an error among them is returned.
func TestDumpTSF(t *testing.T) {
	var out bytes.Buffer
	err := Dump(TSF, "t.tsf", strings.NewReader("MODNAME = a.dll\nTRACE MINOR=1, TP=@STATIC, DESC=\"d\", FOO\n"), &out)
	if err == nil || !strings.HasPrefix(out.String(), "// t.tsf:2:38: error: unexpected: FOO, ignored [TRC066]\n&tsf.File{") {
		t.Errorf("%v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "&tsf.ModName{") {
		t.Errorf("no MODNAME node:\n%s", out.String())
	}
}
