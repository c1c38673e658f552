# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The cross part of build.ninja: `ninja test-cross` (called from configure.py).

Each cross target (generator/targets.py, CROSS_TARGETS) is built with Debian's cross gcc and
its executables run under qemu-user. What a target lacks on this machine (the compiler, Check
for that architecture, qemu) is found here, at configure time, and recorded in the plan the
matrix printer reads, so a missing piece shows as a cell with its reason and the install
command rather than as a build failure.
"""

import json
import os
import shutil
import subprocess

from generator import kernels, targets, variants

# -O2 rather than the host's -O3 -march=native: there is no native CPU to tune for, and the
# point here is correctness under a foreign byte order and word size, not speed.
CROSS_CFLAGS = "-O2 -Wall -Wextra -pedantic -Werror"


# Debian's architecture names, for the multiarch install hint.
DEBIAN_ARCH = {"aarch64-linux-gnu": "arm64", "s390x-linux-gnu": "s390x",
               "arm-linux-gnueabihf": "armhf", "riscv64-linux-gnu": "riscv64"}


def run(cmd, env=None):
    return subprocess.run(cmd, capture_output=True, text=True, env=env)


def cross_check_libs(target):
    """(cflags, libs) of Check for `target`'s architecture from Debian multiarch, static so
    qemu needs no library path; None when Check for that architecture is not installed."""
    if not shutil.which("pkg-config"):
        return None
    # Debian's multiarch package first; then a Check built by hand for an architecture
    # Debian does not ship (tests/build_check_cross.sh installs it under /usr/local).
    for pcdir in (f"/usr/lib/{target.triplet}/pkgconfig",
                  f"/usr/local/lib/{target.triplet}/pkgconfig"):
        env = dict(os.environ, PKG_CONFIG_LIBDIR=pcdir, PKG_CONFIG_PATH="")
        r = run(["pkg-config", "--static", "--cflags", "--libs", "check"], env=env)
        if os.path.isdir(pcdir) and r.returncode == 0:
            break
    else:
        return None
    words = r.stdout.split()
    cflags = " ".join(w for w in words if w.startswith(("-I", "-pthread")))
    libs = " ".join(w for w in words if not w.startswith("-I"))
    return cflags, libs


def gcc_version(cc):
    r = run([cc, "-dumpfullversion"])
    return r.stdout.strip() if r.returncode == 0 else "?"


def plan_target(target):
    """What can be done for `target` here, and why not the rest."""
    cc = f"{target.triplet}-gcc"
    cell = {"target": target.name, "cc": cc, "cflags": target.cflags,
            "byte_order": target.byte_order,
            "word_bits": target.word_bits, "missing": []}
    if not shutil.which(cc):
        cell["missing"].append(f"{cc} (apt-get install gcc-{target.triplet})")
        return cell
    cell["version"] = gcc_version(cc)
    check = cross_check_libs(target)
    if check is None:
        arch = DEBIAN_ARCH.get(target.triplet, target.arch)
        cell["missing"].append(f"Check for {arch} (dpkg --add-architecture {arch}; "
                               f"apt-get update; apt-get install check:{arch}; where Debian "
                               f"has none: tests/build_check_cross.sh {target.triplet})")
    else:
        cell["check_cflags"], cell["check_libs"] = check
    if not shutil.which(target.qemu):
        cell["missing"].append(f"{target.qemu} (apt-get install qemu-user)")
    return cell


def edges(w, gen_inputs, names, msvc_log, windows_log=None):
    """Add the test-cross edges for the cross targets `names` (None: all), whose closing
    matrix also shows the MSVC check's log `msvc_log` and the Windows x64 run's `windows_log`
    (None: not run). Returns the logs."""
    wanted = list(targets.CROSS_TARGETS) if names is None else names
    plan, logs, products = [], [], []
    for name in wanted:
        target = targets.get(name)
        cell = plan_target(target)
        plan.append(cell)
        if "version" not in cell:
            continue
        cc = cell["cc"]
        base = os.path.join("build", "cross", name)
        out_dir = os.path.join("build", "out", name)
        gen = os.path.join(base, "gen")
        obj = os.path.join(base, "obj")

        # The vendorable folder for this target, compiled warning-free by its cross gcc.
        out_files = [os.path.join(out_dir, n)
                     for n in kernels.KECCAK_FILES + kernels.SPONGE_FILES + kernels.CHACHA_FILES]
        w.build(out_files, "generate", implicit=gen_inputs,
                variables=[("genargs", f"--target {name} --cc-id gcc"), ("outdir", out_dir)])
        out_objs = []
        for src in (f for f in out_files if f.endswith(".c")):
            o = os.path.join(base, "out", os.path.basename(src)[:-2] + ".o")
            w.build([o], "cc", [src], order_only=out_files,
                    variables=[("cc", cc), ("cflags", f"{CROSS_CFLAGS} {target.cflags}".rstrip())])
            out_objs.append(o)
        products += out_objs
        # check_sponge links the out/ Keccak objects; out/chacha.c is compiled (warning-free)
        # but its code is checked through the same variant in check_chacha.
        keccak_out_objs = [o for o in out_objs if not o.endswith("chacha.o")]

        # The scalar kernel suite: the cross subset of variants, each under its own prefix.
        space = variants.keccak_cross_space(target, set())
        sources = [os.path.join(gen, f"{v.ident}.c") for v in space]
        generated = sources + [os.path.join(gen, f"{v.ident}.h") for v in space] + [
            os.path.join(gen, n) for n in ("keccak_variants.h", "keccak_vectors.h",
                                           "sponge_vectors.h")]
        # The AArch64 x2 kernels (NEON, SHA3 extension), where the target has them.
        x2_isas = [i for i in targets.ARM_X2_ISAS if i in target.vector_isas]
        x2_sources = [os.path.join(gen, f"{isa}_u{u}_keccak_p1600_x2.c")
                      for isa in x2_isas for u in variants.CROSS_UNROLLS]
        if x2_sources:
            generated += x2_sources + [f[:-2] + ".h" for f in x2_sources] + [
                os.path.join(gen, "keccak_x2_arm_variants.h")]
        w.build(generated, "testsuite_cross", implicit=gen_inputs,
                variables=[("target", name), ("outdir", gen)])
        objs, x2_objs = [], []
        for src in sources + x2_sources:
            o = os.path.join(obj, os.path.basename(src)[:-2] + ".o")
            w.build([o], "cc", [src], order_only=generated,
                    variables=[("cc", cc), ("cflags", f"{CROSS_CFLAGS} {target.cflags}".rstrip())])
            (objs if src in sources else x2_objs).append(o)
        # The plain reference is a row of check_keccak (the fuzz targets take it as the truth).
        ref_o = os.path.join(obj, "keccak_ref.o")
        w.build([ref_o], "cc", ["tests/ref/keccak_ref.c"],
                variables=[("cc", cc), ("cflags", f"{CROSS_CFLAGS} {target.cflags}".rstrip())])
        products += objs + x2_objs + [ref_o]

        # ChaCha: the cross subset (the one-block path; each vector path where the target
        # has one), each under its own prefix, against the host suite's vectors.
        chacha_gen = os.path.join(base, "gen-chacha")
        chacha_space = variants.chacha_cross_space(target)
        chacha_sources = [os.path.join(chacha_gen, f"{v.ident}.c") for v in chacha_space]
        chacha_generated = chacha_sources + [f[:-2] + ".h" for f in chacha_sources] + [
            os.path.join(chacha_gen, n) for n in ("chacha_variants.h", "chacha_vectors.h")]
        w.build(chacha_generated, "testsuite_cross_chacha", implicit=gen_inputs,
                variables=[("target", name), ("outdir", chacha_gen)])
        chacha_objs = []
        for src in chacha_sources + ["tests/ref/chacha_ref.c"]:
            o = os.path.join(obj, "chacha", os.path.basename(src)[:-2] + ".o")
            w.build([o], "cc", [src], order_only=chacha_generated,
                    variables=[("cc", cc), ("cflags", f"{CROSS_CFLAGS} {target.cflags}".rstrip())])
            chacha_objs.append(o)
        products += chacha_objs
        cell["chacha"] = f"{len(chacha_space)} chacha " + "/".join(
            dict.fromkeys(v.isa for v in chacha_space))
        singles = [v for v in space if isinstance(v, variants.SimdKeccakVariant)]
        interleaved = [v for v in space if getattr(v, "lanes", "plain") == "interleaved"]
        cell["variants"] = len(space) - len(singles) - len(interleaved)
        if interleaved:
            cell["interleaved"] = f"{len(interleaved)} interleaved"
        if singles:
            cell["singles"] = f"{len(singles)} {'/'.join(sorted({v.isa for v in singles}))}"
        cell["out_variant"] = (f"{targets.default_keccak(target, 'gcc').name}, "
                               f"{targets.default_chacha(target, 'gcc').name}")
        if "check_libs" not in cell:
            continue

        label = f"{name} {cc} {cell['version']}"
        hflags = (f"-O1 -I{gen} -Itests {cell['check_cflags']} "
                  f"-DRS_COMPILER='\"{label}\"'")
        suites = (("check_keccak", "tests/check_keccak.c", hflags, objs + [ref_o], generated),
                  ("check_sponge", "tests/check_sponge.c", f"-I{out_dir} {hflags}",
                   keccak_out_objs, generated + out_files),
                  ("check_chacha", "tests/check_chacha.c",
                   hflags.replace(f"-I{gen} ", f"-I{chacha_gen} "), chacha_objs,
                   chacha_generated))
        if x2_objs:
            # Checked against the first scalar variant, which check_keccak checks.
            suites += (("check_keccak_x2", "tests/check_keccak_x2_arm.c", hflags,
                        x2_objs + objs[:1], generated),)
            cell["x2"] = f"{len(x2_objs)} x2 {'/'.join(x2_isas)}"
        cell["logs"] = {}
        for exe_name, src, flags, link_objs, deps in suites:
            o = os.path.join(obj, exe_name + ".o")
            w.build([o], "cc", [src], order_only=deps,
                    variables=[("cc", cc), ("cflags", flags)])
            exe = os.path.join(base, exe_name)
            # Static, so qemu-user needs no -L sysroot to find the target's libraries.
            w.build([exe], "link", [o] + link_objs,
                    variables=[("cc", cc), ("ldflags", f"-static {cell['check_libs']}")])
            log = exe + ".log"
            qemu = target.qemu + (f" -cpu {target.qemu_cpu}" if target.qemu_cpu else "")
            w.build([log], "run_qemu", [exe], variables=[("qemu", qemu)])
            logs.append(log)
            cell["logs"][exe_name] = log
        w.blank()

    os.makedirs(os.path.join(os.path.dirname(os.path.abspath(__file__)), "build", "cross"),
                exist_ok=True)
    plan_path = os.path.join("build", "cross", "plan.json")
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), plan_path), "w") as f:
        json.dump(plan, f, indent=1)
    w.build(["test-cross"], "cross_matrix", logs + ([msvc_log] if msvc_log else [])
            + ([windows_log] if windows_log else []),
            implicit=products + ["tests/cross_matrix.py", plan_path],
            variables=[("msvc_log", msvc_log or ""), ("windows_log", windows_log or "")])
    return logs


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
        sources += [f for f in files if f.endswith(".c") and "_x" not in os.path.basename(f)]
    log = os.path.join("build", "msvc", "msvc_syntax.log")
    w.build([log], "msvc_syntax", sources, implicit=["tests/msvc_syntax.py"],
            variables=[("msvc_cc", clang)])
    return log
