# SPDX-License-Identifier: Apache-2.0 OR MIT
"""`python3 -m generator bench --target wasm32 [shape lists]`: the wasm engine as the target.

The cross product of the lists (generator/sweep_space.py, as for a native bench), the
target's default and, for --multi, each x2 shape asked for, each generated as a `generate
--target wasm32` folder, built by clang as a reactor module (-O3; -msimd128 where the
candidate needs it) and raced round-robin in one node process (tests/wasm/race.mjs) on the
module's own memory. The "CPU" of such a figure is the engine and its version on the host
CPU: both are printed with the table.

The tuner for the engine (generator/wasm_tune.py) builds and races its candidates through
the same functions: tools(), build_all(), race().
"""

import concurrent.futures
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time

from . import sweep_space
from ..choice import targets
from ..errors import UsageError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RACE = os.path.join(ROOT, "tests", "wasm", "race.mjs")
OPT = "-O3"
SIMD = "-msimd128"
# Candidates compiled side by side: the machines are 2-core VMs, often shared.
JOBS = 2


def tools(what="bench --target wasm32"):
    """(clang, node), or UsageError naming what to install."""
    sys.path.insert(0, ROOT)
    from .. import toolprobe
    missing = toolprobe.wasm_tools()
    if missing:
        raise UsageError(f"{what}: {missing}")
    return toolprobe.wasm_clang(), toolprobe.NODE


def engine(node):
    """(node's version without the v, the V8 version inside it)."""
    r = subprocess.run([*node, "-p", "JSON.stringify([process.version, process.versions.v8])"],
                       capture_output=True, text=True)
    if r.returncode:
        raise UsageError(f"{node[0]}: {r.stderr.strip()[:300]}")
    version, v8 = json.loads(r.stdout)
    return version.lstrip("v"), v8


def clang_version(clang):
    """clang's version number (14.0.6), as its --version says it."""
    out = subprocess.run([clang, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"version (\S+)", out)
    return m.group(1) if m else out.split("\n", 1)[0].strip()


def host_cpu():
    """The host CPU as /proc/cpuinfo names it, with family and model (x86)."""
    fields = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                k, _, v = line.partition(":")
                fields.setdefault(k.strip(), v.strip())
    except OSError:
        pass
    name = fields.get("model name", platform.machine())
    if "cpu family" in fields:
        name += f" (family {fields['cpu family']} model {fields.get('model', '?')})"
    return name


def candidates(args, target, families):
    """[(label, generate arguments, SIMD128 needed)], the target's defaults first."""
    out = []
    given_multi = [s for s in (getattr(args, "multi", None) or []) for s in s.split(",")]
    for spec in given_multi:
        if not targets.is_arm_x2(spec):
            raise UsageError(f"--multi on {target.name}: x2-simd128 or x2-uU-simd128, not "
                             f"'{spec}'")
        isa, unroll = targets.arm_x2(spec, target)
        out.append((f"keccakp1600-x2-u{unroll}-{isa}",
                    ["--kernels", "keccak", "--multi", f"x2-u{unroll}-{isa}"], True))
    if "keccak" in families and not given_multi:
        lists = sweep_space.listed(args, sweep_space.KECCAK_OPTIONS, target)
        default = targets.default_keccak(target, "clang")
        seen = {default.name}
        out.append((default.name + " (default)", ["--kernels", "keccak"]
                    + shape_args(default), False))
        for combo in sweep_space.combinations(lists):
            v = sweep_space.keccak_for(target, "clang", combo.given, ())
            if v.name not in seen:
                seen.add(v.name)
                out.append((v.name, ["--kernels", "keccak"] + shape_args(v), False))
    if "chacha" in families and not given_multi:
        lists = sweep_space.listed(args, sweep_space.CHACHA_OPTIONS, target)
        default = targets.default_chacha(target, "clang")
        seen = {default.name}
        out.append((default.name + " (default)", ["--kernels", "chacha"]
                    + chacha_args(default), default.isa != "scalar"))
        for combo in sweep_space.combinations(lists):
            v = sweep_space.chacha_for(target, "clang", combo.given, ())
            if v.name not in seen:
                seen.add(v.name)
                out.append((v.name, ["--kernels", "chacha"] + chacha_args(v),
                            v.isa != "scalar"))
    return out


def shape_args(v):
    return ["--unroll", str(v.unroll), "--lane-complement", "on" if v.lane_complement else "off",
            "--rotate", v.rotate, "--parity", v.parity, "--lanes", v.lanes]


def chacha_args(v):
    return ["--chacha-isa", v.isa, "--chacha-schedule", v.schedule, "--chacha-rotate", v.rotate,
            "--chacha-states", str(v.states)]


def build(root, clang, index, label, gen_args, simd):
    folder = os.path.join(root, f"c{index}")
    r = subprocess.run([sys.executable, "-m", "generator", "generate", "--target", "wasm32",
                        *gen_args, "--out", folder], cwd=ROOT, capture_output=True, text=True)
    if r.returncode:
        raise UsageError(f"{label}: {r.stderr.strip()}")
    out = folder + ".wasm"
    srcs = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".c"))
    exports = ["-Wl,--export=keccak_p1600_x2"] if "--multi" in gen_args else []
    r = subprocess.run([clang, "--target=wasm32-wasi", OPT, *([SIMD] if simd else []),
                        "-mexec-model=reactor", *exports, f"-I{folder}", *srcs, "-o", out],
                       capture_output=True, text=True)
    if r.returncode:
        raise UsageError(f"{label}: {clang}: {r.stderr.strip()[:500]}")
    return f"{label}={out}"


