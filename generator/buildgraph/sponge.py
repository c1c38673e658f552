# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The out/ sponge: the vendorable folder's sponge layer (SHA-3, SHAKE, TurboSHAKE, KT128,
XKCP's SnP interface) over out/'s kernels. It has no variant space: what it checks is out/
itself, compiled by every compiler, and rsum, the tool built on it."""

import os

from generator.buildgraph import outdir


def per_compiler(w, ctx, suite):
    """out/ compiled by this compiler, under the sponge suite and the sponge bench."""
    if suite.subset != "all":
        return
    cc, out = suite.cc, ctx.out
    objs = outdir.compile(w, ctx, cc)
    if suite.tests:
        check = suite.program("tests/check_sponge.c", objs,
                              f"-O1 {out.api_flags} -I{suite.gen} -Itests {ctx.check_cflags} "
                              f"-DRS_COMPILER='\"{cc['cc']}\"'", ctx.check_libs,
                              order_only=out.headers + [os.path.join(suite.gen,
                                                                     "sponge_vectors.h")])
        w.build([check + ".log"], "run_check", [check])
        ctx.add(check + ".log", "test")
        bench = suite.program("bench/bench_sponge.c", objs,
                              f"-O2 {out.api_flags} -Itests {ctx.peers['cflags']} "
                              f"-DRS_COMPILER='\"{cc['cc']}\"'", ctx.peers["libs"],
                              order_only=out.headers)
        ctx.benches["out"][cc["cc"]] = bench
        ctx.add(bench, "bench-sponge")
        # The SnP byte functions against a permutation, timed in the same race.
        snp = suite.program("bench/bench_snp.c", objs,
                            f"-O2 {out.api_flags} -Itests -DRS_COMPILER='\"{cc['cc']}\"'", "",
                            order_only=out.headers)
        ctx.add(snp, "bench-sponge")
    w.blank()


def vendored(w, ctx):
    """rsum, the command-line tool, on the out/ sources, tested end to end against openssl."""
    cc = ctx.main_cc
    rsum_o = os.path.join("build", "rsum.o")
    w.build([rsum_o], "cc", ["tools/rsum.c"], order_only=ctx.out.headers,
            variables=[("cc", cc["cc"]),
                       ("cflags", f"-O2 {ctx.out.api_flags} {ctx.warnings(cc)}")])
    w.build(["build/rsum"], "link", [rsum_o] + ctx.out.objects[cc["name"]],
            variables=[("cc", cc["cc"]), ("ldflags", "")])
    w.build(["build/rsum_e2e.log"], "e2e", ["build/rsum"], implicit=["tests/e2e_rsum.py"])
    ctx.add("build/rsum", "programs")
    ctx.add("build/rsum_e2e.log", "test")
    w.blank()
