# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The variant matrix: a compiler's build of every family's variants (one testsuite edge
generates them all), and the helpers family modules add their Check suites and benches with.
The instrumented flavours (instrumented.py) generate theirs the same way."""

import os

from generator.choice import targets


def chosen_spaces(target, cc, families, subsets):
    """{family: its variants in subset subsets[family] (default "all")} for compiler `cc`;
    a yardstick family's also hold cc's default scalar kernel, which they are compared with."""
    caps = set(cc["caps"])
    chosen = {}
    for family in families:
        if not family.space:
            continue
        space = family.subset(family.space(target, caps), subsets.get(family.name, "all"))
        if family.yardstick and space:
            space = space + [targets.default_keccak(target, cc["id"])]
        chosen[family.name] = space
    return chosen


def testsuite(w, ctx, cc, gen, chosen, subsets, families):
    """The testsuite edge writing `chosen` into `gen`: each variant's source and header under
    its own prefix, and each family's registry and vectors. Returns the files."""
    files = []
    for space in chosen.values():
        files += [os.path.join(gen, f"{v.ident}.c") for v in space]
        files += [os.path.join(gen, f"{v.ident}.h") for v in space]
    files = list(dict.fromkeys(files))
    files += [os.path.join(gen, h) for family in families for h in family.headers]
    w.build(files, "testsuite", implicit=ctx.gen_inputs,
            variables=[("target", ctx.target.name), ("ccid", cc["id"]),
                       ("caps", ",".join(cc["caps"])), ("outdir", gen)]
            + [(family.subset_option, subsets.get(family.name, "all"))
               for family in families if family.space])
    return files


class Suite:
    """Compiler `cc`'s build of the matrix, in build/<cc>/: every variant (subset "all"), or
    the tuner's pruned space ("quick") in build/<cc>/quick/ with its benches only. A compiler
    outside the test matrix (--cc alone) builds no suite or bench."""

    def __init__(self, w, ctx, cc, families, subset="all"):
        self.w, self.ctx, self.cc, self.subset = w, ctx, cc, subset
        self.base = ctx.compiler_dir(cc) if subset == "all" else ctx.compiler_dir(cc, subset)
        self.programs = ctx.runs_tests(cc)          # harnesses and benches are built
        self.tests = self.programs and subset == "all"
        self.gen = os.path.join(self.base, "gen")
        self.obj = os.path.join(self.base, "obj")
        subsets = {family.name: subset for family in families}
        self.spaces = chosen_spaces(ctx.target, cc, families, subsets)
        self.generated = testsuite(w, ctx, cc, self.gen, self.spaces, subsets, families)
        label = f"-DRS_COMPILER='\"{cc['cc']}\"'"
        self.harness_flags = f"-O1 -I{self.gen} -Itests {ctx.check_cflags} {label}"
        self.bench_flags = f"-O2 -I{self.gen} -Itests {label}"
        self._built = set()

    def compile(self, src, cflags=None, cc=None, order_only=None):
        """src's object in obj/ (written once however often asked for)."""
        o = os.path.join(self.obj, os.path.basename(src)[:-2] + ".o")
        if o not in self._built:
            self._built.add(o)
            self.w.build([o], "cc", [src],
                         order_only=self.generated if order_only is None else order_only,
                         variables=[("cc", cc or self.cc["cc"]),
                                    ("cflags", cflags or self.ctx.kernel_flags(self.cc))])
        return o

    def objects(self, family):
        """The objects of a family's variants, compiled as kernels are."""
        return [self.compile(os.path.join(self.gen, f"{v.ident}.c"))
                for v in self.spaces.get(family, [])]

    def reference(self, src):
        """A plain reference, built by gcc -O3 when gcc exists, so every compiler's figures
        are ratios against the same code."""
        return self.compile(src, "-O3 -Wall -Wextra", cc=self.ctx.ref_cc, order_only=())

    def program(self, src, linked, cflags, ldflags, order_only=None):
        o = self.compile(src, cflags, order_only=order_only)
        exe = os.path.join(self.base, os.path.basename(src)[:-2])
        self.w.build([exe], "link", [o] + linked,
                     variables=[("cc", self.cc["cc"]), ("ldflags", ldflags)])
        return exe

    def check(self, src, linked):
        """A Check suite of the full matrix, run by `ninja test`."""
        if self.tests:
            exe = self.program(src, linked, self.harness_flags, self.ctx.check_libs)
            self.w.build([exe + ".log"], "run_check", [exe])
            self.ctx.add(exe + ".log", "test")

    def bench(self, kind, src, linked, ldflags="", defines=""):
        """A bench program: `ninja bench`, the tuner (`kind` names it there), the report."""
        exe = self.program(src, linked, f"{self.bench_flags} {defines}".rstrip(), ldflags)
        self.ctx.benches[self.subset].setdefault(self.cc["cc"], {})[kind] = exe
        return exe