def build_all(root, clang, cands):
    """Each candidate (label, generate arguments, SIMD128 needed) built under `root`, at most
    JOBS at a time: ["label=file.wasm"] in their order."""
    with concurrent.futures.ThreadPoolExecutor(JOBS) as pool:
        return list(pool.map(lambda ic: build(root, clang, ic[0], *ic[1]), enumerate(cands)))


def race(node, pairs, turns, *extra):
    """race.mjs over "label=file.wasm" pairs in one node process: its stdout."""
    r = subprocess.run([*node, RACE, "--turns", str(turns), *extra, *pairs],
                       capture_output=True, text=True)
    if r.returncode:
        raise UsageError(f"race: {r.stderr.strip()[-1500:]}")
    return r.stdout


def main(args, gen, target):
    families = gen.parse_families(args.kernels, "--kernels")
    if args.turns < 1 or args.turns > 10000:
        raise UsageError(f"--turns takes a number from 1 to 10000, not '{args.turns}'")
    if args.sponge or args.plot:
        raise UsageError(f"--sponge and --plot are for native benches; on {target.name} every "
                         "row already times SHA3-256, Keccak-256 and KT128 of its build")
    clang, node = tools()
    cands = candidates(args, target, families)
    start = time.monotonic()
    root = tempfile.mkdtemp(prefix="roundsmith-bench-wasm-")
    try:
        pairs = build_all(root, clang, cands)
        version, _ = engine(node)
        print(f"{len(pairs)} wasm32 candidates, {clang} {OPT}, raced under node {version} on "
              f"{host_cpu()}", flush=True)
        # race.mjs prints its table (or --tsv rows) per family: keccak and chacha apart.
        groups = {}
        for (label, gen_args, _), pair in zip(cands, pairs):
            groups.setdefault(gen_args[1] + ("-multi" if "--multi" in gen_args else ""),
                              []).append(pair)
        tsv = []
        for _, group in groups.items():
            out = race(node, group, args.turns, *(["--tsv"] if args.tsv else []))
            print(out.rstrip("\n"), flush=True)
            tsv.append(out)
        if args.tsv:
            with open(args.tsv, "w") as f:
                f.write("".join(tsv))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"generator bench: {time.monotonic() - start:.0f} s", file=sys.stderr)
