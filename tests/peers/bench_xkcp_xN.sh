#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Our multi-buffer SHAKE128 (shake128_x4, shake128_x8 from out/x86_64) against XKCP's parallel
# Keccak-p[1600], its AVX2 times4 and AVX-512 times8 C, raced round-robin in one process
# (tests/peers/bench_xn_xkcp.c), once per compiler. Our bundle is copied to OUTDIR and built
# as a vendoring user builds it (every .c file, -O2, no -m flags); XKCP's two files are built
# -O3 -march=native by the same compiler, in a temporary folder removed on exit (nothing of
# XKCP enters this tree). Its 12-rounds-unrolled configurations are the ones XKCP's own AVX2
# and AVX512 targets ship. Needs neither XKCP's make nor xsltproc: two files, compiled here.
#
#   tests/peers/bench_xkcp_xN.sh [OUTDIR] [--cc LIST] [--turns N] [--settle-us N] [--tsv]
#
# XKCP comes as for tests/peers/bench_xkcp_kt128.sh (git clone, or XKCP_SRC naming a git
# directory or a work tree; XKCBuild is not needed).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
me=bench_xkcp_xN

usage() {
    cat <<EOF
usage: tests/peers/bench_xkcp_xN.sh [OUTDIR] [OPTION...]
Races our shake128_x4 / shake128_x8 (out/x86_64, -O2, no -m flags) against XKCP's
KeccakP1600times4/times8_PermuteAll_24rounds (-O3 -march=native, same compiler) in one
process: 4 and 8 lanes of 8 KiB absorbed and 8 KiB squeezed, 97 permutations per lane on
both sides; TSC cycles per lane per permutation, median and best of the turns, spread
(3rd quartile / 1st quartile - 1), and XKCP/ours per width (1.00 = equal; 0.95 or more is
within 5%). XKCP's SHAKE128 through AddLanesAll/ExtractLanesAll is timed too.
  OUTDIR          where our bundle is copied and each compiler's program built
                  (default: build/peers/xkcp-xn)
  --cc LIST       compilers, comma separated (default: gcc,clang; missing ones are skipped)
  --turns N       turns per contender (default 41)
  --settle-us N   warm-up before a turn after code of another ISA class (default 3000)
  --tsv           tab-separated rows, one header
  -h, --help      this text
Environment: XKCP_SRC (a local XKCP: git directory or work tree; else git clone from
GitHub), ROUNDSMITH_PATH=scalar|sse2|avx2|avx512 (forces our path), TMPDIR.
EOF
}

# One line, whatever the argument holds.
refuse() {
    printf '%s: %s (see --help)\n' "$me" "$(printf '%s' "$1" | tr '\000-\037\177' '?')" >&2
    exit 2
}

outdir='' ccs=gcc,clang tsv='' pass=''
while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        --tsv) tsv=1; pass="$pass --tsv" ;;
        --turns|--settle-us)
            [ $# -ge 2 ] || refuse "$1 needs a number"
            case $2 in ''|*[!0-9]*) refuse "$1 takes a number, not '$2'" ;; esac
            [ ${#2} -le 7 ] || refuse "$1 takes a number up to 1000000, not '$2'"
            if [ "$1" = --turns ] && { [ "$2" -lt 1 ] || [ "$2" -gt 10000 ]; }; then
                refuse "--turns takes a number from 1 to 10000, not '$2'"
            fi
            [ "$2" -le 1000000 ] || refuse "$1 takes a number up to 1000000, not '$2'"
            pass="$pass $1 $2"
            shift ;;
        --cc)
            [ $# -ge 2 ] || refuse "--cc needs a list of compilers"
            case $2 in ''|*[!A-Za-z0-9_.,+-]*|,*|*,|*,,*) refuse "--cc takes compiler names separated by commas, not '$2'" ;; esac
            ccs=$2
            shift ;;
        -*) refuse "unknown option '$1'" ;;
        *) [ -z "$outdir" ] || refuse "takes one OUTDIR, not also '$1'"
           [ ! -e "$1" ] || [ -d "$1" ] || refuse "OUTDIR '$1' is not a folder"
           outdir=$1 ;;
    esac
    shift
done
outdir=${outdir:-$root/build/peers/xkcp-xn}

