# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Scalar Keccak-p[1600]: every variant of the scalar space (generator/variants.py) per
compiler under check_keccak and bench_keccak, and out/'s scalar kernel under check_keccak."""

import os


def per_compiler(w, ctx, suite):
    objs = suite.objects("keccak")
    if suite.programs:
        # The plain reference is a row of the suite too: the fuzz targets take it as the truth.
        ref = suite.reference("tests/ref/keccak_ref.c")
        suite.check("tests/check_keccak.c", [ref] + objs)
        # The single-state vector kernels race the scalar ones in the same bench (no kernel is
        # left out by assumption: which wins is a per-machine fact).
        singles = [suite.compile(os.path.join(suite.gen, f"{v.ident}.c"))
                   for v in suite.spaces.get("keccak_simd", []) if getattr(v, "single", False)]
        suite.bench("keccak", "bench/bench_keccak.c", [ref] + objs + singles,
                    defines="-DRS_WITH_SINGLES" if singles else "")
    w.blank()


def vendored(w, ctx):
    """out/'s permutation, built by --cc, against the permutation vectors."""
    cc, out, k, pfx = ctx.main_cc, ctx.out, ctx.keccak, ctx.args.prefix
    obj, gen = ctx.out_check, ctx.main_gen
    harness = os.path.join(obj, "check_out.o")
    w.build([harness], "cc", ["tests/check_keccak.c"],
            order_only=out.headers + [os.path.join(gen, "keccak_vectors.h")],
            variables=[("cc", cc["cc"]),
                       ("cflags", f"-O1 {out.api_flags} -I{gen} -Itests {ctx.check_cflags} "
                                  f"-DRS_COMPILER='\"{cc['cc']} (out/)\"' "
                                  f"-DRS_OUT_F={pfx}keccak_f1600 -DRS_OUT_P={pfx}keccak_p1600 "
                                  f"-DRS_OUT_A={pfx}keccak_p1600_absorb -DRS_OUT_S={pfx}keccak_p1600_squeeze "
                                  f"-DRS_OUT_NAME='\"{k.name}\"' "
                                  f"-DRS_OUT_CPU='\"{' '.join(k.cpu_needs())}\"'")])
    exe = os.path.join(obj, "check_out")
    w.build([exe], "link", [harness] + out.objects[cc["name"]],
            variables=[("cc", cc["cc"]), ("ldflags", ctx.check_libs)])
    w.build([exe + ".log"], "run_check", [exe])
    ctx.add(exe + ".log", "test", "check-out")
