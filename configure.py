#!/usr/bin/env python3
"""Configure roundsmith: probe compilers and the CPU, then write build.ninja.

Reads top to bottom: options, compiler probes, CPU features, then the build edges. It only
configures: every algorithmic choice is the generator's, asked through generator.variants.
"""

import argparse
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, ROOT)

import configure_bundle  # noqa: E402
import configure_cross  # noqa: E402
from generator import kernels, profiles, targets, variants, vectors  # noqa: E402
from generator.errors import UsageError  # noqa: E402

KNOWN_COMPILERS = ("gcc", "clang", "tcc")
WARNINGS = {"gcc": "-Wall -Wextra -pedantic -Werror", "clang": "-Wall -Wextra -pedantic -Werror",
            "tcc": "-Wall -Werror"}
DEFAULT_OPT = {"gcc": "-O3 -march=native", "clang": "-O3 -march=native", "tcc": "-O2"}

# --- reliability checks: what is checked (families) and how it is built (flavours) ----------
#
# One row per kernel family. `space` lists the variants a compiler can build (the testsuite
# command generates them, and the registry header `registry` their harnesses walk; a row
# without a space checks the vendorable out/ folder itself); `subset` picks the ones a flavour
# asks for (generator/variants.py says what each subset keeps); `yardstick`: the compiler's
# default scalar kernel is linked too (the x-N kernels are compared with it); `support` are
# plain sources the Check harness links; `ct` is the constant-time harness; each fuzz target
# is a libFuzzer harness and the extra sources it links.
FAMILIES = (
    {"name": "keccak", "registry": "keccak_variants.h",
     "space": variants.keccak_scalar_space, "subset": variants.keccak_subset,
     "check": "tests/check_keccak.c", "support": ("tests/ref/keccak_ref.c",),
     "ct": "tests/ct/ct_keccak.c",
     "fuzz": {"keccak_vs_ref": ("tests/fuzz/keccak_vs_ref.c", ("tests/ref/keccak_ref.c",))}},
    {"name": "keccak_simd", "registry": "keccak_simd_variants.h",
     "space": variants.keccak_simd_space, "subset": variants.keccak_simd_subset,
     "yardstick": True,
     "check": "tests/check_keccak_simd.c", "support": (),
     "ct": "tests/ct/ct_keccak_simd.c",
     "fuzz": {"keccak_xN": ("tests/fuzz/keccak_xN.c", ())}},
    {"name": "chacha", "registry": "chacha_variants.h",
     "space": variants.chacha_space, "subset": variants.chacha_subset,
     "check": "tests/check_chacha.c", "support": ("tests/ref/chacha_ref.c",),
     "ct": "tests/ct/ct_chacha.c",
     "fuzz": {"chacha_keystream": ("tests/fuzz/chacha_keystream.c",
                                   ("tests/ref/chacha_ref.c",))}},
    {"name": "sponge", "registry": "sponge_vectors.h", "space": None,
     "check": "tests/check_sponge.c", "support": (),
     "ct": "tests/ct/ct_sponge.c",
     "fuzz": {"sponge_splits": ("tests/fuzz/sponge_splits.c", ())}},
)

SANITIZE = "-fsanitize=address,undefined -fno-sanitize-recover=all"
# Instrumented builds of the variant matrix, in build/<cc>-<flavour>/. `subset` (per family)
# trades coverage for build time.
FLAVOURS = {
    # clang's objects also carry libFuzzer's coverage hooks, so the fuzz targets link the
    # very objects the sanitized Check suite tested instead of compiling them again.
    "asan": {"compilers": ("gcc", "clang"),
             "subset": {"keccak": "representative", "keccak_simd": "representative",
                        "chacha": "representative"},
             "cflags": {"gcc": f"-O1 -g -fno-omit-frame-pointer {SANITIZE}",
                        "clang": f"-O1 -g -fno-omit-frame-pointer {SANITIZE} "
                                 "-fsanitize=fuzzer-no-link"},
             "ldflags": SANITIZE},
    # Built the way users build (-O2), for an instruction set valgrind 3.19 can execute: it
    # stops at the first AVX-512 instruction, and -march=native here would emit some. Its
    # debug-info reader gives up on clang 14's default DWARF 5, hence -gdwarf-4.
    "ct": {"compilers": ("gcc", "clang", "tcc"),
           "subset": {"keccak": "all", "keccak_simd": "valgrind", "chacha": "valgrind"},
           "cflags": {"gcc": "-O2 -g -march=x86-64-v3",
                      "clang": "-O2 -gdwarf-4 -march=x86-64-v3",
                      "tcc": "-O2 -g"},
           "ldflags": ""},
}
FUZZ_FLAGS = f"-O1 -g {SANITIZE} -fsanitize=fuzzer"


def fail(message):
    print(f"configure.py: error: {message}", file=sys.stderr)
    sys.exit(2)


class Parser(argparse.ArgumentParser):
    def error(self, message):
        fail(message)


def options(argv):
    p = Parser(description="Configure the roundsmith build (writes build.ninja).")
    p.add_argument("--target", default="host", help="target to generate (default: the host)")
    p.add_argument("--cc", default="cc", help="compiler for the main build (gcc, clang, tcc)")
    p.add_argument("--cflags", default=None, help="optimisation flags (default: per compiler)")
    p.add_argument("--unroll", help="Keccak rounds per loop pass: a divisor of 24")
    p.add_argument("--lane-complement", help="on or off")
    p.add_argument("--rotate", help="shift, builtin, rol or rorx")
    p.add_argument("--parity", help="theta parities: fused (into chi) or separate")
    p.add_argument("--lanes", help="Keccak lanes: plain (64-bit) or interleaved (two 32-bit "
                                   "words of even and odd bits, for 32-bit targets)")
    p.add_argument("--multi", default=None,
                   help="multi-state kernels to add to the output, comma separated "
                        "(for example x8-avx512,x4-avx2; 'none' for none; default: "
                        "x8-avx512,x4-avx2 on x86_64 when the compiler has intrinsics)")
    p.add_argument("--chacha-isa", help="widest ChaCha level: scalar, sse2, ssse3, avx2, avx512")
    p.add_argument("--chacha-schedule", help="ChaCha quarter-round order: seq, step or pair")
    p.add_argument("--chacha-rotate", help="ChaCha rotations: shift, pshufb or vprold")
    p.add_argument("--chacha-states", help="ChaCha block sets interleaved: 1 or 2")
    p.add_argument("--chacha-rounds", help="ChaCha round counts, e.g. 8,12,20")
    p.add_argument("--prefix", default="", help="prefix for every exported symbol")
    p.add_argument("--bundle", default=None, metavar="TARGET",
                   help="`ninja bundle` writes this target's bundle (x86_64, aarch64, portable) "
                        "with --prefix into build/bundle/TARGET")
    p.add_argument("--amalgamate", action="store_true",
                   help="with --bundle: one roundsmith.c and one roundsmith.h")
    p.add_argument("--tune", nargs="?", const="full", choices=("full", "quick"),
                   help="configure, run `ninja tune` (or `ninja tune-quick` with --tune quick), "
                        "then configure again with the profiles it wrote")
    p.add_argument("--no-profile", action="store_true",
                   help="ignore tuned profiles in generator/profiles/")
    p.add_argument("--out", default=None, help="output folder (default: build/out/<target>)")
    p.add_argument("--test-cc", default=",".join(KNOWN_COMPILERS),
                   help="compilers for the test matrix; missing ones are skipped")
    p.add_argument("--cross", default=None,
                   help="cross targets of `ninja test-cross`, comma separated, or 'none' "
                        f"(default: all of {', '.join(targets.CROSS_TARGETS)})")
    p.add_argument("--vectors", default=vectors.default_dir(),
                   help="folder with the official vector files")
    p.add_argument("--fuzz-seconds", type=int, default=60,
                   help="how long `ninja fuzz` runs each fuzz target (default 60)")
    p.add_argument("--fuzz-short-seconds", type=int, default=4,
                   help="how long `ninja test` runs each fuzz target (default 4; 0: not at all)")
    args = p.parse_args(argv)
    if args.bundle is not None and args.bundle not in targets.BUNDLES \
            and args.bundle not in targets.TARGETS:
        fail(f"--bundle: unknown target '{args.bundle}'; accepted: "
             f"{', '.join(targets.BUNDLES)} or another target of `python3 -m generator list "
             "targets`")
    if args.amalgamate and not args.bundle:
        fail("--amalgamate needs --bundle TARGET")
    if args.fuzz_seconds < 1 or args.fuzz_short_seconds < 0:
        fail("--fuzz-seconds must be at least 1, --fuzz-short-seconds at least 0")
    return args


