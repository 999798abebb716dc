#!/usr/bin/env bash
# The main job on the bundled default: installs what is missing, builds, and
# checks our own PTX litmus suite (litmus/ptx) against the PTX 6.0 model,
# printing one line per test and a summary against the expected verdicts.
set -eu
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
make -s bin/scopecheck
model=${1:-ptx6}
expected=litmus/ptx/expected.tsv
results=$(bin/scopecheck litmus --json --model "$model" litmus/ptx)
printf '%-34s %-8s %-8s %-8s %s\n' TEST CONDITION VERDICT EXPECTED STATES
agree=0 total=0
while IFS=$'\t' read -r file test cond verdict nstates; do
    want=$(awk -F'\t' -v f="$(basename "$file")" -v m="$model" '$1==f && $2==m {print $3}' "$expected")
    mark=""
    if [ -n "$want" ]; then
        total=$((total + 1))
        if [ "$want" = "$verdict" ]; then agree=$((agree + 1)); else mark="  <-- differs"; fi
    fi
    printf '%-34s %-8s %-8s %-8s %s%s\n' "$test" "$cond" "$verdict" "${want:--}" "$nstates" "$mark"
done < <(jq -r '[.file, .test, .condition, .verdict, (.states|length)] | @tsv' <<<"$results")
echo "scopecheck litmus --model $model litmus/ptx: $agree of $total verdicts as expected"
[ "$agree" -eq "$total" ]
