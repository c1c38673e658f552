"""Command line: python3 -m generator {generate, testsuite, list}.

Every user error ends in one line on stderr and exit code 2; nothing is written then.
"""

import argparse
import sys

from . import VERSION, kernels, render, targets, variants, vectors
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


def chacha_variant(args, target):
    return variants.chacha_from_options(target, targets.default_chacha(target, args.cc_id),
                                        args.chacha_isa, args.chacha_schedule,
                                        args.chacha_rotate, args.chacha_states,
                                        args.chacha_rounds)


FAMILIES = ("keccak", "chacha")


def parse_families(text, option):
    out = tuple(dict.fromkeys(filter(None, text.split(","))))
    bad = [f for f in out if f not in FAMILIES]
    if bad or not out:
        raise UsageError(f"{option} takes a comma-separated list of {', '.join(FAMILIES)}, "
                         f"not '{text}'")
    return out


def cmd_generate(args):
    target = targets.get(args.target)
    families = parse_families(args.kernels, "--kernels")
    prefix = check_prefix(args.prefix)
    chosen = []
    if "keccak" in families:
        chosen.append(keccak_variant(args, target))
    if "chacha" in families:
        chosen.append(chacha_variant(args, target))
    env = render.environment()
    command = render.command_line()
    files = {}
    for v in chosen:
        make = kernels.keccak_scalar if isinstance(v, variants.KeccakVariant) \
            else kernels.chacha_sources
        files.update(make(env, v, prefix, command, target))
    changed = render.write_tree(args.out, files)
    print(f"generated {args.out}: {', '.join(v.name for v in chosen)} for {target.name}"
          + (f", prefix {args.prefix}" if args.prefix else "")
          + (f" ({len(changed)} file(s) changed)" if changed else " (unchanged)"))


def cmd_testsuite(args):
    """Every variant one compiler can build, each under its own symbol prefix, plus the test
    data, so a single Check binary per compiler links the whole matrix."""
    target = targets.get(args.target)
    caps = set(filter(None, args.caps.split(",")))
    families = parse_families(args.families, "--families")
    env = render.environment()
    command = render.command_line()
    files = {}
    if "keccak" in families:
        files.update(keccak_testsuite(env, command, target, caps, args.vectors))
    if "chacha" in families:
        files.update(chacha_testsuite(env, command, target, caps, args.vectors))
    render.write_tree(args.out, files)


def keccak_testsuite(env, command, target, caps, vectors_dir):
    space = variants.keccak_scalar_space(target, caps)
    files = {}
    for v in space:
        for name, text in kernels.keccak_scalar(env, v, v.ident + "_", command, target).items():
            files[f"{v.ident}.{name.rsplit('.', 1)[1]}"] = text.replace(
                '#include "keccak_p1600.h"', f'#include "{v.ident}.h"')
    params = (("target", target.name), ("compiler caps", ",".join(sorted(caps)) or "(none)"),
              ("variants", len(space)), ("vector seed", hex(vectors.SEED)))
    files["keccak_variants.h"] = render.render(
        env, "tests/keccak_variants.h.j2", variants=space,
        header=render.provenance(params, command, "Test registry: every scalar Keccak variant."))
    files["keccak_vectors.h"] = render.render(
        env, "tests/keccak_vectors.h.j2", cases=vectors.keccak_cases(vectors_dir),
        header=render.provenance(params, command, "Test vectors for Keccak-p[1600]."))
    return files


def chacha_testsuite(env, command, target, caps, vectors_dir):
    """Every ChaCha variant under its own prefix, the registry the Check suite and the bench
    walk, and the vectors (official records, plus digests computed by the Python reference)."""
    space = variants.chacha_space(target, caps)
    files = {}
    for v in space:
        for name, text in kernels.chacha_sources(env, v, v.ident + "_", command,
                                                 target).items():
            if name == "chacha8.h":
                continue
            files[f"{v.ident}.{name.rsplit('.', 1)[1]}"] = text.replace(
                '#include "chacha.h"', f'#include "{v.ident}.h"')
    params = (("target", target.name), ("compiler caps", ",".join(sorted(caps)) or "(none)"),
              ("variants", len(space)), ("vector seed", hex(vectors.SEED)))
    files["chacha_variants.h"] = render.render(
        env, "tests/chacha_variants.h.j2", variants=space,
        header=render.provenance(params, command, "Test registry: every ChaCha variant."))
    files["chacha_vectors.h"] = render.render(
        env, "tests/chacha_vectors.h.j2", records=vectors.chacha_records(vectors_dir),
        streams=vectors.chacha_stream_cases(), xors=vectors.chacha_xor_cases(),
        fnv=(vectors.FNV_OFFSET, vectors.FNV_PRIME),
        header=render.provenance(params, command, "Test vectors for ChaCha."))
    return files


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


def cmd_list(args):
    target = targets.get(args.target)
    if args.what == "targets":
        for t in targets.TARGETS.values():
            print(f"{t.name:10} {t.description}")
    else:
        caps = set(args.caps.split(","))
        for v in variants.keccak_scalar_space(target, caps) + variants.chacha_space(target,
                                                                                   caps):
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
    g.add_argument("--kernels", default=",".join(FAMILIES),
                   help="kernel families to emit, comma separated (default: all)")
    g.add_argument("--chacha-isa", help="widest ChaCha level: " + ", ".join(variants.CHACHA_ISAS))
    g.add_argument("--chacha-schedule", help="quarter-round order: seq, step, pair")
    g.add_argument("--chacha-rotate", help="rotation strategy: shift, pshufb, vprold")
    g.add_argument("--chacha-rounds", help="round counts to emit, e.g. 8,12,20")
    g.add_argument("--chacha-states", help="block sets interleaved in the widest path: 1, 2")
    g.add_argument("--prefix", default="")
    g.add_argument("--out", required=True)
    g.set_defaults(run=cmd_generate)

    t = sub.add_parser("testsuite", help="generate every variant and the vectors for the tests")
    t.add_argument("--target", default="host")
    t.add_argument("--caps", default="", help="compiler capabilities, comma separated")
    t.add_argument("--families", default=",".join(FAMILIES),
                   help="kernel families to emit, comma separated (default: all)")
    t.add_argument("--vectors", default=vectors.default_dir())
    t.add_argument("--out", required=True)
    t.set_defaults(run=cmd_testsuite)

    d = sub.add_parser("describe", help="print what a generated folder holds")
    d.add_argument("folder")
    d.set_defaults(run=cmd_describe)

    ls = sub.add_parser("list", help="list targets or variants")
    ls.add_argument("what", choices=("targets", "variants"))
    ls.add_argument("--target", default="host")
    ls.add_argument("--caps", default="gnu-asm-x86-64,asm-bmi2,x86-target-attr")
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