# --- compiler probes: compile tiny files rather than guess from names ---------------------

PROBE_ID = """
#if defined(__clang__)
rs_id clang __clang_major__.__clang_minor__.__clang_patchlevel__
#elif defined(__TINYC__)
rs_id tcc __TINYC__
#elif defined(__GNUC__)
rs_id gcc __GNUC__.__GNUC_MINOR__.__GNUC_PATCHLEVEL__
#else
rs_id unknown 0
#endif
"""
PROBE_CAPS = {
    "gnu-asm-x86-64": "unsigned long long f(unsigned long long x)"
                      "{ __asm__(\"rolq $3, %0\" : \"+r\"(x)); return x; }\n",
    "asm-bmi2": "unsigned long long f(unsigned long long x)"
                "{ unsigned long long r; __asm__(\"rorxq $3, %1, %0\" : \"=r\"(r) : \"r\"(x));"
                " return r; }\n",
}
# The vector kernels switch their ISA on per function (target attribute), so the probe does
# the same, without -m flags.
PROBE_INTRIN = "#include <immintrin.h>\n__attribute__((target(\"{target}\"))) {body}\n"
PROBE_CAPS.update({
    "intrin-sse2": PROBE_INTRIN.format(
        target="sse2", body="__m128i f(__m128i a) { return _mm_slli_epi64(a, 3); }"),
    "intrin-avx2": PROBE_INTRIN.format(
        target="avx2", body="__m256i f(__m256i a) { return _mm256_slli_epi64(a, 3); }"),
    "intrin-avx512": PROBE_INTRIN.format(
        target="avx512f,avx512vl",
        body="__m512i f(__m512i a, __m256i b, __m256i *o)"
             " { *o = _mm256_rol_epi64(b, 3); return _mm512_ternarylogic_epi64(a, a, a, 0x96); }"),
    # ChaCha's levels: every one in one file under target attributes, picked at run time with
    # __builtin_cpu_supports (so the probe asks for both).
    "x86-target-attr": PROBE_INTRIN.format(
        target="avx512f,avx512vl,avx512bw",
        body="__m512i f(__m512i a) { return _mm512_rol_epi32(a, 7); }\n"
             "int g(void) { return __builtin_cpu_supports(\"avx512vl\"); }"),
})


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def compiles(cc, source, flags=()):
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "probe.c")
        with open(src, "w") as f:
            f.write(source)
        r = run([cc, *flags, "-c", src, "-o", os.path.join(tmp, "probe.o")])
        return r.returncode == 0


def probe(cc):
    """(id, version, capabilities, accepted flags) of compiler `cc`, or None if absent."""
    path = shutil.which(cc)
    if not path:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "id.c")
        with open(src, "w") as f:
            f.write(PROBE_ID)
        r = run([cc, "-E", src])
    line = next((l for l in r.stdout.splitlines() if l.startswith("rs_id")), "rs_id unknown 0")
    _, cid, version = line.split(maxsplit=2)
    version = version.replace(" ", "")
    caps = sorted(c for c, src in PROBE_CAPS.items() if compiles(cc, src))
    return {"cc": cc, "path": path, "id": cid, "version": version, "caps": caps}


def links(cc, source, flags=()):
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "probe.c")
        with open(src, "w") as f:
            f.write(source)
        return run([cc, *flags, src, "-o", os.path.join(tmp, "probe")]).returncode == 0


PROBE_FUZZER = ("#include <stddef.h>\n#include <stdint.h>\n"
                "int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)"
                "{ (void)d; (void)n; return 0; }\n")
PROBE_MAIN = "int main(void) { return 0; }\n"
PROBE_MEMCHECK = "#include <valgrind/memcheck.h>\nint main(void) { return RUNNING_ON_VALGRIND; }\n"


def cpu_features():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


# --- ninja helpers -------------------------------------------------------------------------

def esc(path):
    return path.replace("$", "$$").replace(" ", "$ ").replace(":", "$:")


def rel(path):
    return os.path.relpath(path, ROOT)


class Writer:
    def __init__(self):
        self.lines = []

    def variable(self, key, value, indent=0):
        self.lines.append("  " * indent + f"{key} = {value}")

    def build(self, outputs, rule, inputs=(), implicit=(), order_only=(), variables=()):
        line = f"build {' '.join(map(esc, outputs))}: {rule}"
        if inputs:
            line += " " + " ".join(map(esc, inputs))
        if implicit:
            line += " | " + " ".join(map(esc, implicit))
        if order_only:
            line += " || " + " ".join(map(esc, order_only))
        self.lines.append(line)
        for k, v in variables:
            self.variable(k, v, indent=1)

    def blank(self):
        self.lines.append("")


# --- the build -----------------------------------------------------------------------------

