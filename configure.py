#!/usr/bin/env python3
"""Configure roundsmith: probe compilers and the CPU, then write build.ninja.

Reads top to bottom: options, probes, the profile (which variants out/ gets), then each
family's edges (generator/buildgraph/families.py), then the file. It only configures: every
algorithmic choice is the generator's, asked through generator.variants.
"""

import argparse
import glob
import os
import shlex
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, ROOT)

from generator import targets, vectors  # noqa: E402
from generator.buildgraph import (choices, goals, instrumented, matrix, ninja,  # noqa: E402
                                  outdir, probes)
from generator.buildgraph.context import Context  # noqa: E402
from generator.buildgraph.families import FAMILIES  # noqa: E402
from generator.buildgraph.flags import KNOWN_COMPILERS  # noqa: E402
from generator.errors import UsageError  # noqa: E402


def fail(message):
    print(f"configure.py: error: {message}", file=sys.stderr)
    sys.exit(2)


class Parser(argparse.ArgumentParser):
    def error(self, message):
        fail(message)


# --- options -------------------------------------------------------------------------------

def kernel_options(p):
    """What out/ is generated with (default: the tuned profile, else the built-in choice)."""
    p.add_argument("--target", default="host", help="target to generate (default: the host)")
    p.add_argument("--cc", default="cc", help="compiler for the main build (gcc, clang, tcc)")
    p.add_argument("--cflags", default=None, help="optimisation flags (default: per compiler)")
    p.add_argument("--unroll", help="Keccak rounds per loop pass: a divisor of 24")
    p.add_argument("--lane-complement", help="on or off")
    p.add_argument("--rotate", help="shift, builtin, rol or rorx")
    p.add_argument("--parity", help="theta parities: fused (into chi) or separate")
    p.add_argument("--lanes", help="Keccak lanes: plain (64-bit) or interleaved (two 32-bit "
                                   "words of even and odd bits, for 32-bit targets)")
    p.add_argument("--multi", default=None,
                   help="multi-state kernels to add to the output, comma separated "
                        "(for example x8-avx512,x4-avx2; 'none' for none; default: "
                        "x8-avx512,x4-avx2 on x86_64 when the compiler has intrinsics)")
    p.add_argument("--chacha-isa", help="widest ChaCha level: scalar, sse2, ssse3, avx2, avx512")
    p.add_argument("--chacha-schedule", help="ChaCha quarter-round order: seq, step or pair")
    p.add_argument("--chacha-rotate", help="ChaCha rotations: shift, pshufb or vprold")
    p.add_argument("--chacha-states", help="ChaCha block sets interleaved: 1 or 2")
    p.add_argument("--chacha-rounds", help="ChaCha round counts, e.g. 8,12,20")
    p.add_argument("--prefix", default="", help="prefix for every exported symbol")


def build_options(p):
    """What the build does besides: bundles, tuning, the test matrix, cross targets, fuzzing."""
    p.add_argument("--bundle", default=None, metavar="TARGET",
                   help="`ninja bundle` writes this target's bundle (x86_64, aarch64, portable) "
                        "with --prefix into build/bundle/TARGET")
    p.add_argument("--amalgamate", action="store_true",
                   help="with --bundle: one roundsmith.c and one roundsmith.h")
    p.add_argument("--tune", nargs="?", const="full", choices=("full", "quick"),
                   help="configure, run `ninja tune` (or `ninja tune-quick` with --tune quick), "
                        "then configure again with the profiles it wrote")
    p.add_argument("--no-profile", action="store_true",
                   help="ignore tuned profiles in generator/profiles/")
    p.add_argument("--out", default=None, help="output folder (default: build/out/<target>)")
    p.add_argument("--test-cc", default=",".join(KNOWN_COMPILERS),
                   help="compilers for the test matrix; missing ones are skipped")
    p.add_argument("--cross", default=None,
                   help="cross targets of `ninja test-cross`, comma separated, or 'none' "
                        f"(default: all of {', '.join(targets.CROSS_TARGETS)})")
    p.add_argument("--vectors", default=vectors.default_dir(),
                   help="folder with the official vector files")
    p.add_argument("--fuzz-seconds", type=int, default=60,
                   help="how long `ninja fuzz` runs each fuzz target (default 60)")
    p.add_argument("--fuzz-short-seconds", type=int, default=4,
                   help="how long `ninja test` runs each fuzz target (default 4; 0: not at all)")


