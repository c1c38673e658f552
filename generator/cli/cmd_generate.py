# SPDX-License-Identifier: Apache-2.0 OR MIT
"""generate: the kernel sources of one target, as the options shape them."""

import re

from ..choice import choose, cli_options, targets, variants
from ..emit import kernels, outfolder, render, vendor
from ..errors import UsageError
from .common import KERNELS, parse_families, prove_before_writing, subcommand, wasm_shapes


def keccak_variant(args, target):
    # wasm32's default is its engine profiles' shape; no native profile applies to generate.
    s = wasm_shapes(target)
    return choose.keccak(target, args.cc_id, (args.unroll, args.lane_complement, args.rotate,
                                              args.parity, args.lanes),
                         args.isa if args.isa in variants.SCALAR_ISAS else None,
                         default=s.keccak if s else None)


def chacha_variant(args, target):
    s = wasm_shapes(target)
    return choose.chacha(target, args.cc_id, (args.chacha_isa, args.chacha_schedule,
                                              args.chacha_rotate, args.chacha_states,
                                              args.chacha_rounds),
                         default=s.chacha if s else None)


def check_isa(isa, target):
    accepted = targets.single_state_isas(target)
    if isa is not None and isa not in accepted:
        raise UsageError(f"--isa: no single-state kernel '{isa}' on target {target.name}; "
                         f"accepted: {', '.join(accepted)}")
    return isa


def generate_choices(args, target):
    """(scalar or single-state kernel, x86 x-N kernels, AArch64 x2 kernels, ChaCha variant) the
    options ask for, each None or empty when its family is not asked for; validated whole
    before anything is rendered."""
    families = parse_families(args.kernels, "--kernels")
    check_isa(args.isa, target)
    v, multis, arm, c = None, [], [], None
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
        # wasm32's x2 kernel without an unroll asked: the profiles' (or the fallback) unroll.
        shapes = wasm_shapes(target)
        if shapes:
            arm = [(isa, u if re.search(r"-u\d+-", spec) else shapes.x2_unroll)
                   for (isa, u), spec in zip(arm, [m for m in args.multi
                                                   if targets.is_arm_x2(m)])]
        multis = choose.multis(target, [spec for spec in args.multi
                                        if not targets.is_arm_x2(spec)])
        if len({m.instances for m in multis}) < len(multis):
            raise UsageError("--multi: one kernel per instance count (their files share a name)")
        if len(arm) > 1:
            raise UsageError("--multi: one x2 kernel (their files share a name)")
    if "chacha" in families:
        c = chacha_variant(args, target)
    return v, multis, arm, c


def cmd_generate(args):
    target = targets.get(args.target)
    cli_options.parse_cc_id(args.cc_id)
    prefix, keep = cli_options.parse_names(args.prefix, args.keep_drop_in_names)
    v, multis, arm, c = generate_choices(args, target)
    outfolder.precheck(args.out)
    env = render.environment()
    command = args.command_line
    files, names = {}, []
    if v:
        files.update(kernels.keccak_any(env, v, prefix, command, target))
        files.update(kernels.keccak_sponge(env, v, prefix, command, target, multis,
                                           keep_drop_in_names=keep))
        for m in multis:
            files.update(kernels.keccak_simd(env, m, prefix, command, target))
        for isa, unroll in arm:
            files.update(kernels.keccak_arm(env, isa, unroll, prefix, command, target))
        names += [x.name for x in [v] + multis] + [f"keccakp1600-x2-u{u}-{isa}"
                                                   for isa, u in arm]
    if c:
        files.update(kernels.chacha_sources(env, c, prefix, command, target,
                                            keep_drop_in_names=keep))
        names.append(c.name)
    vendor_files(env, files, prefix, command, target, c.rounds if c else (),
                 c.width if c else 0, ", ".join(names), keep)
    if args.prove:
        prove_before_writing({args.out: files}, "generate")
    changed = outfolder.write_tree(args.out, files, command, force=args.force)
    print(f"generated {args.out}: {', '.join(names)} for {target.name}"
          + (f", prefix {args.prefix}" if args.prefix else "")
          + (" (drop-in names kept)" if keep else "")
          + (f" ({len(changed)} file(s) changed)" if changed else " (unchanged)"))


def vendor_files(env, files, prefix, command, target, chacha_rounds, chacha_width, names,
                 keep_drop_in_names=False):
    """What every generated folder gets besides its kernels: roundsmith.h, the self-test, the
    path report (one path, named after the target), the license and the build files."""
    params = (("target", target.name), ("kernels", names)) + render.prefix_params(
        prefix, keep_drop_in_names)
    shapes = wasm_shapes(target)
    if shapes:
        params += (("shapes", "those not given: " + shapes.provenance()),)
    vendor.single_path(env, files, prefix, command, params, target.name)
    # Without a dispatch, the multi-state kernels wait for the caller's own CPU check; the
    # self-test leaves them to it.
    vendor.self_test(env, files, prefix, command, params, chacha_rounds=chacha_rounds,
                     chacha_width=chacha_width, keep_drop_in_names=keep_drop_in_names)
    if target.arch == "wasm32":
        vendor.wasm_module(env, files, prefix, command, params, chacha_rounds,
                           keep_drop_in_names)
    vendor.build_files(env, files, prefix, command, params,
                       f"roundsmith kernels for {target.name}: {names}")


def add(sub):
    subcommand(sub, "generate", (cli_options.TARGET, cli_options.CC_ID) + cli_options.KECCAK
               + (KERNELS,) + cli_options.CHACHA + (cli_options.PREFIX,
                                                   cli_options.KEEP_DROP_IN_NAMES,
                                                   cli_options.out_option(),
                                                   cli_options.FORCE, cli_options.PROVE),
               cmd_generate,
               "generate the kernel sources of one target; on wasm32 the shape options left "
               "unset take the shapes the committed wasm32 profiles choose (generator/profiles/"
               "wasm32-*.json, the least worst loss over them; generator/targets.py's defaults "
               "without one), as its files' headers say")
