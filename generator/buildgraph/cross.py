# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The cross targets (generator/targets.py, CROSS_TARGETS): `ninja test-cross`, and the MSVC
syntax check of `ninja test`.

Each cross target is built with Debian's cross gcc and its executables run under qemu-user.
What a target lacks on this machine (the compiler, Check for that architecture, qemu) is found
at configure time (toolprobe.cross_toolchain) and recorded in the plan the matrix printer reads,
so a missing piece shows as a cell with its reason and the install command rather than as a
build failure.
"""

import json
import os
import shutil

from generator.emit import kernels
from generator.choice import targets, variants
from generator.buildgraph import bundles, sponge_xn
from generator.buildgraph.flags import CROSS_CFLAGS
from generator.buildgraph.ninja import ROOT
from generator import toolprobe

# Generated folders parsed in MSVC mode: the rotate builtin (the _rotl64 branch) with the
# sponge's MSVC CPUID branch for KT128 (x86_64 with x-N leaves), and shift rotations with
# lane complementing and separate parities. The x-N kernel files themselves are left out:
# clang's <immintrin.h> in MSVC mode declares AVX2/AVX-512 types only when the ISA is enabled
# for the whole file, which MSVC's does not require, so clang would reject correct code.
MSVC_FOLDERS = (
    ("x86_64-builtin", "--target x86_64 --cc-id clang --rotate builtin --unroll 24 "
                       "--multi x8-avx512 --multi x4-avx2"),
    ("generic64-shift-lc", "--target generic64 --cc-id gcc --rotate shift --lane-complement on "
                           "--parity separate --unroll 3"),
    # Bit-interleaved lanes with the rotate builtin: the _rotl branch of RS_ROL32.
    ("generic64-interleaved", "--target generic64 --cc-id gcc --lanes interleaved "
                              "--rotate builtin --unroll 2"),
)


def elsewhere(w, ctx):
    """The MSVC syntax check (in `ninja test`) and `ninja test-cross`, whose closing matrix
    shows the MSVC check and the Windows x64 run of the bundles too."""
    msvc_log = msvc_edges(w, ctx.gen_inputs, ctx.clang)
    if msvc_log:
        ctx.add(msvc_log, "test")
    else:
        ctx.skip("the MSVC-mode syntax check", "clang", "clang")
    names = None if ctx.args.cross is None else [
        n for n in ctx.args.cross.split(",") if n and n != "none"]
    gcc = next((c for c in ctx.test_ccs if c["id"] == "gcc"), None)
    gen = ctx.compiler_dir(gcc, "gen") if gcc else None
    windows_log = windows_edge(w, gen, ctx.gen_inputs)
    wasm_log = None
    if names is None or "wasm32" in names:
        wasm_log = wasm_edge(w, gen, ctx.gen_inputs)
    names = None if names is None else [n for n in names if n not in targets.WASM_TARGETS]
    edges(w, ctx.gen_inputs, names, msvc_log, windows_log, wasm_log)
    w.blank()


def edges(w, gen_inputs, names, msvc_log, windows_log=None, wasm_log=None):
    """Add the test-cross edges for the cross targets `names` (None: all), whose closing
    matrix also shows the MSVC check's log `msvc_log`, the Windows x64 run's `windows_log`
    and the wasm32 run's `wasm_log` (None: not run). Returns the logs."""
    plan, logs, products = [], [], []
    for name in list(targets.CROSS_TARGETS) if names is None else names:
        target = targets.get(name)
        cell = toolprobe.cross_toolchain(target)
        plan.append(cell)
        if "version" in cell:
            products += target_edges(w, gen_inputs, target, cell, logs)
    os.makedirs(os.path.join(ROOT, "build", "cross"), exist_ok=True)
    plan_path = os.path.join("build", "cross", "plan.json")
    with open(os.path.join(ROOT, plan_path), "w") as f:
        json.dump(plan, f, indent=1)
    w.build(["test-cross"], "cross_matrix", logs + [l for l in (msvc_log, windows_log, wasm_log)
                                                     if l],
            implicit=products + ["tests/cross_matrix.py", plan_path],
            variables=[("msvc_log", msvc_log or ""), ("windows_log", windows_log or ""),
                       ("wasm_log", wasm_log or "")])
    return logs


