#!/usr/bin/env bash
# End-to-end checks that scopesim does not guess (issue 28, item 5): a
# constant the system outgrows is refused before the run with the fix,
# and a run that deadlocks says why, as verify's "Why stuck" does.
# Expected values are derived by hand from the tables, next to each check.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
sim=$(dirname "$bin")/scopesim
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# hmg_lite's release starts a flush round with `flush := NGPU * NGPU`
# (models/hmg_lite.proto), `var flush : 0..MAXFLUSH`, MAXFLUSH 9 by
# default.  hmg4x1.sys has 4 GPUs: 16 > 9, the row can never fire, every
# release would wait forever (the deadlock at cycle 14,798 of the issue).
# the quick start's three tests (scripts/quickstart.sh): they reach the cutoffs
tests=(litmus/protocol/MP-sys-2gpu.litmus litmus/protocol/MP-shared-cu-fill.litmus
       litmus/protocol/HMG-T11-atom-gpu-two-gpus.litmus)
"$bin" export --protocol hmg_lite "${tests[@]}" -o "$tmp/hmg9.json" >/dev/null 2>&1 || echo "FAIL: export hmg_lite"
"$bin" export --protocol hmg_lite --const MAXFLUSH=16 "${tests[@]}" -o "$tmp/hmg16.json" >/dev/null 2>&1 ||
    echo "FAIL: export hmg_lite MAXFLUSH=16"
"$sim" --tables "$tmp/hmg9.json" --system models/sim/hmg4x1.sys --workload models/sim/sharing.wl --no-progress \
    >"$tmp/out" 2>"$tmp/err"
check "MAXFLUSH=9 on 4 GPUs: refused before the run (exit 2, nothing on stdout)" test $? -eq 2 -a ! -s "$tmp/out"
check "MAXFLUSH=9 on 4 GPUs: names the row, the value and the range" \
    grep -qF "content.controllers.L1: the row at line 116 sets flush to \`NGPU * NGPU\`, 16 in this system, outside its range 0..9 (0..MAXFLUSH)" "$tmp/err"
check "MAXFLUSH=9 on 4 GPUs: says the fix" grep -qF "export the tables again with --const MAXFLUSH=16 (or more)" "$tmp/err"
check "MAXFLUSH=9 on 4 GPUs: --unverified does not bypass it (the row still cannot fire)" \
    test "$("$sim" --tables "$tmp/hmg9.json" --system models/sim/hmg4x1.sys --workload models/sim/sharing.wl \
        --unverified --quiet >/dev/null 2>&1; echo $?)" -eq 2
# hmg4x4.sys: `table_gpu gpm`, 4 GPUs x 4 GPMs: NGPU = 16, 16 * 16 = 256.
"$sim" --tables "$tmp/hmg16.json" --system models/sim/hmg4x4.sys --workload models/sim/sharing.wl --quiet \
    --no-progress 2>"$tmp/err"
check "MAXFLUSH=16 on hmg4x4 (16 table GPUs): refused, export with MAXFLUSH=256" \
    grep -qF "256 in this system, outside its range 0..16 (0..MAXFLUSH): the row could never fire and the run would wait forever; export the tables again with --const MAXFLUSH=256 (or more)" "$tmp/err"
# With 16 the 4-GPU run is accepted: 4 GPUs of 1 CU, 1 warp, a kernel of
# a window of 2 lines, read once, no writes: it completes.
"$sim" --tables "$tmp/hmg16.json" --system models/sim/hmg4x1.sys --sys 'cus_per_gpm 1' --sys 'warps_per_cu 1' \
    --workload models/sim/sharing.wl --work 'kernels 1' --work 'window 2' --work 'reuse 1' --work 'writes 0' \
    --unverified --quiet --no-progress 2>"$tmp/err"
check "MAXFLUSH=16 on 4 GPUs: accepted and completes (exit 0)" test $? -eq 0

# A deadlock says why.  gpu_vi's release fence row (models/gpu_vi.proto
# line 100: `fence.acq_rel.gpu | acks == 0 && loads == 0`) edited to wait
# for acks == 5, which never holds: one CU of one warp with one slot
# (tiny.sys) streams 2 lines (2 loads, 2 stores) then releases at the
# kernel's end.  Both stores are acknowledged (acks back to 0), both loads
# filled (loads 0), the fence never fires: warp 0, slot 0 of CU 0 waits at
# L1[0] with acks=0 loads=0 acq=0.
"$bin" export --protocol gpu_vi litmus/protocol/MP-stale-seed.litmus -o "$tmp/vi.json" >/dev/null 2>&1 ||
    echo "FAIL: export gpu_vi"
jq '(.content.controllers[0].rows[] | select(.event.kind == "fence" and .event.order == "acq_rel"
      and .event.scope == "gpu") | .guard.l.r.value) |= 5' "$tmp/vi.json" >"$tmp/stuck.json"
printf 'workload s2\nkind stream\nlines 2\n' >"$tmp/s2.wl"
"$sim" --tables "$tmp/stuck.json" --system models/sim/tiny.sys --sys 'cus_per_gpm 1' --workload "$tmp/s2.wl" \
    --unverified --quiet --no-progress --json "$tmp/r.json" 2>"$tmp/err"
