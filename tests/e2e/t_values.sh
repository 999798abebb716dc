#!/usr/bin/env bash
# End-to-end checks of value ranges (issue 10 item 4): verify derives the
# range of values each test needs, negative values included; a --const
# override of the protocol's value constant sets the declared range
# instead; a value beyond the range is never wrapped or dropped silently.
# $1: the scopecheck binary.
#
# Expected values, derived by hand from the tests in litmus/values/:
# - Inc2-forall: two gpu atomic increments of x from 0 on one GPU: x ends at
#   2 (PTX: atomics at one scope are morally strong, no lost update); the
#   values are 0, 1, 2, so the range is 0..2 (gpu_vi declares 0..MAXV=1).
# - MP-sentinel: r2 starts at -1; release/acquire message passing: r0=0 and
#   r2=-1 (flag not seen, load skipped) or r0=1 and r2=1; range -1..1.
# - Spin-count: r0 counts polls of x; within --unroll 2 the loop runs at
#   most 3 times (r0 = 1, 2, 3: range 0..3), but the memory system may let
#   P0 poll again, so r0 = 4 is reachable: the step that computes it leaves
#   the range and the result is incomplete, not a pass.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
V=litmus/values

jtrue() {
    [ -s "$2" ] && [ "$(jq -c "$1" "$2" 2>/dev/null | tail -n 1)" = true ]
}

"$bin" verify --protocol gpu_vi --json "$V/Inc2-forall.litmus" >"$tmp/inc.json" 2>"$tmp/inc.err"
rc=$?
check "Inc2-forall: exit 0" test "$rc" -eq 0
check "Inc2-forall: range 0..2 from the test; x == 2 only; pass" \
    jtrue '.options.value_range == [0,2] and .options.value_range_from == "test" and .protocol_outcomes == [{"x":2}] and .result == "Pass" and .value_wrapped == false' "$tmp/inc.json"
check "Inc2-forall: no warning" test ! -s "$tmp/inc.err"
"$bin" verify --protocol gpu_vi --const MAXV=1 --json "$V/Inc2-forall.litmus" >"$tmp/inc1.json" 2>"$tmp/inc1.err"
check "Inc2-forall with --const MAXV=1: the declared range 0..1, and the run says it wrapped" \
    jtrue '.options.value_range == [0,1] and .options.value_range_from == "protocol" and .value_wrapped == true and .options.const == {"MAXV":1}' "$tmp/inc1.json"
check "Inc2-forall with --const MAXV=1: a warning names the value" grep -q 'allows the value 2' "$tmp/inc1.err"
check "--const of another constant keeps the derived range" \
    bash -c "'$bin' verify --protocol gpu_vi --const NSLICE=2 --json '$V/Inc2-forall.litmus' | jq -e '.options.value_range == [0,2]' | grep -qx true"

"$bin" verify --protocol gpu_vi --json "$V/MP-sentinel.litmus" >"$tmp/sen.json" 2>"$tmp/sen.err"
rc=$?
check "MP-sentinel (r2 = -1): accepted, exit 0" test "$rc" -eq 0
check "MP-sentinel: range -1..1; outcomes (0,-1) and (1,1); pass" \
    jtrue '.options.value_range == [-1,1] and .protocol_outcomes == [{"P1:r0":0,"P1:r2":-1},{"P1:r0":1,"P1:r2":1}] and .result == "Pass"' "$tmp/sen.json"
check "MP-sentinel: nothing on stderr" test ! -s "$tmp/sen.err"
check "MP-sentinel under the unordered network and two slices: still pass" \
    "$bin" verify --protocol gpu_vi --net unordered --const NSLICE=2 "$V/MP-sentinel.litmus"

"$bin" verify --protocol gpu_vi --json "$V/Spin-count.litmus" >"$tmp/spin.json" 2>/dev/null
rc=$?
check "Spin-count: a value beyond the range makes the run incomplete (exit 3)" test "$rc" -eq 3
check "Spin-count: JSON incomplete value-range, overflow true, range 0..3" \
    jtrue '.result == "Incomplete" and .incomplete == "value-range" and .value_overflow == true and .options.value_range == [0,3]' "$tmp/spin.json"
"$bin" verify --protocol gpu_vi "$V/Spin-count.litmus" >"$tmp/spin.out" 2>/dev/null
check "Spin-count: the text names the value 4 and the range" grep -q '^Warning value range: a step would have made the value 4, outside 0..3' "$tmp/spin.out"
check "Spin-count: --unroll 4 widens the range to 0..5" \
    bash -c "'$bin' verify --protocol gpu_vi --unroll 4 --json '$V/Spin-count.litmus' | jq -e '.options.value_range == [0,5] and .options.unroll == 4' | grep -qx true"

# verify DIR is verify of every test below it (issue 10 item 7).
"$bin" verify --protocol gpu_vi --json "$V" >"$tmp/dir.json" 2>/dev/null
check "verify DIR checks every test below it, in sorted order" \
    bash -c "jq -r .test '$tmp/dir.json' | tr '\n' ' ' | grep -qx 'Inc2-forall MP-sentinel Spin-count '"
exit 0