def options(argv):
    p = Parser(description="Configure the roundsmith build (writes build.ninja).")
    kernel_options(p)
    build_options(p)
    args = p.parse_args(argv)
    if args.bundle is not None and args.bundle not in targets.BUNDLES \
            and args.bundle not in targets.TARGETS:
        fail(f"--bundle: unknown target '{args.bundle}'; accepted: "
             f"{', '.join(targets.BUNDLES)} or another target of `python3 -m generator list "
             "targets`")
    if args.amalgamate and not args.bundle:
        fail("--amalgamate needs --bundle TARGET")
    if args.fuzz_seconds < 1 or args.fuzz_short_seconds < 0:
        fail("--fuzz-seconds must be at least 1, --fuzz-short-seconds at least 0")
    for name in (args.cross or "").split(","):
        if name and name != "none" and name not in targets.CROSS_TARGETS:
            fail(f"--cross: unknown cross target '{name}'; accepted: "
                 f"{', '.join(targets.CROSS_TARGETS)}, none")
    return args


# --- probes: what this machine has, checked now rather than halfway through the build -------

def compilers(args):
    """--cc's probe and the test matrix's. --cc may be a test-matrix compiler under another
    name (cc: gcc); then its "name" is that compiler's, whose build folder it shares."""
    main_cc = probes.compiler(args.cc)
    if main_cc is None:
        raise UsageError(f"compiler '{args.cc}' is not installed; pass --cc with one of "
                         f"{', '.join(KNOWN_COMPILERS)} (apt-get install -y gcc clang tcc)")
    test_ccs = []
    for name in filter(None, args.test_cc.split(",")):
        found = probes.compiler(name)
        if found:
            test_ccs.append(found)
        else:
            print(f"configure.py: {name} not installed, left out of the test matrix")
    same = [c for c in test_ccs
            if os.path.realpath(c["path"]) == os.path.realpath(main_cc["path"])]
    if same:
        return dict(same[0], cc=main_cc["cc"], name=same[0]["cc"]), test_ccs
    return dict(main_cc, name=main_cc["cc"]), test_ccs


def probe(args):
    target = targets.get(args.target)
    main_cc, test_ccs = compilers(args)
    vectors.keccak_intermediate(args.vectors)  # read at build time: fail now if missing
    vectors.chacha_records(args.vectors)
    probes.jinja2()
    check_cflags, check_libs = probes.check_library()
    clang = next((c["path"] for c in test_ccs if c["id"] == "clang"), shutil.which("clang"))
    return Context(
        args=args, target=target, main_cc=main_cc, test_ccs=test_ccs,
        check_cflags=check_cflags, check_libs=check_libs, crypto_libs=probes.crypto_libs(),
        peers=probes.peer_libraries(), clang=clang,
        ref_cc="gcc" if shutil.which("gcc") else None, valgrind=shutil.which("valgrind"),
        plots_python=probes.plotting_python(), cpu=probes.cpu_features(),
        gen_inputs=generator_sources())


def generator_sources():
    """What a generate edge depends on: the generator (not generator/buildgraph/, which
    only configures) and the templates."""
    return sorted(ninja.rel(p) for p in glob.glob(os.path.join(ROOT, "generator", "*.py"))
                  + glob.glob(os.path.join(ROOT, "templates", "**", "*.j2"), recursive=True))


# --- profile: the variants out/ is generated with --------------------------------------------

def profile(ctx):
    tuned = choices.tuned_choices(ctx.args, ctx.target, ctx.main_cc)
    ctx.keccak = choices.pick_keccak(ctx.args, ctx.target, ctx.main_cc, tuned)
    ctx.multis = choices.pick_multis(ctx.args, ctx.target, ctx.main_cc, tuned)
    ctx.chacha = choices.pick_chacha(ctx.args, ctx.target, ctx.main_cc, tuned)
    ctx.out = outdir.OutFolder(ctx)


