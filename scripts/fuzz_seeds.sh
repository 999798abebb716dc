#!/usr/bin/env bash
# fuzz_seeds.sh NAME: prints the files and folders of the repository that
# seed fuzz harness NAME (tests/fuzz/fuzz_NAME.c), one per line.  The seeds
# are the repository's own tests and models, used where they are rather
# than copied: tests/fuzz/corpus/NAME holds only what campaigns added.
# The search harness's seeds are protocols, each also followed by a line
# "%%" and a small litmus test of litmus/protocol/.
set -u
cd "$(dirname "$0")/.." || exit 2
case ${1:?usage: fuzz_seeds.sh NAME} in
    ptx) printf '%s\n' litmus/ptx tests/bad/ptx ;;
    opencl) printf '%s\n' litmus/hrf tests/bad/opencl ;;
    c) printf '%s\n' litmus/c11 tests/bad/c ;;
    cat) ls models/*.cat ;;
    protocol) ls models/*.proto models/mutants/*.proto ;;
    enumerate) printf '%s\n' litmus/ptx litmus/hrf litmus/protocol ;;
    search) ls models/*.proto models/mutants/*.proto ;;
    sim) ls models/sim/*.sys models/sim/*.wl tests/unit/sim/*.tables.json ;;
    *) echo "fuzz_seeds.sh: no harness '$1'" >&2; exit 2 ;;
esac
