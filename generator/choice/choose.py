# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Which variant a caller gets: each option given, over the tuned profile's winner, over the
compiler's default (generator/choice/targets.py).

`generate`, configure.py's out/, the bundles and a bench's sweep all choose here, so that the
precedence, and the refusal of a variant the compiler cannot build, are written once: a
caller only says which layers it has (a sweep has no profile, a bundle no options, wasm32's
default comes from its engine profiles).
"""

import re

from . import targets, variants
from ..errors import UsageError


def untuned(family, target, compiler_id, multi=None):
    """The compiler's default before any profile: keccak, chacha, or multi (the shape of
    `multi` at the default unroll)."""
    if family == "keccak":
        return targets.default_keccak(target, compiler_id)
    if family == "chacha":
        return targets.default_chacha(target, compiler_id)
    return variants.SimdKeccakVariant(instances=multi.instances, isa=multi.isa,
                                      unroll=targets.DEFAULT_SIMD_UNROLL)


def lacking(v, caps):
    return [n for n in v.compiler_needs() if n not in caps]


def keccak(target, compiler_id, shape=(None,) * 5, isa=None, tuned=None, default=None,
           caps=None, cc=None):
    """The single-state Keccak variant: `shape` (unroll, lane complementing, rotation, parity,
    lanes; None where not given) and `isa` over the tuned winner's name over `default` (the
    compiler's untuned one unless given). A single-state vector winner takes the scalar
    kernel's place (behind the same API) only when no option shapes the scalar kernel and the
    compiler (`caps`, named `cc`) can build it; given `caps`, a rotation it cannot build is
    refused."""
    base = default or untuned("keccak", target, compiler_id)
    if tuned:
        if not tuned.endswith(variants.SCALAR_ISAS):
            single = variants.simd_from_name(tuned)
            if all(o is None for o in shape) and caps is not None and not lacking(single, caps):
                return single
        else:
            base = variants.keccak_from_name(tuned)
    v = variants.keccak_from_options(target, base, *shape, isa)
    missing = lacking(v, caps) if caps is not None else []
    if missing:
        raise UsageError(f"{cc} cannot build rotation '{v.rotate}' (lacks "
                         f"{', '.join(missing)}); pick another --rotate")
    return v


def multis(target, specs, tuned=None, caps=None, cc=None):
    """The x-N kernels: each --multi spec (None: the target's default shapes this compiler can
    build), a shape given without its unroll (x8-avx512, not x8-u24-avx512) at the tuned
    winner's; given `caps`, a kernel the compiler has no intrinsics for is refused."""
    if specs is None:
        specs = [f"x{m.instances}-{m.isa}" for m in targets.default_multis(target, caps)]
    out = []
    for spec in specs:
        m = targets.multi_variant(spec, target)
        winner = (tuned or {}).get(f"keccak_x{m.instances}_{m.isa}")
        if winner and not re.search(r"-u\d+-", spec):
            m = variants.simd_from_name(winner)
        if caps is not None and m.compiler_needs()[0] not in caps:
            raise UsageError(f"{cc} cannot build {m.name} (no {m.isa} "
                             f"intrinsics); drop it from --multi")
        out.append(m)
    return out


def chacha(target, compiler_id, shape=(None,) * 5, tuned=None, default=None, caps=None,
           cc=None):
    """The ChaCha variant: `shape` (ISA, schedule, rotation, states, rounds) over the tuned
    winner's name, taken only if it is for this target and the compiler can build it, over
    `default` (the compiler's untuned one unless given); given `caps`, a level it cannot build
    is refused."""
    base = default or untuned("chacha", target, compiler_id)
    if tuned:
        winner = variants.chacha_from_name(tuned)
        if winner.isa in target.chacha_isas and (caps is None or not lacking(winner, caps)):
            base = winner
    v = variants.chacha_from_options(target, base, *shape)
    missing = lacking(v, caps) if caps is not None else []
    if missing:
        raise UsageError(f"{cc} cannot build ChaCha level '{v.isa}' (lacks "
                         f"{', '.join(missing)}); pick --chacha-isa scalar")
    return v


def buildable(v, cc, caps):
    """`v`, or the refusal a sweep names a combination's missing variant by."""
    missing = lacking(v, caps)
    if missing:
        raise UsageError(f"{cc} cannot build it (no {', '.join(missing)})")
    return v