def main(argv):
    args = options(argv)
    try:
        target = targets.get(args.target)
        main_cc = probe(args.cc)
        if main_cc is None:
            raise UsageError(f"compiler '{args.cc}' is not installed; pass --cc with one of "
                             f"{', '.join(KNOWN_COMPILERS)} (apt-get install -y gcc clang tcc)")
        tuned = tuned_choices(args, target, main_cc)
        keccak = pick_keccak(args, target, main_cc, tuned)
        multis = pick_multis(args, target, main_cc, tuned)
        chacha = pick_chacha(args, target, main_cc, tuned)
        vectors.keccak_intermediate(args.vectors)  # fail now, not halfway through the build
        vectors.chacha_records(args.vectors)
    except UsageError as e:
        fail(e)
    try:
        import jinja2  # noqa: F401  (the generator renders with it at build time)
    except ImportError:
        fail("Jinja2 is missing; install it with: apt-get install -y python3-jinja2")
    if not shutil.which("pkg-config") or run(["pkg-config", "--exists", "check"]).returncode:
        fail("Check is missing; install it with: apt-get install -y check pkg-config")
    check_cflags = run(["pkg-config", "--cflags", "check"]).stdout.strip()
    check_libs = run(["pkg-config", "--libs", "check"]).stdout.strip()
    # The ChaCha bench times OpenSSL's EVP_chacha20 as a peer; without libcrypto it is left out.
    crypto_libs = (run(["pkg-config", "--libs", "libcrypto"]).stdout.strip()
                   if not run(["pkg-config", "--exists", "libcrypto"]).returncode else None)

    test_ccs = []
    for name in filter(None, args.test_cc.split(",")):
        found = probe(name)
        if found:
            test_ccs.append(found)
        else:
            print(f"configure.py: {name} not installed, left out of the test matrix")
    cpu = cpu_features()
    # out/ holds the committed bundles; the build generates its own folder under build/.
    out_dir = args.out or os.path.join("build", "out", target.name)

    w = Writer()
    gen_inputs = sorted(rel(p) for p in glob.glob(os.path.join(ROOT, "generator", "*.py"))
                        + glob.glob(os.path.join(ROOT, "templates", "**", "*.j2"),
                                    recursive=True))
    # The profiles folder too: a profile `ninja tune` adds changes its time stamp.
    configure_inputs = ["configure.py", "configure_cross.py", "build.ninja.in"] + gen_inputs + sorted(
        rel(p) for p in glob.glob(os.path.join(ROOT, "generator", "profiles", "*.json"))) + (
        ["generator/profiles"] if os.path.isdir(os.path.join(ROOT, "generator", "profiles")) else [])
    w.build(["build.ninja"], "configure", implicit=configure_inputs)
    w.blank()

    # The vendorable output folder.
    genargs = [f"--target {target.name}", f"--cc-id {main_cc['id']}",
               f"--unroll {keccak.unroll}",
               f"--lane-complement {'on' if keccak.lane_complement else 'off'}",
               f"--rotate {keccak.rotate}", f"--parity {keccak.parity}",
               f"--lanes {keccak.lanes}", f"--isa {keccak.isa}"]
    if args.prefix:
        genargs.append(f"--prefix {args.prefix}")
    genargs += [f"--multi x{m.instances}-u{m.unroll}-{m.isa}" for m in multis]
    genargs += [f"--chacha-isa {chacha.isa}", f"--chacha-schedule {chacha.schedule}",
                f"--chacha-rotate {chacha.rotate}", f"--chacha-states {chacha.states}",
                f"--chacha-rounds {','.join(map(str, chacha.rounds))}"]
    chacha_out = [os.path.join(out_dir, n) for n in kernels.CHACHA_FILES]
    out_files = [os.path.join(out_dir, n) for n in kernels.KECCAK_FILES + kernels.SPONGE_FILES]
    multi_files = [os.path.join(out_dir, f"keccak_p1600_x{m.instances}.{ext}")
                   for m in multis for ext in ("h", "c")]
    out_files += multi_files
    out_headers = [f for f in out_files if f.endswith(".h")]
    out_sources = [f for f in out_files if f.endswith(".c")]
    w.build(out_files + chacha_out, "generate", implicit=gen_inputs,
            variables=[("genargs", " ".join(genargs)), ("outdir", out_dir)])
    # Harnesses use the plain API names; with --prefix a forced include maps them.
    api_flags = f"-I{out_dir}"
    if args.prefix:
        w.build(["build/prefix_map.h"], "prefix_map", out_headers,
                implicit=["tests/prefix_map.py"], variables=[("prefix", args.prefix)])
        api_flags += " -include build/prefix_map.h"
        out_headers = out_headers + ["build/prefix_map.h"]
    w.blank()

    logs, benches = [], {"keccak": [], "sponge": []}
    bench_progs = {}  # per test compiler: its bench programs (generator/tune.py, the report)
    same = [c for c in test_ccs
            if os.path.realpath(c["path"]) == os.path.realpath(main_cc["path"])]
    if same:
        main_cc = dict(same[0], cc=main_cc["cc"], name=same[0]["cc"])
    else:
        main_cc = dict(main_cc, name=main_cc["cc"])
    peers = peer_libraries()
    own_kernels = {}  # per compiler that cannot build out/'s kernel: {out/ source: its own}
    for cc in test_ccs + ([] if same else [main_cc]):
        name = cc["cc"]
        run_matrix = any(cc is t for t in test_ccs)
        logs_cc, bench = matrix(w, cc, target, args, check_cflags, check_libs, gen_inputs,
                                run_tests=run_matrix, crypto_libs=crypto_libs)
        logs += logs_cc
        benches["keccak"] += list(bench.values())
        if run_matrix:
            bench_progs[cc["cc"]] = bench
        gen = os.path.join("build", name, "gen")
        # out/ itself, compiled by this compiler, warning-free, under every sponge test.
        opt = args.cflags if args.cflags is not None else DEFAULT_OPT.get(cc["id"], "-O2")
        objs = []
        # out/ carries the main compiler's scalar kernel: another compiler may lack what it
        # needs (a tuned profile's rorx rotation is inline asm tcc cannot assemble). Then this
        # compiler's sponge suite and bench run on the rest of out/ over its own default
        # kernel, generated beside it under the same API.
        swap = {}
        lacks = [n for n in keccak.compiler_needs() if n not in cc["caps"]]
        if lacks and name != main_cc["name"]:
            own = targets.default_keccak(target, cc["id"])
            own_dir = os.path.join("build", name, "own-kernel")
            own_files = [os.path.join(own_dir, n) for n in kernels.KECCAK_FILES]
            w.build(own_files, "generate", implicit=gen_inputs,
                    variables=[("genargs", f"--target {target.name} --cc-id {cc['id']} "
                                           f"--kernels keccak"
                                           + (f" --prefix {args.prefix}" if args.prefix else "")),
                               ("outdir", own_dir)])
            swap = {os.path.join(out_dir, "keccak_p1600.c"): own_files[1]}
            own_kernels[name] = swap
            print(f"configure.py: {name} cannot build out/'s {keccak.name} (lacks "
                  f"{', '.join(lacks)}); its out/ sponge suite runs over {own.name}")
        buildable = [swap.get(src, src) for src in out_sources
                     if src not in multi_sources_needing(multis, multi_files, cc)]
        for src in buildable:
            o = os.path.join("build", name, "out", os.path.basename(src)[:-2] + ".o")
            w.build([o], "cc", [src], order_only=out_files + list(swap.values()),
                    variables=[("cc", cc["cc"]),
                               ("cflags", f"{opt} {WARNINGS.get(cc['id'], '')}")])
            objs.append(o)
        vectors_h = os.path.join(gen, "sponge_vectors.h")
        flags = f"-O1 {api_flags} -I{gen} -Itests {check_cflags} -DRS_COMPILER='\"{name}\"'"
        if run_matrix:
            o = os.path.join("build", name, "obj", "check_sponge.o")
            w.build([o], "cc", ["tests/check_sponge.c"], order_only=out_headers + [vectors_h],
                    variables=[("cc", cc["cc"]), ("cflags", flags)])
            exe = os.path.join("build", name, "check_sponge")
            w.build([exe], "link", [o] + objs, variables=[("cc", cc["cc"]),
                                                           ("ldflags", check_libs)])
            w.build([exe + ".log"], "run_check", [exe])
            logs.append(exe + ".log")
            o = os.path.join("build", name, "obj", "bench_sponge.o")
            w.build([o], "cc", ["tests/bench_sponge.c"], order_only=out_headers,
                    variables=[("cc", cc["cc"]),
                               ("cflags", f"-O2 {api_flags} -Itests {peers['cflags']} "
                                          f"-DRS_COMPILER='\"{name}\"'")])
            exe = os.path.join("build", name, "bench_sponge")
            w.build([exe], "link", [o] + objs, variables=[("cc", cc["cc"]),
                                                           ("ldflags", peers["libs"])])
            benches["sponge"].append(exe)
            o = os.path.join("build", name, "obj", "bench_snp.o")
            w.build([o], "cc", ["tests/bench_snp.c"], order_only=out_headers,
                    variables=[("cc", cc["cc"]),
                               ("cflags", f"-O2 {api_flags} -Itests "
                                          f"-DRS_COMPILER='\"{name}\"'")])
            exe = os.path.join("build", name, "bench_snp")
            w.build([exe], "link", [o] + objs, variables=[("cc", cc["cc"])])
            benches["sponge"].append(exe)
        if name == main_cc["name"]:
            main_objs, main_gen = objs, gen
        w.blank()

    # The out/ permutation against the permutation vectors, by the main compiler.
    obj = os.path.join("build", "out-check", main_cc["name"])
    harness = os.path.join(obj, "check_out.o")
    pfx = args.prefix
    w.build([harness], "cc", ["tests/check_keccak.c"],
            order_only=out_headers + [os.path.join(main_gen, "keccak_vectors.h")],
            variables=[("cc", main_cc["cc"]),
                       ("cflags", f"-O1 {api_flags} -I{main_gen} -Itests {check_cflags} "
                                  f"-DRS_COMPILER='\"{main_cc['cc']} (out/)\"' "
                                  f"-DRS_OUT_F={pfx}keccak_f1600 -DRS_OUT_P={pfx}keccak_p1600 "
                                  f"-DRS_OUT_A={pfx}keccak_p1600_absorb -DRS_OUT_S={pfx}keccak_p1600_squeeze "
                                  f"-DRS_OUT_NAME='\"{keccak.name}\"' "
                                  f"-DRS_OUT_CPU='\"{' '.join(keccak.cpu_needs())}\"'")])
    exe = os.path.join(obj, "check_out")
    w.build([exe], "link", [harness] + main_objs, variables=[("cc", main_cc["cc"]),
                                                              ("ldflags", check_libs)])
    w.build([exe + ".log"], "run_check", [exe])
    out_logs = [exe + ".log"]
    if multis:
        # The out/ x-N kernels, checked against the out/ scalar kernel and the vectors.
        cpus = " ".join(f"-DRS_OUT_X{m.instances}_CPU='\"{' '.join(m.cpu_needs())}\"'"
                        for m in multis)
        simd_harness = os.path.join(obj, "check_out_simd.o")
        w.build([simd_harness], "cc", ["tests/check_keccak_simd.c"],
                order_only=out_files + [os.path.join(main_gen, "keccak_simd_vectors.h")],
                variables=[("cc", main_cc["cc"]),
                           ("cflags", f"-O1 -I{out_dir} -I{main_gen} -Itests {check_cflags} "
                                      f"-DRS_COMPILER='\"{main_cc['cc']} (out/)\"' "
                                      f"-DRS_OUT_PREFIX={pfx} "
                                      f"-DRS_OUT_MULTI={sum(m.instances for m in multis)} "
                                      f"{cpus}")])
        simd_exe = os.path.join(obj, "check_out_simd")
        w.build([simd_exe], "link", [simd_harness] + main_objs,
                variables=[("cc", main_cc["cc"]), ("ldflags", check_libs)])
        w.build([simd_exe + ".log"], "run_check", [simd_exe])
        out_logs.append(simd_exe + ".log")
    out_log = out_logs[0]

    # The out/ ChaCha file: compiled by the main compiler, under the ChaCha harness in out/ mode.
    chacha_o = os.path.join(obj, "chacha.o")
    main_opt = args.cflags if args.cflags is not None else DEFAULT_OPT.get(main_cc["id"], "-O2")
    w.build([chacha_o], "cc", [chacha_out[2]], order_only=chacha_out,
            variables=[("cc", main_cc["cc"]),
                       ("cflags", f"{main_opt} {WARNINGS.get(main_cc['id'], '')}")])
    chacha_runs = chacha.isa if "x86-target-attr" in main_cc["caps"] else "scalar"
    chacha_harness = os.path.join(obj, "check_chacha_out.o")
    w.build([chacha_harness], "cc", ["tests/check_chacha.c"],
            order_only=chacha_out + [os.path.join(main_gen, "chacha_vectors.h")],
            variables=[("cc", main_cc["cc"]),
                       ("cflags", f"-O1 -I{out_dir} -I{main_gen} -Itests {check_cflags} "
                                  f"-DRS_COMPILER='\"{main_cc['cc']} (out/)\"' "
                                  + (f"-DRS_OUT_PREFIX={pfx} " if pfx else "")
                                  + f"-DRS_OUT_NAME='\"{chacha.name}\"' "
                                  f"-DRS_OUT_CPU='\"{' '.join(variants.CHACHA_ISAS[chacha_runs].cpu)}\"'")])
    chacha_ref = os.path.join(obj, "chacha_ref.o")
    w.build([chacha_ref], "cc", ["tests/ref/chacha_ref.c"],
            variables=[("cc", main_cc["cc"]), ("cflags", "-O2")])
    chacha_exe = os.path.join(obj, "check_chacha_out")
    w.build([chacha_exe], "link", [chacha_harness, chacha_o, chacha_ref],
            variables=[("cc", main_cc["cc"]), ("ldflags", check_libs)])
    w.build([chacha_exe + ".log"], "run_check", [chacha_exe])
    out_logs.append(chacha_exe + ".log")

    # Lengths above 4 GiB through the out/ API (Linux: one window mapped many times): the cheap
    # cases in `ninja test`, the slow ones too in `ninja test-long`.
    long_logs = []
    if target is targets.host() and sys.platform.startswith("linux") and not args.prefix:
        long_o = os.path.join(obj, "check_long.o")
        w.build([long_o], "cc", ["tests/check_long.c"], order_only=out_headers + chacha_out,
                variables=[("cc", main_cc["cc"]),
                           ("cflags", f"-O1 {api_flags} {check_cflags}")])
        long_exe = os.path.join(obj, "check_long")
        w.build([long_exe], "link", [long_o, chacha_o] + main_objs,
                variables=[("cc", main_cc["cc"]), ("ldflags", check_libs)])
        w.build([long_exe + ".log"], "run_check", [long_exe])
        w.build([long_exe + "_full.log"], "run_check", [long_exe],
                variables=[("check_env", "RS_LONG=1")])
        out_logs.append(long_exe + ".log")
        long_logs.append(long_exe + "_full.log")

    # rsum, the command-line tool, on the out/ sources; tested end to end against openssl.
    rsum_o = os.path.join("build", "rsum.o")
    w.build([rsum_o], "cc", ["tools/rsum.c"], order_only=out_headers,
            variables=[("cc", main_cc["cc"]),
                       ("cflags", f"-O2 {api_flags} {WARNINGS.get(main_cc['id'], '')}")])
    w.build(["build/rsum"], "link", [rsum_o] + main_objs,
            variables=[("cc", main_cc["cc"]), ("ldflags", "")])
    w.build(["build/rsum_e2e.log"], "e2e", ["build/rsum"], implicit=["tests/e2e_rsum.py"])
    w.blank()

    # The committed bundles (out/): fresh, and every dispatch path under the Check suites.
    bundle_cc = next((c for c in test_ccs if c["id"] == "gcc"), None)
    bundle_logs, bundle_benches = configure_bundle.edges(
        w, bundle_cc, os.path.join("build", bundle_cc["cc"], "gen") if bundle_cc else None,
        check_cflags, check_libs, gen_inputs, WARNINGS,
        next((c["path"] for c in test_ccs if c["id"] == "clang"), shutil.which("clang")), args)
    w.blank()

    outdir = {"sources": out_sources, "files": out_files, "headers": out_headers,
              "flags": api_flags,
              "skip": lambda cc: multi_sources_needing(multis, multi_files, cc),
              "swap": lambda cc: own_kernels.get(cc["cc"], {})}
    checks = reliability(w, test_ccs, target, args, check_cflags, check_libs, gen_inputs,
                         outdir)
    # MSVC-cleanliness (syntax, clang in MSVC mode) in `ninja test`; the cross targets in
    # `ninja test-cross`, which needs cross compilers and qemu (configure_cross.py).
    clang = next((c["path"] for c in test_ccs if c["id"] == "clang"), shutil.which("clang"))
    msvc_log = configure_cross.msvc_edges(w, gen_inputs, clang)
    cross_names = None if args.cross is None else [
        n for n in args.cross.split(",") if n and n != "none"]
    for n in cross_names or ():
        if n not in targets.CROSS_TARGETS:
            fail(f"--cross: unknown cross target '{n}'; accepted: "
                 f"{', '.join(targets.CROSS_TARGETS)}, none")
    configure_cross.edges(w, gen_inputs, cross_names, msvc_log)
    w.blank()

    unit_log = os.path.join("build", "unittest.log")
    w.build([unit_log], "unittest", implicit=gen_inputs + sorted(
        rel(p) for p in glob.glob(os.path.join(ROOT, "tests", "*.py"))))
    all_logs = [unit_log] + logs + out_logs + ["build/rsum_e2e.log"] + bundle_logs + checks["test"] + (
        [msvc_log] if msvc_log else [])
    w.build(["test"], "summarize", all_logs, implicit=["tests/summarize.py"])
    if long_logs:
        w.build(["test-long"], "summarize", long_logs, implicit=["tests/summarize.py"])
    else:
        w.build(["test-long"], "unavailable",
                variables=[("why", "the above-4-GiB checks need Linux and a host build")])
    for name in ("test-sanitize", "fuzz"):
        if checks[name]:
            w.build([name], "summarize", checks[name], implicit=["tests/summarize.py"])
        else:
            w.build([name], "unavailable", variables=[("why", checks["why"][name])])
    w.build(["generated"], "describe", order_only=out_logs,
            variables=[("outdir", out_dir)])
    w.build(["check-out"], "phony", out_logs + ["build/rsum", "generated"])
    w.build(["bench-keccak"], "bench", benches["keccak"], implicit=["tests/bench_table.py"])
    w.build(["bench-sponge"], "bench_each", benches["sponge"])
    w.build(["bench-bundle"], "bench_each", bundle_benches)
    w.build(["bench"], "phony", ["bench-keccak", "bench-sponge", "bench-bundle"])
    # Tuning: time every candidate each compiler built (verified first), record the winners.
    # The quick space is built apart (build/<cc>/quick/) so that it compiles only its own
    # candidates. No timing starts before every candidate of every compiler is built: a
    # compile on the other core would disturb it.
    quick_progs = {}
    for cc in test_ccs:
        quick_progs[cc["cc"]] = matrix(w, cc, target, args, check_cflags, check_libs,
                                       gen_inputs, crypto_libs=crypto_libs, subset="quick")[1]
    everything_benched = sorted(p for cc in test_ccs for p in bench_progs[cc["cc"]].values()) + \
        benches["sponge"]
    for edge, progs in (("tune", bench_progs), ("tune-quick", quick_progs)):
        everything = sorted(p for cc in test_ccs for p in progs[cc["cc"]].values())
        stamps = []
        for cc in test_ccs:
            mine = progs[cc["cc"]]
            out = f"build/{cc['cc']}/{edge}.stamp"
            w.build([out], "tune", [mine["keccak"]], implicit=everything,
                    variables=[("ccid", cc["id"]), ("ccversion", cc["version"]),
                               ("cflags", opt_flags(args, cc)), ("target", target.name),
                               ("caps", ",".join(cc["caps"])),
                               ("tuneargs", " ".join(f"--bench-{k} {mine[k]}" for k in
                                                     ("simd", "chacha") if k in mine)
                                + (" --quick" if edge == "tune-quick" else ""))])
            stamps.append(out)
        w.build([edge], "phony", stamps)
    # The report: every bench's rows (--tsv) per compiler, then tables and plots in out/report/.
    report_tsvs = []
    for cc in test_ccs:
        progs = dict(bench_progs[cc["cc"]])
        sponge = os.path.join("build", cc["cc"], "bench_sponge")
        if sponge in benches["sponge"]:
            progs["sponge"] = sponge
        for bench, prog in sorted(progs.items()):
            tsv = os.path.join("build", "report", f"{cc['cc']}-{bench}.tsv")
            w.build([tsv], "bench_tsv", [prog], implicit=everything_benched + ["always"])
            report_tsvs.append(tsv)
    w.build([os.path.join("out", "report", "report.md")], "report", report_tsvs,
            implicit=gen_inputs, variables=[("outdir", os.path.join("out", "report")),
                                            ("python", esc(plotting_python()))])
    w.build(["report"], "phony", [os.path.join("out", "report", "report.md")])
    w.lines.append("default check-out")

    configure_command = "./configure.py " + shlex.join(argv) if argv else "./configure.py"
    with open(os.path.join(ROOT, "build.ninja.in")) as f:
        template = f.read()
    subst = {
        "@CONFIGURE_COMMAND@": configure_command,
        "@CPU_FEATURES@": " ".join(sorted(f for f in cpu if f in ("bmi1", "bmi2", "avx2",
                                                                   "avx512f", "avx512vl"))),
        "@ROOT@": esc(ROOT),
        "@PYTHON@": esc(sys.executable),
        "@VECTORS@": esc(os.path.abspath(args.vectors)),
        "@CONFIGURE_ARGS@": " ".join(shlex.quote(a) for a in argv).replace("$", "$$"),
    }
    for k, v in subst.items():
        template = template.replace(k, v)
    text = template + "\n" + "\n".join(w.lines) + "\n"
    tmp = os.path.join(ROOT, "build.ninja.tmp")
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, os.path.join(ROOT, "build.ninja"))
    print(f"configure.py: {target.name}, {main_cc['id']} {main_cc['version']}, "
          f"{keccak.name} -> {out_dir}; test matrix: "
          + (", ".join(f"{c['id']} {c['version']}" for c in test_ccs) or "none"))


