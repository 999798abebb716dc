#!/usr/bin/env bash
# End-to-end tests through the command line.  Usage: run.sh PATH/TO/scopecheck
# Runs every tests/e2e/t_*.sh with the binary as $1.  Each script prints one
# line per check, "PASS: what" or "FAIL: what", and exits 0.  The closing line
# counts them all.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.." || exit 2
passed=0 failed=0
# compiled models (cat/cache.h) go to a scratch cache, not the user's
# ~/.cache: the tests' models live in temporary directories, an entry each
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
export SCOPECHECK_CACHE=${SCOPECHECK_CACHE:-$cache}
for t in "$here"/t_*.sh; do
    out=$(bash "$t" "$bin" 2>&1)
    rc=$?
    p=$(grep -c '^PASS' <<<"$out")
    f=$(grep -c '^FAIL' <<<"$out")
    grep '^FAIL' <<<"$out"
    if [ "$rc" -ne 0 ]; then
        echo "FAIL: $(basename "$t") exited with status $rc"
        printf '%s\n' "$out" | tail -5
        f=$((f + 1))
    fi
    passed=$((passed + p)) failed=$((failed + f))
done
echo "e2e: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
