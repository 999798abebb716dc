#!/usr/bin/env bash
# Installs the Debian packages scopecheck needs, if any is missing.
# As root it runs apt-get itself; otherwise it prints the command to run.
# `install-deps.sh --fuzz` adds what `make fuzz` needs (clang and its
# libFuzzer runtime); CI does not run the fuzz target and does not ask.
# `install-deps.sh --test` adds what only the tests use: chromium, the
# headless browser that opens `verify --report` pages
# (tests/e2e/t_report_page.sh, which skips its browser checks without it).
set -eu
packages=(gcc make libc6-dev libgc-dev libcunit1-dev libgraphviz-dev graphviz jq libjansson-dev nettle-dev gnuplot-nox)
for option in "$@"; do
    case $option in
        --fuzz) packages+=(clang-14 libclang-rt-14-dev) ;;
        --test) packages+=(chromium) ;;
        *) echo "install-deps.sh: unknown option $option (--fuzz, --test)" >&2; exit 2 ;;
    esac
done
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "scopecheck needs: ${missing[*]}" >&2
    echo "run: sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
fi
echo "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${missing[@]}" >/dev/null
