#!/usr/bin/env bash
# conformance_if_shared.sh BIN: verdict conformance of BIN.
#   - the shared reference corpus ../shared/corpus/ptx (relative to the repository
#     root) for ptx6 and ptx75, when it is there;
#   - ../shared/corpus/opencl for opencl and opencl-race, when it is there;
#   - our own suites litmus/ptx, litmus/hrf, litmus/ptx-liveness and litmus/write-atomicity for every model their
#     expected.tsv lists.
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
for suite in litmus/ptx litmus/hrf litmus/ptx-liveness litmus/write-atomicity; do
    echo "== $suite (all models listed)"
    SCOPECHECK=$bin bash scripts/conformance.sh "$suite" || status=1
done
exit $status
