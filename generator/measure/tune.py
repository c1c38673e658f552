# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The tuner: time every candidate a compiler built (each verified against the vectors by the
bench program before it is timed), pick the fastest per kernel, record them as a profile.

Kernels: the single-state Keccak permutation (every scalar variant and every single-state
vector kernel: which wins is a fact of the machine, not an assumption); each x-N Keccak shape
(x8 AVX-512, x4 AVX2, x4 and x2 AVX-512VL, x2 SSE2) over its unroll factors; ChaCha over
level x schedule x rotation x block sets (every level the compiler can build, AVX2 on an
AVX-512 machine too). The build compiles the candidates (in parallel, through ninja: the full
space links into build/<cc>/bench_*, the quick one into build/<cc>/quick/bench_*) and each
bench program races its candidates round-robin in one process (bench/timing.h); this module
only chooses and records. The figure that decides is a candidate's median wall-clock TSC
cycles over its turns (the best is recorded beside it), and the least median replaces the
untuned default only when it beats it by more than the race's own spread, in the race and
again in a second run of the two alone (generator/decide.py); otherwise the profile records a
tie and keeps the default.
"""

import re

from . import benchdata, decide
from ..choice import kinds, profiles, targets, variants
from ..errors import UsageError

# What decides per bench, and what it means (recorded in the profile): the figure of the
# kernel family it races (kinds.FAMILIES). The reference is a contender like the others and
# its spread over the turns the drift monitor (recorded as ref_spread_24).
METRICS = {f.name: (f.metric.column, f.metric.meaning) for f in kinds.FAMILIES}
# The reference's spread over a race (3rd quartile / 1st, minus 1) above which the tuner
# says the machine was too busy for the figures to be trusted.
DRIFT_WARNING = 0.05


def score(row, bench):
    """What decides: the candidate's median, wall clock."""
    return row[METRICS[bench][0]]


def candidates(target, caps, quick):
    """The single-state Keccak candidates, scalar and vector (bench_keccak races them all)."""
    subset = "quick" if quick else "all"
    simd = variants.keccak_simd_subset(variants.keccak_simd_space(target, set(caps)), subset)
    return variants.keccak_subset(variants.keccak_scalar_space(target, set(caps)),
                                  subset) + [v for v in simd if v.single]


def simd_candidates(target, caps, quick):
    """The x-N Keccak candidates (bench_keccak_simd; the single-state ones race in
    bench_keccak)."""
    space = variants.keccak_simd_space(target, set(caps))
    return [v for v in variants.keccak_simd_subset(space, "quick" if quick else "all") if not v.single]


def chacha_candidates(target, caps, quick):
    return variants.chacha_subset(variants.chacha_space(target, set(caps)),
                                  "quick" if quick else "all")


def kernel_of(v):
    """The profile entry a candidate competes in (keccak_scalar: the single-state permutation,
    whatever its ISA)."""
    if isinstance(v, variants.SimdKeccakVariant) and not v.single:
        return f"keccak_x{v.instances}_{v.isa}"
    if isinstance(v, variants.ChachaVariant):
        return "chacha"
    return "keccak_scalar"


def untuned(target, compiler_id, kernel):
    """The variant a kernel gets without a profile."""
    if kernel == "keccak_scalar":
        return targets.default_keccak(target, compiler_id)
    if kernel == "chacha":
        return targets.default_chacha(target, compiler_id)
    n, isa = re.fullmatch(r"keccak_x(\d+)_(\w+)", kernel).groups()
    return variants.SimdKeccakVariant(instances=int(n), isa=isa,
                                      unroll=targets.DEFAULT_SIMD_UNROLL)


def describe(row, metric):
    if not benchdata.ok(row):
        return row.get("status", "no figure")
    column = decide.spread_column(metric)
    spread = f", spread {row[column]:.1%}" if column in row else ""
    if metric == "median_24":
        return (f"{row['median_24']:.0f} cycles (best {row['best_24']:.0f}{spread}; reference "
                f"{row['ref_median_24']:.0f})")
    return (f"{row['bulk_median']:.3f} c/B (best {row['bulk_best']:.3f}{spread}; OpenSSL "
            f"{row['bulk_ossl_median']:.3f})")


