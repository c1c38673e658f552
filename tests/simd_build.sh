#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Build the vector Keccak suite and bench for a part of the matrix, without configure.py:
# for quick work on one kernel (build.ninja builds the whole matrix).
#   tests/simd_build.sh OUTDIR [CC...]      (default compilers: gcc clang)
# then run OUTDIR/CC/check_keccak_simd, and bench/bench_table.py OUTDIR/*/bench_keccak_simd
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
    (cd "$here" && python3 -m generator testsuite --only simd --cc-id "$cc" --caps "$caps" \
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
    gcc -O3 -c "$here/tests/ref/keccak_ref.c" -o "$dir/obj/keccak_ref.o"
    # shellcheck disable=SC2086
    $cc $warn -O2 $inc "$here/bench/bench_keccak_simd.c" "$dir/obj/keccak_ref.o" $objs \
        -o "$dir/bench_keccak_simd"
done
