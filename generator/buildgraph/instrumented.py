# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The instrumented builds (flags.FLAVOURS) of every family that has a Check harness: the
sanitized Check suites (`ninja test-sanitize`), the constant-time runs under valgrind (`ninja
test`) and the libFuzzer targets (`ninja fuzz`, and a short run in `ninja test`), from the
harnesses each family's registry row names."""

import os

from generator import toolprobe
from generator.buildgraph import matrix
from generator.buildgraph.flags import FLAVOURS, FUZZ_FLAGS, SANITIZE, WARNINGS


def edges(w, ctx, families):
    """Every family row built in every flavour whose compiler is here and can do it."""
    w.build(["always"], "phony")
    by_id = {c["id"]: c for c in reversed(ctx.test_ccs)}
    for flavour, spec in FLAVOURS.items():
        for cid in spec["compilers"]:
            cc = by_id.get(cid)
            if cc is None:
                continue
            cflags = spec["cflags"][cid]
            if ctx.target.arch != "x86_64":
                cflags = cflags.replace("-march=x86-64-v3", "")
            if flavour == "asan" and not toolprobe.links(cc["cc"], toolprobe.PROBE_MAIN, cflags.split()
                                                      + spec["ldflags"].split()):
                print(f"configure.py: {cc['cc']} cannot build with {cflags}; "
                      "left out of test-sanitize")
                continue
            if flavour == "ct" and not (ctx.valgrind and toolprobe.links(cc["cc"],
                                                                      toolprobe.PROBE_MEMCHECK)):
                print("configure.py: valgrind or valgrind/memcheck.h missing; constant-time "
                      "check left out (apt-get install -y valgrind)")
                ctx.skip("the constant-time checks (valgrind)", "valgrind", "valgrind")
                break
            fuzzable = (flavour == "asan" and cid == "clang"
                        and toolprobe.links(cc["cc"], toolprobe.PROBE_FUZZER, FUZZ_FLAGS.split()))
            if flavour == "asan" and cid == "clang" and not fuzzable \
                    and ctx.args.fuzz_short_seconds:
                ctx.skip("the short fuzz runs", "libFuzzer for clang", "libclang-rt-14-dev")
            Flavour(w, ctx, families, flavour, cc, cflags).edges(fuzzable)
    w.blank()


