# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The per-CPU tuning table a bundle carries: for every CPU some profile in generator/profiles/
was measured on, and for every compiler, the order in which the bundle tries the kernels of
each run-time decision (which multi-state kernel serves N = 2, 4, 8 lanes of the multi-buffer
API, which one runs KT128's leaves, which ChaCha level runs); and for a CPU no profile knows,
the order whose worst loss over the measured CPUs is smallest (minimax).

A decision's options are kernel classes the bundle carries ("x1" for the single-state kernel,
"x8-avx512", "x4-avx512vl", ..., or a ChaCha level); the C side takes the first option of the
row's order that the path in force can run, so a forced or narrower path still gets the best
it can run.

Where the figures come from, per (CPU, compiler), best first:
- a bundle profile (`generator tune-bundle`): the bundle's own files compiled as users compile
  them (-O2, no -m flags), each option timed end to end through the API it serves; its
  `choice` (a winner only by more than the race's spread, else the untuned default) leads;
- otherwise a -march=native profile (`ninja tune`): the per-instance permutation cost of each
  kernel class at the unroll the bundle carries, scaled by the lanes a kernel wider than N
  wastes. These flatter the AVX2 kernel on an AVX-512 CPU (-march=native hands it AVX-512VL
  instructions a bundle's AVX2 kernel does not get), which is why a bundle profile wins.

This module reads profiles and derives; it renders nothing.
"""

import functools
import json
import os
import re
from dataclasses import dataclass

from . import kinds, profiles, targets

# The decisions, in the order the C table holds them; the multi-buffer ones per lane count.
MB_WIDTHS = kinds.MB_WIDTHS
DECISIONS = kinds.DECISIONS
SINGLE = "x1"
# Names a CPUID vendor string for a profile that recorded only the model name.
VENDORS = (("AMD", "AuthenticAMD"), ("Intel", "GenuineIntel"))
# Losses within this of the best worst-case loss count as equal: the smaller kernel is taken.
MINIMAX_SLACK = 0.01

# The table's sections in the C file: the preprocessor condition naming a compiler whose
# profiles it holds, tried in order; any other compiler (MSVC) gets the minimax of all.
COMPILER_SECTIONS = (("defined(__clang__)", "clang"), ("defined(__GNUC__)", "gcc"))


@dataclass(frozen=True)
class Row:
    """One CPU of the table: its identity, where its figures came from, and per decision the
    options best first."""
    vendor: str
    family: int
    model: int
    compiler: str          # whose figures these are: gcc, clang
    source: str            # the profile file the figures come from
    orders: tuple          # per decision, option names best first

    @property
    def label(self):
        """What rs_cpu_row_name() says: the CPU and the profile its figures come from."""
        return f"{self.vendor} family {self.family} model {self.model}: {self.source}"


def vendor_of(key):
    if key.get("vendor"):
        return key["vendor"]
    for word, vendor in VENDORS:
        if word.lower() in key.get("cpu", "").lower():
            return vendor
    return ""


def host_vendor():
    """This machine's CPUID vendor string as /proc/cpuinfo says it, or on AArch64 its MIDR
    implementer as rs_dispatch.c spells it (midr-41 for Arm); "" elsewhere."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("vendor_id"):
                    return line.split(":", 1)[1].strip()
                if line.startswith("CPU implementer"):
                    return f"midr-{int(line.split(':', 1)[1], 16):02x}"
    except OSError:
        pass
    return ""


def identity(key):
    """(vendor, family, model) of a profile's key, or None when it did not record them."""
    m = re.fullmatch(r"family (\d+) model (\d+)", key.get("cpu_id") or "")
    vendor = vendor_of(key)
    if not m or not vendor:
        return None
    return vendor, int(m.group(1)), int(m.group(2))


def load(arch, directory=None, engine=False):
    """Every profile of `arch` under generator/profiles/ (or `directory`), as (file name,
    data), sorted by name so the table comes out the same on every machine. A profile raced
    under a wasm engine (its key names one) holds nanoseconds of the engine's code, not a
    CPU's cycles: only `engine=True` asks for those (generator/wasm_profile.py), and only
    those then."""
    directory = directory or profiles.PROFILE_DIR
    names = sorted(n for n in os.listdir(directory) if n.endswith(".json"))
    stamp = tuple((n, os.stat(os.path.join(directory, n)).st_mtime_ns) for n in names)
    return [(name, data) for name, data in _read(directory, stamp)
            if data.get("key", {}).get("arch") == arch
            and bool(data.get("key", {}).get("engine")) == engine]


@functools.lru_cache(maxsize=8)
def _read(directory, stamp):
    """The profiles of a folder, parsed once per state of it (a generation asks for them
    once per kernel class and decision)."""
    out = []
    for name, _ in stamp:
        with open(os.path.join(directory, name)) as f:
            out.append((name, json.load(f)))
    return tuple(out)


def is_bundle(data):
    return data.get("key", {}).get("mode") == "bundle"


def _ok(row):
    return row.get("status") == "ok"


def _kernel_rows(data, cls):
    """A -march=native profile's rows for kernel class xN-isa."""
    n, isa = re.fullmatch(r"x(\d+)-(\w+)", cls).groups()
    return [r for r in data.get("candidates", {}).get(f"keccak_x{n}_{isa}", ()) if _ok(r)]


def _per_instance(data, cls, unroll):
    """A -march=native profile's per-instance permutation cost of a class at the carried
    unroll (else its best unroll), or None."""
    if cls == SINGLE:
        won = data.get("choice", {}).get("keccak_scalar")
        rows = [r for r in data.get("candidates", {}).get("keccak_scalar", ()) if _ok(r)]
        for r in rows:
            if r["variant"] == won:
                return r["median_24"]
        return min((r["median_24"] for r in rows), default=None)
    rows = _kernel_rows(data, cls)
    n, isa = re.fullmatch(r"x(\d+)-(\w+)", cls).groups()
    want = f"keccakp1600-x{n}-u{unroll}-{isa}"
    for r in rows:
        if r["variant"] == want:
            return r["median_24"]
    return min((r["median_24"] for r in rows), default=None)


def width(cls):
    return 1 if cls == SINGLE else int(re.match(r"x(\d+)", cls).group(1))


def single_costs(data, options):
    """The "single" decision's options from a -march=native profile's keccak_scalar race:
    "scalar" the scalar kernel it chose (else its best non-vector one), a vector option its
    kernel at the unroll the bundle carries (targets.SINGLE_VECTOR, else that ISA's best).
    The race times keccak_f1600 calls, which load and store the state each time: the sponge
    a vector kernel keeps in registers is where the bundle tuner's end-to-end race says more."""
    options = options or {}
    rows = [r for r in data.get("candidates", {}).get("keccak_scalar", ()) if _ok(r)]
    out = {}
    scalar = [r for r in rows if not r["variant"].endswith(tuple(f"-{v}" for v in options))]
    won = data.get("choice", {}).get("keccak_scalar")
    mine = [r["median_24"] for r in scalar if r["variant"] == won]
    if mine or scalar:
        out["scalar"] = mine[0] if mine else min(r["median_24"] for r in scalar)
    for v, carried in options.items():
        isa = [r for r in rows if r["variant"].endswith(f"-{v}")]
        exact = [r["median_24"] for r in isa if r["variant"] == carried]
        if exact or isa:
            out[v] = exact[0] if exact else min(r["median_24"] for r in isa)
    return out


def native_costs(data, options, unrolls, chacha_levels, decision_single=None):
    """Per decision, option -> cost (lower is better) from a -march=native profile: TSC
    cycles per lane per permutation for the Keccak decisions, c/B for ChaCha."""
    per = {c: _per_instance(data, c, unrolls.get(c)) for c in options}
    costs = {}
    for n in MB_WIDTHS:
        costs[f"mb{n}"] = {c: -(-n // width(c)) * width(c) * v / n
                           for c, v in per.items() if v is not None}
    # KT128 hands whole batches of leaves to one kernel: its per-instance cost.
    costs["kt128"] = {c: v for c, v in per.items() if v is not None}
    costs["single"] = single_costs(data, decision_single)
    chacha = {}
    for r in data.get("candidates", {}).get("chacha", ()):
        if _ok(r) and r.get("level") in chacha_levels:
            chacha[r["level"]] = min(chacha.get(r["level"], r["bulk_median"]), r["bulk_median"])
    if "scalar" in chacha_levels and "scalar" not in chacha:
        ref = [r.get("bulk_ref_median") for r in data.get("candidates", {}).get("chacha", ())
               if _ok(r) and r.get("bulk_ref_median")]
        if ref:
            chacha["scalar"] = min(ref)
    costs["chacha"] = chacha
    return costs


def bundle_costs(data):
    """Per decision, option -> median from a bundle profile's end-to-end races."""
    return {d: {r["variant"]: r["median"] for r in data.get("candidates", {}).get(d, ())
                if _ok(r)}
            for d in DECISIONS}


def static_order(decision, options):
    """The order without any figure: for N lanes the kernels no wider than N widest first,
    then the wider ones narrowest first, then the single-state kernel; KT128 and ChaCha
    widest first (options come widest first)."""
    if decision == "single":
        # Without figures the scalar flavour: a vector kernel runs where a CPU measured it.
        return ("scalar",) + tuple(c for c in options if c != "scalar")
    if decision.startswith("mb"):
        n = int(decision[2:])
        fits = [c for c in options if c != SINGLE and width(c) <= n]
        wider = sorted((c for c in options if width(c) > n), key=width)
        return tuple(fits + wider + [SINGLE])
    return tuple(options)


def order(costs, options, static, lead=None):
    """Options by cost, the unmeasured ones after them in the static order; `lead` (a bundle
    profile's recorded choice, which already applied the spread rule) first."""
    measured = sorted((c for c in options if c in costs), key=lambda c: (costs[c],
                                                                         static.index(c)))
    if lead in measured:
        measured.remove(lead)
        measured.insert(0, lead)
    return tuple(measured + [c for c in static if c not in measured])


def minimax(per_cpu, options, static):
    """The order for a CPU without a profile: by worst loss (cost / that CPU's best) over
    the CPUs that measured the option; options measured nowhere after, in the static order.
    Worst losses within MINIMAX_SLACK of each other go by the static order."""
    worst = {}
    for c in options:
        losses = [costs[c] / min(costs.values()) for costs in per_cpu if c in costs]
        if losses:
            worst[c] = max(losses)
    if not worst:
        return tuple(static)
    best = min(worst.values())
    ranked = sorted(worst, key=lambda c: (worst[c] > best * (1 + MINIMAX_SLACK), worst[c],
                                          static.index(c)))
    return tuple(ranked + [c for c in static if c not in worst])


@dataclass(frozen=True)
class Table:
    decisions: tuple       # (name, options) per decision
    rows: dict             # compiler -> tuple of Row (one per CPU)
    default: dict          # compiler ("" for any other) -> orders per decision (minimax)
    sources: tuple         # the profile files read


def build(arch, decision_options, unrolls, directory=None,
          compilers=tuple(cc for _, cc in COMPILER_SECTIONS)):
    """The table for a bundle whose decisions offer `decision_options` (name -> options,
    widest first), carrying each kernel class at `unrolls[class]`."""
    chacha_levels = decision_options.get("chacha", ())
    keccak_options = decision_options.get("kt128", (SINGLE,))
    statics = {d: static_order(d, decision_options[d]) for d in DECISIONS}
    figures = {}   # (identity, compiler) -> (file, costs, choices or {})
    native = {}    # (identity, compiler) -> costs of its -march=native profile
    for name, data in load(arch, directory):
        ident = identity(data["key"])
        cc = data["key"].get("compiler")
        if ident is None or cc not in compilers:
            continue
        if is_bundle(data):
            costs, lead = bundle_costs(data), data.get("choice", {})
        else:
            costs = native_costs(data, keccak_options, unrolls, chacha_levels,
                                 {v: targets.SINGLE_VECTOR.get(v)
                                  for v in decision_options.get("single", ()) if v != "scalar"})
            lead = {}
            native.setdefault((ident, cc), costs)
        have = figures.get((ident, cc))
        if have is None or (is_bundle(data) and not have[0].endswith("-bundle.json")):
            figures[(ident, cc)] = (name, costs, lead)
    # A bundle profile tuned before a decision existed says nothing of it: the same CPU's
    # -march=native figures do.
    for k, (name, costs, lead) in figures.items():
        for d, c in native.get(k, {}).items():
            if not costs.get(d) and c:
                costs[d] = c
    idents = sorted({i for i, _ in figures})
    rows, default = {}, {}
    for cc in compilers:
        mine = []
        for ident in idents:
            # A CPU measured with another compiler only: its figures still say more about
            # that CPU than the minimax of all of them.
            got = figures.get((ident, cc)) or next(
                (figures[(ident, o)] for o in compilers if (ident, o) in figures), None)
            name, costs, lead = got
            orders = tuple(order(costs.get(d, {}), decision_options[d], statics[d],
                                 lead.get(d)) for d in DECISIONS)
            mine.append(Row(*ident, compiler=cc if (ident, cc) in figures else
                            next(o for o in compilers if (ident, o) in figures),
                            source=name, orders=orders))
        rows[cc] = tuple(mine)
    for cc in compilers + ("",):
        per = [figures[k][1] for k in sorted(figures) if not cc or k[1] == cc]
        default[cc] = tuple(minimax([p.get(d, {}) for p in per], decision_options[d],
                                    statics[d]) for d in DECISIONS)
    return Table(tuple((d, tuple(decision_options[d])) for d in DECISIONS), rows, default,
                 tuple(sorted({f[0] for f in figures.values()})))


def per_instance_cost(arch, cls, unroll, directory=None):
    """The worst per-instance permutation cost of a class, relative to the single-state
    kernel, over the -march=native profiles: what a generate output (one target, no table)
    orders its multi-buffer kernels by. None when no profile measured it."""
    ratios = []
    for _, data in load(arch, directory):
        if is_bundle(data):
            continue
        one = _per_instance(data, SINGLE, None)
        mine = _per_instance(data, cls, unroll)
        if one and mine:
            ratios.append(mine / one)
    return max(ratios) if ratios else None


def carried_unroll(arch, cls, unrolls_allowed, directory=None):
    """The unroll a bundle carries for kernel class xN-isa: the one whose worst loss over
    every -march=native profile (each CPU and compiler) is smallest, the smaller unroll among
    those within MINIMAX_SLACK (less code); None when no profile measured the class."""
    n, isa = re.fullmatch(r"x(\d+)-(\w+)", cls).groups()
    worst = {}
    for _, data in load(arch, directory):
        if is_bundle(data):
            continue
        rows = {r["variant"]: r["median_24"] for r in _kernel_rows(data, cls)}
        if not rows:
            continue
        best = min(rows.values())
        for u in unrolls_allowed:
            v = rows.get(f"keccakp1600-x{n}-u{u}-{isa}")
            if v is not None:
                worst[u] = max(worst.get(u, 0), v / best)
            else:
                worst[u] = float("inf")
    finite = {u: w for u, w in worst.items() if w != float("inf")}
    if not finite:
        return None
    best = min(finite.values())
    return min(u for u, w in finite.items() if w <= best * (1 + MINIMAX_SLACK))


def default_label(table, compiler):
    """What the row for a CPU without a profile is, as rs_cpu_row_name() says it."""
    # The CPUs whose figures the minimax weighed: that compiler's own, or everyone's.
    cpus = {(r.vendor, r.family, r.model) for rows in table.rows.values() for r in rows
            if not compiler or r.compiler == compiler}
    if not cpus:
        return "no CPU measured: the generator's static order"
    return (f"CPU without a profile: least worst loss over {len(cpus)} measured "
            f"CPU{'s' if len(cpus) > 1 else ''}" + (f" ({compiler} figures)" if compiler else ""))


def minimax_variant(arch, compiler, kernel, metric, accept, smaller=None, directory=None):
    """The candidate of a profile entry (`kernel`: keccak_scalar, chacha) a bundle carries for
    one compiler, as one shape for every CPU: the one whose worst loss over that compiler's
    -march=native profiles (each CPU's best among the accepted candidates it measured) is
    smallest, among those every profile measured; within MINIMAX_SLACK of it, the least by
    `smaller` (less code). None without two profiles to weigh."""
    per = []
    for _, data in load(arch, directory):
        if is_bundle(data) or data.get("key", {}).get("compiler") != compiler:
            continue
        rows = {r["variant"]: r[metric] for r in data.get("candidates", {}).get(kernel, ())
                if _ok(r) and metric in r and accept(r["variant"])}
        if rows:
            per.append(rows)
    if len(per) < 2:
        return None
    common = set.intersection(*(set(r) for r in per))
    if not common:
        return None
    worst = {v: max(r[v] / min(r.values()) for r in per) for v in common}
    best = min(worst.values())
    near = sorted(v for v, w in worst.items() if w <= best * (1 + MINIMAX_SLACK))
    return min(near, key=lambda v: (smaller(v) if smaller else 0, worst[v], v))
