#!/usr/bin/env bash
# End-to-end checks of `verify --trace full` (docs/counterexamples.md): the
# whole state at step 0, the table row that fired under each step (checked
# against the table file's own text at that line), only the fields a step
# changed, what invalidate_all dropped, and why a deadlock state is stuck.
# Expected values are derived by hand from models/gpu_vi.proto's rows; the
# derivations are in the comments.  $1: the scopecheck binary.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mp=litmus/protocol/MP-stale-seed.litmus
mutant=models/mutants/gpu_vi_no_acquire_inval.proto

"$bin" verify --trace full --protocol "$mutant" "$mp" >"$tmp/full" 2>"$tmp/err"
rc=$?
check "--trace full: exit 1 (the mutant is unsound)" test "$rc" -eq 1
# The first trace only (the unsound outcome's).
awk '/^Trace$/ {t++; next} t == 1 && /^[A-Za-z]/ {exit} t == 1' "$tmp/full" >"$tmp/t1"

# Step 0: gpu_vi on MP (2 threads, 2 CUs, locations x and y, one L2 slice,
# channels req and resp per CU): 2 threads + 2 L1 instances + 4 L1 lines +
# 2 L2 lines + 4 channel instances = 14 component lines before step 1.
n0=$(awk '/^  0: initial state$/ {s=1; next} /^  1: / {s=0} s' "$tmp/t1" | wc -l)
check "step 0 lists the whole state: 14 component lines (got $n0)" test "$n0" -eq 14
check "step 0: a thread, its pc and instruction, its registers" \
    grep -qx '      P1: pc = 0 (ld.weak r0, x), waiting = no, r0 = 0, r1 = 0, r2 = 0' "$tmp/t1"
check "step 0: a controller instance's variables" grep -qx '      L1 (CU 0): acks = 0, loads = 0, acq = 0' "$tmp/t1"
check "step 0: a line with its state and fields" grep -qx '      L1 (CU 1) \[y\]: state = I, val = 0, pend = 0' "$tmp/t1"
check "step 0: a one-state controller's line (no state field)" grep -qx '      L2 \[x\]: val = 0' "$tmp/t1"
check "step 0: an empty channel" grep -qx '      resp\[1\]: empty' "$tmp/t1"

# Every step names a row, and that line of that file is a row for the
# step's event (the event name as the table writes it).
steps=$(grep -cE '^  [0-9]+: ' "$tmp/t1")
rows=$(grep -cE '^      row [^ ]+:[0-9]+$' "$tmp/t1")
check "every step after step 0 names its row ($rows of $((steps - 1)))" test "$rows" -eq $((steps - 1))
bad=0
while IFS= read -r step && IFS= read -r row; do
    file=${row#      row }; line=${file##*:}; file=${file%:*}
    text=$(sed -n "${line}p" "$file")
    case $step in
        *" recv "*) ev=$(sed -E 's/.*: recv ([a-z]+)\[[^]]*\]\.([A-Za-z]+)\(.*/recv \1.\2/' <<<"$step") ;;
        *) ev=$(sed -E 's/^ *[0-9]+: [^:]*: ([a-z_.]+) -> .*/\1/' <<<"$step") ;;
    esac
    grep -qF "| $ev " <<<"$(sed -E 's/ +/ /g' <<<"$text")" || { bad=$((bad + 1)); echo "  $step -> $file:$line: $text" >&2; }
done < <(grep -A1 -E '^  [0-9]+: [^i]' "$tmp/t1" | grep -v '^--$')
check "each named row is a row for its step's event in that file ($bad mismatches)" test "$bad" -eq 0
# The variant's own row (the acquire without invalidation) is named in the
# variant file; inherited rows in the base file.
check "a variant's own row names the variant file" \
    grep -qx "      row $mutant:12" "$tmp/t1"
check "an inherited row names the base file" grep -qE '^      row models/mutants/\.\./gpu_vi\.proto:[0-9]+$' "$tmp/t1"

# The line of gpu_vi.proto's L1 row for STATE and EVENT, found in the file's
# text (so that lines added above the tables do not break the checks).
l1_row() { awk -v st="$1" -v ev="$2" '/^table L1/ {t=1} /^end/ {t=0} t && $1 == st && $2 == "|" && $3 == ev {print NR; exit}' models/gpu_vi.proto; }
store_weak_I=$(l1_row I store.weak)
release_gpu_I=$(l1_row I store.release.gpu)
check "the L1 rows the checks below name are found in gpu_vi.proto" test -n "$store_weak_I" -a -n "$release_gpu_I"

