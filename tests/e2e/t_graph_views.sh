#!/usr/bin/env bash
# End-to-end checks of what `graph` shows (docs/counterexamples.md): node
# tooltips and, in small graphs, labels with the state; the neighbourhood
# of the counterexample in graphs over 300 states (--full for all);
# `--msc` charts (lifelines, calls, messages, returns, in-flight messages);
# `--tables` matrices.  DOT output is read statement by statement.
# Expected numbers come from verify's own trace (a second path through the
# program: steps, receives, reads) or are derived by hand from
# models/gpu_vi.proto, as the comments say.  $1: the scopecheck binary.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mp=litmus/protocol/MP-stale-seed.litmus
mutant=models/mutants/gpu_vi_no_acquire_inval.proto

# statements FILE: one DOT statement per line (continuations joined).
statements() { sed -e ':a' -e '/\\$/{N;s/\\\n//;ba}' "$1" | awk '{ b = b $0 } /;[[:space:]]*$/ { print b; b = "" }'; }
nodes() { statements "$1" | grep -E '^[[:space:]]*s[0-9]+[[:space:]]+\['; }
edges() { statements "$1" | grep -E '^[[:space:]]*s[0-9]+ -> s[0-9]+'; }

# ---- node state: tooltips everywhere, labels in small graphs ---------------
"$bin" graph --protocol gpu_vi "$mp" -o "$tmp/mp.dot" >/dev/null 2>&1
n=$(nodes "$tmp/mp.dot" | wc -l)
tips=$(nodes "$tmp/mp.dot" | grep -c 'tooltip="state [0-9]*\\lP0: pc = ')
check "268 states: every node has its state as a tooltip ($tips of $n)" test "$tips" -eq 268 -a "$n" -eq 268
check "268 states: labels are numbers (and outcomes), not states" sh -c "! grep -q 'label=\"[0-9]*\\\\lP0' '$tmp/mp.dot'"

# CoWR-miss has 11 states.  After P0's st.weak x, 1 in I (row: send Store;
# pend + 1; acks += 1; done) the label lists exactly what changed.
"$bin" graph --protocol gpu_vi litmus/protocol/CoWR-miss.litmus -o "$tmp/s.dot" >/dev/null 2>&1
check "11 states: the initial state's label says so" grep -qF 'label="0\linitial state\l"' "$tmp/s.dot"
check "11 states: a label lists the fields a store changed" \
    grep -qF 'label="1\lP0: pc = 1 (ld.weak r0, x)\lL1 (CU 0): acks = 1\lL1 (CU 0) [x]: pend = 1\lreq[0]: Store(x, 1)\l"' "$tmp/s.dot"
# FIFO requests: the load cannot overtake the store, so the only outcome is r0 = 1.
check "11 states: final labels carry the outcome (only 0:r0=1;)" \
    sh -c "nodes_out=\$(grep -c '0:r0=1;' '$tmp/s.dot'); test \"\$nodes_out\" -ge 1 && ! grep -q '0:r0=0;' '$tmp/s.dot'"

# ---- the neighbourhood of a counterexample (336 states > 300) -----------------
"$bin" graph --protocol "$mutant" "$mp" -o "$tmp/nb.dot" >"$tmp/nb.out" 2>&1
drawn=$(nodes "$tmp/nb.dot" | wc -l)
check "336 states: the summary says how many are drawn" grep -qE "drawn: $drawn of 336 states" "$tmp/nb.out"
check "336 states: fewer drawn ($drawn)" test "$drawn" -gt 0 -a "$drawn" -lt 336
steps=$("$bin" verify --protocol "$mutant" "$mp" 2>/dev/null | awk '/^Trace$/ {t++} t == 1 && /^  [0-9]+: / {n++} END {print n+0}')
red=$(nodes "$tmp/nb.dot" | grep -c 'color=red.*penwidth=3\|penwidth=3.*color=red')
check "336 states: the red path has verify's $steps states ($red)" test "$red" -eq "$steps"
# every drawn state is on the red path or one drawn transition from it
nodes "$tmp/nb.dot" | grep -E 'penwidth=3' | sed -E 's/^[[:space:]]*(s[0-9]+).*/\1/' | sort -u >"$tmp/path"
nodes "$tmp/nb.dot" | sed -E 's/^[[:space:]]*(s[0-9]+).*/\1/' | sort -u >"$tmp/all"
edges "$tmp/nb.dot" | sed -E 's/^[[:space:]]*(s[0-9]+) -> (s[0-9]+).*/\1 \2/' >"$tmp/pairs"
far=$(awk 'FNR == NR { p[$1] = 1; next } { if (($1 in p) || ($2 in p)) { near[$1]; near[$2] } } END { for (s in near) print s }' \
    "$tmp/path" "$tmp/pairs" | sort -u | comm -13 - "$tmp/all" | wc -l)
