# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Which paths of the x86-64 bundle this machine's CPU runs, from the kernel's /proc/cpuinfo
and the generator's list of what each path needs: never from the bundle under test, whose
dispatch is what the end-to-end tests check.

A path forced with ROUNDSMITH_PATH that the CPU lacks runs the fastest path it has instead,
with one line on stderr (templates/rs_dispatch.c.j2); a test that forces every path expects
that line and that path on such a CPU (a Zen 3 EPYC has no AVX-512, a Nehalem no AVX2).
"""

import functools
import os
import platform
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from generator.emit import bundle  # noqa: E402
from generator.choice import bundle_shape, targets  # noqa: E402

BUNDLE = "x86_64"


@functools.lru_cache(maxsize=None)
def flags():
    """The CPU's feature flags as Linux names them (the same names as generator/cpuid.py);
    empty off x86-64, where no x86 path runs natively."""
    if platform.machine() not in ("x86_64", "AMD64"):
        return frozenset()
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("flags"):
                return frozenset(line.split(":", 1)[1].split())
    return frozenset()


@functools.lru_cache(maxsize=None)
def needs():
    """Path name -> the CPU features it needs, slowest path first."""
    b = targets.BUNDLES[BUNDLE]
    d = bundle.Dispatch(bundle_shape.shaped(b)[0], targets.get(b.target), "")
    return {p.name: frozenset(f) for p, f in zip(b.paths, d.path_features)}


def paths():
    return list(needs())


def runs(path):
    return needs()[path] <= flags()


def lands_on(path, among=None):
    """The path a run forced onto `path` takes here: `path`, or the fastest of `among` (the
    paths the build has; default: all of the bundle's) that this CPU runs."""
    if runs(path):
        return path
    return [p for p in (among or paths()) if runs(p)][-1]


def lacks_line(path, among=None):
    return (f"roundsmith: ROUNDSMITH_PATH={path}: this CPU lacks it; "
            f"using {lands_on(path, among)}")


def forced(path, want_path, prefix=(), among=None):
    """(the path a forced run should report, the stderr line it should print or None) for a
    test that forces `path` natively and wants `want_path`."""
    if not path or prefix or path != want_path or path not in needs() or runs(path):
        return want_path, None
    return lands_on(path, among), lacks_line(path, among)
