#!/usr/bin/env bash
# bench_search.sh: throughput and memory of the breadth-first back end on a
# synthetic model (tests/bench/bench_search.c), one core, 3 runs per
# configuration, median states/s.  Usage: scripts/bench_search.sh [bin/bench_search]
set -euo pipefail
bench=${1:-bin/bench_search}
[ -x "$bench" ] || { echo "bench_search.sh: build it first: make bin/bench_search" >&2; exit 2; }
pin=()
command -v taskset >/dev/null && pin=(taskset -c 0)

# NC MAXV SB: counters, counter range 0..MAXV, state bytes
configs=("8 5 38" "7 7 38" "9 4 38" "8 5 64")

field() { awk -v k="$1: " 'index($0, k) == 1 { print substr($0, length(k) + 1); exit }'; }

echo "| counters | range | state bytes | states | transitions | states/s (median of 3) | transitions/s | store bytes/state | peak RSS MiB | RSS bytes/state |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for c in "${configs[@]}"; do
    read -r nc maxv sb <<<"$c"
    rates=()
    for _ in 1 2 3; do
        out=$("${pin[@]}" "$bench" "$nc" "$maxv" "$sb")
        rates+=("$(field 'states/s' <<<"$out") $(field 'transitions/s' <<<"$out")")
    done
    med=$(printf '%s\n' "${rates[@]}" | sort -n | sed -n 2p)
    echo "| $nc | 0..$maxv | $sb | $(field states <<<"$out") | $(field transitions <<<"$out") |" \
         "${med% *} | ${med#* } | $(field 'bytes/state' <<<"$out") |" \
         "$(field 'peak RSS MiB' <<<"$out") | $(field 'RSS bytes/state' <<<"$out") |"
done
echo
echo "Rumur (shared/bench/rumur/README.md, iriw6, 1 core): 109,077 states/s, 63.7 RSS bytes/state for 38-byte states."
