#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# XKCP's portable 64-bit C kernel as a peer: fetched from the npm registry at bench time
# (the package "keccak" ships XKCP's opt64 sources; nothing of it enters this tree), built by
# each compiler with the flags our kernel gets, and raced against our default for that
# compiler in one process; under tcc also against the committed bundles out/x86_64 and
# out/portable as tcc builds them. Usage: tests/peers/bench_xkcp.sh [BUILD_DIR]   (needs npm)
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
    # What a vendoring tcc user gets: the committed bundles as they are (tcc builds their
    # scalar path, whose Keccak kernel is then the x86-64 inline assembly one), against the
    # same XKCP object, in one process.
    if [ $cc = tcc ]; then
        for b in x86_64 portable; do
            mkdir -p "$d/$b"
            for f in "$root/out/$b"/*.c; do
                $cc $flags -I"$root/out/$b" -c "$f" -o "$d/$b/$(basename "$f" .c).o"
            done
            # Not the bundle's own SnP layer (XKCP's names, like the peer's) nor its self-test.
            rm -f "$d/$b/keccak_snp.o" "$d/$b/rs_selftest.o"
            gcc -O2 -I"$root/out/$b" "$root/tests/peers/bench_xkcp.c" "$d/$b"/*.o "$d/xkcp.o" \
                -o "$d/bench_xkcp_$b" 2>/dev/null
            "$d/bench_xkcp_$b" "$cc $flags, out/$b"
        done
    fi
done