def plotting_python():
    """An interpreter that has matplotlib for the report's plots: this one, or Debian's
    (python3-matplotlib installs there); without one the report has its tables only."""
    for py in dict.fromkeys((sys.executable, "/usr/bin/python3")):
        if os.path.exists(py) and not run([py, "-c", "import jinja2, matplotlib"]).returncode:
            return py
    print("configure.py: matplotlib not found; `ninja report` writes tables without plots "
          "(apt-get install -y python3-matplotlib)")
    return sys.executable


def opt_flags(args, cc):
    return args.cflags if args.cflags is not None else DEFAULT_OPT.get(cc["id"], "-O2")


def multi_sources_needing(multis, multi_files, cc):
    """The out/ multi-state sources compiler `cc` cannot build (no intrinsics: tcc). The
    sponge leaves them out for such a compiler by itself."""
    return [f for m, f in zip(multis, [f for f in multi_files if f.endswith(".c")])
            if any(need not in cc["caps"] for need in m.compiler_needs())]


def peer_libraries():
    """OpenSSL's libcrypto and libgcrypt, when installed, for the benches' side-by-side."""
    cflags, libs = [], []
    for package, macro in (("libcrypto", "RS_HAVE_OPENSSL"), ("libgcrypt", "RS_HAVE_GCRYPT")):
        if run(["pkg-config", "--exists", package]).returncode == 0:
            cflags += [f"-D{macro}", run(["pkg-config", "--cflags", package]).stdout.strip()]
            libs.append(run(["pkg-config", "--libs", package]).stdout.strip())
        else:
            print(f"configure.py: {package} not found; the benches leave it out")
    return {"cflags": " ".join(filter(None, cflags)), "libs": " ".join(libs)}


