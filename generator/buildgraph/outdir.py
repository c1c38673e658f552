# SPDX-License-Identifier: Apache-2.0 OR MIT
"""build/out/<target>: the vendorable folder the build generates with the chosen variants,
and its sources as each compiler builds them."""

import os

from generator.emit import kernels
from generator.choice import targets, variants


class OutFolder:
    def __init__(self, ctx):
        self.dir = ctx.args.out or os.path.join("build", "out", ctx.target.name)
        self.chacha_files = [os.path.join(self.dir, n) for n in kernels.CHACHA_FILES]
        self.multi_files = [os.path.join(self.dir, f"keccak_p1600_x{m.instances}.{ext}")
                            for m in ctx.multis for ext in ("h", "c")]
        self.files = [os.path.join(self.dir, n)
                      for n in kernels.KECCAK_FILES + kernels.SPONGE_FILES] + self.multi_files
        self.sources = [f for f in self.files if f.endswith(".c")]
        self.headers = [f for f in self.files if f.endswith(".h")]
        # Harnesses use the plain API names; with --prefix a forced include maps them.
        self.api_flags = f"-I{self.dir}"
        if ctx.args.prefix:
            self.api_flags += " -include build/prefix_map.h"
        self.multis = ctx.multis
        self.swap = {}     # per compiler that cannot build out/'s kernel: {out/ source: its own}
        self.objects = {}  # per compiler: its objects of out/ (chacha.c aside)

    def skip(self, cc):
        """The out/ multi-state sources compiler `cc` cannot build (no intrinsics: tcc). The
        sponge leaves them out for such a compiler by itself."""
        return [f for m, f in zip(self.multis, [f for f in self.multi_files if f.endswith(".c")])
                if any(need not in cc["caps"] for need in m.compiler_needs())]


def genargs(ctx):
    k, c = ctx.keccak, ctx.chacha
    args = [f"--target {ctx.target.name}", f"--cc-id {ctx.main_cc['id']}",
            f"--unroll {k.unroll}"]
    if isinstance(k, variants.KeccakVariant):   # not a single-state vector kernel
        args += [f"--lane-complement {'on' if k.lane_complement else 'off'}",
                 f"--rotate {k.rotate}", f"--parity {k.parity}", f"--lanes {k.lanes}"]
    args.append(f"--isa {k.isa}")
    if ctx.args.prefix:
        args.append(f"--prefix {ctx.args.prefix}")
    args += [f"--multi x{m.instances}-u{m.unroll}-{m.isa}" for m in ctx.multis]
    args += [f"--chacha-isa {c.isa}", f"--chacha-schedule {c.schedule}",
             f"--chacha-rotate {c.rotate}", f"--chacha-states {c.states}",
             f"--chacha-rounds {','.join(map(str, c.rounds))}"]
    return " ".join(args)


def edges(w, ctx):
    """The generate edge of out/ (and the prefix map its harnesses include)."""
    out = ctx.out
    w.build(out.files + out.chacha_files, "generate", implicit=ctx.gen_inputs,
            variables=[("genargs", genargs(ctx)), ("outdir", out.dir)])
    if ctx.args.prefix:
        w.build(["build/prefix_map.h"], "prefix_map", out.headers,
                implicit=["tests/prefix_map.py"], variables=[("prefix", ctx.args.prefix)])
        out.headers = out.headers + ["build/prefix_map.h"]
    w.blank()


def compile(w, ctx, cc):
    """out/ compiled by `cc`, warning-free, in build/<cc>/out/. out/ carries the main
    compiler's scalar kernel: another compiler may lack what it needs (a tuned profile's rorx
    rotation is inline asm tcc cannot assemble); then it builds the rest of out/ over its own
    default kernel, generated beside it under the same API. Returns the objects."""
    out, name = ctx.out, cc["cc"]
    lacks = [n for n in ctx.keccak.compiler_needs() if n not in cc["caps"]]
    if lacks and name != ctx.main_cc["name"]:
        own = targets.default_keccak(ctx.target, cc["id"])
        own_dir = ctx.compiler_dir(cc, "own-kernel")
        own_files = [os.path.join(own_dir, n) for n in kernels.KECCAK_FILES]
        w.build(own_files, "generate", implicit=ctx.gen_inputs,
                variables=[("genargs", f"--target {ctx.target.name} --cc-id {cc['id']} "
                                       f"--kernels keccak"
                                       + (f" --prefix {ctx.args.prefix}" if ctx.args.prefix
                                          else "")),
                           ("outdir", own_dir)])
        out.swap[name] = {os.path.join(out.dir, "keccak_p1600.c"): own_files[1]}
        print(f"configure.py: {name} cannot build out/'s {ctx.keccak.name} (lacks "
              f"{', '.join(lacks)}); its out/ sponge suite runs over {own.name}")
    swap = out.swap.get(name, {})
    objs = []
    for src in [swap.get(src, src) for src in out.sources if src not in out.skip(cc)]:
        o = ctx.compiler_dir(cc, "out", os.path.basename(src)[:-2] + ".o")
        w.build([o], "cc", [src], order_only=out.files + list(swap.values()),
                variables=[("cc", name), ("cflags", ctx.kernel_flags(cc))])
        objs.append(o)
    out.objects[name] = objs
    return objs
