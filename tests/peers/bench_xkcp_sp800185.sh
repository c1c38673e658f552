#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# XKCP's ParallelHash128/256 (times8 leaves on its AVX512 target) and KT256 raced against ours
# from out/x86_64, both built by the same compiler with the same flags, in one process
# (tests/peers/bench_xkcp_sp800185.c): bench_xkcp_kt128.sh's build with this harness. Opt-in:
# fetches XKCP (or XKCP_SRC / XKCBUILD_SRC, as there); needs xsltproc and make.
#
#   tests/peers/bench_xkcp_sp800185.sh [BUILD_DIR]
set -eu
RS_XKCP_HARNESS=bench_xkcp_sp800185 exec "$(dirname "$0")/bench_xkcp_kt128.sh" "$@"
