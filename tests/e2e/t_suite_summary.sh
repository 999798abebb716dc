#!/usr/bin/env bash
# End-to-end checks of scripts/suite_summary.sh, the quick start's first
# step: expectations are matched by path relative to the suite (two tests
# of one basename in different folders are two tests), tests in
# subfolders are counted, and a test without an expected verdict is
# counted as such rather than dropped.  The verdicts are litmus/ptx's
# hand-derived ones (litmus/ptx/expected.tsv): under ptx6 MP-weak is Ok
# (weak accesses, nothing forbids the stale read) and MP-relacq-gpu is No
# (gpu-scope release/acquire).  $1: the scopecheck binary.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/suite/sub"
cp litmus/ptx/MP-weak.litmus "$tmp/suite/MP.litmus"
cp litmus/ptx/MP-relacq-gpu.litmus "$tmp/suite/sub/MP.litmus"
cp litmus/ptx/MP-weak.litmus "$tmp/suite/sub/Other.litmus"
printf 'sub/MP.litmus\tptx6\tNo\nMP.litmus\tptx6\tOk\n' >"$tmp/suite/expected.tsv"

SCOPECHECK=$bin bash scripts/suite_summary.sh "$tmp/suite" ptx6 >"$tmp/out" 2>&1
check "suite_summary: same basename in two folders, both as expected (exit 0)" test $? -eq 0
check "suite_summary: 2 of 2 agree, 3 tests run, 1 without an expected verdict" \
    grep -q ": 2 of 2 expected verdicts agree; 3 tests run, 1 without an expected verdict for ptx6$" "$tmp/out"
check "suite_summary: the subfolder's test is named by its path" grep -q '^sub/MP.litmus .* No  *No ' "$tmp/out"

printf 'sub/MP.litmus\tptx6\tOk\nMP.litmus\tptx6\tOk\n' >"$tmp/suite/expected.tsv"
SCOPECHECK=$bin bash scripts/suite_summary.sh "$tmp/suite" ptx6 >"$tmp/out" 2>&1
check "suite_summary: a wrong expectation in a subfolder fails (exit 1)" test $? -eq 1
check "suite_summary: ... and is marked" grep -q '^sub/MP.litmus .*<-- differs' "$tmp/out"

SCOPECHECK=$bin bash scripts/suite_summary.sh litmus/ptx ptx6 >"$tmp/out" 2>&1
n=$(find litmus/ptx -name '*.litmus' | wc -l)
e=$(awk -F'\t' '$2 == "ptx6"' litmus/ptx/expected.tsv | wc -l)
check "suite_summary litmus/ptx: every test of proxy/ and large/ counted ($e of $e; $n run)" \
    grep -q ": $e of $e expected verdicts agree; $n tests run, $((n - e)) without" "$tmp/out"