# Step 1 is P0's st.weak x, 1 in I (that row: send Store; pend + 1; acks += 1;
# done): exactly these changes, nothing else.
awk '/^  1: / {s=1; next} /^  2: / {s=0} s' "$tmp/t1" >"$tmp/s1"
cat >"$tmp/want1" <<WANT
      row models/mutants/../gpu_vi.proto:$store_weak_I
      P0: pc = 1 (st.release.gpu y, 1)
      L1 (CU 0): acks = 1
      L1 (CU 0) [x]: pend = 1
      req[0]: Store(x, 1)
WANT
check "step 1: the row and exactly the fields it changed" diff "$tmp/want1" "$tmp/s1"
# An L2 that answers a Load changes no L2 field: no L2 line under that step.
l2=$(awk '/^  [0-9]+: L2\[x\] in V: recv req\[1\]\.Load/ {s=1; next} /^  [0-9]+: / {s=0} s && /L2 \[/' "$tmp/t1" | wc -l)
check "a step that changes no field of a component does not list it" test "$l2" -eq 0

# The short trace (the default) has one line per step and no rows.
"$bin" verify --protocol "$mutant" "$mp" >"$tmp/short" 2>/dev/null
check "default trace: no row lines" sh -c "! grep -q '^      row ' '$tmp/short'"
check "default trace: the same step lines as the full one" \
    diff <(grep -E '^  [0-9]+: ' "$tmp/short") <(grep -E '^  [0-9]+: ' "$tmp/full")

"$bin" verify --trace long --protocol gpu_vi "$mp" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "--trace long: exit 2 with a message" sh -c "test $rc -eq 2 && grep -q 'trace takes short or full' '$tmp/err'"

# ---- deadlocks: why the state is stuck ----------------------------------
# The StoreAck no longer decrements acks: P0's st.release.gpu needs acks ==
# 0 (row 79) and finds 1, and L1 (CU 0)'s final acks == 0 is false.
base=$PWD/models/gpu_vi.proto
cat >"$tmp/lost_ack.proto" <<EOP
protocol gpu_vi_lost_ack extends "$base"
table L1
- * | recv resp.StoreAck
+ * | recv resp.StoreAck |  | line.pend := line.pend - 1 | -
end
EOP
"$bin" verify --protocol "$tmp/lost_ack.proto" "$mp" >"$tmp/dl" 2>"$tmp/err"
rc=$?
check "lost ack: exit 1" test "$rc" -eq 1
check "lost ack: a 'Why stuck' block after each deadlock trace" \
    test "$(grep -c '^Why stuck$' "$tmp/dl")" -eq "$(grep -c '^Violation deadlock' "$tmp/dl")"
check "lost ack: the refused release names its row, guard and value" \
    grep -qxF "  P0: offers st.release.gpu y, 1 (store.release.gpu) to L1 (CU 0) [y] in I: row $base:$release_gpu_I: acks == 0 is false (acks = 1)" "$tmp/dl"
check "lost ack: the false final condition and its value" \
    grep -qxF "  L1 (CU 0): final acks == 0 is false (acks = 1)" "$tmp/dl"
check "lost ack: invalidate_all says what it dropped" grep -qE 'invalidate_all \(dropped x: V val=[01]\)' "$tmp/dl"

# The L2 answers a Load only when val > 1, which never holds (values 0..1):
# P1 waits for its first load, whose request sits in req[1].
cat >"$tmp/picky.proto" <<EOP
protocol gpu_vi_picky_l2 extends "$base"
table L2
- V | recv req.Load
+ V | recv req.Load | line.val > 1 | send resp LoadResp(addr, line.val) | -
end
EOP
"$bin" verify --protocol "$tmp/picky.proto" "$mp" >"$tmp/dl2" 2>"$tmp/err"
check "picky L2: the waiting thread and its request in flight" \
    grep -qxF '  P1: waits for its ld.weak r0, x to complete; in flight for it: req[1] Load(x)' "$tmp/dl2"
check "picky L2: the refused message, its row and the value the guard read" \
    grep -qE "^  req\[1\]: Load\(x\) to L2 \[x\] in V: row $tmp/picky.proto:4: line\.val > 1 is false \(line\.val = [01]\)$" "$tmp/dl2"
exit 0
