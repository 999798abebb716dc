#!/usr/bin/env bash
# End-to-end checks of the variants of models/srsp_fixed.proto that undo one
# fix each (issue 14, item 3): every row of litmus/rsp/variants.tsv.  For a
# row: the variant fails the test with the violation the row names (unsound
# outcome, or deadlock) and a trace; srsp_fixed passes the same test with the
# same options, so the fault is the undone fix's.  The counterexample of each
# row is explained next to it (read from the trace; docs/rsp.md).  Also: every
# variant file has a row, and a variant that removes a row its base lacks
# gives a located error.
# $1: the scopecheck binary.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run_verify() {  # PROTO TEST OPTIONS -> $tmp/out, returns verify's status
    local proto=$1 test=$2 opts=$3 args=()
    case $opts in
    -) ;;
    --*) read -r -a args <<<"$opts" ;;
    *) args=(--const "$opts") ;;
    esac
    "$bin" verify --no-progress --protocol "$proto" --model opencl-rsp --racy undefined \
        "${args[@]}" "litmus/rsp/$test.litmus" >"$tmp/out" 2>"$tmp/err"
}

# The rows, through scripts/verify_suite.sh (srsp_fixed the control).
verify_table litmus/rsp/variants.tsv
rows=$(grep -c '^srsp_fixed' litmus/rsp/variants.tsv)
check "variants.tsv lists every fix's variant (17 rows)" test "$rows" -eq 17

# FP: alone, its variant is a livelock (a row above, caught by --liveness);
# undone together with F10 it deadlocks on PA_overflow, another row; that
# deadlock is FP's, not F10's: srsp_fixed_no_f10 alone passes PA_overflow.
run_verify models/mutants/srsp_fixed_no_f10.proto PA_overflow PA=1
check "srsp_fixed_no_f10 alone on PA_overflow (PA=1): Result Pass" sh -c "test $? -eq 0 && grep -qx 'Result Pass' '$tmp/out'"

# Every srsp_fixed_* variant in models/mutants has a row.
for f in models/mutants/srsp_fixed_*.proto; do
    v=$(basename "$f" .proto)
    check "$v has a row in variants.tsv" grep -q "^$v	" litmus/rsp/variants.tsv
done

# A variant that removes a row the base does not have is refused with a
# located error (exit 2), not silently run as srsp_fixed.
printf 'protocol bad extends "%s/models/srsp_fixed.proto"\ntable L1\n- * | recv sel.SelFlush | sfa == 7\nend\n' "$PWD" >"$tmp/bad.proto"
"$bin" verify --protocol "$tmp/bad.proto" --model opencl-rsp litmus/rsp/MP_L2R.litmus >"$tmp/out" 2>"$tmp/err"
check "removing a row srsp_fixed lacks: exit 2" test $? -eq 2
check "removing a row srsp_fixed lacks: file:line:col error" grep -qE "^$tmp/bad.proto:3:[0-9]+: error: " "$tmp/err"
check "removing a row srsp_fixed lacks: nothing on stdout" test ! -s "$tmp/out"
