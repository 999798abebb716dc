#!/usr/bin/env bash
# bench_protocol.sh [RUNS]: scopecheck's protocol search side by side with
# Rumur on the same state space (a benchmark, not a test).
#
# The Murphi model ../shared/bench/rumur/gpu_vi_litmus.m is the GPU VI
# baseline running litmus programs; models/gpu_vi.proto with the programs in
# litmus/protocol/ is the same system, so the state and transition counts
# must agree.  For each configuration: Rumur (generated, compiled -O3, one
# thread) and `scopecheck verify` are each run RUNS times (default 3) in the
# same invocation of this script; the medians of wall time and peak RSS
# (/usr/bin/time -v) give states/s and RSS bytes per state.
# Needs: rumur, cc, /usr/bin/time, jq.  Writes into out/bench_protocol/.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
cd "$root" || exit 2
runs=${1:-3}
bin=${SCOPECHECK:-bin/scopecheck}
murphi=../shared/bench/rumur/gpu_vi_litmus.m
work=out/bench_protocol
for tool in rumur cc jq /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "bench_protocol.sh: $tool is required" >&2; exit 2; }
done
[ -r "$murphi" ] || { echo "bench_protocol.sh: $murphi not found" >&2; exit 2; }
[ -x "$bin" ] || { echo "bench_protocol.sh: build $bin first (make)" >&2; exit 2; }
mkdir -p "$work"

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# rumur_build NAME TEST NCU NOPS: a Murphi file with those constants, compiled.
rumur_build() {
    sed -e "s/^  TEST   : [0-9]*;/  TEST   : $2;/" -e "s/^  NCU    : [0-9]*;/  NCU    : $3;/" \
        -e "s/^  NOPS   : [0-9]*;/  NOPS   : $4;/" "$murphi" >"$work/$1.m"
    rumur -q --deadlock-detection off --threads 1 "$work/$1.m" -o "$work/$1.c" &&
        cc -O3 -mcx16 -o "$work/$1" "$work/$1.c" -lpthread
}

# measure CMD...: prints "wall_s peak_kib" for one run
measure() {
    /usr/bin/time -v -o "$work/time.txt" "$@" >"$work/stdout.txt" 2>&1
    awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; w = s }
                /Maximum resident set size/ { m = $2 } END { print w, m }' "$work/time.txt"
}

printf '| config | tool | states | transitions | wall s (median of %s) | states/s | peak RSS MiB | RSS bytes/state |\n' "$runs"
printf '|---|---|---|---|---|---|---|---|\n'
# name TEST NCU NOPS litmus
while read -r name test ncu nops litmus; do
    [ -n "$name" ] || continue
    rumur_build "$name" "$test" "$ncu" "$nops" || { echo "rumur build failed for $name" >&2; exit 1; }
    for tool in rumur scopecheck; do
        : >"$work/walls" ; : >"$work/rss"
        for ((i = 1; i <= runs; i++)); do
            if [ "$tool" = rumur ]; then
                read -r w m < <(measure "$work/$name")
                # the closing summary: "N states, M rules fired in T"
                states=$(grep -oE '[0-9]+ states, [0-9]+ rules fired' "$work/stdout.txt" | tail -1 | cut -d' ' -f1)
                trans=$(grep -oE '[0-9]+ rules fired' "$work/stdout.txt" | tail -1 | cut -d' ' -f1)
            else
                # MAXV=1: the Rumur model's values 0..1, wrapping (without it the
                # range is the one each test needs, 0..2 for IRIW-plus-4)
                read -r w m < <(measure "$bin" verify --protocol gpu_vi --const MAXV=1 --symmetry off --json "$litmus")
                states=$(grep '^{' "$work/stdout.txt" | jq -r .stats.states)
                trans=$(grep '^{' "$work/stdout.txt" | jq -r .stats.transitions)
            fi
            echo "$w" >>"$work/walls"; echo "$m" >>"$work/rss"
        done
        wall=$(median <"$work/walls"); rss=$(median <"$work/rss")
        awk -v n="$name" -v t="$tool" -v s="$states" -v tr="$trans" -v w="$wall" -v r="$rss" 'BEGIN {
            rate = (w > 0) ? sprintf("%.0f", s / w) : "-";
            printf "| %s | %s | %s | %s | %.2f | %s | %.1f | %.1f |\n", n, t, s, tr, w, rate, r / 1024, r * 1024 / s }'
    done
done <<'CONFIGS'
mp       0 2 3 litmus/protocol/MP-stale-seed.litmus
iriw     1 4 2 litmus/protocol/IRIW-acq-4.litmus
iriwplus 2 4 3 litmus/protocol/IRIW-plus-4.litmus
iriw6    1 6 2 litmus/protocol/IRIW-acq-6.litmus
CONFIGS
