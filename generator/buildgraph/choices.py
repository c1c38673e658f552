# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The variants build/out/<target>/ is generated with: the command-line options, over the
matching tuned profile's winner, over the built-in default (generator/targets.py)."""

import platform

from generator.choice import choose, cpu_table, profiles, targets
from generator.buildgraph.flags import optimisation
from generator.buildgraph.ninja import rel


# `./configure.py --tune quick` end to end (configure, build the quick space of gcc, clang and
# tcc, race it, configure again), measured on the 2-core Zen 5 VM on 2026-12-01 while other
# builds loaded it (load average 5-12; docs/tuning.md): nearly all of it is compiling.
QUICK_TUNE_TIME = "measured: 6 min on 2 loaded cores, the races 32 s of it"


def tuned_choices(args, target, cc):
    """The matching tuned profile's winner per kernel (keccak_scalar, keccak_x8_avx512, ...,
    chacha), with a warning printed for each mismatch and one line naming the profile used,
    or saying that none applies and how to make one; {} with --no-profile or on a target
    other than the host (a profile is measured on this machine)."""
    if args.no_profile or target is not targets.host():
        return {}
    choices, warnings = profiles.lookup(cc["id"], cc["version"], optimisation(args, cc))
    for warning in warnings:
        print(f"configure.py: warning: {warning}")
    where = rel(profiles.host_path(cc["id"]))
    if choices:
        print(f"configure.py: {cc['cc']}: tuned profile {where} picks "
              + ", ".join(choices[k] for k in sorted(choices)))
    else:
        model, _ = profiles.cpu_identity()
        ident = profiles.cpu_family_model()
        print(f"configure.py: {cc['cc']}: no tuned profile applies to this CPU ({model}"
              + (f", {ident}" if ident else "") + f") with {cc['id']} {cc['version']} "
              f"{optimisation(args, cc)} ({where}): built-in defaults; `./configure.py --tune "
              f"quick` makes one ({QUICK_TUNE_TIME})")
    bundle_row_note(cc)
    return choices


def bundle_row_note(cc):
    """One line: whether the bundles' per-CPU table has a row measured on this CPU for this
    compiler (a bundle profile), and how to make one when not."""
    model, _ = profiles.cpu_identity()
    ident = cpu_table.identity({"cpu": model, "cpu_id": profiles.cpu_family_model(),
                                "vendor": cpu_table.host_vendor()})
    if ident is None:
        return
    mine = [name for name, data in cpu_table.load(platform.machine())
            if cpu_table.is_bundle(data) and cpu_table.identity(data["key"]) == ident
            and data["key"].get("compiler") == cc["id"]]
    if mine:
        print(f"configure.py: {cc['cc']}: the bundles' per-CPU table has this CPU's row "
              f"(generator/profiles/{mine[0]})")
    else:
        print(f"configure.py: {cc['cc']}: the bundles' per-CPU table has no {cc['id']} row for "
              f"this CPU ({' '.join(map(str, ident))}): they run the least-worst-loss choice; "
              f"`python3 -m generator tune-bundle --cc {cc['id']}` measures one")


def pick_keccak(args, target, cc, tuned):
    """The Keccak kernel for out/: scalar, or a single-state vector kernel when the profile's
    race found one faster (it takes the scalar one's place behind the same API) and no
    option shapes the scalar kernel."""
    return choose.keccak(target, cc["id"], (args.unroll, args.lane_complement, args.rotate,
                                            args.parity, args.lanes),
                         tuned=tuned.get("keccak_scalar"), caps=cc["caps"], cc=cc["cc"])


def pick_multis(args, target, cc, tuned):
    """The x-N kernels for out/: --multi (or the default shapes); a shape given without its
    unroll (x8-avx512, not x8-u24-avx512) takes the tuned profile's."""
    specs = (None if args.multi is None
             else [spec for spec in filter(None, args.multi.split(",")) if spec != "none"])
    return choose.multis(target, specs, tuned, caps=cc["caps"], cc=cc["cc"])


def pick_chacha(args, target, cc, tuned):
    """ChaCha for out/; the tuned profile's winner only if this compiler can build it here."""
    return choose.chacha(target, cc["id"], (args.chacha_isa, args.chacha_schedule,
                                            args.chacha_rotate, args.chacha_states,
                                            args.chacha_rounds),
                         tuned=tuned.get("chacha"), caps=cc["caps"], cc=cc["cc"])
