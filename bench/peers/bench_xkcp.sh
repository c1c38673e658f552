#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# XKCP's portable 64-bit C kernel (KeccakP-1600-opt64.c) as a peer: fetched from the npm
# registry at bench time (the package "keccak" ships XKCP's opt64 sources; nothing of it
# enters this tree), then
# - `python3 -m generator bench` builds it with each compiler in every configuration XKCP
#   ships (ua, u6, lcu6, lcua, lcua-shld) and, with --xkcp-all, at unrolls 2, 3, 4, 12 with
#   and without lane complementing, and races them round-robin in one process against our
#   default scalar kernel and the plain reference;
# - what a vendoring tcc user gets: the committed bundles out/x86_64 and out/portable built
#   by tcc as they are (their scalar path then runs the x86-64 inline assembly kernel),
#   raced in one process against each XKCP configuration tcc builds.
#   bench/peers/bench_xkcp.sh [BUILD_DIR] [generator bench options...]   (needs npm)
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
xkcp=${XKCP_DIR:-$build/package/src/libkeccak-64}
ccs=$(for cc in gcc clang tcc; do command -v $cc >/dev/null && printf '%s,' $cc; done)
(cd "$root" && python3 -m generator bench --kernels keccak --cc "${ccs%,}" --xkcp "$xkcp" "$@")

command -v tcc >/dev/null || exit 0
d=$build/tcc-bundles
mkdir -p "$d"
printf '\nthe committed bundles under tcc -O2 against XKCP opt64 under tcc -O2 (TSC cycles per '
printf 'permutation, median of the turns; XKCP/ours above 1: ours is faster)\n'
printf 'bundle / XKCP configuration\tours\tXKCP\tXKCP/ours\n'
for b in x86_64 portable; do
    mkdir -p "$d/$b"
    for f in "$root/out/$b"/*.c; do
        tcc -O2 -I"$root/out/$b" -c "$f" -o "$d/$b/$(basename "$f" .c).o"
    done
    # Not the bundle's own SnP layer (XKCP's names, like the peer's) nor its self-test.
    rm -f "$d/$b/keccak_snp.o" "$d/$b/rs_selftest.o"
    for tag in ua u6 lcu6 lcua; do
        case $tag in ua) m="KeccakP1600_fullUnrolling" ;; u6) m="KeccakP1600_unrolling 6" ;;
            lcu6) m="KeccakP1600_unrolling 6
KeccakP1600_useLaneComplementing" ;;
            lcua) m="KeccakP1600_fullUnrolling
KeccakP1600_useLaneComplementing" ;; esac
        # A copy per configuration: the source includes its config header by "", which finds
        # the copy beside the source before any -I folder.
        rm -rf "$d/xkcp_$tag"
        mkdir -p "$d/xkcp_$tag"
        cp "$xkcp"/*.h "$xkcp"/*.c "$xkcp"/*.macros "$d/xkcp_$tag/" 2>/dev/null || true
        echo "$m" | sed 's/^/#define /' > "$d/xkcp_$tag/KeccakP-1600-opt64-config.h"
        tcc -O2 -I"$d/xkcp_$tag" -c "$d/xkcp_$tag/KeccakP-1600-opt64.c" -o "$d/xkcp_$tag.o"
        tcc -O2 -I"$root/out/$b" "$root/bench/peers/bench_bundle_xkcp.c" "$d/$b"/*.o \
            "$d/xkcp_$tag.o" -o "$d/race_${b}_$tag"
        case $tag in lc*) "$d/race_${b}_$tag" "out/$b / XKCP $tag" lc ;;
                     *) "$d/race_${b}_$tag" "out/$b / XKCP $tag" ;; esac
    done
done
