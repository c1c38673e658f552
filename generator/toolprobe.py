# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The Python packages the project takes from Debian, never from PyPI, and which interpreter
has them.

Debian installs python3-jinja2 and friends for /usr/bin/python3 only: a pyenv, conda or venv
`python3` first on PATH does not see them, and "apt-get install python3-jinja2" then answers
"already installed" while the import still fails. So every message here names the interpreter
that lacks the module and, when Debian's has it, the command that works.
"""

import os
import subprocess
import sys

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
