#!/usr/bin/env bash
# verify_side_by_side.sh OLD NEW [MAX_STATES]: runs two scopecheck binaries
# on the same `verify` jobs and compares what they print: every protocol of
# models/ and models/mutants/ on every test of litmus/protocol, and each
# protocol on the tests of its own folder (litmus/sync with gsync and
# sync_events, litmus/rsp with brsp, srsp, srsp_fixed and its mutants,
# litmus/write-atomicity with gpu_vi), with --max-states MAX_STATES
# (default 100000, so that a cut search also compares the order in which
# states were found), traces in full.  The sync and rsp tests run with
# --model none (their models' enumeration takes minutes and does not
# depend on the protocol's interpreter; their verdicts against the models
# are the suites' business: verify_suite.sh); every job has --timeout 120,
# and a job that times out on either side is counted apart, not compared.  The JSON lines are compared with the
# timing fields removed (seconds, states_per_s, peak_rss, bytes_per_state);
# stderr and the exit status are compared as they are.  For a change that
# must not alter any result (the interpreter's speed, issue 22).  Prints
# one line per difference and "side by side: N jobs, M differ"; exit 1 if
# any differs.  Needs jq.
set -u
old=${1:?usage: verify_side_by_side.sh OLD NEW [MAX_STATES]}
new=${2:?usage: verify_side_by_side.sh OLD NEW [MAX_STATES]}
max=${3:-100000}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
strip='del(.. | .seconds?, .states_per_s?, .peak_rss?, .bytes_per_state?)'

# run BIN OUT ARGS...: stdout (timing removed), stderr and the exit status into OUT.*
run() {
    local bin=$1 out=$2
    shift 2
    "$bin" verify --json --trace full --max-states "$max" --timeout 120 "$@" >"$out.raw" 2>"$out.err"
    echo $? >"$out.rc"
    jq -c "$strip" <"$out.raw" >"$out.json" 2>/dev/null || cp "$out.raw" "$out.json"
}

jobs=0 differ=0 timedout=0
compare() {
    jobs=$((jobs + 1))
    run "$old" "$tmp/a" "$@"
    run "$new" "$tmp/b" "$@"
    if grep -q '"stop":"timeout"' "$tmp/a.raw" "$tmp/b.raw"; then
        echo "TIMEOUT: verify $*"
        timedout=$((timedout + 1))
        return
    fi
    for part in json err rc; do
        if ! cmp -s "$tmp/a.$part" "$tmp/b.$part"; then
            echo "DIFFER ($part): verify $*"
            differ=$((differ + 1))
            return
        fi
    done
}

for proto in models/*.proto models/mutants/*.proto; do
    for t in litmus/protocol/*.litmus; do compare --protocol "$proto" "$t"; done
done
for t in litmus/sync/*.litmus; do
    for proto in gsync sync_events; do compare --model none --protocol "$proto" "$t"; done
done
for t in litmus/rsp/*.litmus; do
    for proto in models/brsp.proto models/srsp.proto models/srsp_fixed.proto models/mutants/srsp_fixed_*.proto; do
        compare --model none --protocol "$proto" "$t"
    done
done
for t in litmus/write-atomicity/*.litmus; do compare --protocol gpu_vi --write-atomicity "$t"; done
echo "side by side: $jobs jobs, $differ differ, $timedout timed out (not compared)"
[ "$differ" -eq 0 ]
