#!/usr/bin/env bash
# End-to-end checks of `scopecheck verify --liveness` and the scheduling options
# (docs/liveness.md, sections 2 and 3): the Liveness line, lasso traces, JSON
# "liveness" and "cycles", exit statuses, occupancy, and bad options.  Expected
# verdicts are derived in litmus/ptx-liveness/expected.tsv (the same programs).
set -u
bin=$1
cd "$(dirname "$0")/../.." || exit 0
. tests/e2e/lib.sh
L=litmus/ptx-liveness
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --- a spin on a flag nobody sets: a fair cycle, with its lasso ------------------
"$bin" verify --protocol gpu_vi --liveness "$L/FP-spin-unset.litmus" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "FP-spin-unset on gpu_vi: exit 1 (a violation)" test "$rc" -eq 1
check "FP-spin-unset on gpu_vi: Liveness No (fairness weak)" grep -qx "Liveness No (fairness weak)" "$tmp/out"
check "FP-spin-unset on gpu_vi: P1 never completes" \
    grep -q "^Violation non-progress cycle: P1 never completes (a weakly fair cycle of [0-9]* steps)" "$tmp/out"
check "the lasso marks where the cycle starts" grep -qx "  -- cycle: the steps below repeat forever --" "$tmp/out"
check "the cycle holds P1's load of f reading 0" \
    bash -c "sed -n '/-- cycle:/,/^liveness:/p' '$tmp/out' | grep -q 'P1 r0 = 0'"
check "Result Fail" grep -qx "Result Fail" "$tmp/out"
# --trace full: the lasso through the same step descriptions as other traces;
# each cycle step names its row, and that row of models/gpu_vi.proto is the
# event the step line says (checked against the table file, not our output).
"$bin" verify --protocol gpu_vi --liveness --trace full "$L/FP-spin-unset.litmus" >"$tmp/out" 2>"$tmp/err"
sed -n '/-- cycle:/,/^liveness:/p' "$tmp/out" >"$tmp/cycle"
check "--trace full: the cycle's steps carry their table rows" grep -q "^      row .*gpu_vi.proto:[0-9]*$" "$tmp/cycle"
rows_ok() {
    local ok=1 n=0 line ev row
    while IFS= read -r line; do
        case $line in
        "  "[0-9]*:*) ev=$(sed -E 's/.*: (load[^ ]*|recv [a-z]+|evict).*/\1/' <<<"$line") ;;
        "      row "*)
            row=$(sed -n "${line##*:}p" models/gpu_vi.proto)
            n=$((n + 1))
            case $ev in
            "recv "*) grep -q "recv ${ev#recv }" <<<"$row" || ok=0 ;;
            *) grep -q "| $ev " <<<"$row" || ok=0 ;;
            esac ;;
        esac
    done <"$1"
    [ "$ok" = 1 ] && [ "$n" -ge 2 ]
}
check "--trace full: each cycle row of gpu_vi.proto is the step's event" rows_ok "$tmp/cycle"
check "--trace full: the cycle shows the fields it changes (P1 waits, then not)" \
    bash -c "grep -q 'P1: waiting = yes' '$tmp/cycle' && grep -q 'P1: waiting = no' '$tmp/cycle'"
"$bin" verify --protocol gpu_vi --liveness --json "$L/FP-spin-unset.litmus" >"$tmp/out" 2>"$tmp/err"
check "JSON: liveness No, one cycle of P1 with a stem and a cycle" \
    jq -e '.liveness == "No" and .fairness == "weak" and (.cycles | length) == 1 and .cycles[0].thread == "P1"
           and (.cycles[0].stem | length) >= 1 and (.cycles[0].cycle | length) >= 1
           and .cycles[0].stem[0] == "  0: initial state"' "$tmp/out"
"$bin" verify --protocol gpu_vi "$L/FP-spin-unset.litmus" >"$tmp/out" 2>&1
check "without --liveness: no Liveness line, and the spin passes" \
    bash -c "! grep -q '^Liveness' '$tmp/out' && grep -qx 'Result Pass' '$tmp/out'"

# --- terminating programs ----------------------------------------------------------
for f in FP-handshake FP-wait-lower XF-barrier-rlx; do
    "$bin" verify --protocol gpu_vi --liveness "$L/$f.litmus" >"$tmp/out" 2>&1
    rc=$?
    check "$f on gpu_vi: Liveness Ok, exit 0" bash -c "grep -qx 'Liveness Ok (fairness weak)' '$tmp/out' && [ $rc -eq 0 ]"
done

# --- occupancy: the counter barrier needs both CTAs resident -------------------------
cb() { "$bin" verify --protocol gpu_vi --const MAXV=3 --liveness "$@" "$L/FP-counter-barrier.litmus" 2>/dev/null | grep '^Liveness'; }
check "FP-counter-barrier, all resident: Ok" test "$(cb)" = "Liveness Ok (fairness weak)"
check "FP-counter-barrier, --occupancy 2: Ok" test "$(cb --occupancy 2)" = "Liveness Ok (fairness weak, occupancy 2)"
check "FP-counter-barrier, --occupancy 1: No" test "$(cb --occupancy 1)" = "Liveness No (fairness weak, occupancy 1)"
check "FP-counter-barrier, --fairness none: No" test "$(cb --fairness none)" = "Liveness No (fairness none)"
"$bin" verify --protocol gpu_vi --const MAXV=3 --occupancy 1 --liveness --json "$L/FP-counter-barrier.litmus" >"$tmp/out" 2>/dev/null
check "JSON: occupancy 1 reported, P1 (never dispatched) among the cycles" \
    jq -e '.occupancy == 1 and .liveness == "No" and ([.cycles[].thread] | index("P1")) != null' "$tmp/out"
"$bin" verify --protocol gpu_vi --occupancy 1 "$L/FP-wait-lower.litmus" >"$tmp/out" 2>&1
check "--occupancy without --liveness: the search follows dispatch order (FP-wait-lower passes)" \
    grep -qx "Result Pass" "$tmp/out"

# --- an incomplete search leaves liveness unknown (exit 3) --------------------------
"$bin" verify --protocol gpu_vi --liveness --max-states 5 "$L/FP-handshake.litmus" >"$tmp/out" 2>&1
rc=$?
check "a search cut by --max-states: Liveness Unknown with the reason, exit 3" \
    bash -c "grep -q '^Liveness Unknown' '$tmp/out' && grep -q '^Warning liveness not established' '$tmp/out' && [ $rc -eq 3 ]"

# --- bad options: exit 2, a message, no output ----------------------------------------
bad() {   # bad WHAT REGEX ARGS...
    local what=$1 re=$2; shift 2
    "$bin" verify --protocol gpu_vi "$@" "$L/FP-handshake.litmus" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ] && grep -qE "$re" "$tmp/err"; then
        echo "PASS: verify $what is refused"
    else
        echo "FAIL: verify $what is refused (exit $rc, stderr '$(head -1 "$tmp/err")')"
    fi
}
bad "--fairness fair" "^scopecheck verify: error: --fairness takes weak or none, not 'fair'" --fairness fair
bad "--occupancy 0" "^scopecheck verify: error: --occupancy takes a number of CTAs from 1" --occupancy 0
bad "--preempt on gpu_vi" "^scopecheck verify: error: --preempt: protocol gpu_vi declares no context switch" --preempt
