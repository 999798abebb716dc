#!/usr/bin/env bash
# bench_litmus.sh [RUNS]: throughput of `scopecheck litmus` (a benchmark, not a test).
#
# 1. One process: the whole ptx6 corpus (../shared/corpus/ptx/PTX, when present)
#    and our suite litmus/ptx in ONE `scopecheck litmus --json` run, RUNS times
#    (default 11): tests per second, total wall time per run (median, min), the
#    mean time per test against herd7's 2 ms, the median per-test time_us the
#    tool reports, and peak memory (one more run under /usr/bin/time -v, so
#    that its own start-up is not in the timed runs).
# 2. One process per test: a loop that invokes scopecheck once per file; files
#    per second.
# Binary: $SCOPECHECK, default bin/scopecheck.  Uses bash, date, jq, sort, awk.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
bin=${SCOPECHECK:-$root/bin/scopecheck}
runs=${1:-11}
model=${MODEL:-ptx6}
cd "$root" || exit 2
[ -x "$bin" ] || { echo "bench_litmus.sh: no binary at $bin (make bin/scopecheck)" >&2; exit 2; }
command -v jq >/dev/null || { echo "bench_litmus.sh: jq is required" >&2; exit 2; }

dirs=()
[ -d ../shared/corpus/ptx/PTX ] && dirs+=(../shared/corpus/ptx/PTX)
dirs+=(litmus/ptx)
mapfile -t files < <(find "${dirs[@]}" -name '*.litmus' | sort)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s%N; }
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) { print "nan"; exit } if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "binary: $bin   model: $model   inputs: ${dirs[*]} (${#files[@]} files)   runs: $runs"
echo "== one process for all files"
: >"$tmp/walls"
for ((i = 1; i <= runs; i++)); do
    t0=$(now)
    "$bin" litmus --json --model "$model" "${dirs[@]}" >"$tmp/out.$i" 2>"$tmp/err.$i"
    rc=$?
    t1=$(now)
    ns=$((t1 - t0))
    echo "$ns" >>"$tmp/walls"
    ntests=$(grep -c . "$tmp/out.$i")
    awk -v ns="$ns" -v n="$ntests" -v i="$i" -v rc="$rc" 'BEGIN {
        s = ns / 1e9; printf "run %d: %d tests in %.3f s = %.1f tests/s (exit %d)\n", i, n, s, (s > 0 ? n / s : 0), rc }'
done
ntests=$(grep -c . "$tmp/out.1")
med_ns=$(median <"$tmp/walls")
min_ns=$(sort -n "$tmp/walls" | head -1)
jq -r '.time_us' "$tmp"/out.* >"$tmp/us" 2>/dev/null
med_us=$(median <"$tmp/us")
max_line=$(jq -r '[.time_us, .file] | @tsv' "$tmp/out.1" 2>/dev/null | sort -n | tail -1)
mem=
if [ -x /usr/bin/time ] && /usr/bin/time -v true >/dev/null 2>&1; then
    /usr/bin/time -v -o "$tmp/timev" "$bin" litmus --json --model "$model" "${dirs[@]}" >/dev/null 2>&1
    mem=$(awk -F': ' '/Maximum resident set size/ { printf "%.1f MiB", $2 / 1024 }' "$tmp/timev")
fi
awk -v med="$med_ns" -v min="$min_ns" -v n="$ntests" -v us="$med_us" -v mx="$max_line" -v mem="${mem:-n/a}" 'BEGIN {
    ms = (n > 0 ? med / 1e6 / n : 0)
    printf "one process: %d tests, wall median %.3f s (min %.3f s), %.1f tests/s (median run)\n", n, med / 1e9, min / 1e9, (med > 0 ? n / (med / 1e9) : 0)
    printf "mean per test, start-up included: %.3f ms = %.1fx herd7 at 2 ms a test\n", ms, (ms > 0 ? 2 / ms : 0)
    printf "per-test time_us: median %s us; slowest: %s\n", us, mx
    printf "peak RSS (one more run under /usr/bin/time -v): %s\n", mem }'
if [ -s "$tmp/err.1" ]; then echo "note: stderr of run 1 (first 3 lines):"; head -3 "$tmp/err.1"; fi

echo "== one process per file"
t0=$(now)
fail=0
for f in "${files[@]}"; do
    "$bin" litmus --json --model "$model" "$f" >/dev/null 2>&1 || fail=$((fail + 1))
done
t1=$(now)
awk -v ns="$((t1 - t0))" -v n="${#files[@]}" -v fail="$fail" 'BEGIN {
    s = ns / 1e9; printf "per-file processes: %d files in %.3f s = %.1f files/s (%d nonzero exits)\n", n, s, (s > 0 ? n / s : 0), fail }'
