#!/usr/bin/env bash
# End-to-end checks that `scopecheck litmus` refuses malformed OpenCL litmus
# tests cleanly: exit status 2, nothing on stdout, and one
# "FILE:LINE:COL: error: ..." line on stderr naming the problem.
# Inputs: tests/bad/opencl/*.litmus, the error each gets in tests/bad/opencl/errors.tsv.
# Usage: t_bad_opencl.sh PATH/TO/scopecheck.  Prints PASS:/FAIL: per check, exits 0.
set -u
bin=$1
cd "$(dirname "$0")/../.." || exit 0
. tests/e2e/lib.sh
B=tests/bad/opencl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

expect_errors_table "$B/errors.tsv"

# herd's legacy format (header OpenCL) runs: our own suite of it checks
"$bin" litmus --model opencl litmus/opencl-herd >"$tmp/out" 2>"$tmp/err"
check "litmus/opencl-herd: every test checked, nothing on stderr" test $? -eq 0 -a ! -s "$tmp/err"
check "litmus/opencl-herd: one block per file" test "$(grep -c '^Test ' "$tmp/out")" -eq "$(ls litmus/opencl-herd/*.litmus | wc -l)"

# every corpus test of the OpenCL dialect parses (when the corpus is present)
corpus=/work/shared/corpus/opencl/OPENCL
if [ -d "$corpus" ]; then
    n=$(find "$corpus" -name '*.litmus' | wc -l)
    "$bin" litmus --model sc "$corpus" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    got=$(grep -c '^Test ' "$tmp/out")
    if [ "$rc" -eq 0 ] && [ "$got" -eq "$n" ] && [ ! -s "$tmp/err" ]; then
        echo "PASS: all $n OpenCL corpus tests parse"
    else
        echo "FAIL: OpenCL corpus: status $rc, $got of $n blocks, stderr $(head -n 1 "$tmp/err")"
    fi
fi

# A comment between a call's name and its '(' is a blank, as in C: the
# test reads as the one without it (it used to be refused with no message).
f=$(ls litmus/hrf/*.litmus | head -1)
sed 's|atomic_store_explicit(x, 1,|atomic_store_explicit /* c */ (x, 1,|; s|atomic_store_explicit(x, 2,|atomic_store_explicit // c\n    (x, 2,|' "$f" >"$tmp/comment.litmus"
check "a comment before a call's '(' is a blank" grep -q '/\* c \*/ (x, 1' "$tmp/comment.litmus"
# (Hash= is herd's digest of the program text, comments included, as herd7's)
"$bin" litmus --model opencl "$f" | grep -v '^Time\|^Hash=' >"$tmp/plain.out"
"$bin" litmus --model opencl "$tmp/comment.litmus" | grep -v '^Time\|^Hash=' >"$tmp/comment.out"
check "the commented call gives the same result" cmp -s "$tmp/plain.out" "$tmp/comment.out"
