# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Vector Keccak: every x-N and single-state vector variant per compiler under
check_keccak_simd and bench_keccak_simd, each next to the compiler's default scalar kernel
(the yardstick), and out/'s x-N kernels (--multi) under check_keccak_simd."""

import os

from generator.choice import targets


def per_compiler(w, ctx, suite):
    objs = suite.objects("keccak_simd")
    if not objs:
        return  # no vector intrinsics (tcc)
    yard = suite.compile(os.path.join(
        suite.gen, f"{targets.default_keccak(ctx.target, suite.cc['id']).ident}.c"))
    objs = [o for o in objs if o != yard]
    if suite.programs:
        suite.check("tests/check_keccak_simd.c", [yard] + objs)
        suite.bench("simd", "bench/bench_keccak_simd.c",
                    [suite.reference("tests/ref/keccak_ref.c"), yard] + objs)
    w.blank()


def vendored(w, ctx):
    """out/'s x-N kernels, built by --cc, against out/'s scalar kernel and the vectors."""
    if not ctx.multis:
        return
    cc, pfx, obj = ctx.main_cc, ctx.args.prefix, ctx.out_check
    cpus = " ".join(f"-DRS_OUT_X{m.instances}_CPU='\"{' '.join(m.cpu_needs())}\"'"
                    for m in ctx.multis)
    harness = os.path.join(obj, "check_out_simd.o")
    w.build([harness], "cc", ["tests/check_keccak_simd.c"],
            order_only=ctx.out.files + [os.path.join(ctx.main_gen, "keccak_simd_vectors.h")],
            variables=[("cc", cc["cc"]),
                       ("cflags", f"-O1 -I{ctx.out.dir} -I{ctx.main_gen} -Itests "
                                  f"{ctx.check_cflags} "
                                  f"-DRS_COMPILER='\"{cc['cc']} (out/)\"' "
                                  f"-DRS_OUT_PREFIX={pfx} "
                                  f"-DRS_OUT_MULTI={sum(m.instances for m in ctx.multis)} "
                                  f"{cpus}")])
    exe = os.path.join(obj, "check_out_simd")
    w.build([exe], "link", [harness] + ctx.out.objects[cc["name"]],
            variables=[("cc", cc["cc"]), ("ldflags", ctx.check_libs)])
    w.build([exe + ".log"], "run_check", [exe])
    ctx.add(exe + ".log", "test", "check-out")
