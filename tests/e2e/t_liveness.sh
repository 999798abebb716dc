#!/usr/bin/env bash
# End-to-end checks of `scopecheck litmus --liveness` (docs/liveness.md): the herd
# lines, the JSON members, exit statuses, independence from --unroll, and bad
# scheduling options.  Expected verdicts are derived in litmus/ptx-liveness/expected.tsv.
set -u
bin=$1
cd "$(dirname "$0")/../.." || exit 0
. tests/e2e/lib.sh
L=litmus/ptx-liveness
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --- herd block: the Liveness line and the stuck threads ------------------------
"$bin" litmus --liveness --unroll 0 "$L/FP-spin-unset.litmus" >"$tmp/out" 2>"$tmp/err"
rc=$?
# the liveness answer No is established; the safety half's No at --unroll 0
# is herd7's "Loop No" (no execution completes within the bound): exit 3
check "a liveness violation beside a loop-bound safety verdict exits 3" \
    sh -c "[ $rc -eq 3 ] && grep -qx 'Loop No' '$tmp/out'"
check "herd block: Liveness NAME No" grep -qx "Liveness FP-spin-unset No" "$tmp/out"
check "herd block: the stuck loop and the value it reads" \
    grep -qx 'Stuck P1 spins in the loop at line 8 `ld.relaxed.gpu r0, f` reading f=0' "$tmp/out"
check "herd block: Liveness before Time" \
    awk '/^Liveness/ { l = NR } /^Time/ { t = NR } END { exit !(l && t && l < t) }' "$tmp/out"
"$bin" litmus --liveness --unroll 0 "$L/Quorum-short.litmus" >"$tmp/out" 2>&1
check "herd block: a barrier that never releases" \
    grep -qx 'Stuck P0 waits forever at the barrier at line 8 `bar.cta.sync 1, 1, 4`' "$tmp/out"
"$bin" litmus --liveness --occupancy 1 --unroll 0 "$L/FP-wait-higher.litmus" >"$tmp/out" 2>&1
check "herd block: a CTA never dispatched" grep -qx "Stuck P1 never dispatched (no resident CTA finishes)" "$tmp/out"
"$bin" litmus "$L/FP-spin-unset.litmus" >"$tmp/out" 2>&1
check "no Liveness line without --liveness" bash -c "! grep -q '^Liveness' '$tmp/out'"

# --- JSON -------------------------------------------------------------------------
"$bin" litmus --json --liveness --unroll 0 "$L/FP-spin-unset.litmus" >"$tmp/out" 2>&1
check "JSON: liveness No with the stuck thread, kind, line and reads" \
    jq -e '.liveness == "No" and .fairness == "weak" and .occupancy == 0 and
           .stuck == [{"thread":"P1","kind":"spin","line":8,"instruction":"ld.relaxed.gpu r0, f",
                       "reads":[{"location":"f","value":0}]}]' "$tmp/out"
"$bin" litmus --json --liveness --fairness none --unroll 0 "$L/FP-wait-lower.litmus" >"$tmp/out" 2>&1
check "JSON: --fairness none is reported and starves the writer" \
    jq -e '.liveness == "No" and .fairness == "none"' "$tmp/out"
"$bin" litmus --json --liveness --unroll 0 "$L/FP-handshake.litmus" >"$tmp/out" 2>&1
check "JSON: Ok with no stuck thread" jq -e '.liveness == "Ok" and .stuck == []' "$tmp/out"

# --- the answer does not depend on the loop bound -------------------------------
for f in FP-spin-unset FP-handshake FP-wait-higher XF-barrier-rlx XF-barrier-weak Quorum-twice; do
    answers=""
    for u in 0 1 3; do
        a=$("$bin" litmus --json --liveness --unroll $u "$L/$f.litmus" 2>/dev/null | jq -r .liveness)
        answers="$answers $a"
    done
    set -- $answers
    check "$f: the same liveness answer with --unroll 0, 1, 3 ($answers)" \
        test "$1" = "$2" -a "$2" = "$3" -a -n "$1"
