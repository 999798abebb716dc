#!/usr/bin/env bash
# End-to-end checks of the statistics an architect expects from gem5
# (issue 28, item 5): memory-side hits in the text summary and the CSV
# (not only the JSON), average and tail load latency, utilisation of
# controllers and links, stalls by cause in the text, kernels done of the
# workload's.  Every expected figure is derived by hand below, from
# tiny.sys (L1 2 cycles, fill 2; L2 10; DRAM 50 and 2 cycles a line; local
# links 3 cycles plus 1 to serialise any message) with one CU of one warp
# of one slot.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
sim=$(dirname "$bin")/scopesim
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" export --protocol gpu_vi litmus/protocol/MP-stale-seed.litmus litmus/protocol/MP-shared-cu-fill.litmus \
    -o "$tmp/vi.json" >/dev/null 2>&1 || echo "FAIL: export gpu_vi"
sys=(--system models/sim/tiny.sys --sys 'cus_per_gpm 1')

# The stream of 2 lines derived in t_scopesim.sh: 219 cycles; ld A0 issued
# at 0, done 72; ld A1 issued 74 (when st B0 is done), done 146: both
# loads 72 cycles.  8 messages, 4 on req (Load, Store, Load, Store) and 4
# on resp, each 1 cycle on its channel's own port: each port busy 4 of
# 219 cycles, 0.0183.  The L1 fires 9 rows (2 loads, 2 fills, 2 stores, 2
# StoreAcks, the fence) at rate 1: 9 / 219 = 0.0411; the L2 4 rows: 0.0183.
printf 'workload s2\nkind stream\nlines 2\n' >"$tmp/s2.wl"
"$sim" --tables "$tmp/vi.json" "${sys[@]}" --workload "$tmp/s2.wl" --json "$tmp/s.json" >"$tmp/s.out"
check "load latency: 2 loads, average 72, median 72, 99th percentile 72, largest 72 (JSON)" \
    jq -e '.load_latency == {"loads": 2, "average": 72, "p50": 72, "p99": 72, "max": 72}' "$tmp/s.json"
check "load latency in the text" grep -qF "loads 2, latency average 72.0, median 72, 99th percentile 72, largest 72 cycles" "$tmp/s.out"
check "utilisation: L1 9/219, L2 4/219, local links 4/219 each (JSON)" \
    jq -e '.controllers.L1.utilisation == 0.0411 and .controllers.L2.utilisation == 0.0183
           and .links.local.utilisation == 0.0183 and .links.local.peak_utilisation == 0.0183' "$tmp/s.json"
check "utilisation in the text" grep -qE '^  L1 +l1 .*busy 4\.1% \(busiest 4\.1%\)$' "$tmp/s.out"
check "links in the text" grep -qF "  links: local 8 messages, busy 1.8% (busiest 1.8%)" "$tmp/s.out"
# stalls as t_scopesim.sh derives them: the fence waits 69, the loads 2 ...
check "stalls by cause in the text, largest first" grep -qE '^  stalls: .*table_fence 69, acquire 2' "$tmp/s.out"
check "kernels: 1 of 1 done" grep -qF "kernels 1 of 1 done;" "$tmp/s.out"

# Memory-side hits.  gpu_vi's L2 is memory-backed: a cache given to it is
# a memory-side cache.  reuse.wl with 2 lines, no writes, 2 kernels: the
# first kernel reads A0 and A1 (2 memory-side misses, 2 DRAM accesses,
# 72 cycles each as above); the boundary invalidates the L1; the second
# reads them again: L1 misses, memory-side hits, no DRAM: 2 + 1 + 3
# (link) + 10 (L2) + 1 + 3 + 2 (fill) = 22 cycles each.  Latencies 72, 72,
# 22, 22: average 47, median (the 2nd of 4) 22, 99th percentile (the 4th)
# 72.
printf 'workload r2\nkind reuse\nlines 2\nwrites 0\nkernels 2\n' >"$tmp/r2.wl"
"$sim" --tables "$tmp/vi.json" "${sys[@]}" --sys 'l2 latency 10 rate 1 cache 64K 4 lru' --workload "$tmp/r2.wl" \
    --json "$tmp/m.json" --csv "$tmp/m.csv" >"$tmp/m.out"
check "memory-side: 2 hits, 2 misses, 2 DRAM accesses (JSON)" \
    jq -e '.controllers.L2.mem_hits == 2 and .controllers.L2.mem_misses == 2 and .controllers.L2.dram == 2' "$tmp/m.json"
check "memory-side hits in the text" grep -qE '^  L2 +l2 .*dram 2, memory-side hits 2, misses 2,' "$tmp/m.out"
col() { # COLUMN: the CSV's value in that named column
    awk -F, -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i } NR == 2 { print $k }' "$tmp/m.csv"
}
check "memory-side hits in the CSV" test "$(col L2.mem_hits),$(col L2.mem_misses)" = "2,2"
check "load latency in the CSV: 47, 22, 72, 72" \
    test "$(col load_latency_avg),$(col load_latency_p50),$(col load_latency_p99),$(col load_latency_max)" = "47.00,22,72,72"
check "kernels 2 of 2 (text, JSON, CSV)" \
    sh -c "grep -qF 'kernels 2 of 2 done;' '$tmp/m.out' && jq -e '.kernels == 2 and .kernels_total == 2' '$tmp/m.json' >/dev/null && [ '$(col kernels)' = 2 ]"
