#!/bin/sh
# bench-instr.sh TRACEKIT: the instructions each measured path of
# bench-targets.sh executes, and the branches a simple predictor would
# miss, counted by valgrind's cachegrind: the same on every run, where
# the times of bench-targets.sh vary by a fifth from run to run on a
# shared machine. A change that makes a path do less shows here when the
# timings cannot tell. Each row runs one goroutine's worth of work
# (--workers 1) on 2 MB of generated input (the start of the process
# included, "tracekit --version" alone being the first row), and the
# compile of 8,000 static tracepoints. Not the compile of 65,535 that
# bench-targets.sh times: its heap lives near the soft memory limit, and
# how many collections run there depends on how valgrind schedules the
# threads (the runtime's share varied from 0.4 to 2.8 billion
# instructions between runs of one binary).
set -eu
tk=$1
if ! command -v valgrind > /dev/null; then
	echo "bench-instr: valgrind is not installed (apt-get install valgrind)" >&2
	exit 1
fi
# Valgrind 3.19 (Debian 12) cannot run RDTSCP, which the Go runtime's
# cputicks uses where the processor has it (AMD Turin): a run that spins on
# a lock then dies of SIGILL. The runtime reads the time stamp another way
# without it (golang.org/x/sys/cpu, which does not know the name, says so
# once on stderr): row runs valgrind with GODEBUG=cpu.rdtscp=off.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$tk" generate --dialect os2strace --size 2000000 -o "$tmp/os2"
"$tk" generate --dialect strace --size 2000000 -o "$tmp/st"
awk 'BEGIN { print "MODNAME = x.dll"; print "MAJOR = 0x42"
	for (i = 1; i <= 8000; i++) printf "TRACE MINOR=0x%04X, TP=@STATIC, DESC=\"desc %d\", FMT=\"a=%%W b=%%D\", FMT=\"s=%%S\"\n", i, i }' > "$tmp/large.tsf"
# row LABEL CMD...: one cachegrind run of CMD.
row() {
	label=$1
	shift
	GODEBUG=cpu.rdtscp=off valgrind --tool=cachegrind --cache-sim=no --branch-sim=yes --cachegrind-out-file=/dev/null "$@" > /dev/null 2> "$tmp/err" || {
		echo "bench-instr: $* failed:" >&2
		cat "$tmp/err" >&2
		exit 1
	}
	tr -d ',(' < "$tmp/err" | awk -v l="$label" '
		/I +refs:/ { ir = $4 }
		/Mispredicts:/ { mis = $3 }
		END { printf "%-44s %10.1fM instructions %8.0fk mispredicts\n", l, ir / 1e6, mis / 1e3 }'
}
echo "== bench-instr: cachegrind instruction counts (deterministic)"
row "tracekit --version (the start)" "$tk" --version
row "os2strace CSV 7 columns, 2 MB" "$tk" records --keep-going --workers 1 --format csv --fields time,ts_ns,cpu,major,minor,event,data --dialect os2strace "$tmp/os2"
row "os2strace CSV, 2 MB" "$tk" records --keep-going --workers 1 --format csv --dialect os2strace "$tmp/os2"
row "os2strace JSONL, 2 MB" "$tk" records --keep-going --workers 1 --format jsonl --dialect os2strace "$tmp/os2"
row "strace CSV, 2 MB" "$tk" records --keep-going --workers 1 --format csv --dialect strace "$tmp/st"
row "strace JSONL, 2 MB" "$tk" records --keep-going --workers 1 --dialect strace "$tmp/st"
row "compile 8,000 tracepoints" "$tk" compile --quiet --out-dir "$tmp" "$tmp/large.tsf"