check "336 states: every drawn state is on the path or next to it ($far are not)" test "$far" -eq 0
check "336 states: states with neighbours left out are dashed" grep -q 'style=dashed' "$tmp/nb.dot"
"$bin" graph --full --protocol "$mutant" "$mp" -o "$tmp/full.dot" >"$tmp/full.out" 2>&1
check "--full: all 336 states" test "$(nodes "$tmp/full.dot" | wc -l)" -eq 336
check "--full: all 735 transitions" test "$(edges "$tmp/full.dot" | wc -l)" -eq 735
# A sound protocol over 300 states: the shortest complete run in blue.
"$bin" graph --protocol gpu_vi litmus/protocol/IRIW-acq-4.litmus -o "$tmp/iriw.dot" >"$tmp/iriw.out" 2>&1
rc=$?
check "sound, 3760 states: drawn (exit 0) as a neighbourhood" sh -c "test $rc -eq 0 && grep -q 'drawn: [0-9]* of 3760 states' '$tmp/iriw.out'"
check "sound, 3760 states: the run is blue" grep -q 'color=blue' "$tmp/iriw.dot"

# ---- message-sequence charts ----------------------------------------------
"$bin" verify --protocol "$mutant" "$mp" 2>/dev/null | awk '/^Trace$/ {t++; next} t == 1 && /^[A-Za-z]/ {exit} t == 1' >"$tmp/trace"
"$bin" graph --msc --protocol "$mutant" "$mp" -o "$tmp/msc.dot" >"$tmp/msc.out" 2>"$tmp/msc.err"
rc=$?
check "--msc: exit 0" test "$rc" -eq 0
nsteps=$(grep -cE '^  [0-9]+: ' "$tmp/trace"); nsteps=$((nsteps - 1))
# lifelines by hand: P0, P1, the two L1s, the one L2
check "--msc: summary names the unsound outcome" \
    grep -qxF "MSC MP-stale-seed protocol gpu_vi_no_acquire_inval: unsound outcome 1:r1=1; 1:r2=0; (model ptx6 forbids it)" "$tmp/msc.out"
check "--msc: summary counts $nsteps steps and 5 lifelines" grep -qE "^$nsteps steps, 5 lifelines, [0-9]+ arrows\$" "$tmp/msc.out"
mscstmts() { statements "$tmp/msc.dot" | grep -E '^[[:space:]]*n[0-9]+ -> n[0-9]+'; }
calls=$(grep -cE '^  [0-9]+: P[0-9]+ \(CU' "$tmp/trace")
recvs=$(grep -cE '^  [0-9]+: .*: recv ' "$tmp/trace")
reads=$(grep -oE 'P[0-9]+ r[0-9]+ = -?[0-9]+' "$tmp/trace" | wc -l)
check "--msc: one blue call per processor step ($calls)" test "$(mscstmts | grep -c 'color=blue3')" -eq "$calls"
check "--msc: one black message per receive ($recvs)" test "$(mscstmts | grep -c 'color=black')" -eq "$recvs"
check "--msc: one green return per value read ($reads)" test "$(mscstmts | grep -c 'color=darkgreen')" -eq "$reads"
check "--msc: nothing left in flight" sh -c "! grep -q 'in flight' '$tmp/msc.dot'"
for v in 'r0 = 0' 'r1 = 1' 'r2 = 0' 'ld.acquire.gpu r1, y' 'Store(y, 1)' '[x] I -> V'; do
    check "--msc: '$v' is written on the chart" grep -qF "label=\"$v\"" "$tmp/msc.dot"
done
# lifelines left to right: P0, L1 (CU 0), P1, L1 (CU 1), L2
order=$(statements "$tmp/msc.dot" | grep -E 'shape=box' | sed -E 's/.*label="?([^",]*)"?,.*pos="([0-9.]+),.*/\2 \1/' | sort -n | cut -d' ' -f2- | paste -sd'|')
check "--msc: lifelines ordered by place ($order)" test "$order" = "P0|L1 (CU 0)|P1|L1 (CU 1)|L2"
check "--msc: steps carry their row as a tooltip" grep -qE 'tooltip="step [0-9]+: .*\(row models/mutants/\.\./gpu_vi\.proto:[0-9]+\)' "$tmp/msc.dot"
for ext in svg png; do
    "$bin" graph --msc --protocol "$mutant" "$mp" -o "$tmp/msc.$ext" >/dev/null 2>&1
    check "--msc: .$ext written" test -s "$tmp/msc.$ext"
done
check "--msc: SVG tooltips" grep -q 'xlink:title="step ' "$tmp/msc.svg"

