#!/usr/bin/env bash
# End-to-end checks of honest results (issue 10 items 1, 2, 7; issue 11
# items 5, 7): a cut search is never a pass (exit 3, "Result Incomplete",
# JSON "complete": false), a violation found before the cut stands (exit 1),
# a test the model leaves undefined passes with its races reported, results
# that cannot be written are exit 2, and SIGINT/SIGTERM stop a run as a
# limit would.  $1: the scopecheck binary.
#
# Expected values and why (independent of the code under test):
# - IRIW-plus-4 on gpu_vi has 295805 reachable states (t_verify.sh checks
#   the Rumur-equal counts of smaller tests; this one is just "large"), so a
#   search cut at 1000 states, 64 KiB or 1 ms explores only a part of it.
# - The mutant gpu_vi_no_acquire_inval produces the outcome r1=1, r2=0 of
#   MP-stale-seed that ptx6 forbids (models/mutants/ says so; t_verify.sh
#   catches it with a full search): found before a cut, it stands.
# - An invariant `state == I` on every L1 line is false as soon as a fill
#   makes a line V (gpu_vi's table: a LoadResp moves I to V).
# - MP-weak has plain (weak) accesses from two threads to x and y with no
#   synchronisation: a data race under SC-for-HRF, which herd reports as
#   Undef (litmus says Undef too); every protocol outcome is then allowed.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# jtrue FILTER FILE: FILE is non-empty JSON and FILTER gives true on its
# last line (plain `jq -e` passes on an empty file).
jtrue() {
    [ -s "$2" ] && [ "$(jq -c "$1" "$2" 2>/dev/null | tail -n 1)" = true ]
}

status_is() { # WANT CMD...: the command's exit status is WANT
    local want=$1; shift
    "$@" >/dev/null 2>&1
    [ $? -eq "$want" ]
}

# ---- 10.1: a cut search is not a pass ------------------------------------------
big=litmus/protocol/IRIW-plus-4.litmus
for limit in "--max-states 1000" "--max-memory 64K" "--timeout 0.001"; do
    name=${limit%% *}
    "$bin" verify --protocol gpu_vi $limit "$big" >"$tmp/cut.out" 2>/dev/null
    rc=$?
    check "$name: exit status 3" test "$rc" -eq 3
    check "$name: Result Incomplete" grep -q '^Result Incomplete' "$tmp/cut.out"
    check "$name: never Sound yes" bash -c "! grep -q '^Sound yes' '$tmp/cut.out'"
    check "$name: soundness unknown" grep -q '^Sound unknown' "$tmp/cut.out"
    "$bin" verify --protocol gpu_vi --json $limit "$big" >"$tmp/cut.json" 2>/dev/null
    check "$name: JSON complete false, the reason, result Incomplete, sound null" \
        jtrue ".complete == false and .incomplete == \"${name#--}\" and .result == \"Incomplete\" and .sound == null and .unobserved == null" "$tmp/cut.json"
done
check "a complete search still passes with status 0" status_is 0 "$bin" verify --protocol gpu_vi litmus/protocol/MP-stale-seed.litmus

# A violation found before the cut stands.
mut=models/mutants/gpu_vi_no_acquire_inval.proto
full=$("$bin" verify --protocol "$mut" --json litmus/protocol/MP-stale-seed.litmus | jq .stats.states)
"$bin" verify --protocol "$mut" --json --max-states $((full - 1)) litmus/protocol/MP-stale-seed.litmus >"$tmp/vc.json"
rc=$?
check "violation before a cut: exit 1" test "$rc" -eq 1
check "violation before a cut: Fail, sound false, incomplete max-states" \
    jtrue '.result == "Fail" and .sound == false and .complete == false and .incomplete == "max-states" and (.violations | length) > 0' "$tmp/vc.json"

