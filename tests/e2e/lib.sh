# lib.sh: helpers for end-to-end test scripts (source it; $1 of the script is the binary).
# check DESCRIPTION COMMAND...: PASS when the command succeeds.
check() {
    local what=$1; shift
    if "$@" >/dev/null 2>&1; then echo "PASS: $what"; else echo "FAIL: $what"; fi
}
