# SPDX-License-Identifier: Apache-2.0 OR MIT
"""What a `generator bench` sweep asks for: each shape option's comma-separated list, checked
item by item, and the cross product of the lists resolved per compiler into variants.

A combination that some compiler cannot have (the x86asm kernel at unroll 3, a rotation in
inline assembly tcc cannot assemble) is left out for that compiler and named once; a list
whose item survives in no combination for any compiler asks for nothing and is refused, as
is an unknown value, an empty item or a value given twice. Pure: nothing here builds or
times anything (the compilers' capabilities are passed in).
"""

import itertools
from dataclasses import dataclass

from ..model import chacha_maths as chacha
from ..choice import choose, cli_options, targets, variants
from ..errors import UsageError

# The options a sweep may list, per kernel family, in the order the table and the TSV show
# them (the command line's order).
KECCAK_OPTIONS = ("--unroll", "--lane-complement", "--rotate", "--parity", "--lanes", "--isa")
MULTI_OPTION = "--multi"
CHACHA_OPTIONS = ("--chacha-isa", "--chacha-schedule", "--chacha-rotate", "--chacha-states")
SCALAR_ONLY = ("--lane-complement", "--rotate", "--parity", "--lanes")


def dest(flag):
    return flag.lstrip("-").replace("-", "_")


def accepted(flag, target):
    """The values an option accepts on `target`, as the same tables that check them name
    them."""
    return {
        "--unroll": [str(u) for u in variants.KECCAK_UNROLLS],
        "--lane-complement": list(variants.ON_OFF),
        "--rotate": list(target.rotations),
        "--parity": list(variants.PARITIES),
        "--lanes": list(variants.LANE_LAYOUTS),
        "--isa": list(targets.single_state_isas(target)),
        "--chacha-isa": list(target.chacha_isas),
        "--chacha-schedule": list(chacha.SCHEDULES),
        "--chacha-rotate": list(dict.fromkeys(r for isa in target.chacha_isas
                                              for r in variants.CHACHA_ISAS[isa].rotations)),
        "--chacha-states": [str(s) for s in variants.CHACHA_STATES],
    }[flag]


def items(flag, text, target):
    """The values of one option's list, in the order given; one line on a bad list."""
    parts = text.split(",")
    if any(not p for p in parts):
        raise UsageError(f"{flag}: an empty item in '{text}' (a comma-separated list of "
                         "values)")
    twice = next((p for i, p in enumerate(parts) if p in parts[:i]), None)
    if twice is not None:
        raise UsageError(f"{flag}: '{twice}' given twice in '{text}'")
    if flag == MULTI_OPTION:
        for p in parts:
            targets.multi_variant(p, target)    # refuses an unknown shape, naming the accepted
        return parts
    ok = accepted(flag, target)
    bad = next((p for p in parts if p not in ok), None)
    if bad is not None:
        raise UsageError(f"{flag}: unknown value '{bad}' on target {target.name}; accepted "
                         f"(comma separated): {cli_options.words(ok)}")
    return parts


@dataclass(frozen=True)
class Combination:
    """One point of the cross product: the swept options' values (flag -> value), and every
    listed option's value (a single-valued list too: it shapes the variant)."""
    swept: tuple      # ((flag, value), ...) of the options with more than one value
    given: tuple      # ((flag, value), ...) of every option given

    @property
    def label(self):
        return " ".join(f"{f.lstrip('-')}={v}" for f, v in self.swept) or "as asked"


def combinations(lists):
    """The cross product of `lists` (flag -> values, in table order)."""
    flags = list(lists)
    swept = [f for f in flags if len(lists[f]) > 1]
    for values in itertools.product(*(lists[f] for f in flags)):
        given = tuple(zip(flags, values))
        yield Combination(tuple((f, v) for f, v in given if f in swept), given)


def keccak_for(target, cc, given, caps):
    """The single-state Keccak variant a combination asks of compiler `cc`, over its
    defaults, or UsageError saying why it does not exist for it."""
    g = dict(given)
    isa = g.get("--isa")
    if isa not in (None,) + variants.SCALAR_ISAS:
        shaped = [f for f in SCALAR_ONLY if f in g]
        if shaped:
            raise UsageError(f"{', '.join(shaped)} shape the scalar kernel, not --isa {isa}")
        v = targets.check_vector(target, variants.SimdKeccakVariant(
            instances=1, isa=isa, unroll=variants.parse_unroll(g["--unroll"])
            if "--unroll" in g else 1))
    else:
        v = choose.keccak(target, cc, tuple(g.get(f) for f in KECCAK_OPTIONS[:-1]), isa)
    return choose.buildable(v, cc, caps)


