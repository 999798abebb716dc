#!/usr/bin/env bash
# t_difftest.sh BIN: the differential oracle (scripts/difftest.sh, docs/difftest.md).
# 150 generated tests agree along every pair of paths; a protocol
# with a known bug (the gpu_vi mutant without acquire invalidation) is caught,
# and the disagreement is shrunk to a small test that still shows it.
set -u
bin=$1
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

DIFFTEST_KEEP=$tmp/keep bash scripts/difftest.sh 150 42 "$bin" >"$tmp/ok" 2>&1
rc=$?
check "difftest: 150 generated tests, no disagreement (exit 0)" test "$rc" -eq 0
check "difftest: every check ran on some tests" \
    grep -qE 'sc-vs-sc_memory [1-9][0-9]*, gpu_vi-in-ptx6 [1-9][0-9]*, ptx75-eq-ptx6 [1-9][0-9]*, drf-sc [1-9][0-9]* .*opencl-frontends [1-9][0-9]*' "$tmp/ok"
check "difftest: the summary says 0 disagreements" grep -q ' 0 disagreements' "$tmp/ok"

# Seed 5 of the two-thread family holds an MP with a stale copy seeded
# before the acquire (test 121): the mutant serves it, ptx6 forbids it.
DIFFTEST_KEEP=$tmp/keep DIFFTEST_GEN="--ops 3 --threads 2" \
    DIFFTEST_PROTOCOLS=models/mutants/gpu_vi_no_acquire_inval.proto \
    bash scripts/difftest.sh 130 5 "$bin" >"$tmp/bad" 2>&1
rc=$?
check "difftest: the acquire-invalidation mutant is caught (exit 1)" test "$rc" -eq 1
check "difftest: the disagreement names the check and the outcome only the protocol has" \
    grep -q 'DISAGREE models/mutants/gpu_vi_no_acquire_inval.proto-in-ptx6 G5_121: .*only: {P0:r1=1 P0:r2=0}' "$tmp/bad"
shrunk=$tmp/keep/G5_121.litmus
check "difftest: the shrunk test has at most 4 instruction rows" \
    test "$(grep -cE '^ [^ ].*\|' "$shrunk")" -le 4
check "difftest: the shrunk test still shows the bug" \
    bash -c "! '$bin' verify --protocol models/mutants/gpu_vi_no_acquire_inval.proto --const MAXV=15 '$shrunk' >/dev/null"
check "difftest: gpu_vi itself passes the shrunk test" \
    "$bin" verify --protocol gpu_vi --const MAXV=15 "$shrunk"

# gen, convert and shrink through the command line
"$bin" gen --seed 9 --first 3 >"$tmp/a.litmus"
"$bin" gen --seed 9 --first 3 >"$tmp/b.litmus"
check "gen: the same seed and index give the same test" cmp -s "$tmp/a.litmus" "$tmp/b.litmus"
check "gen: its test reads back" "$bin" litmus "$tmp/a.litmus"
"$bin" gen --seed 9 --count 20 --without cas,fences,barriers,rmw --dialect opencl -o "$tmp" 2>/dev/null
check "gen --dialect opencl: tests that read back as OpenCL" \
    bash -c "head -1 $tmp/G9_0.litmus | grep -q '^OPENCL G9_0' && '$bin' litmus --model opencl $tmp/G9_0.litmus >/dev/null"
check "gen: a bad feature is refused with exit 2" bash -c "'$bin' gen --with nosuch; test \$? -eq 2"
check "gen: --count without -o is refused with exit 2" bash -c "'$bin' gen --count 3; test \$? -eq 2"
check "convert: a CAS has no exact OpenCL form (exit 1, reason given)" \
    bash -c "'$bin' convert --to opencl litmus/ptx/CAS-lock-relacq.litmus 2>&1 >/dev/null | grep -q 'compare-and-swap\|cas'; test \${PIPESTATUS[0]} -eq 1"
check "shrink: past the last reduction, exit 1" bash -c "'$bin' shrink litmus/ptx/MP-weak.litmus 1000; test \$? -eq 1"
check "shrink: a bad file is refused with exit 2" bash -c "'$bin' shrink /nonexistent.litmus 0; test \$? -eq 2"
# --help is usage on stdout and exit 0, for shrink as for every command
for c in litmus verify graph export gen convert shrink compare; do
    check "$c --help: usage on stdout, exit 0" bash -c "o=\$('$bin' $c --help 2>/dev/null) && grep -q '^usage: scopecheck $c' <<<\"\$o\""
done

# -o DIR is created when missing (diy7's habit); a file there is refused.
"$bin" gen --seed 3 --count 2 -o "$tmp/newdir" 2>/dev/null
check "gen -o: a missing directory is created and holds the tests" test "$(ls "$tmp/newdir" | wc -l)" -eq 2
touch "$tmp/afile"
"$bin" gen --seed 3 --count 2 -o "$tmp/afile" >"$tmp/gen.out" 2>&1
rc=$?
check "gen -o FILE: refused with exit 2 and a message" \
    bash -c "[ $rc -eq 2 ] && grep -q 'needs a directory' '$tmp/gen.out'"

# DIFFTEST_FIRST: a segment of one seed's range, and bad numbers refused
DIFFTEST_FIRST=20 bash scripts/difftest.sh 10 7 "$bin" >"$tmp/seg" 2>&1
check "DIFFTEST_FIRST=20: tests 20..29 of seed 7, no disagreement" grep -q '10 tests (seed 7, from 20)' "$tmp/seg"
DIFFTEST_FIRST=abc bash scripts/difftest.sh 10 7 "$bin" >"$tmp/bad" 2>&1
rc=$?
check "DIFFTEST_FIRST=abc: exit 2 and a message" \
    bash -c "[ $rc -eq 2 ] && grep -q 'DIFFTEST_FIRST must be a non-negative integer' '$tmp/bad'"
bash scripts/difftest.sh ten 7 "$bin" >"$tmp/bad" 2>&1
rc=$?
check "difftest.sh ten: exit 2 and a message" bash -c "[ $rc -eq 2 ] && grep -q 'count N must be' '$tmp/bad'"
exit 0
