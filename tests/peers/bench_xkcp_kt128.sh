#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# XKCP's KangarooTwelve (its AVX512 target: times8 leaves, AVX-512 permutation) raced against
# our KT128 from out/x86_64, both built by the same compiler with the same flags, in one process
# (tests/peers/bench_xkcp_kt128.c). XKCP is fetched and built under BUILD_DIR/peers (nothing of
# it enters this tree). Needs xsltproc (XKCP's build) and make. With RS_XKCP_HARNESS=NAME the
# race is tests/peers/NAME.c instead, printing its own header
# (tests/peers/bench_xkcp_sp800185.sh: ParallelHash and KT256).
#
#   tests/peers/bench_xkcp_kt128.sh [BUILD_DIR]
#
# XKCP comes from `git clone` of github.com/XKCP/XKCP and XKCP/XKCBuild (its build system, a
# submodule), or, where GitHub is out of reach, from local copies: XKCP_SRC and XKCBUILD_SRC
# name either a git directory (a clone or a mirror; its HEAD is taken) or a work tree.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
harness=${RS_XKCP_HARNESS:-bench_xkcp_kt128}
build=${1:-$root/build}/peers/xkcp-kt128
mkdir -p "$build"
command -v xsltproc >/dev/null || { echo "bench_xkcp_kt128: xsltproc not installed (apt-get install -y xsltproc)" >&2; exit 2; }

src=$build/src
. "$root/tests/peers/xkcp_source.sh"
xkcp_source bench_xkcp_kt128 "$build" "$src"

ours=$root/out/x86_64
[ "$harness" = bench_xkcp_kt128 ] &&
    printf 'compiler and flags\tinput\tour path\tours median c/B\tours best\tXKCP median c/B\tXKCP best\tXKCP/ours (medians)\n'
for cc in gcc clang; do
    command -v $cc >/dev/null || continue
    for flags in "-O2" "-O3 -march=native"; do
        tag=$cc-$(echo "$flags" | tr -d ' =-')
        d=$build/$tag
        rm -rf "$d"
        mkdir -p "$d/obj"
        export_tree "$src" "$d/xkcp"
        # XKCP's own build, its flags (-O2 -fomit-frame-pointer, per-file -mavx512f...) plus ours.
        make -s -C "$d/xkcp" CC=$cc EXTRA_CFLAGS="$flags" AVX512/libXKCP.a >"$d/xkcp.log" 2>&1 ||
            { echo "bench_xkcp_kt128: XKCP's build failed with $cc $flags (see $d/xkcp.log)" >&2; exit 1; }
        for f in "$ours"/*.c; do
            # XKCP defines the SnP names itself; our sponge does not need them.
            # Not our SnP layer (XKCP's names, like the peer's) nor the self-test, which calls it.
            case "$(basename "$f")" in keccak_snp.c|rs_selftest.c) continue ;; esac
            $cc $flags -I"$ours" -c "$f" -o "$d/obj/$(basename "$f" .c).o"
        done
        $cc $flags -I"$ours" "$root/tests/peers/$harness.c" "$d"/obj/*.o \
            "$d/xkcp/bin/AVX512/libXKCP.a" -o "$d/bench"
        "$d/bench" "$cc $flags"
    done
done
