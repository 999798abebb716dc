#!/usr/bin/env bash
# bench_sim.sh: scopesim's speed and memory (docs/PERFORMANCE.md).
# Exports gpu_vi (4 L2 slices), then simulates two workloads of at least
# ten million memory operations on the Titan V-like system (80 CUs):
#   misses  reuse.wl with 400 kernels: every load misses the L1 (the
#           kernel boundary's acquire invalidates it), 2 messages and 3
#           table rows per operation
#   hits    a sharing kernel reading a 64-line window 16 times: about 83%
#           of loads hit the L1
# and prints operations and messages per second of processor time (one
# core: the simulator is single-threaded), and the peak resident memory
# of each workload at two lengths (twice the kernels), which must not
# grow with simulated time.
set -eu
cd "$(dirname "$0")/.."
make -s bin/scopecheck bin/scopesim
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin/scopecheck export --protocol gpu_vi --const NSLICE=4 litmus/protocol/MP-stale-seed.litmus \
    litmus/protocol/MP-shared-cu-fill.litmus -o "$tmp/t.json" >/dev/null
printf 'workload hits\nkind sharing\nwindow 64\nreuse 16\nremote 0\nwrites 8\nboundary gpu\n' >"$tmp/hits.wl"
printf '%-8s %8s %11s %11s %9s %12s %14s %10s\n' workload kernels operations messages cpu_s ops_per_s messages_per_s peak_rss
one() { # NAME WORKLOAD KERNELS
    /usr/bin/time -f '%M' -o "$tmp/rss" bin/scopesim --tables "$tmp/t.json" --system models/sim/titanv.sys \
        --workload "$2" --work "kernels $3" --quiet --no-progress --json "$tmp/r.json"
    jq -r --arg n "$1" --arg k "$3" --arg rss "$(cat "$tmp/rss") KB" \
        '[$n, $k, .ops, .messages, .cpu_seconds, .ops_per_second, .messages_per_second, $rss] | @tsv' "$tmp/r.json" |
        awk -F'\t' '{ printf "%-8s %8s %11s %11s %9.2f %12s %14s %10s\n", $1, $2, $3, $4, $5, $6, $7, $8 }'
    rm -f "$tmp/r.json"
}
one misses models/sim/reuse.wl 400
one misses models/sim/reuse.wl 800
one hits "$tmp/hits.wl" 32
one hits "$tmp/hits.wl" 64
