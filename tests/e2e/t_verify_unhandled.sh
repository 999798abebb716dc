#!/usr/bin/env bash
# End-to-end: a reachable (state, event) pair that no table row handles is a
# violation of `scopecheck verify`, reported with the shortest trace to a
# state that meets it.  $1: the scopecheck binary.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The baseline without its row for StoreAck at the L1.
grep -v 'recv resp.StoreAck' models/gpu_vi.proto >"$tmp/cut.proto"
"$bin" verify --protocol "$tmp/cut.proto" litmus/protocol/MP-stale-seed.litmus >"$tmp/out" 2>"$tmp/err"
rc=$?
check "unhandled event: exit 1" test "$rc" -eq 1
check "unhandled event: names controller, state and event" \
    grep -q '^Violation unhandled: controller L1 in state I has no row for recv resp.StoreAck' "$tmp/out"
check "unhandled event: a trace that ends with the StoreAck being sent" \
    sh -c "sed -n '/^Violation unhandled/,/^search/p' '$tmp/out' | grep -q 'send resp\[0\] StoreAck(x)'"
"$bin" verify --json --protocol "$tmp/cut.proto" litmus/protocol/MP-stale-seed.litmus >"$tmp/json"
check "unhandled event in JSON, with a trace" \
    jq -e '[.violations[] | select(.kind == "unhandled")] | length > 0 and (.[0].trace | length) >= 2' "$tmp/json"
exit 0
