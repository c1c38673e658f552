# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Bundles shaped by tuned profiles: what each dispatch path of a bundle runs, per kernel
family, follows a profile's winners instead of a fixed rule.

- ChaCha: a path never runs a level above the profile's winning level (a machine where AVX2
  ChaCha beat AVX-512 runs AVX2 on its AVX-512 path), in the winner's schedule and rotation.
- KT128 leaves: a path keeps a wider x-N kernel only while it beats the narrower ones of that
  path per instance (the x4 against x8 choice), each at the profile's unroll.
- Single-state Keccak: the profile's scalar shape (unroll, lane complementing, parity); a
  RORX or x86asm winner is taken as the portable C builtin rotation, since the bundle's BMI2
  flavour makes the compiler emit RORX itself and a bundle builds under MSVC and tcc too. A
  single-state vector winner is not carried: its kernel needs -mavx512f for the whole file
  (keccak_p1600_avx512.c.j2's target guard), which a bundle built without -m flags lacks, so
  the bundle keeps the scalar default shape then.

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

from . import profiles, targets, variants
from .errors import UsageError


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


def keccak_shape(choices, target, compiler_id):
    """The single-state kernel a bundle carries for this compiler: the profile's shape, in
    portable C."""
    default = targets.default_keccak(target, compiler_id)
    name = choices.get("keccak_scalar")
    if not name or not name.endswith(variants.SCALAR_ISAS):
        if default.isa != "scalar":
            default = variants.keccak_from_options(target, default, isa="scalar")
        return default
    won = variants.keccak_from_name(name)
    rotate = won.rotate if won.rotate in ("shift", "builtin") else "builtin"
    if won.isa == "x86asm":
        return variants.keccak_from_options(target, default, isa="scalar")
    return dataclasses.replace(won, rotate=rotate)


def chacha_shape(choices, target, compiler_id, widest):
    """(level cap, ChaCha variant at the bundle's widest level) for this compiler."""
    default = targets.default_chacha(target, compiler_id)
    won = (variants.chacha_from_name(choices["chacha"]) if "chacha" in choices else default)
    if won.isa not in target.chacha_isas:
        won = default
    order = list(variants.CHACHA_ISAS)
    cap = won.isa if order.index(won.isa) < order.index(widest) else widest
    if won.isa != cap:
        return cap, default
    return cap, won


def leaf_median(candidates, kernel, name):
    for row in candidates.get(kernel, ()):
        if row.get("variant") == name and row.get("status") == "ok":
            return row.get("median_24")
    return None


def leaves(spec_list, choices, candidates, target):
    """The path's leaf specs at the profile's unrolls, a wider one dropped where a narrower
    one on the same path is faster per instance."""
    out = []
    for spec in spec_list:
        if targets.is_arm_x2(spec):
            out.append((spec, None))
            continue
        m = targets.multi_variant(spec, target)
        kernel = f"keccak_x{m.instances}_{m.isa}"
        won = choices.get(kernel)
        if won and not re.search(r"-u\d+-", spec):
            m = variants.simd_from_name(won)
            spec = f"x{m.instances}-u{m.unroll}-{m.isa}"
        out.append((spec, leaf_median(candidates, kernel, won or "")))
    kept = []
    for i, (spec, fig) in enumerate(out):
        narrower = [f for _, f in out[i + 1:] if f is not None]
        if fig is not None and narrower and min(narrower) < fig:
            continue
        kept.append(spec)
    return tuple(kept)


def shaped(bundle, compiler_id=targets.CANONICAL_CC):
    """The bundle with each path's kernels per the canonical profile of `compiler_id`, and
    its single-state Keccak shape: (bundle, keccak variant)."""
    target = targets.get(bundle.target)
    choices, candidates = canonical(compiler_id, target)
    keccak = keccak_shape(choices, target, compiler_id)
    if not choices or len(bundle.paths) == 1:
        return bundle, keccak
    widest = max((p.chacha for p in bundle.paths),
                 key=lambda isa: list(variants.CHACHA_ISAS).index(isa))
    cap, _ = chacha_shape(choices, target, compiler_id, widest)
    order = list(variants.CHACHA_ISAS)
    paths = []
    for p in bundle.paths:
        chacha = p.chacha if order.index(p.chacha) <= order.index(cap) else cap
        paths.append(dataclasses.replace(
            p, chacha=chacha, kt_leaves=leaves(p.kt_leaves, choices, candidates, target)))
    return dataclasses.replace(bundle, paths=tuple(paths)), keccak


def chacha_for(bundle, compiler_id):
    """The ChaCha variant a bundle carries for a compiler, at the bundle's widest level."""
    target = targets.get(bundle.target)
    widest = max((p.chacha for p in bundle.paths),
                 key=lambda isa: list(variants.CHACHA_ISAS).index(isa))
    choices, _ = canonical(compiler_id, target)
    return chacha_shape(choices, target, compiler_id, widest)[1]
