#!/usr/bin/env bash
# End-to-end checks of scopesim on tables and inputs that used to crash it
# or be read wrongly (issue 28, item 8): a home that uses itself (a stack
# overflow, exit 139), a slice count out of the checker's 1..64 (an
# allocation without bound), integers out of int (a message-field index of
# 2^32 read as 0, NSLICE 2^32+1 as 1, a covered CU count of INT64_MAX
# printed as -1), a directory where a file is expected.  Each is refused
# with exit 2, a message naming the field, and nothing on stdout; the
# expected messages follow from the rules in docs/simulator.md and
# docs/tables-format.md, not from a run.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
sim=$(dirname "$bin")/scopesim
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sys=models/sim/tiny.sys
wl=models/sim/stream.wl

"$bin" export --protocol gpu_vi --const NSLICE=2 litmus/protocol/MP-stale-seed.litmus -o "$tmp/vi.json" \
    >/dev/null 2>&1 || echo "FAIL: export gpu_vi"

# refused TABLES REGEX WHAT: exit 2, nothing on stdout, stderr matches REGEX.
refused() {
    local tables=$1 re=$2 what=$3
    "$sim" --tables "$tables" --system $sys --workload $wl --unverified --no-progress >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ] && grep -qE "$re" "$tmp/err"; then
        echo "PASS: $what"
    else
        echo "FAIL: $what (exit $rc, stderr: $(head -c 300 "$tmp/err"))"
    fi
}

# gpu_vi's home `slice = addr % NSLICE`, made to use itself, then two homes
# that use each other.
jq '.content.homes[0].expr = {"op": "home", "home": "slice", "arg": {"op": "addr"}}' "$tmp/vi.json" >"$tmp/self.json"
refused "$tmp/self.json" 'content\.homes\.slice: home slice uses itself' "a home that uses itself is refused, no crash"
jq '.content.homes = [{"name": "slice", "expr": {"op": "home", "home": "other", "arg": {"op": "addr"}}},
                      {"name": "other", "expr": {"op": "home", "home": "slice", "arg": {"op": "addr"}}}]' \
    "$tmp/vi.json" >"$tmp/mutual.json"
refused "$tmp/mutual.json" 'home (slice|other) uses itself' "two homes that use each other are refused, no crash"

# Slices: the checker allows 1..64 (src/protocol/layout.c); 10^8 and
# 2^32+1 (which an int would read as 1) are refused before any allocation.
for n in 100000000 4294967297 0; do
    jq ".content.constants.NSLICE = $n" "$tmp/vi.json" >"$tmp/ns.json"
    refused "$tmp/ns.json" "content\.(controllers|channels)\.[A-Za-z0-9_]+: $n slices; .* 1 to 64 slices" \
        "NSLICE=$n is refused as out of 1..64"
done

# Integers that do not fit an int are refused where they stand.
jq '(.. | objects | select(.op? == "msg" and .index? == 1) | .index) |= 4294967296' "$tmp/vi.json" >"$tmp/idx.json"
refused "$tmp/idx.json" '\.index: 4294967296 is out of range 0\.\.7' "a message-field index of 2^32 is refused, not read as 0"
# (jq reads numbers as doubles: the marker is replaced in the text)
jq '.verification.covered.ncu = 123456789' "$tmp/vi.json" | sed 's/123456789/9223372036854775807/' >"$tmp/cov.json"
refused "$tmp/cov.json" 'verification\.covered\.ncu: 9223372036854775807 is out of range' \
    "a covered CU count of INT64_MAX is refused, not printed as -1"

# A directory where a file is expected: said so.
for opt in tables system workload; do
    args=(--tables "$tmp/vi.json" --system $sys --workload $wl)
    case $opt in
    tables) args[1]=$tmp ;;
    system) args[3]=$tmp ;;
    workload) args[5]=$tmp ;;
    esac
    "$sim" "${args[@]}" --quiet >"$tmp/out" 2>"$tmp/err"
    rc=$?
    check "--$opt DIRECTORY: exit 2, 'is a directory'" test "$rc" -eq 2 -a "$(cat "$tmp/err")" = "$tmp: error: is a directory, not a file"
done

# The man page (issue 28, item 7): every option of --help is in
# man/scopesim.1, and `make install` installs it.
missing=$("$sim" --help | grep -oE '^  --[a-z-]+' | sed 's/^  //' | while read -r o; do
    esc=$(printf '%s' "$o" | sed 's/-/\\-/g')     # --max-cycles is written \-\-max\-cycles
    grep -qF "$esc" man/scopesim.1 || printf '%s ' "$o"
    done)
check "man/scopesim.1 documents every option of --help${missing:+ (missing: $missing)}" test -z "$missing"
check "make install installs man/scopesim.1" grep -qE '^	install -m 644 .*man/scopesim\.1 \$\(MANDIR\)/man1/' Makefile

# Huge or nonsensical system values: a clear error naming the setting,
# before any allocation.  The bounds are docs/simulator.md's (cus_per_gpm
# 1..4096, latencies 0..2^20) and the simulator's largest system (65,536
# CUs, 2^23 threads): 64 GPUs x 64 GPMs x 4096 CUs = 16,777,216 CUs.
sysref() { # WHAT REGEX --sys LINES...: exit 2, nothing on stdout, stderr matches
    local what=$1 re=$2; shift 2
    "$sim" --tables "$tmp/vi.json" --system $sys --workload $wl --unverified --quiet "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ] && grep -qE "$re" "$tmp/err"; then
        echo "PASS: $what"
    else
        echo "FAIL: $what (exit $rc, stderr: $(head -c 300 "$tmp/err"))"
    fi
}
sysref "0 CUs per GPM: refused at its column" "^--sys:1:13: error: '0' is not an integer in 1\.\.4096" --sys 'cus_per_gpm 0'
sysref "a negative latency: refused" "^--sys:1:12: error: '-5' is not an integer in 0\.\." --sys 'l1 latency -5'
sysref "10^9 CUs per GPM: refused" "^--sys:1:13: error: '1000000000' is not an integer in 1\.\.4096" \
    --sys 'cus_per_gpm 1000000000'
sysref "16,777,216 CUs: refused as larger than the simulator takes, no allocation" \
    '^models/sim/tiny\.sys: system: 16777216 CUs .* at most 65536 CUs and 8388608 threads' \
    --sys 'gpus 64' --sys 'gpms_per_gpu 64' --sys 'cus_per_gpm 4096'
# found by fuzz_sim (tests/fuzz/crashes/sim/system-cache-128G.sys): a cache
# of 128G of 128-byte lines is 2^30 frames per instance, past 2^22.
sysref "a cache of 128G per L1: refused as larger than the simulator takes, no allocation" \
    '^models/sim/tiny\.sys: l1: a cache of 1073741824 lines per instance \(2 instances\), more than the simulator takes' \
    --sys 'l1 latency 20 cache 128G 4 lru'
