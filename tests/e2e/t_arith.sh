#!/usr/bin/env bash
# End-to-end check that the checker and the simulator compute table
# expressions alike (base/arith.h): a variant of gpu_vi whose L1 tries, on a
# weak load in state I, six rows whose guards overflow int64 before the
# row that serves the load, whose guard adds corner arithmetic that holds
# exactly.  Numbers in the table language have at most 9 digits, so the
# corners are built from P29 = 2^29:
#   MAX = P29*P29*16 - 1 + P29*P29*16 = 2^62 - 1 + 2^62 = 2^63 - 1
#   MIN = 0 - P29*P29*16 - P29*P29*16 = -2^63
# The overflowing guards, by hand: MAX + 1, MIN - 1, MAX * 2, -MIN,
# MIN / -1 and MIN % -1 leave int64 (or are refused as MIN / -1 is); each
# disables its row in the checker, so the variant has gpu_vi's 268 states.
# Plain 64-bit arithmetic would wrap them to true (MAX + 1 = MIN < 0 ...)
# and stall the load for ever: scopesim before base/arith.h deadlocked at
# cycle 148 on this file.  The serving row's guard holds exactly:
# MAX + MIN = -1; MIN % 3 = 1 (2^63 = 2 mod 3) and MIN % -3 = -2 (the
# sign of the divisor); MAX % -5 = -3 (2^63 - 1 = 2 mod 5); MIN / 2 =
# -2^62.  If the simulator disagreed on any of them, the load would meet
# no row (an unhandled-pair error) or a stalling one (a deadlock), so
# scopesim must run the variant cycle for cycle as it runs gpu_vi.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
sim=$(dirname "$bin")/scopesim
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mp=litmus/protocol/MP-stale-seed.litmus

MAX='(P29 * P29 * 16 - 1 + P29 * P29 * 16)'
MIN='(0 - P29 * P29 * 16 - P29 * P29 * 16)'
cat >"$tmp/overflow.proto" <<PROTO
protocol gpu_vi_overflow extends "$PWD/models/gpu_vi.proto"
const P29 = 536870912
table L1
- I | load.weak | acq == 0
+ I | load.weak | $MAX + 1 < 0 | stall | -
+ I | load.weak | $MIN - 1 > 0 | stall | -
+ I | load.weak | $MAX * 2 < 0 | stall | -
+ I | load.weak | -$MIN < 0 | stall | -
+ I | load.weak | $MIN / -1 < 0 | stall | -
+ I | load.weak | $MIN % -1 == 0 | stall | -
+ I | load.weak | acq == 0 && $MAX + $MIN == -1 && $MIN % 3 == 1 && $MIN % -3 == -2 && $MAX % -5 == -3 && $MIN / 2 == 0 - P29 * P29 * 16 | send req[slice(addr)] Load(addr); loads += 1; wait | -
end
PROTO

"$bin" verify --protocol "$tmp/overflow.proto" "$mp" >"$tmp/v.out" 2>&1
check "checker: overflowing guards disable their rows (verify passes)" grep -q '^Result Pass' "$tmp/v.out"
check "checker: the variant has gpu_vi's 268 states" grep -q '^states: 268$' "$tmp/v.out"

"$bin" export --protocol "$tmp/overflow.proto" "$mp" -o "$tmp/overflow.json" >/dev/null 2>&1
check "export of the overflowing variant" test $? -eq 0
"$bin" export --protocol gpu_vi "$mp" -o "$tmp/gpu_vi.json" >/dev/null 2>&1
if [ -x "$sim" ]; then
    "$sim" --tables "$tmp/overflow.json" --system models/sim/tiny.sys --workload models/sim/litmus_mp.wl \
        --quiet --json "$tmp/overflow.r.json" 2>"$tmp/err"
    check "scopesim: the overflowing variant runs to the end (no stalled load)" test $? -eq 0
    "$sim" --tables "$tmp/gpu_vi.json" --system models/sim/tiny.sys --workload models/sim/litmus_mp.wl \
        --quiet --json "$tmp/gpu_vi.r.json" 2>/dev/null
    check "scopesim: the variant runs as gpu_vi does (same cycles, operations, messages)" \
        test "$(jq -c '[.cycles, .ops, .messages, .complete]' "$tmp/overflow.r.json")" = \
             "$(jq -c '[.cycles, .ops, .messages, .complete]' "$tmp/gpu_vi.r.json")"
fi
