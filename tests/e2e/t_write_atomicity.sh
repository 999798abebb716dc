#!/usr/bin/env bash
# End-to-end checks of `scopecheck verify --write-atomicity` (docs/write-atomicity.md):
# the reference model's verdicts (litmus/write-atomicity/expected.tsv), each bundled
# protocol's write atomicity (verify.tsv), both derived by hand, the report's form,
# and bad options.
set -u
bin=$1
cd "$(dirname "$0")/../.." || exit 0
. tests/e2e/lib.sh
W=litmus/write-atomicity
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check "ptx6 and ptx6-mca verdicts (expected.tsv)" env SCOPECHECK="$bin" bash scripts/conformance.sh "$W"
verify_table "$W/verify.tsv"    # write atomicity of gpu_vi, gpu_vi_unordered, gpu_vi_multi, hmg_lite

"$bin" verify --protocol gpu_vi --write-atomicity "$W/IRIW-fence-cta-seed.litmus" >"$tmp/out" 2>&1
rc=$?
check "a non-write-atomic outcome fails the check (exit 1)" test "$rc" -eq 1
check "text: Write-atomic no, naming the reference" grep -qx "Write-atomic no (reference ptx6-mca)" "$tmp/out"
check "text: the outcome and its shortest trace" \
    bash -c "grep -A1 '^Violation not write-atomic: 2:r0=1; 2:r1=0; 3:r0=1; 3:r1=0;' '$tmp/out' | grep -qx Trace"
check "the protocol stays sound against ptx6 itself" grep -qx "Sound yes" "$tmp/out"
"$bin" verify --protocol gpu_vi --write-atomicity --json "$W/IRIW-fence-cta-seed.litmus" >"$tmp/out" 2>&1
check "JSON: write_atomic false, one non-MCA outcome with a trace" \
    jq -e '.write_atomic == false and (.non_mca_outcomes | length) == 1 and
           (.non_mca_outcomes[0].trace | length) > 5 and .non_mca_outcomes[0].outcome["P2:r1"] == 0' "$tmp/out"
"$bin" verify --protocol gpu_vi --write-atomicity "$W/IRIW-acq-gpu-seed.litmus" >"$tmp/out" 2>&1
rc=$?
check "a write-atomic protocol passes (exit 0, Write-atomic yes)" \
    bash -c "[ $rc -eq 0 ] && grep -qx 'Write-atomic yes (reference ptx6-mca)' '$tmp/out'"
"$bin" verify --protocol gpu_vi --write-atomicity --model none "$W/IRIW-rlx.litmus" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "--write-atomicity with --model none is refused (exit 2, a message, no output)" \
    bash -c "[ $rc -eq 2 ] && [ ! -s '$tmp/out' ] && grep -q 'write-atomicity compares with a base model' '$tmp/err'"
