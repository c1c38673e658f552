#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# roundsmith.mjs on out/wasm32 against hash-wasm, @noble/hashes and js-sha3 under node: the
# peers are installed from the npm registry at bench time into a temporary folder (nothing of
# them enters this tree), out/wasm32 is built both ways as docs/vendoring.md says, and
# tests/wasm/bench.mjs races every candidate round-robin in one node process.
#   bench/peers/bench_wasm.sh [--turns N]        (needs clang-14 for wasm32, node, npm)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
command -v npm >/dev/null || { echo "bench_wasm: npm not installed (apt-get install -y npm)" >&2; exit 2; }
cc=clang-14
command -v $cc >/dev/null || cc=clang
work=$(mktemp -d "${TMPDIR:-/tmp}/roundsmith-bench-wasm-XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
(cd "$work" && npm init -y >/dev/null && npm install --silent --no-audit --no-fund \
    hash-wasm @noble/hashes js-sha3 >/dev/null)
cp "$root"/out/wasm32/* "$work/"
(cd "$work" &&
    $cc --target=wasm32-wasi -O3 -mexec-model=reactor ./*.c -o roundsmith.wasm &&
    $cc --target=wasm32-wasi -O3 -msimd128 -mexec-model=reactor ./*.c -o roundsmith-simd128.wasm)

node --no-warnings "$root/tests/wasm/bench.mjs" "$work" "$work" "$@"