check "a stuck fence: exit 1" test $? -eq 1
check "a stuck fence: the deadlock line, then Why stuck" \
    grep -qE '^scopesim: error: deadlock at cycle [0-9]+: 1 of 1 warps unfinished' "$tmp/err"
check "a stuck fence: which warp waits at which controller, for which row and guard, with the variables" \
    grep -qF "  warp 0 (CU 0, slot 0): fence.acq_rel.gpu waits at L1[0]: row at line 100: guard \`(acks == 5) && (loads == 0)\` is false; variables acks=0 loads=0 acq=0" "$tmp/err"
check "a stuck fence: the JSON record says deadlock" jq -e '.complete == false and .incomplete == "deadlock"' "$tmp/r.json"

# A spin no write will end is no progress, not a run to --max-cycles.
# gpu_vi's acquire load row (load.acquire.gpu, row 5 of L1) edited to
# read the L1's own copy (`reg := line.val; done`, no guard, no fetch):
# prodcons at gpu scope on tiny.sys puts the producer and the consumer on
# the two CUs; each ends up spinning with acquire loads on a flag its L1
# holds as 0 (the line was never fetched), so from the producer's last
# store on (a few hundred cycles in) every completion is a spin read of
# the same 0.  The run stops SIM_NO_PROGRESS = 1,000,000 cycles after
# that, far before --max-cycles 5,000,000, exit 1.
jq '.content.controllers[0].rows[5].guard = null
    | .content.controllers[0].rows[5].actions = [{"op": "reg", "expr": {"op": "field", "name": "val"}}, {"op": "done"}]' \
    "$tmp/vi.json" >"$tmp/spin.json"
"$sim" --tables "$tmp/spin.json" --system models/sim/tiny.sys --workload models/sim/prodcons_gpu.wl --unverified \
    --max-cycles 5000000 --quiet --no-progress --json "$tmp/spin.r.json" 2>"$tmp/err"
check "a spin no write ends: exit 1 (not 3, --max-cycles)" test $? -eq 1
check "a spin no write ends: JSON incomplete no-progress, stopped within 1,000,000 + 100,000 cycles" \
    jq -e '.complete == false and .incomplete == "no-progress" and .cycles > 1000000 and .cycles < 1100000' \
    "$tmp/spin.r.json"
check "a spin no write ends: the message names it" \
    grep -qE '^scopesim: error: no progress at cycle [0-9]+: .*a spin that no write ends\); 2 of 2 warps unfinished' "$tmp/err"
check "a spin no write ends: each warp, the acquire load it repeats and the value it keeps reading" \
    test "$(grep -cE '^  warp [01] \(CU [01]\) waits for another value: its next operation is load.acquire.gpu at address [0-9]+, the value it last read 0$' "$tmp/err")" -eq 2

# A constant the system states it needs (`const NAME VALUE`): stc8.sys's
# L2 is 4 banks, `const NSLICE 4`.  gpu_vi exported with its default
# NSLICE = 1 is refused with the fix; tables without NSLICE ignore it.
"$sim" --tables "$tmp/vi.json" --system models/sim/stc8.sys --workload "$tmp/s2.wl" --unverified --quiet 2>"$tmp/err"
check "NSLICE 1 on stc8 (4 banks): refused, exit 2" test $? -eq 2
check "NSLICE 1 on stc8: says the fix" grep -qxF "models/sim/stc8.sys: const: the system needs NSLICE = 4, the tables were exported with NSLICE = 1: export them again with --const NSLICE=4" "$tmp/err"
"$sim" --tables "$tmp/vi.json" --system models/sim/tiny.sys --sys 'const NSLICE 1' --sys 'const OTHER 3' \
    --workload "$tmp/s2.wl" --quiet 2>"$tmp/err"
check "const NSLICE 1 with NSLICE=1 tables, and a constant the tables lack: accepted" test $? -eq 0

# int64 overflow in a constant expression, as in the checker (base/arith.h):
# the row that computes it cannot fire.  hmg_lite's flush round edited to
# `flush := 4611686018427387904 * NGPU`: 2^62 x 4 GPUs overflows, so it is
# refused before the run, as a constant out of range is.
jq '(.content.controllers[0].rows[] | .actions[] | select(.op == "assign" and .target.name == "flush"
      and .expr.op == "*") | .expr.l) = {"op": "num", "value": 123456789}' "$tmp/hmg16.json" |
    sed 's/123456789/4611686018427387904/g' >"$tmp/over.json"
"$sim" --tables "$tmp/over.json" --system models/sim/hmg4x1.sys --workload models/sim/sharing.wl --unverified \
    --quiet --no-progress 2>"$tmp/err"
check "a constant expression that overflows int64: refused before the run (exit 2)" test $? -eq 2
check "a constant expression that overflows int64: says so" \
    grep -qF "sets flush to \`4611686018427387904 * NGPU\`, which overflows int64 (or divides by 0) in this system: the row could never fire, as in the checker" "$tmp/err"
