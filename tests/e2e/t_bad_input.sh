#!/usr/bin/env bash
# End-to-end checks that `scopecheck litmus` refuses malformed input cleanly:
# exit status 2, nothing on stdout, and one "FILE:LINE:COL: error: ..." line on
# stderr naming the problem.  Inputs: tests/bad/ptx/*.litmus, plus a file over
# 1 MiB generated here at run time.
# Usage: t_bad_input.sh PATH/TO/scopecheck.  Prints PASS:/FAIL: per check, exits 0.
set -u
bin=$1
cd "$(dirname "$0")/../.." || exit 0
. tests/e2e/lib.sh
B=tests/bad/ptx
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

expect_error "$B/unknown-instruction.litmus"         7:2   "unknown instruction 'frob\.weak'"
expect_error "$B/undefined-label.litmus"             8:13  "undefined label 'LUP'"
expect_error "$B/extra-column.litmus"                7:34  "more columns than the 2 threads"
expect_error "$B/missing-column.litmus"              7:34  "row has 2 columns but the thread header has 3"
expect_error "$B/truncated-init.litmus"              7:1   "end of file in the init block"
expect_error "$B/truncated-before-condition.litmus"  7:1   "end of file: expected the final condition"
expect_error "$B/binary-garbage.litmus"              6:14  "binary data"
expect_error "$B/empty.litmus"                       1:1   "empty file"
expect_error "$B/bad-register.litmus"                6:10  "expected a destination register"
expect_error "$B/bad-location.litmus"                6:10  "expected a location"
expect_error "$B/bad-init-register.litmus"           4:4   "malformed number '1r'"
expect_error "$B/unknown-thread-in-condition.litmus" 7:23  "unknown thread 'P2' in condition"
expect_error "$B/missing-semicolon.litmus"           7:32  "missing ';' at the end of the row"
expect_error "$B/missing-semicolon-init.litmus"      3:4   "missing ';' in the init block"
expect_error "$B/unknown-architecture.litmus"        1:1   "unknown architecture 'OpenPTX'"
expect_error "$B/alias-cycle.litmus"                 4:21  "aliases of .x. form a cycle"

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
