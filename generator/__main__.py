"""Command line: python3 -m generator {generate, testsuite, list}.

Every user error ends in one line on stderr and exit code 2; nothing is written then.
"""

import argparse
import sys

from . import VERSION, kernels, reference, render, targets, variants, vectors
from .errors import UsageError


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


def keccak_variant(args, target):
    return variants.keccak_from_options(target, targets.default_keccak(target, args.cc_id),
                                        args.unroll, args.lane_complement, args.rotate,
                                        args.parity)


def check_prefix(prefix):
    if prefix and not (prefix.replace("_", "a").isalnum() and not prefix[0].isdigit()
                       and prefix.isascii()):
        raise UsageError(f"--prefix must be a C identifier prefix, not '{prefix}'")
    return prefix


def cmd_generate(args):
    target = targets.get(args.target)
    v = keccak_variant(args, target)
    env = render.environment()
    files = kernels.keccak_scalar(env, v, check_prefix(args.prefix), render.command_line(),
                                  target)
    changed = render.write_tree(args.out, files)
    print(f"generated {args.out}: {v.name} for {target.name}"
          + (f", prefix {args.prefix}" if args.prefix else "")
          + (f" ({len(changed)} file(s) changed)" if changed else " (unchanged)"))


def cmd_testsuite(args):
    """Every variant one compiler can build, each under its own symbol prefix, plus the test
    data, so a single Check binary per compiler links the whole matrix."""
    target = targets.get(args.target)
    caps = set(filter(None, args.caps.split(",")))
    space = variants.keccak_subset(variants.keccak_scalar_space(target, caps), args.subset)
    env = render.environment()
    command = render.command_line()
    files = {}
    for v in space:
        for name, text in kernels.keccak_scalar(env, v, v.ident + "_", command, target).items():
            files[f"{v.ident}.{name.rsplit('.', 1)[1]}"] = text.replace(
                '#include "keccak_p1600.h"', f'#include "{v.ident}.h"')
    params = (("target", target.name), ("compiler caps", ",".join(sorted(caps)) or "(none)"),
              ("subset", args.subset), ("variants", len(space)), ("vector seed", hex(vectors.SEED)))
    files["keccak_variants.h"] = render.render(
        env, "tests/keccak_variants.h.j2", variants=space,
        header=render.provenance(params, command, "Test registry: every scalar Keccak variant."))
    files["keccak_vectors.h"] = render.render(
        env, "tests/keccak_vectors.h.j2", cases=vectors.keccak_cases(args.vectors),
        header=render.provenance(params, command, "Test vectors for Keccak-p[1600]."))
    render.write_tree(args.out, files)


def cmd_describe(args):
    """Print what a generated folder holds, from the provenance headers themselves."""
    import os
    try:
        names = sorted(os.listdir(args.folder))
    except OSError as e:
        raise UsageError(f"cannot read {args.folder}: {e.strerror}") from None
    print(f"generated in {args.folder}/:")
    for name in names:
        with open(os.path.join(args.folder, name), errors="replace") as f:
            head = f.read(4096)
        if "Parameters:" not in head:
            continue
        block = head.split("Parameters:", 1)[1].split("*/", 1)[0]
        params = [" ".join(l.strip(" *").split()) for l in block.splitlines() if "=" in l]
        print(f"  {name}: " + ", ".join(p.replace(" = ", "=") for p in params))


def cmd_permute(args):
    """Keccak-p[1600, rounds] by the Python reference: a hand check for any target's output."""
    rounds = variants.parse_rounds(args.rounds)
    try:
        data = bytes.fromhex(args.state) if args.state else bytes(200)
    except ValueError:
        data = b""
    if len(data) != 200:
        raise UsageError("--state takes 200 bytes in hex (400 digits), the FIPS 202 byte order")
    print(reference.state_to_bytes(reference.keccak_p1600(reference.state_from_bytes(data),
                                                          rounds)).hex())


def cmd_list(args):
    target = targets.get(args.target)
    if args.what == "targets":
        for t in targets.TARGETS.values():
            print(f"{t.name:10} {t.description}")
    else:
        for v in variants.keccak_scalar_space(target, set(args.caps.split(","))):
            print(v.name)


def parser():
    p = Parser(prog="python3 -m generator", description="roundsmith kernel generator")
    p.add_argument("--version", action="version", version=f"roundsmith {VERSION}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser)

    g = sub.add_parser("generate", help="generate the kernel sources of one target")
    g.add_argument("--target", default="host")
    g.add_argument("--cc-id", default="gcc", help="compiler whose defaults apply")
    g.add_argument("--unroll")
    g.add_argument("--lane-complement")
    g.add_argument("--rotate")
    g.add_argument("--parity")
    g.add_argument("--prefix", default="")
    g.add_argument("--out", required=True)
    g.set_defaults(run=cmd_generate)

    t = sub.add_parser("testsuite", help="generate every variant and the vectors for the tests")
    t.add_argument("--target", default="host")
    t.add_argument("--caps", default="", help="compiler capabilities, comma separated")
    t.add_argument("--vectors", default=vectors.default_dir())
    t.add_argument("--subset", default="all", choices=variants.SUBSETS,
                   help="all variants, or a representative few for instrumented builds")
    t.add_argument("--out", required=True)
    t.set_defaults(run=cmd_testsuite)

    d = sub.add_parser("describe", help="print what a generated folder holds")
    d.add_argument("folder")
    d.set_defaults(run=cmd_describe)

    pm = sub.add_parser("permute", help="apply the reference Keccak-p[1600, rounds] to a state")
    pm.add_argument("--rounds", default="24")
    pm.add_argument("--state", default="", help="200 bytes in hex (default: zeros)")
    pm.set_defaults(run=cmd_permute)

    ls = sub.add_parser("list", help="list targets or variants")
    ls.add_argument("what", choices=("targets", "variants"))
    ls.add_argument("--target", default="host")
    ls.add_argument("--caps", default="gnu-asm-x86-64,asm-bmi2")
    ls.set_defaults(run=cmd_list)
    return p


def main(argv=None):
    try:
        args = parser().parse_args(argv)
        args.run(args)
    except UsageError as e:
        print(f"generator: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
