#!/usr/bin/env bash
# End-to-end checks that `graph` never leaves a partial or temporary file:
# a full filesystem (a 4 KiB tmpfs in a private mount namespace when this
# machine allows one), a file size limit (ulimit -f, everywhere), and
# SIGTERM / SIGINT while it runs.  Output errors exit 2 with the reason;
# a signal exits 3 with a message (or the run finished first: 0 and a
# complete file).  $1: the scopecheck binary.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mp=litmus/protocol/MP-stale-seed.litmus

# no_leftovers DIR: nothing named *.tmp-* in DIR.
no_leftovers() { ! ls -a "$1" | grep -q '\.tmp-'; }

# ---- file size limit: writes fail with EFBIG ("File too large") ----------
for out in mp.svg mp.png mp.dot; do
    (ulimit -f 1; trap '' XFSZ; "$bin" graph --protocol gpu_vi "$mp" -o "$tmp/$out" >"$tmp/o" 2>"$tmp/e")
    rc=$?
    check "size limit, $out: exit 2 (got $rc)" test "$rc" -eq 2
    check "size limit, $out: the reason" grep -q "cannot write '$tmp/$out': File too large" "$tmp/e"
    check "size limit, $out: no graphviz exit message" sh -c "! grep -q gvwrite '$tmp/e'"
    check "size limit, $out: no file, no temporary" sh -c "test ! -e '$tmp/$out' && ! ls -a '$tmp' | grep -q tmp-"
done
(ulimit -f 1; trap '' XFSZ; "$bin" graph --protocol gpu_vi --tables -o "$tmp/t.html" >"$tmp/o" 2>"$tmp/e")
rc=$?
check "size limit, tables: exit 2, the reason, no file" \
    sh -c "test $rc -eq 2 && grep -q 'File too large' '$tmp/e' && test ! -e '$tmp/t.html'"
check "size limit: no temporary file left at all" no_leftovers "$tmp"

# ---- a full filesystem ----------------------------------------------------
full_disk() {
    mkdir -p "$tmp/full"
    unshare -m sh -c "mount -t tmpfs -o size=4k tmpfs '$tmp/full' && cd '$PWD' &&
        '$bin' graph --protocol gpu_vi '$mp' -o '$tmp/full/mp.svg' >'$tmp/fo' 2>'$tmp/fe'; echo \$? >'$tmp/frc';
        '$bin' graph --protocol gpu_vi --tables -o '$tmp/full/big.html' >/dev/null 2>'$tmp/fe2'; echo \$? >'$tmp/frc2';
        ls -a '$tmp/full' >'$tmp/fls'"
}
if command -v unshare >/dev/null 2>&1 && full_disk 2>/dev/null && [ -s "$tmp/frc" ]; then
    check "full disk, svg: exit 2 (got $(cat "$tmp/frc"))" test "$(cat "$tmp/frc")" -eq 2
    check "full disk, svg: 'No space left on device'" grep -q "cannot write '$tmp/full/mp.svg': No space left on device" "$tmp/fe"
    check "full disk, svg: no graphviz exit message" sh -c "! grep -q gvwrite '$tmp/fe'"
    check "full disk: no file and no temporary file left" sh -c "! grep -qE 'mp.svg|tmp-' '$tmp/fls'"
    # the HTML tables (about 10 KiB for gpu_vi) do not fit either
    check "full disk, tables: exit 2 with the reason" \
        sh -c "test $(cat "$tmp/frc2") -eq 2 && grep -q 'No space left on device' '$tmp/fe2'"
else
    echo "skipped: the full-filesystem checks (no private mount namespace with tmpfs here)"
fi

# ---- signals ---------------------------------------------------------------
# The run's length, then a signal half way and near the end of another.
s0=$(date +%s%N)
"$bin" graph --protocol gpu_vi "$mp" -o "$tmp/ref.png" >/dev/null 2>&1
t_ms=$(( ($(date +%s%N) - s0) / 1000000 ))
signal_at() {   # SIG FRACTION_PERCENT NAME
    local sig=$1 pct=$2 name=$3 pid rc
    env --default-signal=INT "$bin" graph --protocol gpu_vi "$mp" -o "$tmp/$name.png" >"$tmp/so" 2>"$tmp/se" &
    pid=$!
    sleep "$(awk -v t="$t_ms" -v p="$pct" 'BEGIN { printf "%.3f", t * p / 100000 }')"
    kill -s "$sig" "$pid" 2>/dev/null
    wait "$pid"
    rc=$?
    if [ "$rc" -eq 0 ]; then
        check "SIG$sig at $pct%: finished first, a complete PNG" cmp -s "$tmp/ref.png" "$tmp/$name.png"
    elif [ -e "$tmp/$name.png" ]; then
        # the signal came after the file was renamed into place, before exit
        check "SIG$sig at $pct%: exit 3 after the output (got $rc)" test "$rc" -eq 3
        check "SIG$sig at $pct%: says the output was written" grep -q 'after its output file was written whole' "$tmp/se"
        check "SIG$sig at $pct%: the output is complete" cmp -s "$tmp/ref.png" "$tmp/$name.png"
    else
        check "SIG$sig at $pct%: exit 3 (got $rc)" test "$rc" -eq 3
        check "SIG$sig at $pct%: says it was interrupted" grep -q 'interrupted; no output file written' "$tmp/se"
        check "SIG$sig at $pct%: no output file" test ! -e "$tmp/$name.png"
    fi
    check "SIG$sig at $pct%: no temporary file left" no_leftovers "$tmp"
}
signal_at TERM 50 term50
signal_at INT 85 int85
exit 0
