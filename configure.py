#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Configure roundsmith: probe compilers and the CPU, then write build.ninja.

Reads top to bottom: options, probes, the profile (which variants out/ gets), then each
family's edges (generator/buildgraph/families.py), then the file. It only configures: every
algorithmic choice is the generator's, asked through generator.variants.
"""

import glob
import os
import shlex
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, ROOT)

from generator.choice import cli_options, targets, variants  # noqa: E402
from generator import toolprobe  # noqa: E402
from generator.model import vectors  # noqa: E402
from generator.buildgraph import (choices, goals, instrumented, matrix, ninja,  # noqa: E402
                                  outdir)
from generator.buildgraph.context import Context  # noqa: E402
from generator.buildgraph.families import FAMILIES  # noqa: E402
from generator.buildgraph.flags import DEFAULT_OPT, KNOWN_COMPILERS  # noqa: E402
from generator.errors import UsageError  # noqa: E402


def fail(message):
    # One line whatever the input held: a value with a newline is shown escaped.
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(message))
    print(f"configure.py: error: {text}", file=sys.stderr)
    sys.exit(2)


# --- options -------------------------------------------------------------------------------

O = cli_options.Option
# generate's options, whose per-compiler defaults here come from --cc's tuned profile first.
GENERATE = {o.flag: o for o in cli_options.reworded(
    (cli_options.TARGET, cli_options.PREFIX) + cli_options.KECCAK + cli_options.CHACHA,
    "the --cc-id compiler's measured choice", "--cc's tuned profile, else its measured choice")}
KERNEL_OPTIONS = [GENERATE[f] for f in ("--target", "--unroll", "--lane-complement", "--rotate",
                                        "--parity", "--lanes")] + [
    O("--multi", "multi-state kernels to add to out/, comma separated, or none",
      GENERATE["--multi"].accepted, "x8-avx512,x4-avx2 on x86_64 when the compiler has "
      "intrinsics (U: the tuned profile's)")] + [
    GENERATE[f] for f in ("--chacha-isa", "--chacha-schedule", "--chacha-rotate",
                          "--chacha-states", "--chacha-rounds", "--prefix")]
BUILD_OPTIONS = (
    O("--cc", "the compiler of the main build (out/ and its checks)", "a command: gcc, clang, "
      "tcc or another C compiler", "cc", {"default": "cc"}),
    O("--cflags", "optimisation flags of kernels and out/", "a flag string",
      ", ".join(f"{c}: {f}" for c, f in DEFAULT_OPT.items())),
    O("--bundle", "`ninja bundle` writes this target's bundle with --prefix into "
      "build/bundle/TARGET", ", ".join(targets.BUNDLES) + " or another target", "none",
      {"metavar": "TARGET"}),
    O("--amalgamate", "with --bundle: one roundsmith.c and one roundsmith.h", "", "off",
      {"action": "store_true"}),
    O("--tune", "configure, run `ninja tune` (or `ninja tune-quick`), then configure again "
      "with the profiles it wrote", "full, quick (full when given alone)", "no tuning",
      {"nargs": "?", "const": "full", "choices": ("full", "quick")}),
    O("--no-profile", "ignore tuned profiles in generator/profiles/", "", "off",
      {"action": "store_true"}),
    O("--out", "the folder the build generates out/ into", "a folder path",
      "build/out/<target>"),
    O("--test-cc", "compilers of the test matrix (missing ones are skipped)",
      "comma-separated commands", ",".join(KNOWN_COMPILERS),
      {"default": ",".join(KNOWN_COMPILERS)}),
    O("--cross", "cross targets of `ninja test-cross`", "comma-separated "
      + ", ".join(list(targets.CROSS_TARGETS) + list(targets.WASM_TARGETS)) + ", or none",
      "all of them"),
    O("--vectors", "the folder with the official vector files", "a folder path",
      "tests/vectors (in this checkout)", {"default": vectors.default_dir()}),
    O("--fuzz-seconds", "how long `ninja fuzz` runs each fuzz target", "a whole number >= 1",
      "60", {"type": int, "default": 60}),
    O("--fuzz-short-seconds", "how long `ninja test` runs each fuzz target (0: not at all)",
      "a whole number >= 0", "4", {"type": int, "default": 4}),
)


def parser():
    # A function of its own so tools/cli_reference.py documents the parser configure runs.
    p = cli_options.Parser(prog="./configure.py",
                   description="Configure the roundsmith build (writes build.ninja).")
    cli_options.add_options(p, KERNEL_OPTIONS + list(BUILD_OPTIONS))
    return p


def options(argv):
    args = parser().parse_args(argv)
    cli_options.check_values(KERNEL_OPTIONS + list(BUILD_OPTIONS), args)
    cli_options.parse_prefix(args.prefix)
    if args.bundle is not None and args.bundle not in targets.BUNDLES \
            and args.bundle not in targets.TARGETS:
        raise UsageError(f"--bundle: unknown target '{args.bundle}'; accepted: "
                         f"{', '.join(targets.BUNDLES)} or another target of `python3 -m "
                         "generator list targets`")
    if args.amalgamate and not args.bundle:
        raise UsageError("--amalgamate needs --bundle TARGET")
    if args.fuzz_seconds < 1 or args.fuzz_short_seconds < 0:
        raise UsageError("--fuzz-seconds must be at least 1, --fuzz-short-seconds at least 0")
    for name in (args.cross or "").split(","):
        if (name and name != "none" and name not in targets.CROSS_TARGETS
                and name not in targets.WASM_TARGETS):
            known = list(targets.CROSS_TARGETS) + list(targets.WASM_TARGETS)
            raise UsageError(f"--cross: unknown cross target '{name}'; accepted: "
                             f"{', '.join(known)}, none")
    shapes(args)
    return args


def shapes(args):
    """The kernel options taken apart as the profile step will take them, before any probe:
    a bad value is refused before configure prints anything else. What a compiler can build
    is checked once it is probed."""
    target = targets.get(args.target)
    variants.keccak_from_options(target, targets.default_keccak(target, None), args.unroll,
                                 args.lane_complement, args.rotate, args.parity, args.lanes)
    for spec in filter(None, (args.multi or "").split(",")):
        if spec != "none":
            targets.multi_variant(spec, target)
    variants.chacha_from_options(target, targets.default_chacha(target, None), args.chacha_isa,
                                 args.chacha_schedule, args.chacha_rotate, args.chacha_states,
                                 args.chacha_rounds)


# --- probes: what this machine has, checked now rather than halfway through the build -------

def compilers(args):
    """--cc's probe and the test matrix's. --cc may be a test-matrix compiler under another
    name (cc: gcc); then its "name" is that compiler's, whose build folder it shares."""
    main_cc = toolprobe.compiler_info(args.cc)
    if main_cc is None:
        raise UsageError(f"compiler '{args.cc}' is not installed; pass --cc with one of "
                         f"{', '.join(KNOWN_COMPILERS)} (apt-get install -y gcc clang tcc)")
    test_ccs = []
    for name in filter(None, args.test_cc.split(",")):
        found = toolprobe.compiler_info(name)
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
    python = toolprobe.require_build_python()
    check_cflags, check_libs = toolprobe.check_library()
    clang = next((c["path"] for c in test_ccs if c["id"] == "clang"), shutil.which("clang"))
    found = {c["cc"] for c in test_ccs}
    skipped = [(f"the Check suites built by {name}",
                f"{name} not installed (apt-get install -y {name})")
               for name in filter(None, args.test_cc.split(",")) if name not in found]
    return Context(skipped=skipped,
        args=args, target=target, main_cc=main_cc, test_ccs=test_ccs,
        check_cflags=check_cflags, check_libs=check_libs, crypto_libs=toolprobe.crypto_libs(),
        peers=toolprobe.peer_libraries(), clang=clang,
        ref_cc="gcc" if shutil.which("gcc") else None, valgrind=shutil.which("valgrind"),
        python=python, plots_python=toolprobe.plotting_python(python), cpu=toolprobe.cpu_features(),
        gen_inputs=generator_sources())


