# SPDX-License-Identifier: Apache-2.0 OR MIT
"""XKCP's parallel SnP (KeccakP-1600-times2/4/8-SnP.h, keccak_snp_xN.c). It lives in every
bundle, on the bundle's dispatched x-N permutations, so this family has no variant space: it
runs check_snp_xN (the model's call scripts, generator/snp_xn.py) on the committed x86_64
bundle once per forced dispatch path, on the committed portable bundle per compiler, and an
XKCP-style AVX2 caller (its own __m256i states) on the x86_64 bundle."""

import os

from generator.choice import targets
from generator.buildgraph import bundles, sponge_xn
from generator.buildgraph.flags import WARNINGS

# Written by sponge_xn's testsuite edge, beside its own vectors.
VECTORS = sponge_xn.SNP_VECTORS
CHECK = "tests/check_snp_xN.c"
AVX2_CALLER = "tests/xkcp_times4_avx2.c"
PORTABLE = os.path.join("out", "portable")


def _check(w, ctx, cc, objdir, folder, objs, headers, label):
    o = os.path.join(objdir, "check_snp_xN.o")
    w.build([o], "cc", [CHECK], order_only=headers + [VECTORS],
            variables=[("cc", cc["cc"]),
                       ("cflags", f"-O1 -I{folder} -I{sponge_xn.VECTORS_DIR} -Itests "
                                  f"{ctx.check_cflags} -DRS_COMPILER='\"{cc['cc']} {label}\"'")])
    exe = os.path.join(objdir, "check_snp_xN")
    w.build([exe], "link", [o] + objs, variables=[("cc", cc["cc"]), ("ldflags", ctx.check_libs)])
    return exe


def vendored(w, ctx):
    """The committed bundles: out/x86_64 (bundles.canonical_objects' objects, built by the
    bundles family with gcc) with each dispatch path forced, and the AVX2 caller by gcc and
    clang; out/portable by every compiler of the test matrix."""
    committed = bundles.committed()
    for cc in ctx.test_ccs:
        objdir = os.path.join("build", "snp_xN", cc["cc"], "portable")
        headers = [f for f in committed if f.startswith(PORTABLE) and f.endswith(".h")]
        objs = []
        for src in bundles._sources(PORTABLE):
            o = os.path.join(objdir, os.path.basename(src)[:-2] + ".o")
            w.build([o], "cc", [src], variables=[("cc", cc["cc"]),
                                                  ("cflags", f"-O2 {WARNINGS[cc['id']]}")])
            objs.append(o)
        exe = _check(w, ctx, cc, objdir, PORTABLE, objs, headers, "portable bundle")
        w.build([exe + ".log"], "run_check", [exe])
        ctx.add(exe + ".log", "test")
    gcc = next((c for c in ctx.test_ccs if c["id"] == "gcc"), None)
    if targets.host().name != "x86_64" or not gcc:
        w.blank()
        return
    objdir = os.path.join("build", "bundle", gcc["cc"])
    objs = [os.path.join(objdir, os.path.basename(src)[:-2] + ".o")
            for src in bundles._sources(bundles.CANONICAL)]
    headers = [f for f in committed if f.startswith(bundles.CANONICAL) and f.endswith(".h")]
    exe = _check(w, ctx, gcc, objdir, bundles.CANONICAL, objs, headers, "bundle")
    for path in targets.BUNDLES["x86_64"].paths:
        log = f"{exe}.{path.name}.log"
        w.build([log], "run_check", [exe],
                variables=[("check_env", f"ROUNDSMITH_PATH={path.name}")])
        ctx.add(log, "test")
    # XKCP's own way of holding times4 states, on the same objects (gcc's) by gcc and clang.
    for cc in ctx.test_ccs:
        if cc["id"] not in ("gcc", "clang"):
            continue
        o = os.path.join("build", "snp_xN", cc["cc"], "xkcp_times4_avx2.o")
        w.build([o], "cc", [AVX2_CALLER], order_only=headers,
                variables=[("cc", cc["cc"]),
                           ("cflags", f"-O2 -mavx2 {WARNINGS[cc['id']]} -I{bundles.CANONICAL}")])
        exe = o[:-2]
        w.build([exe], "link", [o] + objs, variables=[("cc", cc["cc"]), ("ldflags", "")])
        w.build([exe + ".log"], "run_check", [exe])
        ctx.add(exe + ".log", "test")
    w.blank()
