#!/usr/bin/env bash
# t_model_cache.sh BIN: compiled models kept between processes (cat/cache.h,
# SCOPECHECK_CACHE).  Results with the cache cold, warm and off are
# identical; a changed include is seen at once; the default place is
# XDG's; an unwritable place or `off` means no cache and no message.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$PWD
herd=$root/../shared/bench/herd7/lib/herd
sb=litmus/ptx/SB-weak.litmus
unset XDG_CACHE_HOME

# run NAME CACHE ARGS...: stdout less the timing lines into $tmp/NAME, and
# stderr into $tmp/NAME.err; the exit status is kept in $tmp/NAME.rc
run() {
    local name=$1 cache=$2; shift 2
    SCOPECHECK_CACHE=$cache "$bin" "$@" >"$tmp/$name.raw" 2>"$tmp/$name.err"
    echo $? >"$tmp/$name.rc"
    grep -v '^Time ' "$tmp/$name.raw" | sed 's/"time_us":[0-9]*//; s/"time_s":[0-9.e+-]*//' >"$tmp/$name"
}
same() { cmp -s "$tmp/$1" "$tmp/$2" && cmp -s "$tmp/$1.rc" "$tmp/$2.rc"; }

# ---- the same results, cold, warm and off -------------------------------------------
if [ -d "$herd" ]; then
    # herd7's default model for C (c11_partialSC.cat, with c11_base.cat and
    # stdlib.cat), one process per test as scripts run it
    for f in litmus/c11/*.litmus; do
        n=$(basename "$f" .litmus)
        run "off-$n" off litmus -I "$herd" "$f"
        run "cold-$n" "$tmp/c11" litmus -I "$herd" "$f"
        run "warm-$n" "$tmp/c11" litmus -I "$herd" "$f"
        same "off-$n" "cold-$n" && same "off-$n" "warm-$n" || echo "$n" >>"$tmp/c11-differ"
    done
    check "litmus/c11, one process a test: cold, warm and no cache give the same output and status" \
        test ! -e "$tmp/c11-differ"
    check "litmus/c11: one entry for the one model and its options" test "$(ls "$tmp/c11" | wc -l)" -eq 1
else
    echo "PASS: herd7's library absent (../shared/bench/herd7): the C11 comparison skipped"
fi
for m in ptx6 sc; do
    run "off-$m" off litmus --json --model $m litmus/ptx
    run "cold-$m" "$tmp/ptx" litmus --json --model $m litmus/ptx
    run "warm-$m" "$tmp/ptx" litmus --json --model $m litmus/ptx
    check "litmus --model $m litmus/ptx: cold, warm and no cache give the same JSON lines" \
        bash -c "same() { cmp -s '$tmp/'\$1 '$tmp/'\$2 && cmp -s '$tmp/'\$1.rc '$tmp/'\$2.rc; }; same off-$m cold-$m && same off-$m warm-$m"
done
run off-verify off verify --protocol gpu_vi --model ptx6 litmus/protocol/MP-stale-seed.litmus
run warm-verify "$tmp/ptx" verify --protocol gpu_vi --model ptx6 litmus/protocol/MP-stale-seed.litmus
# (less the lines of time and memory)
check "verify --model ptx6: the same report from the cache (Result Pass)" \
    bash -c "cmp -s <(grep -vE '^(seconds|states/s|bytes/state|store MiB|peak RSS)' '$tmp/off-verify') \
                    <(grep -vE '^(seconds|states/s|bytes/state|store MiB|peak RSS)' '$tmp/warm-verify') &&
             grep -q '^Result Pass' '$tmp/warm-verify'"

# ---- a change to an include is seen ----------------------------------------------------
# m.cat includes inc.cat: first sequential consistency (SB-weak's relaxed
# outcome forbidden: No, as litmus/ptx/expected.tsv says for sc), then a
# model with no check at all (every outcome allowed: Ok).
mkdir -p "$tmp/model"
printf '"M"\noption co = total\ninclude "inc.cat"\n' >"$tmp/model/m.cat"
echo 'acyclic (po | rf | co | fr) as SC' >"$tmp/model/inc.cat"
run sc1 "$tmp/mc" litmus --model "$tmp/model/m.cat" $sb
run sc2 "$tmp/mc" litmus --model "$tmp/model/m.cat" $sb
check "an include's model: No, then No from the cache" \
    bash -c "grep -qx No '$tmp/sc1' && cmp -s '$tmp/sc1' '$tmp/sc2'"
echo 'let nothing = po' >"$tmp/model/inc.cat"
run none1 "$tmp/mc" litmus --model "$tmp/model/m.cat" $sb
check "the include changed: the model is compiled again (Ok), not taken from the cache" \
    grep -qx Ok "$tmp/none1"
check "the include changed: still one entry, replaced" test "$(ls "$tmp/mc" | wc -l)" -eq 1
# a file of the same name earlier in the search path: herd's -I
mkdir -p "$tmp/model/lib" "$tmp/first"
mv "$tmp/model/inc.cat" "$tmp/model/lib/inc.cat"
run lib1 "$tmp/mc" litmus -I "$tmp/first" -I "$tmp/model/lib" --model "$tmp/model/m.cat" $sb
echo 'acyclic (po | rf | co | fr) as SC' >"$tmp/first/inc.cat"
run lib2 "$tmp/mc" litmus -I "$tmp/first" -I "$tmp/model/lib" --model "$tmp/model/m.cat" $sb
check "an include found earlier in the search path: the new file is read (Ok, then No)" \
    bash -c "grep -qx Ok '$tmp/lib1' && grep -qx No '$tmp/lib2'"

# ---- where the cache lives, and when there is none --------------------------------------
mkdir -p "$tmp/home"
HOME=$tmp/home env -u SCOPECHECK_CACHE "$bin" litmus --model sc $sb >/dev/null 2>&1
check "default: \$HOME/.cache/scopecheck holds an entry" bash -c "ls '$tmp/home/.cache/scopecheck/'model-*.bin"
XDG_CACHE_HOME=$tmp/xdg env -u SCOPECHECK_CACHE "$bin" litmus --model sc $sb >/dev/null 2>&1
check "XDG_CACHE_HOME/scopecheck when it is set" bash -c "ls '$tmp/xdg/scopecheck/'model-*.bin"
HOME=$tmp/home2 SCOPECHECK_CACHE=off "$bin" litmus --model sc $sb >/dev/null 2>&1
check "SCOPECHECK_CACHE=off: nothing written" test ! -e "$tmp/home2"
echo 'a file' >"$tmp/afile"
run off-sb off litmus --model sc $sb
run unwritable "$tmp/afile/cache" litmus --model sc $sb
check "an unwritable cache: the same result, exit 0, nothing on stderr" \
    bash -c "cmp -s '$tmp/off-sb' '$tmp/unwritable' && [ \$(cat '$tmp/unwritable.rc') -eq 0 ] && [ ! -s '$tmp/unwritable.err' ]"
# a damaged entry is compiled again and replaced
run d1 "$tmp/dmg" litmus --model sc $sb
for e in "$tmp"/dmg/model-*.bin; do printf 'garbage' | dd of="$e" bs=1 seek=40 conv=notrunc 2>/dev/null; done
run d2 "$tmp/dmg" litmus --model sc $sb
check "a damaged entry: the same result, exit 0, nothing on stderr" \
    bash -c "cmp -s '$tmp/d1' '$tmp/d2' && [ \$(cat '$tmp/d2.rc') -eq 0 ] && [ ! -s '$tmp/d2.err' ]"
