# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The bench programs of a sweep: every variant of a sweep linked into one program per
compiler and kernel family (bench/bench_keccak.c, bench_keccak_simd.c, bench_chacha.c, and
bench/bench_sweep_sponge.c for --sponge), built in parallel, then run one at a time, each
racing all its variants in one process (bench/timing.h, rs_race). Returns the programs'
--tsv rows (generator/benchdata.py); nothing here times anything itself.

Variants are compiled first, every compiler's together, two at a time; a variant that does
not compile is left out of its program (and said so), so one broken shape does not cost the
rest of the sweep. Then each program's registry names the variants that built.
"""

import argparse
import hashlib
import os
import sys
from concurrent.futures import ThreadPoolExecutor, as_completed

from .. import toolprobe
from . import benchdata
from ..emit import kernels, render
from ..choice import variants
from ..model import vectors
from .bench_build import OPT, REF_CC, ROOT, BuildError, Work, prefixed, xkcp_objects
from .sweep_space import default_for

JOBS = 2
TESTS = os.path.join(ROOT, "tests")
BENCH = os.path.join(ROOT, "bench")
# The message the --sponge race hashes (byte i = (i * MUL + ADD) mod 256), and its lengths.
MSG_MUL, MSG_ADD = 131, 7
SPONGE_LENGTHS = (("RS_SHA3_1K_DIGEST", 1024), ("RS_SHA3_1M_DIGEST", 1 << 20))


def say(text):
    print(f"generator bench: {text}", file=sys.stderr, flush=True)


def capabilities(ccs):
    """What each compiler can build, probed by compiling (as configure.py does)."""
    return {cc: set(toolprobe.compiler_info(cc)["caps"]) for cc in ccs}


def versions(ccs):
    return {cc: toolprobe.compiler_info(cc)["version"] for cc in ccs}


def compile_all(jobs):
    """Run (label, thunk) compile jobs two at a time with a progress line each. Returns
    {label: object path or BuildError}. On Ctrl-C the jobs not started are dropped and the
    running ones finish before the interrupt goes on, so no compiler writes into a folder
    being removed."""
    done = {}
    pool = ThreadPoolExecutor(JOBS)
    try:
        futures = {pool.submit(thunk): label for label, thunk in jobs}
        for n, f in enumerate(as_completed(futures), 1):
            label = futures[f]
            try:
                done[label] = f.result()
                say(f"[{n}/{len(jobs)}] compiled {label}")
            except BuildError as e:
                done[label] = e
                say(f"[{n}/{len(jobs)}] {label} does not build: {e}")
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return done


class Program:
    """One compiler's bench program for one sweep: its sources, objects, and how to run it."""

    def __init__(self, family, work, variants_, default):
        self.family, self.work, self.cc = family, work, work.cc
        # The default races beside the rows (it may be one of them).
        self.variants = list({v.name: v for v in variants_ + [default]}.values())
        self.default = default
        self.built = {}         # variant name -> object, for those that compiled
        self.failed = {}        # variant name -> BuildError
        self.yardstick = None   # x-N: the scalar kernel they are checked against
        self.exe = None         # the linked program, or the BuildError that stopped it


def kernel_files(env, command, target, v):
    ident = v.ident
    if isinstance(v, variants.ChachaVariant):
        files = prefixed(kernels.chacha_sources(env, v, ident + "_", command, target), ident)
        files[f"{ident}.c"] = files[f"{ident}.c"].replace('#include "chacha.h"',
                                                          f'#include "{ident}.h"')
        return files
    return prefixed(kernels.keccak_any(env, v, ident + "_", command, target), ident)


def variant_folders(env, command, target, programs):
    """{variant name: its files as `generate` writes them (unprefixed)}, for every variant a
    program built: what bench --prove proves."""
    out = {}
    for _, per_cc in programs:
        for p in per_cc.values():
            for v in (p.variants if p else ()):
                if v.name in out or v.name not in p.built:
                    continue
                if isinstance(v, variants.ChachaVariant):
                    out[v.name] = kernels.chacha_sources(env, v, "", command, target)
                else:
                    out[v.name] = kernels.keccak_any(env, v, "", command, target)
    return out


def sponge_files(env, command, target, v):
    """The sponge on `v` in a folder of its own (its files keep their names; its symbols are
    prefixed), over the permutation object the bare race already built."""
    kernel = kernels.keccak_any(env, v, v.ident + "_", command, target)
    files = {n: t for n, t in kernel.items() if n.endswith(".h")}
    files.update({n: t for n, t in kernels.keccak_sponge(env, v, v.ident + "_", command,
                                                         target).items()
                  if n in ("keccak_sponge.h", "keccak_sponge.c")})
    return files


