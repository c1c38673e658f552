# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The bundle tuner: measures, on this CPU, what the host architecture's bundle should run
for each run-time decision of its per-CPU table (generator/cpu_table.py), compiled the way a
vendoring user compiles it: the bundle's own files, -O2, no -m flags (each function carries
its target attribute).

One race program per compiler (bench/tune_bundle.c, linked against a fresh copy of the
bundle built with -DRS_TUNING_HOOKS) verifies every option with the bundle's self-test and
races the options of each decision round-robin, end to end on bytes through the API the
decision serves. The race runs twice, in two processes; an option other than the untuned
default (the order the bundle has without figures) wins a decision only when it beats the
default by more than either race's spread in both runs (generator/decide.py), otherwise the
default stays and the profile records a tie. The profile goes to
generator/profiles/<arch>-<cpu>-f<family>m<model>-<compiler>-bundle.json, the file the next
`python3 -m generator bundle` reads.
"""

import os
import platform
import shutil
import subprocess
import tempfile

from . import benchdata, decide
from ..emit import bundle
from ..choice import cpu_table, profiles, targets
from ..errors import UsageError

HARNESS = os.path.join(profiles.ROOT, "bench", "tune_bundle.c")
TESTS = os.path.join(profiles.ROOT, "tests")
DEFAULT_CFLAGS = "-O2"
COMPILERS = ("gcc", "clang")
RUNS = 2
METRIC = ("median: the option's median over the turns of a round-robin race of every option "
          "of the decision, end to end through the API it serves (single: sha3_256 over 256 KiB, "
          "cycles per byte; mbN: shake128_xN, 8 KiB in "
          "and out per lane, TSC cycles per lane per permutation; kt128: 256 KiB, cycles per "
          "byte; chacha: chacha8 keystream, 128 blocks a call, cycles per byte), the bundle "
          "compiled with {cflags} and no -m flags; a winner other than the default only by "
          "more than both options' spreads in each of the runs")


def host_bundle():
    arch = platform.machine()
    for b in targets.BUNDLES.values():
        if targets.get(b.target).arch == arch and len(b.paths) > 1:
            return b
    raise UsageError(f"no dispatching bundle for this machine's architecture ({arch})")


def build(work, cc, cflags):
    """The race program of one compiler over a fresh copy of the host bundle."""
    b = host_bundle()
    folder = os.path.join(work, f"bundle-{cc}")
    os.makedirs(folder)
    for name, text in bundle.folder(b, "", bundle.CANONICAL_COMMAND).items():
        # pq-crystals/ and the like: a bundle's folders are one level deep.
        os.makedirs(os.path.dirname(os.path.join(folder, name)), exist_ok=True)
        with open(os.path.join(folder, name), "w") as f:
            f.write(text)
    sources = sorted(os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(".c"))
    exe = os.path.join(work, f"tune_bundle-{cc}")
    cmd = [cc, *cflags.split(), "-DRS_TUNING_HOOKS", "-I", folder, "-I", TESTS, *sources,
           HARNESS, "-o", exe]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        first = (r.stderr.strip().splitlines() or ["(no message)"])[0]
        raise UsageError(f"{cc}: the bundle's race program did not build: {first}")
    return exe


def race(exe, turns):
    r = subprocess.run([exe, "--tsv", "--turns", str(turns)], capture_output=True, text=True)
    if r.returncode not in (0, 1) or not r.stdout.strip():
        raise UsageError(f"{os.path.basename(exe)} failed: "
                         f"{(r.stderr.strip().splitlines() or ['(no message)'])[0]}")
    return benchdata.parse_tsv(r.stdout)


def defaults(rows):
    """Per decision, the option the bundle takes without figures: the first of the static
    order among the options this path ran."""
    out = {}
    for d in cpu_table.DECISIONS:
        ran = [r["variant"] for r in rows if r["decision"] == d]
        if not ran:
            continue
        widest_first = tuple(reversed(ran[1:])) + (ran[0],) if d == "chacha" else \
            tuple(ran[1:]) + (ran[0],)
        out[d] = cpu_table.static_order(d, widest_first)[0]
    return out


def choose(runs, default):
    """(choice, tie or None) of one decision over the runs' rows (variant -> row)."""
    timed = [{v: r for v, r in rows.items() if r.get("status") == "ok"} for rows in runs]
    first = timed[0]
    if not first:
        return None, None
    best = min(first, key=lambda v: first[v]["median"])
    if best == default or default not in first:
        return best, None
    held = all(best in t and default in t and decide.decisive(
        t[best]["median"], t[best]["spread"], t[default]["median"], t[default]["spread"])
        for t in timed)
    if held:
        return best, None
    margins = [t[default]["median"] / t[best]["median"] - 1 for t in timed
               if best in t and default in t]
    spreads = [max(t[best]["spread"], t[default]["spread"]) for t in timed
               if best in t and default in t]
    return default, {"winner": best, "default": default,
                     "margins": [round(m, 4) for m in margins],
                     "spreads": [round(s, 4) for s in spreads]}


