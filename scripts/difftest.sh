#!/usr/bin/env bash
# difftest.sh N SEED [BIN]: differential testing of scopecheck against itself
# along paths that share no code where it matters (docs/difftest.md).
#
# Generates N random PTX tests (scopecheck gen, seeded: the same N and SEED
# give the same tests) and checks the pairs that must agree:
#   sc-vs-sc_memory  the sc model's outcomes equal those of the operational
#                    SC memory (models/sc_memory.proto), explored state by state
#   P-in-ptx6        every outcome of protocol P (default gpu_vi; DIFFTEST_PROTOCOLS
#                    may add gpu_vi_multi hmg_lite, 40 times slower) that can
#                    run the test is allowed by ptx6
#   ptx75-eq-ptx6    ptx75 and ptx6 give the same outcomes (no proxies here)
#   drf-sc           a test that hrf-direct finds race-free has exactly the SC outcomes
#   opencl-frontends the PTX test and its OpenCL translation (scopecheck convert)
#                    have the same outcomes under the opencl model
# Every disagreement is shrunk (scopecheck shrink) to a small test, printed
# with the command that reproduces it, and the script exits 1.  The last line
# says how many tests and checks ran and the tests per second.
# A test that a check cannot run (a limit of the enumerator, a value or
# scope the protocol cannot hold, no exact OpenCL form) is counted as
# skipped for that check, never as agreement.
# Environment: DIFFTEST_BATCH (tests per batch, default 500), DIFFTEST_KEEP=DIR
# (where disagreeing tests are kept, shrunk; default out/difftest/SEED),
# DIFFTEST_PROTOCOLS (the protocols checked against ptx6, default gpu_vi),
# DIFFTEST_TIMEOUT (seconds per test and run, default 10; fractions allowed),
# DIFFTEST_FIRST (the index of the first test, default 0: a long run can be
# split into segments that together cover 0..N-1 of one seed),
# DIFFTEST_PROGRESS=1 (a line on stderr after each batch), DIFFTEST_GEN
# (`scopecheck gen` options,
# default "--ops 3": small tests, so that hundreds run in seconds).
set -u
if [ $# -lt 2 ]; then
    echo "usage: difftest.sh N SEED [PATH/TO/scopecheck]" >&2
    exit 2
fi
count=$1 seed=$2
for n in "count N:$count" "SEED:$seed" "DIFFTEST_FIRST:${DIFFTEST_FIRST:-0}" "DIFFTEST_BATCH:${DIFFTEST_BATCH:-500}"; do
    case ${n#*:} in
    '' | *[!0-9]*) echo "difftest.sh: ${n%%:*} must be a non-negative integer, not '${n#*:}'" >&2; exit 2 ;;
    esac
done
[ "${DIFFTEST_BATCH:-500}" -gt 0 ] || { echo "difftest.sh: DIFFTEST_BATCH must be positive" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${3:-$root/bin/scopecheck}
[ -x "$bin" ] || { echo "difftest.sh: no scopecheck at $bin (run make)" >&2; exit 2; }
command -v jq >/dev/null || { echo "difftest.sh: needs jq (scripts/install-deps.sh)" >&2; exit 2; }
cd "$root" || exit 2
batch=${DIFFTEST_BATCH:-500}
read -r -a protocols <<<"${DIFFTEST_PROTOCOLS:-gpu_vi}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A protocol's values must hold every value a generated test can compute.
maxv=(--const MAXV=15)
# Seconds per test and tool: a test cut there has no established result and
# is counted out of that check (never as agreement).
limit=${DIFFTEST_TIMEOUT:-10}

# ---- outcome sets as canonical JSON, one "TEST<TAB>SET" line per test ---------------

# A set of final states as a sorted JSON array of "P0:r0=1 x=2" strings.
canon='map(to_entries | sort_by(.key) | map("\(.key)=\(.value)") | join(" ")) | sort | tojson'

differ() { # NAME_A SET_A NAME_B SET_B: the states on one side only
    jq -rn --argjson a "$2" --argjson b "$4" --arg na "$1" --arg nb "$3" \
        '"\($na) only: \(($a - $b) | map("{" + . + "}") | join(" ") | if . == "" then "-" else . end); " +
         "\($nb) only: \(($b - $a) | map("{" + . + "}") | join(" ") | if . == "" then "-" else . end)"'
}

litmus_sets() { # MODEL FILES...: states of each test under MODEL
    local model=$1
    shift
    "$bin" litmus --model "$model" --timeout "$limit" --json "$@" 2>/dev/null |
        jq -r "select(.test and .complete != false) | [.test, (.states | $canon), (.flags | length | tostring)] | @tsv"
}

verify_sets() { # PROTOCOL MODEL FILES...: protocol and model outcomes, soundness
    local proto=$1 model=$2
    shift 2
    "$bin" verify --protocol "$proto" --model "$model" "${maxv[@]}" --timeout "$limit" --json "$@" 2>/dev/null |
        jq -r "select(.test) | [.test, (.protocol_outcomes | $canon), (.model_outcomes | $canon),
               (.sound | tostring), (.complete | tostring)] | @tsv"
}

# ---- one check on one file: 0 when it disagrees (for the shrinker) --------------------

disagrees() { # CHECK FILE
    local check=$1 f=$2 a b
    case $check in
    sc-vs-sc_memory)
        a=$(verify_sets sc_memory sc "$f")
        [ -n "$a" ] && [ "$(cut -f2 <<<"$a")" != "$(cut -f3 <<<"$a")" ] && [ "$(cut -f5 <<<"$a")" = true ] ;;
    *-in-ptx6)
        a=$(verify_sets "${check%-in-ptx6}" ptx6 "$f")
        [ -n "$a" ] && [ "$(cut -f4 <<<"$a")" = false ] && [ "$(cut -f5 <<<"$a")" = true ] ;;
    ptx75-eq-ptx6)
        a=$(litmus_sets ptx6 "$f" | cut -f2); b=$(litmus_sets ptx75 "$f" | cut -f2)
        [ -n "$a" ] && [ "$a" != "$b" ] ;;
    drf-sc)
        a=$(litmus_sets hrf-direct "$f"); b=$(litmus_sets sc "$f" | cut -f2)
        [ -n "$a" ] && [ "$(cut -f3 <<<"$a")" = 0 ] && [ "$(cut -f2 <<<"$a")" != "$b" ] ;;
    opencl-frontends)
        "$bin" convert --to opencl "$f" >"$work/shrink.ocl.litmus" 2>/dev/null || return 1
        a=$(litmus_sets opencl "$f" | cut -f2); b=$(litmus_sets opencl "$work/shrink.ocl.litmus" | cut -f2)
        [ -n "$a" ] && [ "$a" != "$b" ] ;;
    esac
}

