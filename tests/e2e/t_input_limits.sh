#!/usr/bin/env bash
# End-to-end checks of the input limits (docs/limits.md; t_limits.sh checks
# litmus runs cut by --timeout and --max-memory): long chains are
# run, not refused, and give the verdicts of short models or conditions
# that mean the same (derived by hand below); nesting past a limit, files
# that never end or are not files, and input errors found late are
# reported as FILE:LINE:COL: error: with exit status 2.  The deep inputs are
# generated here; each runs on a 1 MiB stack, under a timeout, so that a
# recursion as deep as the input, or a read without end, fails the check.
# $1: the scopecheck binary.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rep() { awk -v n="$2" -v s="$1" 'BEGIN { for (i = 0; i < n; i++) printf "%s", s }'; }
small() { (ulimit -s 1024 && timeout 60 "$@"); }

# refused WHAT POSITION REGEX CMD...: exit status 2, nothing on stdout, and
# the first line of stderr is POSITION: error: MESSAGE, MESSAGE matching REGEX.
refused() {
    local what=$1 pos=$2 re=$3 rc line
    shift 3
    small "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    line=$(head -n 1 "$tmp/err")
    if [ "$rc" -ne 2 ]; then echo "FAIL: $what (exit status $rc, want 2: $line)"; return; fi
    if [ -s "$tmp/out" ]; then echo "FAIL: $what (stdout not empty)"; return; fi
    case $line in
        "$pos: error: "*) ;;
        *) echo "FAIL: $what (stderr '$line', want '$pos: error: ...')"; return ;;
    esac
    if ! grep -qE -e "$re" <<<"$line"; then echo "FAIL: $what (stderr '$line' does not match /$re/)"; return; fi
    echo "PASS: $what"
}

normal() {
    grep -vE '^(Time|Condition) |^(seconds|states/s|peak RSS MiB):' "$1" | sed -E 's/"(time_us|file|model|hash)":("[^"]*"|[0-9.]*)//g'
}

# same_output WHAT CMD_A -- CMD_B: both exit 0 and print the same lines,
# but for the timing, the condition's text, the file and model names and
# the test's digest ("hash": herd7's digest of the program text).
same_output() {
    local what=$1
    shift
    local a=() b=()
    while [ "$1" != -- ]; do a+=("$1"); shift; done
    shift
    b=("$@")
    small "${a[@]}" >"$tmp/a" 2>"$tmp/a.err" || { echo "FAIL: $what (first command: $(head -1 "$tmp/a.err"))"; return; }
    small "${b[@]}" >"$tmp/b" 2>"$tmp/b.err" || { echo "FAIL: $what (second command: $(head -1 "$tmp/b.err"))"; return; }
    if diff <(normal "$tmp/a") <(normal "$tmp/b") >/dev/null; then
        echo "PASS: $what"
    else
        echo "FAIL: $what (outputs differ)"
    fi
}

