# SPDX-License-Identifier: Apache-2.0 OR MIT
"""testsuite: every variant one compiler can build, and the vectors for the tests."""

from ..choice import cli_options, targets, variants
from ..emit import kernels, outfolder, render
from ..model import vectors
from ..errors import UsageError
from .common import subcommand


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
                text = text.replace('#include "keccak_p1600_x2.h"',
                                    f'#include "{pfx}{name[:-2]}.h"')
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
    caps = cli_options.parse_caps(args.caps)
    cli_options.parse_cc_id(args.cc_id)
    for subset in (args.subset, args.simd_subset, args.chacha_subset):
        if subset is not None:
            variants.check_subset(subset)
    if args.only not in ("all", "scalar", "simd", "chacha"):
        raise UsageError(f"--only: unknown family '{args.only}'; accepted: all, scalar, simd, "
                         "chacha")
    if args.scalar_space not in ("all", "cross"):
        raise UsageError(f"--scalar-space: unknown space '{args.scalar_space}'; accepted: all, "
                         "cross")
    vectors.keccak_intermediate(args.vectors)   # unreadable vectors: say so before the folder
    outfolder.precheck(args.out)
    env = render.environment()
    command = args.command_line
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
            env, vectors.sponge_cases(args.vectors, vectors.default_dir()),
            vectors.sp800185_cases(vectors.default_dir()),
            render.provenance(params, command, "Test vectors for the sponge functions."))
        files["sponge_xN_vectors.h"] = kernels.sponge_xn_test_vectors(
            env, render.provenance((("vector seed", hex(vectors.SEED)),), command,
                                   "Test vectors for the multi-buffer sponges."))
        files["snp_xN_vectors.h"] = kernels.snp_xn_test_vectors(
            env, render.provenance((("vector seed", hex(vectors.SEED)),), command,
                                   "Test scripts for XKCP's parallel SnP."))
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
    outfolder.write_tree(args.out, files, command)


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


def add(sub):
    O = cli_options.Option
    subsets = cli_options.words(variants.SUBSETS)
    subcommand(sub, "testsuite", (
        cli_options.TARGET, cli_options.CAPS,
        O("--cc-id", "the compiler whose default scalar kernel the vector kernels are timed "
          "against", cli_options.words(cli_options.CC_IDS), "gcc", {"default": "gcc"}),
        O("--vectors", "the folder with the official vector files", "a folder path",
          "tests/vectors (in this checkout)", {"default": vectors.default_dir()}),
        O("--only", "which kernel families to emit", "all, scalar, simd, chacha", "all",
          {"default": "all"}),
        O("--select", "vector variants: keep only names containing one of these (to build a "
          "part of the matrix)", "comma-separated name fragments", "all", {"default": ""}),
        O("--subset", "scalar Keccak variants (and the others unless given below): all, a "
          "representative few for instrumented builds, those valgrind can run, or the tuner's "
          "quick space", subsets, "all", {"default": "all"}),
        O("--simd-subset", "vector Keccak variants", subsets, "--subset's"),
        O("--chacha-subset", "ChaCha variants", subsets, "--subset's"),
        O("--scalar-space", "scalar (and ChaCha) variants: all, or the cross subset run under "
          "emulation", "all, cross", "all", {"default": "all"}),
        cli_options.out_option(meaning="the folder to write (a build folder)")), cmd_testsuite,
        "generate every variant and the vectors for the tests")
