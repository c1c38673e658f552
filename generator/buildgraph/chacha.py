# SPDX-License-Identifier: Apache-2.0 OR MIT
"""ChaCha: every variant of the ChaCha space per compiler under check_chacha and bench_chacha,
out/'s chacha.c under check_chacha, and lengths above 4 GiB through the out/ API."""

import os
import sys

from generator.choice import targets, variants


def per_compiler(w, ctx, suite):
    objs = suite.objects("chacha")
    if suite.programs:
        # The plain reference is the second opinion in the suite and the bench's baseline;
        # OpenSSL's EVP_chacha20, when there, the bench's peer; the other registry libraries
        # installed (ctx.peers) race it in the 1 MiB XOR.
        ref = suite.reference("tests/ref/chacha_ref.c")
        suite.check("tests/check_chacha.c", [ref] + objs)
        if ctx.crypto_libs is not None:
            suite.bench("chacha", "bench/bench_chacha.c", [ref] + objs,
                        f"{ctx.crypto_libs} {ctx.peers['libs']}".strip(),
                        defines=ctx.peers["cflags"])
    w.blank()


def vendored(w, ctx):
    """out/chacha.c, built by --cc, under the ChaCha harness in out/ mode."""
    cc, obj, pfx, c = ctx.main_cc, ctx.out_check, ctx.args.prefix, ctx.chacha
    chacha_o = os.path.join(obj, "chacha.o")
    w.build([chacha_o], "cc", [ctx.out.chacha_files[2]], order_only=ctx.out.chacha_files,
            variables=[("cc", cc["cc"]), ("cflags", ctx.kernel_flags(cc))])
    # The level the harness expects to run: the widest, where the compiler builds dispatch.
    runs = c.isa if "x86-target-attr" in cc["caps"] else "scalar"
    cpu = " ".join(variants.CHACHA_ISAS[runs].cpu)
    harness = os.path.join(obj, "check_chacha_out.o")
    w.build([harness], "cc", ["tests/check_chacha.c"],
            order_only=ctx.out.chacha_files + [os.path.join(ctx.main_gen, "chacha_vectors.h")],
            variables=[("cc", cc["cc"]),
                       ("cflags", f"-O1 -I{ctx.out.dir} -I{ctx.main_gen} -Itests "
                                  f"{ctx.check_cflags} "
                                  f"-DRS_COMPILER='\"{cc['cc']} (out/)\"' "
                                  + (f"-DRS_OUT_PREFIX={pfx} " if pfx else "")
                                  + f"-DRS_OUT_NAME='\"{c.name}\"' "
                                  f"-DRS_OUT_CPU='\"{cpu}\"'")])
    ref = os.path.join(obj, "chacha_ref.o")
    w.build([ref], "cc", ["tests/ref/chacha_ref.c"],
            variables=[("cc", cc["cc"]), ("cflags", "-O2")])
    exe = os.path.join(obj, "check_chacha_out")
    w.build([exe], "link", [harness, chacha_o, ref],
            variables=[("cc", cc["cc"]), ("ldflags", ctx.check_libs)])
    w.build([exe + ".log"], "run_check", [exe])
    ctx.add(exe + ".log", "test", "check-out")
    long_lengths(w, ctx, chacha_o)


def long_lengths(w, ctx, chacha_o):
    """Lengths above 4 GiB through the out/ API, ChaCha and the sponge (Linux: one window
    mapped many times): the cheap cases in `ninja test`, the slow ones too in `ninja
    test-long`. The harness uses the plain names, so not with --prefix."""
    if ctx.target is not targets.host() or not sys.platform.startswith("linux") \
            or ctx.args.prefix:
        return
    cc, obj = ctx.main_cc, ctx.out_check
    long_o = os.path.join(obj, "check_long.o")
    w.build([long_o], "cc", ["tests/check_long.c"],
            order_only=ctx.out.headers + ctx.out.chacha_files,
            variables=[("cc", cc["cc"]),
                       ("cflags", f"-O1 {ctx.out.api_flags} {ctx.check_cflags}")])
    exe = os.path.join(obj, "check_long")
    w.build([exe], "link", [long_o, chacha_o] + ctx.out.objects[cc["name"]],
            variables=[("cc", cc["cc"]), ("ldflags", ctx.check_libs)])
    w.build([exe + ".log"], "run_check", [exe])
    w.build([exe + "_full.log"], "run_check", [exe], variables=[("check_env", "RS_LONG=1")])
    ctx.add(exe + ".log", "test", "check-out")
    ctx.add(exe + "_full.log", "test-long")
