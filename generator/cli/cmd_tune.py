# SPDX-License-Identifier: Apache-2.0 OR MIT
"""tune, tune-wasm and tune-bundle: race built candidates and record the winners in
generator/profiles/."""

import os

from ..choice import cli_options
from ..errors import UsageError
from .common import subcommand


def cmd_tune(args):
    from ..measure import tune
    for option, path in (("--bench", args.bench), ("--bench-simd", args.bench_simd),
                         ("--bench-chacha", args.bench_chacha)):
        if path is not None and not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise UsageError(f"{option} {path}: not an executable program (a bench_* that "
                             "ninja built)")
    only = set(args.only.split(",")) if args.only else None
    if only and only != {"chacha"}:
        raise UsageError(f"--only {args.only}: only chacha can be raced alone")
    if only and not args.bench_chacha:
        raise UsageError("--only chacha needs --bench-chacha")
    if not only and not args.bench:
        raise UsageError("--bench is required (the compiler's bench_keccak program)")
    tune.tune({"keccak": args.bench, "simd": args.bench_simd, "chacha": args.bench_chacha},
              args.cc_id, args.cc_version, args.cflags, args.target,
              sorted(cli_options.parse_caps(args.caps)), args.quick, args.command_line, only)


def cmd_tune_wasm(args):
    from ..measure import wasm_tune
    wasm_tune.main(args)


def cmd_tune_bundle(args):
    from ..measure import tune_bundle
    tune_bundle.main(args)


def add(sub):
    O = cli_options.Option
    subcommand(sub, "tune", (
        O("--bench", "the compiler's bench_keccak program (required unless --only)",
          "a path", "none"),
        O("--bench-simd", "its bench_keccak_simd program (x-N kernels)", "a path", "none"),
        O("--bench-chacha", "its bench_chacha program", "a path", "none"),
        O("--cc-id", "the compiler tuned", cli_options.words(cli_options.CC_IDS), "",
          {"required": True}),
        O("--cc-version", "its version, as configure.py probed it", "a version string", "",
          {"required": True}),
        O("--cflags", "the flags the candidates were compiled with", "a flag string", "",
          {"required": True}),
        cli_options.TARGET, cli_options.CAPS,
        O("--quick", "the pruned space", "", "off", {"action": "store_true"}),
        O("--only", "race these kernels alone, keeping every other entry of the existing "
          "profile (and its sources hash) as measured", "chacha", "all")), cmd_tune,
        "time the built candidates of one compiler and record the winner in "
        "generator/profiles/ (run by ninja tune)")
    subcommand(sub, "tune-wasm", (
        O("--quick", "the pruned space (short unrolls, the builtin rotation, ChaCha's SIMD128 "
          "level only)", "", "off", {"action": "store_true"}),
        O("--turns", "turns per candidate in each round-robin race, after untimed warm-up "
          "turns", "3..1000", "9 with --quick, else 15", {"default": ""}),
        O("--profile-dir", "the folder to write the profile to", "a folder path",
          "generator/profiles", {"default": ""}, shapes_output=False)), cmd_tune_wasm,
        "build the wasm32 candidates with clang (scalar Keccak shapes, the x2 SIMD128 "
        "kernel's unroll, ChaCha level, schedule, rotation and block sets), verify each "
        "against known-good values, race them under node in one process and record the "
        "winners, keyed by the engine, its version and the host CPU, in generator/profiles/")
    subcommand(sub, "tune-bundle", (
        O("--cc", "the compilers to build the bundle with and race", "comma-separated gcc, "
          "clang", "gcc,clang", {"default": "gcc,clang"}),
        O("--cflags", "the flags the bundle is compiled with, as a vendoring user's (no -m "
          "flags: each function carries its target attribute)", "a flag string", "-O2",
          {"default": "-O2"}),
        O("--turns", "turns per option in each round-robin race", "3..1000", "31",
          {"default": "31"}),
        O("--profile-dir", "the folder to write the profiles to", "a folder path",
          "generator/profiles", {"default": ""})), cmd_tune_bundle,
        "race, on this CPU, the options of every run-time decision of this architecture's "
        "bundle compiled as users compile it, and record the winners in generator/profiles/")
