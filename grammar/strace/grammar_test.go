package strace

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	sast "github.com/tracekit/tracekit/ast/strace"
)

var base = ast.Pos{File: "t.strace", Offset: 500, Line: 3, Col: 1}

// show renders a value compactly for the table tests.
func show(v sast.Value) string {
	switch v := v.(type) {
	case *sast.Int:
		s := strconv.FormatUint(v.Mag, 10)
		if v.Neg {
			s = "-" + s
		}
		return "i" + s
	case *sast.Float:
		return "f" + v.Text
	case *sast.String:
		s := "s" + strconv.Quote(v.Value)
		if v.Truncated {
			s += "..."
		}
		return s
	case *sast.Ident:
		return "y" + v.Name
	case *sast.Struct:
		return "{" + showArgs(v.Members) + "}"
	case *sast.Array:
		return "[" + showArgs(v.Items) + "]"
	case *sast.Op:
		var parts []string
		for i, o := range v.Operands {
			p := show(o)
			if v.Comments != nil && v.Comments[i] != "" {
				p += "/*" + v.Comments[i] + "*/"
			}
			parts = append(parts, p)
		}
		return "(" + v.Op + " " + strings.Join(parts, " ") + ")"
	case *sast.FuncCall:
		return v.Name + "(" + showArgs(v.Args) + ")"
	case *sast.FD:
		s := "fd:" + show(v.FD) + "<" + v.Decor + ">"
		if v.Path != v.Decor {
			s += "=" + strconv.Quote(v.Path)
		}
		if v.Deleted {
			s += "(deleted)"
		}
		if v.Comment != "" {
			s += "/*" + v.Comment + "*/"
		}
		return s
	case *sast.Elided:
		return "..."
	case *sast.Resuming:
		return "resuming:" + v.Text
	}
	return "!"
}