# --- the edges -----------------------------------------------------------------------------

def each(phase, *args):
    """Every family's edges of one phase, in registry order."""
    for family in FAMILIES:
        write = getattr(family.module, phase, None)
        if write:
            write(*args)


def edges(ctx):
    w = ninja.Writer()
    configure_edge(w, ctx)
    outdir.edges(w, ctx)
    for cc in ctx.compilers:
        each("per_compiler", w, ctx, matrix.Suite(w, ctx, cc, FAMILIES))
    each("vendored", w, ctx)
    instrumented.edges(w, ctx, FAMILIES)
    each("elsewhere", w, ctx)
    goals.summaries(w, ctx)
    for cc in ctx.test_ccs:
        each("per_compiler", w, ctx, matrix.Suite(w, ctx, cc, FAMILIES, subset="quick"))
    goals.tuning(w, ctx)
    goals.report(w, ctx)
    return w


def configure_edge(w, ctx):
    """build.ninja reruns configure when configure, the generator, a template or a profile
    changes (the profiles folder too: a profile `ninja tune` adds changes its time stamp)."""
    inputs = ["configure.py", "build.ninja.in"] + sorted(
        ninja.rel(p) for p in glob.glob(os.path.join(ROOT, "generator", "buildgraph", "*.py")))
    inputs += ctx.gen_inputs + sorted(
        ninja.rel(p) for p in glob.glob(os.path.join(ROOT, "generator", "profiles", "*.json")))
    if os.path.isdir(os.path.join(ROOT, "generator", "profiles")):
        inputs.append("generator/profiles")
    w.build(["build.ninja"], "configure", implicit=inputs)
    w.blank()


# --- the file ------------------------------------------------------------------------------

def write(w, ctx, argv):
    with open(os.path.join(ROOT, "build.ninja.in")) as f:
        template = f.read()
    used = ("bmi1", "bmi2", "avx2", "avx512f", "avx512vl")
    w.write(os.path.join(ROOT, "build.ninja"), template, {
        "@CONFIGURE_COMMAND@": "./configure.py " + shlex.join(argv) if argv else "./configure.py",
        "@CPU_FEATURES@": " ".join(sorted(f for f in ctx.cpu if f in used)),
        "@ROOT@": ninja.esc(ROOT),
        "@PYTHON@": ninja.esc(sys.executable),
        "@VECTORS@": ninja.esc(os.path.abspath(ctx.args.vectors)),
        "@CONFIGURE_ARGS@": " ".join(shlex.quote(a) for a in argv).replace("$", "$$"),
    })
    print(f"configure.py: {ctx.target.name}, {ctx.main_cc['id']} {ctx.main_cc['version']}, "
          f"{ctx.keccak.name} -> {ctx.out.dir}; test matrix: "
          + (", ".join(f"{c['id']} {c['version']}" for c in ctx.test_ccs) or "none"))


def main(argv):
    args = options(argv)
    try:
        ctx = probe(args)
        profile(ctx)
        w = edges(ctx)
    except UsageError as e:
        fail(e)
    write(w, ctx, argv)


# --- --tune: configure, tune, configure again ----------------------------------------------

def without_tune(argv):
    """The arguments minus --tune [full|quick], which build.ninja must not record (its
    reconfigure edge would tune again)."""
    out, skip = [], False
    for a in argv:
        if skip and a in ("full", "quick"):
            skip = False
            continue
        skip = a == "--tune"
        if not (skip or a.startswith("--tune=")):
            out.append(a)
    return out


def tune_then_configure(argv):
    args = options(argv)
    rest = without_tune(argv)
    main(rest)
    if args.tune:
        edge = "tune" if args.tune == "full" else "tune-quick"
        jobs = str(os.cpu_count() or 2)
        print(f"configure.py: ninja -j{jobs} {edge}", flush=True)
        if subprocess.run(["ninja", "-C", ROOT, f"-j{jobs}", edge]).returncode:
            fail(f"ninja {edge} failed")
        main(rest)


if __name__ == "__main__":
    tune_then_configure(sys.argv[1:])
