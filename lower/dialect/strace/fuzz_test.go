package strace_test

import (
	"testing"

	"github.com/tracekit/tracekit/lower/dialect"
	"github.com/tracekit/tracekit/lower/dialect/dialecttest"
	"github.com/tracekit/tracekit/lower/record/recordtest"
)

func dialectOpts() dialect.Options { return dialect.Options{Dialect: "strace"} }

// FuzzLower: every line of any input ends up in exactly one record (a
// paired record holds its second half, a call its -k frames and hex dump
// lines, a summary row the table's header and rules before it; strace's
// message written into a call's line is a record of its own, inline) or is
// skipped,
// and every record is valid.
func FuzzLower(f *testing.F) {
	f.Add([]byte("[pid 1] 10:00:00.000001 read(3,  <unfinished ...>\n[pid 2] 10:00:00.000002 close(4) = 0 <0.000001>\n > /lib/libc.so.6(close+0x1) [0x1]\n[pid 1] 10:00:00.000003 <... read resumed>\"ab\"..., 2) = 2\n"), false)
	f.Add([]byte("[pid 1] 10:00:00.000001 read(3,  <unfinished ...>\n[pid 2] 10:00:00.000002 close(4) = 0 <0.000001>\n > /lib/libc.so.6(close+0x1) [0x1]\n[pid 1] 10:00:00.000003 <... read resumed>\"ab\"..., 2) = 2\n"), true)
	f.Add([]byte("1 1700000000.1 open(\"/x\", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)\n1 1700000000.2 --- SIGCHLD {si_signo=SIGCHLD} ---\n1 1700000000.3 +++ killed by SIGKILL +++\nstrace: Process 1 detached\n"), false)
	f.Add([]byte("wait4(-1, [{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL) = 5\nfoo(~[RT_1], 3<TCP:[1:2->3:4]>, {a=b, ...}, [1 => 2]) = ? <unavailable>\n"), false)
	f.Add([]byte("% time     seconds  usecs/call     calls    errors syscall\n------ ----------- ----------- --------- --------- ----------------\n 61.14    0.017405        4351         4           clock_nanosleep\n------ ----------- ----------- --------- --------- ----------------\n100.00    0.028467         168       169         4 total\n"), false)
	f.Add([]byte("read(3, \"x\", 1) = 1\n | 00000  78  x |\nclone3({flags=CLONE_THREAD}strace: Process 5 attached\n => {parent_tid=[5]}, 88) = 5\n[pid 5<w>] [  59] wait4(1, <unfinished ...>\n[{WIFEXITED(s)}], 0) = 1\n--- {si_signo=SIGCHLD} (Child exited) ---\n"), false)
	v := recordtest.NewValidator(f)
	f.Fuzz(func(t *testing.T, data []byte, noPair bool) {
		res := dialecttest.CheckRun(t, v, "strace", dialect.Options{NoPair: noPair}, data)
		lines := res.Summary.Skipped
		for _, r := range res.Records {
			lines++
			attrs, _ := r["attrs"].(map[string]any)
			if attrs["exit_line"] != nil {
				lines++
			}
			if s, ok := attrs["stack"].([]any); ok {
				lines += int64(len(s))
			}
			if s, ok := attrs["dump"].([]any); ok {
				lines += int64(len(s))
			}
			if s, ok := attrs["table_lines"].([]any); ok {
				lines += int64(len(s))
			}
			if attrs["inline"] == true {
				lines-- // strace's message on the line of a call
			}
			if s, ok := attrs["resumed_lines"].([]any); ok {
				lines += int64(len(s))
			}
		}
		if n := int64(dialecttest.NonBlank(data)); lines != n {
			t.Fatalf("%d lines accounted for, %d in the input", lines, n)
		}
	})
}
