#!/usr/bin/env bash
# End-to-end checks of scopesim (beside the scopecheck binary given as
# $1): a run of exported tables whose cycle count is derived by hand
# below; refusal of edited and unstamped tables and of systems larger
# than the checks covered; file:line:col errors for bad configurations
# and workloads; determinism per seed; results as JSON and CSV; the
# multi-GPU protocols on a sharing workload in the direction seed 004
# reports (HMG ahead of software coherence, the ideal ahead of both).
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
sim=$(dirname "$bin")/scopesim
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sys=models/sim/tiny.sys

"$bin" export --protocol gpu_vi litmus/protocol/MP-stale-seed.litmus litmus/protocol/MP-shared-cu-fill.litmus \
    -o "$tmp/gpu_vi.json" >/dev/null 2>&1 || echo "FAIL: export gpu_vi"
printf 'workload s2\nkind stream\nlines 2\n' >"$tmp/s2.wl"

# One CU, one warp, one slot (tiny.sys with --sys 'cus_per_gpm 1'): a
# stream of 2 lines: ld A0, st B0, ld A1, st B1, then the CU barrier and
# the release fence.  tiny.sys: L1 2 cycles, L2 10, DRAM 50 (64 bytes a
# cycle: 2 cycles a 128-byte line), links 3 cycles and 1 cycle to
# serialise any message.
#    0 ld A0 misses: Load leaves 2, arrives 2+1+3 = 6; L2 6, DRAM 6..8:
#      LoadResp leaves 6+10+50 = 66, arrives 70; fill: done 72
#   72 st B0 (slot free at 72): done 74; Store arrives 74+1+3 = 78; L2 78,
#      DRAM 78..80, StoreAck leaves 138, arrives 142
#   74 ld A1: Load leaves 76, arrives 80; L2 80, DRAM 80..82: LoadResp
#      leaves 140, after the StoreAck on the FIFO link (free at 139):
#      arrives 144; the StoreAck is served at 142, the fill at 144: done 146
#  146 st B1: done 148; its StoreAck: Store arrives 152, leaves 212,
#      arrives 216
#  148 the fence waits for acks == 0 until 216; the L1 serves the
#      StoreAck at 216 and the fence at 217: done 219.
"$sim" --tables "$tmp/gpu_vi.json" --system $sys --sys 'cus_per_gpm 1' --workload "$tmp/s2.wl" --quiet \
    --json "$tmp/r.json"
check "hand-derived run: 219 cycles, 4 operations, 8 messages, verified" \
    jq -e '.cycles == 219 and .ops == 4 and .messages == 8 and .verified and .complete' "$tmp/r.json"
check "hand-derived run: the fence waited 148..217 for the write-through (table_fence 69)" \
    jq -e '.stalls.table_fence == 69 and .stalls.acquire == 2' "$tmp/r.json"
check "hand-derived run: two L1 misses, four L2 DRAM accesses" \
    jq -e '.controllers.L1.misses == 2 and .controllers.L2.dram == 4' "$tmp/r.json"

# A channel's own port: the requests' link made 10 cycles slower.  The
# critical path above crosses `req` three times (Load A0, Load A1, the
# Store of B1 whose acknowledgement the fence waits for): 219 + 3 x 10.
"$sim" --tables "$tmp/gpu_vi.json" --system $sys --sys 'cus_per_gpm 1' --sys 'channel req latency 13 bandwidth 1000' \
    --workload "$tmp/s2.wl" --quiet --json "$tmp/port.json"
check "a slower request channel: 249 cycles (three crossings on the critical path)" jq -e '.cycles == 249' "$tmp/port.json"

# Edited and unstamped tables are refused, saying what differs.
jq '.content.controllers[0].rows[0].next = "I"' "$tmp/gpu_vi.json" >"$tmp/edited.json"
"$sim" --tables "$tmp/edited.json" --system $sys --workload "$tmp/s2.wl" >"$tmp/out" 2>"$tmp/err"
check "edited tables: exit 2" test $? -eq 2
check "edited tables: the message names the edited controller" grep -q "content.controllers.L1 differs" "$tmp/err"
check "edited tables: nothing on stdout" test ! -s "$tmp/out"
jq 'del(.stamp)' "$tmp/gpu_vi.json" >"$tmp/unstamped.json"
"$sim" --tables "$tmp/unstamped.json" --system $sys --workload "$tmp/s2.wl" >/dev/null 2>"$tmp/err"
check "unstamped tables: exit 2, 'not stamped'" grep -q "not stamped" "$tmp/err"
jq '.verification.checks[0].result = "fail"' "$tmp/gpu_vi.json" >"$tmp/lied.json"
"$sim" --tables "$tmp/lied.json" --system $sys --workload "$tmp/s2.wl" >/dev/null 2>"$tmp/err"
check "an edited verification record is refused too" grep -q "verification differs" "$tmp/err"
"$sim" --unverified --tables "$tmp/edited.json" --system $sys --workload "$tmp/s2.wl" --quiet --json "$tmp/u.json"
check "--unverified runs edited tables and marks the result unverified" jq -e '.verified == false' "$tmp/u.json"
printf '{"format": "scopecheck-tables",\n' >"$tmp/broken.json"
"$sim" --tables "$tmp/broken.json" --system $sys --workload "$tmp/s2.wl" 2>"$tmp/err" >/dev/null
check "a tables file that is not JSON: FILE:LINE:COL: error" grep -qE "broken.json:[0-9]+:[0-9]+: error: " "$tmp/err"

