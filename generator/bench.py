# SPDX-License-Identifier: Apache-2.0 OR MIT
"""One command for an experiment: `python3 -m generator bench [generate options] [--cc LIST]
[--rounds N]` generates the variant those options ask for, compiles it with each compiler,
checks it against the vectors and races it round-robin (tests/timing.h) against the variant
the generator gives that compiler with no options (its built-in default), the plain
reference and, where tests/peers/bench_xkcp.sh has fetched it, XKCP's opt64 kernel in each of
its shipped configurations. One row per compiler and kernel family.

The harnesses are the bench programs of the build (tests/bench_keccak.c, bench_keccak_simd.c,
bench_chacha.c), over a registry of two variants instead of a compiler's whole space; nothing
here times anything. Work files go to a temporary folder under /tmp (or --keep DIR).
"""

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from . import benchdata, cli, kernels, render, targets, variants, vectors
from .errors import UsageError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# What the build compiles kernels with (configure.py's DEFAULT_OPT).
OPT = {"gcc": "-O3 -march=native", "clang": "-O3 -march=native", "tcc": "-O2"}
# The plain reference is always gcc -O3, so every compiler's race has the same yardstick.
REF_CC = "gcc"
XKCP_DEFAULT = os.path.join(ROOT, "build", "peers", "package", "src", "libkeccak-64")
XKCP_CACHE = os.path.join(ROOT, "build", "peers", "objects")
# XKCP's opt64 configurations (its lib/low/KeccakP-1600/plain-64bits/<name>/ folders: the
# macros each sets), and the further unroll factors its unrolling macros accept.
XKCP_CONFIGS = {
    "ua": ("KeccakP1600_fullUnrolling",),
    "u6": ("KeccakP1600_unrolling 6",),
    "lcu6": ("KeccakP1600_unrolling 6", "KeccakP1600_useLaneComplementing"),
    "lcua": ("KeccakP1600_fullUnrolling", "KeccakP1600_useLaneComplementing"),
    "lcua_shld": ("KeccakP1600_fullUnrolling", "KeccakP1600_useLaneComplementing",
                  "KeccakP1600_useSHLD"),
}
XKCP_MORE = {f"{lc}u{u}": (f"KeccakP1600_unrolling {u}",)
             + (("KeccakP1600_useLaneComplementing",) if lc else ())
             for u in (2, 3, 4, 12) for lc in ("", "lc")}


# The bench's own options; `generate`'s kernel options come before them (generator/__main__.py).
OPTIONS = (
    cli.Option("--cc", "the compilers to build and race with", "comma-separated " + ", ".join(OPT),
               "gcc,clang", {"default": "gcc,clang"}),
    cli.Option("--rounds", "Keccak-p rounds timed besides 24", "24, 12 or any count 1-24",
               "24 alone", {"default": "24"}),
    cli.Option("--turns", "turns of each contender in the round-robin", "1..10000", "31",
               {"type": int, "default": 31}),
    cli.Option("--xkcp", "XKCP's opt64 sources (KeccakP-1600-opt64.c and its macros), or none "
               "to leave XKCP out", "a folder path or none",
               "where tests/peers/bench_xkcp.sh fetches them", {"default": XKCP_DEFAULT}),
    cli.Option("--xkcp-all", "also XKCP at unrolls 2, 3, 4, 12 with and without lane "
               "complementing", "", "off", {"action": "store_true"}),
    cli.Option("--vectors", "the folder with the official vector files", "a folder path",
               "../shared/vectors", {"default": vectors.default_dir()}),
    cli.Option("--keep", "build in this folder and keep it", "a folder path",
               "a temporary folder, removed", {"metavar": "DIR"}),
)


def compilers(text):
    out = list(dict.fromkeys(filter(None, text.split(","))))
    bad = [c for c in out if c not in OPT]
    if bad or not out:
        raise UsageError(f"--cc takes a comma-separated list of {', '.join(OPT)}, not '{text}'")
    missing = [c for c in out if not shutil.which(c)]
    if missing:
        raise UsageError(f"--cc: {', '.join(missing)} not installed")
    return out


