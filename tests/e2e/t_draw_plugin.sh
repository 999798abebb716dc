#!/usr/bin/env bash
# t_draw_plugin.sh BIN: the drawings live in a plugin (draw/plugin.h).  The
# program links no graphviz library; the drawing commands (`graph`,
# `litmus -show`) open scopecheck-draw.so beside the program and draw with
# it; a copy of the program without the plugin, or with a broken one,
# refuses to draw with a clear error and exit status 2 (and writes no
# file), while every other command, `graph --tables` included, works as
# before.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$PWD
mp=litmus/protocol/MP-stale-seed.litmus
corr=litmus/c11/CoRR.litmus
plugin=$(dirname "$bin")/scopecheck-draw.so

# ---- the program and the plugin --------------------------------------------------
if command -v ldd >/dev/null; then
    ldd "$bin" >"$tmp/ldd" 2>&1
    check "ldd: the program links no graphviz library (libgvc, libcgraph, libcdt, libpathplan)" \
        bash -c "! grep -qE 'lib(gvc|cgraph|cdt|pathplan)\\.so' '$tmp/ldd'"
    check "ldd: the plugin beside the program links libgvc" bash -c "ldd '$plugin' | grep -q 'libgvc\\.so'"
fi
check "the plugin exports its table (scopecheck_draw_plugin)" \
    bash -c "nm -D --defined-only '$plugin' | grep -qw scopecheck_draw_plugin"

# ---- with the plugin: the drawings ------------------------------------------------
"$bin" graph --protocol models/gpu_vi.proto "$mp" -o "$tmp/g.dot" >"$tmp/out" 2>"$tmp/err"
check "graph: draws through the plugin (exit 0, a digraph)" \
    bash -c "[ $? -eq 0 ] && grep -q '^digraph' '$tmp/g.dot'"
"$bin" graph --protocol gpu_vi --msc "$mp" -o "$tmp/m.svg" >"$tmp/out" 2>"$tmp/err"
check "graph --msc: draws through the plugin (exit 0, an SVG)" bash -c "[ $? -eq 0 ] && grep -q '<svg' '$tmp/m.svg'"
mkdir -p "$tmp/show"
"$bin" litmus --model sc -show all -o "$tmp/show" "$corr" >"$tmp/out" 2>"$tmp/err"
# CoRR under sc: the second read may not go back to the initial value
# after the first saw 1, so 3 of the 4 reads-from choices are consistent
check "litmus -show all: the executions drawn through the plugin (CoRR: 3, DOT and SVG)" \
    bash -c "[ $? -eq 0 ] && [ -s '$tmp/show/CoRR.dot' ] && [ \$(ls '$tmp/show' | grep -c 'CoRR-[0-9]*\\.svg') -eq 3 ]"

# ---- without the plugin ---------------------------------------------------------------
# A copy of the program alone in a folder: nothing beside it, no
# ../lib/scopecheck/; models and protocols given by their paths.
mkdir -p "$tmp/alone/bin"
cp "$bin" "$tmp/alone/bin/scopecheck"
alone=$tmp/alone/bin/scopecheck
"$bin" litmus --model "$root/models/sc.cat" "$corr" >"$tmp/want" 2>&1
"$alone" litmus --model "$root/models/sc.cat" "$corr" >"$tmp/got" 2>&1
check "no plugin: litmus runs, its output unchanged (exit 0)" \
    bash -c "[ $? -eq 0 ] && grep -v '^Time ' '$tmp/want' >'$tmp/w' && grep -v '^Time ' '$tmp/got' >'$tmp/g' && cmp -s '$tmp/w' '$tmp/g'"
"$alone" verify --protocol models/gpu_vi.proto "$mp" >"$tmp/out" 2>"$tmp/err"
check "no plugin: verify runs (Result Pass)" grep -q '^Result Pass' "$tmp/out"
"$alone" graph --protocol models/gpu_vi.proto --tables -o "$tmp/t.html" >"$tmp/out" 2>"$tmp/err"
check "no plugin: graph --tables (no graphviz) still writes its page" test $? -eq 0 -a -s "$tmp/t.html"
"$alone" graph --protocol models/gpu_vi.proto "$mp" -o "$tmp/none.svg" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "no plugin: graph exits 2" test "$rc" -eq 2
check "no plugin: graph says it cannot draw, names the plugin and where it looked" \
    grep -q "^scopecheck graph: error: cannot draw: the drawing plugin scopecheck-draw.so is not installed (looked in $tmp/alone/bin/scopecheck-draw.so, $tmp/alone/bin/../lib/scopecheck/scopecheck-draw.so)" "$tmp/err"
check "no plugin: graph writes no file" test ! -e "$tmp/none.svg"
"$alone" graph --protocol models/gpu_vi.proto --msc "$mp" -o "$tmp/none.svg" >"$tmp/out" 2>"$tmp/err"
check "no plugin: graph --msc exits 2 with the same error" \
    bash -c "[ $? -eq 2 ] && grep -q 'scopecheck graph: error: cannot draw' '$tmp/err' && [ ! -e '$tmp/none.svg' ]"
mkdir -p "$tmp/noshow"
"$alone" litmus --model "$root/models/sc.cat" -show all -o "$tmp/noshow" "$corr" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "no plugin: litmus -show exits 2 before checking anything (no Test block, no file)" \
    bash -c "[ $rc -eq 2 ] && ! grep -q '^Test' '$tmp/out' && [ -z \"\$(ls '$tmp/noshow')\" ]"
check "no plugin: litmus -show says it cannot draw" \
    grep -q '^scopecheck litmus: error: cannot draw: the drawing plugin scopecheck-draw.so is not installed' "$tmp/err"

# ---- a plugin that cannot be loaded, or from another build ------------------------------
echo 'not a shared object' >"$tmp/alone/bin/scopecheck-draw.so"
"$alone" graph --protocol models/gpu_vi.proto "$mp" -o "$tmp/none.svg" >"$tmp/out" 2>"$tmp/err"
check "a broken plugin: graph exits 2, with the loader's reason" \
    bash -c "[ $? -eq 2 ] && grep -q '^scopecheck graph: error: cannot draw: cannot load the drawing plugin: .*scopecheck-draw.so' '$tmp/err'"
rm -f "$tmp/alone/bin/scopecheck-draw.so"
# the installed place, PREFIX/lib/scopecheck, is looked in too
mkdir -p "$tmp/alone/lib/scopecheck"
cp "$plugin" "$tmp/alone/lib/scopecheck/"
"$alone" graph --protocol models/gpu_vi.proto "$mp" -o "$tmp/lib.dot" >"$tmp/out" 2>"$tmp/err"
check "the plugin in ../lib/scopecheck/ is found (exit 0, the same graph)" \
    bash -c "[ $? -eq 0 ] && cmp -s '$tmp/lib.dot' '$tmp/g.dot'"
# A shared object without the table: a program's plugin from elsewhere
lib=$(ldd "$plugin" 2>/dev/null | awk '/libcdt/ { print $3 }')
if [ -n "$lib" ] && [ -r "$lib" ]; then
    cp "$lib" "$tmp/alone/lib/scopecheck/scopecheck-draw.so"
    "$alone" graph --protocol models/gpu_vi.proto "$mp" -o "$tmp/none.svg" >"$tmp/out" 2>"$tmp/err"
    check "a shared object without the table: exit 2, 'not the drawing plugin of this build'" \
        bash -c "[ $? -eq 2 ] && grep -q 'cannot draw: .*scopecheck-draw.so is not the drawing plugin of this build' '$tmp/err'"
fi
