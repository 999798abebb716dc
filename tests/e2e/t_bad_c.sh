#!/usr/bin/env bash
# End-to-end checks that `scopecheck litmus` refuses malformed C litmus tests
# (herd7's C dialect, docs/litmus-c.md) cleanly: exit status 2, nothing on
# stdout, and one "FILE:LINE:COL: error: ..." line on stderr naming the
# problem.  Inputs: tests/bad/c/*.litmus, the error each gets in tests/bad/c/errors.tsv.
# Usage: t_bad_c.sh PATH/TO/scopecheck.  Prints PASS:/FAIL: per check, exits 0.
set -u
bin=$1
cd "$(dirname "$0")/../.." || exit 0
. tests/e2e/lib.sh
B=tests/bad/c
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

expect_errors_table "$B/errors.tsv"

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