# A system larger than the checks covered needs the protocol's cutoff.
"$bin" export --protocol gpu_vi_unordered litmus/protocol/MP-stale-seed.litmus -o "$tmp/unordered.json" >/dev/null 2>&1
"$sim" --tables "$tmp/unordered.json" --system $sys --sys 'cus_per_gpm 4' --workload "$tmp/s2.wl" >/dev/null 2>"$tmp/err"
check "4 CUs, 2 verified, no SIM_CUTOFF_CU: exit 2 naming the field" \
    grep -q "tiny.sys: cus_per_gpm: the system has 4 CUs; the tables were verified with at most 2" "$tmp/err"
"$sim" --tables "$tmp/gpu_vi.json" --system $sys --sys 'cus_per_gpm 4' --workload "$tmp/s2.wl" --quiet --json "$tmp/c.json"
check "4 CUs with gpu_vi's SIM_CUTOFF_CU=2: runs, and says it assumed the cutoff" \
    jq -e '.verified and any(.assumptions[]; test("SIM_CUTOFF_CU=2"))' "$tmp/c.json"

# Bad configurations and workloads: FILE:LINE:COL or FILE: FIELD, exit 2.
expect_sim_error() { # WHAT PATTERN ARGS...
    local what=$1 pat=$2; shift 2
    "$sim" "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ "$rc" -ne 2 ]; then echo "FAIL: $what (exit $rc, want 2)"; return; fi
    if ! grep -qE -e "$pat" "$tmp/err"; then echo "FAIL: $what (stderr: $(head -n 1 "$tmp/err"))"; return; fi
    echo "PASS: $what"
}
printf 'system x\ncus_per_gpm 2\nl1 latency 2 cache 1K 2 lrux\n' >"$tmp/bad.sys"
expect_sim_error "a bad replacement policy: FILE:3:25" "bad.sys:3:25: error: the replacement policy" \
    --tables "$tmp/gpu_vi.json" --system "$tmp/bad.sys" --workload "$tmp/s2.wl"
printf 'kind stream\nlines 4\nstride 2\n' >"$tmp/bad.wl"
expect_sim_error "an unknown workload parameter: FILE:3:1" "bad.wl:3:1: error: unknown parameter 'stride'" \
    --tables "$tmp/gpu_vi.json" --system $sys --workload "$tmp/bad.wl"
printf 'lines 4\n' >"$tmp/nokind.wl"
expect_sim_error "a parameter before the kind: FILE:1:1" "nokind.wl:1:1: error:" \
    --tables "$tmp/gpu_vi.json" --system $sys --workload "$tmp/nokind.wl"
expect_sim_error "a bad --sys line: --sys:1:1" "^--sys:1:1: error: unknown setting" \
    --tables "$tmp/gpu_vi.json" --system $sys --sys 'warps 3' --workload "$tmp/s2.wl"
printf 'kind histogram\nscope sys\n' >"$tmp/sys.wl"
expect_sim_error "a workload needing rows the tables lack: FILE: kind" "sys.wl: kind: .*rmw.relaxed.sys.*no row" \
    --tables "$tmp/gpu_vi.json" --system $sys --workload "$tmp/sys.wl"
printf 'kind litmus\ntest No-Such-Test\n' >"$tmp/lit.wl"
expect_sim_error "a litmus workload on a test the tables were not checked with" "lit.wl: test: no test 'No-Such-Test'" \
    --tables "$tmp/gpu_vi.json" --system $sys --workload "$tmp/lit.wl"
expect_sim_error "--ideal on a workload that waits on values" "--ideal|ideal mode" \
    --ideal --tables "$tmp/gpu_vi.json" --system $sys --workload models/sim/lock.wl
