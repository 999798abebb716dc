#!/usr/bin/env bash
# End-to-end checks of `verify --threads N` (docs/search.md, the
# multi-threaded search): every row of the protocol tables gives, with 2 and
# 3 threads, the report one thread gives (verdicts, outcomes, states,
# transitions, traces; scripts/threads_compare.sh), the statistics say how
# many threads ran, limits behave, bad values are refused.  $1: the
# scopecheck binary.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# threads_compare TABLE COUNTS...: one PASS/FAIL line per row and count,
# and one for the table.
threads_compare() {
    local out
    out=$(SCOPECHECK=$bin bash scripts/threads_compare.sh "$@" 2>&1)
    grep -E '^(PASS|FAIL): ' <<<"$out"
    check "$1: every row the same with --threads ${*:2} ($(tail -n 1 <<<"$out"))" grep -q ', 0 failed' <<<"$out"
}
threads_compare litmus/protocol/verify.tsv 2 3
threads_compare litmus/write-atomicity 2
threads_compare litmus/rsp/variants.tsv 2

# The statistics say how many threads ran; the JSON too.
"$bin" verify --protocol gpu_vi --threads 2 litmus/protocol/IRIW-acq-4.litmus >"$tmp/t2" 2>&1
check "--threads 2: text statistics say threads: 2, the reference counts 3760/11916" sh -c \
    "grep -qx 'threads: 2' '$tmp/t2' && grep -qx 'states: 3760' '$tmp/t2' && grep -qx 'transitions: 11916' '$tmp/t2'"
"$bin" verify --json --protocol gpu_vi --threads 3 litmus/protocol/IRIW-acq-4.litmus >"$tmp/t3.json" 2>/dev/null
check "--threads 3: JSON stats.threads 3" jq -e '.stats.threads == 3 and .stats.states == 3760' "$tmp/t3.json"
cores=$(nproc)
"$bin" verify --json --protocol gpu_vi litmus/protocol/MP-stale-seed.litmus >"$tmp/def.json" 2>/dev/null
check "no --threads: as many threads as cores available ($cores)" jq -e ".stats.threads == $cores" "$tmp/def.json"
# The liveness pass runs on one thread whatever --threads says.
"$bin" verify --json --liveness --protocol gpu_vi --threads 4 litmus/protocol/MP-stale-seed.litmus >"$tmp/live.json" 2>/dev/null
check "--liveness --threads 4: the search runs on one thread" jq -e '.stats.threads == 1' "$tmp/live.json"

# --max-states is exact with several threads, and the run is incomplete.
"$bin" verify --json --protocol gpu_vi --threads 2 --max-states 1000 litmus/protocol/IRIW-acq-4.litmus \
    >"$tmp/cut.json" 2>/dev/null
rc=$?
check "--threads 2 --max-states 1000: exit 3, Incomplete, exactly 1000 states" sh -c \
    "test $rc -eq 3 && jq -e '.result == \"Incomplete\" and .stats.states == 1000 and .stats.stop == \"max-states\"' '$tmp/cut.json'"
"$bin" verify --json --protocol gpu_vi --threads 2 --max-memory 300K litmus/protocol/IRIW-plus-4.litmus \
    >"$tmp/mem.json" 2>/dev/null
rc=$?
check "--threads 2 --max-memory 300K: exit 3, stopped by max-memory" sh -c \
    "test $rc -eq 3 && jq -e '.result == \"Incomplete\" and .stats.stop == \"max-memory\"' '$tmp/mem.json'"

# Bad values: exit 2 and a message.
for v in 0 -1 abc 257 2x; do
    "$bin" verify --protocol gpu_vi --threads "$v" litmus/protocol/MP-stale-seed.litmus >/dev/null 2>"$tmp/err"
    rc=$?
    check "--threads $v: exit 2 with a message" sh -c \
        "test $rc -eq 2 && grep -q 'threads takes a whole number from 1 to 256' '$tmp/err'"
done
check "--help names --threads" sh -c "'$bin' verify --help | grep -q -- '--threads N'"
