# SPDX-License-Identifier: Apache-2.0 OR MIT
"""What the subcommands share: the option tables' registration, the --kernels list,
the wasm32 profiles' shapes, and the prover."""

import sys

from .. import toolprobe
from ..choice import cli_options, variants
from ..errors import UsageError


FAMILIES = variants.FAMILIES


def parse_families(text, option):
    out = tuple(dict.fromkeys(filter(None, text.split(","))))
    bad = [f for f in out if f not in FAMILIES]
    if bad or not out:
        raise UsageError(f"{option} takes a comma-separated list of {', '.join(FAMILIES)}, "
                         f"not '{text}'")
    return out


KERNELS = cli_options.Option("--kernels", "the kernel families to emit, comma separated",
                             cli_options.words(FAMILIES), "all", {"default": ",".join(FAMILIES)})


def wasm_shapes(target):
    """The committed wasm32 profiles' shapes (generator/choice/wasm_shape.py) for a wasm32 target,
    their warnings on stderr once per run; None for any other target."""
    if target.arch != "wasm32":
        return None
    from ..choice import wasm_shape
    s = wasm_shape.shapes()
    for w in s.warnings:
        if w not in WARNED:
            WARNED.add(w)
            print(f"generator: warning: {w}", file=sys.stderr)
    return s


WARNED = set()


def prover():
    """generator.prove.report, or UsageError naming the Debian package it lacks."""
    missing = [m for m in ("pycparser", "z3") if toolprobe.problem(m)]
    if missing:
        raise UsageError(toolprobe.problem(missing[0]))
    from ..prove import report
    return report


def prove_before_writing(folders, command, canonical=False):
    """--prove: each {folder: files} proven from a temporary copy; nothing is written unless
    every kernel proves (exit 1, with the report's counterexamples). A wasm32 folder, which
    the prover has no configuration for, is refused, or with --canonical written unproven
    and said so."""
    report = prover()
    from ..prove import driver
    wasm = [f for f, files in folders.items()
            if driver.for_wasm(t for n, t in files.items() if n.endswith(".c"))]
    if wasm and not canonical:
        raise UsageError(f"{command} --prove: {wasm[0]} is generated for wasm32, which the "
                         "prover has no configuration for (no models of the SIMD128 "
                         "intrinsics)")
    for f in wasm:
        print(f"{command} --prove: {f} is written unproven: the prover has no wasm32 "
              "configuration", file=sys.stderr)
    if not report.prove_files({f: t for f, t in folders.items() if f not in wasm}):
        print(f"{command}: nothing written: not every kernel proved", file=sys.stderr)
        sys.exit(1)


SUBCOMMANDS = {}   # name -> its option table (the canonical command is spelled from it)
SUMMARIES = {}     # name -> its one-paragraph help, which the top level lists by group


def subcommand(sub, name, table, run, help, positionals=()):
    # No help= to argparse: the top level lists the commands itself, the user's first.
    p = sub.add_parser(name, description=help[0].upper() + help[1:] + ".")
    SUMMARIES[name] = help
    for args, kw in positionals:
        p.add_argument(*args, **kw)
    cli_options.add_options(p, table)
    p.set_defaults(run=run, options=table, subcommand=name)
    SUBCOMMANDS[name] = table
    return p
