#!/bin/sh
# Rebuilds fork.strace: a shell that forks ls on a missing and an existing
# file, traced by the real strace (Debian 12's strace 6.1) with -f -tt -T
# and a few calls, so that pids, events, errors and durations vary.
set -e
cd "$(dirname "$0")"
strace -f -tt -T -e trace=execve,openat,close,read,write,wait4,exit_group \
	-o fork.strace sh -c 'ls /nonexistent-tracekit; ls /dev/null; true'
