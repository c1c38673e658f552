#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Is build.ninja the same before and after a change to configure.py or generator/buildgraph/?
# Run by hand (not part of `ninja test`):
#
#   tests/ninja_identity.sh save DIR       # on the old code: configure each set of options below
#   tests/ninja_identity.sh compare DIR    # on the new code: configure again and diff
#   tests/ninja_identity.sh compare DIR 3 7   # only those sets (numbered from 0)
#
# Each configuration's build.ninja, build/cross/plan.json, stdout, stderr and exit status are
# kept in DIR and compared byte for byte. Two parts of build.ninja are compared apart and
# shown, not counted as a difference: the configure edge's own input list (the files
# configure.py is made of, which change when those files move) and the comment lines (text
# of build.ninja.in, no part of the graph). The build.ninja and plan.json in place before the
# run are put back afterwards.
set -uo pipefail
cd "$(dirname "$0")/.."

CONFIGS=(
    ""
    "--cross aarch64,s390x"
    "--cross none"
    "--cc clang"
    "--cc tcc"
    "--prefix p_"
    "--bundle x86_64 --amalgamate --prefix q_"
    "--target generic64"
    "--target aarch64 --cross none"
    "--multi none"
    "--no-profile --unroll 6 --rotate rorx"
    "--test-cc gcc"
    "--fuzz-short-seconds 0"
    "--cc tcc --test-cc tcc,clang --cross none"
    "--multi x4-avx2 --chacha-isa avx2 --prefix z_"
    "--out build/elsewhere --cross armhf"
    # bad input: one error line, exit 2, no build.ninja
    "--cross bogus"
    "--cc no-such-cc"
    "--bundle nowhere"
    "--amalgamate"
    "--unroll 5"
    # --cc outside the test matrix; a test compiler missing
    "--cc clang --test-cc gcc,tcc"
    "--test-cc gcc,no-such-cc --cross none"
)

mode=${1:-}
dir=${2:-}
only=" ${*:3} "
if [ -z "$dir" ] || { [ "$mode" != save ] && [ "$mode" != compare ]; }; then
    echo "usage: $0 save|compare DIR [N...]" >&2
    exit 2
fi
PY=python3
if ! "$PY" -c 'import jinja2' 2>/dev/null; then PY=/usr/bin/python3; fi

keep=$(mktemp -d)
for f in build.ninja build/cross/plan.json; do
    [ -e "$f" ] && mkdir -p "$keep/$(dirname "$f")" && cp -p "$f" "$keep/$f"
done
restore() {
    for f in build.ninja build/cross/plan.json; do
        if [ -e "$keep/$f" ]; then cp -p "$keep/$f" "$f"; else rm -f "$f"; fi
    done
    rm -rf "$keep"
}
trap restore EXIT

run_config() {  # $1: options, $2: folder to write the results in
    rm -f build.ninja build/cross/plan.json
    # shellcheck disable=SC2086  # the options are words
    "$PY" ./configure.py $1 >"$2/stdout" 2>"$2/stderr"
    echo $? >"$2/status"
    for f in build.ninja build/cross/plan.json; do
        [ -e "$f" ] && cp "$f" "$2/$(basename "$f")"
    done
}

# The configure edge's inputs and the comments: shown, not compared (see above).
graph() { grep -v -e '^build build\.ninja: configure' -e '^#' "$1"; }
aside() { grep -e '^build build\.ninja: configure' -e '^#' "$1" | tr ' ' '\n'; }

mkdir -p "$dir"
same=0
differ=0
for i in "${!CONFIGS[@]}"; do
    [ "$only" = "  " ] || [[ "$only" == *" $i "* ]] || continue
    opts=${CONFIGS[$i]}
    label="${opts:-(no options)}"
    if [ "$mode" = save ]; then
        rm -rf "${dir:?}/$i" && mkdir -p "$dir/$i"
        run_config "$opts" "$dir/$i"
        echo "saved $i: $label (exit $(cat "$dir/$i/status"))"
        continue
    fi
    new=$(mktemp -d)
    run_config "$opts" "$new"
    bad=
    for f in stdout stderr status plan.json; do
        if [ -e "$dir/$i/$f" ] || [ -e "$new/$f" ]; then
            cmp -s "$dir/$i/$f" "$new/$f" || bad="$bad $f"
        fi
    done
    if [ -e "$dir/$i/build.ninja" ] || [ -e "$new/build.ninja" ]; then
        if ! cmp -s <(graph "$dir/$i/build.ninja") <(graph "$new/build.ninja"); then
            bad="$bad build.ninja"
        fi
        if ! cmp -s <(aside "$dir/$i/build.ninja") <(aside "$new/build.ninja"); then
            echo "note $i: the configure edge's inputs or the comments changed (words):"
            diff <(aside "$dir/$i/build.ninja") <(aside "$new/build.ninja") \
                | grep '^[<>]' | sed 's/^/  /'
        fi
    fi
    if [ -z "$bad" ]; then
        same=$((same + 1))
        echo "identical $i: $label"
    else
        differ=$((differ + 1))
        echo "DIFFERENT $i: $label:$bad"
        for f in stdout stderr status plan.json build.ninja; do
            case " $bad " in *" $f "*) diff "$dir/$i/$f" "$new/$f" | head -n 40 ;; esac
        done
    fi
    rm -rf "$new"
done
if [ "$mode" = compare ]; then
    echo "build.ninja, plan.json, stdout, stderr, exit status: $same of $((same + differ))" \
         "configurations identical, $differ different"
    [ "$differ" = 0 ]
fi
