#!/usr/bin/env bash
# End-to-end checks of the hierarchy in protocol tables, on the two
# multi-GPU models: models/gpu_vi_multi.proto (L1 per CU, L2 per GPU
# self-invalidated at .sys acquires, memory homed per GPU) and
# models/hmg_lite.proto (HMG's sharer directory at the homes, multicast
# invalidations without acks, point-to-point channels, release flush).
# Both are sound on our litmus suites and on the corpus's .sys tests; their
# mutants are caught; traces name GPUs, homes and channel pairs.  Also the
# fall-through warning.  $1: the scopecheck binary.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
corpus=../shared/corpus/ptx

for multi in models/gpu_vi_multi.proto models/gpu_vi_multi_p2p.proto models/hmg_lite.proto; do
    n=$(basename "$multi" .proto)
    for f in litmus/ptx/*.litmus; do
        check "$n sound on $(basename "$f")" "$bin" verify --protocol "$multi" --const MAXV=3 "$f"
    done
    # The two largest single-GPU Rumur configurations take minutes with the L2 level.
    for f in litmus/protocol/*.litmus; do
        case $f in *IRIW-plus-4* | *IRIW-acq-6*) continue ;; esac
        check "$n sound on $(basename "$f")" "$bin" verify --protocol "$multi" "$f"
    done
    if [ -d "$corpus" ]; then
        for f in $(grep -rl '\.sys' "$corpus" --include='*.litmus' | sort); do
            check "$n sound on corpus $(basename "$f")" "$bin" verify --protocol "$multi" --const MAXV=7 "$f"
        done
    fi
done

# Exact state counts: a regression guard for the level, home, pair-channel
# and multicast code.
count_is() { # MODEL FILE STATES
    "$bin" verify --protocol "$1" --json "$2" >"$tmp/c.json" &&
        jq -e --argjson s "$3" '.stats.states == $s and .sound and .complete' "$tmp/c.json" >/dev/null
}
check "gpu_vi_multi MP-sys-2gpu: 1529 states, sound" count_is models/gpu_vi_multi.proto litmus/protocol/MP-sys-2gpu.litmus 1529
check "gpu_vi_multi MP-sys-fence-2gpu: 1318 states, sound" count_is models/gpu_vi_multi.proto litmus/protocol/MP-sys-fence-2gpu.litmus 1318
check "hmg_lite MP-sys-2gpu: 11861 states, sound" count_is models/hmg_lite.proto litmus/protocol/MP-sys-2gpu.litmus 11861
check "hmg_lite MP-sys-fence-2gpu: 144681 states, sound" count_is models/hmg_lite.proto litmus/protocol/MP-sys-fence-2gpu.litmus 144681

# .gpu scope across GPUs is not morally strong: ptx6 allows the stale read,
# and gpu_vi_multi (whose .gpu acquire leaves the L2 alone) produces it.
"$bin" verify --protocol models/gpu_vi_multi.proto --json litmus/protocol/MP-gpu-2gpu.litmus >"$tmp/g.json"
check "MP-gpu-2gpu: the stale read is produced and allowed" \
    jq -e '.sound and any(.protocol_outcomes[]; .["P1:r1"] == 1 and .["P1:r2"] == 0)' "$tmp/g.json"

# Each mutant is caught by both multi-GPU MP tests: exit 1, the stale read.
caught() { # MUTANT TEST
    "$bin" verify --protocol "models/mutants/$1.proto" "litmus/protocol/$2.litmus" >"$tmp/m.out" 2>&1
    [ $? -eq 1 ] && grep -q '^Violation unsound outcome: 1:r1=1; 1:r2=0;' "$tmp/m.out" && grep -q '^Trace' "$tmp/m.out"
}
for m in gpu_vi_multi_no_l2_inval hmg_lite_no_flush hmg_lite_split_inv; do
    for t in MP-sys-2gpu MP-sys-fence-2gpu; do
        check "mutant $m caught by $t" caught "$m" "$t"
    done
done
caught hmg_lite_split_inv MP-sys-2gpu
check "trace names channel pairs and GPUs" grep -qE 'recv hinv\[0->1\]\.Inv\(x\)' "$tmp/m.out"
check "trace shows a multicast to the sharers" grep -qE 'Home\[x\] in V: recv hreq\[[01]->0\]\.HStore\(x, 1, 0, 0\) -> val := 1; sharers\[0\] := 0; send hinv\[0->1\] Inv\(x\)' "$tmp/m.out"

# The baseline with one L2 refuses .sys instructions with a located message.
"$bin" verify --protocol gpu_vi litmus/protocol/MP-sys-2gpu.litmus >"$tmp/o" 2>"$tmp/e"
rc=$?
check "gpu_vi refuses .sys (exit 2)" test "$rc" -eq 2
check "gpu_vi refusal is located" grep -qE 'MP-sys-2gpu.litmus:[0-9]+:[0-9]+: error: .*\.sys' "$tmp/e"

# A guarded row followed by a wider pattern draws a warning (the release
# would not wait); our models draw none.
cat >"$tmp/fall.proto" <<'PROTO'
protocol fall extends "PLACEHOLDER"
table L1
+ V | store.* | | done | -
end
PROTO
sed -i "s|PLACEHOLDER|$(pwd)/models/gpu_vi.proto|" "$tmp/fall.proto"
"$bin" verify --protocol "$tmp/fall.proto" litmus/protocol/MP-stale-seed.litmus >/dev/null 2>"$tmp/w"
check "fall-through warning names the guarded row and the wider one" \
    grep -qE 'models/gpu_vi.proto:[0-9]+:3: warning: when this row.s guard is false, its events are taken by the row at .*fall.proto:3' "$tmp/w"
for f in models/*.proto models/mutants/*.proto; do
    "$bin" verify --protocol "$f" litmus/protocol/MP-stale-seed.litmus >/dev/null 2>"$tmp/w"
    # gsync and sync_events have no plain loads and stores (the test is
    # refused with an error); the fall-through check runs at load either way.
    check "no warning for $(basename "$f")" bash -c "! grep -q 'warning:' '$tmp/w'"
done

# A variant's tables render the combined protocol: inherited rows marked
# with their file, the variant's own rows without the '+'.
"$bin" graph --protocol models/mutants/hmg_lite_split_inv.proto --tables -o "$tmp/v.html" >/dev/null
check "variant tables: inherited rows name the base file" grep -q 'class="ln">hmg_lite.proto:[0-9]' "$tmp/v.html"
check "variant tables: the changed row is the variant's, without '+'" grep -q '<td><code>recv hinv.Inv</code></td>' "$tmp/v.html"
check "variant tables: the source line names both files" grep -q 'hmg_lite_split_inv.proto</code>, extending <code>.*hmg_lite.proto' "$tmp/v.html"

# The HMG notes' litmus suite (shared/notes/seeds/004_hmg.md 5.4, tests
# litmus/protocol/HMG-T*): PTX allows IRIW's non-multi-copy-atomic outcome
# across GPUs and a lost update of two .gpu atomics on different GPUs;
# hmg_lite, with one home copy per address and every atomic at the home,
# produces neither (sound, each outcome reported as unobserved).
"$bin" verify --protocol hmg_lite --json litmus/protocol/HMG-T9a-IRIW-sys.litmus >"$tmp/i.json"
check "HMG-T9a: the IRIW outcome is allowed but never produced" \
    jq -e '.sound and (.model_outcomes | length) == 16 and (.protocol_outcomes | length) == 15 and
           all(.protocol_outcomes[]; (.["P2:r1"] == 1 and .["P2:r2"] == 0 and .["P3:r3"] == 1 and .["P3:r4"] == 0) | not)' "$tmp/i.json"
"$bin" verify --protocol hmg_lite --const MAXV=3 --json litmus/protocol/HMG-T11-atom-gpu-two-gpus.litmus >"$tmp/a.json" 2>"$tmp/a.err"
check "HMG-T11: no lost update (x == 2 only), x == 1 allowed by the model" \
    jq -e '.sound and .protocol_outcomes == [{"x":2}] and (.model_outcomes | length) == 2' "$tmp/a.json"
check "HMG-T11 with MAXV=3: no value-range warning" test ! -s "$tmp/a.err"
# Without --const the range is the one the test needs (two increments of
# x from 0: 0..2), so nothing wraps and nothing is refused.
"$bin" verify --protocol hmg_lite --json litmus/protocol/HMG-T11-atom-gpu-two-gpus.litmus >"$tmp/d.json" 2>"$tmp/d.err"
check "HMG-T11 with the derived range: x == 2, range 0..2 from the test, no warning" \
    jq -e '.sound and .protocol_outcomes == [{"x":2}] and .options.value_range == [0,2] and .options.value_range_from == "test"' "$tmp/d.json"
check "HMG-T11 with the derived range: nothing on stderr" test ! -s "$tmp/d.err"
# --const MAXV=1 sets the declared range 0..1 (the Rumur baseline's).
"$bin" verify --protocol hmg_lite --const MAXV=1 litmus/protocol/HMG-T11-atom-gpu-two-gpus.litmus >"$tmp/w.out" 2>"$tmp/w.err"
check "values 0..1 wrapping: the model's x = 2 draws a warning naming MAXV" \
    grep -q "HMG-T11-atom-gpu-two-gpus.litmus: warning: the model allows the value 2, outside protocol hmg_lite's value range 0..1; .*MAXV" "$tmp/w.err"
check "values 0..1 wrapping: the run says values were wrapped" grep -q '^Warning value range: values were wrapped into 0..1' "$tmp/w.out"
sed 's/^value 0..MAXV wrap/value 0..MAXV/' models/hmg_lite.proto >"$tmp/nowrap.proto"
"$bin" verify --protocol "$tmp/nowrap.proto" --const MAXV=1 litmus/protocol/HMG-T11-atom-gpu-two-gpus.litmus >"$tmp/o" 2>"$tmp/e"
rc=$?
check "without wrap the same test is refused (exit 2, nothing on stdout)" test "$rc" -eq 2 -a ! -s "$tmp/o"
check "without wrap: an error naming the value" grep -q 'error: the model allows the value 2' "$tmp/e"
