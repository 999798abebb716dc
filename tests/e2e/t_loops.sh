#!/usr/bin/env bash
# End-to-end checks of loops in several threads (issue 9): litmus verdicts of
# litmus/ptx/Loop-*.litmus come from conformance (expected.tsv, derived by
# hand in each test); here the same tests run through `verify`: correct
# protocols must Pass (their outcomes within the model's), a broken one must
# Fail, and the issue's reproducer (two threads each spinning on its own
# write) must have its outcome among the model's.
# Usage: t_loops.sh PATH/TO/scopecheck.  Prints PASS:/FAIL: per check, exits 0.
set -u
bin=$1
cd "$(dirname "$0")/../.." || exit 0
. tests/e2e/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
L=litmus/ptx

# verify_status PROTOCOL FILE: exit status of verify (values up to 3).
verify_status() {
    "$bin" verify --protocol "$1" --const MAXV=3 "$2" >"$tmp/out" 2>"$tmp/err"
    echo $?
}
expect_pass() {   # expect_pass PROTOCOL FILE
    local rc; rc=$(verify_status "$1" "$2")
    if [ "$rc" = 0 ] && grep -q '^Result Pass' "$tmp/out" && ! grep -q '^Violation' "$tmp/out"; then
        echo "PASS: verify $1 passes $(basename "$2")"
    else
        echo "FAIL: verify $1 passes $(basename "$2") (exit $rc: $(grep -m1 -E '^(Violation|Result)' "$tmp/out"; head -c 200 "$tmp/err"))"
    fi
}

# --- the issue's reproducer ------------------------------------------------
cat >"$tmp/SpinOwn2.litmus" <<'T'
PTX SpinOwn2
{
c=0; d=0;
}
 P0@cta 0,gpu 0       | P1@cta 1,gpu 0       ;
 st.relaxed.gpu c, 2  | st.relaxed.gpu d, 1  ;
 LC00:                | LC10:                ;
 ld.relaxed.gpu r1, c | ld.relaxed.gpu r2, d ;
 bne r1, 2, LC00      | bne r2, 1, LC10      ;
exists (P0:r1 == 2 /\ P1:r2 == 1)
T
for m in sc ptx6 ptx75; do
    got=$("$bin" litmus --model $m "$tmp/SpinOwn2.litmus" | grep -xE '(Loop )?(Ok|No)|Unknown')
    check "SpinOwn2 (each thread reads back its own write) is Ok under $m (herd7's Loop Ok)" test "$got" = "Loop Ok"
done
expect_pass gpu_vi "$tmp/SpinOwn2.litmus"
check "SpinOwn2: the model's outcomes include the protocol's" grep -q '^Model outcomes 1$' "$tmp/out"

# --- correct protocols pass every loop test that fits the time budget -------
for f in Loop-Barrier2-acqrel-gpu Loop-Barrier2-relaxed-gpu Loop-Barrier2-acqrel-cta-diffcta \
         Loop-Barrier3-acqrel-gpu Loop-CASLock2 Loop-CASLock2-relaxed Loop-CASLock2-unlock-relaxed \
         Loop-Ticket2 Loop-Ticket2-relaxed Loop-SenseBarrier2 Loop-SenseBarrier2-relaxed \
         Loop-SenseBarrier3 Loop-FlagChain3 Loop-FlagChain3-relaxed-middle Loop-FlagChain3-cta-diffcta \
         Loop-FlagChain4 Loop-FlagChain4-relaxed-link Loop-Broadcast4 Loop-Broadcast4-relaxed; do
    expect_pass gpu_vi "$(ls $L/$f.litmus $L/large/$f.litmus 2>/dev/null | head -1)"
done
# an L2 per GPU and memory: the smaller state spaces
for f in Loop-Barrier2-acqrel-gpu Loop-CASLock2 Loop-Ticket2 Loop-SenseBarrier2 Loop-FlagChain3 \
         Loop-FlagChain4 Loop-Broadcast4; do
    expect_pass gpu_vi_multi "$(ls $L/$f.litmus $L/large/$f.litmus 2>/dev/null | head -1)"
done

# --- a broken protocol fails on them ------------------------------------------
# gpu_vi_release_no_wait lets a release go before its earlier writes are done:
# a consumer that leaves its spin loop can still miss the data.
for f in Loop-FlagChain3 Loop-CASLock2 Loop-Barrier2-acqrel-gpu; do
    rc=$(verify_status models/mutants/gpu_vi_release_no_wait.proto "$(ls $L/$f.litmus $L/large/$f.litmus 2>/dev/null | head -1)")
    check "gpu_vi_release_no_wait fails $f (unsound outcome, exit 1)" \
        sh -c "[ $rc = 1 ] && grep -q '^Violation unsound outcome' '$tmp/out'"
done