func showArgs(as []*sast.Arg) string {
	var parts []string
	for _, a := range as {
		p := show(a.Value)
		if a.Label != nil {
			p = a.Label.Name + "=" + p
		}
		if a.Comment != "" {
			p += "/*" + a.Comment + "*/"
		}
		if a.Adjacent {
			p = "_" + p
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ",")
}

func showResult(r *sast.Result) string {
	if r == nil {
		return ""
	}
	s := " = ?"
	if r.Value != nil {
		s = " = " + show(r.Value)
	}
	if r.Errno != nil {
		s += " " + r.Errno.Name
	}
	for _, n := range r.Notes {
		s += " (" + n.Text + ")"
	}
	if r.Unavailable {
		s += " unavailable"
	}
	if r.Dur != nil {
		s += " dur=" + strconv.FormatInt(r.Dur.Ns, 10)
	}
	return s
}

func showLine(l *sast.Line) string {
	s := ""
	switch l.PIDForm {
	case sast.BracketPID:
		s += "[" + strconv.FormatUint(l.PID, 10) + "] "
	case sast.ColumnPID:
		s += strconv.FormatUint(l.PID, 10) + " "
	}
	if l.Time != nil {
		s += "t" + strconv.FormatInt(l.Time.Ns, 10) + " "
	}
	if l.Comm != "" {
		s += "<" + l.Comm + "> "
	}
	if l.HasNr {
		s += "nr" + strconv.FormatUint(l.Nr, 10) + " "
	}
	if l.IP != "" {
		s += "ip" + l.IP + " "
	}
	switch b := l.Body.(type) {
	case *sast.Call:
		s += b.Name.Name + "(" + showArgs(b.Args) + ")"
		if b.Unfinished {
			s += " unfinished"
		}
		if b.Detached {
			s += " detached"
		}
		if b.Undecoded {
			s += " undecoded"
		}
		s += showResult(b.Result)
	case *sast.Continued:
		s += "continued (" + showArgs(b.Args) + ")"
		if b.Unfinished {
			s += " unfinished"
		}
		if b.Undecoded {
			s += " undecoded"
		}
		s += showResult(b.Result)
	case *sast.Dump:
		s += "dump " + strconv.Quote(b.Text)
	case *sast.Table:
		s += fmt.Sprintf("table %#v", b.Kind)
		for _, w := range b.Words {
			s += " " + strconv.Itoa(w.Col) + ":" + w.Text
		}
	case *sast.Resumed:
		s += "resumed " + b.Name.Name + "(" + showArgs(b.Args) + ")"
		if b.Unfinished {
			s += " unfinished"
		}
		if b.Undecoded {
			s += " undecoded"
		}
		s += showResult(b.Result)
	case *sast.Signal:
		s += "signal " + b.Name.Name
		if b.Stopped {
			s += " stopped"
		}
		if b.Info != nil {
			s += " " + show(b.Info)
		}
		if b.Text != "" {
			s += " text=" + strconv.Quote(b.Text)
		}
	case *sast.Exit:
		if b.Killed {
			s += "killed " + b.Signal.Name
			if b.Core {
				s += " core"
			}
		} else if b.Superseded != nil {
			s += "superseded " + b.By + " " + show(b.Superseded)[1:]
		} else {
			s += "exited " + show(b.Status)
		}
	case *sast.Message:
		s += "message " + strconv.Quote(b.Text) + " " + b.Verb + " " + strconv.FormatUint(b.Process, 10)
	case *sast.Frame:
		s += "frame " + strconv.Quote(b.Text)
	}
	if l.Inline != nil {
		s += " + message " + strconv.Quote(l.Inline.Text) + " " + l.Inline.Verb
	}
	return s
}

func TestParseLine(t *testing.T) {
	tests := []struct {
		line, want string
	}{
		{`open("/etc/passwd", O_RDONLY|O_CLOEXEC) = 3`, `open(s"/etc/passwd",(| yO_RDONLY yO_CLOEXEC)) = i3`},
		{`[pid  42] 10:00:01.5 close(3) = 0 <0.000123>`, `[42] t36001500000000 close(i3) = i0 dur=123000`},
		{`7387  00:09:47.789648 wait4(-1,  <unfinished ...>`, `7387 t587789648000 wait4(i-1) unfinished`},
		{`1389356960.187620 read(3</lib/libc.so.6>, "\177ELF\2"..., 832) = 832`, `t1389356960187620000 read(fd:i3</lib/libc.so.6>,s"\x7fELF\x02"...,i832) = i832`},
		{`     0.000250 brk(NULL) = 0x5555`, `t250000 brk(yNULL) = i21845`},
		{`12:00:00 getpid() = 7`, `t43200000000000 getpid() = i7`},
		// strace 6's precision:s: whole seconds. A lone leading number is
		// the pid column (-f), unless it is right-aligned (-r) or no pid
		// (PID_MAX_LIMIT, 4194304) can be so large (--timestamps=unix,s).
		{`     0 brk(NULL) = 0x5555`, `t0 brk(yNULL) = i21845`},
		{`    12 getpid() = 7`, `t12000000000 getpid() = i7`},
		{`18361      0 getpid() = 7`, `18361 t0 getpid() = i7`},
		{`1795888913 getpid() = 7`, `t1795888913000000000 getpid() = i7`},
		{`18314 1795888912 getpid() = 7`, `18314 t1795888912000000000 getpid() = i7`},
		{`4194303 getpid() = 7`, `4194303 getpid() = i7`},
		{`4194304 getpid() = 7`, `t4194304000000000 getpid() = i7`},
		{`18435 brk(NULL) = 0x5555 <0>`, `18435 brk(yNULL) = i21845 dur=0`},
		{`getpid() = 7 <12>`, `getpid() = i7 dur=12000000000`},
		{`[pid 5] 12:00:00 [00007f0e3c3a0f3b] getpid() = 5`, `[5] t43200000000000 ip00007f0e3c3a0f3b getpid() = i5`},
		{`[????????????????] +++ exited with 0 +++`, `ip? exited i0`},
		{`<... futex resumed> ) = -1 EAGAIN (Resource temporarily unavailable) <0.000017>`, `resumed futex() = i-1 EAGAIN (Resource temporarily unavailable) dur=17000`},
		{`<... read resumed>"ab", 2) = 2`, `resumed read(s"ab",i2) = i2`},
		{`<... poll resumed> <unfinished ...>`, `resumed poll() unfinished`},
		{`restart_syscall(<... resuming interrupted poll ...> <unfinished ...>`, `restart_syscall(resuming:resuming interrupted poll) unfinished`},
		{`read(0,  <detached ...>`, `read(i0) detached`},
		{`exit_group(0) = ?`, `exit_group(i0) = ?`},
		{`vfork() = ? ERESTARTNOINTR (To be restarted)`, `vfork() = ? ERESTARTNOINTR (To be restarted)`},
		{`exit(0) = ? <unavailable>`, `exit(i0) = ? unavailable`},
		{`fcntl(3, F_GETFD) = 0x1 (flags FD_CLOEXEC)`, `fcntl(i3,yF_GETFD) = i1 (flags FD_CLOEXEC)`},
		{`execve("/bin/ls", ["ls"], 0x7ffd /* 30 vars */) = 0`, `execve(s"/bin/ls",[s"ls"],i32765/*30 vars*/) = i0`},
		{`execve("/bin/sh", ["sh"], [/* 22 vars */]) = 0`, `execve(s"/bin/sh",[s"sh"],[.../*22 vars*/]) = i0`},
		{`fstat(3, {st_mode=S_IFREG|0644, st_size=1, ...}) = 0`, `fstat(i3,{st_mode=(| yS_IFREG i420),st_size=i1,...}) = i0`},
		{`rt_sigprocmask(SIG_BLOCK, ~[RTMIN RT_1], [INT CHLD], 8) = 0`, `rt_sigprocmask(ySIG_BLOCK,(~ [yRTMIN,_yRT_1]),[yINT,_yCHLD],i8) = i0`},
		{`wait4(-1, [{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL) = 5`, `wait4(i-1,[{(&& WIFEXITED(ys) (== WEXITSTATUS(ys) i0))}],i0,yNULL) = i5`},
		{`x(a|b&&c|d||e)`, `x((|| (&& (| ya yb) (| yc yd)) ye))`},
		{`getsockname(5, {sin_port=htons(80)}, [128 => 16]) = 0`, `getsockname(i5,{sin_port=htons(i80)},[(=> i128 i16)]) = i0`},
		{`connect(5<TCP:[1.2.3.4:80->5.6.7.8:9]>, 0x1, 16) = 0`, `connect(fd:i5<TCP:[1.2.3.4:80->5.6.7.8:9]>,i1,i16) = i0`},
		{`openat(AT_FDCWD</home>, "x\x41\n", O_RDONLY) = 3</home/x>`, `openat(fd:yAT_FDCWD</home>,s"xA\n",yO_RDONLY) = fd:i3</home/x>`},
		{`write(1</dev/pts/0<char 136:0>>, "", 0) = 0`, `write(fd:i1</dev/pts/0<char 136:0>>,s"",i0) = i0`},
		// -y escapes a quote, a backslash, < and > in a path (octal), not
		// brackets; -yy nests brackets for IPv6 (strace 6.1).
		{`write(3</tmp/q\"x\\s\74b\76>, "z", 1) = 1`, `write(fd:i3</tmp/q\"x\\s\74b\76>="/tmp/q\"x\\s<b>",s"z",i1) = i1`},
		{`write(3</tmp/u[nb>, "z", 1) = 1`, `write(fd:i3</tmp/u[nb>,s"z",i1) = i1`},
		{`write(3</tmp/u]nb>, "]", 1) = 1`, `write(fd:i3</tmp/u]nb>,s"]",i1) = i1`},
		{`write(3</tmp/x->, "z", 1) = 1`, `write(fd:i3</tmp/x->,s"z",i1) = i1`},
		{`dup2(3</tmp/x->, 4</y>) = 4</y>`, `dup2(fd:i3</tmp/x->,fd:i4</y>) = fd:i4</y>`},
		{`read(5<TCPv6:[[::1]:42593->[::1]:43218]>, "x", 1) = 1`, `read(fd:i5<TCPv6:[[::1]:42593->[::1]:43218]>,s"x",i1) = i1`},
		{`write(4</memfd:m\"x>(deleted), "", 0) = 0`, `write(fd:i4</memfd:m\"x>="/memfd:m\"x"(deleted),s"",i0) = i0`},
		{`dup(4</tmp/gone>(deleted)) = 5</tmp/gone>(deleted)`, `dup(fd:i4</tmp/gone>(deleted)) = fd:i5</tmp/gone>(deleted)`},
		{`write(6<UNIX-STREAM:[7,@"a\"b"]>, "", 0) = 0`, `write(fd:i6<UNIX-STREAM:[7,@"a\"b"]>,s"",i0) = i0`},
		{`bind(3, {sun_path=@"x"}, 1) = 0`, `bind(i3,{sun_path=(@ s"x")},i1) = i0`},
		{`sendmsg(3, {msg_iov(1)=[{"a", 1}]}, 0) = 1`, `sendmsg(i3,{msg_iov(1)=[{s"a",i1}]},i0) = i1`},
		{`prlimit64(0, RLIMIT_STACK, NULL, {rlim_cur=8192*1024}) = 0`, `prlimit64(i0,yRLIMIT_STACK,yNULL,{rlim_cur=(* i8192 i1024)}) = i0`},
		{`ioctl(1, TCGETS, {B38400 opost isig ...}) = 0`, `ioctl(i1,yTCGETS,{yB38400,_yopost,_yisig,_...}) = i0`},
		{`execve("/bin/bash", ["x"]c[/* 25 vars */]) = 0`, `execve(s"/bin/bash",[s"x"],_yc,_[.../*25 vars*/]) = i0`},
		{`--- SIGCHLD {si_signo=SIGCHLD, si_status=0} ---`, `signal SIGCHLD {si_signo=ySIGCHLD,si_status=i0}`},
		{`[pid 9] --- stopped by SIGSTOP ---`, `[9] signal SIGSTOP stopped`},
		{`+++ exited with 3 +++`, `exited i3`},
		{`--- SIGCHLD (Child exited) @ 0 (0) ---`, `signal SIGCHLD text="(Child exited) @ 0 (0)"`},
		{`[pid 8] +++ superseded by execve in pid 7 +++`, `[8] superseded execve 7`},
		{`42 +++ killed by SIGSEGV (core dumped) +++`, `42 killed SIGSEGV core`},
		{`strace: Process 123 attached`, `message "Process 123 attached" attached 123`},
		{`strace: Process 123 detached`, `message "Process 123 detached" detached 123`},
		{`strace: whatever else`, `message "whatever else"  0`},
		{` > /lib/libc.so.6(open+0x14) [0x1234]`, `frame "/lib/libc.so.6(open+0x14) [0x1234]"`},
		// The forms of issue 18, as strace 6.1 writes them (testdata/matrix).
		{`<... clone3 resumed> => {parent_tid=[7]}, 88) = 7`, `resumed clone3((=> ... {parent_tid=[i7]}),i88) = i7`},
		{`clone3({flags=CLONE_VM} => {parent_tid=[7]}, 88) = 7`, `clone3((=> {flags=yCLONE_VM} {parent_tid=[i7]}),i88) = i7`},
		{`ioctl(0, SNDCTL_TMR_START or TCSETS, {c_iflag=, c_cc=[[VINTR]=0x3, [17]=0]}) = 0`, `ioctl(i0,(or ySNDCTL_TMR_START yTCSETS),{c_iflag=i0,c_cc=[[VINTR]=i3,[17]=i0]}) = i0`},
		{`clone(flags=0x1200000 /* CLONE_CHILD_CLEARTID */|17 /* SIGCHLD */, 0 /* AT_FDCWD */) = 5`, `clone(flags=(| i18874368/*CLONE_CHILD_CLEARTID*/ i17/*SIGCHLD*/),i0/*AT_FDCWD*/) = i5`},
		{`statx(-100, "/x", |0x800, 0x2) = 0`, `statx(i-100,s"/x",(| ... i2048),i2) = i0`},
		{`28497<suite> [  59] brk(NULL) = 0x1`, `28497 <suite> nr59 brk(yNULL) = i1`},
		{`[pid 16840<tk-work>] [ 435] [00007f0f3d1008d9] getpid() = 1`, `[16840] <tk-work> nr435 ip00007f0f3d1008d9 getpid() = i1`},
		{`write(3, "x\n", 2strace: Process 28809 attached`, `write(i3,s"x\n",i2) unfinished + message "Process 28809 attached" attached`},
		{`clone(flags=SIGCHLD/usr/bin/strace: Process 5 attached`, `clone(flags=ySIGCHLD) unfinished + message "Process 5 attached" attached`},
		{` => {parent_tid=[5]}, 88) = 5`, `continued ((=> ... {parent_tid=[i5]}),i88) = i5`},
		{`, child_tidptr=0x10) = 5`, `continued (child_tidptr=i16) = i5`},
		{`[{WIFSIGNALED(s) && WTERMSIG(s) == SIGKILL}], 0, NULL) = 15028`, `continued ([{(&& WIFSIGNALED(ys) (== WTERMSIG(ys) ySIGKILL))}],i0,yNULL) = i15028`},
		{`)                     = 0`, `continued () = i0`},
		{` | 00000  7f 45 4c 46  .ELF |`, `dump "00000  7f 45 4c 46  .ELF"`},
		{`/usr/bin/strace: Process 5 attached`, `message "Process 5 attached" attached 5`},
		{`--- {si_signo=SIGCHLD, si_code=CLD_EXITED} (Child exited) ---`, `signal SIGCHLD {si_signo=ySIGCHLD,si_code=yCLD_EXITED} text="(Child exited)"`},
		{`% time     seconds  calls syscall`, `table TableHeader 0:% 2:time 11:seconds 20:calls 26:syscall`},
		{`------ ----------- ----`, `table TableRule 0:------ 7:----------- 19:----`},
		{` 61.14    0.017405     4 clock_nanosleep`, `table TableRow 1:61.14 10:0.017405 23:4 25:clock_nanosleep`},
		{`????( <unfinished ...>`, `????() unfinished`},
		{`syscall_0x1b6(0x1) = -1 ENOSYS (Function not implemented)`, `syscall_0x1b6(i1) = i-1 ENOSYS (Function not implemented)`},
		{`getpid() = 42 (INJECTED)`, `getpid() = i42 (INJECTED)`},
		// The process ended inside the call (testdata/matrix ended*):
		// strace 6.1 with -f, with -e status= or -ff, and a -z second half.
		{`1708  17:25:22.854721 <... clock_nanosleep resumed> <unfinished ...>) = ?`, `1708 t62722854721000 resumed clock_nanosleep() undecoded = ?`},
		{`1715  read(3,  <unfinished ...>)        = ?`, `1715 read(i3) undecoded = ?`},
		{`clock_nanosleep(CLOCK_REALTIME, 0, {tv_sec=10, tv_nsec=0},  <unfinished ...>) = ?`, `clock_nanosleep(yCLOCK_REALTIME,i0,{tv_sec=i10,tv_nsec=i0}) undecoded = ?`},
		{` <unfinished ...>) = ?`, `continued () undecoded = ?`},
		// -b execve in a trace on strace's stderr: the message cuts the
		// line after a comment (testdata/matrix/bexecve.strace).
		{`[pid  3279] execve("/usr/bin/wc", ["wc"], 0x55 /* 35 vars */strace: Process 3279 detached`, `[3279] execve(s"/usr/bin/wc",[s"wc"],i85/*35 vars*/) unfinished + message "Process 3279 detached" detached`},
		{`execve("/bin/true", ["true"], 0x55 /* 35 vars *//usr/bin/strace: Process 5 detached`, `execve(s"/bin/true",[s"true"],i85/*35 vars*/) unfinished + message "Process 5 detached" detached`},
		// strace 4.x: its messages with no "strace: " before them.
		{`Process 1234 attached - interrupt to quit`, `message "Process 1234 attached - interrupt to quit" attached 1234`},
		{`Process 1234 attached with 3 threads - interrupt to quit`, `message "Process 1234 attached with 3 threads - interrupt to quit" attached 1234`},
		{`Process 1234 detached`, `message "Process 1234 detached" detached 1234`},
		{`clone(child_stack=0, flags=CLONE_CHILD_SETTID|SIGCHLDProcess 1236 attached`, `clone(child_stack=i0,flags=(| yCLONE_CHILD_SETTID ySIGCHLD)) unfinished + message "Process 1236 attached" attached`},
		// -U's tables: a name column alone, one number and the name.
		{`syscall`, `table TableHeader 0:syscall`},
		{`   errors syscall`, `table TableHeader 3:errors 10:syscall`},
		{`syscall             errors`, `table TableHeader 0:syscall 20:errors`},
		{`----------------`, `table TableRule 0:----------------`},
		{`     1099           statx`, `table TableRow 5:1099 20:statx`},
		{`openat`, `table TableRow 0:openat`},
		{`System call usage summary for 32 bit mode:`, `table TableTitle 0:System 7:call 12:usage 18:summary 26:for 30:32 33:bit 37:mode:`},
		// A change of personality: strace 6.1 into a trace on its stderr
		// (testdata/matrix/mode.strace), strace 4.x alone on its stderr.
		{`[pid  6858] 17:33:03.868445 [ Process PID=6858 runs in 32 bit mode. ]`, `[6858] t63183868445000 message "Process PID=6858 runs in 32 bit mode." personality 6858`},
		{`[ Process PID=7 runs in x32 mode. ]`, `message "Process PID=7 runs in x32 mode." personality 7`},
		{`openat(-100 /* AT_FDCWD */</tmp>, "x", 0x80000 /* O_RDONLY|O_CLOEXEC */) = 3</x>`, `openat(fd:i-100</tmp>/*AT_FDCWD*/,s"x",i524288/*O_RDONLY|O_CLOEXEC*/) = fd:i3</x>`},
	}
	for _, tt := range tests {
		l, diags := ParseLine(base, tt.line)
		if l == nil {
			t.Errorf("%s: %v", tt.line, diags)
			continue
		}
		if got := showLine(l); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.line, got, tt.want)
		}
	}
}

