# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Command line: python3 -m generator {generate, bundle, check, testsuite, list, ...}.

Every user error ends in one line on stderr and exit code 2; nothing is written then.
"""

import argparse
import sys

from . import VERSION, bundle, kernels, reference, render, targets, variants, vectors, vendor
from .errors import UsageError


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


def keccak_variant(args, target):
    return variants.keccak_from_options(target, targets.default_keccak(target, args.cc_id),
                                        args.unroll, args.lane_complement, args.rotate,
                                        args.parity, args.lanes,
                                        args.isa if args.isa in variants.SCALAR_ISAS else None)


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


FAMILIES = variants.FAMILIES


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
    env = render.environment()
    command = render.command_line()
    files, names = {}, []
    if "keccak" in families:
        v = keccak_variant(args, target)
        if args.isa not in (None,) + variants.SCALAR_ISAS:
            if args.rotate or args.lane_complement or args.parity or args.lanes:
                raise UsageError("--rotate, --lane-complement, --parity and --lanes shape the "
                                 "scalar kernel; drop them with --isa " + args.isa)
            # The single-state vector kernel takes the scalar one's place behind the same API.
            v = targets.check_vector(target, variants.SimdKeccakVariant(
                instances=1, isa=args.isa,
                unroll=variants.parse_unroll(args.unroll) if args.unroll else 1))
        # AArch64's x2 kernels stand beside the sponge, not under it: KT128's leaves
        # dispatch on x86 CPUID only.
        arm = [targets.arm_x2(spec, target) for spec in args.multi if targets.is_arm_x2(spec)]
        multis = [targets.multi_variant(spec, target) for spec in args.multi
                  if not targets.is_arm_x2(spec)]
        if len({m.instances for m in multis}) < len(multis):
            raise UsageError("--multi: one kernel per instance count (their files share a name)")
        if len(arm) > 1:
            raise UsageError("--multi: one x2 kernel (their files share a name)")
        files.update(kernels.keccak_any(env, v, prefix, command, target))
        files.update(kernels.keccak_sponge(env, v, prefix, command, target, multis))
        for m in multis:
            files.update(kernels.keccak_simd(env, m, prefix, command, target))
        for isa, unroll in arm:
            files.update(kernels.keccak_arm(env, isa, unroll, prefix, command, target))
        names += [x.name for x in [v] + multis] + [f"keccakp1600-x2-u{u}-{isa}"
                                                   for isa, u in arm]
    width = 0
    if "chacha" in families:
        c = chacha_variant(args, target)
        files.update(kernels.chacha_sources(env, c, prefix, command, target))
        names.append(c.name)
        width = c.width
    vendor_files(env, files, prefix, command, target, c.rounds if "chacha" in families else (),
                 width, ", ".join(names))
    changed = render.write_tree(args.out, files)
    print(f"generated {args.out}: {', '.join(names)} for {target.name}"
          + (f", prefix {args.prefix}" if args.prefix else "")
          + (f" ({len(changed)} file(s) changed)" if changed else " (unchanged)"))


def vendor_files(env, files, prefix, command, target, chacha_rounds, chacha_width, names):
    """What every generated folder gets besides its kernels: roundsmith.h, the self-test, the
    path report (one path, named after the target), the license and the build files."""
    params = (("target", target.name), ("kernels", names), ("prefix", prefix or "(none)"))
    vendor.single_path(env, files, prefix, command, params, target.name)
    # Without a dispatch, the multi-state kernels wait for the caller's own CPU check; the
    # self-test leaves them to it.
    vendor.self_test(env, files, prefix, command, params, chacha_rounds=chacha_rounds,
                     chacha_width=chacha_width)
    vendor.build_files(env, files, prefix, command, params,
                       f"roundsmith kernels for {target.name}: {names}")


def cmd_bundle(args):
    """Every code path of one architecture in one folder, with a dispatch file."""
    if args.canonical:
        if (args.target != "host" or args.prefix or args.amalgamate or args.out
                or args.kernels != ",".join(FAMILIES) or args.chacha_rounds):
            raise UsageError("--canonical writes the committed bundles (out/portable, "
                             "out/x86_64, out/aarch64) and takes no other option")
        for folder, files in bundle.canonical_files(args.root).items():
            changed = render.write_tree(folder, files)
            print(f"bundle {folder}: {len(files)} files"
                  + (f" ({len(changed)} changed)" if changed else " (unchanged)"))
        return
    if not args.out:
        raise UsageError("bundle needs --out DIR (or --canonical)")
    b = (targets.BUNDLES[args.target] if args.target in targets.BUNDLES
         else targets.bundle_for(targets.get(args.target)))
    rounds = variants.parse_chacha_rounds(args.chacha_rounds) if args.chacha_rounds else None
    families = parse_families(args.kernels, "--kernels")
    if rounds and "chacha" not in families:
        raise UsageError("--chacha-rounds needs chacha among --kernels")
    b = bundle.select(b, families, rounds)
    command = render.command_line()
    files = bundle.folder(b, check_prefix(args.prefix), command, args.cc_id, args.amalgamate)
    changed = render.write_tree(args.out, files)
    print(f"bundle {args.out}: {b.description}"
          + (f"; kernels {', '.join(families)}" if families != FAMILIES else "")
          + (f"; ChaCha rounds {','.join(map(str, rounds))}" if rounds else "")
          + (f"; paths {', '.join(p.name for p in b.paths)}"
             if families != FAMILIES else "")
          + (f", prefix {args.prefix}" if args.prefix else "")
          + (", amalgamated" if args.amalgamate else "")
          + (f" ({len(changed)} file(s) changed)" if changed else " (unchanged)"))


def cmd_check(args):
    """The committed bundles against a fresh generation; exit 1 naming the fix."""
    bad = bundle.check(args.root)
    sys.stdout.flush()  # the diff first, the fix last: CI logs show their tail
    if bad:
        print(f"generator check: {bad} file(s) in {args.root}/ differ from what the generator "
              f"makes now; run `{bundle.CANONICAL_COMMAND}` and commit the result",
              file=sys.stderr)
        sys.exit(1)
    print(f"generator check: {args.root}/ ({', '.join(targets.CANONICAL_BUNDLES)}) is current")


def suite_files(env, variants_, kernel, command, target):
    """Each variant under its own symbol prefix, its files named after it."""
    files = {}
    for v in variants_:
        for name, text in kernel(env, v, v.ident + "_", command, target).items():
            stem, ext = name.rsplit(".", 1)
            if ext == "c":
                text = text.replace(f'#include "{stem}.h"', f'#include "{v.ident}.h"')
            files[f"{v.ident}.{ext}"] = text
    return files


def arm_x2_suite_files(env, command, target, scalar_space):
    """The AArch64 x2 kernels (NEON, SHA3 extension) at the cross unrolls, each under its own
    prefix, with a registry naming the scalar variant they are checked against."""
    files, kinds = {}, []
    for isa in (i for i in targets.ARM_X2_ISAS if i in target.vector_isas):
        for u in variants.CROSS_UNROLLS:
            pfx = f"{isa}_u{u}_"
            kinds.append({"prefix": pfx, "isa": isa, "name": f"keccakp1600-x2-u{u}-{isa}"})
            for name, text in kernels.keccak_arm(env, isa, u, pfx, command, target).items():
                text = text.replace('#include "keccak_p1600_x2.h"', f'#include "{pfx}{name[:-2]}.h"')
                files[pfx + name] = text
    oracle = scalar_space[0]
    files["keccak_x2_arm_variants.h"] = render.render(
        env, "tests/keccak_x2_arm_variants.h.j2", kernels=kinds,
        oracle=oracle.ident + "_", oracle_name=oracle.name,
        header=render.provenance((("target", target.name),), command,
                                 "Test registry: the AArch64 x2 kernels."))
    return files


def cmd_testsuite(args):
    """Every variant one compiler can build, each under its own symbol prefix, plus the test
    data, so a single Check binary per compiler links the whole matrix."""
    target = targets.get(args.target)
    caps = set(filter(None, args.caps.split(",")))
    env = render.environment()
    command = render.command_line()
    files = {}
    if args.only in ("all", "scalar"):
        space = (variants.keccak_cross_space(target, caps) if args.scalar_space == "cross"
                 else variants.keccak_scalar_space(target, caps))
        space = variants.keccak_subset(space, args.subset)
        files.update(suite_files(env, space, kernels.keccak_any, command, target))
        params = (("target", target.name),
                  ("compiler caps", ",".join(sorted(caps)) or "(none)"),
                  ("subset", args.subset), ("variants", len(space)),
                  ("vector seed", hex(vectors.SEED)))
        files["keccak_variants.h"] = render.render(
            env, "tests/keccak_variants.h.j2", variants=space,
            header=render.provenance(params, command,
                                     "Test registry: every scalar Keccak variant."))
        files["sponge_vectors.h"] = kernels.sponge_test_vectors(
            env, vectors.sponge_cases(args.vectors, vectors.extra_dir()),
            render.provenance(params, command, "Test vectors for the sponge functions."))
    if (args.only in ("all", "scalar") and args.scalar_space == "cross"
            and set(targets.ARM_X2_ISAS) & set(target.vector_isas)):
        files.update(arm_x2_suite_files(env, command, target, space))
    # The single-state vector kernels run the scalar vector table too.
    files["keccak_vectors.h"] = render.render(
        env, "tests/keccak_vectors.h.j2", cases=vectors.keccak_cases(args.vectors),
        header=render.provenance((("target", target.name), ("vector seed", hex(vectors.SEED))),
                                 command, "Test vectors for Keccak-p[1600]."))
    if args.only in ("all", "simd"):
        space = [v for v in variants.keccak_simd_subset(
                     variants.keccak_simd_space(target, caps), args.simd_subset or args.subset)
                 if not args.select or any(s in v.name for s in args.select.split(","))]
        # The scalar kernel this compiler gets by default: what a vector kernel must beat.
        yardstick = targets.default_keccak(target, args.cc_id)
        files.update(suite_files(env, space + [yardstick], kernels.keccak_any, command, target))
        multis = [v for v in space if not v.single]
        params = (("target", target.name),
                  ("compiler caps", ",".join(sorted(caps)) or "(none)"),
                  ("variants", len(space)), ("vector seed", hex(vectors.SEED)))
        most = max([v.instances for v in multis] or [1])
        files["keccak_simd_variants.h"] = render.render(
            env, "tests/keccak_simd_variants.h.j2", yardstick=yardstick, multis=multis,
            singles=[v for v in space if v.single], max_instances=most,
            header=render.provenance(params, command,
                                     "Test registry: every vector Keccak variant."))
        files["keccak_simd_vectors.h"] = render.render(
            env, "tests/keccak_simd_vectors.h.j2", instances=8,
            cases=vectors.keccak_multi_cases(8),
            header=render.provenance(params, command,
                                     "Test vectors for the x-N Keccak-p[1600] kernels."))
    if args.only in ("all", "chacha"):
        files.update(chacha_testsuite(env, command, target, caps, args.vectors,
                                      args.chacha_subset or args.subset,
                                      cross=args.scalar_space == "cross"))
    render.write_tree(args.out, files)


def chacha_testsuite(env, command, target, caps, vectors_dir, subset="all", cross=False):
    """Every ChaCha variant (of a subset, or the cross subset) under its own prefix, the
    registry the Check suite and the bench walk, and the vectors (official records, plus
    digests computed by the Python reference)."""
    space = (variants.chacha_cross_space(target) if cross
             else variants.chacha_subset(variants.chacha_space(target, caps), subset))
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


def cmd_tune(args):
    from . import tune
    tune.tune({"keccak": args.bench, "simd": args.bench_simd, "chacha": args.bench_chacha},
              args.cc_id, args.cc_version, args.cflags, args.target,
              [c for c in args.caps.split(",") if c], args.quick, render.command_line())


def cmd_report(args):
    from . import report
    report.main(args.tsv, args.out)


def cmd_list(args):
    target = targets.get(args.target)
    caps = set(args.caps.split(","))
    if args.what == "targets":
        for t in targets.TARGETS.values():
            print(f"{t.name:10} {t.description}")
    else:
        for v in variants.keccak_scalar_space(target, caps):
            print(v.name)
        for v in variants.keccak_simd_space(target, caps):
            print(v.name)
        for v in variants.chacha_space(target, caps):
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
    g.add_argument("--lanes", help="plain (64-bit lanes) or interleaved (each lane as two "
                                   "32-bit words of its even and odd bits)")
    g.add_argument("--isa", choices=variants.SCALAR_ISAS + ("avx512", "sha3"),
                   help="single-state kernel: scalar (C), x86asm (the generator's x86-64 "
                        "inline assembly), avx512 (x86-64) or sha3 (aarch64, Armv8.2-A SHA3 "
                        "extension); default: the compiler's default variant's")
    g.add_argument("--multi", action="append", default=[], metavar="xN[-uU]-ISA",
                   help="also emit a multi-state kernel, e.g. x8-avx512, x4-avx2 (repeatable)")
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

    b = sub.add_parser("bundle", help="every code path of one architecture in one vendorable "
                                      "folder, with run-time dispatch")
    b.add_argument("--target", default="host",
                   help="x86_64, aarch64, portable (generic64), or another target (scalar)")
    b.add_argument("--cc-id", default=targets.CANONICAL_CC,
                   help="compiler whose measured defaults shape the kernels")
    b.add_argument("--prefix", default="", help="prepended to every exported symbol")
    b.add_argument("--amalgamate", action="store_true",
                   help="write one roundsmith.c and one roundsmith.h")
    b.add_argument("--kernels", default=",".join(FAMILIES),
                   help="kernel families to keep, comma separated: keccak (the permutation, "
                        "the sponge functions, the SnP interface), chacha (default: all)")
    b.add_argument("--chacha-rounds", help="ChaCha round counts to keep, e.g. 8 (default "
                                          "8,12,20; chacha20_xor and the IETF form need 20)")
    b.add_argument("--out")
    b.add_argument("--canonical", action="store_true",
                   help="write the committed bundles into ROOT/out/ (what check compares)")
    b.add_argument("--root", default="out", help=argparse.SUPPRESS)
    b.set_defaults(run=cmd_bundle)

    ck = sub.add_parser("check", help="regenerate the committed bundles into a temporary "
                                      "folder and diff them against out/")
    ck.add_argument("--root", default="out", help="the folder holding the committed bundles")
    ck.set_defaults(run=cmd_check)

    t = sub.add_parser("testsuite", help="generate every variant and the vectors for the tests")
    t.add_argument("--target", default="host")
    t.add_argument("--caps", default="", help="compiler capabilities, comma separated")
    t.add_argument("--cc-id", default="gcc",
                   help="compiler whose default scalar kernel the vector kernels are timed against")
    t.add_argument("--vectors", default=vectors.default_dir())
    t.add_argument("--only", choices=("all", "scalar", "simd", "chacha"), default="all",
                   help="which kernel families to emit (default all)")
    t.add_argument("--select", default="",
                   help="vector variants: keep only names containing one of these, comma "
                        "separated (to build a part of the matrix)")
    t.add_argument("--subset", default="all", choices=variants.SUBSETS,
                   help="scalar Keccak variants (and the others unless given below): all, a "
                        "representative few for instrumented builds, those valgrind can run, "
                        "or the tuner's quick space")
    t.add_argument("--simd-subset", choices=variants.SUBSETS,
                   help="vector Keccak variants (default: --subset)")
    t.add_argument("--chacha-subset", choices=variants.SUBSETS,
                   help="ChaCha variants (default: --subset)")
    t.add_argument("--scalar-space", choices=("all", "cross"), default="all",
                   help="scalar (and ChaCha) variants: all, or the cross subset run under "
                        "emulation")
    t.add_argument("--out", required=True)
    t.set_defaults(run=cmd_testsuite)

    d = sub.add_parser("describe", help="print what a generated folder holds")
    d.add_argument("folder")
    d.set_defaults(run=cmd_describe)

    tu = sub.add_parser("tune", help="time the built candidates of one compiler and record "
                                     "the winner in generator/profiles/ (run by ninja tune)")
    tu.add_argument("--bench", required=True, help="the compiler's bench_keccak program")
    tu.add_argument("--bench-simd", help="its bench_keccak_simd program (x-N kernels)")
    tu.add_argument("--bench-chacha", help="its bench_chacha program")
    tu.add_argument("--cc-id", required=True)
    tu.add_argument("--cc-version", required=True)
    tu.add_argument("--cflags", required=True)
    tu.add_argument("--target", default="host")
    tu.add_argument("--caps", default="")
    tu.add_argument("--quick", action="store_true", help="the pruned space")
    tu.set_defaults(run=cmd_tune)

    rp = sub.add_parser("report", help="markdown tables and SVG plots from the benches' --tsv "
                                       "rows (run by ninja report)")
    rp.add_argument("--out", default="out/report")
    rp.add_argument("tsv", nargs="+", help="build/report/<compiler>-<bench>.tsv files")
    rp.set_defaults(run=cmd_report)

    pm = sub.add_parser("permute", help="apply the reference Keccak-p[1600, rounds] to a state")
    pm.add_argument("--rounds", default="24")
    pm.add_argument("--state", default="", help="200 bytes in hex (default: zeros)")
    pm.set_defaults(run=cmd_permute)

    ls = sub.add_parser("list", help="list targets or variants")
    ls.add_argument("what", choices=("targets", "variants"))
    ls.add_argument("--target", default="host")
    ls.add_argument("--caps", default="gnu-asm-x86-64,asm-bmi2,intrin-sse2,intrin-avx2,"
                                      "intrin-avx512,x86-target-attr")
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