done

# --- a loop that writes forever: Unknown, with the reason, exit 3 ---------------
cat >"$tmp/writer.litmus" <<'LIT'
PTX Writer
{ x=0; }
 P0@cta 0,gpu 0      ;
 L:                  ;
 st.relaxed.gpu x, 1 ;
 goto L              ;
exists (x == 0)
LIT
"$bin" litmus --liveness --model sc "$tmp/writer.litmus" >"$tmp/out" 2>&1
rc=$?
check "side-effectful loop: Liveness Unknown" grep -qx "Liveness Writer Unknown" "$tmp/out"
check "side-effectful loop: a Warning says why" grep -q "^Warning Writer: liveness not established: " "$tmp/out"
check "side-effectful loop: exit status 3 (not established)" test "$rc" -eq 3

# --- bad scheduling options: exit 2, one message, no output ----------------------
bad_option() {   # bad_option WHAT REGEX ARGS...
    local what=$1 re=$2; shift 2
    "$bin" litmus "$@" "$L/FP-spin-unset.litmus" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ] && grep -qE "$re" "$tmp/err"; then
        echo "PASS: $what is refused"
    else
        echo "FAIL: $what is refused (exit $rc, stderr '$(head -1 "$tmp/err")')"
    fi
}
bad_option "--fairness strong" "^scopecheck litmus: error: --fairness takes weak or none, not 'strong'" --fairness strong
bad_option "--occupancy 0" "^scopecheck litmus: error: --occupancy takes a number of CTAs from 1 to" --occupancy 0
bad_option "--occupancy -3" "error: --occupancy takes" --occupancy -3
bad_option "--occupancy two" "error: --occupancy takes" --occupancy two

bad_option "--barriers warp" "^scopecheck litmus: error: --barriers takes dat3m or hardware, not 'warp'" --barriers warp

# --- one barrier reading for both halves (docs/liveness.md "Barrier readings") -----
# Bar-part-of-cta: P2 of the CTA has no barrier.  Dat3M's reading (default): the
# safety half completes and the liveness half says every thread terminates; the
# hardware's: no complete execution, and P0 and P1 wait forever.  Never complete
# executions beside a liveness answer that says they never complete.
"$bin" litmus --json --liveness --unroll 0 "$L/Bar-part-of-cta.litmus" >"$tmp/out" 2>&1
check "dat3m (default): Bar-part-of-cta completes and is live" \
    jq -e '.verdict == "Ok" and .positive > 0 and .liveness == "Ok" and (.options | has("barriers") | not)' "$tmp/out"
"$bin" litmus --json --liveness --unroll 0 --barriers hardware "$L/Bar-part-of-cta.litmus" >"$tmp/out" 2>&1
check "hardware: Bar-part-of-cta has no complete execution and P0, P1 wait forever" \
    jq -e '.verdict == "No" and .positive == 0 and .negative == 0 and .liveness == "No" and
           ([.stuck[] | select(.kind == "barrier") | .thread] == ["P0","P1"]) and
           .options.barriers == "hardware"' "$tmp/out"
# Quorum-diverged: P1 may branch around the barrier its code holds.  The safety
# half once counted that execution complete while the liveness half said P0
# waits forever; now neither reading has a complete execution with r0=0.
for r in dat3m hardware; do
    "$bin" litmus --json --liveness --unroll 0 --barriers $r "$L/Quorum-diverged.litmus" >"$tmp/out" 2>&1
    check "$r: Quorum-diverged: no complete execution skips the barrier, and P0 is stuck" \
        jq -e '.verdict == "No" and .liveness == "No"' "$tmp/out"
done

# --- the suite's verdicts ---------------------------------------------------------
check "litmus/ptx-liveness verdicts (expected.tsv, derived by hand)" \
    env SCOPECHECK="$bin" bash scripts/conformance.sh "$L"