class CrossBuild:
    """One cross target's build, in build/cross/<target>/, by its cross gcc."""

    def __init__(self, w, gen_inputs, target, cell):
        self.w, self.gen_inputs, self.target, self.cell = w, gen_inputs, target, cell
        self.cc = cell["cc"]
        self.base = os.path.join("build", "cross", target.name)
        self.gen = os.path.join(self.base, "gen")
        self.obj = os.path.join(self.base, "obj")

    def compile(self, src, dest, order_only=()):
        o = os.path.join(dest, os.path.basename(src)[:-2] + ".o")
        self.w.build([o], "cc", [src], order_only=order_only,
                     variables=[("cc", self.cc),
                                ("cflags", f"{CROSS_CFLAGS} {self.target.cflags}".rstrip())])
        return o


def target_edges(w, gen_inputs, target, cell, logs):
    """Everything of one cross target; appends its suites' logs to `logs`, fills in `cell`
    and returns the objects built (the matrix waits for them even where nothing runs)."""
    b = CrossBuild(w, gen_inputs, target, cell)
    out_dir, out_files, out_objs = out_folder(b)
    keccak = keccak_objects(b)
    chacha = chacha_objects(b)
    describe(cell, target, keccak, chacha)
    if "check_libs" in cell:
        # check_sponge links the out/ Keccak objects; out/chacha.c is compiled (warning-free)
        # but its code is checked through the same variant in check_chacha.
        keccak_out_objs = [o for o in out_objs if not o.endswith("chacha.o")]
        logs += suites(b, out_dir, out_files, keccak_out_objs, keccak, chacha)
    return out_objs + keccak["objs"] + keccak["x2_objs"] + [keccak["ref"]] + chacha["objs"]


def out_folder(b):
    """The vendorable folder for this target with its defaults, compiled warning-free by its
    cross gcc. It is the cross build's own (build/cross/<target>/out-folder): build/out/<target>
    belongs to the main build, which `./configure.py --target <target>` shapes with its own
    options."""
    out_dir = os.path.join(b.base, "out-folder")
    out_files = [os.path.join(out_dir, n)
                 for n in kernels.KECCAK_FILES + kernels.SPONGE_FILES + kernels.CHACHA_FILES]
    b.w.build(out_files, "generate", implicit=b.gen_inputs,
              variables=[("genargs", f"--target {b.target.name} --cc-id gcc"),
                         ("outdir", out_dir)])
    out_objs = [b.compile(src, os.path.join(b.base, "out"), out_files)
                for src in out_files if src.endswith(".c")]
    return out_dir, out_files, out_objs


def keccak_objects(b):
    """The scalar kernel's cross subset of variants, each under its own prefix, and the
    AArch64 x2 kernels (NEON, SHA3 extension) where the target has them."""
    space = variants.keccak_cross_space(b.target, set())
    sources = [os.path.join(b.gen, f"{v.ident}.c") for v in space]
    generated = sources + [os.path.join(b.gen, f"{v.ident}.h") for v in space] + [
        os.path.join(b.gen, n) for n in ("keccak_variants.h", "keccak_vectors.h",
                                         "sponge_vectors.h")]
    x2_isas = [i for i in targets.ARM_X2_ISAS if i in b.target.vector_isas]
    x2_sources = [os.path.join(b.gen, f"{isa}_u{u}_keccak_p1600_x2.c")
                  for isa in x2_isas for u in variants.CROSS_UNROLLS]
    if x2_sources:
        generated += x2_sources + [f[:-2] + ".h" for f in x2_sources] + [
            os.path.join(b.gen, "keccak_x2_arm_variants.h")]
    b.w.build(generated, "testsuite_cross", implicit=b.gen_inputs,
              variables=[("target", b.target.name), ("outdir", b.gen)])
    objs = [b.compile(src, b.obj, generated) for src in sources]
    x2_objs = [b.compile(src, b.obj, generated) for src in x2_sources]
    # The plain reference is a row of check_keccak (the fuzz targets take it as the truth).
    ref = b.compile("tests/ref/keccak_ref.c", b.obj)
    return {"space": space, "generated": generated, "objs": objs, "x2_isas": x2_isas,
            "x2_objs": x2_objs, "ref": ref}


