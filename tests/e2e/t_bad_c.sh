#!/usr/bin/env bash
# End-to-end checks that `scopecheck litmus` refuses malformed C litmus tests
# (herd7's C dialect, docs/litmus-c.md) cleanly: exit status 2, nothing on
# stdout, and one "FILE:LINE:COL: error: ..." line on stderr naming the
# problem.  Inputs: tests/bad/c/*.litmus.
# Usage: t_bad_c.sh PATH/TO/scopecheck.  Prints PASS:/FAIL: per check, exits 0.
set -u
bin=$1
cd "$(dirname "$0")/../.." || exit 0
. tests/e2e/lib.sh
B=tests/bad/c
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

expect_error "$B/unknown-function.litmus"               4:3   "unknown function 'atomic_frob'"
expect_error "$B/bad-order.litmus"                      4:31  "expected a memory order"
expect_error "$B/cas-fail-release.litmus"               4:61  "failure order of a compare-exchange"
expect_error "$B/undeclared-location.litmus"            4:16  "undeclared location 'y'"
expect_error "$B/unknown-type.litmus"                   3:5   "expected a parameter type.*int128_t"
expect_error "$B/not-a-pointer.litmus"                  3:5   "parameters are pointers to locations"
expect_error "$B/pointer-init.litmus"                   2:15  "pointers\) are not supported"
expect_error "$B/arity.litmus"                          4:3   "takes 3 arguments, not 2"
expect_error "$B/thread-order.litmus"                   3:1   "out of order: expected P0"
expect_error "$B/unbalanced-braces.litmus"              7:1   "missing '\}' for the '\{' at 3:20"
expect_error "$B/truncated.litmus"                      4:20  "unexpected end of file"
expect_error "$B/fence-value.litmus"                    4:12  "'atomic_thread_fence' has no value"
expect_error "$B/lock.litmus"                           4:3   "locks are not supported"
expect_error "$B/unknown-location-in-condition.litmus"  6:1   "unknown location 'z'"
expect_error "$B/bad-info-line.litmus"                  2:1   "Key=Value line"
expect_error "$B/init-twice.litmus"                     2:10  "initialised twice"
expect_error "$B/unterminated-comment.litmus"           4:3   "unterminated comment"

# Random cuts of every test of our C suite: refused with a diagnostic or,
# when the cut falls after a whole thread and before the final condition,
# accepted as herd7 takes such a test (forall (true)); never a crash or a
# hang.
n=0 bad=0
for f in litmus/c11/*.litmus; do
    size=$(wc -c <"$f")
    for cut in 7 23 41 77 113 181 260; do
        [ "$cut" -lt "$size" ] || continue
        head -c "$cut" "$f" >"$tmp/cut.litmus"
        timeout 10 "$bin" litmus --model sc "$tmp/cut.litmus" >"$tmp/out" 2>"$tmp/err"
        rc=$?
        n=$((n + 1))
        if [ "$rc" -eq 0 ] && grep -q "^Condition forall (true)" "$tmp/out" && [ ! -s "$tmp/err" ]; then
            continue
        fi
        if [ "$rc" -ne 2 ] || ! grep -qE "^$tmp/cut.litmus:[0-9]+:[0-9]+: error: " "$tmp/err"; then
            bad=$((bad + 1))
            echo "FAIL: $f cut at $cut bytes: status $rc, stderr $(head -n 1 "$tmp/err")"
        fi
    done
done
[ "$bad" -eq 0 ] && echo "PASS: $n truncated C tests refused with a diagnostic"