func TestParseLineErrors(t *testing.T) {
	tests := []struct {
		line string
		code diag.Code
		col  int
		sev  diag.Severity
	}{
		{"THIS IS not a line at all", sast.CodeSyntax, 6, diag.Error},
		{"close(3) = 0 trailing", sast.CodeSyntax, 14, diag.Error},
		{"read(3, {a=1]) = 0", sast.CodeBracket, 9, diag.Error},
		{"--- notasignal ---", sast.CodeSyntax, 5, diag.Error},
		{"+++ exited happily +++", sast.CodeSyntax, 5, diag.Error},
		{"close(3) = 0 <1.2.3>", sast.CodeSyntax, 14, diag.Error},
		{"[pid 99999999999999999999] close(3) = 0", sast.CodeNumber, 1, diag.Error},
		{"25:00:00 close(3) = 0", sast.CodeNumber, 1, diag.Error},
		{"[00007fzz] close(3) = 0", sast.CodeNumber, 1, diag.Error},
		{"close(3) = 0 <0.0000000001>", sast.CodeNumber, 14, diag.Error},
		{"f(x=1 = 2)", sast.CodeSyntax, 7, diag.Error},
		{"f(g(x)=2) = 0", sast.CodeSyntax, 3, diag.Error},
		{"f(" + strings.Repeat("[", 65) + strings.Repeat("]", 65) + ") = 0", sast.CodeDepth, 66, diag.Error},
		{"f(x, " + strings.Repeat("~", 65) + "1) = 0", sast.CodeDepth, 6, diag.Error},
		{"f(1 2) = 0", sast.CodeAdjacent, 5, diag.Warning},
		{"f(0x1ffffffffffffffff) = 0", sast.CodeInteger, 3, diag.Warning},
		{"f(09) = 0", sast.CodeInteger, 3, diag.Warning},
	}
	for _, tt := range tests {
		l, diags := ParseLine(base, tt.line)
		if (l == nil) != (tt.sev >= diag.Error) {
			t.Errorf("%s: line %v with %v", tt.line, l != nil, diags)
		}
		if len(diags) == 0 {
			t.Errorf("%s: no diagnostic", tt.line)
			continue
		}
		d := diags[0]
		if d.Code != tt.code || d.Pos.Col != tt.col || d.Severity != tt.sev || d.Pos.Line != base.Line || d.Pos.Offset != base.Offset+tt.col-1 {
			t.Errorf("%s: %v, want %s %s at column %d", tt.line, d, tt.sev, tt.code, tt.col)
		}
	}
}

