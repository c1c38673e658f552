# SPDX-License-Identifier: Apache-2.0 OR MIT
"""What this machine has for configure.py, the generator, its benches and its tests, each found
the way it will be used: the one place that probes tools. It sits at generator/'s top and
imports nothing of measure/, buildgraph/ or cli/, so every one of them (and the tests) may ask
it.

The Python packages the project takes from Debian, never from PyPI, and which interpreter
has them.

Debian installs python3-jinja2 and friends for /usr/bin/python3 only: a pyenv, conda or venv
`python3` first on PATH does not see them, and "apt-get install python3-jinja2" then answers
"already installed" while the import still fails. So every message here names the interpreter
that lacks the module and, when Debian's has it, the command that works.

The tools beyond Python (compilers, cross toolchains, wasm32, node), found by running them
the way a test or a bench will. A command on PATH is not enough: clang++ --target=aarch64-linux-gnu is there with clang
alone, and stops at a missing header only once it compiles (it needs the aarch64 C++ headers
of g++-aarch64-linux-gnu). So a probe compiles (or links) a tiny file with the test's own
command. A test that cannot run skips with one reason, always shaped
"<tool> not installed (apt-get install -y <package>)", which tests/summarize.py lists by name.

What configure.py needs to write build.ninja: each compiler's identity, version and
capabilities (compiler_info, by preprocessing and compiling tiny files rather than guessing
from names), the interpreter the build runs (require_build_python, which refuses when none has
Jinja2), Check and the benches' peer libraries, the CPU's features, the cross toolchains.
"""

import functools
import os
import shutil
import subprocess
import sys
import tempfile

from generator.errors import UsageError

# Import name -> the Debian package that provides it. "required": the generator cannot render
# without it; the others only add something (plots) and the build runs without them.
PACKAGES = {
    "jinja2": "python3-jinja2",
    "matplotlib": "python3-matplotlib",
    "pycparser": "python3-pycparser",
    "z3": "python3-z3",
}
REQUIRED = ("jinja2",)
DEBIAN_PYTHON = "/usr/bin/python3"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _this(python):
    # Not realpath: a venv's python3 is a link to /usr/bin/python3, with other site-packages.
    return os.path.abspath(python) == os.path.abspath(sys.executable)


