# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The multi-buffer sponges (sha3_256_x4, shake128_x8, ...). They live in out/'s
keccak_sponge.c beside the single-buffer ones, so this family has no variant space and no
sources of its own: it runs check_sponge_xN on out/ per compiler, and on the committed
x86_64 bundle once per forced dispatch path, since the output must not depend on the path,
and on the aarch64 bundle under qemu likewise."""

import os
import shutil

from generator import toolprobe
from generator.choice import targets
from generator.buildgraph import bundles
from generator.buildgraph.flags import CROSS_CFLAGS, WARNINGS

# The vectors, written once by the cross testsuite rule (the scalar branch of `generator
# testsuite` writes them beside sponge_vectors.h), so no existing testsuite edge changes.
VECTORS_DIR = os.path.join("build", "sponge_xN")
VECTORS = os.path.join(VECTORS_DIR, "sponge_xN_vectors.h")
# The parallel SnP's call scripts (generator/buildgraph/snp_xn.py), written by the same edge.
SNP_VECTORS = os.path.join(VECTORS_DIR, "snp_xN_vectors.h")
CHECK = "tests/check_sponge_xN.c"
EXAMPLE = "examples/mlkem_matrix.c"
BENCH = "bench/bench_sponge_xN.c"
BENCH_SP = "bench/bench_sp800185.c"
BENCH_XN = "bench/bench_keccak_xN.c"
BENCH_SHORT = "bench/bench_short.c"


def per_compiler(w, ctx, suite):
    """check_sponge_xN over out/ as this compiler built it for the sponge family."""
    cc = suite.cc
    objs = ctx.out.objects.get(cc["cc"])
    if suite.subset != "all" or not objs or not suite.tests:
        return
    check = suite.program(CHECK, objs,
                          f"-O1 {ctx.out.api_flags} -I{VECTORS_DIR} -Itests {ctx.check_cflags} "
                          f"-DRS_COMPILER='\"{cc['cc']}\"'", ctx.check_libs,
                          order_only=ctx.out.headers + [VECTORS])
    w.build([check + ".log"], "run_check", [check])
    ctx.add(check + ".log", "test")
    w.blank()


def vendored(w, ctx):
    """The vectors; the committed x86_64 bundle (bundles.canonical_objects' objects, built by
    the bundles family) under check_sponge_xN with each dispatch path forced."""
    w.build([VECTORS, SNP_VECTORS], "testsuite_cross", implicit=ctx.gen_inputs,
            variables=[("target", ctx.target.name), ("outdir", VECTORS_DIR)])
    cc = next((c for c in ctx.test_ccs if c["id"] == "gcc"), None)
    if targets.host().name != "x86_64" or not cc:
        return
    objdir = os.path.join("build", "bundle", cc["cc"])
    objs = [os.path.join(objdir, os.path.basename(src)[:-2] + ".o")
            for src in bundles._sources(bundles.CANONICAL)]
    headers = [f for f in bundles.committed()
               if f.startswith(bundles.CANONICAL) and f.endswith(".h")]
    o = os.path.join(objdir, "check_sponge_xN.o")
    w.build([o], "cc", [CHECK], order_only=headers + [VECTORS],
            variables=[("cc", cc["cc"]),
                       ("cflags", f"-O1 -I{bundles.CANONICAL} -I{VECTORS_DIR} -Itests "
                                  f"{ctx.check_cflags} -DRS_COMPILER='\"{cc['cc']} bundle\"'")])
    exe = os.path.join(objdir, "check_sponge_xN")
    w.build([exe], "link", [o] + objs, variables=[("cc", cc["cc"]), ("ldflags", ctx.check_libs)])
    for path in targets.BUNDLES["x86_64"].paths:
        log = f"{exe}.{path.name}.log"
        w.build([log], "run_check", [exe],
                variables=[("check_env", f"ROUNDSMITH_PATH={path.name}")])
        ctx.add(log, "test")
    # examples/mlkem_matrix.c on the same objects, against hashlib on every path.
    o = os.path.join(objdir, "mlkem_matrix.o")
    w.build([o], "cc", [EXAMPLE], order_only=headers,
            variables=[("cc", cc["cc"]),
                       ("cflags", f"-O2 {WARNINGS[cc['id']]} -I{bundles.CANONICAL}")])
    example = os.path.join(objdir, "mlkem_matrix")
    w.build([example], "link", [o] + objs, variables=[("cc", cc["cc"]), ("ldflags", "")])
    log = os.path.join(objdir, "e2e_mlkem_matrix.log")
    w.build([log], "e2e_module", implicit=[example, "tests/e2e_mlkem_matrix.py"],
            variables=[("module", "tests.e2e_mlkem_matrix"),
                       ("e2e_env", f"MLKEM_MATRIX={example}")])
    ctx.add(log, "test")
    benches(w, cc, objdir, objs, headers)
    w.blank()


def benches(w, cc, objdir, objs, headers):
    """`ninja bench-sponge-xN`, `ninja bench-sp800185`, `ninja bench-keccak-xN` and `ninja
    bench-short` (`bench-short-paths`: once per path), each its own goal, so the bench goals'
    existing edges stay as they are. They run on the path the dispatch picks
    (ROUNDSMITH_PATH=avx2 by hand for AVX2)."""
    o = os.path.join(objdir, "bench_sponge_xN.o")
    w.build([o], "cc", [BENCH], order_only=headers,
            variables=[("cc", cc["cc"]),
                       ("cflags", f"-O2 -I{bundles.CANONICAL} -Itests "
                                  f"-DRS_COMPILER='\"{cc['cc']}\"'")])
    bench = os.path.join(objdir, "bench_sponge_xN")
    w.build([bench], "link", [o] + objs, variables=[("cc", cc["cc"]), ("ldflags", "")])
    w.build(["bench-sponge-xN"], "bench_each", [bench])
    # `ninja bench-sp800185`: ParallelHash and KT against cSHAKE on the same objects.
    o = os.path.join(objdir, "bench_sp800185.o")
    w.build([o], "cc", [BENCH_SP], order_only=headers,
            variables=[("cc", cc["cc"]), ("cflags", f"-O2 -I{bundles.CANONICAL} -Itests")])
    bench = os.path.join(objdir, "bench_sp800185")
    w.build([bench], "link", [o] + objs, variables=[("cc", cc["cc"]), ("ldflags", "")])
    w.build(["bench-sp800185"], "bench_each", [bench])
    # `ninja bench-keccak-xN`: the x-N permutations as a library calls them.
    o = os.path.join(objdir, "bench_keccak_xN.o")
    w.build([o], "cc", [BENCH_XN], order_only=headers,
            variables=[("cc", cc["cc"]), ("cflags", f"-O2 -I{bundles.CANONICAL} -Itests")])
    bench = os.path.join(objdir, "bench_keccak_xN")
    w.build([bench], "link", [o] + objs, variables=[("cc", cc["cc"]), ("ldflags", "")])
    w.build(["bench-keccak-xN"], "bench_each", [bench])
    # `ninja bench-short`: each short-message call against its bare permutation, on the
    # path the dispatch picks; `ninja bench-short-paths`: the same once per path.
    o = os.path.join(objdir, "bench_short.o")
    w.build([o], "cc", [BENCH_SHORT], order_only=headers,
            variables=[("cc", cc["cc"]),
                       ("cflags", f"-O2 -I{bundles.CANONICAL} -Itests "
                                  f"-DRS_COMPILER='\"{cc['cc']}\"'")])
    bench = os.path.join(objdir, "bench_short")
    w.build([bench], "link", [o] + objs, variables=[("cc", cc["cc"]), ("ldflags", "")])
    w.build(["bench-short"], "bench_each", [bench])
    w.build(["bench-short-paths"], "bench_paths", [bench], variables=[
        ("paths", " ".join(p.name for p in targets.BUNDLES["x86_64"].paths))])


def elsewhere(w, ctx):
    """The committed aarch64 bundle (x2 on NEON and on the SHA3 extension) under
    check_sponge_xN and check_sponge, cross-compiled and run under qemu-user with each path forced, when
    ./configure.py --cross selects aarch64 and its toolchain, Check and qemu are here."""
    names = None if ctx.args.cross is None else ctx.args.cross.split(",")
    gcc = next((c for c in ctx.test_ccs if c["id"] == "gcc"), None)
    target = targets.get("aarch64")
    if (names is not None and "aarch64" not in names) or not gcc or targets.host() == target:
        return
    cell = toolprobe.cross_toolchain(target)
    what = "out/aarch64 under check_sponge_xN (qemu-user)"
    if "version" not in cell:
        return ctx.skip(what, cell["cc"], f"gcc-{target.triplet}")
    if "check_libs" not in cell:
        # Multiarch: `dpkg --add-architecture arm64; apt-get update` first (docs/targets.md).
        return ctx.skip(what, "Check for arm64", "check:arm64")
    if not shutil.which(target.qemu):
        return ctx.skip(what, target.qemu, "qemu-user")
    folder = os.path.join("out", "aarch64")
    base = os.path.join("build", "cross", "bundle-aarch64")
    headers = [f for f in bundles.committed() if f.startswith(folder) and f.endswith(".h")]
    objs = []
    for src in bundles._sources(folder):
        o = os.path.join(base, os.path.basename(src)[:-2] + ".o")
        w.build([o], "cc", [src], variables=[("cc", cell["cc"]), ("cflags", CROSS_CFLAGS)])
        objs.append(o)
    # check_sponge too: every single-buffer function (KT256 and SP 800-185 included, whose
    # leaves run on the x2 kernels) on every path; its vectors are written beside these. And
    # check_keccak_xN: the x-N permutations, dispatched and by their ISA names.
    for name, src in (("check_sponge_xN", CHECK), ("check_sponge", "tests/check_sponge.c"),
                      ("check_keccak_xN", bundles.CHECK_XN)):
        o = os.path.join(base, name + ".o")
        w.build([o], "cc", [src], order_only=headers + [VECTORS],
                variables=[("cc", cell["cc"]),
                           ("cflags", f"-O1 -I{folder} -I{VECTORS_DIR} -Itests "
                                      f"{cell['check_cflags']} "
                                      f"-DRS_COMPILER='\"{cell['cc']} bundle\"'")])
        exe = os.path.join(base, name)
        w.build([exe], "link", [o] + objs,
                variables=[("cc", cell["cc"]), ("ldflags", f"-static {cell['check_libs']}")])
        for path in targets.BUNDLES["aarch64"].paths:
            log = f"{exe}.{path.name}.log"
            # qemu-user hands the host's environment to the guest.
            w.build([log], "run_qemu", [exe],
                    variables=[("qemu", f"env ROUNDSMITH_PATH={path.name} {target.qemu} -cpu max")])
            ctx.add(log, "test")
    w.blank()
