#!/bin/sh
# Rebuilds family.strace: family.c built with gcc and traced by the real
# strace (Debian 12's strace 6.1) with -f -tt -s 256. tree_test.go traces a
# fresh build itself; this log is the example docs/analysis.md shows.
set -e
cd "$(dirname "$0")"
gcc -O1 -pthread -o /tmp/family family.c
strace -f -tt -s 256 -o family.strace /tmp/family
