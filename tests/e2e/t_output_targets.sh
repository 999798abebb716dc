#!/usr/bin/env bash
# End-to-end checks that output never damages what it writes to
# (docs/output.md): `-o` naming a device node, a FIFO, a directory or a
# symbolic link, for `export` and every form of `graph`; `litmus -show -o
# DIR` on a full filesystem; `litmus --json` on a missing file; `litmus -j
# 2` under a SIGTERM sent to the parent alone.
#
# The device nodes are private copies made with mknod in this test's own
# temporary folder (1,7 is Linux's "full" device: every write fails with
# ENOSPC; 1,3 is "null": every write succeeds).  No node under /dev is ever
# named.  Without root (mknod refused) those checks are skipped with a
# message.  $1: the scopecheck binary.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mp=litmus/protocol/MP-stale-seed.litmus

# is_node PATH MAJOR,MINOR: PATH is still a character device with that number.
is_node() { [ -c "$1" ] && [ "$(stat -c '%t,%T' "$1")" = "$(printf '%x,%x' "${2%,*}" "${2#*,}")" ]; }
no_leftovers() { ! ls -a "$1" | grep -q 'tmp'; }

# The forms that write with -o; the output file name is appended.
forms=(
    "export --protocol gpu_vi $mp -o"
    "graph --protocol gpu_vi $mp -o"
    "graph --protocol gpu_vi --msc $mp -o"
    "graph --protocol gpu_vi --full $mp -o"
    "graph --protocol gpu_vi --tables -o"
)
exts=(json svg svg dot html)

# ---- device nodes ------------------------------------------------------------
dev=$tmp/dev
mkdir "$dev"
if mknod "$dev/probe" c 1 3 2>/dev/null; then
    for i in "${!forms[@]}"; do
        f=${forms[$i]} e=${exts[$i]} name="${forms[$i]%% -o}"
        mknod "$dev/full$i.$e" c 1 7
        mknod "$dev/null$i.$e" c 1 3
        # shellcheck disable=SC2086
        "$bin" $f "$dev/full$i.$e" >"$tmp/o" 2>"$tmp/e"
        rc=$?
        check "$name -o FULLDEV: exit 2 (got $rc)" test "$rc" -eq 2
        check "$name -o FULLDEV: says 'No space left on device'" \
            grep -q "cannot write '$dev/full$i.$e': No space left on device" "$tmp/e"
        check "$name -o FULLDEV: does not say Wrote" sh -c "! grep -q Wrote '$tmp/o'"
        check "$name -o FULLDEV: the node is still the device 1,7" is_node "$dev/full$i.$e" 1,7
        # shellcheck disable=SC2086
        "$bin" $f "$dev/null$i.$e" >"$tmp/o" 2>"$tmp/e"
        rc=$?
        check "$name -o NULLDEV: exit 0 (got $rc)" test "$rc" -eq 0
        check "$name -o NULLDEV: the node is still the device 1,3" is_node "$dev/null$i.$e" 1,3
        check "$name: no temporary file beside the nodes" no_leftovers "$dev"
    done
else
    echo "skipped: the device-node checks (mknod not permitted here)"
fi

# ---- gen -o DIR: a device node under a generated test's name stays ---------
if mknod "$dev/probe2" c 1 3 2>/dev/null; then
    mkdir "$tmp/gen"
    "$bin" gen --seed 9 --first 1 -o "$tmp/gen" >/dev/null 2>&1
    g=$(ls "$tmp/gen" | head -n 1)
    rm -f "$tmp/gen/$g"
    mknod "$tmp/gen/$g" c 1 7
    "$bin" gen --seed 9 --first 1 -o "$tmp/gen" >"$tmp/o" 2>"$tmp/e"
    rc=$?
    check "gen -o DIR over a full-device node: exit 2 (got $rc)" test "$rc" -eq 2
    check "gen -o DIR over a full-device node: the reason" grep -q 'No space left on device' "$tmp/e"
    check "gen -o DIR over a full-device node: still the device" is_node "$tmp/gen/$g" 1,7
fi

# ---- a FIFO: written in place, read whole by its reader ---------------------
for i in 0 1 4; do
    f=${forms[$i]} e=${exts[$i]} name="${forms[$i]%% -o}"
    rm -f "$tmp/fifo.$e" "$tmp/got"
    mkfifo "$tmp/fifo.$e"
    timeout 20 cat "$tmp/fifo.$e" >"$tmp/got" &
    reader=$!
    # shellcheck disable=SC2086
    timeout 20 "$bin" $f "$tmp/fifo.$e" >"$tmp/o" 2>"$tmp/e"
    rc=$?
    wait "$reader"
    check "$name -o FIFO: exit 0 (got $rc)" test "$rc" -eq 0
    check "$name -o FIFO: still a FIFO" test -p "$tmp/fifo.$e"
    check "$name -o FIFO: the reader got the whole document" \
        grep -qE '^}$|</svg>|</html>' "$tmp/got"
done
check "FIFO: no temporary file left" no_leftovers "$tmp"

# ---- a directory is refused; a symbolic link stays a link -------------------
mkdir "$tmp/adir.svg"
"$bin" graph --protocol gpu_vi "$mp" -o "$tmp/adir.svg" >"$tmp/o" 2>"$tmp/e"
rc=$?
check "graph -o DIR: exit 2 (got $rc)" test "$rc" -eq 2
check "graph -o DIR: 'Is a directory'" grep -q "cannot write '$tmp/adir.svg': Is a directory" "$tmp/e"
check "graph -o DIR: still a directory" test -d "$tmp/adir.svg"
echo old >"$tmp/real.dot"
ln -s real.dot "$tmp/link.dot"
"$bin" graph --protocol gpu_vi "$mp" -o "$tmp/link.dot" >/dev/null 2>&1
check "graph -o LINK: exit 0" test $? -eq 0
check "graph -o LINK: the link stays a link" test -L "$tmp/link.dot"
check "graph -o LINK: the file it names is written" grep -q digraph "$tmp/real.dot"

# ---- litmus -show all -o DIR on a full filesystem ---------------------------
# Six small tests whose pictures (a few KiB each) overflow a 64 KiB tmpfs:
# every test is still reported, the run exits 2 and says where drawing
# stopped, no SVG is left truncated and no temporary file is left.
tests=(litmus/c11/CoRR.litmus litmus/c11/CoWW+2W.litmus litmus/c11/CAS+MP.litmus
       litmus/c11/Consume+MP.litmus litmus/c11/Exchange+SB.litmus litmus/c11/3.SB+sc.litmus)
show_full() {
    mkdir -p "$tmp/small"
    unshare -m sh -c "mount -t tmpfs -o size=64k tmpfs '$tmp/small' && cd '$PWD' &&
        '$bin' litmus --model sc -show all -o '$tmp/small/d' ${tests[*]} >'$tmp/so' 2>'$tmp/se';
        echo \$? >'$tmp/src';
        for f in '$tmp'/small/d/*.svg; do tail -c 7 \"\$f\" | grep -q '</svg>' || echo \"\$f\"; done >'$tmp/cut';
        ls -a '$tmp/small/d' >'$tmp/sls'"
}
if command -v unshare >/dev/null 2>&1 && show_full 2>/dev/null && [ -s "$tmp/src" ]; then
    check "-show on a full disk: exit 2 (got $(cat "$tmp/src"))" test "$(cat "$tmp/src")" -eq 2
    check "-show on a full disk: every test reported ($(grep -c '^Observation' "$tmp/so") of ${#tests[@]})" \
        test "$(grep -c '^Observation' "$tmp/so")" -eq "${#tests[@]}"
    check "-show on a full disk: 'No space left on device'" grep -q 'No space left on device' "$tmp/se"
    check "-show on a full disk: says where drawing stopped" grep -q 'drawing stopped after' "$tmp/se"
    check "-show on a full disk: no graphviz exit message" sh -c "! grep -q gvwrite '$tmp/se'"
    check "-show on a full disk: no truncated SVG" test ! -s "$tmp/cut"
    check "-show on a full disk: no temporary file" sh -c "! grep -q tmp '$tmp/sls'"
else
    echo "skipped: the full-filesystem checks (no private mount namespace with tmpfs here)"
fi

# ---- two tests drawn in one run share one graphviz context ------------------
# (a context made and freed per test read freed memory inside graphviz for
# the second test: AddressSanitizer finds it when `make asan` runs this
# script with the ASan binary).  CoRR under sc: 2 consistent executions
# (the read sees init or the write... drawn with -show all); 3.SB+sc: more.
"$bin" litmus --model sc -show all -o "$tmp/two" litmus/c11/CoRR.litmus litmus/c11/3.SB+sc.litmus \
    >"$tmp/to" 2>"$tmp/te"
rc=$?
check "-show all, two tests: exit 0 (got $rc)" test "$rc" -eq 0
check "-show all, two tests: both reported" test "$(grep -c '^Observation' "$tmp/to")" -eq 2
check "-show all, two tests: both drawn" sh -c "ls '$tmp/two' | grep -q '^CoRR-1.svg' && ls '$tmp/two' | grep -q '^3.SB+sc-1.svg'"

# ---- per-thread size (docs/limits.md): no limit of its own ------------------
# One PTX thread of 300 loads of x into 100 registers (hand derivation: the
# only write is the initial one, so every load reads 0: r0 = 0 always).
{
    printf 'PTX Big-thread\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n'
    for i in $(seq 0 299); do printf ' ld.relaxed.gpu r%d, x ;\n' $((i % 100)); done
    printf ';\nforall (P0:r0 == 0 /\\ P0:r99 == 0)\n'
} >"$tmp/big.litmus"
"$bin" litmus --model ptx6 "$tmp/big.litmus" >"$tmp/bo" 2>"$tmp/be"
rc=$?
check "a thread of 300 instructions, 100 registers: exit 0 (got $rc; $(head -c 200 "$tmp/be"))" test "$rc" -eq 0
check "a thread of 300 instructions, 100 registers: Ok" grep -qx Ok "$tmp/bo"

# ---- litmus --json on a missing file: a JSON error object -------------------
"$bin" litmus --json "$tmp/missing.litmus" >"$tmp/jo" 2>"$tmp/je"
rc=$?
check "--json missing file: exit 2 (got $rc)" test "$rc" -eq 2
check "--json missing file: one JSON error object naming it" \
    grep -qF "{\"file\":\"$tmp/missing.litmus\",\"error\":\"$tmp/missing.litmus: error: No such file or directory\"" "$tmp/jo"
check "--json missing file: the message on stderr too" grep -q "missing.litmus: error: No such file" "$tmp/je"

# ---- litmus -j 2: SIGTERM to the parent alone stops every worker ------------
# Four copies of a test that takes seconds (HS-2counter: minutes uncut).
mkdir "$tmp/slow"
for k in 1 2 3 4; do cp litmus/sync/HS-2counter.litmus "$tmp/slow/s$k.litmus"; done
"$bin" litmus --model ptx6 -j 2 "$tmp/slow" >"$tmp/po" 2>"$tmp/pe" &
parent=$!
sleep 2
workers=$(pgrep -P "$parent" | tr '\n' ' ')
kill -TERM "$parent"
for _ in $(seq 1 100); do kill -0 "$parent" 2>/dev/null || break; sleep 0.1; done
alive=0
kill -0 "$parent" 2>/dev/null && alive=1
sleep 0.5       # a worker told to stop needs a moment to poll its flag
left=""
for w in $workers; do kill -0 "$w" 2>/dev/null && left="$left $w"; done
for w in $left; do kill -KILL "$w" 2>/dev/null; done    # our own processes: no strays
wait "$parent" 2>/dev/null
rc=$?
check "-j 2 SIGTERM: the parent ends within 10 s" test "$alive" -eq 0
check "-j 2 SIGTERM: it had workers ($workers)" test -n "$workers"
check "-j 2 SIGTERM: no worker left running ($left)" test -z "$left"
check "-j 2 SIGTERM: exit 3 (got $rc)" test "$rc" -eq 3
check "-j 2 SIGTERM: says what was not checked" grep -q 'interrupted; [0-9]* of 4 files not checked' "$tmp/pe"
# ---- a JSON line cut by a signal: never -------------------------------------
# 400 copies of a small test write about 400 KiB of JSON lines into a pipe
# that nobody reads for 2 s, so the writer is blocked inside a write when
# two SIGTERMs come (the second, 0.7 s after the first, ends the process:
# base/interrupt.h takes a repeat within 0.5 s for the same request).
# Every line that arrives must be a whole JSON object.
mkdir "$tmp/many"
for k in $(seq 1 400); do cp litmus/c11/CoRR.litmus "$tmp/many/t$k.litmus"; done
mkfifo "$tmp/jpipe"
exec 3<>"$tmp/jpipe"        # held open here, so that opening it never waits
"$bin" litmus --json --model sc "$tmp/many" >"$tmp/jpipe" 2>"$tmp/jerr" &
writer=$!
sleep 1
kill -TERM "$writer" 2>/dev/null
sleep 0.7
kill -TERM "$writer" 2>/dev/null
sleep 1
timeout 10 cat "$tmp/jpipe" >"$tmp/lines" &
reader=$!
wait "$writer" 2>/dev/null
exec 3>&-
wait "$reader"
check "two SIGTERMs while writing JSON lines: some lines arrived ($(wc -l <"$tmp/lines"))" test -s "$tmp/lines"
check "two SIGTERMs while writing JSON lines: every line is whole JSON" python3 -c '
import json, sys
data = open(sys.argv[1]).read()
assert data.endswith("\n"), "the last line is cut"
for line in data.splitlines():
    json.loads(line)
' "$tmp/lines"

# ---- scopesim with standard output full --------------------------------------
# Its summary goes to a private "full" node: exit 2 with the reason, never 0.
sim=$(dirname "$bin")/scopesim
if [ -x "$sim" ] && mknod "$dev/simfull" c 1 7 2>/dev/null; then
    "$bin" export --protocol gpu_vi "$mp" -o "$tmp/vi.json" >/dev/null 2>&1
    printf 'workload s2\nkind stream\nlines 2\n' >"$tmp/s2.wl"
    "$sim" --tables "$tmp/vi.json" --system models/sim/tiny.sys --workload "$tmp/s2.wl" --no-progress \
        >"$dev/simfull" 2>"$tmp/sime"
    rc=$?
    check "scopesim, standard output full: exit 2 (got $rc)" test "$rc" -eq 2
    check "scopesim, standard output full: says why" \
        grep -q 'scopesim: error: cannot write the results on standard output: No space left on device' "$tmp/sime"
else
    echo "skipped: scopesim with standard output full (no scopesim beside $bin, or mknod not permitted)"
fi