def tune_one(work, cc, cflags, turns, directory, command):
    exe = build(work, cc, cflags)
    print(f"tune-bundle: {cc}: built {os.path.basename(exe)} ({cflags}, no -m flags); "
          f"racing {RUNS} times", flush=True)
    runs = [race(exe, turns) for _ in range(RUNS)]
    rows = runs[0]
    base = defaults(rows)
    choice, candidates, ties, metrics = {}, {}, {}, {}
    for d in cpu_table.DECISIONS:
        per_run = [{r["variant"]: r for r in run if r["decision"] == d} for run in runs]
        if not per_run[0]:
            continue
        won, tie = choose(per_run, base.get(d))
        candidates[d] = sorted(per_run[0].values(),
                               key=lambda r: (r.get("status") != "ok", r.get("median", 0)))
        for row in candidates[d]:
            again = per_run[1].get(row["variant"]) if len(per_run) > 1 else None
            if again and again.get("status") == "ok":
                row["second_median"] = again["median"]
        metrics[d] = METRIC.format(cflags=cflags)
        if won is None:
            print(f"tune-bundle: {cc}: {d}: no option was timed", flush=True)
            continue
        choice[d] = won
        if tie:
            ties[d] = tie
        line = ", ".join(f"{r['variant']} {r['median']:.3f}" for r in candidates[d]
                         if r.get("status") == "ok")
        print(f"tune-bundle: {cc}: {d}: {won}" + (f" (tie: {tie['winner']} not ahead of the "
              f"default by more than the spread)" if tie else "") + f"  [{line}]", flush=True)
    wrong = [f"{r['decision']} {r['variant']}" for r in rows if r.get("status", "ok") != "ok"]
    k = profiles.key(cc, compiler_version(cc), cflags)
    k.update(mode="bundle", bundle=host_bundle().name,
             vendor=cpu_table.host_vendor() or cpu_table.vendor_of({"cpu": k["cpu"]}),
             path=rows[0].get("path", "") if rows else "")
    path = profiles.save(k, choice, candidates, command, metrics, ties=ties,
                         path=profile_path(k, directory))
    print(f"tune-bundle: {cc}: profile -> {path}" + (f"; WRONG: {', '.join(wrong)}"
                                                     if wrong else ""), flush=True)
    return path, wrong


def compiler_version(cc):
    """gcc's full version; clang answers -dumpversion only."""
    for flag in ("-dumpfullversion", "-dumpversion"):
        r = subprocess.run([cc, flag], capture_output=True, text=True)
        if r.returncode == 0 and r.stdout.strip():
            return r.stdout.strip()
    return "?"


def profile_path(k, directory):
    name = os.path.basename(profiles.path_for(k))[:-len(".json")] + "-bundle.json"
    return os.path.join(directory or profiles.PROFILE_DIR, name)


def main(args):
    ccs = list(dict.fromkeys(filter(None, args.cc.split(","))))
    bad = [c for c in ccs if c not in COMPILERS]
    if bad or not ccs:
        raise UsageError(f"--cc takes a comma-separated list of {', '.join(COMPILERS)}, "
                         f"not '{args.cc}'")
    missing = [c for c in ccs if not shutil.which(c)]
    if missing:
        raise UsageError(f"--cc: {', '.join(missing)} not installed")
    try:
        turns = int(args.turns)
    except ValueError:
        turns = 0
    if not 3 <= turns <= 1000:
        raise UsageError(f"--turns takes a number from 3 to 1000, not '{args.turns}'")
    directory = args.profile_dir
    if directory and not os.path.isdir(directory):
        raise UsageError(f"--profile-dir {directory}: not a folder")
    failed = False
    with tempfile.TemporaryDirectory(prefix="roundsmith-tune-bundle-") as work:
        for cc in ccs:
            _, wrong = tune_one(work, cc, args.cflags, turns, directory, args.command_line)
            failed |= bool(wrong)
    if failed:
        raise UsageError("an option got the self-test wrong; it was not timed (see above)")