def drift(rows):
    """The reference's spread over the race, when the bench reports it."""
    return max((r.get("ref_spread_24", 0) for r in rows if benchdata.ok(r)), default=0)


def measure(command, names, metric):
    """Run one bench over `names` (verified, then timed), with a progress line per candidate.
    Returns its rows for those names."""
    wanted, seen = set(names), []

    def progress(_, row):
        if row["variant"] in wanted:
            seen.append(row)
            print(f"  [{len(seen)}/{len(names)}] {row['variant']}: {describe(row, metric)}",
                  flush=True)
    benchdata.run(command + names, progress)
    return seen


def choose(rows, bench):
    """The fastest candidate among those timed (never one that got a vector wrong or was
    skipped)."""
    timed = [r for r in rows if benchdata.ok(r)]
    return min(timed, key=lambda r: score(r, bench)) if timed else None


def confirm(rerun, best, base, metric):
    """Time the winner and the untuned default again, side by side in a second run
    (`rerun(names)`: that run's rows): a winner that came out ahead only because the machine
    slowed while its default was timed does not survive it. Returns (the verdict of that run,
    or None when it did not time both; both rows of that run that were timed)."""
    names = [best["variant"], base["variant"]]
    again = {r["variant"]: r for r in rerun(names)
             if r["variant"] in names and benchdata.ok(r)}
    if len(again) < 2:
        return None, list(again.values())
    return decide.judge(again[names[0]], again[names[1]], metric), [again[n] for n in names]


def settle(command, best, base, bench):
    """settle_by() for a native bench: its second run is the bench program again over the
    two names."""
    return settle_by(best, base, METRICS[bench][0], lambda names: benchdata.run(command + names))


def settle_by(best, base, metric, rerun):
    """Whether the race's winner `best` replaces the untuned default `base`: only when it beats
    it decisively by `metric` (generator/decide.py) in the race and again in a second run of
    the two alone (`rerun(names)`: its rows; not called when the first race already says tie).
    Every tuner, native or under a wasm engine, decides through here. Returns (the row kept,
    the second run's rows, the tie's record for the profile or None)."""
    first = decide.judge(best, base, metric)
    if not first.decisive:
        return base, [], first.record("first")
    second, again = confirm(rerun, best, base, metric)
    if second is None:
        # The rule needs both races; a second run that lost one of them decides nothing.
        print(f"  confirm: {best['variant']} against {base['variant']} again: not both timed; "
              f"keeping {base['variant']}", flush=True)
        return base, again, first.record("confirmation (not both timed)")
    kept = best if second.decisive else base
    print(f"  confirm: {best['variant']} against {base['variant']} again: "
          f"{1 + second.margin:.2f}x, spread {second.spread:.1%}; keeping {kept['variant']}",
          flush=True)
    return kept, again, None if second.decisive else second.record("confirmation")


def tie_line(who, tie):
    """The tuner's line for a tie (its record, decide.Verdict.record)."""
    return (f"{who}: tie: {tie['winner']} is {1 + tie['margin']:.2f}x the untuned default "
            f"{tie['default']} in the {tie['race']} race, not more than the spread "
            f"({tie['spread']:.1%}): keeping the default")


