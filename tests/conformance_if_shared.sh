#!/usr/bin/env bash
# conformance_if_shared.sh BIN: verdict conformance of BIN.
#   - the shared reference corpus ../shared/corpus/ptx (relative to the repository
#     root) for ptx6 and ptx75, when it is there;
#   - ../shared/corpus/opencl for opencl and opencl-race, when it is there;
#   - our own suites litmus/ptx, litmus/hrf, litmus/ptx-liveness,
#     litmus/write-atomicity, litmus/opencl and litmus/opencl-herd for every
#     model their expected.tsv lists;
#   - herd7's C corpus ../shared/corpus/c11-herd against herd7's expected
#     outputs, and our suites litmus/c11 and litmus/c11-dat3m under herd7's
#     rc11.cat and c11_simp.cat, when herd7's model library
#     ../shared/bench/herd7 is there;
#   - with HERD_SUITES=DIR (a local copy of herd's OpenCL suites: DIR/OpenCLTests
#     and DIR/RSPTests, which are herd's and not ours to ship), every file of
#     them run through legacy herd and scopecheck side by side
#     (scripts/herd_opencl.sh, models opencl and opencl-rsp respectively), when
#     ../shared/bench/herd-legacy is there.
# Without ../shared/corpus that part is skipped with a message: the corpus is
# not ours to ship.  Exit 1 if any verdict disagrees.
set -u
if [ $# -ne 1 ]; then
    echo "usage: conformance_if_shared.sh PATH/TO/scopecheck" >&2
    exit 2
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
status=0
corpus=../shared/corpus/ptx
if [ -d "$corpus" ]; then
    echo "== $corpus (ptx6, ptx75)"
    SCOPECHECK=$bin bash scripts/conformance.sh "$corpus" ptx6 ptx75 || status=1
else
    echo "conformance: skipped ../shared/corpus/ptx (not found; the corpus is not ours to ship)"
fi
ocl=../shared/corpus/opencl
if [ -d "$ocl" ]; then
    echo "== $ocl (opencl, opencl-race)"
    SCOPECHECK=$bin bash scripts/conformance.sh "$ocl" opencl opencl-race || status=1
else
    echo "conformance: skipped ../shared/corpus/opencl (not found)"
fi
for suite in litmus/ptx litmus/hrf litmus/ptx-liveness litmus/write-atomicity litmus/opencl litmus/opencl-herd; do
    echo "== $suite (all models listed)"
    SCOPECHECK=$bin bash scripts/conformance.sh "$suite" || status=1
done
# herd7's C models are herd's, not ours: the C corpus and our C suite need
# its library beside the repository.
herdlib=../shared/bench/herd7/lib/herd
if [ -d "$herdlib" ] && [ -d ../shared/corpus/c11-herd ]; then
    echo "== ../shared/corpus/c11-herd (herd7's expected outputs, c.cfg)"
    SCOPECHECK=$bin bash scripts/c11_herd_expected.sh || status=1
else
    echo "conformance: skipped ../shared/corpus/c11-herd (it or $herdlib not found)"
fi
if [ -d "$herdlib" ]; then
    echo "== litmus/c11 (herd7's rc11.cat and c11_simp.cat, unmodified)"
    SCOPECHECK=$bin SCOPECHECK_MODELS=$herdlib bash scripts/conformance.sh litmus/c11 || status=1
    echo "== litmus/c11-dat3m (arrays herd7 refuses; verdicts by hand, herd7's models)"
    SCOPECHECK=$bin SCOPECHECK_MODELS=$herdlib bash scripts/conformance.sh litmus/c11-dat3m || status=1
else
    echo "conformance: skipped litmus/c11 ($herdlib, herd7's models, not found)"
fi
if [ -n "${HERD_SUITES:-}" ]; then
    for pair in OpenCLTests:opencl RSPTests:opencl-rsp; do
        d=$HERD_SUITES/${pair%%:*}
        if [ -d "$d" ]; then
            echo "== $d (${pair##*:}, side by side with legacy herd)"
            SCOPECHECK=$bin bash scripts/herd_opencl.sh --model "${pair##*:}" "$d" || status=1
        else
            echo "conformance: no $d"
        fi
    done
fi
exit $status