def reliability(w, test_ccs, target, args, check_cflags, check_libs, gen_inputs, outdir):
    """The sanitized Check suites, the constant-time runs and the fuzz targets, for every row
    of FAMILIES built in every FLAVOURS entry whose compiler is here and can do it. `outdir`
    describes the out/ folder (the sponge row checks it). Returns the logs of `ninja test`,
    `ninja test-sanitize` and `ninja fuzz`."""
    out = {"test": [], "test-sanitize": [], "fuzz": [],
           "why": {"test-sanitize": "no compiler of the test matrix links "
                                    "-fsanitize=address,undefined (gcc or clang)",
                   "fuzz": "clang cannot link -fsanitize=fuzzer "
                           "(apt-get install -y clang libclang-rt-14-dev)"}}
    by_id = {c["id"]: c for c in reversed(test_ccs)}
    valgrind = shutil.which("valgrind")
    w.build(["always"], "phony")
    for flavour, spec in FLAVOURS.items():
        for cid in spec["compilers"]:
            cc = by_id.get(cid)
            if cc is None:
                continue
            cflags = spec["cflags"][cid]
            if target.arch != "x86_64":
                cflags = cflags.replace("-march=x86-64-v3", "")
            if flavour == "asan" and not links(cc["cc"], PROBE_MAIN, cflags.split()
                                               + spec["ldflags"].split()):
                print(f"configure.py: {cc['cc']} cannot build with {cflags}; "
                      "left out of test-sanitize")
                continue
            if flavour == "ct" and not (valgrind and links(cc["cc"], PROBE_MEMCHECK)):
                print(f"configure.py: valgrind or valgrind/memcheck.h missing; constant-time "
                      f"check left out (apt-get install -y valgrind)")
                break
            fuzzable = (flavour == "asan" and cid == "clang"
                        and links(cc["cc"], PROBE_FUZZER, FUZZ_FLAGS.split()))
            base = os.path.join("build", f"{cc['cc']}-{flavour}")
            gen, obj = os.path.join(base, "gen"), os.path.join(base, "obj")
            objs = flavour_objects(w, cc, spec, cflags, target, gen_inputs, outdir, base)
            for family in FAMILIES:
                if not objs[family["name"]]:
                    continue  # nothing of this family for this compiler (tcc: no intrinsics)
                inc = f"-I{gen} -Itests" + (f" {outdir['flags']}" if not family["space"] else "")
                harness = f"{inc} -DRS_COMPILER='\"{cc['cc']} {flavour}\"'"
                waits = [os.path.join(gen, family["registry"])] + (
                    outdir["headers"] if not family["space"] else [])

                def compile_one(src, flags):
                    o = os.path.join(obj, os.path.basename(src)[:-2] + ".o")
                    w.build([o], "cc", [src], order_only=waits,
                            variables=[("cc", cc["cc"]), ("cflags", flags)])
                    return o

                if flavour == "asan":
                    support = [compile_one(src, cflags) for src in family["support"]]
                    check_o = compile_one(family["check"], f"{cflags} {harness} {check_cflags}")
                    exe = os.path.join(base, f"check_{family['name']}")
                    w.build([exe], "link", [check_o] + support + objs[family["name"]],
                            variables=[("cc", cc["cc"]),
                                       ("ldflags", f"{spec['ldflags']} {check_libs}")])
                    # No fork per test: forking a sanitized process costs 300 times the test
                    # (2 minutes instead of 0.4 s), and the first finding aborts the run
                    # anyway (-fno-sanitize-recover), which summarize.py reports as broken.
                    w.build([exe + ".log"], "run_check", [exe],
                            variables=[("check_env", "CK_FORK=no")])
                    out["test-sanitize"].append(exe + ".log")
                    if fuzzable:
                        fuzz_targets(w, cc, family, objs[family["name"]], inc, waits, args, out)
                if flavour == "ct":
                    ct_o = compile_one(family["ct"], f"{cflags} {harness}")
                    exe = os.path.join(base, f"ct_{family['name']}")
                    w.build([exe], "link", [ct_o] + objs[family["name"]],
                            variables=[("cc", cc["cc"]), ("ldflags", spec["ldflags"])])
                    w.build([exe + ".log"], "run_ct", [exe])
                    out["test"].append(exe + ".log")
    w.blank()
    return out


