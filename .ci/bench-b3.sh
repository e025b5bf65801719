#!/bin/sh
# bench-b3.sh TRACEKIT SIZE: "tracekit records" beside b3 (npm
# b3-strace-parser, installed into a temporary folder) on one generated
# strace log of SIZE bytes: input lines per second of each, their ratio,
# records written and peak memory. Each tool runs several times in this one
# run (tracekit 5, b3 3, in rounds) and the median wall time counts, since a run of
# tracekit on the default 20 MB lasts well under a second and one slow run
# would decide the ratio otherwise; every time is printed.
set -eu
tk=$1
size=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$tk" generate --dialect strace --size "$size" -o "$tmp/in"
npm install --silent --no-save --no-audit --no-fund --prefix "$tmp/b3" b3-strace-parser > /dev/null 2>&1 || {
	echo "bench-b3: npm install b3-strace-parser failed"
	exit 1
}
b3=$tmp/b3/node_modules/b3-strace-parser/cli.js
lines=$(wc -l < "$tmp/in")

now() { date +%s.%N; }
# median TIMES...: the median of the numbers
median() { printf '%s\n' "$@" | sort -n | awk '{ t[NR] = $1 } END { print (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }'; }

# In rounds, one run of each a round (b3 in the first three), so that a
# busy spell of a shared machine slows both alike.
tks=""
b3s=""
for i in 1 2 3 4 5; do
	s=$(now)
	"$tk" records --stats --dialect strace "$tmp/in" > "$tmp/tk.out" 2> "$tmp/err" || { cat "$tmp/err"; exit 1; }
	e=$(now)
	tks="$tks $(echo "$s $e" | awk '{ printf "%.3f", $2 - $1 }')"
	[ "$i" -le 3 ] || continue
	tm=""
	[ "$i" = 1 ] && [ -x /usr/bin/time ] && tm="/usr/bin/time -f %M -o $tmp/b3.mem"
	s=$(now)
	$tm node "$b3" < "$tmp/in" > "$tmp/b3.out"
	e=$(now)
	b3s="$b3s $(echo "$s $e" | awk '{ printf "%.3f", $2 - $1 }')"
done
b3mem=$(cat "$tmp/b3.mem" 2> /dev/null || echo "?")
# shellcheck disable=SC2086
tkm=$(median $tks)
# shellcheck disable=SC2086
b3m=$(median $b3s)
echo "tracekit seconds:$tks; b3 seconds:$b3s"
tail -n 1 "$tmp/err" | awk -v n="$lines" -v tk="$tkm" -v b3="$b3m" -v tr="$(wc -l < "$tmp/tk.out")" -v br="$(wc -l < "$tmp/b3.out")" -v bm="$b3mem" \
	'{ split($0, f, ", "); printf "strace vs b3: %d lines; tracekit %.0f lines/s (median of 5, %d records, %s); b3 %.0f lines/s (median of 3, %d records, peak RSS %s KiB); ratio %.2f (goal 40)\n", n, n / tk, tr, f[3], n / b3, br, bm, b3 / tk }'
