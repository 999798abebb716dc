#!/usr/bin/env bash
# End-to-end checks of the hierarchy in protocol tables, on
# models/gpu_vi_multi.proto (L1 per CU, L2 per GPU, memory homed per GPU):
# it is sound on our litmus suites and on the corpus's .sys tests, its
# mutant is caught, and traces name GPUs and the home a request went to.
# $1: the scopecheck binary.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
multi=models/gpu_vi_multi.proto

for f in litmus/ptx/*.litmus; do
    check "multi-GPU VI sound on $(basename "$f")" "$bin" verify --protocol "$multi" --const MAXV=3 "$f"
done
# The two largest single-GPU Rumur configurations take minutes with the L2 level.
for f in litmus/protocol/*.litmus; do
    case $f in *IRIW-plus-4* | *IRIW-acq-6*) continue ;; esac
    check "multi-GPU VI sound on $(basename "$f")" "$bin" verify --protocol "$multi" "$f"
done
corpus=../shared/corpus/ptx
if [ -d "$corpus" ]; then
    for f in $(grep -rl '\.sys' "$corpus" --include='*.litmus' | sort); do
        check "multi-GPU VI sound on corpus $(basename "$f")" "$bin" verify --protocol "$multi" --const MAXV=7 "$f"
    done
fi

# Exact state counts: a regression guard for the level, home and routing code.
count_is() { # FILE STATES
    "$bin" verify --protocol "$multi" --json "$1" >"$tmp/c.json" &&
        jq -e --argjson s "$2" '.stats.states == $s and .sound and .complete' "$tmp/c.json" >/dev/null
}
check "MP-sys-2gpu: 4057 states, sound" count_is litmus/protocol/MP-sys-2gpu.litmus 4057
check "MP-sys-fence-2gpu: 1318 states, sound" count_is litmus/protocol/MP-sys-fence-2gpu.litmus 1318

# .gpu scope across GPUs is not morally strong: ptx6 allows the stale read
# and this protocol produces it (sound, nothing unobserved).
"$bin" verify --protocol "$multi" --json litmus/protocol/MP-gpu-2gpu.litmus >"$tmp/g.json"
check "MP-gpu-2gpu: the stale read is produced and allowed" \
    jq -e '.sound and any(.protocol_outcomes[]; .["P1:r1"] == 1 and .["P1:r2"] == 0)' "$tmp/g.json"

# The mutant that leaves the L2 alone at a .sys acquire or fence is caught.
for t in MP-sys-2gpu MP-sys-fence-2gpu; do
    "$bin" verify --protocol models/mutants/gpu_vi_multi_no_l2_inval.proto "litmus/protocol/$t.litmus" >"$tmp/m.out" 2>&1
    rc=$?
    check "mutant no_l2_inval caught by $t (exit 1)" test "$rc" -eq 1
    check "mutant no_l2_inval: unsound outcome with a trace ($t)" grep -q '^Violation unsound outcome: 1:r1=1; 1:r2=0;' "$tmp/m.out"
done
check "trace names the GPU's L2 and the home's inbox" grep -qE '\(GPU 1\) L2\[x\] in V: recv req\[1\]\.Load\(x\)|mreq\[0\] MemLoad\(x' "$tmp/m.out"

# The baseline with one L2 refuses .sys instructions with a located message.
"$bin" verify --protocol gpu_vi litmus/protocol/MP-sys-2gpu.litmus >"$tmp/o" 2>"$tmp/e"
rc=$?
check "gpu_vi refuses .sys (exit 2)" test "$rc" -eq 2
check "gpu_vi refusal is located" grep -qE 'MP-sys-2gpu.litmus:[0-9]+:[0-9]+: error: .*load.acquire.sys|MP-sys-2gpu.litmus:[0-9]+:[0-9]+: error: .*store.release.sys' "$tmp/e"
