#!/bin/sh
# bench-records.sh TRACEKIT SIZE: end-to-end figures of "tracekit records"
# on generated input of SIZE bytes, all measured in this one run:
#   - os2strace: wall time of --format csv and --format jsonl beside
#     ../shared/bench/awk-strace-csv.sh (mawk) on the same file, and their
#     ratio (awk time / tracekit time: above 1 means tracekit is faster);
#   - every line dialect: MB/s (csv to /dev/null), its ratio to os2strace's,
#     and the peak RSS with and without -o.
set -eu
tk=$1
size=$2
here=$(cd "$(dirname "$0")/.." && pwd)
awkcsv=$here/../shared/bench/awk-strace-csv.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
# wall SECONDS of a command, output discarded
wall() { s=$(now); "$@" > /dev/null 2>&1 || true; e=$(now); echo "$s $e" | awk '{ printf "%.3f", $2 - $1 }'; }
# peak RSS in MiB of a command
rss() { /usr/bin/time -f %M -o "$tmp/rss" "$@" > /dev/null 2>&1 || true; awk '{ printf "%.1f", $1 / 1024 }' "$tmp/rss"; }

"$tk" generate --dialect os2strace --size "$size" -o "$tmp/strace.out"
bytes=$(wc -c < "$tmp/strace.out")
echo "os2strace input: $bytes bytes"
if command -v mawk > /dev/null && [ -f "$awkcsv" ]; then
	a=$(wall sh "$awkcsv" "$tmp/strace.out")
	c=$(wall "$tk" records --keep-going --format csv --dialect os2strace "$tmp/strace.out")
	j=$(wall "$tk" records --keep-going --format jsonl --dialect os2strace "$tmp/strace.out")
	echo "$a $c $j" | awk '{ printf "awk-strace-csv %.3fs   records csv %.3fs (awk/tracekit %.2fx)   records jsonl %.3fs (awk/tracekit %.2fx)\n", $1, $2, $1 / $2, $3, $1 / $3 }'
else
	echo "awk comparison skipped: mawk or $awkcsv is absent"
fi

base=""
for d in $("$tk" dialects | grep -v binary | cut -d' ' -f1); do
	"$tk" generate --dialect "$d" --size "$size" -o "$tmp/in"
	n=$(wc -c < "$tmp/in")
	t=$(wall "$tk" records --keep-going --format csv --dialect "$d" "$tmp/in")
	r1=$(rss "$tk" records --keep-going --format csv --dialect "$d" "$tmp/in")
	r2=$(rss "$tk" records --keep-going --format csv --dialect "$d" -o "$tmp/out.csv" "$tmp/in")
	mbs=$(echo "$n $t" | awk '{ printf "%.2f", $1 / 1e6 / $2 }')
	[ -n "$base" ] || base=$mbs
	echo "$d $mbs $base $r1 $r2" | awk '{ printf "%-10s records csv %8.2f MB/s   vs os2strace %.2f   peak RSS %6.1f MiB, with -o %6.1f MiB\n", $1, $2, $2 / $3, $4, $5 }'
	rm -f "$tmp/in" "$tmp/out.csv"
done

# A filtered run beside the full one on the same strace log: the filter is
# applied before encoding, so keeping a few records costs less than
# writing them all (issue "Beyond reading").
"$tk" generate --dialect strace --size "$size" -o "$tmp/in"
full=$(wall "$tk" records --keep-going --format jsonl --dialect strace "$tmp/in")
filt=$(wall "$tk" records --keep-going --format jsonl --dialect strace --failed --event 'open*' "$tmp/in")
echo "$full $filt" | awk '{ printf "strace     records jsonl %.3fs, filtered (--failed --event open*) %.3fs: %.2fx the speed%s\n", $1, $2, $1 / $2, ($2 < $1 ? "" : "   NOT FASTER") }'
rm -f "$tmp/in"
