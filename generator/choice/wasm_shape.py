# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The wasm32 shapes the committed engine profiles choose (generator/profiles/wasm32-*.json,
written by `generator tune-wasm`): what `generate --target wasm32` takes for every shape
option left unset, and what `bundle --target wasm32` (and out/wasm32) carries.

A wasm module runs on whatever engine and host its user has, so one build serves them all:
per kernel, among the shapes the profiles chose (each a winner by more than its race's spread,
or the untuned default after a tie) and the untuned default, the one whose worst loss over
every applicable profile is smallest (cost / that profile's own choice, from the profile's
rows), as cpu_table.minimax_variant does for native scalar shapes; within MINIMAX_SLACK the
untuned default, then the smaller shape. A profile measured under an engine the tuner does
not race under, or built by another compiler, is ignored whole, and a kernel whose shaping
sources changed since it was tuned is ignored in that profile alone, each with a warning;
without an applicable profile a kernel keeps generator/targets.py's default.

Only committed files decide (the profiles, and the sources their hashes cover), never this
machine, so the output is the same bytes on every machine. Reads and derives; renders nothing.
"""

import dataclasses
import functools
import os
import re

from . import cpu_table, kinds, profiles, targets, variants

# What the wasm32 tuner (generator/measure/wasm_tune.py) races and records, here so that the
# shapes read from its profiles need nothing of the measuring code.
TARGET = targets.TARGETS["wasm32"]
ENGINE = "node"
COMPILER = "clang"
X2_ISA = "simd128"

# Per kernel: the race.mjs figure that decides, what it means, its kind (kinds.KINDS).
METRICS = {k.wasm[0]: (k.wasm[1], k.wasm[2], k.name) for k in kinds.KINDS if k.wasm}


def x2_name(unroll):
    return f"keccakp1600-x2-u{unroll}-{X2_ISA}"


def x2_unroll(name):
    m = re.fullmatch(rf"keccakp1600-x2-u(\d+)-{X2_ISA}", name)
    return int(m.group(1)) if m else None


def untuned(kernel):
    """The name a kernel gets without a profile (generator/targets.py)."""
    if kernel == "keccak_scalar":
        return targets.default_keccak(TARGET, COMPILER).name
    if kernel == "chacha":
        return targets.default_chacha(TARGET, COMPILER).name
    return x2_name(targets.DEFAULT_X2_UNROLL_TARGET[TARGET.name])


KERNELS = tuple(METRICS)


@dataclasses.dataclass(frozen=True)
class Shapes:
    keccak: object          # variants.KeccakVariant
    x2_unroll: int
    chacha: object          # variants.ChachaVariant
    shaped_by: tuple        # per kernel (kernel, (profile file names)): () where the default
    warnings: tuple

    def provenance(self):
        """What a generated file's header says shaped it: the kernels per profile file (the
        least worst loss over those files), or the fallback."""
        groups = {}
        for kernel, names in self.shaped_by:
            groups.setdefault(names, []).append(kernel)
        return "; ".join(
            ", ".join(kernels) + (" by the least worst loss over " + ", ".join(
                f"generator/profiles/{n}" for n in names) if names
                else " from generator/targets.py (no wasm32 profile applies)")
            for names, kernels in groups.items())


def applicable(directory=None):
    """([(file name, data, {kernel usable in it})], warnings) over the wasm32 profiles."""
    out, warnings = [], []
    for name, data in cpu_table.load("wasm32", directory, engine=True):
        k = data.get("key", {})
        if k.get("engine") != ENGINE or k.get("compiler") != COMPILER:
            warnings.append(f"ignoring generator/profiles/{name}: raced under "
                            f"{k.get('engine')!r} with {k.get('compiler')!r}; the wasm32 "
                            f"tuner races {COMPILER} builds under "
                            f"{ENGINE}, and only such figures are weighed")
            continue
        recorded = k.get("sources") if isinstance(k.get("sources"), dict) else {}
        usable = set()
        for kernel in sorted(data.get("choice", {})):
            if kernel not in METRICS:
                warnings.append(f"ignoring {kernel} in generator/profiles/{name}: not a "
                                f"wasm32 kernel this generator tunes")
                continue
            family = METRICS[kernel][2]
            now = profiles.sources_hash(family)
            if recorded.get(family) != now:
                warnings.append(f"ignoring {kernel} in generator/profiles/{name}: "
                                f"sources.{family} is {now!r}, profile has "
                                f"{recorded.get(family)!r} (its model or templates changed "
                                f"since it was tuned)")
                continue
            usable.add(kernel)
        out.append((name, data, usable))
    return out, warnings


def size(kernel, name):
    """Less code first: the unroll (Keccak), the block sets (ChaCha)."""
    if kernel == "keccak_scalar":
        return variants.keccak_from_name(name).unroll
    if kernel == "chacha":
        return variants.chacha_from_name(name).states
    return x2_unroll(name) or 0


def minimax(kernel, per_profile):
    """The shape one build carries for `kernel` given [(choice, {variant: cost})] per profile:
    among the choices and the untuned default, those every profile measured, the least worst
    loss (cost / that profile's choice's cost), within cpu_table.MINIMAX_SLACK the untuned
    default, then the smaller. The untuned default when nothing is weighable."""
    default = untuned(kernel)
    if not per_profile:
        return default
    pool = {c for c, _ in per_profile} | {default}
    common = [v for v in pool if all(v in costs and c in costs for c, costs in per_profile)]
    if not common:
        return default
    worst = {v: max(costs[v] / costs[c] for c, costs in per_profile) for v in common}
    best = min(worst.values())
    near = [v for v in common if worst[v] <= best * (1 + cpu_table.MINIMAX_SLACK)]
    return min(near, key=lambda v: (v != default, size(kernel, v), worst[v], v))


def choose(directory=None):
    """The Shapes the profiles in `directory` (generator/profiles/) choose."""
    found, warnings = applicable(directory)
    chosen, shaped_by = {}, []
    for kernel in KERNELS:
        metric = METRICS[kernel][0]
        per, names = [], []
        for name, data, usable in found:
            if kernel not in usable:
                continue
            costs = {r["variant"]: r[metric] for r in data.get("candidates", {}).get(kernel, ())
                     if r.get("status") == "ok" and metric in r}
            choice = data["choice"][kernel]
            if choice in costs:
                per.append((choice, costs))
                names.append(name)
        chosen[kernel] = minimax(kernel, per)
        shaped_by.append((kernel, tuple(names)))
    return Shapes(keccak=variants.keccak_from_name(chosen["keccak_scalar"]),
                  x2_unroll=x2_unroll(chosen["keccak_x2_simd128"]),
                  chacha=variants.chacha_from_name(chosen["chacha"]),
                  shaped_by=tuple(shaped_by), warnings=tuple(warnings))


@functools.lru_cache(maxsize=4)
def _cached(directory, stamp):
    return choose(directory)


def shapes(directory=None):
    """choose(), once per state of the folder (a generation asks per file)."""
    directory = directory or profiles.PROFILE_DIR
    stamp = tuple((n, os.stat(os.path.join(directory, n)).st_mtime_ns)
                  for n in sorted(os.listdir(directory)) if n.endswith(".json"))
    return _cached(directory, stamp)


def leaf(spec, unroll):
    """A bundle's x2 SIMD128 leaf spec at the chosen unroll (x2-u1-simd128 -> x2-uU-simd128)."""
    return re.sub(r"^x2(?:-u\d+)?-", f"x2-u{unroll}-", spec)


def bundle_chacha(s):
    """The ChaCha shape a wasm32 bundle's SIMD128 path carries: the chosen one if it is a
    SIMD128 shape (the bundle's widest level), else the untuned default."""
    default = targets.default_chacha(TARGET, COMPILER)
    return s.chacha if s.chacha.isa == default.isa else default
