# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The multi-buffer sponges (issue 16: sha3_256_x4, shake128_x8, ...). They live in out/'s
keccak_sponge.c beside the single-buffer ones, so this family has no variant space and no
sources of its own: it runs check_sponge_xN on out/ per compiler, and on the committed
x86_64 bundle once per forced dispatch path, since the output must not depend on the path."""

import os

from generator import targets
from generator.buildgraph import bundles

VECTORS = "sponge_xN_vectors.h"
CHECK = "tests/check_sponge_xN.c"


def per_compiler(w, ctx, suite):
    """check_sponge_xN over out/ as this compiler built it for the sponge family."""
    cc = suite.cc
    objs = ctx.out.objects.get(cc["cc"])
    if suite.subset != "all" or not objs or not suite.tests:
        return
    check = suite.program(CHECK, objs,
                          f"-O1 {ctx.out.api_flags} -I{suite.gen} -Itests {ctx.check_cflags} "
                          f"-DRS_COMPILER='\"{cc['cc']}\"'", ctx.check_libs,
                          order_only=ctx.out.headers + [os.path.join(suite.gen, VECTORS)])
    w.build([check + ".log"], "run_check", [check])
    ctx.add(check + ".log", "test")
    w.blank()


def vendored(w, ctx):
    """The committed x86_64 bundle (bundles.canonical_objects' objects, built by the bundles
    family) under check_sponge_xN with each dispatch path forced."""
    cc = next((c for c in ctx.test_ccs if c["id"] == "gcc"), None)
    if targets.host().name != "x86_64" or not cc:
        return
    objdir = os.path.join("build", "bundle", cc["cc"])
    objs = [os.path.join(objdir, os.path.basename(src)[:-2] + ".o")
            for src in bundles._sources(bundles.CANONICAL)]
    headers = [f for f in bundles.committed()
               if f.startswith(bundles.CANONICAL) and f.endswith(".h")]
    gen = ctx.compiler_dir(cc, "gen")
    o = os.path.join(objdir, "check_sponge_xN.o")
    w.build([o], "cc", [CHECK], order_only=headers + [os.path.join(gen, VECTORS)],
            variables=[("cc", cc["cc"]),
                       ("cflags", f"-O1 -I{bundles.CANONICAL} -I{gen} -Itests "
                                  f"{ctx.check_cflags} -DRS_COMPILER='\"{cc['cc']} bundle\"'")])
    exe = os.path.join(objdir, "check_sponge_xN")
    w.build([exe], "link", [o] + objs, variables=[("cc", cc["cc"]), ("ldflags", ctx.check_libs)])
    for path in targets.BUNDLES["x86_64"].paths:
        log = f"{exe}.{path.name}.log"
        w.build([log], "run_check", [exe],
                variables=[("check_env", f"ROUNDSMITH_PATH={path.name}")])
        ctx.add(log, "test")
    w.blank()
