# SPDX-License-Identifier: Apache-2.0 OR MIT
"""One command for an experiment: `python3 -m generator bench [generate options] [--cc LIST]`
where every shape option takes a comma-separated list. The cross product of the lists
(generator/sweep_space.py) is generated for each compiler over its defaults, compiled, every
variant of a compiler linked into one bench program per kernel family
(generator/sweep_programs.py), checked against the vectors and raced round-robin in that one
process (bench/timing.h) with the compiler's untuned default, the plain reference and, where
bench/peers/bench_xkcp.sh has fetched it, XKCP's opt64 kernel in each of its shipped
configurations. One value per option is a sweep of one row.

Out: one table (generator/sweep_table.py), --tsv FILE, --plot FILE (generator/sweep_plot.py).
Work files go to a temporary folder, removed at the end and on Ctrl-C (or --keep DIR).
"""

import os
import shutil
import sys
import tempfile
import time

from . import benchdata
from ..choice import cli_options
from ..model import vectors
from ..errors import UsageError

from .bench_build import (OPT, ROOT, XKCP_CONFIGS, XKCP_DEFAULT, XKCP_MORE,  # noqa: F401
                          BuildError, Work, prefixed, xkcp_objects)


# The bench's own options; `generate`'s kernel options come before them (generator/__main__.py).
OPTIONS = (
    cli_options.Option("--cc", "the compilers to build and race with", "comma-separated " + ", ".join(OPT),
               "gcc,clang", {"default": "gcc,clang"}),
    cli_options.Option("--rounds", "Keccak-p rounds timed besides 24", "24, 12 or any count 1-24",
               "24 alone", {"default": "24"}),
    cli_options.Option("--turns", "turns of each contender in the round-robin", "1..10000", "31",
               {"type": int, "default": 31}),
    cli_options.Option("--xkcp", "XKCP's opt64 sources (KeccakP-1600-opt64.c and its macros), or none "
               "to leave XKCP out", "a folder path or none",
               "where bench/peers/bench_xkcp.sh fetches them", {"default": XKCP_DEFAULT}),
    cli_options.Option("--xkcp-all", "also XKCP at unrolls 2, 3, 4, 12 with and without lane "
               "complementing", "", "off", {"action": "store_true"}),
    cli_options.Option("--vectors", "the folder with the official vector files", "a folder path",
               "tests/vectors (in this checkout)", {"default": vectors.default_dir()}),
    cli_options.Option("--keep", "build in this folder and keep it", "a folder path",
               "a temporary folder, removed (on Ctrl-C too)", {"metavar": "DIR"}),
    cli_options.Option("--sponge", "also time each Keccak variant through SHA3-256 of 1 KiB and of "
               "1 MiB, beside the bare permutation", "", "off", {"action": "store_true"}),
    cli_options.Option("--tsv", "also write the rows, one per variant and compiler, tab-separated",
               "a file path", "none", {"metavar": "FILE"}),
    cli_options.Option("--prove", "prove every variant equal to FIPS 202 or RFC 8439 for all inputs "
               "before the race (as `generator prove` does; Debian's python3-z3 and "
               "python3-pycparser): the check column then says proved", "", "off",
               {"action": "store_true"}),
    cli_options.Option("--plot", "also draw the figures against the first swept option (needs "
               "matplotlib: Debian's python3-matplotlib)", "a file path ending in .svg or "
               ".png", "none", {"metavar": "FILE"}),
)
# Every shape option takes a comma-separated list here: said once, in --help and docs/cli.md.
LISTS = ("a comma-separated list sweeps the values (the cross product of every list is "
         "raced)")


def compilers(text):
    out = list(dict.fromkeys(filter(None, text.split(","))))
    bad = [c for c in out if c not in OPT]
    if bad or not out:
        raise UsageError(f"--cc takes a comma-separated list of {', '.join(OPT)}, not '{text}'")
    missing = [c for c in out if not shutil.which(c)]
    if missing:
        raise UsageError(f"--cc: {', '.join(missing)} not installed")
    return out


def keccak_rounds(text):
    try:
        r = int(text)
    except ValueError:
        r = 0
    if not 1 <= r <= 24:
        raise UsageError(f"--rounds takes a Keccak-p round count from 1 to 24, not '{text}'")
    return r


KEEP_MARK = ".roundsmith-bench"   # a --keep folder bench made, and may write again


def keep_folder(path):
    """--keep DIR: a new or empty folder, or one an earlier bench kept; anything else holds
    the user's files, which bench must not overwrite."""
    if os.path.lexists(path) and not os.path.isdir(path):
        raise UsageError(f"--keep {path}: not a folder")
    if os.path.isdir(path) and os.listdir(path) and not os.path.exists(
            os.path.join(path, KEEP_MARK)):
        raise UsageError(f"--keep {path}: the folder holds files bench did not write; pass a "
                         "new or empty folder")
    try:
        os.makedirs(path, exist_ok=True)
        with open(os.path.join(path, KEEP_MARK), "w") as f:
            f.write("kept by python3 -m generator bench; it may write here again\n")
    except OSError as e:
        raise UsageError(f"--keep {path}: {e.strerror}") from None
    return path


