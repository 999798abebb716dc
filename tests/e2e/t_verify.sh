#!/usr/bin/env bash
# End-to-end checks of `scopecheck verify`: the GPU VI baseline reproduces
# the reference state counts and is sound on our litmus suite; each mutant in
# models/mutants/ is caught by its litmus test, with exit status 1 and a
# trace; bad input and limits behave.  $1: the scopecheck binary.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The rows of litmus/protocol/verify.tsv: the reference state counts of the
# baseline, each gpu_vi mutant caught by its test, the unordered baseline.
verify_table litmus/protocol/verify.tsv
# The runner fails a row that disagrees (here a state count off by one).
cp litmus/protocol/MP-stale-seed.litmus "$tmp/"
printf '#: columns file protocol options expected states transitions\nMP-stale-seed\tgpu_vi\t-\tPass\t269\t541\n' >"$tmp/verify.tsv"
check "verify_suite.sh fails a row whose state count is wrong" sh -c \
    "SCOPECHECK='$bin' bash scripts/verify_suite.sh '$tmp/verify.tsv' | grep -q '^FAIL: .*268 states, want 269' &&
     ! SCOPECHECK='$bin' bash scripts/verify_suite.sh '$tmp/verify.tsv' >/dev/null"

# The baseline is sound on every test of our suite (values up to 3), barriers included.
for f in litmus/ptx/*.litmus; do
    check "baseline sound on $(basename "$f")" "$bin" verify --protocol gpu_vi --const MAXV=3 "$f"
done
for f in litmus/protocol/*.litmus; do
    grep -q '\.sys' "$f" && continue    # one GPU, one L2: gpu_vi refuses .sys (t_verify_multi.sh)
    check "baseline sound on $(basename "$f")" "$bin" verify --protocol gpu_vi "$f"
done

# A caught mutant in text: the violation, its trace, Result Fail, exit 1.
"$bin" verify --protocol models/mutants/gpu_vi_no_acquire_inval.proto litmus/protocol/MP-stale-seed.litmus >"$tmp/m.out" 2>&1
rc=$?
check "text output of a caught mutant: exit 1, Violation unsound outcome, Trace, Result Fail" sh -c "test $rc -eq 1 &&
    grep -q '^Violation unsound outcome' '$tmp/m.out' && grep -q '^Trace' '$tmp/m.out' && grep -q '^Result Fail' '$tmp/m.out'"

# Every mutant names the test that catches it (the gpu_vi ones are rows of verify.tsv).
for m in models/mutants/*.proto; do
    n=$(basename "$m" .proto)
    check "mutant $n names the test that catches it" grep -qE 'litmus/[a-z-]+/[A-Za-z0-9_+-]+\.litmus' "$m"
done

# JSON: the keys of the issue, and a trace for the violation.
"$bin" verify --json --protocol models/mutants/gpu_vi_no_acquire_inval.proto litmus/protocol/MP-stale-seed.litmus >"$tmp/v.json"
check "JSON: keys test, protocol, model, sound, outcomes, deadlocks, violations" \
    jq -e 'has("test") and has("protocol") and has("model") and (.sound == false) and (.protocol_outcomes|type)=="array" and (.model_outcomes|type)=="array" and (.deadlocks|type)=="array" and (.violations|length) > 0' "$tmp/v.json"
check "JSON: the violation has a step-by-step trace" jq -e '.violations[0].kind == "unsound" and (.violations[0].trace | length) > 3' "$tmp/v.json"

# Limits stop the search gracefully, with partial statistics.
"$bin" verify --protocol gpu_vi --max-states 1000 --json litmus/protocol/IRIW-plus-4.litmus >"$tmp/l.json"
check "--max-states stops the search and says so" jq -e '.complete == false and .stats.stop == "max-states" and .stats.states <= 1000' "$tmp/l.json"
"$bin" verify --protocol gpu_vi --max-states 1000 litmus/protocol/IRIW-plus-4.litmus >"$tmp/l.out"
check "text output says the search was incomplete" grep -q '^Result Incomplete' "$tmp/l.out"

# Bad input: exit 2, a located message, nothing on stdout.
printf 'protocol broken\ntable L9\n' >"$tmp/bad.proto"
"$bin" verify --protocol "$tmp/bad.proto" litmus/protocol/MP-stale-seed.litmus >"$tmp/o" 2>"$tmp/e"
rc=$?
check "bad protocol file: exit 2" test "$rc" -eq 2
check "bad protocol file: file:line:col error" grep -qE "^$tmp/bad.proto:[0-9]+:[0-9]+: error: " "$tmp/e"
check "bad protocol file: nothing on stdout" test ! -s "$tmp/o"
# A surface (proxy) store: no protocol table runs proxies.
printf 'PTX Surf\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n sust.weak x, 1 ;\nexists (x == 1)\n' >"$tmp/surf.litmus"
"$bin" verify --protocol gpu_vi "$tmp/surf.litmus" >"$tmp/o" 2>"$tmp/e"
check "unsupported instruction: exit 2 with its position" sh -c "[ $? -eq 2 ] && grep -qE '^$tmp/surf.litmus:6:2: error: ' '$tmp/e'"
check "no --protocol: exit 2" sh -c "'$bin' verify litmus/protocol/MP-stale-seed.litmus; [ \$? -eq 2 ]"
check "unknown protocol name: exit 2" sh -c "'$bin' verify --protocol nosuch litmus/protocol/MP-stale-seed.litmus; [ \$? -eq 2 ]"
check "bad --max-states: exit 2" sh -c "'$bin' verify --protocol gpu_vi --max-states x litmus/protocol/MP-stale-seed.litmus; [ \$? -eq 2 ]"

# The L2 in two slices: the baseline stays sound; without holding misses
# back during an acquire it is not (the bug one ordered L2 channel hides; a
# row of verify.tsv).  These checks sat after an early `exit 0` from
# 4342e7c until issue 21 and never ran; they pass.
for f in litmus/ptx/*.litmus litmus/protocol/*.litmus; do
    grep -q '\.sys' "$f" && continue
    case $f in *IRIW-plus-4* | *IRIW-acq-6*) continue ;; esac
    check "baseline with NSLICE=2 sound on $(basename "$f")" "$bin" verify --protocol gpu_vi --const NSLICE=2 --const MAXV=3 "$f"
done
"$bin" verify --protocol models/mutants/gpu_vi_miss_during_acquire.proto litmus/protocol/MP-shared-cu-fill.litmus >"$tmp/s.out" 2>&1
check "trace names the slices" grep -qE '^  [0-9]+: \(slice 0\) L2\[x\] in V: recv req\[0->0\]\.Load\(x\)' "$tmp/s.out"
for t in MP-stale-seed IRIW-acq-4; do
    "$bin" verify --protocol gpu_vi --json "litmus/protocol/$t.litmus" >"$tmp/a.json"
    "$bin" verify --protocol gpu_vi --const NSLICE=2 --json "litmus/protocol/$t.litmus" >"$tmp/b.json"
    check "$t: two slices, the same outcomes" jq -e --slurpfile a "$tmp/a.json" '.protocol_outcomes == $a[0].protocol_outcomes and .sound' "$tmp/b.json"
done

# verify -I DIR as litmus -I: a model named by name is also looked for in
# DIR, and a model's includes are found there.  mine.cat is ptx6 through an
# include (the same model, so gpu_vi passes MP-stale-seed as under ptx6:
# t_export.sh exports it).
mkdir -p "$tmp/lib" "$tmp/top"
cp models/ptx6.cat "$tmp/lib/base6.cat"
printf '"mine"\ninclude "base6.cat"\n' >"$tmp/top/mine.cat"
"$bin" verify --protocol gpu_vi -I "$tmp/lib" --model "$tmp/top/mine.cat" litmus/protocol/MP-stale-seed.litmus >"$tmp/out" 2>"$tmp/err"
check "verify -I DIR: a model's include found in DIR (Result Pass)" grep -q '^Result Pass' "$tmp/out"
"$bin" verify --protocol gpu_vi -I "$tmp/lib" --model base6 litmus/protocol/MP-stale-seed.litmus >"$tmp/out" 2>"$tmp/err"
check "verify -I DIR --model NAME: NAME.cat found in DIR (Result Pass)" grep -q '^Result Pass' "$tmp/out"
"$bin" verify --protocol gpu_vi -set-libdir "$tmp/lib" --model base6 litmus/protocol/MP-stale-seed.litmus >"$tmp/out" 2>"$tmp/err"
check "verify -set-libdir DIR: herd's spelling of -I" grep -q '^Result Pass' "$tmp/out"
"$bin" verify --protocol gpu_vi --model base6 litmus/protocol/MP-stale-seed.litmus >"$tmp/out" 2>"$tmp/err"
check "verify --model NAME without -I: no such model (exit 2)" test $? -eq 2
exit 0
