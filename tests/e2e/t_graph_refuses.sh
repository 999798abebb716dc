#!/usr/bin/env bash
# graph, graph --msc and export refuse what verify refuses (protocol/
# runnable.h): a C test with memory_order_consume, which the protocol
# interpreter cannot run (its order names do not cover consume; graph used
# to draw `load.(null)`).  Each gives verify's file:line:col error, exit 2,
# and writes nothing.  $1: the scopecheck binary.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The consume load is on line 9, column 3 (its first character).
cat >"$tmp/consume.litmus" <<'LITMUS'
C consume-refused
"memory_order_consume: refused by every command that runs a protocol"
{ x = 0; y = 0; }
P0 (atomic_int* x, atomic_int* y) {
  atomic_store_explicit(x, 1, memory_order_relaxed);
  atomic_store_explicit(y, 1, memory_order_release);
}
P1 (atomic_int* x, atomic_int* y) {
  int r0 = atomic_load_explicit(y, memory_order_consume);
  int r1 = atomic_load_explicit(x, memory_order_relaxed);
}
exists (1:r0 = 1 /\ 1:r1 = 0)
LITMUS
want="^$tmp/consume.litmus:9:3: error: verify does not run C read-modify-writes or memory_order_consume yet"

"$bin" verify --protocol sc_memory "$tmp/consume.litmus" >"$tmp/v.out" 2>"$tmp/v.err"
check "verify refuses the consume test: exit 2" test $? -eq 2
check "verify: file:line:col error" grep -q "$want" "$tmp/v.err"

"$bin" graph --protocol sc_memory "$tmp/consume.litmus" -o "$tmp/g.dot" >"$tmp/g.out" 2>"$tmp/g.err"
check "graph refuses the consume test: exit 2" test $? -eq 2
check "graph: verify's file:line:col error" grep -q "$want" "$tmp/g.err"
check "graph: nothing drawn" test ! -e "$tmp/g.dot"

"$bin" graph --msc --protocol sc_memory "$tmp/consume.litmus" -o "$tmp/m.dot" >"$tmp/m.out" 2>"$tmp/m.err"
check "graph --msc refuses the consume test: exit 2" test $? -eq 2
check "graph --msc: verify's file:line:col error" grep -q "$want" "$tmp/m.err"
check "graph --msc: nothing drawn" test ! -e "$tmp/m.dot"

"$bin" export --protocol sc_memory "$tmp/consume.litmus" -o "$tmp/t.json" >"$tmp/e.out" 2>"$tmp/e.err"
check "export refuses the consume test: exit 2" test $? -eq 2
check "export: verify's file:line:col error" grep -q "$want" "$tmp/e.err"
check "export: nothing written" test ! -e "$tmp/t.json"

# export DIR checks what verify DIR checks: every *.litmus below it.
mkdir -p "$tmp/dir/sub"
cp litmus/protocol/MP-stale-seed.litmus "$tmp/dir/sub/"
"$bin" export --protocol gpu_vi "$tmp/dir" -o "$tmp/d.json" >"$tmp/d.out" 2>"$tmp/d.err"
check "export DIR: recurses as verify DIR does (the test in a subfolder is checked)" \
    grep -q "^Checked MP-stale-seed: pass" "$tmp/d.out"
