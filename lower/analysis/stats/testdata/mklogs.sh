#!/bin/sh
# Rebuilds work.strace: work.c built with gcc and traced by the real strace
# (Debian 12's strace 6.1): trace and summary table in one file (-C).
set -e
cd "$(dirname "$0")"
gcc -O1 -pthread -o /tmp/stats-work work.c
strace -f -C -o work.strace /tmp/stats-work
