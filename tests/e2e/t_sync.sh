#!/usr/bin/env bash
# End-to-end checks of the seeds' synchronisation primitives (litmus/sync/,
# docs/sync-primitives.md): verdicts on the litmus engine (expected.tsv) and
# on the protocol engine (verify.tsv), both derived by hand, and that every
# printed-listing bug comes with a trace.
set -u
bin=$1
cd "$(dirname "$0")/../.." || exit 0
. tests/e2e/lib.sh
S=litmus/sync
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check "litmus/sync litmus-engine verdicts (expected.tsv)" env SCOPECHECK="$bin" bash scripts/conformance.sh "$S"
verify_table "$S/verify.tsv"    # the protocol-engine verdicts

# Each bug of a printed listing is shown with a trace.
traced() {   # traced FILE PROTOCOL KIND [OPTIONS...]
    local f=$1 p=$2 kind=$3; shift 3
    "$bin" verify --model none --liveness --protocol "$p" "$@" "$S/$f" >"$tmp/out" 2>&1
    case $kind in
    cycle) grep -q '^Violation non-progress cycle: ' "$tmp/out" && grep -q -- '-- cycle: the steps below repeat forever --' "$tmp/out" ;;
    deadlock) grep -q '^Violation deadlock' "$tmp/out" && grep -A3 '^Violation deadlock' "$tmp/out" | grep -q '^Trace' ;;
    esac
}
check "HS-local-printed: the stuck CAS loop, with its lasso" traced HS-local-printed.litmus gpu_vi cycle --const MAXV=3
check "HS-tree-printed: with its lasso" traced HS-tree-printed.litmus gpu_vi cycle --const MAXV=3
check "HS-1counter: the hidden reset, with its lasso" traced HS-1counter.litmus gpu_vi cycle --const MAXV=3
check "SpinSem-printed: the capacity violation, with its trace" traced SpinSem-printed.litmus gpu_vi deadlock --const MAXV=3
check "PriorSem-bool: E2's starvation, with its lasso" traced PriorSem-bool.litmus gpu_vi cycle --const MAXV=3
check "EC-early-reuse: the lost wake-up, with its trace" traced EC-early-reuse.litmus sync_events deadlock
check "Gsync-2TB without the context switch: the deadlock, with its trace" traced Gsync-2TB.litmus gsync deadlock --occupancy 1
"$bin" verify --model none --protocol gpu_vi --const MAXV=3 "$S/SpinSem-printed.litmus" >"$tmp/out" 2>&1
check "SpinSem-printed's trace shows the second reader finding the first inside (incs = 1)" \
    grep -qE "P1 r3 = 1|P0 r3 = 1" "$tmp/out"
"$bin" litmus --races --model hrf-indirect "$S/GSRB-local-race.litmus" >"$tmp/out" 2>&1
check "G-SRB under SC-for-HRF: --races names the racing accesses to sense" \
    grep -qE '^Race race-unordered: P0 line [0-9]+ `.*sense.*` and P1 line [0-9]+ `.*sense.*` on sense' "$tmp/out"