grep -qw avx2 /proc/cpuinfo 2>/dev/null ||
    { echo "$me: needs an x86-64 CPU with AVX2 (XKCP's times4 is AVX2 code)" >&2; exit 2; }
# Without AVX-512, -march=native cannot build XKCP's times8; our x8 still runs (as two x4).
times8=1
grep -qw avx512f /proc/cpuinfo || times8=

mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/$me.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

src=$tmp/xkcp
. "$root/tests/peers/xkcp_source.sh"
xkcp_source $me "$tmp" "$src" lib
if [ -n "${XKCP_SRC:-}" ]; then
    rev=$(git --git-dir="$XKCP_SRC" rev-parse --short HEAD 2>/dev/null ||
          git -C "$XKCP_SRC" rev-parse --short HEAD 2>/dev/null || echo "a local copy")
else
    rev=$(git -C "$tmp/clone" rev-parse --short HEAD)
fi
low=$src/lib/low
t4=$low/KeccakP-1600-times4/AVX2
t8=$low/KeccakP-1600-times8/AVX512
if [ ! -f "$t4/KeccakP-1600-times4-SIMD256.c" ] || [ ! -f "$t8/KeccakP-1600-times8-SIMD512.c" ]; then
    echo "$me: XKCP $rev lacks lib/low/KeccakP-1600-times{4,8} as this script expects" >&2
    exit 2
fi

# A fresh copy each run: what is timed is the committed bundle, not an earlier copy of it.
rm -rf "$outdir/ours"
cp -R "$root/out/x86_64" "$outdir/ours"
ours=$outdir/ours

cpu() { sed -n "s/^$1[[:space:]]*: //p" /proc/cpuinfo | head -n 1; }
heading="CPU $(cpu vendor_id) family $(cpu 'cpu family') model $(cpu model) ($(cpu 'model name')), XKCP $rev"
heading="$heading; TSC cycles per lane per permutation, 97 per lane (8 KiB in, 8 KiB out)"
if [ -n "$tsv" ]; then
    printf '# %s\ncompiler\twhat\tmedian\tbest\tspread\txkcp_over_ours\n' "$heading"
else
    printf '%s\nours: out/x86_64 at -O2, no -m flags; XKCP: -O3 -march=native\n' "$heading"
fi

# Build step, its output in the compiler's log; a failure shows the log's end.
step() {
    "$@" >>"$log" 2>&1 || { echo "$me: $cc failed (see $log):" >&2; tail -n 5 "$log" >&2; exit 1; }
}

ran=
for cc in $(echo "$ccs" | tr , ' '); do
    if ! command -v "$cc" >/dev/null; then
        echo "$me: $cc not installed; skipped" >&2
        continue
    fi
    ver=$("$cc" -dumpfullversion 2>/dev/null || "$cc" -dumpversion)
    d=$outdir/$cc
    x=$tmp/$cc
    rm -rf "$d"
    mkdir -p "$d/obj" "$x"
    log=$d/build.log
    for f in "$ours"/*.c; do
        step "$cc" -O2 -I"$ours" -c "$f" -o "$d/obj/$(basename "$f" .c).o"
    done
    step "$cc" -O3 -march=native -I"$src/lib/common" -I"$low/KeccakP-1600/common" -I"$t4" \
        -I"$t4/u12" -c "$t4/KeccakP-1600-times4-SIMD256.c" -o "$x/times4.o"
    no8=
    if [ -n "$times8" ]; then
        step "$cc" -O3 -march=native -I"$src/lib/common" -I"$low/KeccakP-1600/common" -I"$t8" \
            -I"$t8/u12" -c "$t8/KeccakP-1600-times8-SIMD512.c" -o "$x/times8.o"
    else
        no8=-DRS_XN_NO_TIMES8
    fi
    step "$cc" -O2 -I"$ours" $no8 "$root/tests/peers/bench_xn_xkcp.c" \
        "$d"/obj/*.o "$x"/times*.o -o "$d/bench_xn_xkcp"
    [ -n "$times8" ] || echo "$me: no AVX-512 here: XKCP's times8 left out" >&2
    [ -n "$tsv" ] || echo
    # shellcheck disable=SC2086  # $pass is a list of words
    "$d/bench_xn_xkcp" "$cc $ver" $pass
    ran=1
done
[ -n "$ran" ] || { echo "$me: none of the compilers '$ccs' is installed" >&2; exit 2; }