def chacha_objects(b):
    """ChaCha's cross subset (the one-block path; each vector path where the target has one),
    each under its own prefix, against the host suite's vectors."""
    gen = os.path.join(b.base, "gen-chacha")
    space = variants.chacha_cross_space(b.target)
    sources = [os.path.join(gen, f"{v.ident}.c") for v in space]
    generated = sources + [f[:-2] + ".h" for f in sources] + [
        os.path.join(gen, n) for n in ("chacha_variants.h", "chacha_vectors.h")]
    b.w.build(generated, "testsuite_cross_chacha", implicit=b.gen_inputs,
              variables=[("target", b.target.name), ("outdir", gen)])
    objs = [b.compile(src, os.path.join(b.obj, "chacha"), generated)
            for src in sources + ["tests/ref/chacha_ref.c"]]
    return {"space": space, "gen": gen, "generated": generated, "objs": objs}


def describe(cell, target, keccak, chacha):
    """What the matrix cell shows of this target's variants."""
    space = keccak["space"]
    cell["chacha"] = f"{len(chacha['space'])} chacha " + "/".join(
        dict.fromkeys(v.isa for v in chacha["space"]))
    singles = [v for v in space if isinstance(v, variants.SimdKeccakVariant)]
    interleaved = [v for v in space if getattr(v, "lanes", "plain") == "interleaved"]
    cell["variants"] = len(space) - len(singles) - len(interleaved)
    if interleaved:
        cell["interleaved"] = f"{len(interleaved)} interleaved"
    if singles:
        cell["singles"] = f"{len(singles)} {'/'.join(sorted({v.isa for v in singles}))}"
    cell["out_variant"] = (f"{targets.default_keccak(target, 'gcc').name}, "
                           f"{targets.default_chacha(target, 'gcc').name}")


def suites(b, out_dir, out_files, keccak_out_objs, keccak, chacha):
    """The Check suites, linked static and run under qemu-user. Returns their logs."""
    cell, generated = b.cell, keccak["generated"]
    label = f"{b.target.name} {b.cc} {cell['version']}"
    hflags = (f"-O1 -I{b.gen} -Itests {cell['check_cflags']} "
              f"-DRS_COMPILER='\"{label}\"'")
    runs = (("check_keccak", "tests/check_keccak.c", hflags, keccak["objs"] + [keccak["ref"]],
             generated),
            ("check_sponge", "tests/check_sponge.c", f"-I{out_dir} {hflags}",
             keccak_out_objs, generated + out_files),
            ("check_chacha", "tests/check_chacha.c",
             hflags.replace(f"-I{b.gen} ", f"-I{chacha['gen']} "), chacha["objs"],
             chacha["generated"]))
    if keccak["x2_objs"]:
        # Checked against the first scalar variant, which check_keccak checks.
        runs += (("check_keccak_x2", "tests/check_keccak_x2_arm.c", hflags,
                  keccak["x2_objs"] + keccak["objs"][:1], generated),)
        cell["x2"] = f"{len(keccak['x2_objs'])} x2 {'/'.join(keccak['x2_isas'])}"
    cell["logs"] = {}
    qemu = b.target.qemu + (f" -cpu {b.target.qemu_cpu}" if b.target.qemu_cpu else "")
    for exe_name, src, flags, link_objs, deps in runs:
        o = os.path.join(b.obj, exe_name + ".o")
        b.w.build([o], "cc", [src], order_only=deps,
                  variables=[("cc", b.cc), ("cflags", flags)])
        exe = os.path.join(b.base, exe_name)
        # Static, so qemu-user needs no -L sysroot to find the target's libraries.
        b.w.build([exe], "link", [o] + link_objs,
                  variables=[("cc", b.cc), ("ldflags", f"-static {cell['check_libs']}")])
        b.w.build([exe + ".log"], "run_qemu", [exe], variables=[("qemu", qemu)])
        cell["logs"][exe_name] = exe + ".log"
    b.w.blank()
    return list(cell["logs"].values())


