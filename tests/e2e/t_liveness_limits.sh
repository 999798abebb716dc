#!/usr/bin/env bash
# End-to-end checks that --timeout, --max-memory and SIGTERM stop the liveness
# pass of `scopecheck litmus --liveness` promptly and honestly (docs/liveness.md,
# "Limits"): a cut check says `Liveness NAME Unknown` with the reason, never Ok,
# JSON "liveness":"Unknown" with "complete":false and "incomplete", exit status 3.
# The slow test is litmus/sync/HS-2counter.litmus under ptx6, whose liveness
# pass runs for minutes (docs/PERFORMANCE.md); its safety half (--unroll 0)
# takes well under a second, so what the limit cuts is the liveness pass.
# The wall bounds are generous (40 s: a loaded 2-core machine stretched a 2 s
# stop to 18 s): what they catch is a
# pass that does not look at the limit at all.
set -u
bin=$1
cd "$(dirname "$0")/../.." || exit 0
. tests/e2e/lib.sh
slow=litmus/sync/HS-2counter.litmus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

elapsed_since() { echo $(( $(date +%s) - $1 )); }

# --- --timeout -----------------------------------------------------------------
start=$(date +%s)
timeout -s KILL 60 "$bin" litmus --liveness --unroll 0 --model ptx6 --timeout 1 "$slow" >"$tmp/out" 2>"$tmp/err"
rc=$? took=$(elapsed_since "$start")
check "--timeout 1 stops the liveness pass within 40 s (took ${took}s)" test "$took" -le 40
check "--timeout cut: exit status 3" test "$rc" -eq 3
check "--timeout cut: Liveness Unknown, never Ok" grep -qx "Liveness HS-2counter Unknown" "$tmp/out"
check "--timeout cut: the reason is the time limit" \
    grep -qx "Warning HS-2counter: liveness not established: timeout" "$tmp/out"
# at --unroll 0 the safety half's No holds within the loop bound: herd7's "Loop No"
check "--timeout cut: the safety verdict within the loop bound stands (Loop No)" grep -qx "Loop No" "$tmp/out"

timeout -s KILL 60 "$bin" litmus --json --liveness --unroll 0 --model ptx6 --timeout 1 "$slow" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "JSON --timeout cut: exit status 3" test "$rc" -eq 3
check "JSON --timeout cut: liveness Unknown, complete false, incomplete timeout" \
    jq -e '.liveness == "Unknown" and .complete == false and .incomplete == "timeout"
           and .liveness_incomplete == "timeout" and .verdict == "No"' "$tmp/out"

# PriorSem-bool spends its time choosing reads-from edges that the final-read
# check refuses before any candidate is built: the limit is asked there too.
start=$(date +%s)
timeout -s KILL 60 "$bin" litmus --liveness --unroll 0 --model ptx6 --timeout 1 \
    litmus/sync/PriorSem-bool.litmus >"$tmp/out" 2>"$tmp/err"
rc=$? took=$(elapsed_since "$start")
check "PriorSem-bool: --timeout 1 stops the choice of reads-from within 40 s (took ${took}s)" test "$took" -le 40
check "PriorSem-bool: exit 3, Liveness Unknown (timeout)" \
    bash -c "test $rc -eq 3 && grep -qx 'Liveness PriorSem-bool Unknown' '$tmp/out' &&
             grep -qx 'Warning PriorSem-bool: liveness not established: timeout' '$tmp/out'"

# --- --max-memory ----------------------------------------------------------------
# 30 MB: the safety half stays below it, the liveness pass's traces do not.
timeout -s KILL 90 "$bin" litmus --json --liveness --unroll 0 --model ptx6 --timeout 60 --max-memory 30M \
    litmus/sync/HS-tree-fixed.litmus >"$tmp/out" 2>"$tmp/err"
rc=$?
check "--max-memory cut: exit status 3" test "$rc" -eq 3
check "--max-memory cut: liveness Unknown, incomplete max-memory" \
    jq -e '.liveness == "Unknown" and .complete == false and .liveness_incomplete == "max-memory"' "$tmp/out"

# --- SIGTERM -----------------------------------------------------------------------
start=$(date +%s)
timeout -s KILL 60 "$bin" litmus --liveness --unroll 0 --model ptx6 "$slow" >"$tmp/out" 2>"$tmp/err" &
pid=$!
# The signal must reach the liveness pass, not the safety half before it:
# wait until scopecheck has had 1.5 s of CPU (the safety half needs well
# under one), not a fixed wall time, which a loaded machine (CI runs the
# suites side by side on 2 cores) may spend before the pass has begun.
# The TERM goes to timeout(1), which passes it on twice (to the command and
# to its process group): the duplicate must not count as a second request.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
child=""
for _ in $(seq 1 300); do
    [ -n "$child" ] || child=$(pgrep -P "$pid" | head -n 1)
    [ -n "$child" ] && [ "$(cpu_ticks "$child")" -ge $(( $(getconf CLK_TCK) * 3 / 2 )) ] && break
    sleep 0.1
done
kill -TERM "$pid" 2>/dev/null
wait "$pid"
rc=$? took=$(elapsed_since "$start")
check "SIGTERM stops the liveness pass within 40 s (took ${took}s)" test "$took" -le 40
check "SIGTERM: exit status 3 (got $rc)" test "$rc" -eq 3
check "SIGTERM: Liveness Unknown, interrupted" \
    bash -c "grep -qx 'Liveness HS-2counter Unknown' '$tmp/out' &&
             grep -qx 'Warning HS-2counter: liveness not established: interrupted' '$tmp/out'"

# timeout(1) expiring is the commonest SIGTERM of all: it too sends the
# signal twice within microseconds; three runs, so that a race shows.
for n in 1 2 3; do
    timeout --preserve-status 1 "$bin" litmus --liveness --unroll 0 --model ptx6 "$slow" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    check "timeout(1) expiring, run $n: exit status 3 with the partial report (got $rc)" \
        bash -c "test $rc -eq 3 && grep -qx 'Liveness HS-2counter Unknown' '$tmp/out'"
done

# --- a limit that leaves time: the answer is unchanged ------------------------------
"$bin" litmus --json --liveness --unroll 0 --timeout 60 litmus/ptx-liveness/FP-spin-unset.litmus \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
# the safety half is cut by the loop bound at --unroll 0 (complete false,
# "loop-bound"); the liveness answer is complete and unchanged
# exit 3: the safety half's "Loop No" at --unroll 0 (no execution completes) is not established
check "a generous --timeout changes nothing (FP-spin-unset: No; exit 3, only the loop bound cut)" \
    bash -c "test $rc -eq 3 && jq -e '.liveness == \"No\" and .complete == false and .incomplete == \"loop-bound\" and (has(\"liveness_incomplete\") | not)' '$tmp/out'"
