#!/usr/bin/env bash
# The pipeline a user comes for, on bundled defaults: installs what is
# missing, builds both programs, then
#   1. litmus: our PTX suite (litmus/ptx, with proxy/ and large/) against
#      the PTX 6.0 model, one line per test and a summary against the
#      expected verdicts, matched by path (scripts/suite_summary.sh);
#   2. verify: the GPU VI baseline (models/gpu_vi.proto) on our protocol
#      suite (litmus/protocol, the tests without .sys scope);
#   3. export: two multi-GPU protocols, software coherence
#      (gpu_vi_multi) and HMG's directory (hmg_lite), each verified on
#      three tests and written as stamped tables;
#   4. scopesim: both on one workload (models/sim/sharing.wl) on seed
#      004's 4-GPU system (models/sim/hmg4x1.sys, 4 CUs per GPU), and a
#      comparison table and plot in out/quickstart/.
set -eu
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
make -s bin/scopecheck bin/scopesim
model=${1:-ptx6}
out=out/quickstart
mkdir -p "$out"

echo "== 1. litmus: litmus/ptx against $model"
SCOPECHECK=bin/scopecheck bash scripts/suite_summary.sh litmus/ptx "$model"

echo
echo "== 2. verify: gpu_vi on litmus/protocol (tests without .sys scope)"
printf '%-34s %10s %s\n' TEST STATES RESULT
failed=0
for f in litmus/protocol/*.litmus; do
    case $f in *IRIW-plus-4* | *IRIW-acq-6*) continue ;; esac   # minutes each: make test runs them
    grep -q '\.sys' "$f" && continue
    status=0
    line=$(bin/scopecheck verify --protocol gpu_vi --json "$f" 2>/dev/null) || status=$?
    case $status in 0) result=Pass ;; 1) result="Fail (exit 1)" ;; 3) result="Incomplete (exit 3)" ;; *) result="Unusable (exit $status)" ;; esac
    [ $status -eq 0 ] || failed=$((failed + 1))
    printf '%-34s %10s %s\n' "$(basename "$f" .litmus)" "$(jq .stats.states <<<"$line")" "$result"
done
echo "scopecheck verify --protocol gpu_vi: $failed failed"
[ "$failed" -eq 0 ]

echo
echo "== 3. export: gpu_vi_multi and hmg_lite, verified, stamped"
checks=(litmus/protocol/MP-sys-2gpu.litmus litmus/protocol/MP-shared-cu-fill.litmus
        litmus/protocol/HMG-T11-atom-gpu-two-gpus.litmus)
bin/scopecheck export --protocol gpu_vi_multi "${checks[@]}" -o "$out/gpu_vi_multi.tables.json" 2>/dev/null
bin/scopecheck export --protocol hmg_lite --const MAXFLUSH=16 "${checks[@]}" -o "$out/hmg_lite.tables.json" 2>/dev/null

echo
echo "== 4. scopesim: both on models/sim/sharing.wl, 4 GPUs of 4 CUs (models/sim/hmg4x1.sys)"
rm -f "$out/runs.jsonl"
for p in gpu_vi_multi hmg_lite; do
    bin/scopesim --tables "$out/$p.tables.json" --system models/sim/hmg4x1.sys --sys 'cus_per_gpm 4' \
        --workload models/sim/sharing.wl --work 'kernels 4' --quiet --json "$out/runs.jsonl" --csv "$out/runs.csv"
done
printf '%-14s %9s %8s %8s %8s %10s %10s %10s\n' PROTOCOL CYCLES OPS/CYC L1_HIT L2_HIT GPU_MSGS ENERGY_uJ SPEEDUP
base=$(head -n 1 "$out/runs.jsonl" | jq .cycles)
printf 'protocol\tspeedup over gpu_vi_multi\n' >"$out/compare.tsv"
while IFS=$'\t' read -r p cycles opc l1 l2 gpu energy; do
    speedup=$(awk -v a="$base" -v b="$cycles" 'BEGIN { printf "%.2f", a / b }')
    printf '%-14s %9s %8.3f %8.3f %8.3f %10s %10.1f %10s\n' "$p" "$cycles" "$opc" "$l1" "$l2" "$gpu" "$energy" "$speedup"
    printf '%s\t%s\n' "$p" "$speedup" >>"$out/compare.tsv"
done < <(jq -r '[.protocol, .cycles, .ops_per_cycle, .controllers.L1.hit_rate, .controllers.L2.hit_rate,
                 .links.gpu.messages, (.energy_pj.total / 1e6)] | @tsv' "$out/runs.jsonl")
bash scripts/plot.sh --title "sharing.wl on hmg4x1 (16 CUs): speedup over software coherence" \
    --ylabel "speedup" "$out/compare.tsv" "$out/compare"
echo "Results: $out/runs.jsonl, $out/runs.csv; the plot: $out/compare.png"
