#!/bin/sh
# gen.sh regenerates the matrix of real strace logs in this folder: it builds
# src/work.c and src/threads.c with gcc and traces them with the real strace
# (the strace of the machine; the committed logs were made by strace 6.1,
# Debian 12). Run it from this folder: sh gen.sh. Then regenerate the
# goldens: go test ./lower/dialect/strace -run TestMatrix -update.
set -eu
S=${STRACE:-strace}
B=$(mktemp -d)
trap 'rm -rf "$B"' EXIT
gcc -O1 -pthread -o "$B/work" src/work.c
gcc -O1 -pthread -o "$B/threads" src/threads.c
gcc -O1 -pthread -o "$B/ended" src/ended.c
find . -maxdepth 1 -name '*.strace*' ! -name 'synthetic-*' -exec rm -f {} +
W="$B/work"
# Each line: the name of the log, then strace's options.
while read -r name opts; do
	[ -n "$name" ] || continue
	case $name in \#*) continue ;; esac
	# shellcheck disable=SC2086
	"$S" $opts -o "$name.strace" "$W" || true
done <<'LIST'
default
f -f
t -f -t
tt -f -tt
ttt -f -ttt
r -f -r
T -f -T
y -f -y
yy -f -yy
xverbose -f -X verbose
xraw -f -X raw
vs256 -f -v -s 256
x -f -x
xx -f -xx
k -f -k -e trace=execve,clone3,clone,exit_group,kill
i -f -i
n -f -n
seccomp -f --seccomp-bpf -e trace=%process,%file
trace -f -e trace=%network,%signal
failed -f -e status=failed
Z -f -Z
z -f -z
C -f -C
c -f -c
cwU -f -c -w -U name,calls,errors,time,avg-time,total-time,min-time,max-time
Uname -f -c -U name
Ucallserrors -f -c -U calls,errors
Y -f -Y
q -f -q
qq -f -qq
inject -f -e inject=openat:error=EACCES:when=3 -e inject=getpid:retval=42 -e inject=nanosleep,clock_nanosleep:delay_enter=1000
a -f -a 60
unixns -f --timestamps=unix,ns
unixs -f --timestamps=unix,s
unixs1 --timestamps=unix,s
rs -f --relative-timestamps=s
rs1 --relative-timestamps=s
Ts -f --syscall-times=s
fttTy -f -tt -T -y
rw -f -e trace=read,write,recvfrom,sendto -e read=all -e write=all
LIST
# -ff -o ff.strace writes one file a thread: ff.strace.PID.
"$S" -ff -o ff.strace "$W" || true
rm -f ff.strace
# strace's own stderr in the log: the trace and strace's messages share
# one file (no -o).
/usr/bin/strace -f "$W" 2> stderr.strace || true
"$S" -f -tt -T "$W" > mixed.strace 2>&1 || true
# -b execve lets a process go at its execve: strace's message cuts the
# line of the call ("/* 35 vars */strace: Process N detached").
"$S" -f -b execve "$W" 2> bexecve.strace || true
# A threaded program with -f: one process, four threads.
"$S" -f -tt -T -o threads.strace "$B/threads" || true
"$S" -f -c -o threads-c.strace "$B/threads" || true
# -c and the trace of the same run, to check the table against the calls.
"$S" -f -C -o threads-C.strace "$B/threads" || true
# -Z on a shell pipeline: strace holds a failing call's first half; when
# another process's line comes first it prints it as unfinished, and the
# rest, once the call failed, on a line of its own without the pid
# ("0x7ffe4e848a20, 0) = -1 ENOENT"). It depends on timing: most runs
# show it once (the committed log does, at its line 70-71).
"$S" -f -Z -o Zsh.strace sh -c 'ls /tmp > /dev/null; cat /etc/hostname /nonexistent 2>/dev/null; echo hi | wc -c' > /dev/null 2>&1 || true
# Threads inside a call when the process ends (src/ended.c): strace ends
# those calls with "<unfinished ...>) = ?", as a second half with -f, whole
# with -e status= (it holds a call's first half until the call returns) and
# with -ff (each thread's file has only its own lines).
"$S" -f -tt -T -o ended.strace "$B/ended" || true
"$S" -f -e status=successful,unfinished -o ended-status.strace "$B/ended" || true
"$S" -ff -o ended-ff.strace "$B/ended" || true
rm -f ended-ff.strace
# A process that changes personality (src/mode.c, built as a 64-bit and a
# 32-bit program: gcc -m32, Debian's gcc-multilib): strace 6.1 says so in
# the trace only when it writes the trace to its stderr (no -o).
gcc -O1 -o "$B/mode" src/mode.c
gcc -O1 -m32 -o "$B/mode32" src/mode.c
"$S" -f -tt "$B/mode" "$B/mode32" 2> mode.strace > /dev/null || true
# -c on it: a table for each personality, the second under its title.
"$S" -f -c -o cmode.strace "$B/mode" "$B/mode32" > /dev/null || true
# File names that -y decorations escape or keep, and a TCP connection over
# IPv6, whose -yy decoration nests brackets (src/names.c): run in the
# temporary folder, where the program makes and removes its files.
gcc -O1 -o "$B/names" src/names.c
(cd "$B" && "$S" -f -y -o ynames.strace ./names && "$S" -f -yy -o yynames.strace ./names) || true
mv "$B/ynames.strace" "$B/yynames.strace" .
# --tips: strace 6 writes a tip in a box beside its mascot to its stderr
# at the end of the run, in the log when the trace goes there too: a tip
# in full (every line of the mascot) and one compact.
"$S" -f --tips=id:1,format:full "$B/threads" 2> tips.strace > /dev/null || true
"$S" --tips=id:2 "$B/threads" 2> tipsc.strace > /dev/null || true
# Arguments decoded in rarer forms (src/exotic.c): a netlink dump whose
# hardware addresses strace writes bare and, with -v, indexed arrays,
# plain, -X verbose and -X raw.
gcc -O1 -o "$B/exotic" src/exotic.c
"$S" -f -o exotic.strace "$B/exotic" > /dev/null || true
"$S" -f -v -yy -o exoticv.strace "$B/exotic" > /dev/null || true
"$S" -f -v -X verbose -o exoticX.strace "$B/exotic" > /dev/null || true
"$S" -f -v -X raw -o exoticXr.strace "$B/exotic" > /dev/null || true