def flavour_objects(w, cc, spec, cflags, target, gen_inputs, outdir, base):
    """Every family's variants generated for this compiler (one testsuite run) and compiled
    with a flavour's flags, and the out/ sources likewise. Returns {family: objects}."""
    gen, obj = os.path.join(base, "gen"), os.path.join(base, "obj")
    caps = set(cc["caps"])
    chosen, generated = {}, []
    for family in FAMILIES:
        if not family["space"]:
            continue
        space = family["subset"](family["space"](target, caps),
                                 spec["subset"].get(family["name"], "all"))
        if family.get("yardstick") and space:
            space = space + [targets.default_keccak(target, cc["id"])]
        chosen[family["name"]] = space
        generated += [os.path.join(gen, f"{v.ident}.{ext}") for v in space for ext in "ch"]
        generated.append(os.path.join(gen, family["registry"]))
    generated = sorted(set(generated)) + [
        os.path.join(gen, n) for n in ("keccak_vectors.h", "keccak_simd_vectors.h",
                                       "chacha_vectors.h", "sponge_vectors.h")]
    w.build(generated, "testsuite", implicit=gen_inputs,
            variables=[("target", target.name), ("ccid", cc["id"]),
                       ("caps", ",".join(cc["caps"])), ("outdir", gen),
                       ("subset", spec["subset"].get("keccak", "all")),
                       ("simd_subset", spec["subset"].get("keccak_simd", "all")),
                       ("chacha_subset", spec["subset"].get("chacha", "all"))])
    flags = f"{cflags} {WARNINGS.get(cc['id'], '')}"
    built, objs = set(), {}

    def compile_into(src, order_only, dest):
        o = os.path.join(dest, os.path.basename(src)[:-2] + ".o")
        if o not in built:
            w.build([o], "cc", [src], order_only=order_only,
                    variables=[("cc", cc["cc"]), ("cflags", flags)])
            built.add(o)
        return o

    for name, space in chosen.items():
        objs[name] = [compile_into(os.path.join(gen, f"{v.ident}.c"), generated, obj)
                      for v in space]
    for family in FAMILIES:
        if not family["space"]:
            objs[family["name"]] = [
                compile_into(outdir["swap"](cc).get(src, src),
                             outdir["files"] + list(outdir["swap"](cc).values()),
                             os.path.join(base, "out"))
                for src in outdir["sources"] if src not in outdir["skip"](cc)]
    return objs