def msvc_edges(w, gen_inputs, clang):
    """The MSVC syntax check of generated scalar, sponge and SnP sources. Returns its log,
    or None when clang is not installed."""
    if not clang:
        return None
    sources = []
    for name, genargs in MSVC_FOLDERS:
        folder = os.path.join("build", "msvc", name)
        files = [os.path.join(folder, n) for n in kernels.KECCAK_FILES + kernels.SPONGE_FILES]
        if "--multi x" in genargs:
            files += [os.path.join(folder, f"keccak_p1600_x{n}.{e}") for n in (8, 4)
                      for e in ("h", "c")]
        w.build(files, "generate", implicit=gen_inputs,
                variables=[("genargs", genargs), ("outdir", folder)])
        sources += [f for f in files if f.endswith(".c")
                    and "_x" not in os.path.basename(f)]
    log = os.path.join("build", "msvc", "msvc_syntax.log")
    w.build([log], "msvc_syntax", sources, implicit=["tests/msvc_syntax.py"],
            variables=[("msvc_cc", clang)])
    return log


def windows_edge(w, gen, gen_inputs):
    """`ninja test-cross`: tests/e2e_windows.py, when mingw-w64 gcc and wine64 are here.
    Returns its log, or None (with the line saying what is missing)."""
    wine = shutil.which("wine64") or ("/usr/lib/wine/wine64"
                                      if os.path.exists("/usr/lib/wine/wine64") else None)
    if not (shutil.which("x86_64-w64-mingw32-gcc") and wine and gen):
        print("configure.py: Windows x64 run left out of test-cross "
              "(apt-get install -y gcc-mingw-w64-x86-64 wine64)")
        return None
    log = os.path.join("build", "vendor", "windows.log")
    vectors = [os.path.join(gen, v) for v in ("sponge_vectors.h", "keccak_vectors.h",
                                              "chacha_vectors.h")]
    w.build([log], "e2e_module", order_only=vectors,
            implicit=gen_inputs + bundles.committed() + [
                "tests/e2e_windows.py", "tests/vendor_api.c", "tests/win64_abi.c"],
            variables=[("module", "tests.e2e_windows"), ("e2e_env", f"RS_VECTORS_DIR={gen}")])
    return log


def wasm_edge(w, gen, gen_inputs):
    """`ninja test-cross`: tests/e2e_wasm.py (out/wasm32 in both flavours under node) and
    tests/e2e_wasm_tune.py (a quick tune of a tiny space), when clang's wasm32 target links
    and node runs WASI here. Returns its log, or None (with the
    line saying what is missing)."""
    missing = toolprobe.wasm_tools() or (None if gen else "no gcc for the vector headers")
    if missing:
        print(f"configure.py: wasm32 run left out of test-cross: {missing}; it needs "
              f"apt-get install -y {' '.join(toolprobe.WASM_PACKAGES)}")
        return None
    log = os.path.join("build", "vendor", "wasm32.log")
    vectors = [os.path.join(gen, v) for v in ("sponge_vectors.h", "keccak_vectors.h",
                                              "chacha_vectors.h")] + [sponge_xn.VECTORS]
    w.build([log], "e2e_module", order_only=vectors,
            implicit=gen_inputs + bundles.committed() + [
                "tests/e2e_wasm.py", "tests/vendor_api.c", "tests/check_sponge.c",
                "tests/check_sponge_xN.c", "tests/wasm/check.h", "tests/wasm/run_wasi.mjs",
                "tests/wasm/test_mjs.mjs", "generator/toolprobe.py", "tests/e2e_wasm_tune.py",
                "tests/wasm/race.mjs"],
            variables=[("module", "tests.e2e_wasm tests.e2e_wasm_tune"),
                       ("e2e_env", f"RS_VECTORS_DIR={gen} "
                                   f"RS_XN_VECTORS_DIR={sponge_xn.VECTORS_DIR}")])
    return log