def generator_sources():
    """What a generate edge depends on: the layers that make its files (the command line,
    generator/*.py and cli/, model/, choice/, emit/) and every template, since a generate
    or testsuite edge renders the vendoring and test templates as well as the kinds' own
    (choice/kinds.py); not measure/, whose benches and tuners write nothing a generate edge
    renders, nor buildgraph/, which only configures."""
    py = [p for d in ("", "cli", "model", "choice", "emit")
          for p in glob.glob(os.path.join(ROOT, "generator", d, "*.py"))]
    return sorted(ninja.rel(p) for p in py
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
    goals.python_suites(w, ctx)
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
        "@PYTHON@": ninja.esc(ctx.python),
        "@VECTORS@": ninja.esc(os.path.abspath(ctx.args.vectors)),
        "@CONFIGURE_ARGS@": " ".join(shlex.quote(a) for a in argv).replace("$", "$$"),
    })
    print(f"configure.py: {ctx.target.name}, {ctx.main_cc['id']} {ctx.main_cc['version']}, "
          f"{ctx.keccak.name} -> {ctx.out.dir}; test matrix: "
          + (", ".join(f"{c['id']} {c['version']}" for c in ctx.test_ccs) or "none"))
    if ctx.target is not targets.host():
        print(f"configure.py: {ctx.target.name} is not this machine's architecture: `ninja` "
              f"builds {ctx.out.dir} with this machine's compilers (its portable paths)"
              + (f"; `ninja test-cross` checks its default kernels under {ctx.target.qemu}"
                 if ctx.target.qemu else ""))


def main(argv):
    try:
        ctx = probe(options(argv))
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
    try:
        args = options(argv)
    except UsageError as e:
        fail(e)
    rest = without_tune(argv)
    main(rest)
    if args.tune:
        edge = "tune" if args.tune == "full" else "tune-quick"
        jobs = str(os.cpu_count() or 2)
        print(f"configure.py: ninja -j{jobs} {edge}", flush=True)
        if subprocess.run(["ninja", "-C", ROOT, f"-j{jobs}", edge]).returncode:
            fail(f"ninja {edge} failed")
        main(rest)


def interpreter():
    """Run under an interpreter that has the generator's Debian packages: a pyenv, conda or
    venv python3 first on PATH does not see them, /usr/bin/python3 does. Configure renders
    templates itself, so it re-runs itself there, and build.ninja records that interpreter."""
    python, note = toolprobe.build_python()
    if python is None:
        fail(note)
    if python != sys.executable:
        print(f"configure.py: {note}", flush=True)
        os.execv(python, [python, os.path.abspath(__file__)] + sys.argv[1:])


if __name__ == "__main__":
    interpreter()
    tune_then_configure(sys.argv[1:])
