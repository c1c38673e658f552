#!/bin/sh
# XKCP's portable 64-bit C kernel (KeccakP-1600-opt64.c) as a peer: fetched from the npm
# registry at bench time (the package "keccak" ships XKCP's opt64 sources; nothing of it
# enters this tree), then `python3 -m generator bench` builds it with each compiler in every
# configuration XKCP ships (ua, u6, lcu6, lcua, lcua-shld) and, with --xkcp-all, at unrolls
# 2, 3, 4, 12 with and without lane complementing, and races them round-robin in one process
# against our default scalar kernel and the plain reference.
#   tests/peers/bench_xkcp.sh [BUILD_DIR] [generator bench options...]   (needs npm)
# XKCP_DIR=<folder with KeccakP-1600-opt64.c and its headers> uses another copy (a checkout
# of github.com/XKCP/XKCP's lib/low/KeccakP-1600/plain-64bits with its common headers).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}/peers
[ $# -gt 0 ] && shift
pkg=keccak@3.0.4
mkdir -p "$build"
if [ -z "${XKCP_DIR:-}" ] && [ ! -f "$build/package/src/libkeccak-64/KeccakP-1600-opt64.c" ]; then
    command -v npm >/dev/null || { echo "bench_xkcp: npm not installed (apt-get install -y npm)" >&2; exit 2; }
    (cd "$build" && npm pack --silent "$pkg" >/dev/null && tar xzf keccak-3.0.4.tgz)
fi
ccs=$(for cc in gcc clang tcc; do command -v $cc >/dev/null && printf '%s,' $cc; done)
cd "$root"
exec python3 -m generator bench --kernels keccak --cc "${ccs%,}" \
    --xkcp "${XKCP_DIR:-$build/package/src/libkeccak-64}" "$@"