# A search stopped at an invariant violation says nothing about soundness.
cat >"$tmp/inv.proto" <<'PROTO'
protocol gpu_vi_never_valid extends "GPU_VI"
invariant never_valid L1 : state == I
PROTO
sed -i "s|GPU_VI|$PWD/models/gpu_vi.proto|" "$tmp/inv.proto"
"$bin" verify --protocol "$tmp/inv.proto" litmus/protocol/MP-stale-seed.litmus >"$tmp/inv.out" 2>"$tmp/inv.err"
rc=$?
check "invariant stop: exit 1" test "$rc" -eq 1
check "invariant stop: the violation is reported" grep -q '^Violation invariant never_valid' "$tmp/inv.out"
check "invariant stop: never Sound yes" bash -c "! grep -q '^Sound yes' '$tmp/inv.out'"
check "invariant stop: Result Fail" grep -q '^Result Fail' "$tmp/inv.out"
"$bin" verify --protocol "$tmp/inv.proto" --json litmus/protocol/MP-stale-seed.litmus >"$tmp/inv.json" 2>/dev/null
check "invariant stop: JSON incomplete violation, sound null" \
    jtrue '.complete == false and .incomplete == "violation" and .sound == null and .result == "Fail"' "$tmp/inv.json"

# ---- 10.2: undefined behaviour ----------------------------------------------------
"$bin" litmus --model hrf-direct --races litmus/ptx/MP-weak.litmus >"$tmp/undef.lit"
check "litmus says Undef under hrf-direct" grep -qx 'Undef' "$tmp/undef.lit"
"$bin" verify --protocol gpu_vi --const NSLICE=2 --model hrf-direct litmus/ptx/MP-weak.litmus >"$tmp/undef.out" 2>&1
rc=$?
check "verify under a model that leaves the test undefined: exit 0" test "$rc" -eq 0
check "verify: Result Pass" grep -q '^Result Pass' "$tmp/undef.out"
check "verify: no unsound-outcome violation" bash -c "! grep -q '^Violation unsound' '$tmp/undef.out'"
check "verify: says the test is undefined" grep -q '^Undefined: the model flags race-unordered' "$tmp/undef.out"
check "verify: the racing pairs are those litmus --races gives" \
    diff <(grep '^Race ' "$tmp/undef.lit") <(grep '^Race ' "$tmp/undef.out")
"$bin" verify --protocol gpu_vi --const NSLICE=2 --model hrf-direct --json litmus/ptx/MP-weak.litmus >"$tmp/undef.json"
check "verify JSON: undefined, races, pass" \
    jtrue '.undefined == true and .result == "Pass" and .sound == true and (.races | length) == 2 and (.flags == ["race-unordered"])' "$tmp/undef.json"
"$bin" verify --protocol gpu_vi --json litmus/ptx/MP-weak.litmus >"$tmp/def.json"
check "under ptx6 the same protocol run is judged (MP-weak is defined there)" \
    jtrue ".undefined == false" "$tmp/def.json"

# ---- 11.5: results that cannot be written ------------------------------------------
for cmd in "litmus litmus/ptx/MP-weak.litmus" "verify --protocol gpu_vi litmus/ptx/MP-weak.litmus" \
           "graph --protocol gpu_vi litmus/protocol/MP-stale-seed.litmus -o $tmp/g.dot"; do
    "$bin" $cmd >/dev/full 2>"$tmp/full.err"
    rc=$?
    check "${cmd%% *} to /dev/full: exit 2" test "$rc" -eq 2
    check "${cmd%% *} to /dev/full: says why" grep -q 'cannot write the results: No space left on device' "$tmp/full.err"
done
"$bin" litmus --json litmus/ptx >/dev/full 2>/dev/null
check "litmus --json to /dev/full: exit 2" test $? -eq 2
"$bin" litmus -j 2 litmus/ptx >/dev/full 2>/dev/null
check "litmus -j 2 to /dev/full: exit 2" test $? -eq 2