def _version(python):
    if _this(python):
        return f"{sys.version_info.major}.{sys.version_info.minor}"
    r = subprocess.run([python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                       capture_output=True, text=True)
    return r.stdout.strip() or "?"


def importable(module, python=None):
    """True when `python` (default: this interpreter) can import `module`."""
    python = python or sys.executable
    if _this(python):
        import importlib.util
        try:
            return importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            return False
    if not os.path.exists(python):
        return False
    return subprocess.run([python, "-c", f"import {module}"], capture_output=True).returncode == 0


def debian_python():
    """Debian's interpreter when it is not this one, else None."""
    if not os.path.exists(DEBIAN_PYTHON) or _this(DEBIAN_PYTHON):
        return None
    return DEBIAN_PYTHON


def missing(modules, python=None):
    return [m for m in modules if not importable(m, python)]


def problem(module, command=None):
    """One line saying why `module` is not importable here and what works, or None when it
    is. `command`: what to run instead, as a list whose first word is the interpreter's place
    (default: the way this process was started)."""
    if importable(module):
        return None
    package = PACKAGES.get(module, f"python3-{module}")
    here = f"{module}: not importable by {sys.executable} ({_version(sys.executable)})"
    other = debian_python()
    if other and importable(module, other):
        rest = " ".join(command if command is not None else _argv())
        return f"{here}; {other} has it: run {other} {rest}".rstrip()
    return f"{here}; install it with: apt-get install -y {package}" + (
        f" (Debian's packages are for {DEBIAN_PYTHON})" if other else "")


def _argv():
    """This process's command line as the user could type it again."""
    argv = list(sys.argv)
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    if spec is not None and spec.name.endswith(".__main__"):
        return ["-m", spec.name[:-len(".__main__")]] + argv[1:]
    if argv and os.path.isabs(argv[0]):
        argv[0] = os.path.relpath(argv[0])
        if not argv[0].startswith("."):
            argv[0] = os.path.join(".", argv[0])
    return argv


def build_python(modules=REQUIRED):
    """The interpreter the build's edges run: this one if it has `modules`, else Debian's when
    that has them; (path, note) with a one-line note saying why another was chosen, or
    (None, the problem) when neither has them."""
    lacking = missing(modules)
    if not lacking:
        return sys.executable, None
    other = debian_python()
    if other and not missing(modules, other):
        return other, (f"{', '.join(lacking)}: not importable by {sys.executable} "
                       f"({_version(sys.executable)}); configure and the build run {other}, which has "
                       "it")
    return None, problem(lacking[0])


def python_with(modules, candidates=None):
    """The first of `candidates` (default: this interpreter, then Debian's) that imports every
    one of `modules`, or None."""
    for py in dict.fromkeys(candidates or (sys.executable, DEBIAN_PYTHON)):
        if os.path.exists(py) and not missing(modules, py):
            return py
    return None


def require_build_python():
    """build_python() for configure.py: the interpreter the build's edges run (the generator
    renders with Jinja2 at build time, so refuse now if none has it), its note printed."""
    python, note = build_python()
    if python is None:
        raise UsageError(note)
    if note:
        print(f"configure.py: {note}")
    return python


def plotting_python(python):
    """An interpreter that has Jinja2 and matplotlib for the report's plots: the build's
    `python`, else Debian's (python3-matplotlib installs there); without one the report has its
    tables only."""
    found = python_with(("jinja2", "matplotlib"), (python, DEBIAN_PYTHON))
    if found and found != python:
        print(f"configure.py: matplotlib: not importable by {python}; `ninja report` plots "
              f"with {found}, which has it")
    if found:
        return found
    print(f"configure.py: matplotlib: not importable by {python}"
          + ("" if python == DEBIAN_PYTHON else f" nor {DEBIAN_PYTHON}")
          + "; `ninja report` writes tables without plots "
          f"(apt-get install -y {PACKAGES['matplotlib']})")
    return python


# Commands the tests run -> the Debian package that installs them.
TOOL_PACKAGES = {
    "gcc": "gcc", "g++": "g++", "clang": "clang", "clang++": "clang", "tcc": "tcc",
    "cmake": "cmake", "meson": "meson", "valgrind": "valgrind",
    "aarch64-linux-gnu-gcc": "gcc-aarch64-linux-gnu",
    "aarch64-linux-gnu-g++": "g++-aarch64-linux-gnu",
    "qemu-aarch64": "qemu-user", "qemu-x86_64": "qemu-user",
    "x86_64-w64-mingw32-gcc": "gcc-mingw-w64-x86-64-win32", "wine64": "wine64",
}

C_PROBE = "#include <stdint.h>\n#include <string.h>\nint main(void) { return 0; }\n"
CXX_PROBE = "#include <cstdint>\n#include <cstring>\n#include <stdint.h>\nint main() { return 0; }\n"


def reason(tool, package=None):
    return f"{tool} not installed (apt-get install -y {package or TOOL_PACKAGES.get(tool, tool)})"


@functools.lru_cache(maxsize=None)
def _works(cmd, source, link):
    with tempfile.TemporaryDirectory(prefix="rs-probe-") as tmp:
        src = os.path.join(tmp, "probe.c")
        with open(src, "w") as f:
            f.write(source)
        out = os.path.join(tmp, "probe" if link else "probe.o")
        r = subprocess.run([*cmd, *([] if link else ["-c"]), src, "-o", out],
                           capture_output=True, text=True)
        return r.returncode == 0


def compiler(cmd, package=None, cxx=False, link=False, what=None):
    """A test's compiler probe (configure's is compiler_info): None when `cmd` (a list: the compiler and the flags the test passes) compiles a file
    including the C (or C++) headers the bundles use, and links it if `link`; else the skip
    reason, naming `what` (default: the command) and the package that brings it."""
    cmd = tuple(cmd)
    name = os.path.basename(cmd[0])
    if not shutil.which(cmd[0]):
        return reason(name, package)
    flags = ("-x", "c++") if cxx else ()
    if _works(cmd[:1] + flags + cmd[1:], CXX_PROBE if cxx else C_PROBE, link):
        return None
    return reason(what or " ".join(cmd), package or TOOL_PACKAGES.get(name, name))


def programs(*tools):
    """None when every one of `tools` is on PATH, else the reason naming the first missing."""
    for tool in tools:
        if not shutil.which(tool):
            return reason(tool)
    return None


def first(*reasons):
    """The first reason that is not None, or None: what to skip for, when several tools are
    needed."""
    return next((r for r in reasons if r), None)


def python_module(module):
    """None when this interpreter imports `module`, else a reason naming the interpreter, the
    Debian package and, when /usr/bin/python3 has it, the command that runs the test there."""
    if importable(module):
        return None
    package = PACKAGES.get(module, f"python3-{module}")
    other = debian_python()
    if other and importable(module, other):
        return (f"{module} not installed for {sys.executable} (apt-get install -y {package} "
                f"installs it for {other}: run the tests with {other})")
    return reason(module, package)


# What the tests that run AArch64 code under qemu-user probe for.
A64_TOOLS = ("aarch64-linux-gnu-gcc", "qemu-aarch64")


def tools_here(tools):
    """The edge variable naming which of `tools` (what one end-to-end test class probes for
    beyond Python) are on PATH now: part of that class's command in build.ninja, so installing
    one and configuring again reruns that class, and no other."""
    return [("e2e_tools", " ".join(t for t in tools if shutil.which(t)))]


# --- configure's compilers: what each can build, found by compiling -------------------------

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


def _run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def compiles(cc, source, flags=()):
    """True when `cc` with `flags` compiles `source` to an object."""
    return _works((cc, *flags), source, False)


def links(cc, source, flags=()):
    """True when `cc` with `flags` compiles and links `source` into a program."""
    return _works((cc, *flags), source, True)


def compiler_info(cc):
    """configure's probe of compiler `cc`: {cc, path, id, version, caps}, or None if absent.
    The id and version come from its predefined macros, the caps (PROBE_CAPS) from compiling."""
    path = shutil.which(cc)
    if not path:
        return None
    with tempfile.TemporaryDirectory(prefix="rs-probe-") as tmp:
        src = os.path.join(tmp, "id.c")
        with open(src, "w") as f:
            f.write(PROBE_ID)
        r = _run([cc, "-E", src])
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


# --- libraries ------------------------------------------------------------------------------

def check_library():
    """(cflags, libs) of Check, the C test framework."""
    if not shutil.which("pkg-config") or _run(["pkg-config", "--exists", "check"]).returncode:
        raise UsageError("Check is missing; install it with: apt-get install -y check pkg-config")
    return (_run(["pkg-config", "--cflags", "check"]).stdout.strip(),
            _run(["pkg-config", "--libs", "check"]).stdout.strip())


def crypto_libs():
    """libcrypto's link flags, or None: the ChaCha bench times OpenSSL's EVP_chacha20 as a
    peer, and is left out without it."""
    if _run(["pkg-config", "--exists", "libcrypto"]).returncode:
        return None
    return _run(["pkg-config", "--libs", "libcrypto"]).stdout.strip()


def peer_libraries():
    """The registry libraries the benches race beside ours, when installed (Debian's
    libssl-dev, libgcrypt20-dev, libsodium-dev, nettle-dev): SHA3-256 and SHAKE128 in
    bench_sponge, ChaCha20 in bench_chacha."""
    cflags, libs = [], []
    for package, macro in (("libcrypto", "RS_HAVE_OPENSSL"), ("libgcrypt", "RS_HAVE_GCRYPT"),
                           ("libsodium", "RS_HAVE_SODIUM"), ("nettle", "RS_HAVE_NETTLE")):
        if _run(["pkg-config", "--exists", package]).returncode == 0:
            cflags += [f"-D{macro}", _run(["pkg-config", "--cflags", package]).stdout.strip()]
            libs.append(_run(["pkg-config", "--libs", package]).stdout.strip())
        else:
            print(f"configure.py: {package} not found; the benches leave it out")
    return {"cflags": " ".join(filter(None, cflags)), "libs": " ".join(libs)}


# --- cross toolchains -----------------------------------------------------------------------

# Debian's architecture names, for the multiarch install hint.
DEBIAN_ARCH = {"aarch64-linux-gnu": "arm64", "s390x-linux-gnu": "s390x",
               "arm-linux-gnueabihf": "armhf", "riscv64-linux-gnu": "riscv64"}


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
        r = _run(["pkg-config", "--static", "--cflags", "--libs", "check"], env=env)
        if os.path.isdir(pcdir) and r.returncode == 0:
            break
    else:
        return None
    words = r.stdout.split()
    cflags = " ".join(w for w in words if w.startswith(("-I", "-pthread")))
    libs = " ".join(w for w in words if not w.startswith("-I"))
    return cflags, libs


def gcc_version(cc):
    r = _run([cc, "-dumpfullversion"])
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


# --- wasm32 ---------------------------------------------------------------------------------


# wasm32: Debian's clang-14 has the target; lld, the C library and the compiler runtime are
# packages of their own, and each missing one fails at a different step.
WASM_PACKAGES = ("lld-14", "wasi-libc", "libclang-rt-14-dev-wasm32", "nodejs")
# node 18 (Debian 12's) runs WASI only with the flag; node 20 accepts it and ignores it.
# --single-threaded-gc: node 20.20.2 segfaults at exit, after the program has finished and
# printed everything, in most runs of a module whose memory grew past about 40 MB (a
# concurrent GC thread at teardown; one GC thread never does). Node's crash, not the module's.
NODE = ("node", "--no-warnings", "--experimental-wasi-unstable-preview1", "--single-threaded-gc")


def wasm_clang():
    """The clang that builds wasm32 here: clang-14 if installed (the lld-14 and runtime
    packages match it), else clang."""
    return "clang-14" if shutil.which("clang-14") else "clang"


@functools.lru_cache(maxsize=None)
def wasm_tools():
    """None when clang compiles and links a wasm32-wasi program and node runs it under
    node:wasi, else the reason naming the first missing package."""
    cc = wasm_clang()
    if not shutil.which(cc):
        return reason("clang")
    if not shutil.which("node"):
        return reason("node", "nodejs")
    with tempfile.TemporaryDirectory(prefix="rs-probe-wasm-") as tmp:
        src = os.path.join(tmp, "probe.c")
        with open(src, "w") as f:
            # A 64-bit division pulls in the compiler runtime (__udivti3 and friends live in
            # libclang_rt.builtins-wasm32.a).
            f.write("#include <stdio.h>\n#include <string.h>\n#include <stdint.h>\n"
                    "int main(int argc, char **argv) { (void)argv; "
                    "printf(\"%d\\n\", (int)((unsigned __int128)argc * 3u / (unsigned)argc)); "
                    "return 0; }\n")
        obj, exe = os.path.join(tmp, "probe.o"), os.path.join(tmp, "probe.wasm")
        r = subprocess.run([cc, "--target=wasm32-wasi", "-c", src, "-o", obj],
                           capture_output=True, text=True)
        if r.returncode:
            return reason("the wasm32-wasi C library", "wasi-libc")
        r = subprocess.run([cc, "--target=wasm32-wasi", obj, "-o", exe],
                           capture_output=True, text=True)
        if r.returncode:
            if "wasm-ld" in r.stderr and ("not found" in r.stderr or "No such" in r.stderr
                                           or "unable to execute" in r.stderr):
                return reason("wasm-ld", "lld-14")
            return reason("libclang_rt.builtins-wasm32.a", "libclang-rt-14-dev-wasm32")
        runner = os.path.join(ROOT, "tests", "wasm", "run_wasi.mjs")
        r = subprocess.run([*NODE, runner, exe], capture_output=True, text=True)
        if r.returncode or r.stdout.strip() != "3":
            return reason("node with node:wasi", "nodejs")
    return None
