#!/usr/bin/env bash
# End-to-end checks of `verify --store` (docs/search.md, "Stores"): every
# row of the protocol suite gives the same report with each compact store
# as with the plain store (scripts/store_compare.sh: the expected values are
# the plain store's, none from the table); a probabilistic search never
# passes (exit 3, "probabilistic", its bound printed) and what it finds
# stands (exit 1, with a replayed trace); bad values and combinations are
# refused.  $1: the scopecheck binary.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# store_table TABLE STORE: one line per row, and one for the table.
store_table() {
    local out
    out=$(SCOPECHECK=$bin bash scripts/store_compare.sh "$1" "$2" 2>&1)
    grep -E '^(SAME|DIFF): ' <<<"$out" | sed -e 's/^SAME:/PASS:/' -e 's/^DIFF:/FAIL:/'
    check "$1 with --store $2: every row as the plain store ($(tail -n 1 <<<"$out"))" grep -q ', 0 differ' <<<"$out"
}
# Tree compression is lossless: whole reports equal, counts and traces included.
store_table litmus/protocol/verify.tsv tree
store_table litmus/sync/verify.tsv tree
# Hash compaction and bit-state: the same verdicts and, unless a state was
# missed, the same counts and traces.  At these sizes (at most 3,760 states
# a row) a miss has probability below n^2/2^65 = 3.8e-13 (hash compaction)
# and an expected count below 1.1e-12 (bit-state, 2^30 bits, 3 a state).
store_table litmus/protocol/verify.tsv hash-compact
store_table litmus/protocol/verify.tsv bitstate

# A probabilistic pass is not a pass.
"$bin" verify --store hash-compact --protocol gpu_vi litmus/protocol/IRIW-acq-4.litmus >"$tmp/out" 2>&1
rc=$?
check "hash-compact, nothing found: exit 3" test "$rc" -eq 3
check "hash-compact: the search says it was probabilistic" grep -q '^search: probabilistic' "$tmp/out"
check "hash-compact: the bound is printed" grep -qE '^hash compaction: .*missed at most [0-9.e-]+$' "$tmp/out"
check "hash-compact: Result Incomplete, never Pass" sh -c "grep -q '^Result Incomplete (the search was probabilistic' '$tmp/out' && ! grep -q '^Result Pass' '$tmp/out'"
"$bin" verify --json --store bitstate --protocol gpu_vi litmus/protocol/IRIW-acq-4.litmus >"$tmp/json" 2>/dev/null
check "bitstate JSON: incomplete \"probabilistic\", complete false, the expected misses" jq -e \
    '.incomplete == "probabilistic" and .complete == false and .result == "Incomplete" and .stats.store == "bitstate"
     and (.stats.probabilistic.expected_missed_states | type) == "number"' "$tmp/json"
"$bin" verify --store bitstate --protocol gpu_vi litmus/protocol/IRIW-acq-4.litmus >"$tmp/out" 2>&1
check "bitstate text: hash factor and coverage as SPIN prints them" grep -qE '^bit-state: .*hash factor [0-9.]+, expected states missed .*coverage' "$tmp/out"

# What a probabilistic search finds is real: a caught mutant fails with its trace.
m=models/mutants/gpu_vi_no_acquire_inval.proto
for st in hash-compact bitstate; do
    "$bin" verify --store $st --trace full --protocol $m litmus/protocol/MP-stale-seed.litmus >"$tmp/out" 2>&1
    rc=$?
    check "$st: a caught mutant still fails (exit 1, Result Fail, a full trace)" sh -c "test $rc -eq 1 &&
        grep -q '^Violation unsound outcome' '$tmp/out' && grep -q '^Result Fail' '$tmp/out' && grep -q '^  1: ' '$tmp/out'"
done
# An unhandled event is located during a probabilistic search (the store
# cannot be read back): the same trace as the plain store's.
grep -v 'recv resp.StoreAck' models/gpu_vi.proto >"$tmp/cut.proto"
"$bin" verify --json --protocol "$tmp/cut.proto" litmus/protocol/MP-stale-seed.litmus | jq -S '.violations' >"$tmp/plain.json"
"$bin" verify --json --store hash-compact --protocol "$tmp/cut.proto" litmus/protocol/MP-stale-seed.litmus |
    jq -S '.violations' >"$tmp/hc.json"
check "unhandled event: the same violations and traces with hash-compact as plain" \
    sh -c "jq -e 'length > 0' '$tmp/plain.json' && cmp -s '$tmp/plain.json' '$tmp/hc.json'"

# Limits with the tree store stop gracefully with partial statistics.
"$bin" verify --store tree --max-states 500 --protocol gpu_vi litmus/protocol/IRIW-acq-4.litmus >"$tmp/out" 2>&1
rc=$?
check "tree, --max-states 500: exit 3, partial statistics, 500 states" sh -c "test $rc -eq 3 &&
    grep -q '^search: stopped by the max-states limit' '$tmp/out' && grep -q '^states: 500$' '$tmp/out'"
# (the tree store's fixed part for a 21-byte state is about 0.65 MiB: a
# memo, a first table and a first arena chunk for each of its 5 nodes)
"$bin" verify --store tree --max-memory 700K --protocol gpu_vi litmus/protocol/IRIW-acq-4.litmus >"$tmp/out" 2>&1
rc=$?
check "tree, --max-memory 700K: exit 3, stopped by the memory limit" sh -c "test $rc -eq 3 &&
    grep -q '^search: stopped by the max-memory limit' '$tmp/out'"
"$bin" verify --store tree --max-memory 100K --protocol gpu_vi litmus/protocol/IRIW-acq-4.litmus >"$tmp/out" 2>&1
rc=$?
check "tree, --max-memory 100K: too small to start, exit 2 with a message" sh -c "test $rc -eq 2 &&
    grep -q 'too small for the search to store its first state' '$tmp/out'"

# Refusals.
"$bin" verify --store lossy --protocol gpu_vi litmus/protocol/MP-stale-seed.litmus >"$tmp/out" 2>"$tmp/err"
rc=$?
check "--store lossy: exit 2 with the values" sh -c "test $rc -eq 2 &&
    grep -q 'store takes plain, tree, hash-compact or bitstate' '$tmp/err'"
"$bin" verify --store hash-compact --liveness --protocol gpu_vi litmus/protocol/MP-stale-seed.litmus >"$tmp/out" 2>"$tmp/err"
rc=$?
check "--store hash-compact --liveness: refused (a lossless store is needed)" sh -c "test $rc -eq 2 &&
    grep -q 'liveness needs a lossless store' '$tmp/err'"
# Liveness runs on the tree store, with the plain store's answer.
for st in plain tree; do
    "$bin" verify --json --store $st --liveness --model none --protocol gpu_vi litmus/protocol/MP-stale-seed.litmus |
        jq -S 'del(.stats.seconds, .stats.states_per_s, .stats.bytes_per_state, .stats.peak_rss, .stats.store,
                   .stats.store_peak_bytes, .options.store)' >"$tmp/live.$st"
done
check "--liveness: the same report with the tree store as with the plain store" cmp -s "$tmp/live.plain" "$tmp/live.tree"
check "--help names --store" sh -c "'$bin' verify --help | grep -q -- '--store KIND'"
exit 0
