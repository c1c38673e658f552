"""The tuner: time every candidate a compiler built (each verified against the vectors by the
bench program before it is timed), pick the fastest, record it as a profile.

The build compiles the candidates (in parallel, through ninja) and the bench program times
them in alternation with a fixed yardstick; this module only chooses and records.
"""

import subprocess
import sys

from . import profiles, targets, variants

# The pruned space of --quick: the unrolls and rotations that won somewhere on the reference
# machine, without lane complementing (chi is one ANDN with BMI1).
QUICK_UNROLLS = (2, 3, 4, 24)
QUICK_ROTATIONS = ("shift", "builtin", "rorx")


def candidates(target, caps, quick):
    space = variants.keccak_scalar_space(target, set(caps))
    if quick:
        # The x86asm kernel has four shapes in all: each stays (tcc's fastest is one).
        space = [v for v in space if v.isa == "x86asm" or (
                 v.unroll in QUICK_UNROLLS and not v.lane_complement
                 and v.rotate in QUICK_ROTATIONS and v.rotate != "rol")]
    return space


def run_bench(program, names):
    """Rows of the bench program for `names`, printed as they come (progress)."""
    proc = subprocess.Popen([program, *names], stdout=subprocess.PIPE, text=True)
    rows = []
    for n, line in enumerate(proc.stdout, 1):
        cols = line.rstrip("\n").split("\t")
        status = "ok" if len(cols) == 6 else cols[-1]
        print(f"  [{n}/{len(names)}] {cols[1]}: "
              + (f"{float(cols[2]):.0f} cycles" if len(cols) == 6 else status), flush=True)
        if len(cols) == 6:
            rows.append({"variant": cols[1], "cycles_24": float(cols[2]),
                         "cycles_12": float(cols[3]), "x_reference": float(cols[5])})
    if proc.wait() != 0:
        raise SystemExit(f"tune: {program} failed")
    return rows


def tune(program, compiler_id, version, cflags, target_name, caps, quick, command):
    target = targets.get(target_name)
    names = [v.name for v in candidates(target, caps, quick)]
    print(f"tune: {compiler_id} {version} ({cflags}): {len(names)} candidates"
          + (" (quick)" if quick else ""), flush=True)
    rows = run_bench(program, names)
    if not rows:
        raise SystemExit("tune: no candidate gave every vector right")
    # Portable defaults first on ties within 1%: a CPU-specific win must be a real one.
    best = min(rows, key=lambda r: r["cycles_24"])
    default = targets.default_keccak(target, compiler_id).name
    untuned = next((r for r in rows if r["variant"] == default), None)
    k = profiles.key(compiler_id, version, cflags)
    path = profiles.save(k, {"keccak_scalar": best["variant"]},
                         sorted(rows, key=lambda r: r["cycles_24"]), command)
    print(f"tune: {compiler_id}: {best['variant']} at {best['cycles_24']:.0f} cycles"
          + (f", {untuned['cycles_24'] / best['cycles_24']:.2f}x the untuned default "
             f"{default}" if untuned else "") + f" -> {path}", flush=True)
