# SPDX-License-Identifier: Apache-2.0 OR MIT
"""prove: every kernel of generated folders equal to its specification for all inputs."""

import os
import sys

from ..choice import cli_options, targets, variants
from ..emit import kernels, render
from ..errors import UsageError
from .common import prover, subcommand


def cmd_prove(args):
    prove_report = prover()
    if not args.jobs.isdigit() or not 1 <= int(args.jobs) <= 64:
        raise UsageError(f"--jobs '{args.jobs}': not a count (accepted: 1..64)")
    jobs = int(args.jobs)
    only = set(args.function.split(",")) if args.function else None
    from ..prove import cfront
    configs = None
    if args.config:
        configs = args.config.split(",")
        bad = [c for c in configs if c not in cfront.CONFIGS]
        if bad:
            raise UsageError(f"--config '{bad[0]}': not a compiler configuration (accepted: "
                             f"{', '.join(cfront.CONFIGS)})")
    if not args.folders and not args.variant:
        raise UsageError("prove needs folders (DIR ...) or --variant NAMES")
    for f in args.folders:
        if not os.path.isdir(f):
            raise UsageError(f"{f}: not a folder")
    named = variant_files(args.variant, targets.get(args.target), args.command_line) \
        if args.variant else {}
    settings = dict(quick=args.quick, only=only, repro_dir=args.repro_dir or None,
                   configs=configs)
    code = 0
    if args.api:
        from ..prove import api_report
        shared = api_report.Shared()
        for f in args.folders:
            if not api_report.report(f, configs=configs, only=only, shared=shared):
                code = 1
        sys.stdout.flush()
        if code:
            sys.exit(code)
        return
    if args.folders:
        code, _ = prove_report.run(args.folders, jobs, **settings)
    if named and not prove_report.prove_files(named, jobs, **settings):
        code = 1
    sys.stdout.flush()
    if code:
        sys.exit(code)


def variant_files(names, target, command):
    """{name: the files `generate` would write for the variant} for each comma-separated
    canonical variant name (as `list variants` prints them), rendered, not written."""
    env = render.environment()
    out = {}
    for name in filter(None, names.split(",")):
        v = None
        for parse in (variants.keccak_from_name, variants.simd_from_name,
                      variants.chacha_from_name):
            try:
                v = parse(name)
                break
            except UsageError:
                continue
        if v is None:
            raise UsageError(f"--variant: '{name}' is not a variant name (`python3 -m generator "
                             "list variants` prints them)")
        if isinstance(v, variants.ChachaVariant):
            out[name] = kernels.chacha_sources(env, v, "", command, target)
        else:
            out[name] = kernels.keccak_any(env, v, "", command, target)
    return out


def add(sub):
    from ..prove import cfront
    O = cli_options.Option
    subcommand(sub, "prove", (
        O("--jobs", "processes proving kernels side by side", "1..64", "2", {"default": "2"}),
        O("--function", "prove only these entry points", "comma-separated function names",
          "every kernel entry point", {"default": ""}),
        O("--config", "only these compiler branches (preprocessor configurations)",
          "comma-separated " + ", ".join(cfront.CONFIGS), "every compiler and system the "
          "folder's architecture is built for", {"default": ""}),
        O("--quick", "fewer argument sets per kernel (two rates, four ChaCha block counts): "
          "a smoke test, not the proof", "", "off", {"action": "store_true"}),
        O("--repro-dir", "write each counterexample's C reproduction to a file there", "a "
          "folder path", "printed in the report", {"default": ""}),
        O("--variant", "also prove these variants, generated for --target without being "
          "written", "comma-separated variant names, as `list variants` prints them", "none",
          {"default": ""}),
        O("--api", "prove the public functions of the folders' headers (the byte layer: "
          "every length, every sequence of calls) instead of the kernels", "", "off",
          {"action": "store_true"}),
        cli_options.TARGET), cmd_prove,
        "prove every kernel of the folders equal to FIPS 202 Keccak-p[1600, n_r] or RFC 8439 "
        "ChaCha for all inputs (exit 0: all proved, 1: a counterexample or an unsupported "
        "kernel)",
        positionals=((("folders",), {"nargs": "*", "metavar": "DIR",
                                     "help": "folders of generated C (bundles, generate "
                                             "output, or edited copies)"}),))