# A deadlock: the L2 never answers a Load (guard line.val > 1, values 0..1).
cat >"$tmp/picky.proto" <<EOP
protocol gpu_vi_picky_l2 extends "$PWD/models/gpu_vi.proto"
table L2
- V | recv req.Load
+ V | recv req.Load | line.val > 1 | send resp LoadResp(addr, line.val) | -
end
EOP
"$bin" graph --msc --protocol "$tmp/picky.proto" "$mp" -o "$tmp/dl.dot" >"$tmp/dl.out" 2>&1
statements "$tmp/dl.dot" >"$tmp/dl.stmts"
check "--msc, deadlock: the title says why it is stuck" \
    grep -q 'req\[1\]: Load(x) to L2 \[x\] in V: row .*picky.proto:4: line.val > 1 is false' "$tmp/dl.stmts"
check "--msc, deadlock: the unanswered request is in flight (red)" \
    sh -c "grep -qF 'label=\"Load(x) (in flight)\"' '$tmp/dl.dot' && grep -q 'red3' '$tmp/dl.dot'"
# No counterexample: the shortest complete run.
"$bin" graph --msc --protocol gpu_vi "$mp" -o "$tmp/ok.dot" >"$tmp/ok.out" 2>&1
check "--msc, sound: the shortest complete run" grep -q 'no counterexample; the shortest complete run' "$tmp/ok.out"
"$bin" graph --msc --tables --protocol gpu_vi -o "$tmp/x.html" >/dev/null 2>"$tmp/err"
rc=$?
check "--msc with --tables: exit 2" test "$rc" -eq 2
"$bin" graph --msc --full --protocol gpu_vi "$mp" -o "$tmp/x.svg" >/dev/null 2>"$tmp/err"
rc=$?
check "--msc with --full: exit 2, no file" sh -c "test $rc -eq 2 && test ! -e '$tmp/x.svg'"

# ---- tables as state x event matrices ----------------------------------------
"$bin" graph --protocol "$mutant" --tables -o "$tmp/t.html" >/dev/null 2>&1
# The L1 table of gpu_vi, as the file writes it: its distinct event patterns.
nev=$(awk '/^table L1/ {t=1; next} /^end/ {t=0} t && !/^[[:space:]]*(#|$)/ { split($0, c, "|"); gsub(/^[ \t]+|[ \t]+$/, "", c[2]); if (!(c[2] in s)) { s[c[2]]; n++ } } END { print n }' models/gpu_vi.proto)
awk '/L1 as a state &times; event matrix/ {m=1} m && /<\/table>/ {exit} m' "$tmp/t.html" >"$tmp/m1"
check "matrix: one column per event pattern of L1 ($nev) and a state column" \
    test "$(grep -o '<th><code>' "$tmp/m1" | wc -l)" -eq $((nev + 2))
check "matrix: one row per state (I, V)" sh -c "grep -q '<tr><th><code>I</code></th>' '$tmp/m1' && grep -q '<tr><th><code>V</code></th>' '$tmp/m1'"
# The mutant's own rows: V and I for load.acquire.gpu, one cell each.
check "matrix: the variant's two rows highlighted" test "$(grep -o 'class="rule changed"' "$tmp/t.html" | wc -l)" -eq 2
check "matrix: a highlighted cell names the variant's line" \
    grep -qF 'class="rule changed" title="models/mutants/gpu_vi_no_acquire_inval.proto:12"><code>send req[slice(addr)] Load(addr); loads += 1; wait' "$tmp/t.html"
check "matrix: a next state is shown" grep -qF 'invalidate; send req[slice(addr)] Load(addr); loads += 1; wait <b>&rarr; I</b>' "$tmp/t.html"
check "matrix: the row table highlights the variant's rows too" test "$(grep -c '<tr class="changed">' "$tmp/t.html")" -eq 2
if command -v xmllint >/dev/null 2>&1; then
    check "tables: well-formed HTML (xmllint reports nothing)" test -z "$(xmllint --html --noout "$tmp/t.html" 2>&1)"
fi
# A variant that replaces the base's final and an invariant: only its own are shown.
cat >"$tmp/v.proto" <<EOP
protocol v extends "$PWD/models/gpu_vi.proto"
controller L1 per cu processor
final acks == 0 && loads == 0
invariant invalid_line_holds_zero L1 : state == V || line.val == 0 || line.pend > 0
EOP
"$bin" graph --protocol "$tmp/v.proto" --tables -o "$tmp/v.html" >/dev/null 2>&1
check "replaced final: the base's left out" sh -c "! grep -qx 'final acks == 0' '$tmp/v.html'"
check "replaced final: the variant's shown" grep -qF 'final acks == 0 &amp;&amp; loads == 0' "$tmp/v.html"
check "replaced invariant: only the variant's" test "$(grep -c 'invariant invalid_line_holds_zero' "$tmp/v.html")" -eq 1
check "replaced invariant: it is the variant's text" grep -qF 'line.pend &gt; 0' "$tmp/v.html"
exit 0