def build(root, env, command, target, sweeps, ccs, args, xkcp_dir, xkcp_configs):
    """Write, compile and link every program. Returns [(sweep, {cc: Program or None}),
    ...] and the sponge programs {cc: exe or BuildError} (--sponge)."""
    params = (("target", target.name), ("bench", "generator bench (sweep)"))
    programs, jobs = [], []
    works = {cc: Work(root, cc) for cc in ccs}
    sponge = {}
    for sweep in sweeps:
        per_cc = {}
        for cc in ccs:
            rows = sweep.variants_of(cc)
            if not rows:
                per_cc[cc] = None
                continue
            default = default_for(sweep.family, target, cc, rows[0])
            if sweep.family == "multi":
                # Each x-N shape is compared with itself at the default unroll.
                rows = rows + [default_for("multi", target, cc, v) for v in rows]
            p = Program(sweep.family, works[cc], rows, default)
            if sweep.family == "multi":
                # The scalar kernel the x-N kernels are checked against and timed beside.
                p.yardstick = default_for("keccak", target, cc)
                p.variants.append(p.yardstick)
            per_cc[cc] = p
            for v in p.variants:
                works[cc].write(kernel_files(env, command, target, v))
                jobs.append((f"{cc} {v.name}", compile_job(p, v)))
            if sweep.family == "keccak" and args.sponge:
                for v in p.variants:
                    sub = Work(works[cc].dir, "sponge_" + v.ident)
                    sub.cc = cc
                    sub.write(sponge_files(env, command, target, v))
                    jobs.append((f"{cc} {v.name} sponge", sponge_job(sub, v)))
                sponge[cc] = p
        programs.append((sweep, per_cc))
    for cc in ccs:
        families = {s.family for s, per in programs if per.get(cc)}
        w = works[cc]
        if families & {"keccak", "multi"}:
            jobs.append((f"{cc} reference", lambda w=w: w.compile(
                os.path.join(TESTS, "ref", "keccak_ref.c"), "keccak_ref.o", "-O3", cc=REF_CC)))
        if "chacha" in families:
            jobs.append((f"{cc} ChaCha reference", lambda w=w: w.compile(
                os.path.join(TESTS, "ref", "chacha_ref.c"), "chacha_ref.o", "-O3", cc=REF_CC)))
    say(f"compiling {len(jobs)} objects, {JOBS} at a time")
    done = compile_all(jobs)
    for sweep, per_cc in programs:
        for cc, p in per_cc.items():
            if p is None:
                continue
            for v in p.variants:
                got = done[f"{cc} {v.name}"]
                (p.failed if isinstance(got, BuildError) else p.built)[v.name] = got
    # The harnesses, over the variants that built.
    harness_jobs, links = [], []
    for sweep, per_cc in programs:
        for cc, p in per_cc.items():
            if p is None:
                continue
            xkcp = None
            if sweep.family == "keccak" and xkcp_dir:
                say(f"{cc}: XKCP opt64 ({', '.join(xkcp_configs)}; cached once built)")
                xkcp = xkcp_objects(p.work, xkcp_dir, xkcp_configs)
            main = write_registry(env, command, params, p, args, xkcp)
            harness_jobs.append((f"{cc} {os.path.basename(main[0])}",
                                 lambda p=p, m=main: p.work.compile(*m)))
            links.append((p, xkcp))
    for cc, p in sponge.items():
        main = write_sponge_registry(env, command, params, p, {
            n for n in p.built if not isinstance(done[f"{cc} {n} sponge"], BuildError)})
        harness_jobs.append((f"{cc} bench_sweep_sponge.c",
                             lambda p=p, m=main: p.work.compile(*m)))
    harnesses = compile_all(harness_jobs)
    for p, xkcp in links:
        objs = list(p.built.values())
        ref = os.path.join(p.work.dir, "chacha_ref.o" if p.family == "chacha" else "keccak_ref.o")
        name = {"keccak": "bench_keccak", "multi": "bench_keccak_simd",
                "chacha": "bench_chacha"}[p.family]
        h = harnesses[f"{p.cc} {name}.c"]
        if isinstance(h, BuildError):
            p.exe = h
            continue
        peer = xkcp[1] if xkcp and xkcp[0] else []
        try:
            p.exe = p.work.link(name, [h, ref] + objs + peer,
                                ["-lcrypto"] if p.family == "chacha" else [])
        except BuildError as e:
            p.exe = e
    sponge_exes = {}
    for cc, p in sponge.items():
        h = harnesses[f"{cc} bench_sweep_sponge.c"]
        # Each sponge over its variant's permutation object; the registry names only the
        # variants whose sponge built too.
        pairs = [(done[f"{cc} {n} sponge"], o) for n, o in p.built.items()
                 if not isinstance(done[f"{cc} {n} sponge"], BuildError)]
        try:
            if isinstance(h, BuildError):
                raise h
            sponge_exes[cc] = p.work.link("bench_sweep_sponge",
                                          [h] + [o for pair in pairs for o in pair])
        except BuildError as e:
            sponge_exes[cc] = e
    return programs, sponge_exes


def compile_job(p, v):
    return lambda: p.work.compile(os.path.join(p.work.dir, f"{v.ident}.c"), f"{v.ident}.o",
                                  OPT[p.cc])


def sponge_job(sub, v):
    return lambda: sub.compile(os.path.join(sub.dir, "keccak_sponge.c"), "keccak_sponge.o",
                               OPT[sub.cc])


