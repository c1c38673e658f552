# SPDX-License-Identifier: Apache-2.0 OR MIT
"""What this machine has: compilers (what each can build, found by compiling tiny files rather
than guessed from names), cross toolchains, libraries, the CPU's features."""

import os
import shutil
import subprocess
import tempfile

from generator import toolprobe
from generator.errors import UsageError

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
PROBE_FUZZER = ("#include <stddef.h>\n#include <stdint.h>\n"
                "int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)"
                "{ (void)d; (void)n; return 0; }\n")
PROBE_MAIN = "int main(void) { return 0; }\n"
PROBE_MEMCHECK = "#include <valgrind/memcheck.h>\nint main(void) { return RUNNING_ON_VALGRIND; }\n"

# Debian's architecture names, for the multiarch install hint.
DEBIAN_ARCH = {"aarch64-linux-gnu": "arm64", "s390x-linux-gnu": "s390x",
               "arm-linux-gnueabihf": "armhf", "riscv64-linux-gnu": "riscv64"}


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def compiles(cc, source, flags=()):
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "probe.c")
        with open(src, "w") as f:
            f.write(source)
        r = run([cc, *flags, "-c", src, "-o", os.path.join(tmp, "probe.o")])
        return r.returncode == 0


def links(cc, source, flags=()):
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "probe.c")
        with open(src, "w") as f:
            f.write(source)
        return run([cc, *flags, src, "-o", os.path.join(tmp, "probe")]).returncode == 0


def compiler(cc):
    """(id, version, capabilities, path) of compiler `cc`, or None if absent."""
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


def cpu_features():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def build_python():
    """The interpreter the build's edges run (the generator renders with Jinja2 at build time,
    so fail now if none has it): this one, or Debian's when only that one has Jinja2."""
    python, note = toolprobe.build_python()
    if python is None:
        raise UsageError(note)
    if note:
        print(f"configure.py: {note}")
    return python


def check_library():
    """(cflags, libs) of Check, the C test framework."""
    if not shutil.which("pkg-config") or run(["pkg-config", "--exists", "check"]).returncode:
        raise UsageError("Check is missing; install it with: apt-get install -y check pkg-config")
    return (run(["pkg-config", "--cflags", "check"]).stdout.strip(),
            run(["pkg-config", "--libs", "check"]).stdout.strip())


def crypto_libs():
    """libcrypto's link flags, or None: the ChaCha bench times OpenSSL's EVP_chacha20 as a
    peer, and is left out without it."""
    if run(["pkg-config", "--exists", "libcrypto"]).returncode:
        return None
    return run(["pkg-config", "--libs", "libcrypto"]).stdout.strip()


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


def plotting_python(python):
    """An interpreter that has Jinja2 and matplotlib for the report's plots: the build's
    `python`, else Debian's (python3-matplotlib installs there); without one the report has its
    tables only."""
    found = toolprobe.python_with(("jinja2", "matplotlib"), (python, toolprobe.DEBIAN_PYTHON))
    if found and found != python:
        print(f"configure.py: matplotlib: not importable by {python}; `ninja report` plots "
              f"with {found}, which has it")
    if found:
        return found
    print(f"configure.py: matplotlib: not importable by {python}"
          + ("" if python == toolprobe.DEBIAN_PYTHON else f" nor {toolprobe.DEBIAN_PYTHON}")
          + "; `ninja report` writes tables without plots "
          f"(apt-get install -y {toolprobe.PACKAGES['matplotlib']})")
    return python


# What the tests that run AArch64 code under qemu-user probe for.
A64_TOOLS = ("aarch64-linux-gnu-gcc", "qemu-aarch64")


def tools_here(tools):
    """The edge variable naming which of `tools` (what one end-to-end test class probes for
    beyond Python, generator/toolprobe.py) are on PATH now: part of that class's command, so
    installing one and configuring again reruns that class, and no other."""
    return [("e2e_tools", " ".join(t for t in tools if shutil.which(t)))]


# --- cross toolchains ----------------------------------------------------------------------

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


def cross_toolchain(target):
    """What can be done for cross target `target` here, and why not the rest: the cell of the
    portability matrix (tests/cross_matrix.py) before its edges fill it in."""
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
