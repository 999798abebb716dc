#!/usr/bin/env bash
# End-to-end checks of `scopecheck graph`: the state graph of a protocol on
# a litmus test (DOT, SVG, PNG), the counterexample path highlighted, the
# tables as HTML, and the refusals (bad extension, too many states, an
# unwritable file) that leave no file behind.  $1: the scopecheck binary.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mp=litmus/protocol/MP-stale-seed.litmus
mutant=models/mutants/gpu_vi_no_acquire_inval.proto

# Each format, non-empty, with nothing left under a temporary name.
for ext in dot svg png; do
    "$bin" graph --protocol gpu_vi "$mp" -o "$tmp/mp.$ext" >"$tmp/out.$ext" 2>"$tmp/err.$ext"
    rc=$?
    check "graph .$ext: exit 0" test "$rc" -eq 0
    check "graph .$ext: file written and non-empty" test -s "$tmp/mp.$ext"
    check "graph .$ext: says what it wrote" grep -q "^Wrote $tmp/mp.$ext\$" "$tmp/out.$ext"
done
check "graph: no temporary files left" test -z "$(ls "$tmp" | grep tmp-)"
check "SVG is an svg document" grep -q '<svg' "$tmp/mp.svg"
check "PNG has the PNG signature" sh -c "head -c 8 '$tmp/mp.png' | od -An -c | grep -q 'P   N   G'"
check "DOT is a digraph" grep -q '^digraph' "$tmp/mp.dot"

# One node per state (268 on gpu_vi), one edge per transition (541).
nodes=$(grep -cE '^[[:space:]]*s[0-9]+[[:space:]]+\[' "$tmp/mp.dot")
edges=$(grep -cE '^[[:space:]]*s[0-9]+ -> s[0-9]+' "$tmp/mp.dot")
check "DOT has 268 nodes (got $nodes)" test "$nodes" -eq 268
check "DOT has 541 edges (got $edges)" test "$edges" -eq 541
check "summary counts states and transitions" grep -q '268 states, 541 transitions, 0 unsound outcomes, 0 deadlocks' "$tmp/out.dot"
check "sound protocol: nothing highlighted" sh -c "! grep -q 'penwidth=3' '$tmp/mp.dot'"
check "final states are double circles" grep -q 'shape=doublecircle' "$tmp/mp.dot"
check "initial state is bold" sh -c "grep -A8 -E '^[[:space:]]*s0[[:space:]]+\\[' '$tmp/mp.dot' | grep -q 'style=bold'"

# The mutant (no acquire invalidation) has an unsound outcome: its shortest
# path is red with penwidth 3.
"$bin" graph --protocol "$mutant" "$mp" -o "$tmp/mut.dot" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "mutant: exit 0" test "$rc" -eq 0
check "mutant: summary names the unsound outcome" grep -q '1 unsound outcome, 0 deadlocks; highlighted: unsound outcome at state' "$tmp/out"
red=$(awk '/^[[:space:]]*s[0-9]+ -> s[0-9]+/ {e=1; buf=""} e {buf=buf $0} e && /\];$/ {if (buf ~ /color=red/ && buf ~ /penwidth=3/) n++; e=0} END {print n+0}' "$tmp/mut.dot")
check "mutant: highlighted (red, penwidth 3) edges in the DOT (got $red)" test "$red" -ge 5
steps=$("$bin" verify --protocol "$mutant" "$mp" 2>/dev/null | awk '/^Trace$/ {t++} t == 1 && /^  [0-9]+: / {n++} END {print n+0}')
check "mutant: as many red edges as the verify trace has steps after the initial state ($steps)" \
    test "$red" -eq $((steps - 1))
check "mutant: the unsound final state is in the graph" grep -q 'fillcolor=mistyrose' "$tmp/mut.dot"
check "mutant: the title names the unsound outcome" grep -q '1 unsound outcome (model ptx6)' "$tmp/mut.dot"

# Tables as HTML: one table per controller, L1 and L2, rows escaped.
"$bin" graph --protocol gpu_vi --tables -o "$tmp/t.html" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "tables: exit 0" test "$rc" -eq 0
check "tables: HTML written" grep -q '<!DOCTYPE html>' "$tmp/t.html"
check "tables: an L1 section" grep -q '<h2 id="L1">controller L1</h2>' "$tmp/t.html"
check "tables: an L2 section" grep -q '<h2 id="L2">controller L2</h2>' "$tmp/t.html"
check "tables: two tables" test "$(grep -c '<table>' "$tmp/t.html")" -eq 2
check "tables: header columns" grep -q '<th>state</th><th>event</th><th>guard</th><th>actions</th><th>next</th>' "$tmp/t.html"
check "tables: an L1 row, cell by cell" grep -q '<td><code>V</code></td><td><code>evict</code></td><td><code></code></td><td><code>invalidate</code></td><td><code>I</code></td>' "$tmp/t.html"
check "tables: an L2 row" grep -q '<td><code>recv req.Atomic</code></td>' "$tmp/t.html"
check "tables: '||' kept in a declaration, not a column" grep -q 'state == V || line.val == 0' "$tmp/t.html"
rows=$(awk '/^table / {t=1; next} /^end/ {t=0} t && !/^[[:space:]]*(#|$)/ {n++} END {print n+0}' models/gpu_vi.proto)
check "tables: one row per table row of the file ($rows), each with its line number" \
    test "$(grep -c '<td class="ln">' "$tmp/t.html")" -eq "$rows"
