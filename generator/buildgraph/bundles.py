# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The bundles: the committed ones in out/ checked for freshness, compiled, run under every
Check suite with each dispatch path forced, parsed in MSVC mode and benchmarked against the
single-target build; and `ninja bundle` for the one ./configure.py --bundle asks for.
"""

import functools
import os
import shutil
import subprocess

from generator import toolprobe
from generator.emit import bundle, kernels, outfolder
from generator.choice import targets
from generator.buildgraph.flags import WARNINGS
from generator.buildgraph.ninja import ROOT

CANONICAL = os.path.join("out", "x86_64")
CHECK_XN = "tests/check_keccak_xN.c"


def vendored(w, ctx):
    """The bundles' checks, by the test matrix's gcc (with the vectors its testsuite wrote)
    and, in MSVC mode, clang."""
    cc = next((c for c in ctx.test_ccs if c["id"] == "gcc"), None)
    logs, benches = edges(w, ctx, cc)
    for log in logs:
        ctx.add(log, "test")
    for bench in benches:
        ctx.add(bench, "bench-bundle")
    w.blank()


def edges(w, ctx, cc):
    """Returns (test logs, bench programs)."""
    logs, gen_inputs, clang = [], ctx.gen_inputs, ctx.clang
    if ctx.args.bundle:
        configured(w, ctx.args, gen_inputs)
    # Freshness: `python3 -m generator check`, which fails naming the command that fixes it.
    check_log = os.path.join("build", "bundle", "check.log")
    w.build([check_log], "bundle_check", implicit=gen_inputs + _all_committed())
    logs.append(check_log)
    if targets.host().name != "x86_64" or not cc:
        return logs, []
    compiled = canonical_objects(w, cc)
    logs += forced_paths(w, ctx, cc, compiled)
    logs += portable_xn(w, ctx)
    logs += vendor_edges(w, ctx, cc, compiled)
    # Everything else end to end (tests/e2e_bundle.py): forced paths with a probe, fallback
    # under qemu-x86_64 and when compiled out, tcc, clang, prefixes (two bundles in one
    # translation unit, every symbol prefixed once), amalgamation, aarch64 under
    # qemu-aarch64, the examples.
    # The qemu half is an edge of its own, so the cross tools arriving reruns only it.
    for cls, log, tools in (("Bundle", "e2e.log", ("tcc", "clang")),
                            ("UnderQemu", "e2e_qemu.log", ("qemu-x86_64",) + toolprobe.A64_TOOLS)):
        log = os.path.join("build", "bundle", log)
        w.build([log], "e2e_module", implicit=[
            "tests/e2e_bundle.py", "generator/toolprobe.py", "tests/host_cpu.py",
            "tests/bundle_probe.c", "tests/bundle_two.c", "tests/bundle_ab.c",
            "tests/prefix_names.py", "examples/vendor_sha3.c",
            "examples/plotter_f1.c"] + gen_inputs + _all_committed(),
            variables=[("module", f"tests.e2e_bundle.{cls}")] + toolprobe.tools_here(tools))
        logs.append(log)
    # A `--prefix my_ --keep-drop-in-names` bundle linked beside a program with its own
    # shake256, sha3_256, ... (tests/e2e_peer_names.py).
    log = os.path.join("build", "bundle", "e2e_peer_names.log")
    w.build([log], "e2e_module", implicit=[
        "tests/e2e_peer_names.py", "tests/peer_names.c", "tests/prefix_names.py",
        "generator/toolprobe.py"] + gen_inputs,
        variables=[("module", "tests.e2e_peer_names")] + toolprobe.tools_here(("clang",)))
    logs.append(log)
    if clang:
        logs.append(msvc(w, clang))
    return logs, [bench_edges(w, cc, gen_inputs, clang)]


def canonical_objects(w, cc):
    """out/x86_64 as a user compiles it (portable flags, every path inside, warnings as
    errors): (its object folder, the objects, its headers)."""
    objdir = os.path.join("build", "bundle", cc["cc"])
    objs = []
    for src in _sources(CANONICAL):
        o = os.path.join(objdir, os.path.basename(src)[:-2] + ".o")
        w.build([o], "cc", [src], variables=[("cc", cc["cc"]),
                                              ("cflags", f"-O2 {WARNINGS[cc['id']]}")])
        objs.append(o)
    headers = [f for f in _all_committed() if f.startswith(CANONICAL) and f.endswith(".h")]
    return objdir, objs, headers


def forced_paths(w, ctx, cc, compiled):
    """out/x86_64 under the Check suites, each run once per dispatch path. Returns the
    logs."""
    objdir, objs, headers = compiled
    gen = ctx.compiler_dir(cc, "gen")
    chacha_ref = os.path.join(objdir, "chacha_ref.o")
    w.build([chacha_ref], "cc", ["tests/ref/chacha_ref.c"],
            variables=[("cc", cc["cc"]), ("cflags", "-O2")])
    common = f"-O1 -I{CANONICAL} -I{gen} -Itests {ctx.check_cflags}"
    label = f"-DRS_COMPILER='\"{cc['cc']} bundle\"'"
    suites = {
        "check_sponge": ("tests/check_sponge.c", "sponge_vectors.h", "", []),
        "check_keccak": ("tests/check_keccak.c", "keccak_vectors.h",
                         "-DRS_OUT_F=keccak_f1600 -DRS_OUT_P=keccak_p1600 "
                         "-DRS_OUT_A=keccak_p1600_absorb -DRS_OUT_S=keccak_p1600_squeeze -DRS_OUT_NAME='\"bundle\"' "
                         "-DRS_OUT_CPU='\"\"'", []),
        "check_chacha": ("tests/check_chacha.c", "chacha_vectors.h",
                         "-DRS_OUT_NAME='\"bundle\"' -DRS_OUT_CPU='\"\"'", [chacha_ref]),
        # The x-N permutations against the single-state one: no vectors of their own.
        "check_keccak_xN": (CHECK_XN, None, "", []),
    }
    logs = []
    for name, (src, vectors, defines, extra) in suites.items():
        o = os.path.join(objdir, name + ".o")
        w.build([o], "cc", [src],
                order_only=headers + ([os.path.join(gen, vectors)] if vectors else []),
                variables=[("cc", cc["cc"]), ("cflags", f"{common} {label} {defines}")])
        exe = os.path.join(objdir, name)
        w.build([exe], "link", [o] + objs + extra,
                variables=[("cc", cc["cc"]), ("ldflags", ctx.check_libs)])
        # Every vector with each path forced: the dispatch falls back (one message) where the
        # CPU lacks a path, so the run is still a valid check of the path it lands on.
        for path in targets.BUNDLES["x86_64"].paths:
            log = f"{exe}.{path.name}.log"
            w.build([log], "run_check", [exe],
                    variables=[("check_env", f"ROUNDSMITH_PATH={path.name}")])
            logs.append(log)
            # A single-state vector kernel runs where the CPU's row takes it: once more as a
            # CPU whose row does (ROUNDSMITH_CPU), so the kernel meets the vectors on any host
            # with the path.
            for option, ident in single_rows().items():
                if option in path.single:
                    log = f"{exe}.{path.name}-single-{option}.log"
                    w.build([log], "run_check", [exe], variables=[(
                        "check_env", f"ROUNDSMITH_PATH={path.name} ROUNDSMITH_CPU={ident}")])
                    logs.append(log)
    logs += pq_examples(w, ctx, cc, objdir, objs, headers)
    return logs


# The recipes of docs/multi-buffer.md for post-quantum libraries, each checking itself: per
# example, its sources (the first is the program) and the flags it needs. Those on
# PQ_PREFIX's bundle are for clients that define names a plain bundle exports too (SHAKE and
# SHA-3 functions, XKCP's KeccakP1600_*); the stand-ins of the clients' headers are in
# examples/stand-ins/. {folder} is the bundle's: pq-crystals' files are its own drop-ins
# (kernels.PQ_CRYSTALS), built on the plain bundle and on PQ_PREFIX's (-DRS_PQ).
STAND_INS = "examples/stand-ins"
MLKEM_FLAGS = (f"-I{STAND_INS}/mlkem-native -I{STAND_INS}/mlkem-native/fips202/native -Iexamples"
               " -DMLK_CONFIG_USE_NATIVE_BACKEND_FIPS202"
               " -DMLK_CONFIG_FIPS202_BACKEND_FILE='\"mlkem_native_roundsmith_x4.h\"'")
PQ_EXAMPLES = {
    "mlkem_native_x4": (("examples/mlkem_native_x4.c",), f"-I{STAND_INS}/mlkem-native "
                        f"-I{STAND_INS}/mlkem-native/fips202/native -Iexamples"),
    "kyber_fips202": (("examples/kyber_fips202.c", "{folder}/pq-crystals/fips202.c",
                       "{folder}/pq-crystals/fips202x4.c"), "-I{folder}/pq-crystals"),
}
PQ_PREFIX = "rs_pq_"
PQ_PREFIXED = {
    "liboqs_sha3": (("examples/liboqs_sha3.c",), f"-I{STAND_INS}"),
    "sphincs_x4": (("examples/sphincs_x4.c",), ""),
    "kyber_fips202": (("examples/kyber_fips202.c", "{folder}/pq-crystals/fips202.c",
                       "{folder}/pq-crystals/fips202x4.c"), "-DRS_PQ -I{folder}/pq-crystals"),
}
# Every file an example reads besides its sources.
PQ_HEADERS = ("examples/mlkem_native_roundsmith_x4.h",
              f"{STAND_INS}/mlkem-native/common.h", f"{STAND_INS}/mlkem-native/fips202/native/api.h",
              f"{STAND_INS}/oqs/sha3_ops.h", f"{STAND_INS}/oqs/sha3x4_ops.h")


def _prefixed_bundle(w, ctx, cc):
    """The x86_64 bundle made with --prefix rs_pq_, compiled by cc as a user compiles it (its
    top folder's .c files): (folder, headers, objects)."""
    pq_dir = os.path.join("build", "bundle", PQ_PREFIX.rstrip("_"))
    pq_files = [os.path.join(pq_dir, f) for f in _bundle_names()]
    w.build(pq_files, "bundle_gen", implicit=ctx.gen_inputs, variables=[
        ("genargs", f"--target x86_64 --prefix {PQ_PREFIX}"), ("outdir", pq_dir)])
    pq_headers = [f for f in pq_files if f.endswith(".h")]
    pq_objs = []
    for f in pq_files:
        if f.endswith(".c") and os.path.dirname(f) == pq_dir:
            o = os.path.join(pq_dir, "obj", os.path.basename(f)[:-2] + ".o")
            w.build([o], "cc", [f], order_only=pq_headers,
                    variables=[("cc", cc["cc"]), ("cflags", f"-O2 {WARNINGS[cc['id']]}")])
            pq_objs.append(o)
    return pq_dir, pq_headers, pq_objs


def pq_examples(w, ctx, cc, objdir, objs, headers):
    """Each post-quantum recipe built as a user builds it (-O2, warnings as errors, no -m
    flags) by gcc and, when installed, clang, on out/x86_64's objects or, for the clients that
    need it, on an x86_64 bundle made with --prefix rs_pq_ (gcc's objects for both); gcc's
    program run with each path forced, clang's once. mlkem-native's backend file is also
    assembled, as mlkem-native's assembly files include it. Returns the logs."""
    logs = []
    compilers = [(cc["cc"], WARNINGS[cc["id"]])] + (
        [(ctx.clang, WARNINGS["clang"])] if ctx.clang else [])
    probe = os.path.join(objdir, "mlkem_native_asm_probe.log")
    w.build([probe], "compile_check", [f"{STAND_INS}/mlkem-native/asm_probe.S"],
            implicit=list(PQ_HEADERS), variables=[("cc", cc["cc"]), ("cflags", MLKEM_FLAGS)])
    logs.append(probe)
    pq_dir, pq_headers, pq_objs = _prefixed_bundle(w, ctx, cc)
    builds = [(name, srcs, flags, CANONICAL, headers, objs, objdir)
              for name, (srcs, flags) in PQ_EXAMPLES.items()]
    builds += [(name, srcs, flags, pq_dir, pq_headers, pq_objs, pq_dir)
               for name, (srcs, flags) in PQ_PREFIXED.items()]
    for name, srcs, flags, folder, hdrs, lib, out in builds:
        srcs = [s.format(folder=folder) for s in srcs]
        flags = flags.format(folder=folder)
        for compiler, warnings in compilers:
            tag = "" if compiler == cc["cc"] else "." + os.path.basename(compiler)
            example_objs = []
            for src in srcs:
                o = os.path.join(out, f"{name}{tag}.{os.path.basename(src)[:-2]}.o")
                w.build([o], "cc", [src], implicit=list(PQ_HEADERS), order_only=hdrs,
                        variables=[("cc", compiler),
                                   ("cflags", f"-O2 {warnings} -I{folder} {flags}")])
                example_objs.append(o)
            exe = os.path.join(out, name + tag)
            w.build([exe], "link", example_objs + lib,
                    variables=[("cc", cc["cc"]), ("ldflags", "")])
            paths = targets.BUNDLES["x86_64"].paths if not tag else targets.BUNDLES["x86_64"].paths[-1:]
            for path in paths:
                log = f"{exe}.{path.name}.log"
                w.build([log], "run_example", [exe],
                        variables=[("check_env", f"ROUNDSMITH_PATH={path.name}")])
                logs.append(log)
    return logs


@functools.lru_cache(maxsize=None)
def single_rows():
    """Per single-state vector kernel of out/x86_64, a ROUNDSMITH_CPU identity
    (<vendor>:<family>:<model>) whose row of the table takes it first for the "single"
    decision (under every compiler section that has the row)."""
    d = bundle.Dispatch(targets.BUNDLES["x86_64"], targets.get("x86_64"), "")
    decisions = d.decisions
    k = next(i for i, dec in enumerate(decisions) if dec["name"] == "single")
    options = decisions[k]["options"]
    out = {}
    for section in d.table()["sections"]:
        for row in section["rows"]:
            first = options[row["order"][k][0]]
            if first != "scalar":
                out.setdefault(first, f"{row['vendor']}:{row['family']}:{row['model']}")
    return dict(sorted(out.items()))


def portable_xn(w, ctx):
    """out/portable under check_keccak_xN, by each compiler of the test matrix (gcc, clang,
    tcc): its x-N permutations are the scalar fallback every bundle has. Returns the logs."""
    folder = os.path.join("out", "portable")
    headers = [f for f in _all_committed() if f.startswith(folder) and f.endswith(".h")]
    logs = []
    for cc in ctx.test_ccs:
        objdir = os.path.join("build", "bundle-portable", cc["cc"])
        objs = []
        for src in _sources(folder):
            o = os.path.join(objdir, os.path.basename(src)[:-2] + ".o")
            w.build([o], "cc", [src], variables=[("cc", cc["cc"]),
                                                  ("cflags", f"-O2 {WARNINGS[cc['id']]}")])
            objs.append(o)
        o = os.path.join(objdir, "check_keccak_xN.o")
        w.build([o], "cc", [CHECK_XN], order_only=headers,
                variables=[("cc", cc["cc"]),
                           ("cflags", f"-O1 -I{folder} -Itests {ctx.check_cflags}")])
        exe = os.path.join(objdir, "check_keccak_xN")
        w.build([exe], "link", [o] + objs,
                variables=[("cc", cc["cc"]), ("ldflags", ctx.check_libs)])
        log = exe + ".log"
        w.build([log], "run_check", [exe])
        logs.append(log)
    return logs


def msvc(w, clang):
    """MSVC mode, syntax only: the dispatch and every scalar/sponge/ChaCha file of the
    bundles (not the vector Keccak kernels: clang's MSVC-mode immintrin.h declares AVX-512
    only under /arch). Returns the log."""
    sources = [f for f in _sources(CANONICAL) + _sources(os.path.join("out", "portable"))
               if "_x" not in os.path.basename(f)
               and not os.path.basename(f).startswith("keccak_p1600_avx512")]
    sources.append(os.path.join("out", "aarch64", "rs_dispatch.c"))
    log = os.path.join("build", "msvc", "msvc_bundle.log")
    w.build([log], "msvc_syntax", sources, implicit=["tests/msvc_syntax.py"],
            variables=[("msvc_cc", clang)])
    return log


def bench_edges(w, cc, gen_inputs, clang):
    """bench_bundle: per compiler (gcc; clang when installed), the bundle (prefix b<c>_, -O2,
    no -m flags) against the single-target build of this machine (prefix s<c>_, generate
    --cc-id <compiler>, -O3 -march=native), alternated in one process."""
    base = os.path.join("build", "bundle", "bench")
    compilers = [("g", "gcc", cc["cc"])] + ([("c", "clang", clang)] if clang else [])
    objs, headers = [], []
    for tag, cc_id, compiler in compilers:
        folders = {f"b{tag}": ("bundle_gen", f"--target x86_64 --prefix b{tag}_", "-O2"),
                   f"s{tag}": ("generate", f"--target x86_64 --multi x8-avx512 --multi x4-avx2 "
                                           f"--cc-id {cc_id} --prefix s{tag}_",
                               "-O3 -march=native")}
        for name, (rule, genargs, opt) in folders.items():
            folder = os.path.join(base, name)
            files = _bundle_names() if rule == "bundle_gen" else sorted(_single_names())
            outs = [os.path.join(folder, f) for f in files]
            w.build(outs, rule, implicit=gen_inputs,
                    variables=[("genargs", genargs), ("outdir", folder)])
            headers += [f for f in outs if f.endswith(".h")]
            for f in outs:
                if f.endswith(".c") and os.path.dirname(f) == folder:
                    o = os.path.join(base, f"{name}_{os.path.basename(f)[:-2]}.o")
                    w.build([o], "cc", [f], order_only=outs,
                            variables=[("cc", compiler), ("cflags", opt)])
                    objs.append(o)
    o = os.path.join(base, "bench_bundle.o")
    w.build([o], "cc", ["bench/bench_bundle.c"], order_only=headers,
            variables=[("cc", cc["cc"]),
                       ("cflags", f"-O2 -I{base} -Itests" + (" -DRS_HAVE_CLANG" if clang else ""))])
    exe = os.path.join(base, "bench_bundle")
    w.build([exe], "link", [o] + objs, variables=[("cc", cc["cc"]), ("ldflags", "")])
    return exe


def configured(w, args, gen_inputs):
    """`ninja bundle`: the bundle ./configure.py --bundle TARGET asked for, with its --prefix
    and --amalgamate, in build/bundle/<target>/."""
    folder = os.path.join("build", "bundle", args.bundle)
    genargs = f"--target {args.bundle}" + (f" --prefix {args.prefix}" if args.prefix else "") \
        + (" --amalgamate" if args.amalgamate else "")
    b = targets.BUNDLES.get(args.bundle) or targets.bundle_for(targets.get(args.bundle))
    files = bundle.folder(b, args.prefix or "", "", amalgamated=args.amalgamate)
    outs = [os.path.join(folder, f) for f in sorted(files)]
    w.build(outs, "bundle_gen", implicit=gen_inputs,
            variables=[("genargs", genargs), ("outdir", folder)])
    w.build(["bundle"], "phony", outs)


def _sources(folder):
    """The .c files of a committed bundle (read now; the check edge keeps them current)."""
    return sorted(os.path.join(folder, f) for f in os.listdir(os.path.join(ROOT, folder))
                  if f.endswith(".c"))


@functools.lru_cache(maxsize=None)
def _bundle_names():
    """The x86_64 bundle's file names. Rendering it (self-test vectors included) is most of
    what this graph costs to write, and every compiler's bench asks."""
    return sorted(bundle.files(targets.BUNDLES["x86_64"], "", ""))


def _single_names():
    return (kernels.KECCAK_FILES + kernels.SPONGE_FILES + kernels.CHACHA_FILES
            + tuple(f"keccak_p1600_x{n}.{e}" for n in (8, 4) for e in ("h", "c")))


def committed():
    """Every file of the committed bundles (read now; the check edge keeps them current)."""
    return _all_committed()


def _all_committed():
    out = []
    for name in targets.CANONICAL_BUNDLES:
        folder = os.path.join("out", name)
        if os.path.isdir(os.path.join(ROOT, folder)):
            out += [os.path.join(folder, f) for f in outfolder.listing(os.path.join(ROOT, folder))]
    return out


# --- vendoring: the self-test, the API without Check, e2e, build systems, ct ----

# Each class of tests/e2e_vendor.py and what it probes for (toolprobe.tools_here).
E2E_VENDOR = {"SelfTest": ("clang", "tcc"), "SelfTest_aarch64": toolprobe.A64_TOOLS,
              "Planted": ("tcc",), "Header": ("g++",), "Cxx": ("g++", "clang++"),
              "Cxx_aarch64": ("aarch64-linux-gnu-g++", "clang++"), "Recipe": (),
              "CpuRows": ("clang",)}
CT_FLAGS = {"gcc": "-O2 -g -march=x86-64-v3", "clang": "-O2 -gdwarf-4 -march=x86-64-v3",
            "tcc": "-O2 -g"}
# The paths valgrind 3.19 can execute (it reports no AVX-512); tcc builds the scalar one.
CT_PATHS = ("scalar", "sse2", "avx2")


def vendor_edges(w, ctx, cc, compiled):
    """tests/vendor_api.c on the gcc objects of out/x86_64 under every forced path (the
    self-test first); tests/e2e_vendor.py a class per edge; tests/e2e_buildsys.py a bundle and
    build system per edge, and per build system a prefixed bundle beside the portable one;
    the self-test under valgrind (tests/ct/ct_selftest.c). Returns the logs of `ninja test`."""
    objdir, objs, headers = compiled
    gen, gen_inputs = ctx.compiler_dir(cc, "gen"), ctx.gen_inputs
    logs = []
    api_o = os.path.join(objdir, "vendor_api.o")
    vectors = [os.path.join(gen, v) for v in ("sponge_vectors.h", "keccak_vectors.h",
                                              "chacha_vectors.h")]
    w.build([api_o], "cc", ["tests/vendor_api.c"], order_only=headers + vectors,
            variables=[("cc", cc["cc"]), ("cflags", f"-O1 -I{CANONICAL} -I{gen}")])
    api = os.path.join(objdir, "vendor_api")
    w.build([api], "link", [api_o] + objs, variables=[("cc", cc["cc"]), ("ldflags", "")])
    for path in targets.BUNDLES["x86_64"].paths:
        log = f"{api}.{path.name}.log"
        w.build([log], "run_check", [api],
                variables=[("check_env", f"ROUNDSMITH_PATH={path.name}")])
        logs.append(log)

    inputs = gen_inputs + _all_committed() + [
        "docs/vendoring.md", "tests/e2e_vendor.py", "tests/e2e_buildsys.py", "generator/toolprobe.py",
        "tests/host_cpu.py", "tests/vendor_consumer.c", "tests/cpu_rows.c", "examples/plotter_f1.c"]
    for cls, tools in E2E_VENDOR.items():
        log = os.path.join("build", "vendor", f"e2e_{cls}.log")
        w.build([log], "e2e_module", implicit=inputs,
                variables=[("module", f"tests.e2e_vendor.{cls}")] + toolprobe.tools_here(tools))
        logs.append(log)
    # A class per bundle and build system, and per build system the portable bundle beside
    # one made with --prefix my_.
    buildsys = [(f"{system}_{name}", (system.lower(),) + (toolprobe.A64_TOOLS if name ==
                                                           "aarch64" else ()))
                for name in targets.CANONICAL_BUNDLES for system in ("CMake", "Meson")]
    for cls, tools in buildsys + [(f"Prefixed_{s}", (s.lower(),)) for s in ("CMake", "Meson")]:
        log = os.path.join("build", "vendor", f"buildsys_{cls}.log")
        w.build([log], "e2e_module", implicit=inputs,
                variables=[("module", f"tests.e2e_buildsys.{cls}")] + toolprobe.tools_here(tools))
        logs.append(log)
    logs += plant_edges(w, gen_inputs)
    log = os.path.join("build", "vendor", "e2e_tune_bundle.log")
    w.build([log], "e2e_module", implicit=gen_inputs + [
        "tests/e2e_tune_bundle.py", "bench/tune_bundle.c", "bench/timing.h"],
        variables=[("module", "tests.e2e_tune_bundle")])
    logs.append(log)
    logs += ct_selftest_edges(w, ctx.skipped)
    return logs


def plant_edges(w, gen_inputs):
    """rs_selftest() against a one-bit bug planted in each kernel of out/x86_64 and
    out/aarch64 (tests/e2e_plant.py, a class per bundle). Returns the logs."""
    logs = []
    for name, tools in (("x86_64", ()), ("aarch64", toolprobe.A64_TOOLS)):
        log = os.path.join("build", "vendor", f"e2e_plant_{name}.log")
        w.build([log], "e2e_module", implicit=gen_inputs + _all_committed() + [
            "tests/e2e_plant.py", "tests/plant_driver.c", "tests/host_cpu.py",
            "generator/toolprobe.py"],
            variables=[("module", f"tests.e2e_plant.Planted_{name}")]
            + toolprobe.tools_here(tools))
        logs.append(log)
    return logs


def _memcheck(compiler):
    """True when `compiler` finds valgrind/memcheck.h and valgrind is installed."""
    if not (shutil.which("valgrind") and shutil.which(compiler)):
        return False
    r = subprocess.run([compiler, "-E", "-"], input="#include <valgrind/memcheck.h>\n",
                       capture_output=True, text=True)
    return r.returncode == 0


def ct_selftest_edges(w, skipped):
    """out/x86_64's self-test under valgrind, per compiler and per path it can run, plus the
    planted branch that shows the secret marking works; appends to `skipped` what it leaves
    out."""
    logs = []
    for cid, flags in CT_FLAGS.items():
        if not _memcheck(cid):
            tool = cid if shutil.which("valgrind") else "valgrind"
            skipped.append((f"out/x86_64's self-test under valgrind by {cid}",
                            f"{tool} not installed (apt-get install -y {tool})"))
            continue
        base = os.path.join("build", "vendor", f"ct-{cid}")
        objs = []
        for src in _sources(CANONICAL):
            if os.path.basename(src) == "rs_selftest.c":
                continue  # the harness includes it
            o = os.path.join(base, os.path.basename(src)[:-2] + ".o")
            w.build([o], "cc", [src], variables=[("cc", cid), ("cflags", flags)])
            objs.append(o)
        o = os.path.join(base, "ct_selftest.o")
        w.build([o], "cc", ["tests/ct/ct_selftest.c"],
                variables=[("cc", cid), ("cflags", f"{flags} -I{CANONICAL} -Itests "
                                                   f"-DRS_COMPILER='\"{cid} ct\"'")])
        exe = os.path.join(base, "ct_selftest")
        w.build([exe], "link", [o] + objs, variables=[("cc", cid), ("ldflags", "")])
        for path in CT_PATHS if cid != "tcc" else CT_PATHS[:1]:
            log = f"{exe}.{path}.log"
            w.build([log], "run_ct", [exe],
                    variables=[("check_env", f"ROUNDSMITH_PATH={path}")])
            logs.append(log)
        log = f"{exe}.planted.log"
        w.build([log], "run_ct", [exe], variables=[("ct_args", "--planted")])
        logs.append(log)
        # The x-N API (tests/ct/ct_keccak_xN.c) on the same objects, self-test included.
        o = os.path.join(base, "ct_keccak_xN.o")
        w.build([o], "cc", ["tests/ct/ct_keccak_xN.c"],
                variables=[("cc", cid), ("cflags", f"{flags} -I{CANONICAL} -Itests "
                                                   f"-DRS_COMPILER='\"{cid} ct\"'")])
        o_st = os.path.join(base, "rs_selftest.o")
        w.build([o_st], "cc", [os.path.join(CANONICAL, "rs_selftest.c")],
                variables=[("cc", cid), ("cflags", flags)])
        exe = os.path.join(base, "ct_keccak_xN")
        w.build([exe], "link", [o, o_st] + objs, variables=[("cc", cid), ("ldflags", "")])
        for path in CT_PATHS if cid != "tcc" else CT_PATHS[:1]:
            log = f"{exe}.{path}.log"
            w.build([log], "run_ct", [exe],
                    variables=[("check_env", f"ROUNDSMITH_PATH={path}")])
            logs.append(log)
    return logs