shrink() { # CHECK FILE: reduces FILE in place while the disagreement persists
    local check=$1 f=$2 k progress=true
    while $progress; do
        progress=false
        k=0
        while "$bin" shrink "$f" $k >"$work/cand.litmus" 2>/dev/null; do
            if disagrees "$check" "$work/cand.litmus"; then
                cp "$work/cand.litmus" "$f"
                progress=true
                break
            fi
            k=$((k + 1))
        done
    done
}

reproduce_cmd() { # CHECK FILE
    case $1 in
    sc-vs-sc_memory) echo "scopecheck verify --protocol sc_memory --model sc --complete ${maxv[*]} $2" ;;
    *-in-ptx6) echo "scopecheck verify --protocol ${1%-in-ptx6} --model ptx6 ${maxv[*]} $2" ;;
    ptx75-eq-ptx6) echo "scopecheck litmus --model ptx6 $2; scopecheck litmus --model ptx75 $2" ;;
    drf-sc) echo "scopecheck litmus --model hrf-direct $2; scopecheck litmus --model sc $2" ;;
    opencl-frontends) echo "scopecheck convert --to opencl $2 > t.cl.litmus; scopecheck litmus --model opencl $2 t.cl.litmus" ;;
    esac
}

report() { # CHECK TEST DETAIL
    local check=$1 test=$2 detail=$3 f="$work/ptx/$2.litmus"
    local keep=${DIFFTEST_KEEP:-$root/out/difftest/$seed}
    mkdir -p "$keep"
    cp "$f" "$keep/$test.litmus"
    shrink "$check" "$keep/$test.litmus"
    echo "DISAGREE $check $test: $detail"
    echo "  shrunk to $keep/$test.litmus; reproduce: $(reproduce_cmd "$check" "$keep/$test.litmus")"
    sed 's/^/  | /' "$keep/$test.litmus"
    disagreements=$((disagreements + 1))
}

# ---- one batch ---------------------------------------------------------------------------

