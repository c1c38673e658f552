#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# XKCP's portable 64-bit C kernel as a peer: fetched from the npm registry at bench time
# (the package "keccak" ships XKCP's opt64 sources; nothing of it enters this tree), built by
# each compiler with the flags our kernel gets, and raced against our default for that
# compiler in one process. Usage: tests/peers/bench_xkcp.sh [BUILD_DIR]   (needs npm)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}/peers
pkg=keccak@3.0.4
mkdir -p "$build"
if [ ! -f "$build/package/src/libkeccak-64/KeccakP-1600-opt64.c" ]; then
    command -v npm >/dev/null || { echo "bench_xkcp: npm not installed (apt-get install -y npm)" >&2; exit 2; }
    (cd "$build" && npm pack --silent "$pkg" >/dev/null && tar xzf keccak-3.0.4.tgz)
fi
xkcp=$build/package/src/libkeccak-64
printf 'compiler\trounds\tours best\tours median\tXKCP best\tXKCP median\tXKCP/ours\n'
for cc in gcc clang tcc; do
    command -v $cc >/dev/null || continue
    case $cc in tcc) flags=-O2 ;; *) flags="-O3 -march=native" ;; esac
    d=$build/$cc
    mkdir -p "$d"
    (cd "$root" && python3 -m generator generate --kernels keccak --cc-id $cc --out "$d/ours" >/dev/null)
    $cc $flags -c "$d/ours/keccak_p1600.c" -o "$d/ours.o"
    $cc $flags -I"$xkcp" -c "$xkcp/KeccakP-1600-opt64.c" -o "$d/xkcp.o" 2>/dev/null
    gcc -O2 -I"$d/ours" "$root/tests/peers/bench_xkcp.c" "$d/ours.o" "$d/xkcp.o" -o "$d/bench_xkcp" 2>/dev/null
    "$d/bench_xkcp" "$cc $flags"
done