func FuzzParseLine(f *testing.F) {
	for _, s := range []string{
		`[pid  42] 10:00:01.5 open("/etc/passwd\x41\0", O_RDONLY|O_CLOEXEC) = 3</etc/passwd> <0.000123>`,
		`7387  00:09:47.789648 <... wait4 resumed>[{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL) = -1 ECHILD (No child processes)`,
		`1.5 --- SIGCHLD {si_signo=SIGCHLD, si_status=0} ---`, `+++ killed by SIGKILL +++`, `strace: Process 1 attached`,
		` > /lib/x.so(f+0x1) [0x1]`, `f(~[1 2], {a=b, ...}, [1 => 2], x<y>, "a"..., /* c */) = ? <unavailable>`, `{{{[[[`, `f("\`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\n") {
			return
		}
		l, diags := ParseLine(base, line)
		if (l == nil) != diags.Failed() {
			t.Fatalf("%q: line %v with diagnostics %v", line, l != nil, diags)
		}
		for _, d := range diags {
			if d.Pos.Line != base.Line || d.Pos.Col < 1 || d.Pos.Col > len(line)+1 || d.Pos.Offset != base.Offset+d.Pos.Col-1 {
				t.Fatalf("%q: diagnostic at %v", line, d.Pos)
			}
		}
		if l == nil {
			return
		}
		var walk func(v sast.Value, depth int)
		walk = func(v sast.Value, depth int) {
			if depth > MaxDepth+2 {
				t.Fatalf("%q: nested deeper than %d", line, MaxDepth)
			}
			p := v.Position().Col - 1
			if p < 0 || p > len(line) {
				t.Fatalf("%q: value at column %d", line, p+1)
			}
			switch v := v.(type) {
			case *sast.Int:
				if !strings.HasPrefix(line[p:], v.Text) {
					t.Fatalf("%q: integer %q not at column %d", line, v.Text, p+1)
				}
			case *sast.String:
				if !strings.HasPrefix(line[p:], v.Text) {
					t.Fatalf("%q: string %q not at column %d", line, v.Text, p+1)
				}
			case *sast.Struct:
				for _, a := range v.Members {
					walk(a.Value, depth+1)
				}
			case *sast.Array:
				for _, a := range v.Items {
					walk(a.Value, depth+1)
				}
			case *sast.Op:
				for _, o := range v.Operands {
					walk(o, depth+1)
				}
			case *sast.FuncCall:
				for _, a := range v.Args {
					walk(a.Value, depth+1)
				}
			}
		}
		var args []*sast.Arg
		switch b := l.Body.(type) {
		case *sast.Call:
			args = b.Args
		case *sast.Resumed:
			args = b.Args
		}
		for _, a := range args {
			walk(a.Value, 0)
		}
	})
}

// BenchmarkParseLine parses lines of the forms strace writes most, one
// after another, with a LineParser (the generated parser), as the lowering
// does.
func BenchmarkParseLine(b *testing.B) { benchParse(b, false) }

// BenchmarkParseLineReference is the same with participle's reflective
// parser.
func BenchmarkParseLineReference(b *testing.B) { benchParse(b, true) }

func benchParse(b *testing.B, reference bool) {
	lines := []string{
		`[pid  4003] openat(AT_FDCWD, "/usr/lib/synth/lib138.so.2", O_RDONLY|O_CLOEXEC) = 8 <0.000373>`,
		`[pid  4001] openat(AT_FDCWD, "/opt/synth/lib61.so", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory) <0.000479>`,
		`[pid  4004] read(20, "\177ELF\2\1\1\0\0\0\0\0\0\0\0\0\3\0>\0\1\0\0\0"..., 832) = 832 <0.000568>`,
		`[pid  4002] mmap(NULL, 98304, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f89794754f3 <0.000519>`,
		`[pid  4002] fstat(22, {st_mode=S_IFREG|0644, st_size=776632, ...}) = 0 <0.000145>`,
		`[pid  4004] close(19) = 0 <0.000784>`,
		`[pid  4001] futex(0x7fc6a61d47, FUTEX_WAIT_PRIVATE, 0, NULL <unfinished ...>`,
		`[pid  4001] <... futex resumed>) = 0 <0.000202>`,
	}
	n := 0
	for _, l := range lines {
		n += len(l) + 1
	}
	lp := LineParser{Reference: reference}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for range b.N {
		for i, l := range lines {
			if c, _ := lp.Line(ast.Pos{Line: i + 1, Col: 1}, l); c == nil {
				b.Fatal(l)
			}
		}
	}
}

// TestUnescapeNumeric checks the octal and hex escapes, which are read
// without strconv, on every value they can write.
func TestUnescapeNumeric(t *testing.T) {
	for v := 0; v < 512; v++ {
		o := strconv.FormatUint(uint64(v), 8)
		if got := unescape(`\` + o + `z`); got != string([]byte{byte(v), 'z'}) {
			t.Errorf("unescape(\\%s) = %q", o, got)
		}
		if v < 256 {
			for _, h := range []string{strconv.FormatUint(uint64(v), 16), strings.ToUpper(strconv.FormatUint(uint64(v), 16))} {
				if got := unescape(`\x` + h + `g`); got != string([]byte{byte(v), 'g'}) {
					t.Errorf("unescape(\\x%s) = %q", h, got)
				}
			}
		}
	}
	for in, want := range map[string]string{`\x`: `\x`, `\xg`: `\xg`, `\0123`: "\0123", `\x414`: "A4", `\8`: `\8`} {
		if got := unescape(in); got != want {
			t.Errorf("unescape(%q) = %q, want %q", in, got, want)
		}
	}
}