def multi_for(target, cc, given, caps):
    return choose.buildable(choose.multis(target, [dict(given)[MULTI_OPTION]])[0], cc, caps)


def chacha_for(target, cc, given, caps, rounds=None):
    g = dict(given)
    v = choose.chacha(target, cc, tuple(g.get(f) for f in CHACHA_OPTIONS) + (rounds,))
    return choose.buildable(v, cc, caps)


@dataclass
class Row:
    """One combination and the variant each compiler gets for it (None: none for that one)."""
    combo: Combination
    variants: dict    # cc -> variant or None
    why: dict         # cc -> the reason there is none


@dataclass
class Sweep:
    family: str       # keccak, multi, chacha
    options: tuple    # the flags listed, in table order
    swept: tuple      # those with more than one value
    rows: list        # Row
    dropped: list     # lines for stderr: the combinations some compiler does not get

    def variants_of(self, cc):
        """Each variant `cc` races, once (two combinations may give one variant)."""
        return list({r.variants[cc].name: r.variants[cc] for r in self.rows
                     if r.variants.get(cc)}.values())


def resolve(family, lists, ccs, make):
    """The sweep of `lists` over compilers `ccs`; `make(cc, given)` gives a variant or raises
    UsageError. Refuses (UsageError) a list value no compiler gets in any combination."""
    rows, dropped, lost = [], [], []
    for combo in combinations(lists):
        got, why = {}, {}
        for cc in ccs:
            try:
                got[cc] = make(cc, combo.given)
            except UsageError as e:
                got[cc], why[cc] = None, str(e)
        if not any(got.values()):
            reasons = list(dict.fromkeys(why.values()))
            dropped.append(f"no {family} variant for {combo.label} with any of "
                           f"{', '.join(ccs)}: {'; '.join(reasons)}")
            lost.append((dict(combo.given), "; ".join(reasons)))
            continue
        for cc in ccs:
            if got[cc] is None:
                dropped.append(f"no {family} variant for {combo.label} with {cc}: {why[cc]}")
        rows.append(Row(combo, got, why))
    for flag, values in lists.items():
        for value in values:
            if not any(dict(r.combo.given)[flag] == value for r in rows):
                rest = " ".join(f"{f} {','.join(v)}" for f, v in lists.items() if f != flag)
                why = next(w for g, w in lost if g[flag] == value)
                raise UsageError(f"{flag} {value} exists for no compiler ({', '.join(ccs)})"
                                 + (f" with {rest}" if rest else "") + f": {why}")
    swept = tuple(f for f in lists if len(lists[f]) > 1)
    return Sweep(family, tuple(lists), swept, rows, dropped)


def listed(args, flags, target):
    """flag -> values for each of `flags` the command line gave."""
    out = {}
    for flag in flags:
        value = getattr(args, dest(flag))
        if flag == MULTI_OPTION:
            value = ",".join(value) if value else None
        if value is not None:
            out[flag] = items(flag, value, target)
    return out


def check_lists(args, target, families):
    """Every list's items, checked alone (no compiler needed): a bad one is refused before
    anything else is looked at."""
    flags = ((KECCAK_OPTIONS + (MULTI_OPTION,) if "keccak" in families else ())
             + (CHACHA_OPTIONS if "chacha" in families else ()))
    listed(args, flags, target)


def sweeps(args, target, families, ccs, caps):
    """Every sweep the command line asks for: Keccak (single-state, or the x-N kernels with
    --multi) and ChaCha, each checked whole before anything is built."""
    out = []
    if "keccak" in families:
        keccak = listed(args, KECCAK_OPTIONS, target)
        multi = listed(args, (MULTI_OPTION,), target)
        if multi:
            if keccak:
                raise UsageError(f"--multi sweeps the x-N kernels, {', '.join(keccak)} the "
                                 "single-state one: sweep them in another run")
            out.append(resolve("multi", multi, ccs,
                               lambda cc, g: multi_for(target, cc, g, caps[cc])))
        else:
            out.append(resolve("keccak", keccak, ccs,
                               lambda cc, g: keccak_for(target, cc, g, caps[cc])))
    elif getattr(args, "multi", None):
        raise UsageError("--multi needs keccak among --kernels")
    if "chacha" in families:
        lists = listed(args, CHACHA_OPTIONS, target)
        out.append(resolve("chacha", lists, ccs,
                           lambda cc, g: chacha_for(target, cc, g, caps[cc],
                                                    args.chacha_rounds)))
    return out


def default_for(family, target, cc, variant=None):
    """What a row is compared with: the compiler's untuned default, never a profile's winner
    (a sweep measures the options against what a user gets without tuning)."""
    return choose.untuned(family, target, cc, variant)
