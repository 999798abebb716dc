#!/usr/bin/env bash
# export_tables.sh [OUTDIR]: exports the bundled protocols' tables for
# scopesim (scopecheck export: verify, then write only if every check
# passes), each with the litmus tests of litmus/protocol/ it can run:
#   gpu_vi[_s2,_s4]   the single-GPU baseline with 1, 2 and 4 L2 slices
#                     (every test without .sys scope)
#   gpu_vi_multi      software coherence on several GPUs (every test)
#   gpu_vi_multi_p2p  the same with point-to-point links to the memories
#   hmg_lite          HMG's directory (every test), MAXFLUSH=256 so that a
#                     release's flush round fits up to 16 GPUs
# The two largest Rumur configurations (IRIW-plus-4, IRIW-acq-6) are left
# out: they add minutes and no new CU count beyond IRIW-acq-4's.
set -eu
cd "$(dirname "$0")/.."
out=${1:-out/tables}
bin=${SCOPECHECK:-bin/scopecheck}
mkdir -p "$out"
all=()
single=()
for f in litmus/protocol/*.litmus; do
    case $f in *IRIW-plus-4* | *IRIW-acq-6*) continue ;; esac
    all+=("$f")
    grep -q '\.sys' "$f" || single+=("$f")
done
run() { # NAME ARGS...: one export, quiet unless it fails
    local name=$1; shift
    if ! "$bin" export "$@" -o "$out/$name.tables.json" >"$out/$name.export.txt" 2>"$out/$name.export.err"; then
        cat "$out/$name.export.err" >&2
        cat "$out/$name.export.txt" >&2
        echo "export_tables.sh: $name: export failed" >&2
        exit 1
    fi
    tail -n 1 "$out/$name.export.txt"
}
run gpu_vi --protocol gpu_vi "${single[@]}"
run gpu_vi_s2 --protocol gpu_vi --const NSLICE=2 "${single[@]}"
run gpu_vi_s4 --protocol gpu_vi --const NSLICE=4 "${single[@]}"
run gpu_vi_multi --protocol gpu_vi_multi "${all[@]}"
run gpu_vi_multi_p2p --protocol models/gpu_vi_multi_p2p.proto "${all[@]}"
run hmg_lite --protocol hmg_lite --const MAXFLUSH=256 "${all[@]}"