# ---- 11.7: signals stop a run as a limit would ---------------------------------------
# IRIW-plus-5 on gpu_vi takes a minute on one thread (19 million states);
# IRIW-acq-6, used before, now ends within the second (two threads, a
# faster interpreter).
stop_run() { # SIGNAL OUT ERR CMD...: start, signal after 1 s, wait; echo the status
    local sig=$1 o=$2 e=$3; shift 3
    env --default-signal=INT "$@" >"$o" 2>"$e" &
    local pid=$!
    sleep 1
    kill "-$sig" "$pid" 2>/dev/null
    wait "$pid"
    echo $?
}
for sig in INT TERM; do
    rc=$(stop_run $sig "$tmp/sig.out" "$tmp/sig.err" "$bin" verify --symmetry off --threads 1 --const MAXV=1 --protocol gpu_vi tests/bench/IRIW-plus-5.litmus litmus/protocol/MP-stale-seed.litmus)
    check "verify SIG$sig: exit 3" test "$rc" -eq 3
    check "verify SIG$sig: partial statistics flushed" grep -q '^search: interrupted (partial statistics)' "$tmp/sig.out"
    check "verify SIG$sig: Result Incomplete" grep -q '^Result Incomplete (interrupted' "$tmp/sig.out"
    check "verify SIG$sig: the unchecked file is counted" grep -q 'interrupted; 1 of 2 files not checked' "$tmp/sig.err"
done
# A violation found before the signal stands: the mutant's outcome is found
# in the first file; the second is cut.
rc=$(stop_run TERM "$tmp/sv.out" "$tmp/sv.err" "$bin" verify --protocol "$mut" litmus/protocol/MP-stale-seed.litmus litmus/protocol/IRIW-acq-6.litmus)
check "violation then SIGTERM: exit 1" test "$rc" -eq 1

# A long litmus run: five writes a location from two threads and two readers.
cat >"$tmp/heavy.litmus" <<'LIT'
PTX Heavy
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 | P3@cta 3,gpu 0 ;
 st.weak x, 1   | st.weak x, 2   | ld.weak r0, x  | ld.weak r0, y  ;
 st.weak y, 1   | st.weak y, 2   | ld.weak r1, y  | ld.weak r1, x  ;
 st.weak x, 3   | st.weak x, 4   | ld.weak r2, x  | ld.weak r2, y  ;
 st.weak y, 3   | st.weak y, 4   | ld.weak r3, y  | ld.weak r3, x  ;
 st.weak x, 5   | st.weak y, 5   | ld.weak r4, x  | ld.weak r4, y  ;
exists (P2:r0 == 5 /\ P2:r2 == 1)
LIT
# Heavy's condition is never met (P0 writes x = 1 before x = 5, so reading 5
# and then 1 breaks coherence), so no execution settles it before the end;
# HeavyOk's is met by any execution where P2 first reads the initial x = 0,
# found long before the signal: that verdict stands.
sed -e 's/^PTX Heavy/PTX HeavyOk/' -e 's/^exists .*/exists (P2:r0 == 0)/' "$tmp/heavy.litmus" >"$tmp/heavyok.litmus"
rc=$(stop_run INT "$tmp/lh.out" "$tmp/lh.err" "$bin" litmus "$tmp/heavy.litmus" litmus/ptx/MP-weak.litmus)
check "litmus SIGINT: exit 3" test "$rc" -eq 3
check "litmus SIGINT: the verdict is Unknown, not Ok/No" grep -qx 'Unknown' "$tmp/lh.out"
check "litmus SIGINT: the block says so" grep -q '^Warning Heavy: interrupted' "$tmp/lh.out"
rc=$(stop_run INT "$tmp/lk.out" "$tmp/lk.err" "$bin" litmus "$tmp/heavyok.litmus")
check "litmus SIGINT: exit 3" test "$rc" -eq 3
check "litmus SIGINT: a verdict settled before the signal stands (Ok)" grep -qx 'Ok' "$tmp/lk.out"
check "litmus SIGINT: the block says it was cut" grep -q '^Warning HeavyOk: interrupted' "$tmp/lk.out"
check "litmus SIGINT: the unchecked file is counted" grep -q 'interrupted; 1 of 2 files not checked' "$tmp/lh.err"
rc=$(stop_run TERM "$tmp/lj.out" "$tmp/lj.err" "$bin" litmus --json "$tmp/heavy.litmus")
check "litmus --json SIGTERM: exit 3" test "$rc" -eq 3
check "litmus --json SIGTERM: complete false, interrupted, Unknown" \
    jtrue '.complete == false and .incomplete == "interrupted" and .verdict == "Unknown"' "$tmp/lj.out"
exit 0