def fuzz_targets(w, cc, family, objs, inc, waits, args, out):
    """Each fuzz target of a family, linked with the sanitized variant objects: a short run
    for `ninja test` and a long one (--fuzz-seconds) for `ninja fuzz`."""
    base = os.path.join("build", "fuzz")
    flags = f"{FUZZ_FLAGS} {inc} -Itests/fuzz"
    extra_flags = f"-O1 -g {SANITIZE} -fsanitize=fuzzer-no-link -Itests"
    for name, (harness, extras) in family["fuzz"].items():
        linked = []
        for src in (harness,) + tuple(extras):
            o = os.path.join(base, "obj", os.path.basename(src)[:-2] + ".o")
            if o not in linked:
                w.build([o], "cc", [src], order_only=waits,
                        variables=[("cc", cc["cc"]),
                                   ("cflags", flags if src == harness else extra_flags)])
                linked.append(o)
        exe = os.path.join(base, name)
        w.build([exe], "link", linked + objs,
                variables=[("cc", cc["cc"]), ("ldflags", FUZZ_FLAGS)])
        seeds = os.path.join("tests", "fuzz", "corpus", name)
        runs = [("fuzz", args.fuzz_seconds, ["always"])]
        if args.fuzz_short_seconds:
            runs.append(("test", args.fuzz_short_seconds, []))
        for goal, seconds, always in runs:
            log = os.path.join(base, f"{name}.{goal}.log")
            w.build([log], "run_fuzz", [exe], implicit=["tests/fuzz/run_fuzz.py"] + always,
                    variables=[("seconds", str(seconds)), ("seeds", seeds),
                               ("corpus", os.path.join(base, f"{name}.corpus")),
                               ("artifacts", os.path.join(base, f"{name}.crash-"))])
            out[goal].append(log)


def tuned_choices(args, target, cc):
    """The matching tuned profile's winner per kernel (keccak_scalar, keccak_x8_avx512, ...,
    chacha), with a warning printed for each mismatch; {} with --no-profile or on a target
    other than the host (a profile is measured on this machine)."""
    if args.no_profile or target is not targets.host():
        return {}
    choices, warnings = profiles.lookup(cc["id"], cc["version"], opt_flags(args, cc))
    for warning in warnings:
        print(f"configure.py: warning: {warning}")
    if choices:
        print(f"configure.py: {cc['cc']}: tuned profile picks "
              + ", ".join(choices[k] for k in sorted(choices)))
    return choices


def pick_keccak(args, target, cc, tuned):
    """The variant for out/: the options given, over the matching tuned profile, over the
    built-in default."""
    base = targets.default_keccak(target, cc["id"])
    if "keccak_scalar" in tuned:
        base = variants.keccak_from_name(tuned["keccak_scalar"])
    v = variants.keccak_from_options(target, base, args.unroll, args.lane_complement,
                                     args.rotate, args.parity, args.lanes)
    missing = [n for n in v.compiler_needs() if n not in cc["caps"]]
    if missing:
        raise UsageError(f"{cc['cc']} cannot build rotation '{v.rotate}' (lacks "
                         f"{', '.join(missing)}); pick another --rotate")
    return v


def pick_multis(args, target, cc, tuned):
    """The x-N kernels for out/: --multi (or the default shapes); a shape given without its
    unroll (x8-avx512, not x8-u24-avx512) takes the tuned profile's."""
    if args.multi is None:
        specs = [f"x{m.instances}-{m.isa}" for m in targets.default_multis(target, cc["caps"])]
    else:
        specs = [spec for spec in filter(None, args.multi.split(",")) if spec != "none"]
    multis = []
    for spec in specs:
        m = targets.multi_variant(spec, target)
        winner = tuned.get(f"keccak_x{m.instances}_{m.isa}")
        if winner and not re.search(r"-u\d+-", spec):
            m = variants.simd_from_name(winner)
        if m.compiler_needs()[0] not in cc["caps"]:
            raise UsageError(f"{cc['cc']} cannot build {m.name} (no {m.isa} "
                             f"intrinsics); drop it from --multi")
        multis.append(m)
    return multis


def pick_chacha(args, target, cc, tuned):
    """ChaCha for out/: the options given, over the tuned profile's winner (if this compiler
    can build it here), over the built-in default."""
    base = targets.default_chacha(target, cc["id"])
    if "chacha" in tuned:
        winner = variants.chacha_from_name(tuned["chacha"])
        if winner.isa in target.chacha_isas and all(n in cc["caps"]
                                                    for n in winner.compiler_needs()):
            base = winner
    v = variants.chacha_from_options(target, base, args.chacha_isa, args.chacha_schedule,
                                     args.chacha_rotate, args.chacha_states, args.chacha_rounds)
    missing = [n for n in v.compiler_needs() if n not in cc["caps"]]
    if missing:
        raise UsageError(f"{cc['cc']} cannot build ChaCha level '{v.isa}' (lacks "
                         f"{', '.join(missing)}); pick --chacha-isa scalar")
    return v