def keccak_rounds(text):
    try:
        r = int(text)
    except ValueError:
        r = 0
    if not 1 <= r <= 24:
        raise UsageError(f"--rounds takes a Keccak-p round count from 1 to 24, not '{text}'")
    return r


KEEP_MARK = ".roundsmith-bench"   # a --keep folder bench made, and may write again


def keep_folder(path):
    """--keep DIR: a new or empty folder, or one an earlier bench kept; anything else holds
    the user's files, which bench must not overwrite."""
    if os.path.lexists(path) and not os.path.isdir(path):
        raise UsageError(f"--keep {path}: not a folder")
    if os.path.isdir(path) and os.listdir(path) and not os.path.exists(
            os.path.join(path, KEEP_MARK)):
        raise UsageError(f"--keep {path}: the folder holds files bench did not write; pass a "
                         "new or empty folder")
    try:
        os.makedirs(path, exist_ok=True)
        with open(os.path.join(path, KEEP_MARK), "w") as f:
            f.write("kept by python3 -m generator bench; it may write here again\n")
    except OSError as e:
        raise UsageError(f"--keep {path}: {e.strerror}") from None
    return path


class Work:
    """One compiler's build folder: sources written, objects compiled, errors kept."""

    def __init__(self, root, cc):
        self.dir = os.path.join(root, cc)
        self.cc = cc
        os.makedirs(self.dir, exist_ok=True)

    def write(self, files):
        for name, text in files.items():
            with open(os.path.join(self.dir, name), "w") as f:
                f.write(text)

    def compile(self, src, obj, flags, cc=None):
        cmd = [cc or self.cc, *flags.split(), "-c", src, "-o", os.path.join(self.dir, obj)]
        r = subprocess.run(cmd, capture_output=True, text=True, cwd=self.dir)
        if r.returncode:
            first = (r.stderr.strip().splitlines() or ["(no message)"])[0]
            raise BuildError(f"{os.path.basename(src)}: {first}")
        return os.path.join(self.dir, obj)

    def link(self, exe, objs, libs=()):
        r = subprocess.run([self.cc, "-o", os.path.join(self.dir, exe), *objs, *libs],
                           capture_output=True, text=True)
        if r.returncode:
            raise BuildError(f"link: {(r.stderr.strip().splitlines() or ['?'])[0]}")
        return os.path.join(self.dir, exe)


class BuildError(Exception):
    pass


def prefixed(files, ident):
    """A kernel's files under its registry name (<ident>.h/.c), as the testsuite names them."""
    out = {}
    for name, text in files.items():
        stem, ext = name.rsplit(".", 1)
        if name == "chacha8.h":
            continue
        if ext == "c":
            text = text.replace(f'#include "{stem}.h"', f'#include "{ident}.h"')
        out[f"{ident}.{ext}"] = text
    return out


def asked_keccak(args, target, cc_id, gen):
    a = argparse.Namespace(**vars(args))
    a.cc_id = cc_id
    if args.isa not in (None,) + variants.SCALAR_ISAS:
        return targets.check_vector(target, variants.SimdKeccakVariant(
            instances=1, isa=args.isa,
            unroll=variants.parse_unroll(args.unroll) if args.unroll else 1))
    return gen.keccak_variant(a, target)


