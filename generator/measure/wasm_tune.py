# SPDX-License-Identifier: Apache-2.0 OR MIT
"""`python3 -m generator tune-wasm [--quick]`: the tuner of the wasm32 target, where the engine
decides what the C compiler decides natively. Its "CPU" is the engine and its version on the
host CPU: node (and the V8 inside it, which compiles the module to machine code), the host's
model and family/model, the clang that built the modules.

Three kernels, each raced round-robin in one node process (tests/wasm/race.mjs) over
`generate --target wasm32` builds made by clang (generator/wasm_bench.py builds them):

- keccak_scalar: the scalar permutation's shapes, decided by the ns per block of SHA3-256
  over 64 KiB (the sponge's block loop, what a caller of the scalar build pays);
- keccak_x2_simd128: the unroll of the x2 SIMD128 kernel (KT128's leaves in the SIMD128
  build), by the ns per keccak_p1600_x2 call (24 rounds on two states);
- chacha: level (scalar, simd128), schedule, rotation and block sets, by the ns per 64-byte
  block of the ChaCha20 keystream over 64 KiB.

Every candidate is checked before it is timed, against values computed here from hashlib and
the generator's Python reference over race.mjs's inputs (known_good()): one that gets any of
them wrong is reported as such, never timed, never chosen. A winner replaces the untuned
default (generator/targets.py) only by the rule every tuner applies (tune.settle_by,
generator/decide.py): by more than the larger spread of the two, in the race and in a second
race of the two alone; otherwise the profile records a tie and keeps the default. The
profile goes to generator/profiles/ (generator/profiles.py, engine_key); generator/
wasm_profile.py turns the committed ones into the shapes generate and bundle use.
"""

import dataclasses
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
import time

from ..choice import profiles, targets, variants
from ..model import reference
from . import tune, wasm_bench
# The race's fixed terms live with the shapes its profiles choose (generator/choice/wasm_shape.py).
from ..choice.wasm_shape import (COMPILER, ENGINE, METRICS, TARGET, X2_ISA,  # noqa: F401
                                 untuned, x2_name, x2_unroll)
from ..errors import UsageError

CFLAGS = f"{wasm_bench.OPT}; {wasm_bench.SIMD} for the SIMD128 candidates (x2 Keccak, ChaCha simd128)"

# The quick space: the short loop bodies (V8 allocates 16 registers to 25 lanes, and the
# hand race had every unroll above 4 behind), the builtin rotation only (clang emits i64.rotl
# for shift-or too), plain lanes; the x2 kernel at the unrolls the bundle may carry; ChaCha's
# SIMD128 level whole (the scalar level lost by 2x in the hand race).
QUICK_UNROLLS = (1, 2, 3, 4)
QUICK_X2_UNROLLS = (1, 2, 4)
TURNS = {"quick": 9, "full": 15}
# race.mjs's inputs, byte i of each = (i * mul + add) & 255: (length, mul, add).
MESSAGE, KEY, X2_STATES = (64 * 1024, 131, 7), (64, 17, 1), (400, 29, 3)


@dataclasses.dataclass(frozen=True)
class Candidate:
    name: str
    gen_args: tuple     # `generate --target wasm32` arguments
    simd: bool          # built with -msimd128


def keccak_candidate(v):
    return Candidate(v.name, ("--kernels", "keccak") + tuple(wasm_bench.shape_args(v)), False)


def x2_candidate(unroll):
    scalar = targets.default_keccak(TARGET, COMPILER)
    return Candidate(x2_name(unroll), ("--kernels", "keccak", "--multi",
                                       f"x2-u{unroll}-{X2_ISA}")
                     + tuple(wasm_bench.shape_args(scalar)), True)


def chacha_candidate(v):
    return Candidate(v.name, ("--kernels", "chacha") + tuple(wasm_bench.chacha_args(v)),
                     v.isa != "scalar")


