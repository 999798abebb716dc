# lib.sh: helpers for end-to-end test scripts (source it; $1 of the script is the binary).
# check DESCRIPTION COMMAND...: PASS when the command succeeds.
check() {
    local what=$1; shift
    if "$@" >/dev/null 2>&1; then echo "PASS: $what"; else echo "FAIL: $what"; fi
}

# expect_error FILE POSITION REGEX: `$bin litmus FILE` exits 2 with an empty
# stdout, and stderr's first line is FILE:POSITION: error: followed by a
# message matching REGEX.  Uses the caller's $bin and $tmp.
expect_error() {
    local file=$1 pos=$2 re=$3 rc
    "$bin" litmus "$file" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    local what="$(basename "$file") is refused"
    if [ "$rc" -ne 2 ]; then
        echo "FAIL: $what (exit status $rc, want 2)"; return
    fi
    if [ -s "$tmp/out" ]; then
        echo "FAIL: $what (stdout not empty)"; return
    fi
    local line; line=$(head -n 1 "$tmp/err")
    if ! grep -qE "^$(printf '%s' "$file" | sed 's/[][\.*^$+?(){}|]/\\&/g'):[0-9]+:[0-9]+: error: " <<<"$line"; then
        echo "FAIL: $what (stderr '$line' lacks FILE:LINE:COL: error:)"; return
    fi
    if ! grep -qF "$file:$pos: error: " <<<"$line"; then
        echo "FAIL: $what (stderr '$line', want position $pos)"; return
    fi
    if ! grep -qiE "$re" <<<"$line"; then
        echo "FAIL: $what (stderr '$line' does not match /$re/)"; return
    fi
    echo "PASS: $what at $pos ($re)"
}

# verify_table TABLE: the rows of a table of expected `verify` results, run
# by scripts/verify_suite.sh (the one runner of such tables), one PASS or
# FAIL line each, and one more for the table as a whole (so that a table the
# runner cannot read fails too).  Uses the caller's $bin.
verify_table() {
    local out
    out=$(SCOPECHECK=$bin bash scripts/verify_suite.sh "$1" 2>&1)
    grep -E '^(PASS|FAIL): ' <<<"$out"
    check "$1: every row ($(tail -n 1 <<<"$out"))" grep -q ', 0 failed' <<<"$out"
}

# expect_errors_table TSV: expect_error for each row of TSV (file, relative
# to TSV's folder; line:col; message regex), comments and blank lines skipped.
expect_errors_table() {
    local tsv=$1 dir file pos re
    dir=$(dirname "$tsv")
    while IFS=$'\t' read -r file pos re; do
        case $file in '' | '#'*) continue ;; esac
        expect_error "$dir/$file" "$pos" "$re"
    done <"$tsv"
}