def matrix(w, cc, target, args, check_cflags, check_libs, gen_inputs, run_tests=True,
           crypto_libs=None, subset="all"):
    """Every variant this compiler can build (or a subset of them): generated, compiled,
    linked into one Check binary and one bench binary per family. The "quick" subset is the
    tuner's pruned space, built apart in build/<cc>/quick/ with its benches only. Returns
    (logs, {"keccak": bench, "simd": bench, "chacha": bench}), benches that exist only."""
    name = cc["cc"]
    base = os.path.join("build", name) if subset == "all" else os.path.join("build", name, subset)
    tests = run_tests and subset == "all"
    gen = os.path.join(base, "gen")
    obj = os.path.join(base, "obj")
    caps = set(cc["caps"])
    space = variants.keccak_subset(variants.keccak_scalar_space(target, caps), subset)
    simd_space = variants.keccak_simd_subset(variants.keccak_simd_space(target, caps), subset)
    sources = [os.path.join(gen, f"{v.ident}.c") for v in space]
    # The vector kernels are timed next to this compiler's default scalar kernel, which their
    # testsuite generates with them (a subset may not hold it otherwise).
    yard = targets.default_keccak(target, cc["id"])
    simd_sources = [os.path.join(gen, f"{v.ident}.c") for v in simd_space]
    if simd_space and yard not in space:
        simd_sources.append(os.path.join(gen, f"{yard.ident}.c"))
    headers = [f[:-2] + ".h" for f in sources + simd_sources]
    chacha_space = variants.chacha_subset(variants.chacha_space(target, caps), subset)
    chacha_sources = [os.path.join(gen, f"{v.ident}.c") for v in chacha_space]
    headers += [os.path.join(gen, f"{v.ident}.h") for v in chacha_space]
    generated = sources + simd_sources + chacha_sources + headers + [
        os.path.join(gen, name) for name in ("keccak_variants.h", "keccak_vectors.h",
                                             "keccak_simd_variants.h", "keccak_simd_vectors.h",
                                             "sponge_vectors.h", "chacha_variants.h",
                                             "chacha_vectors.h")]
    w.build(generated, "testsuite", implicit=gen_inputs,
            variables=[("target", target.name), ("ccid", cc["id"]),
                       ("caps", ",".join(cc["caps"])), ("outdir", gen), ("subset", subset),
                       ("simd_subset", subset), ("chacha_subset", subset)])
    opt = args.cflags if args.cflags is not None else DEFAULT_OPT.get(cc["id"], "-O2")
    kernel_flags = f"{opt} {WARNINGS.get(cc['id'], '')}"
    objs, simd_objs, chacha_objs = [], [], []
    for src in sources + simd_sources + chacha_sources:
        o = os.path.join(obj, os.path.basename(src)[:-2] + ".o")
        w.build([o], "cc", [src], order_only=generated,
                variables=[("cc", name), ("cflags", kernel_flags)])
        (objs if src in sources else simd_objs if src in simd_sources else chacha_objs).append(o)
    if not run_tests:
        return [], {}
    harness_flags = f"-O1 -I{gen} -Itests {check_cflags} -DRS_COMPILER='\"{name}\"'"
    bench_flags = f"-O2 -I{gen} -Itests -DRS_COMPILER='\"{name}\"'"
    logs, benches = [], {}

    def program(src, exe, linked, flags, ldflags):
        o = os.path.join(obj, os.path.basename(src)[:-2] + ".o")
        w.build([o], "cc", [src], order_only=generated, variables=[("cc", name),
                                                                   ("cflags", flags)])
        w.build([os.path.join(base, exe)], "link", [o] + linked,
                variables=[("cc", name), ("ldflags", ldflags)])
        return os.path.join(base, exe)

    def suite(src, linked):
        """A Check suite of the full matrix, run by `ninja test`."""
        if tests:
            exe = program(src, os.path.basename(src)[:-2], linked, harness_flags, check_libs)
            w.build([exe + ".log"], "run_check", [exe])
            logs.append(exe + ".log")

    # The yardstick is always the plain rolled kernel built by gcc -O3 when gcc exists, so
    # every compiler's figures are ratios against the same code. The Check suite tests it
    # too: the fuzz targets take it as the truth.
    ref_cc = "gcc" if shutil.which("gcc") else name
    ref_o = os.path.join(obj, "keccak_ref.o")
    w.build([ref_o], "cc", ["tests/ref/keccak_ref.c"],
            variables=[("cc", ref_cc), ("cflags", "-O3 -Wall -Wextra")])
    suite("tests/check_keccak.c", [ref_o] + objs)
    benches["keccak"] = program("tests/bench_keccak.c", "bench_keccak", [ref_o] + objs,
                                bench_flags, "")

    # ChaCha: its suite, with the plain reference (gcc -O3 again) as the second opinion, and
    # its bench against that reference and OpenSSL; bench_table.py shows its own table.
    chacha_ref_o = os.path.join(obj, "chacha_ref.o")
    w.build([chacha_ref_o], "cc", ["tests/ref/chacha_ref.c"],
            variables=[("cc", ref_cc), ("cflags", "-O3 -Wall -Wextra")])
    suite("tests/check_chacha.c", [chacha_ref_o] + chacha_objs)
    if crypto_libs is not None:
        benches["chacha"] = program("tests/bench_chacha.c", "bench_chacha",
                                    [chacha_ref_o] + chacha_objs, bench_flags, crypto_libs)
    w.blank()
    if not simd_space:
        return logs, benches

    # Vector kernels: their own suite and bench, linked with the scalar kernel they are
    # compared with (this compiler's default scalar variant).
    yard_o = os.path.join(obj, f"{yard.ident}.o")
    simd_objs = [o for o in simd_objs if o != yard_o]
    suite("tests/check_keccak_simd.c", [yard_o] + simd_objs)
    benches["simd"] = program("tests/bench_keccak_simd.c", "bench_keccak_simd",
                              [ref_o, yard_o] + simd_objs, bench_flags, "")
    w.blank()
    return logs, benches


def without_tune(argv):
    """The arguments minus --tune [full|quick], which build.ninja must not record (its
    reconfigure edge would tune again)."""
    out, skip = [], False
    for a in argv:
        if skip and a in ("full", "quick"):
            skip = False
            continue
        skip = a == "--tune"
        if not (skip or a.startswith("--tune=")):
            out.append(a)
    return out


def tune_then_configure(argv):
    args = options(argv)
    rest = without_tune(argv)
    main(rest)
    if args.tune:
        edge = "tune" if args.tune == "full" else "tune-quick"
        jobs = str(os.cpu_count() or 2)
        print(f"configure.py: ninja -j{jobs} {edge}", flush=True)
        if subprocess.run(["ninja", "-C", ROOT, f"-j{jobs}", edge]).returncode:
            fail(f"ninja {edge} failed")
        main(rest)


if __name__ == "__main__":
    tune_then_configure(sys.argv[1:])
