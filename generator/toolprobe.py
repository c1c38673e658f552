# SPDX-License-Identifier: Apache-2.0 OR MIT
"""What this machine has for the generator, its benches and its tests, each found the way it
will be used: the one place that probes tools (configure.py's compiler probes are in
generator/buildgraph/probes.py).

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
"""

import functools
import os
import shutil
import subprocess
import sys
import tempfile

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
    """None when `cmd` (a list: the compiler and the flags the test passes) compiles a file
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
