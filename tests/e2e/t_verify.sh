#!/usr/bin/env bash
# End-to-end checks of `scopecheck verify`: the GPU VI baseline reproduces
# the reference state counts and is sound on our litmus suite; each mutant in
# models/mutants/ is caught by its litmus test, with exit status 1 and a
# trace; bad input and limits behave.  $1: the scopecheck binary.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

count_is() { # FILE STATES TRANSITIONS
    "$bin" verify --protocol gpu_vi --json "$1" >"$tmp/c.json" &&
        jq -e --argjson s "$2" --argjson t "$3" '.stats.states == $s and .stats.transitions == $t and .sound and .complete' "$tmp/c.json" >/dev/null
}
check "MP (2 CUs): 268 states, 541 transitions, sound" count_is litmus/protocol/MP-stale-seed.litmus 268 541
check "IRIW (4 CUs): 3760 states, 11916 transitions, sound" count_is litmus/protocol/IRIW-acq-4.litmus 3760 11916

# The baseline is sound on every test of our suite (values up to 3), barriers included.
for f in litmus/ptx/*.litmus; do
    check "baseline sound on $(basename "$f")" "$bin" verify --protocol gpu_vi --const MAXV=3 "$f"
done
for f in litmus/protocol/*.litmus; do
    grep -q '\.sys' "$f" && continue    # one GPU, one L2: gpu_vi refuses .sys (t_verify_multi.sh)
    check "baseline sound on $(basename "$f")" "$bin" verify --protocol gpu_vi "$f"
done

# Every mutant is caught by its named test: exit 1, an unsound outcome, a trace.
caught() { # MUTANT LITMUS
    "$bin" verify --protocol "models/mutants/$1.proto" "litmus/protocol/$2.litmus" >"$tmp/m.out" 2>&1
    local rc=$?
    [ "$rc" -eq 1 ] && grep -q '^Violation unsound outcome' "$tmp/m.out" && grep -q '^Trace' "$tmp/m.out" &&
        grep -q '^Result Fail' "$tmp/m.out"
}
check "mutant: acquire does not invalidate, caught by MP-stale-seed" caught gpu_vi_no_acquire_inval MP-stale-seed
check "mutant: gpu atomics at the L1, caught by RMW-after-seed" caught gpu_vi_atomics_at_l1 RMW-after-seed
check "mutant: reordering network, caught by CoWR-miss" caught gpu_vi_reordering_net CoWR-miss
check "mutant: release does not wait for acks (unordered network), caught by MP-release" caught gpu_vi_release_no_wait MP-release
check "the unordered-network baseline passes MP-release" "$bin" verify --protocol models/gpu_vi_unordered.proto litmus/protocol/MP-release.litmus
check "the unordered-network baseline passes MP-stale-seed" "$bin" verify --protocol models/gpu_vi_unordered.proto litmus/protocol/MP-stale-seed.litmus
for m in models/mutants/*.proto; do
    n=$(basename "$m" .proto)
    check "mutant $n names the test that catches it" grep -qE 'litmus/[a-z-]+/[A-Za-z0-9_+-]+\.litmus' "$m"
done

# JSON: the keys of the issue, and a trace for the violation.
"$bin" verify --json --protocol models/mutants/gpu_vi_no_acquire_inval.proto litmus/protocol/MP-stale-seed.litmus >"$tmp/v.json"
check "JSON: keys test, protocol, model, sound, outcomes, deadlocks, violations" \
    jq -e 'has("test") and has("protocol") and has("model") and (.sound == false) and (.protocol_outcomes|type)=="array" and (.model_outcomes|type)=="array" and (.deadlocks|type)=="array" and (.violations|length) > 0' "$tmp/v.json"
check "JSON: the violation has a step-by-step trace" jq -e '.violations[0].kind == "unsound" and (.violations[0].trace | length) > 3' "$tmp/v.json"

# Limits stop the search gracefully, with partial statistics.
"$bin" verify --protocol gpu_vi --max-states 1000 --json litmus/protocol/IRIW-plus-4.litmus >"$tmp/l.json"
check "--max-states stops the search and says so" jq -e '.complete == false and .stats.stop == "max-states" and .stats.states <= 1000' "$tmp/l.json"
"$bin" verify --protocol gpu_vi --max-states 1000 litmus/protocol/IRIW-plus-4.litmus >"$tmp/l.out"
check "text output says the search was incomplete" grep -q '^Result Incomplete' "$tmp/l.out"

# Bad input: exit 2, a located message, nothing on stdout.
printf 'protocol broken\ntable L9\n' >"$tmp/bad.proto"
"$bin" verify --protocol "$tmp/bad.proto" litmus/protocol/MP-stale-seed.litmus >"$tmp/o" 2>"$tmp/e"
rc=$?
check "bad protocol file: exit 2" test "$rc" -eq 2
check "bad protocol file: file:line:col error" grep -qE "^$tmp/bad.proto:[0-9]+:[0-9]+: error: " "$tmp/e"
check "bad protocol file: nothing on stdout" test ! -s "$tmp/o"
# A surface (proxy) store: no protocol table runs proxies.
printf 'PTX Surf\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n sust.weak x, 1 ;\nexists (x == 1)\n' >"$tmp/surf.litmus"
"$bin" verify --protocol gpu_vi "$tmp/surf.litmus" >"$tmp/o" 2>"$tmp/e"
check "unsupported instruction: exit 2 with its position" sh -c "[ $? -eq 2 ] && grep -qE '^$tmp/surf.litmus:6:2: error: ' '$tmp/e'"
check "no --protocol: exit 2" sh -c "'$bin' verify litmus/protocol/MP-stale-seed.litmus; [ \$? -eq 2 ]"
check "unknown protocol name: exit 2" sh -c "'$bin' verify --protocol nosuch litmus/protocol/MP-stale-seed.litmus; [ \$? -eq 2 ]"
check "bad --max-states: exit 2" sh -c "'$bin' verify --protocol gpu_vi --max-states x litmus/protocol/MP-stale-seed.litmus; [ \$? -eq 2 ]"
exit 0

# The L2 in two slices: the baseline stays sound; without holding misses
# back during an acquire it is not (the bug one ordered L2 channel hides).
for f in litmus/ptx/*.litmus litmus/protocol/*.litmus; do
    grep -q '\.sys' "$f" && continue
    case $f in *IRIW-plus-4* | *IRIW-acq-6*) continue ;; esac
    check "baseline with NSLICE=2 sound on $(basename "$f")" "$bin" verify --protocol gpu_vi --const NSLICE=2 --const MAXV=3 "$f"
done
check "mutant: misses during an acquire, sliced L2, caught by MP-shared-cu-fill" caught gpu_vi_miss_during_acquire MP-shared-cu-fill
"$bin" verify --protocol models/mutants/gpu_vi_miss_during_acquire.proto litmus/protocol/MP-shared-cu-fill.litmus >"$tmp/s.out" 2>&1
check "trace names the slices" grep -qE '^  [0-9]+: \(slice 0\) L2\[x\] in V: recv req\[0->0\]\.Load\(x\)' "$tmp/s.out"
for t in MP-stale-seed IRIW-acq-4; do
    "$bin" verify --protocol gpu_vi --json "litmus/protocol/$t.litmus" >"$tmp/a.json"
    "$bin" verify --protocol gpu_vi --const NSLICE=2 --json "litmus/protocol/$t.litmus" >"$tmp/b.json"
    check "$t: two slices, the same outcomes" jq -e --slurpfile a "$tmp/a.json" '.protocol_outcomes == $a[0].protocol_outcomes and .sound' "$tmp/b.json"
done
