#!/usr/bin/env bash
# End-to-end checks of verify's progress lines (docs/counterexamples.md):
# printed on stderr every few seconds when stderr is a terminal, never when
# it is not unless asked (--progress), never with --no-progress, and never
# on stdout.  The long runs are cut by --timeout 2.5 on a search far larger
# (IRIW-plus-5, 19 million states, on one thread and without symmetry
# reduction: IRIW on 6 CUs finishes in under 2 s since both) so that they
# outlast the default 2 s interval on any machine.  $1: the scopecheck binary.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
line_re='^progress IRIW-plus-4: [0-9]+ states \([0-9]+/s\), [0-9]+ in the queue, depth [0-9]+, [0-9]+ transitions, store [0-9.]+ MiB, [0-9.]+ s$'

# Asked for, every 0.05 s, on a file: lines on stderr only.
"$bin" verify --progress=0.05 --const MAXV=1 --protocol gpu_vi litmus/protocol/IRIW-plus-4.litmus >"$tmp/out" 2>"$tmp/err"
rc=$?
check "--progress: the search still passes (exit 0)" test "$rc" -eq 0
check "--progress: at least one progress line on stderr" grep -qE "$line_re" "$tmp/err"
check "--progress: nothing on stdout" sh -c "! grep -q '^progress' '$tmp/out'"
# States grow and never exceed the final count (295805 with the Rumur
# model's values 0..1, docs/PERFORMANCE.md: Rumur finds the same number).
check "--progress: state counts grow and stay below the total" awk '
    /^progress/ { n = $3 + 0; if (n < last || n > 295805) bad = 1; last = n }
    END { exit bad }' "$tmp/err"
"$bin" verify --progress=abc --protocol gpu_vi litmus/protocol/MP-stale-seed.litmus >/dev/null 2>"$tmp/err"
rc=$?
check "--progress=abc: exit 2 with a message" sh -c "test $rc -eq 2 && grep -q 'progress takes a positive number' '$tmp/err'"

big=(--symmetry off --threads 1 --timeout 2.5 --max-memory 512M --const MAXV=1 --protocol gpu_vi tests/bench/IRIW-plus-5.litmus)
# Not a terminal, not asked: no progress line even after 2.5 s.
"$bin" verify "${big[@]}" >"$tmp/out" 2>"$tmp/err"
check "stderr not a terminal: no progress line" sh -c "! grep -q '^progress' '$tmp/err'"
check "stderr not a terminal: the search ran past the 2 s interval (cut by the timeout)" \
    grep -q 'stopped by the timeout limit' "$tmp/out"

# A terminal (a pseudo-terminal from script(1)): a progress line by default,
# none with --no-progress.
if command -v script >/dev/null 2>&1; then
    script -qec "$(printf '%q ' "$bin" verify "${big[@]}")" /dev/null >"$tmp/tty" 2>&1 </dev/null
    check "terminal: a progress line by default" grep -qE '^progress IRIW-plus-5: [0-9]+ states' "$tmp/tty"
    script -qec "$(printf '%q ' "$bin" verify --no-progress "${big[@]}")" /dev/null >"$tmp/tty2" 2>&1 </dev/null
    check "terminal with --no-progress: none" sh -c "! grep -q '^progress' '$tmp/tty2' && grep -q 'timeout limit' '$tmp/tty2'"
else
    echo "skipped: the terminal checks (no script(1) to make a pseudo-terminal)"
fi
exit 0