def xkcp_objects(work, src_dir, configs):
    """XKCP's opt64 compiled by this compiler in each configuration, its symbols renamed
    xkcp_<tag>_* (objcopy) so all of them link into one bench. Returns (tags, objects)."""
    flags = OPT[work.cc]
    done, objs = [], []
    version = subprocess.run([work.cc, "-v"], capture_output=True, text=True).stderr
    sources = b"".join(open(os.path.join(src_dir, n), "rb").read()
                       for n in sorted(os.listdir(src_dir)) if not n.endswith(".o"))
    for tag, macros in configs.items():
        d = os.path.join(work.dir, f"xkcp_{tag}")
        # Built once per (sources, configuration, compiler, flags): cached beside the build.
        stamp = hashlib.sha256(sources + repr((macros, version, flags)).encode()).hexdigest()
        cached = os.path.join(XKCP_CACHE, f"{work.cc}-{tag}-{stamp[:16]}.o")
        if os.path.isdir(d):
            shutil.rmtree(d)
        shutil.copytree(src_dir, d)
        with open(os.path.join(d, "KeccakP-1600-opt64-config.h"), "w") as f:
            f.write("".join(f"#define {m}\n" for m in macros))
        obj = os.path.join(d, "opt64.o")
        if os.path.exists(cached):
            shutil.copyfile(cached, obj)
            done.append((tag, int("KeccakP1600_useLaneComplementing" in macros)))
            objs.append(obj)
            continue
        r = subprocess.run([work.cc, *flags.split(), "-w", "-I", d, "-c",
                            os.path.join(d, "KeccakP-1600-opt64.c"), "-o", obj],
                           capture_output=True, text=True)
        if r.returncode:
            continue  # a configuration this compiler cannot build (tcc and SHLD's asm)
        syms = subprocess.run(["nm", "-g", "--defined-only", obj], capture_output=True,
                              text=True).stdout.split()
        names = [s for s in syms[2::3] if s.startswith("Keccak")]
        with open(os.path.join(d, "rename"), "w") as f:
            f.write("".join(f"{n} xkcp_{tag}_{n}\n" for n in names))
        subprocess.run(["objcopy", f"--redefine-syms={os.path.join(d, 'rename')}", obj],
                       check=True)
        done.append((tag, int("KeccakP1600_useLaneComplementing" in macros)))
        objs.append(obj)
        os.makedirs(XKCP_CACHE, exist_ok=True)
        shutil.copyfile(obj, cached)
    header = ("/* XKCP opt64 configurations built for this bench: X(tag, lane complementing)."
              " */\n#define RS_XKCP_CONFIGS(X) "
              + " ".join(f"X({t}, {lc})" for t, lc in done) + "\n")
    work.write({"xkcp_configs.h": header})
    return done, objs


def keccak_race(work, env, command, target, asked, default, args, rounds, xkcp):
    """Build and run bench_keccak over the asked variant and the default (and XKCP)."""
    entries = [asked] if asked == default else [asked, default]
    idents = {v.name: ("v" if v == asked else "d") for v in entries}
    files = {}
    regs = []
    for v in entries:
        ident = idents[v.name]
        files.update(prefixed(kernels.keccak_any(env, v, ident + "_", command, target), ident))
        regs.append(argparse.Namespace(ident=ident, name=v.name, cpu_needs=v.cpu_needs))
    params = (("target", target.name), ("bench", "generator bench"))
    files["keccak_variants.h"] = render.render(
        env, "tests/keccak_variants.h.j2", variants=regs,
        header=render.provenance(params, command, "Bench registry: the asked and the default."))
    files["keccak_vectors.h"] = render.render(
        env, "tests/keccak_vectors.h.j2", cases=vectors.keccak_cases(args.vectors),
        header=render.provenance(params, command, "Test vectors for Keccak-p[1600]."))
    work.write(files)
    flags = OPT[work.cc]
    jobs = [(os.path.join(work.dir, f"{i}.c"), f"{i}.o", flags) for i in idents.values()]
    with ThreadPoolExecutor(2) as pool:
        objs = list(pool.map(lambda j: work.compile(*j), jobs))
        ref = work.compile(os.path.join(ROOT, "tests", "ref", "keccak_ref.c"), "keccak_ref.o",
                           "-O3", cc=REF_CC)
    tags, peer_objs = xkcp if xkcp else ([], [])
    harness = work.compile(os.path.join(ROOT, "tests", "bench_keccak.c"), "bench_keccak.o",
                           f"-O2 -I{work.dir} -I{os.path.join(ROOT, 'tests')} "
                           f"-DRS_COMPILER=\"{work.cc}\""
                           + (" -DRS_WITH_XKCP" if tags else ""))
    exe = work.link("bench_keccak", [harness, ref] + objs + peer_objs)
    rows = benchdata.run([exe, "--tsv", "--turns", str(args.turns), "-r", str(rounds)])
    return rows, {v.name: v for v in entries}