def space(kernel, quick):
    """The candidates of one kernel, the untuned default among them."""
    if kernel == "keccak_scalar":
        if quick:
            vs = [v for v in variants.keccak_scalar_space(TARGET, ())
                  if v.unroll in QUICK_UNROLLS and v.rotate == "builtin"]
        else:
            # Both lane layouts, as `bench --lanes plain,interleaved` offers on wasm32.
            vs = variants.keccak_scalar_space(
                dataclasses.replace(TARGET, lane_layouts=variants.LANE_LAYOUTS), ())
        vs.append(targets.default_keccak(TARGET, COMPILER))
        out = [keccak_candidate(v) for v in vs]
    elif kernel == "keccak_x2_simd128":
        unrolls = QUICK_X2_UNROLLS if quick else variants.KECCAK_UNROLLS
        out = [x2_candidate(u) for u in unrolls + (
            targets.DEFAULT_X2_UNROLL_TARGET[TARGET.name],)]
    else:
        vs = [variants.ChachaVariant(isa=isa, schedule=s, rotate=r, states=n)
              for isa in TARGET.chacha_isas if not (quick and isa == "scalar")
              for s in variants.chacha.SCHEDULES for r in variants.CHACHA_ISAS[isa].rotations
              for n in (variants.CHACHA_STATES if isa != "scalar" else (1,))]
        vs.append(targets.default_chacha(TARGET, COMPILER))
        out = [chacha_candidate(v) for v in vs]
    return list({c.name: c for c in out}.values())


def pattern(length, mul, add):
    return bytes((i * mul + add) & 255 for i in range(length))