def tune(benches, compiler_id, version, cflags, target_name, caps, quick, command, only=None):
    """benches: {"keccak": path, "simd": path or None, "chacha": path or None}. only: the
    kernels raced when not all ("chacha"); every other entry of the existing profile, and its
    sources hash, stays as it was measured."""
    target = targets.get(target_name)
    jobs = [("keccak", [benches["keccak"], "--tsv"], candidates(target, caps, quick))] \
        if not only else []
    if benches.get("simd") and not only:
        jobs.append(("keccak", [benches["simd"], "--tsv"], simd_candidates(target, caps, quick)))
    if benches.get("chacha"):
        # Quick: fewer turns (tcc's scalar ChaCha takes 15-40 cycles a byte).
        jobs.append(("chacha", [benches["chacha"], "--tsv"]
                     + (["-b", "8", "-s", "150", "-x", "40"] if quick else []),
                     chacha_candidates(target, caps, quick)))
    total = sum(len(c) for _, _, c in jobs)
    print(f"tune: {compiler_id} {version} ({cflags}): {total} candidates"
          + (" (quick)" if quick else ""), flush=True)
    choice, table, metrics, confirmations, ties = {}, {}, {}, {}, {}
    for bench, cmd, cands in jobs:
        if not cands:
            continue
        metric, meaning = METRICS[bench]
        print(f"tune: {compiler_id}: {cmd[0]}: verifying and racing {len(cands)}", flush=True)
        rows = {r["variant"]: r for r in measure(cmd, [v.name for v in cands], metric)}
        if drift(rows.values()) > DRIFT_WARNING:
            print(f"tune: {compiler_id}: warning: the plain reference's turns spread by "
                  f"{drift(rows.values()):.0%} over the race: the machine was busy, the "
                  f"figures are noisy", flush=True)
        kernels = {}
        for v in cands:
            kernels.setdefault(kernel_of(v), []).append(rows.get(
                v.name, {"variant": v.name, "status": "no row from the bench"}))
        for kernel, krows in kernels.items():
            metrics[kernel] = (f"{metric}: {meaning}; the winner has the least {metric}, and "
                               f"replaces the untuned default only when default / winner - 1 "
                               f"exceeds the larger {decide.spread_column(metric)} of the two, "
                               f"in the race and in a second run of the two alone (else a tie: "
                               f"the default stays)")
            table[kernel] = sorted(krows, key=lambda r: (not benchdata.ok(r),
                                                         benchdata.ok(r) and score(r, bench)))
            best = choose(krows, bench)
            if best is None:
                print(f"tune: {compiler_id}: {kernel}: no candidate was timed (every one "
                      f"skipped or wrong); nothing recorded for it", flush=True)
                continue
            default = untuned(target, compiler_id, kernel).name
            base = rows.get(default)
            if base and benchdata.ok(base) and best is not base:
                best, again, tie = settle(cmd, best, base, bench)
                if again:
                    confirmations[kernel] = again
                if tie:
                    ties[kernel] = tie
                    print(tie_line(f"tune: {compiler_id}: {kernel}", tie), flush=True)
            choice[kernel] = best["variant"]
            print(f"tune: {compiler_id}: {kernel}: {best['variant']}, {describe(best, metric)}"
                  + (f"; {score(base, bench) / score(best, bench):.2f}x the untuned default "
                     f"{default}"
                     if base and benchdata.ok(base) else ""), flush=True)
    k = profiles.key(compiler_id, version, cflags)
    if only:
        if not choice:
            raise UsageError("no candidate was timed; nothing recorded")
        old = profiles.load_own(k)
        if old is None:
            raise UsageError(f"--only needs this machine's profile for {compiler_id} "
                             f"({profiles.path_for(k)}) to merge into")
        k["sources"] = dict(old["key"].get("sources", {}),
                            **{f: k["sources"][f] for f in {profiles.family_of(c) for c in choice}})
        for kernel in old["choice"]:
            if kernel not in choice:
                choice[kernel] = old["choice"][kernel]
                table[kernel] = old["candidates"].get(kernel, [])
                for field, into in (("metrics", metrics), ("confirmations", confirmations),
                                    ("ties", ties)):
                    if kernel in old.get(field, {}):
                        into[kernel] = old[field][kernel]
        command = f"{old.get('measured_with', '')}; {', '.join(sorted(only))} again: {command}"
    elif "keccak_scalar" not in choice:
        raise UsageError(f"{benches['keccak']}: no scalar Keccak candidate gave every vector "
                         "right; nothing recorded")
    path = profiles.save(k, choice, table, command, metrics, confirmations, ties)
    print(f"tune: {compiler_id}: profile -> {path}", flush=True)
    return path