def chacha_race(work, env, command, target, asked, default, args):
    entries = [asked] if asked == default else [asked, default]
    files = {}
    regs = []
    for v, ident in zip(entries, ("v", "d")):
        files.update(prefixed(kernels.chacha_sources(env, v, ident + "_", command, target),
                              ident))
        files[f"{ident}.c"] = files[f"{ident}.c"].replace('#include "chacha.h"',
                                                          f'#include "{ident}.h"')
        regs.append(argparse.Namespace(ident=ident, name=v.name, width=v.width,
                                       cpu_needs=v.cpu_needs))
    params = (("target", target.name), ("bench", "generator bench"))
    files["chacha_variants.h"] = render.render(
        env, "tests/chacha_variants.h.j2", variants=regs,
        header=render.provenance(params, command, "Bench registry: the asked and the default."))
    files["chacha_vectors.h"] = render.render(
        env, "tests/chacha_vectors.h.j2", records=vectors.chacha_records(args.vectors),
        streams=vectors.chacha_stream_cases(), xors=vectors.chacha_xor_cases(),
        fnv=(vectors.FNV_OFFSET, vectors.FNV_PRIME),
        header=render.provenance(params, command, "Test vectors for ChaCha."))
    work.write(files)
    flags = OPT[work.cc]
    with ThreadPoolExecutor(2) as pool:
        objs = list(pool.map(lambda i: work.compile(os.path.join(work.dir, f"{i}.c"),
                                                    f"{i}.o", flags),
                             ("v", "d")[:len(entries)]))
    ref = work.compile(os.path.join(ROOT, "tests", "ref", "chacha_ref.c"), "chacha_ref.o",
                       "-O3", cc=REF_CC)
    harness = work.compile(os.path.join(ROOT, "tests", "bench_chacha.c"), "bench_chacha.o",
                           f"-O2 -I{work.dir} -I{os.path.join(ROOT, 'tests')} "
                           f"-DRS_COMPILER=\"{work.cc}\"")
    exe = work.link("bench_chacha", [harness, ref] + objs, ["-lcrypto"])
    turns = str(max(3, args.turns // 3))
    rows = benchdata.run([exe, "--tsv", "-b", turns, "-s", str(args.turns), "-x", turns])
    return rows, {v.name: v for v in entries}


def verdict(row):
    if row is None:
        return "no row"
    if benchdata.ok(row):
        return "yes"
    return "NO: " + row.get("status", "?")


def print_keccak(cc, rows, asked, default, rounds):
    by = {r["variant"]: r for r in rows}
    a, d = by.get(asked.name), by.get(default.name)
    peers = [r for r in rows if str(r["variant"]).startswith("xkcp-") and benchdata.ok(r)]
    best = min(peers, key=lambda r: r["median_24"]) if peers else None
    ref = next((r for r in rows if benchdata.ok(r)), None)
    cols = [f"{cc:6}", f"{asked.name:42}"]
    if a and benchdata.ok(a):
        cols.append(f"{a['median_24']:7.0f}")
        if rounds != 24:
            cols.append(f"{a[f'median_{rounds}']:7.0f}")
        cols.append(f"{d['median_24'] / a['median_24']:6.3f}" if d and benchdata.ok(d)
                    else f"{'-':>6}")
        cols.append(f"{best['median_24'] / a['median_24']:6.3f} ({best['variant'][11:]})"
                    if best else "      -")
    else:
        cols += [f"{'-':>7}"] * (2 if rounds != 24 else 1) + [f"{'-':>6}", "      -"]
    cols.append(verdict(a))
    print("  ".join(cols))
    return a, d, peers, ref


def main(args, gen):
    target = targets.get(args.target)
    ccs = compilers(args.cc)
    rounds = keccak_rounds(args.rounds)
    families = gen.parse_families(args.kernels, "--kernels")
    if args.turns < 1 or args.turns > 10000:
        raise UsageError(f"--turns takes a number from 1 to 10000, not '{args.turns}'")
    if args.multi:
        raise UsageError("--multi: bench times single-state Keccak and ChaCha; race x-N "
                         "shapes with `ninja tune` or build/<cc>/bench_keccak_simd")
    if target is not targets.host():
        raise UsageError("bench runs what it builds: --target must be this machine's")
    xkcp_dir = None if args.xkcp == "none" else args.xkcp
    if xkcp_dir and not os.path.exists(os.path.join(xkcp_dir, "KeccakP-1600-opt64.c")):
        if args.xkcp != XKCP_DEFAULT:
            raise UsageError(f"--xkcp: no KeccakP-1600-opt64.c in {xkcp_dir}")
        xkcp_dir = None
    # Every asked variant first: a bad option fails before anything is printed or built.
    keccaks = {cc: asked_keccak(args, target, cc, gen) for cc in ccs} if "keccak" in families else {}
    chachas = {}
    for cc in ccs if "chacha" in families else ():
        a_ = argparse.Namespace(**vars(args))
        a_.cc_id = cc
        chachas[cc] = gen.chacha_variant(a_, target)
    env = render.environment()
    command = args.command_line
    root = keep_folder(args.keep) if args.keep else tempfile.mkdtemp(prefix="roundsmith-bench-")
    start = time.monotonic()
    configs = dict(XKCP_CONFIGS, **(XKCP_MORE if args.xkcp_all else {}))
    try:
        print(f"generator bench: {', '.join(ccs)}; median {'TSC cycles' if target.arch == 'x86_64' else 'ns'}"
              f" over {args.turns} turns of a round-robin race in one process (wall clock); "
              f"x default = default / this (above 1: faster)"
              + ("; XKCP opt64 not available (tests/peers/bench_xkcp.sh fetches it)"
                 if not xkcp_dir and args.xkcp != "none" else ""), flush=True)
        if "keccak" in families:
            head = ["cc    ", f"{'Keccak-p[1600] variant':42}", "cyc/24r"]
            head += [f"cyc/{rounds}r"] if rounds != 24 else []
            head += ["x default", "x best XKCP opt64", "verified"]
            print("  ".join(head), flush=True)
            for cc in ccs:
                work = Work(root, cc)
                asked = keccaks[cc]
                default = targets.default_keccak(target, cc)
                try:
                    xk = xkcp_objects(work, xkcp_dir, configs) if xkcp_dir else None
                    rows, _ = keccak_race(work, env, command, target, asked, default, args,
                                          rounds, xk)
                except BuildError as e:
                    print(f"{cc:6}  {asked.name:42}  does not build: {e}", flush=True)
                    continue
                a, d, peers, _ = print_keccak(cc, rows, asked, default, rounds)
                extra = [f"default {default.name} {d['median_24']:.0f}"] if (
                    d and benchdata.ok(d) and d is not a) else []
                extra += [f"{p['variant'][11:]} {p['median_24']:.0f}" for p in peers]
                ref = next((r for r in rows if benchdata.ok(r)), None)
                if ref:
                    extra.append(f"reference {ref['ref_median_24']:.0f} "
                                 f"(spread {ref['ref_spread_24']:.0%})")
                print(f"{'':8}" + ", ".join(extra), flush=True)
        if "chacha" in families:
            print(f"{'cc':6}  {'ChaCha variant':34}  {'c/B':>6}  x default  {'x OpenSSL':>9}  "
                  f"verified", flush=True)
            for cc in ccs:
                work = Work(root, cc)
                asked = chachas[cc]
                default = targets.default_chacha(target, cc)
                try:
                    rows, _ = chacha_race(work, env, command, target, asked, default, args)
                except BuildError as e:
                    print(f"{cc:6}  {asked.name:34}  does not build: {e}", flush=True)
                    continue
                by = {r["variant"]: r for r in rows}
                a, d = by.get(asked.name), by.get(default.name)
                if a and benchdata.ok(a):
                    print(f"{cc:6}  {asked.name:34}  {a['bulk_median']:6.3f}  "
                          + (f"{d['bulk_median'] / a['bulk_median']:9.3f}" if d and
                             benchdata.ok(d) else f"{'-':>9}")
                          + f"  {a['bulk_ossl_median'] / a['bulk_median']:9.3f}  yes",
                          flush=True)
                else:
                    print(f"{cc:6}  {asked.name:34}  {'-':>6}  {'-':>9}  {'-':>9}  "
                          f"{verdict(a)}", flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    print(f"generator bench: {time.monotonic() - start:.0f} s", file=sys.stderr)