# Escaping: a guard with '<' and a '&&'.
sed -E 's/^([[:space:]]*V[[:space:]]*\|[[:space:]]*evict[[:space:]]*\|)[[:space:]]*\|/\1 acks < 1 \&\& acks >= 0 |/' \
    models/gpu_vi.proto >"$tmp/esc.proto"
"$bin" graph --protocol "$tmp/esc.proto" --tables -o "$tmp/esc.html" >/dev/null 2>"$tmp/err"
check "tables: '<' and '&' escaped" grep -q '<td><code>acks &lt; 1 &amp;&amp; acks &gt;= 0</code></td>' "$tmp/esc.html"
check "tables: no raw '<' from a guard" sh -c "! grep -q 'acks < 1' '$tmp/esc.html'"

# Refusals: exit 2, a message, and no file (nor temporary file) left.
"$bin" graph --protocol gpu_vi "$mp" -o "$tmp/bad.jpg" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "bad extension: exit 2" test "$rc" -eq 2
check "bad extension: message" grep -q "cannot tell the format of '$tmp/bad.jpg'" "$tmp/err"
check "bad extension: no file" test ! -e "$tmp/bad.jpg"
"$bin" graph --protocol gpu_vi --tables -o "$tmp/bad.svg" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "tables to a non-HTML file: exit 2, no file" sh -c "test $rc -eq 2 && test ! -e '$tmp/bad.svg'"

"$bin" graph --max-states 2000 --protocol gpu_vi litmus/protocol/IRIW-acq-4.litmus -o "$tmp/big.svg" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "too many states: exit 2" test "$rc" -eq 2
check "too many states: message" grep -q 'has more than 2000 states, too many to search' "$tmp/err"
check "too many states: no file" test ! -e "$tmp/big.svg"
"$bin" graph --protocol gpu_vi --max-states 100 "$mp" -o "$tmp/small.dot" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "--max-states 100 on 268 states: exit 2, no file" sh -c "test $rc -eq 2 && test ! -e '$tmp/small.dot'"
"$bin" graph --protocol gpu_vi --max-states 268 "$mp" -o "$tmp/exact.dot" >/dev/null 2>&1
check "--max-states equal to the count: drawn" test -s "$tmp/exact.dot"

"$bin" graph --protocol gpu_vi "$mp" -o "$tmp/no/such/dir/x.svg" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "unwritable output: exit 2" test "$rc" -eq 2
check "unwritable output: message" grep -q "cannot write '$tmp/no/such/dir/x.svg'" "$tmp/err"

mkdir "$tmp/ro" && echo keep >"$tmp/ro/x.svg" && chmod 555 "$tmp/ro"
if [ ! -w "$tmp/ro" ]; then
    "$bin" graph --protocol gpu_vi "$mp" -o "$tmp/ro/x.svg" >/dev/null 2>"$tmp/err"
    rc=$?
    check "read-only directory: exit 2, old file untouched" sh -c "test $rc -eq 2 && grep -qx keep '$tmp/ro/x.svg'"
fi
chmod 755 "$tmp/ro"

# An existing file is replaced whole.
echo old >"$tmp/re.dot"
"$bin" graph --protocol gpu_vi "$mp" -o "$tmp/re.dot" >/dev/null 2>&1
check "existing output replaced" grep -q '^digraph' "$tmp/re.dot"

"$bin" graph --protocol gpu_vi -o "$tmp/x.svg" >/dev/null 2>"$tmp/err"
rc=$?
check "no litmus file: exit 2" test "$rc" -eq 2
"$bin" graph --protocol gpu_vi "$mp" >/dev/null 2>"$tmp/err"
rc=$?
check "no -o: exit 2" test "$rc" -eq 2
"$bin" graph --protocol no_such_protocol "$mp" -o "$tmp/x.svg" >/dev/null 2>"$tmp/err"
rc=$?
check "unknown protocol: exit 2, no file" sh -c "test $rc -eq 2 && test ! -e '$tmp/x.svg'"
exit 0