def known_good():
    """What race.mjs must read back from every candidate: SHA3-256 from hashlib, Keccak-256,
    KT128, Keccak-p[1600] on two states and the ChaCha20 keystream (its SHA-256) from
    generator/reference.py (itself checked against hashlib and the RFCs), over race.mjs's
    inputs."""
    msg, key, x2 = pattern(*MESSAGE), pattern(*KEY), pattern(*X2_STATES)
    lanes = [int.from_bytes(x2[8 * i:8 * i + 8], "little") for i in range(50)]
    states = [reference.keccak_p1600(lanes[j::2]) for j in (0, 1)]
    stream = reference.chacha_keystream(reference.chacha_keysetup(key[:32], key[32:40]), 5,
                                        MESSAGE[0] // 64, 20)
    return {"sha3_256": hashlib.sha3_256(msg).hexdigest(),
            "keccak256": reference.keccak256(msg[:32]).hex(),
            "kt128": reference.kt128(msg, b"", 32).hex(),
            "keccak_p1600_x2": b"".join(states[j][i].to_bytes(8, "little")
                                        for i in range(25) for j in (0, 1)).hex(),
            "chacha20_keystream": hashlib.sha256(stream).hexdigest()}


def parse_race(text):
    """(race.mjs's engine line, its rows) from its --json output."""
    lines = [json.loads(l) for l in text.splitlines() if l.strip()]
    if not lines or "engine" not in lines[0]:
        raise UsageError("race: no engine line in its --json output")
    return lines[0], lines[1:]


def row_for(raw, candidate):
    """A profile's row: the race's figures, the flags, what was checked (not the values)."""
    row = {k: round(v, 4 if k.endswith("_spread") else 2) if isinstance(v, float) else v
           for k, v in raw.items() if k != "check"}
    row["verified"] = sorted(raw.get("check", {}))
    row["cflags"] = wasm_bench.OPT + (f" {wasm_bench.SIMD}" if candidate.simd else "")
    return row


def describe(row, metric):
    if row.get("status") != "ok":
        return row.get("status", "no figure")
    base = metric[:-len("_median")]
    return (f"{row[metric]:.1f} ns (best {row[base + '_best']:.1f}, spread "
            f"{row[base + '_spread']:.1%})")


def decide_kernel(kernel, rows, rerun):
    """(choice, sorted rows, the confirmation rows, the tie or None) of one kernel's race."""
    metric = METRICS[kernel][0]
    ok = [r for r in rows if r.get("status") == "ok"]
    default = untuned(kernel)
    base = next((r for r in ok if r["variant"] == default), None)
    if base is None:
        raise UsageError(f"{kernel}: the untuned default {default} was not timed (it got a "
                         f"known-good value wrong, or the race lost it): nothing recorded")
    best = min(ok, key=lambda r: r[metric])
    table = sorted(rows, key=lambda r: (r.get("status") != "ok", r.get(metric, 0)))
    if best is base:
        return default, table, [], None
    kept, again, tie = tune.settle_by(best, base, metric, rerun)
    return kept["variant"], table, again, tie


def run(spaces, turns, command, directory=None, clang=None, node=None):
    """Build, verify, race and decide every kernel of `spaces` (kernel -> [Candidate]); write
    the profile (under `directory`, generator/profiles/ by default). Returns its path."""
    if not (clang and node):
        clang, node = wasm_bench.tools("tune-wasm")
    version, v8 = wasm_bench.engine(node)
    cc_version = wasm_bench.clang_version(clang)
    total = sum(len(c) for c in spaces.values())
    print(f"tune-wasm: {total} candidates, {clang} {cc_version} {wasm_bench.OPT}, raced under "
          f"{ENGINE} {version} (V8 {v8}) on {wasm_bench.host_cpu()}", flush=True)
    start = time.monotonic()
    root = tempfile.mkdtemp(prefix="roundsmith-tune-wasm-")
    choice, table, metrics, confirmations, ties = {}, {}, {}, {}, {}
    try:
        expect = os.path.join(root, "known_good.json")
        with open(expect, "w") as f:
            json.dump(known_good(), f)
        flat = [c for cands in spaces.values() for c in cands]
        pairs = dict(zip((c.name for c in flat), wasm_bench.build_all(
            root, clang, [(c.name, list(c.gen_args), c.simd) for c in flat])))
        print(f"tune-wasm: built {len(pairs)} in {time.monotonic() - start:.0f} s", flush=True)
        for kernel, cands in spaces.items():
            metric, meaning, _ = METRICS[kernel]
            by_name = {c.name: c for c in cands}

            def race(names):
                line, raw = parse_race(wasm_bench.race(node, [pairs[n] for n in names], turns,
                                                       "--json", "--expect", expect))
                if (line["engine"], line["engine_version"]) != (ENGINE, version):
                    raise UsageError(f"race: ran under {line['engine']} "
                                     f"{line['engine_version']}, not {ENGINE} {version}")
                return [row_for(r, by_name[r["variant"]]) for r in raw]

            print(f"tune-wasm: {kernel}: verifying and racing {len(cands)}", flush=True)
            rows = race([c.name for c in cands])
            for i, r in enumerate(sorted(rows, key=lambda r: (r.get("status") != "ok",
                                                              r.get(metric, 0))), 1):
                print(f"  [{i}/{len(rows)}] {r['variant']}: {describe(r, metric)}", flush=True)
            won, table[kernel], again, tie = decide_kernel(kernel, rows, race)
            choice[kernel] = won
            if again:
                confirmations[kernel] = again
            if tie:
                ties[kernel] = tie
                print(tune.tie_line(f"tune-wasm: {kernel}", tie), flush=True)
            print(f"tune-wasm: {kernel}: {won}", flush=True)
            metrics[kernel] = (f"{metric}: {meaning}; the winner has the least {metric}, and "
                               f"replaces the untuned default only when default / winner - 1 "
                               f"exceeds the larger {metric[:-len('median')]}spread of the "
                               f"two, in the race and in a second race of the two alone (else "
                               f"a tie: the default stays)")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    families = sorted({METRICS[k][2] for k in spaces})
    k = profiles.engine_key(ENGINE, version, v8, COMPILER, cc_version, CFLAGS, families)
    path = profiles.save(k, choice, table, command, metrics, confirmations, ties,
                         path=profiles.path_for(k, directory))
    print(f"tune-wasm: profile -> {path} ({time.monotonic() - start:.0f} s)", flush=True)
    return path


def main(args):
    quick = args.quick
    turns = args.turns or str(TURNS["quick" if quick else "full"])
    if not turns.isdigit() or not 3 <= int(turns) <= 1000:
        raise UsageError(f"--turns takes a number from 3 to 1000, not '{turns}'")
    if args.profile_dir and not os.path.isdir(args.profile_dir):
        raise UsageError(f"--profile-dir {args.profile_dir}: no such folder")
    turns = int(turns)
    spaces = {kernel: space(kernel, quick) for kernel in METRICS}
    run(spaces, turns, args.command_line, args.profile_dir or None)
    sys.stdout.flush()