run_batch() { # FIRST COUNT
    local first=$1 n=$2
    rm -rf "$work/ptx" "$work/ocl"
    mkdir -p "$work/ptx" "$work/ocl"
    # shellcheck disable=SC2086
    "$bin" gen --seed "$seed" --first "$first" --count "$n" ${DIFFTEST_GEN:---ops 3} -o "$work/ptx" || exit 2
    local files=("$work"/ptx/*.litmus)
    "$bin" convert --to opencl -o "$work/ocl" "${files[@]}" 2>/dev/null
    litmus_sets sc "${files[@]}" | sort >"$work/sc"
    litmus_sets ptx6 "${files[@]}" | sort >"$work/ptx6"
    litmus_sets ptx75 "${files[@]}" | sort >"$work/ptx75"
    litmus_sets hrf-direct "${files[@]}" | sort >"$work/hrf"
    litmus_sets opencl "${files[@]}" | sort >"$work/opencl-ptx"
    litmus_sets opencl "$work"/ocl/*.litmus | sort >"$work/opencl-ocl"
    verify_sets sc_memory sc "${files[@]}" | sort >"$work/scmem"
    local i
    for i in "${!protocols[@]}"; do
        verify_sets "${protocols[$i]}" ptx6 "${files[@]}" | sort >"$work/proto$i"
    done

    local test p m sound complete s flags
    while IFS=$'\t' read -r test p m sound complete; do
        [ "$complete" = true ] || continue
        ran[scmem]=$((ran[scmem] + 1))
        [ "$p" != "$m" ] && report sc-vs-sc_memory "$test" "$(differ sc_memory "$p" sc "$m")"
    done <"$work/scmem"
    for i in "${!protocols[@]}"; do
        local proto=${protocols[$i]}
        while IFS=$'\t' read -r test p m sound complete; do
            [ "$complete" = true ] || continue
            ran[proto$i]=$((${ran[proto$i]:-0} + 1))
            [ "$sound" = false ] && report "$proto-in-ptx6" "$test" "$(differ "$proto" "$p" ptx6 "$m")"
        done <"$work/proto$i"
    done
    local s75 f6 f75 ssc fsc socl fptx
    while IFS=$'\t' read -r test s f6 s75 f75; do
        ran[ptx75]=$((ran[ptx75] + 1))
        [ "$s" != "$s75" ] && report ptx75-eq-ptx6 "$test" "$(differ ptx6 "$s" ptx75 "$s75")"
    done < <(join -t $'\t' "$work/ptx6" "$work/ptx75")
    while IFS=$'\t' read -r test s flags ssc fsc; do
        [ "$flags" = 0 ] || continue
        ran[drf]=$((ran[drf] + 1))
        [ "$s" != "$ssc" ] && report drf-sc "$test" "race-free under hrf-direct; $(differ hrf-direct "$s" sc "$ssc")"
    done < <(join -t $'\t' "$work/hrf" "$work/sc")
    while IFS=$'\t' read -r test socl flags s fptx; do
        ran[opencl]=$((ran[opencl] + 1))
        [ "$socl" != "$s" ] && report opencl-frontends "$test" "$(differ "OpenCL text" "$socl" "PTX text" "$s")"
    done < <(join -t $'\t' "$work/opencl-ocl" "$work/opencl-ptx")
    tests=$((tests + n))
}

tests=0 disagreements=0
declare -A ran=([scmem]=0 [ptx75]=0 [drf]=0 [opencl]=0)
start=$(date +%s.%N)
start_at=${DIFFTEST_FIRST:-0}
for ((first = start_at; first < start_at + count; first += batch)); do
    n=$((start_at + count - first < batch ? start_at + count - first : batch))
    run_batch "$first" "$n"
    if [ "${DIFFTEST_PROGRESS:-0}" = 1 ]; then
        echo "difftest: tests $start_at..$((first + n - 1)) done, $disagreements disagreements, $(date -u +%H:%M:%S)" >&2
    fi
done
secs=$(echo "$(date +%s.%N) - $start" | bc)
rate=$(echo "scale=1; $tests / $secs" | bc)
checks=0 per_protocol=""
for k in "${!ran[@]}"; do checks=$((checks + ran[$k])); done
for i in "${!protocols[@]}"; do per_protocol+="${protocols[$i]}-in-ptx6 ${ran[proto$i]:-0}, "; done
echo "difftest: checks run (of $tests tests; the rest could not run that check):" \
    "sc-vs-sc_memory ${ran[scmem]}, ${per_protocol}ptx75-eq-ptx6 ${ran[ptx75]}," \
    "drf-sc ${ran[drf]} (race-free tests), opencl-frontends ${ran[opencl]}"
echo "difftest: $tests tests (seed $seed, from $start_at), $checks checks, $disagreements disagreements, $(printf "%.0f" "$secs") s, $rate tests/s"
[ "$disagreements" -eq 0 ]
