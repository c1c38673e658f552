#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# XKCP's own unit tests against our SnP (opt-in, not part of `ninja test`): XKCP's generic64
# target with its Keccak-p[1600] (KeccakP-1600-opt64.c and its SnP header) taken out and a
# bundle of out/ linked in its place, built by XKCP's own make under BUILD_DIR/peers (nothing of
# XKCP enters this tree), then run on every section that touches Keccak-p[1600]: the SnP
# checks, sponge, duplex, the OD constructions ("Shaking up AE", which take the
# ODDuplexingFast* path), PRG, FIPS 202 with its KATs, SP 800-185, KangarooTwelve, Kravatte.
# Its parallel paths (times 2/4/8) fall back to our SnP. Needs xsltproc and make.
#
#   tests/peers/xkcp_unittests.sh [BUNDLE] [BUILD_DIR]     BUNDLE: x86_64 (default), portable
#
# XKCP comes as for tests/peers/bench_xkcp_kt128.sh (git clone, or XKCP_SRC / XKCBUILD_SRC).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
bundle=${1:-x86_64}
build=${2:-$root/build}/peers/xkcp-unittests
cc=${CC:-gcc}
mkdir -p "$build"
command -v xsltproc >/dev/null || { echo "xkcp_unittests: xsltproc not installed (apt-get install -y xsltproc)" >&2; exit 2; }
[ -f "$root/out/$bundle/KeccakP-1600-SnP.h" ] || { echo "xkcp_unittests: no bundle out/$bundle" >&2; exit 2; }

src=$build/src
. "$root/tests/peers/xkcp_source.sh"
xkcp_source xkcp_unittests "$build" "$src"

d=$build/$bundle-$cc
rm -rf "$d"
mkdir -p "$d/ours"
export_tree "$src" "$d/xkcp"
# Our bundle as a library; XKCP's Keccak-p[1600] files become our SnP header and an empty unit.
for f in "$root/out/$bundle"/*.c; do
    $cc -O2 -I"$root/out/$bundle" -c "$f" -o "$d/ours/$(basename "$f" .c).o"
done
ar rcs "$d/ours/libroundsmith.a" "$d"/ours/*.o
k=$d/xkcp/lib/low/KeccakP-1600/plain-64bits
cp "$root/out/$bundle/KeccakP-1600-SnP.h" "$k/KeccakP-1600-SnP.h"
printf '/* Keccak-p[1600] comes from roundsmith (libroundsmith.a). */\ntypedef int rs_xkcp_no_keccak;\n' \
    >"$k/KeccakP-1600-opt64.c"
make -s -C "$d/xkcp" CC="$cc" EXTRA_LDFLAGS="$d/ours/libroundsmith.a" generic64/UnitTests \
    >"$d/build.log" 2>&1 || { tail -n 20 "$d/build.log" >&2; exit 1; }
cd "$d/xkcp"
status=0
for section in --SnP --KeccakSponge --KeccakDuplex --ShakingUpAE --KeccakPRG --FIPS202 \
               --SP800-185 --KangarooTwelve --Kravatte; do
    if ./bin/generic64/UnitTests "$section" >"$d/log$section.txt" 2>&1; then
        echo "ok - XKCP UnitTests $section against out/$bundle ($cc)"
    else
        echo "not ok - XKCP UnitTests $section against out/$bundle ($cc): see $d/log$section.txt"
        status=1
    fi
done
exit $status