jq '(.content.controllers[0].rows) |= map(select(.event.kind != "internal"))' "$tmp/gpu_vi.json" >"$tmp/noevict.json"
expect_sim_error "a cache for a controller with no evict row" "tiny.sys: l1: .*no evict row" \
    --unverified --tables "$tmp/noevict.json" --system $sys --workload "$tmp/s2.wl"

# A row the verified tests never reached: exit 1, naming the pair.
jq '(.content.controllers[1].rows) |= map(select(.event.message != "Load"))' "$tmp/gpu_vi.json" >"$tmp/noload.json"
"$sim" --unverified --tables "$tmp/noload.json" --system $sys --workload "$tmp/s2.wl" >/dev/null 2>"$tmp/err"
check "an event with no row: exit 1, 'has no row for recv req.Load'" \
    sh -c "[ $? -eq 1 ] && grep -q 'controller L2 in state V has no row for recv req.Load' '$tmp/err'"

# Deterministic per seed; --max-cycles cuts with exit 3.
for k in 1 2; do
    "$sim" --tables "$tmp/gpu_vi.json" --system $sys --workload models/sim/histogram.wl --seed 7 --quiet --json "$tmp/d$k.json"
done
"$sim" --tables "$tmp/gpu_vi.json" --system $sys --workload models/sim/histogram.wl --seed 8 --quiet --json "$tmp/d3.json"
strip='del(.sim_seconds, .cpu_seconds, .ops_per_second, .messages_per_second)'
check "the same seed gives the same results" test "$(jq -c "$strip" "$tmp/d1.json")" = "$(jq -c "$strip" "$tmp/d2.json")"
check "another seed changes the random bins" test "$(jq -c "$strip" "$tmp/d1.json")" != "$(jq -c "$strip" "$tmp/d3.json")"
"$sim" --tables "$tmp/gpu_vi.json" --system $sys --workload models/sim/histogram.wl --max-cycles 100 --quiet --json "$tmp/m.json"
check "--max-cycles: exit 3, the results say incomplete" \
    sh -c "[ $? -eq 3 ] && jq -e '.complete == false and .incomplete == \"max-cycles\"' '$tmp/m.json' >/dev/null"

# CSV: a header once, then one line per run, as many fields as the header.
rm -f "$tmp/r.csv"
for k in 1 2; do
    "$sim" --tables "$tmp/gpu_vi.json" --system $sys --workload "$tmp/s2.wl" --quiet --csv "$tmp/r.csv"
done
check "CSV: a header and two lines of equal width" \
    sh -c "[ \$(wc -l <'$tmp/r.csv') -eq 3 ] && [ \$(awk -F, '{print NF}' '$tmp/r.csv' | sort -u | wc -l) -eq 1 ] && head -n 1 '$tmp/r.csv' | grep -q '^protocol,verified'"

# Seed 004's direction on a small sharing workload, 4 GPUs: hmg_lite
# (invalidations keep the L2s' remote data across kernels) is faster than
# gpu_vi_multi (each .sys acquire invalidates the GPU's L2), and the
# ideal (no coherence action at all) is faster than both.
multi=(litmus/protocol/MP-sys-2gpu.litmus litmus/protocol/MP-gpu-2gpu.litmus litmus/protocol/MP-shared-cu-fill.litmus)
"$bin" export --protocol gpu_vi_multi "${multi[@]}" -o "$tmp/sw.json" >/dev/null 2>&1
"$bin" export --protocol hmg_lite --const MAXFLUSH=16 "${multi[@]}" -o "$tmp/hmg.json" >/dev/null 2>&1
small=(--system models/sim/hmg4x1.sys --sys 'cus_per_gpm 2' --workload models/sim/sharing.wl --work 'kernels 3' --quiet)
"$sim" --tables "$tmp/sw.json" "${small[@]}" --json "$tmp/sw.r"
"$sim" --tables "$tmp/hmg.json" "${small[@]}" --json "$tmp/hmg.r"
"$sim" --tables "$tmp/sw.json" --ideal "${small[@]}" --json "$tmp/ideal.r"
sw=$(jq .cycles "$tmp/sw.r"); hmg=$(jq .cycles "$tmp/hmg.r"); ideal=$(jq .cycles "$tmp/ideal.r")
check "seed 004's direction: ideal ($ideal) < hmg_lite ($hmg) < gpu_vi_multi ($sw) cycles" \
    test "$ideal" -lt "$hmg" -a "$hmg" -lt "$sw"
check "the ideal run says so and is not a verified execution of the workload" jq -e '.ideal' "$tmp/ideal.r"