T=litmus/ptx/MP-relacq-gpu.litmus
T2=litmus/ptx/SB-fence-sc-gpu.litmus
[ -f "$T2" ] || T2=$(ls litmus/ptx/*.litmus | sed -n 2p)

# ---- 1. chains of any length run; nesting is bounded ------------------------
# Each long model has the same title as its short equivalent, so that the
# two outputs can be compared line by line.
model() { # FILE BODY: a model "m" whose relation `a` must be acyclic
    { echo '"m"'; printf '%s\n' "$2"; echo 'acyclic po | rf | fr | co as sc-like'; echo 'acyclic a as chain'; } >"$1"
}
model "$tmp/short-po.cat" "let a = po"
model "$tmp/short-empty.cat" "let a = 0"
# po | po | ... (100,000 terms) is po
model "$tmp/union.cat" "let a = po$(rep ' | po' 99999)"
# po & po & ... is po
model "$tmp/inter.cat" "let a = po$(rep ' & po' 19999)"
# po \ po \ ... is empty (po \ po = 0, and 0 \ po = 0)
model "$tmp/diff.cat" "let a = po$(rep ' \ po' 19999)"
# po ; po ; ... (20,000 terms) relates events 19,999 po-steps apart: none
model "$tmp/seq.cat" "let a = po$(rep ' ; po' 19999)"
# (po^-1)^-1 ... an even number of inverses is po
model "$tmp/inv.cat" "let a = po$(rep '^-1' 20000)"
for t in "$T" "$T2"; do
    same_output "cat: 100,000 terms joined by | give po's verdict ($(basename "$t"))" \
        "$bin" litmus --model "$tmp/union.cat" "$t" -- "$bin" litmus --model "$tmp/short-po.cat" "$t"
done
same_output "cat: 20,000 terms joined by & give po's verdict" \
    "$bin" litmus --model "$tmp/inter.cat" "$T" -- "$bin" litmus --model "$tmp/short-po.cat" "$T"
same_output "cat: 20,000 terms joined by \\ give 0's verdict" \
    "$bin" litmus --model "$tmp/diff.cat" "$T" -- "$bin" litmus --model "$tmp/short-empty.cat" "$T"
same_output "cat: 20,000 terms joined by ; give 0's verdict" \
    "$bin" litmus --model "$tmp/seq.cat" "$T" -- "$bin" litmus --model "$tmp/short-empty.cat" "$T"
same_output "cat: 20,000 postfix ^-1 give po's verdict" \
    "$bin" litmus --model "$tmp/inv.cat" "$T" -- "$bin" litmus --model "$tmp/short-po.cat" "$T"
# 256 parentheses: the whole expression is level 1, the 256th parenthesis
# opens level 257; the error is at the token after it: column 9 + 256
model "$tmp/nest.cat" "let a = $(rep '(' 50000)po$(rep ')' 50000)"
refused "cat: 50,000 nested parentheses" "$tmp/nest.cat:2:265" "nested too deeply" \
    "$bin" litmus --model "$tmp/nest.cat" "$T"

# Protocols: the final predicate of gpu_vi with 100,000 `+ 0` gives the
# same result as gpu_vi; 50,000 parentheses or 100,000 `!` are refused at
# the 256th (the predicate starts at column 7 of its line).
P=models/gpu_vi.proto    # by path: errors name it so
fl=$(grep -n '^final acks == 0$' "$P" | cut -d: -f1)
with_final() { # PREDICATE FILE (the predicate may be longer than an argument may be)
    printf '%s\n' "$1" >"$2.final"
    awk -v f="$2.final" 'BEGIN { getline r <f } $0 == "final acks == 0" { print "final " r; next } { print }' "$P" >"$2"
}
with_final "acks$(rep ' + 0' 100000) == 0" "$tmp/plus.proto"
with_final "$(rep '(' 50000)acks == 0$(rep ')' 50000)" "$tmp/paren.proto"
with_final "$(rep '!' 100000)acks" "$tmp/not.proto"
sed 's/^protocol gpu_vi$/protocol gpu_vi/' "$P" >"$tmp/same.proto"
same_output "protocol: a chain of 100,000 + gives gpu_vi's result" \
    "$bin" verify --protocol "$tmp/plus.proto" litmus/protocol/MP-release.litmus -- \
    "$bin" verify --protocol "$tmp/same.proto" litmus/protocol/MP-release.litmus
refused "protocol: 50,000 nested parentheses" "$tmp/paren.proto:$fl:263" "nested too deeply" \
    "$bin" verify --protocol "$tmp/paren.proto" litmus/protocol/MP-release.litmus
refused "protocol: 100,000 prefix !" "$tmp/not.proto:$fl:262" "nested too deeply" \
    "$bin" verify --protocol "$tmp/not.proto" litmus/protocol/MP-release.litmus

# Litmus conditions: x=1 /\ x=1 /\ ... (100,000) means x=1; OpenCL fence
# flags A | A | ... (40,000) mean A.
cond_test() { # FILE CONDITION
    printf 'PTX chain\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (%s)\n' "$2" >"$1"
}
cond_test "$tmp/and.litmus" "x=1$(rep ' /\ x=1' 99999)"
cond_test "$tmp/and1.litmus" "x=1"
same_output "litmus: a condition of 100,000 terms joined by /\\ (JSON)" \
    "$bin" litmus --json "$tmp/and.litmus" -- "$bin" litmus --json "$tmp/and1.litmus"
cond_test "$tmp/or.litmus" "x=0$(rep ' \/ x=0' 99999)"
cond_test "$tmp/or1.litmus" "x=0"
same_output "litmus: a condition of 100,000 terms joined by \\/ (JSON)" \
    "$bin" litmus --json "$tmp/or.litmus" -- "$bin" litmus --json "$tmp/or1.litmus"
ocl() { # FILE FLAGS
    printf 'OPENCL flags\n{\n[x] = 0;\n}\n\nP0@wg 0, dev 0 (global atomic_int* x) {\n  work_group_barrier(%s);\n  atomic_store(x, 1);\n}\n\nexists (x=1)\n' "$2" >"$1"
}
ocl "$tmp/flags.litmus" "CLK_GLOBAL_MEM_FENCE$(rep ' | CLK_GLOBAL_MEM_FENCE' 39999)"
ocl "$tmp/flag1.litmus" "CLK_GLOBAL_MEM_FENCE"
same_output "litmus: OpenCL fence flags joined by | 40,000 times" \
    "$bin" litmus --model opencl --json "$tmp/flags.litmus" -- "$bin" litmus --model opencl --json "$tmp/flag1.litmus"

# 1025 locations observed: the 1025th term (line 7; "exists (" is 8
# characters, each further term " /\ lNNNN=0" 11, so column 9 + 1024 * 11)
terms=$(awk 'BEGIN { for (i = 0; i < 1025; i++) printf "%sl%04d=0", i ? " /\\ " : "", i }')
cond_test "$tmp/many.litmus" "$terms"
refused "litmus: 1025 observed locations" "$tmp/many.litmus:7:11273" "more than 1024 registers and locations observed" \
    "$bin" litmus "$tmp/many.litmus"
# 17 includes inside one another: i0 includes i1 ... i16 includes i17; the
# 17th include (in i16.cat, line 2, column 9) is refused
for i in $(seq 0 17); do printf '"i%d"\ninclude "i%d.cat"\n' "$i" $((i + 1)) >"$tmp/i$i.cat"; done
echo 'acyclic po' >"$tmp/i18.cat"
refused "cat: includes nested 17 deep" "$tmp/i16.cat:2:9" "includes nested too deeply \(more than 16\)" \
    "$bin" litmus --model "$tmp/i0.cat" "$T"

# export: a chain of operators (kept flat by the parser) is exported as the
# nested binary nodes docs/tables-format.md describes; the reference is the
# same guard with every link in parentheses, which the parser reads as
# nested binary nodes: ((acks == 0) && (loads == 0)) && (acq == 0) is how
# `acks == 0 && loads == 0 && acq == 0` folds from the left.  Same file
# name in two folders, so that the contents can be compared whole.
mkdir -p "$tmp/xc" "$tmp/xn"
cp "$P" "$tmp/xc/gpu_vi.proto"
sed 's/| acks == 0 && loads == 0 && acq == 0 |/| ((acks == 0) \&\& (loads == 0)) \&\& (acq == 0) |/' "$P" >"$tmp/xn/gpu_vi.proto"
if ! cmp -s "$tmp/xc/gpu_vi.proto" "$tmp/xn/gpu_vi.proto" &&
    small "$bin" export --protocol "$tmp/xc/gpu_vi.proto" litmus/protocol/MP-release.litmus -o "$tmp/xc/t.json" >/dev/null 2>&1 &&
    small "$bin" export --protocol "$tmp/xn/gpu_vi.proto" litmus/protocol/MP-release.litmus -o "$tmp/xn/t.json" >/dev/null 2>&1 &&
    cmp -s <(jq -S .content "$tmp/xc/t.json") <(jq -S .content "$tmp/xn/t.json"); then
    echo "PASS: export: a chain of && is the left-folded tree its parenthesised form gives"
else
    echo "FAIL: export: a chain of && differs from its parenthesised form"
fi

# ---- 2. every reader: regular files or pipes, of bounded size ----------------
refused "litmus: /dev/zero" "/dev/zero:1:1" "not a regular file" "$bin" litmus /dev/zero
refused "--model /dev/zero" "/dev/zero:1:1" "not a regular file" "$bin" litmus --model /dev/zero "$T"
refused "--protocol /dev/zero" "/dev/zero:1:1" "not a regular file" \
    "$bin" verify --protocol /dev/zero litmus/protocol/MP-release.litmus
refused "--model DIRECTORY" "$tmp:1:1" "not a regular file \(a directory\)" "$bin" litmus --model "$tmp" "$T"
printf '"inc"\ninclude "/dev/zero"\n' >"$tmp/inc.cat"
refused "cat: include \"/dev/zero\"" "$tmp/inc.cat:2:9" "cannot read included file '/dev/zero': not a regular file" \
    "$bin" litmus --model "$tmp/inc.cat" "$T"
printf 'protocol v extends "/dev/zero"\n' >"$tmp/ext.proto"
refused "protocol: extends \"/dev/zero\"" "$tmp/ext.proto:1:20" "not a regular file" \
    "$bin" verify --protocol "$tmp/ext.proto" litmus/protocol/MP-release.litmus
# a model of 4 MiB + 1 byte (the limit is 4 MiB)
{ echo '"big"'; yes '(* padding *)' | head -c 4194400; echo 'acyclic po'; } >"$tmp/big.cat"
refused "cat: a model over 4 MiB" "$tmp/big.cat:1:1" "file too large \(more than 4194304 bytes\)" \
    "$bin" litmus --model "$tmp/big.cat" "$T"
# a named pipe nobody writes to is an empty file, not a wait for ever
mkfifo "$tmp/fifo.litmus"
refused "litmus: a named pipe with no writer" "$tmp/fifo.litmus:1:1" "empty file" "$bin" litmus "$tmp/fifo.litmus"
# an anonymous pipe (a shell's <(...)) is read
check "--model from a pipe" bash -c "\"$bin\" litmus --model <(cat models/sc.cat) $T >/dev/null"

# directories: a symbolic link back up the tree is followed once, not for
# ever (d holds one test and d/loop -> d: the test is checked once); 33
# nested directories are past the 32 levels read, with an error naming the
# 33rd (the argument is level 0, so ARG/d1/.../d33 is level 33)
mkdir -p "$tmp/loop/d"
cp "$T" "$tmp/loop/d/a.litmus"
ln -s .. "$tmp/loop/d/up"
small "$bin" litmus "$tmp/loop" >"$tmp/out" 2>"$tmp/err"
rc=$?
n=$(grep -c '^Test ' "$tmp/out")
if [ "$rc" -eq 0 ] && [ "$n" -eq 1 ]; then echo "PASS: litmus: a directory with a symbolic link loop (one test, checked once)"
else echo "FAIL: litmus: a directory with a symbolic link loop (exit status $rc, $n tests checked)"; fi
deep=$tmp/deep
for i in $(seq 1 33); do deep=$deep/d$i; done
mkdir -p "$deep"
cp "$T" "$deep/a.litmus"
small "$bin" litmus "$tmp/deep" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q "d33: error: directories nested too deeply (more than 32 levels)" "$tmp/err"; then
    echo "PASS: litmus: directories 33 levels deep refused at the 33rd"
else echo "FAIL: litmus: directories 33 levels deep (exit status $rc: $(head -1 "$tmp/err"))"; fi

# ---- 4. input errors reported as errors, where they are ---------------------
# home slice = addr % 0: every send to the L2 was disabled and the search
# reported a deadlock (Result Fail); now an error at the home's name
hl=$(grep -n '^home slice = addr % NSLICE' "$P" | cut -d: -f1)
sed 's/^home slice = addr % NSLICE/home slice = addr % 0/' "$P" >"$tmp/div0.proto"
refused "protocol: home slice = addr % 0" "$tmp/div0.proto:$hl:6" "home slice of location .* divides by zero" \
    "$bin" verify --protocol "$tmp/div0.proto" litmus/protocol/MP-release.litmus
# NSLICE=0: the L2 (`controller L2 sliced NSLICE`) has no slice, at its name
ll=$(grep -n '^controller L2 sliced NSLICE' "$P" | cut -d: -f1)
refused "protocol: --const NSLICE=0" "$P:$ll:12" "controller L2: 0 slices, not in 1..64" \
    "$bin" verify --protocol "$P" --const NSLICE=0 litmus/protocol/MP-release.litmus
# channel capacity out of range: at the channel's name (`channel req ...`)
cl=$(grep -n '^channel req ' "$P" | cut -d: -f1)
refused "protocol: capacity 0 (--const CAP=0)" "$P:$cl:9" "channel req: capacity 0 is not in 1..64" \
    "$bin" verify --protocol "$P" --const CAP=0 litmus/protocol/MP-release.litmus
# a missing base: at the extends line's file name (column 20)
printf 'protocol v extends "nope.proto"\n' >"$tmp/miss.proto"
refused "protocol: a missing extends file" "$tmp/miss.proto:1:20" "cannot read the base protocol .*nope.proto" \
    "$bin" verify --protocol "$tmp/miss.proto" litmus/protocol/MP-release.litmus
# a NUL byte: at its position (line 2, column 4)
printf 'protocol t\nval\0ue 0..1\n' >"$tmp/nul.proto"
refused "protocol: a NUL byte" "$tmp/nul.proto:2:4" "NUL byte" \
    "$bin" verify --protocol "$tmp/nul.proto" litmus/protocol/MP-release.litmus

# a libFuzzer crash input of the protocol harness (tests/fuzz/crashes/
# protocol/, replayed under the sanitizers by make test; docs/fuzzing.md):
# a variant of gpu_vi_multi whose row sends MemLoad(addr, cu == cond(...)
# == ... ) followed by 78 unmatched ')'.  MemLoad has 3 fields (addr, cu,
# gpu: gpu_vi_multi.proto's `message MemLoad`) and 2 arguments are given;
# the error is at the ')' that closes the call: line 7, where the last
# `cond(1, 2, 3` ends at column 153, its ')' is column 154, the call's 155.
mkdir -p "$tmp/fz/mutants"
cp models/gpu_vi_multi.proto "$tmp/fz/"
cp tests/fuzz/crashes/protocol/crash-a433ad07b8f653567e57d1474a287742c085b9ae "$tmp/fz/mutants/c.proto"
refused "protocol: fuzz input crash-a433ad07 (a call of too few fields, then 78 stray ')')" \
    "$tmp/fz/mutants/c.proto:7:155" "message MemLoad has 3 fields, 2 given" \
    "$bin" verify --protocol "$tmp/fz/mutants/c.proto" litmus/protocol/MP-release.litmus

# option values that overflow are refused, not wrapped to a small limit
opt_refused() { # WHAT REGEX CMD...
    local what=$1 re=$2
    shift 2
    small "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ] && grep -qE -e "$re" "$tmp/err"; then
        echo "PASS: $what"
    else
        echo "FAIL: $what (exit status $rc: $(head -1 "$tmp/err"))"
    fi
}
opt_refused "--max-memory 99999999999999G" "^scopecheck verify: error: --max-memory .99999999999999G. is too large" \
    "$bin" verify --protocol gpu_vi --max-memory 99999999999999G litmus/protocol/MP-release.litmus
opt_refused "--max-states 18446744073709551616" "^scopecheck verify: error: --max-states" \
    "$bin" verify --protocol gpu_vi --max-states 18446744073709551616 litmus/protocol/MP-release.litmus
opt_refused "--const CAP=99999999999" "^scopecheck verify: error: --const takes NAME=NUMBER" \
    "$bin" verify --protocol gpu_vi --const CAP=99999999999 litmus/protocol/MP-release.litmus
opt_refused "--const NOPE=1: at the protocol line" "models/gpu_vi.proto:[0-9]+:1: error: --const NOPE: protocol gpu_vi declares no such constant" \
    "$bin" verify --protocol "$P" --const NOPE=1 litmus/protocol/MP-release.litmus
opt_refused "--max-memory 1: the search cannot store its first state" "--max-memory 1 bytes is too small" \
    "$bin" verify --protocol gpu_vi --max-memory 1 litmus/protocol/MP-release.litmus
exit 0
