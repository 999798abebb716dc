#!/usr/bin/env bash
# End-to-end checks that `scopecheck litmus` refuses malformed input cleanly:
# exit status 2, nothing on stdout, and one "FILE:LINE:COL: error: ..." line on
# stderr naming the problem.  Inputs: tests/bad/ptx/*.litmus with the error each gets in tests/bad/ptx/errors.tsv, plus a file over
# 1 MiB generated here at run time.
# Usage: t_bad_input.sh PATH/TO/scopecheck.  Prints PASS:/FAIL: per check, exits 0.
set -u
bin=$1
cd "$(dirname "$0")/../.." || exit 0
. tests/e2e/lib.sh
B=tests/bad/ptx
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

expect_errors_table "$B/errors.tsv"

# An absurdly large file: a valid-looking test padded past 1 MiB.
big="$tmp/huge.litmus"
{
    printf 'PTX huge\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n'
    for _ in $(seq 1 1100); do
        printf ' st.weak x, 1 ;%.0s\n' $(seq 1 64)
    done
    printf 'exists (x == 1)\n'
} >"$big"
size=$(wc -c <"$big")
check "generated file is over 1 MiB ($size bytes)" test "$size" -gt 1048576
expect_error "$big" 1:1 "too large"
exit 0