class Flavour:
    """One compiler's build in one flavour, in build/<cc>-<flavour>/."""

    def __init__(self, w, ctx, families, flavour, cc, cflags):
        self.w, self.ctx, self.flavour, self.cc, self.cflags = w, ctx, flavour, cc, cflags
        self.spec = FLAVOURS[flavour]
        only = self.spec.get("families_by_compiler", {}).get(cc["id"])
        self.families = [f for f in families if f.check and (only is None or f.name in only)]
        self.base = os.path.join("build", f"{cc['cc']}-{flavour}")
        self.gen, self.obj = os.path.join(self.base, "gen"), os.path.join(self.base, "obj")

    def edges(self, fuzzable):
        objs = self.objects()
        for family in self.families:
            if not objs[family.name]:
                continue  # nothing of this family for this compiler (tcc: no intrinsics)
            if self.flavour == "asan":
                self.sanitized(family, objs[family.name], fuzzable)
            if self.flavour == "ct":
                self.constant_time(family, objs[family.name])

    def objects(self):
        """Every family's variants generated for this compiler (one testsuite run) and
        compiled with the flavour's flags, and the out/ sources likewise for a family
        without a variant space. Returns {family: objects}."""
        ctx, subsets = self.ctx, self.spec["subset"]
        chosen = matrix.chosen_spaces(ctx.target, self.cc, self.families, subsets)
        generated = matrix.testsuite(self.w, ctx, self.cc, self.gen, chosen, subsets,
                                     self.families)
        flags = f"{self.cflags} {WARNINGS.get(self.cc['id'], '')}"
        built, objs = set(), {}

        def compile_into(src, order_only, dest):
            o = os.path.join(dest, os.path.basename(src)[:-2] + ".o")
            if o not in built:
                self.w.build([o], "cc", [src], order_only=order_only,
                             variables=[("cc", self.cc["cc"]), ("cflags", flags)])
                built.add(o)
            return o

        for name, space in chosen.items():
            objs[name] = [compile_into(os.path.join(self.gen, f"{v.ident}.c"), generated,
                                       self.obj) for v in space]
        swap = ctx.out.swap.get(self.cc["cc"], {})
        for family in self.families:
            if not family.space:
                objs[family.name] = [
                    compile_into(swap.get(src, src), ctx.out.files + list(swap.values()),
                                 os.path.join(self.base, "out"))
                    for src in ctx.out.sources if src not in ctx.out.skip(self.cc)]
        return objs

    def harness(self, family):
        """(include flags, order-only inputs) of a family's harnesses: its testsuite folder,
        and out/ for a family that checks out/."""
        inc = f"-I{self.gen} -Itests" + ("" if family.space else f" {self.ctx.out.api_flags}")
        waits = [os.path.join(self.gen, h) for h in family.headers[:1]] + (
            [] if family.space else self.ctx.out.headers)
        if family.vectors:
            inc += f" -I{os.path.dirname(family.vectors)}"
            waits.append(family.vectors)
        return inc, waits

    def compile(self, src, flags, waits):
        o = os.path.join(self.obj, os.path.basename(src)[:-2] + ".o")
        self.w.build([o], "cc", [src], order_only=waits,
                     variables=[("cc", self.cc["cc"]), ("cflags", flags)])
        return o

    def label(self, inc):
        return f"{inc} -DRS_COMPILER='\"{self.cc['cc']} {self.flavour}\"'"

    def sanitized(self, family, objs, fuzzable):
        inc, waits = self.harness(family)
        support = [self.compile(src, self.cflags, waits) for src in family.support]
        check_o = self.compile(family.check,
                               f"{self.cflags} {self.label(inc)} {self.ctx.check_cflags}", waits)
        exe = os.path.join(self.base, f"check_{family.name}")
        self.w.build([exe], "link", [check_o] + support + objs,
                     variables=[("cc", self.cc["cc"]),
                                ("ldflags", f"{self.spec['ldflags']} {self.ctx.check_libs}")])
        # No fork per test: forking a sanitized process costs 300 times the test (2 minutes
        # instead of 0.4 s), and the first finding aborts the run anyway
        # (-fno-sanitize-recover), which summarize.py reports as broken.
        self.w.build([exe + ".log"], "run_check", [exe],
                     variables=[("check_env", "CK_FORK=no")])
        self.ctx.add(exe + ".log", "test-sanitize")
        if fuzzable:
            for target in family.fuzz:
                fuzz_target(self.w, self.ctx, self.cc, target, objs, inc, waits)

    def constant_time(self, family, objs):
        inc, waits = self.harness(family)
        ct_o = self.compile(family.ct, f"{self.cflags} {self.label(inc)}", waits)
        exe = os.path.join(self.base, f"ct_{family.name}")
        self.w.build([exe], "link", [ct_o] + objs,
                     variables=[("cc", self.cc["cc"]), ("ldflags", self.spec["ldflags"])])
        self.w.build([exe + ".log"], "run_ct", [exe])
        self.ctx.add(exe + ".log", "test")


def fuzz_target(w, ctx, cc, target, objs, inc, waits):
    """A fuzz target, linked with the sanitized variant objects: a long run (--fuzz-seconds)
    for `ninja fuzz` and a short one for `ninja test`."""
    name, harness, extras = target
    base = os.path.join("build", "fuzz")
    flags = f"{FUZZ_FLAGS} {inc} -Itests/fuzz"
    extra_flags = f"-O1 -g {SANITIZE} -fsanitize=fuzzer-no-link -Itests"
    linked = []
    for src in (harness,) + tuple(extras):
        o = os.path.join(base, "obj", os.path.basename(src)[:-2] + ".o")
        if o not in linked:
            w.build([o], "cc", [src], order_only=waits,
                    variables=[("cc", cc["cc"]),
                               ("cflags", flags if src == harness else extra_flags)])
            linked.append(o)
    exe = os.path.join(base, name)
    w.build([exe], "link", linked + objs, variables=[("cc", cc["cc"]), ("ldflags", FUZZ_FLAGS)])
    runs = [("fuzz", ctx.args.fuzz_seconds, ["always"])]
    if ctx.args.fuzz_short_seconds:
        runs.append(("test", ctx.args.fuzz_short_seconds, []))
    for goal, seconds, always in runs:
        log = os.path.join(base, f"{name}.{goal}.log")
        w.build([log], "run_fuzz", [exe], implicit=["tests/fuzz/run_fuzz.py"] + always,
                variables=[("seconds", str(seconds)),
                           ("seeds", os.path.join("tests", "fuzz", "corpus", name)),
                           ("corpus", os.path.join(base, f"{name}.corpus")),
                           ("artifacts", os.path.join(base, f"{name}.crash-"))])
        ctx.add(log, goal)
