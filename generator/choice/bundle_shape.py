# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Bundles shaped by tuned profiles: the kernels a bundle carries follow measured figures
instead of a fixed rule (which of them runs on a CPU is the run-time table of
generator/cpu_table.py).

- ChaCha: each level in the canonical profile's winning schedule and rotation for the
  compiler (bundle.CHACHA_BY_COMPILER gives clang its own).
- Multi-state kernels: each class at the unroll whose worst loss over every profiled CPU and
  compiler is smallest, within BUNDLE_UNROLLS.
- Single-state Keccak: the profile's scalar shape (unroll, lane complementing, parity); a
  RORX or x86asm winner is taken as the portable C builtin rotation, since the bundle's BMI2
  flavour makes the compiler emit RORX itself and a bundle builds under MSVC and tcc too. A
  single-state vector winner is not carried: its kernel needs -mavx512f for the whole file
  (keccak_p1600_avx512.c.j2's target guard), which a bundle built without -m flags lacks, so
  the bundle keeps the scalar default shape then.

The wasm32 bundle follows the committed wasm32 profiles instead (generator/choice/wasm_shape.py:
the scalar shape, the x2 SIMD128 leaf's unroll and the ChaCha shape whose worst loss over
every engine and host profiled is smallest), not a native compiler's.

The committed bundles (out/) follow the committed profiles of the canonical machine
(targets.CANONICAL_PROFILES), by their `choice` alone: not their key or source hashes, so the
bundles come out the same on any machine (`python3 -m generator check` stays meaningful)
until a re-tune commits new profiles, when `python3 -m generator bundle --canonical`
regenerates them.
"""

import dataclasses
import json
import os
import re

from . import choose, cpu_table, profiles, targets, variants, wasm_shape
from ..model import keccak_maths as keccak
from ..errors import UsageError


def canonical(compiler_id, target):
    """(choices, candidate rows) of the canonical machine's committed profile for a
    compiler, or ({}, {}) when there is none or it was measured on another architecture than
    the target's (the portable bundle, for any CPU, takes no profile)."""
    name = targets.CANONICAL_PROFILES.get(compiler_id)
    if not name:
        return {}, {}
    path = os.path.join(profiles.PROFILE_DIR, name)
    try:
        with open(path) as f:
            data = json.load(f)
    except OSError:
        return {}, {}
    except ValueError as e:
        raise UsageError(f"{os.path.relpath(path, profiles.ROOT)}: not JSON ({e})") from None
    if data.get("key", {}).get("arch") != target.arch:
        return {}, {}
    return data.get("choice", {}), data.get("candidates", {})


def carried(compiler_id, target):
    """The canonical profile's choices, with the scalar Keccak shape and the ChaCha shape
    replaced by the ones whose worst loss over every CPU profiled with this compiler is
    smallest (cpu_table.minimax_variant): a bundle carries one shape of each for every CPU,
    and the canonical machine's winner can cost another CPU far more (gcc's x32-seq ChaCha,
    Zen 5's best, ran 1.6x slower than x16 on the Intel Xeon profiled)."""
    choices, candidates = canonical(compiler_id, target)
    if not choices:
        return choices, candidates
    choices = dict(choices)
    scalar = cpu_table.minimax_variant(
        target.arch, compiler_id, "keccak_scalar", "median_24",
        lambda v: v.endswith("-scalar") and ("-shift-" in v or "-builtin-" in v)
        and variants.keccak_from_name(v).unroll in BUNDLE_SCALAR_UNROLLS,
        smaller=lambda v: variants.keccak_from_name(v).unroll)
    if scalar:
        choices["keccak_scalar"] = scalar
    widest = choices.get("chacha", "").rsplit("-", 1)[-1]
    chacha_ = cpu_table.minimax_variant(target.arch, compiler_id, "chacha", "bulk_median",
                                        lambda v: v.endswith("-" + widest))
    if widest and chacha_:
        choices["chacha"] = chacha_
    return choices, candidates


def keccak_shape(choices, target, compiler_id):
    """The single-state kernel a bundle carries for this compiler: the profile's shape, in
    portable C."""
    name = choices.get("keccak_scalar")
    won = (variants.keccak_from_name(name) if name and name.endswith(variants.SCALAR_ISAS)
           else None)
    carried = (dataclasses.replace(won, rotate=won.rotate if won.rotate in ("shift", "builtin")
                                   else "builtin").name
               if won and won.isa != "x86asm" else None)
    v = choose.keccak(target, compiler_id, tuned=carried)
    return v if v.isa == "scalar" else variants.keccak_from_options(target, v, isa="scalar")


def explicit_nots(lane_complement, andn):
    """The NOT instructions a round's chi issues (keccak.round_rows), when the CPU has an
    and-not instruction (`andn`: the NOT of a ~b & c form is free) or not."""
    rows = keccak.round_rows(keccak.BEBIGOKIMISA if lane_complement else frozenset())
    return sum(len(row.negated) + sum(o.form.nots - (andn and o.form.op == "&" and o.form.not_b)
                                      for o in row.outputs) for row in rows)


def flavour_shape(won, flavour):
    """The single-state kernel of one scalar flavour of a bundle (targets.KECCAK_FLAVOURS):
    the carried shape `won`, measured with the tuner's -march=native, where the CPU has ANDN.
    A flavour without it issues every NOT chi asks for, 25 a round without lane complementing
    and 5 with it, plus the register copies the two-operand AND and ROL need: there the
    shape takes whichever lane complementing issues fewer NOTs (on the Intel f6m167, -O2 with
    no -m flags: 1.12x under gcc, 1.11x under clang)."""
    if flavour.andn or won.isa != "scalar":
        return won
    lc = min((False, True), key=lambda c: (explicit_nots(c, False), c != won.lane_complement))
    return dataclasses.replace(won, lane_complement=lc)


def chacha_shape(choices, target, compiler_id, widest):
    """(level cap, ChaCha variant at the bundle's widest level) for this compiler."""
    default = choose.untuned("chacha", target, compiler_id)
    won = choose.chacha(target, compiler_id, tuned=choices.get("chacha"))
    order = list(variants.CHACHA_ISAS)
    cap = won.isa if order.index(won.isa) < order.index(widest) else widest
    if won.isa != cap:
        return cap, default
    return cap, won


# The unrolls a bundle's multi-state kernels may carry: beyond 4 a kernel's code grows with no
# measured gain on any profiled CPU (each class's figures over unrolls 1-24 lie within a few
# percent), and the bundle carries four of them on its AVX-512 path.
BUNDLE_UNROLLS = (1, 2, 3, 4)


# The scalar kernel's unrolls a bundle may carry: the fully unrolled kernel has five times the
# code of unroll 4 (about 110 KB of text per flavour with gcc -O2, and the bundle carries two
# flavours) for at most 3% on the profiled CPUs.
BUNDLE_SCALAR_UNROLLS = (1, 2, 3, 4, 6)


def leaves(spec_list, target):
    """The path's leaf specs, each at the unroll whose worst loss over every profiled CPU and
    compiler is smallest (generator/cpu_table.py); a spec that names its unroll keeps it.
    Which of them runs on a given CPU is the run-time table's business, not a pruning here."""
    out = []
    for spec in spec_list:
        if targets.is_arm_x2(spec) or re.search(r"-u\d+-", spec):
            out.append(spec)
            continue
        m = targets.multi_variant(spec, target)
        cls = f"x{m.instances}-{m.isa}"
        unroll = cpu_table.carried_unroll(target.arch, cls, BUNDLE_UNROLLS)
        out.append(f"x{m.instances}-u{unroll}-{m.isa}" if unroll else spec)
    return tuple(out)


def shaped(bundle, compiler_id=targets.CANONICAL_CC):
    """The bundle with each path's multi-state kernels at their carried unrolls, and its
    single-state Keccak shape from the canonical profile of `compiler_id`: (bundle, keccak
    variant). Every path keeps its ChaCha level: which level runs on a CPU is the run-time
    table's choice (generator/cpu_table.py)."""
    target = targets.get(bundle.target)
    if target.arch == "wasm32":
        s = wasm_shape.shapes()
        paths = tuple(dataclasses.replace(p, kt_leaves=tuple(wasm_shape.leaf(spec, s.x2_unroll)
                                                             for spec in p.kt_leaves))
                      for p in bundle.paths)
        return dataclasses.replace(bundle, paths=paths), s.keccak
    choices, _ = carried(compiler_id, target)
    keccak = keccak_shape(choices, target, compiler_id)
    if len(bundle.paths) == 1:
        return bundle, keccak
    paths = tuple(dataclasses.replace(p, kt_leaves=leaves(p.kt_leaves, target))
                  for p in bundle.paths)
    return dataclasses.replace(bundle, paths=paths), keccak


def chacha_for(bundle, compiler_id):
    """The ChaCha variant a bundle carries for a compiler, at the bundle's widest level."""
    target = targets.get(bundle.target)
    if target.arch == "wasm32":
        return wasm_shape.bundle_chacha(wasm_shape.shapes())
    widest = max((p.chacha for p in bundle.paths),
                 key=lambda isa: list(variants.CHACHA_ISAS).index(isa))
    choices, _ = carried(compiler_id, target)
    return chacha_shape(choices, target, compiler_id, widest)[1]
