#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Build and run the ChaCha Check suites (and, with "bench", the bench) with every compiler,
# until configure.py / build.ninja carry them. Flags follow the project's rule: the generated
# code must build warning-free with -Wall -Wextra -pedantic, so warnings are errors here.
#
# usage: tests/chacha_build.sh [check|bench|all] [BUILD_DIR]     (default: check, ./build-chacha)
# env:   CCS="gcc clang tcc"   compilers to use;  JOBS=2   parallel compiles;
#        BENCH_ARGS="-b 40 -s 300 -x 200"   passed to bench_chacha
set -eu
what=${1:-check}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${2:-$root/build-chacha}
ccs=${CCS:-gcc clang tcc}
jobs=${JOBS:-2}
checkflags=$(pkg-config --cflags --libs check)

for cc in $ccs; do
    case $cc in
    tcc) caps= warn="-Wall -Werror" opt= ;;
    *) caps=x86-target-attr warn="-Wall -Wextra -pedantic -Werror" opt=-O2 ;;
    esac
    gen=$build/$cc/gen obj=$build/$cc/obj
    mkdir -p "$obj"
    (cd "$root" && python3 -m generator testsuite --families chacha --caps "$caps" --out "$gen")
    # one object per variant, $jobs at a time; the machine is shared
    ls "$gen"/chacha_x*.c | xargs -P "$jobs" -I{} sh -c \
        'f={}; o='"$obj"'/$(basename "$f" .c).o; [ "$o" -nt "$f" ] || '"$cc $opt $warn"' -c "$f" -o "$o"'
    $cc $opt $warn -c "$root/tests/ref/chacha_ref.c" -o "$obj/chacha_ref.o"
    if [ "$what" != bench ]; then
        $cc $opt $warn -DRS_COMPILER="\"$cc\"" -I"$gen" -I"$root/tests" \
            -c "$root/tests/check_chacha.c" -o "$obj/check_chacha.o"
        $cc "$obj"/chacha_x*.o "$obj/chacha_ref.o" "$obj/check_chacha.o" $checkflags \
            -o "$build/$cc/check_chacha"
        "$build/$cc/check_chacha"
    fi
    if [ "$what" != check ] && [ "$cc" != tcc ]; then
        # the plain reference is always gcc -O3, whatever compiles the kernels
        gcc -O3 -c "$root/tests/ref/chacha_ref.c" -o "$obj/chacha_ref_o3.o"
        $cc $opt $warn -DRS_COMPILER="\"$cc\"" -I"$gen" -I"$root/tests" \
            -c "$root/bench/bench_chacha.c" -o "$obj/bench_chacha.o"
        $cc "$obj"/chacha_x*.o "$obj/chacha_ref_o3.o" "$obj/bench_chacha.o" -lcrypto \
            -o "$build/$cc/bench_chacha"
        "$build/$cc/bench_chacha" ${BENCH_ARGS:-}
    fi
done
