#!/bin/sh
# Build and run the vector Keccak tests and bench until build.ninja covers them.
#   tests/simd_build.sh OUTDIR [CC...]      (default compilers: gcc clang)
# ROUNDSMITH_SELECT=x8,x4 limits the variants (generator testsuite --select).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: tests/simd_build.sh OUTDIR [CC...]}
shift
[ $# -gt 0 ] || set -- gcc clang
caps=intrin-sse2,intrin-avx2,intrin-avx512
warn="-std=c99 -Wall -Wextra -pedantic -Werror"
opt=${ROUNDSMITH_CFLAGS:--O2}
for cc in "$@"; do
    dir=$out/$cc
    mkdir -p "$dir/obj"
    (cd "$here" && python3 -m generator testsuite --only simd --caps "$caps" \
        --select "${ROUNDSMITH_SELECT:-}" --out "$dir/suite")
    objs=
    for src in "$dir"/suite/*.c; do
        obj=$dir/obj/$(basename "$src" .c).o
        if [ ! -e "$obj" ] || [ "$src" -nt "$obj" ]; then
            $cc $warn $opt -c "$src" -o "$obj"
        fi
        objs="$objs $obj"
    done
    inc="-I$dir/suite -I$here/tests -DRS_COMPILER=\"$cc\""
    # shellcheck disable=SC2086
    $cc $warn $opt $inc "$here/tests/check_keccak_simd.c" $objs $(pkg-config --cflags --libs check) \
        -o "$dir/check_keccak_simd"
    if [ -e "$here/tests/bench_keccak_simd.c" ]; then
        # shellcheck disable=SC2086
        $cc $warn -O2 $inc "$here/tests/bench_keccak_simd.c" $objs -o "$dir/bench_keccak_simd"
    fi
done