def harness_flags(work, extra=""):
    return f"-O2 -I{work.dir} -I{TESTS} -DRS_COMPILER=\"{work.cc}\"" + extra


def write_registry(env, command, params, p, args, xkcp):
    """The registry of the variants that built and the vectors; returns the harness's
    compile job (source, object, flags)."""
    built = [v for v in p.variants if v.name in p.built]
    regs = [argparse.Namespace(ident=v.ident, name=v.name, cpu_needs=v.cpu_needs,
                               width=getattr(v, "width", 0)) for v in built]
    what = "Bench registry: the variants of a sweep, and each compiler's default."
    files = {}
    if p.family in ("keccak", "multi"):
        files["keccak_vectors.h"] = render.render(
            env, "tests/keccak_vectors.h.j2", cases=vectors.keccak_cases(args.vectors),
            header=render.provenance(params, command, "Test vectors for Keccak-p[1600]."))
    if p.family == "keccak":
        scalar = [r for r, v in zip(regs, built) if isinstance(v, variants.KeccakVariant)]
        singles = [v for v in built if isinstance(v, variants.SimdKeccakVariant)]
        files["keccak_variants.h"] = render.render(
            env, "tests/keccak_variants.h.j2", variants=scalar,
            header=render.provenance(params, command, what))
        extra = " -DRS_WITH_XKCP" if xkcp and xkcp[0] else ""
        if singles:
            files["keccak_simd_variants.h"] = render.render(
                env, "tests/keccak_simd_variants.h.j2", yardstick=p.default, multis=[],
                singles=singles, max_instances=1,
                header=render.provenance(params, command, what))
            extra += " -DRS_WITH_SINGLES"
        p.work.write(files)
        return (os.path.join(BENCH, "bench_keccak.c"), "bench_keccak.o",
                harness_flags(p.work, extra))
    if p.family == "multi":
        multis = [v for v in built if isinstance(v, variants.SimdKeccakVariant)]
        files["keccak_simd_variants.h"] = render.render(
            env, "tests/keccak_simd_variants.h.j2", yardstick=p.yardstick, multis=multis,
            singles=[], max_instances=max([v.instances for v in multis] or [1]),
            header=render.provenance(params, command, what))
        files["keccak_simd_vectors.h"] = render.render(
            env, "tests/keccak_simd_vectors.h.j2", instances=8,
            cases=vectors.keccak_multi_cases(8),
            header=render.provenance(params, command, "Test vectors for the x-N kernels."))
        p.work.write(files)
        return (os.path.join(BENCH, "bench_keccak_simd.c"), "bench_keccak_simd.o",
                harness_flags(p.work))
    files["chacha_variants.h"] = render.render(
        env, "tests/chacha_variants.h.j2", variants=regs,
        header=render.provenance(params, command, what))
    files["chacha_vectors.h"] = render.render(
        env, "tests/chacha_vectors.h.j2", records=vectors.chacha_records(args.vectors),
        streams=vectors.chacha_stream_cases(), xors=vectors.chacha_xor_cases(),
        fnv=(vectors.FNV_OFFSET, vectors.FNV_PRIME),
        header=render.provenance(params, command, "Test vectors for ChaCha."))
    p.work.write(files)
    return (os.path.join(BENCH, "bench_chacha.c"), "bench_chacha.o", harness_flags(p.work))


def message(length):
    return bytes((i * MSG_MUL + MSG_ADD) & 0xFF for i in range(length))


def write_sponge_registry(env, command, params, p, sponge_built):
    built = [v for v in p.variants if v.name in p.built and v.name in sponge_built]
    digests = [{"macro": m, "bytes": [f"0x{b:02x}" for b in hashlib.sha3_256(message(n))
                                      .digest()]} for m, n in SPONGE_LENGTHS]
    p.work.write({"sweep_sponges.h": render.render(
        env, "tests/sweep_sponges.h.j2", variants=built, digests=digests, mul=MSG_MUL,
        add=MSG_ADD, header=render.provenance(params, command,
                                              "Bench registry: the sweep's sponges."))})
    return (os.path.join(BENCH, "bench_sweep_sponge.c"), "bench_sweep_sponge.o",
            harness_flags(p.work))


def command_of(p, args, rounds):
    turns = str(args.turns)
    if p.family == "chacha":
        short = str(max(3, args.turns // 3))
        return [p.exe, "--tsv", "-b", short, "-s", turns, "-x", short]
    if p.family == "multi":
        return [p.exe, "--tsv", "--turns", turns]
    return [p.exe, "--tsv", "--turns", turns, "-r", str(rounds)]


def run(p, command):
    """The program's rows, one progress line per variant as it arrives."""
    say(f"{p.cc}: racing {len(p.built)} {p.family} variant(s) round-robin in one process")

    def progress(_, row):
        status = row.get("status")
        if status != "ok" or row.get("variant") in p.built:
            say(f"{p.cc}: {row.get('variant')}: {status}")
    return benchdata.run(command, progress)