def output_file(flag, path, endings=None):
    """--tsv / --plot FILE: checked before anything is built, so a typo costs no sweep."""
    if path is None:
        return None
    if endings and not path.endswith(endings):
        raise UsageError(f"{flag} {path}: the file name must end in {' or '.join(endings)}")
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path) or not os.path.isdir(folder):
        raise UsageError(f"{flag} {path}: " + ("a folder" if os.path.isdir(path)
                                               else f"no folder {folder}"))
    if not os.access(folder, os.W_OK):
        raise UsageError(f"{flag} {path}: cannot write in {folder}")
    return path


def main(args, gen):
    from ..emit import render
    from . import sweep_plot, sweep_programs, sweep_space, sweep_table
    from ..choice import targets
    target = targets.get(args.target)
    if target.name in targets.WASM_TARGETS:
        if args.prove:
            raise UsageError("bench --prove: the prover has no wasm32 configuration (no "
                             "models of the SIMD128 intrinsics)")
        from . import wasm_bench
        return wasm_bench.main(args, gen, target)
    ccs = compilers(args.cc)
    rounds = keccak_rounds(args.rounds)
    families = gen.parse_families(args.kernels, "--kernels")
    if args.turns < 1 or args.turns > 10000:
        raise UsageError(f"--turns takes a number from 1 to 10000, not '{args.turns}'")
    sweep_space.check_lists(args, target, families)
    if target is not targets.host():
        raise UsageError("bench runs what it builds: --target must be this machine's")
    if args.sponge and ("keccak" not in families or args.multi):
        raise UsageError("--sponge times the single-state Keccak variants: it needs keccak "
                         "among --kernels and no --multi")
    xkcp_dir = None if args.xkcp == "none" else args.xkcp
    if xkcp_dir and not os.path.exists(os.path.join(xkcp_dir, "KeccakP-1600-opt64.c")):
        if args.xkcp != XKCP_DEFAULT:
            raise UsageError(f"--xkcp: no KeccakP-1600-opt64.c in {xkcp_dir}")
        xkcp_dir = None
    report = gen.prover() if args.prove else None
    tsv_path = output_file("--tsv", args.tsv)
    plot_path = output_file("--plot", args.plot, sweep_plot.FORMATS)
    # Every list and every combination first: a bad one fails before anything is built.
    caps = sweep_programs.capabilities(ccs)
    sweeps = sweep_space.sweeps(args, target, families, ccs, caps)
    versions = sweep_programs.versions(ccs)
    for sweep in sweeps:
        for line in sweep.dropped:
            sweep_programs.say(line)
    no_plot = sweep_plot.available() if plot_path else None
    load = os.getloadavg()[0]
    start = time.monotonic()
    root = keep_folder(args.keep) if args.keep else tempfile.mkdtemp(prefix="roundsmith-bench-")
    configs = dict(XKCP_CONFIGS, **(XKCP_MORE if args.xkcp_all else {}))
    try:
        programs, sponge_exes = sweep_programs.build(
            root, render.environment(), args.command_line, target, sweeps, ccs, args,
            xkcp_dir, configs)
        if not xkcp_dir and args.xkcp != "none":
            sweep_programs.say("XKCP opt64 not available (bench/peers/bench_xkcp.sh fetches "
                               "it)")
        # Proven before the race, not beside it: the prover would load the timed cores.
        proofs = report.prove_variants(sweep_programs.variant_folders(
            render.environment(), args.command_line, target, programs)) if report else {}
        results = []
        for sweep, per_cc in programs:
            rows, sponge_rows = {}, {}
            for cc, p in per_cc.items():
                if p is None:
                    continue
                rows[cc] = p.exe if isinstance(p.exe, BuildError) else sweep_programs.run(
                    p, sweep_programs.command_of(p, args, rounds))
                if sweep.family == "keccak" and cc in sponge_exes:
                    exe = sponge_exes[cc]
                    if isinstance(exe, BuildError):
                        sponge_rows[cc] = exe
                    else:
                        sweep_programs.say(f"{cc}: SHA3-256 of 1 KiB and 1 MiB on each sponge")
                        sponge_rows[cc] = benchdata.run([exe, "--tsv", "--turns",
                                                         str(args.turns)])
            results.append(sweep_table.results(sweep, per_cc, rows, sponge_rows, ccs, target,
                                               rounds, proofs))
        for i, result in enumerate(results):
            print(("\n" if i else "") + sweep_table.table(result, rounds, args.turns, versions),
                  end="", flush=True)
        if tsv_path:
            with open(tsv_path, "w") as f:
                f.write(sweep_table.tsv(results, target))
        if plot_path and no_plot:
            sweep_programs.say(no_plot)
        elif plot_path:
            shared = f"; shared machine, load average {load:.1f}" if load >= 0.5 else ""
            sweep_plot.draw(results, plot_path, versions, loaded=shared)
            sweep_programs.say(f"figure -> {plot_path}")
    except KeyboardInterrupt:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
        print("generator bench: interrupted" + ("" if args.keep else
                                                 f"; removed its work folder {root}"),
              file=sys.stderr, flush=True)
        raise SystemExit(130)
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    print(f"generator bench: {time.monotonic() - start:.0f} s", file=sys.stderr)
