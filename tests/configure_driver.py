# SPDX-License-Identifier: Apache-2.0 OR MIT
"""configure.py driven in-process, in a copy of the tree (tests/e2e_configure.py makes it and
reads the JSON this prints): probes are remembered after their first run, so a run costs what
configure itself costs, not the compilers' start-up.

    python3 tests/configure_driver.py targets [T...]   every target: configure + ninja -n
    python3 tests/configure_driver.py hostile N SECONDS SEED
"""

import contextlib
import copy
import io
import json
import os
import random
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
import configure  # noqa: E402
from generator import toolprobe  # noqa: E402
from generator.choice import targets, variants  # noqa: E402


def remembered(fn):
    seen = {}

    def call(*args):
        key = repr(args)
        if key not in seen:
            seen[key] = fn(*args)
        return copy.deepcopy(seen[key])    # callers fill in what they are given
    return call


# configure's probes; python_with is the interpreter the proofs run (an import by each
# candidate interpreter).
for name in ("compiler_info", "compiles", "links", "cross_toolchain", "check_library",
             "crypto_libs", "peer_libraries", "plotting_python", "cross_check_libs",
             "require_build_python", "python_with"):
    setattr(toolprobe, name, remembered(getattr(toolprobe, name)))


def configure_once(argv):
    """(exit code, stdout, stderr) of one configure run, --tune's own ninja run left out."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            try:
                configure.options(argv)
            except configure.UsageError as e:
                configure.fail(e)
            configure.main(configure.without_tune(argv))
            code = 0
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 1
        except BaseException:
            import traceback
            traceback.print_exc()
            code = "raised"
    return code, out.getvalue(), err.getvalue()


def each_target(names):
    rows = []
    for name in names:
        code, out, err = configure_once(["--target", name, "--prefix", "p_"])
        plan = subprocess.run(["ninja", "-n"], cwd=ROOT, capture_output=True, text=True)
        rows.append({"target": name, "configure": code, "stderr": err,
                     "ninja_n": plan.returncode, "ninja_n_err": plan.stderr[-400:]})
    return rows


HOSTILE = ["", " ", "-", "--", "-1", "0", "99999999999999999999", "1e9", "nan", "\u00e9",
           "a b", "a\nb", ",", ",,", "x" * 300, "--help", "=", "$HOME", "*", "none",
           "/nonexistent-roundsmith", "/proc/roundsmith", "/", ".", "/etc/passwd", "/bin/false",
           "fast"]
VALID = {
    "--target": ["host"] + list(targets.TARGETS),
    "--unroll": [str(u) for u in variants.KECCAK_UNROLLS],
    "--lane-complement": list(variants.ON_OFF),
    "--rotate": list(variants.ROTATIONS),
    "--parity": list(variants.PARITIES),
    "--lanes": list(variants.LANE_LAYOUTS),
    "--multi": ["none", "x8-avx512", "x4-avx2,x8-u24-avx512", "x2-neon", "x3-avx2"],
    "--chacha-isa": list(variants.CHACHA_ISAS),
    "--chacha-schedule": ["seq", "step", "pair"],
    "--chacha-rotate": ["shift", "pshufb", "vprold", "tbl", "shuffle"],
    "--chacha-states": ["1", "2"],
    "--chacha-rounds": ["8", "8,12,20", "7"],
    "--prefix": ["p_", "my_"],
    "--cc": ["gcc", "clang", "tcc", "cc", "no-such-cc"],
    "--cflags": ["-O2", "-O3 -march=native", "-Os"],
    "--bundle": list(targets.BUNDLES) + ["s390x"],
    "--out": ["build/out/mine", "build/out/other place"],
    "--test-cc": ["gcc", "gcc,clang,tcc", "gcc,no-such-cc", ""],
    "--cross": ["none", "aarch64", "aarch64,s390x", "vax"],
    "--vectors": [os.path.join(ROOT, "tests", "vectors")],
    "--fuzz-seconds": ["1", "60", "0"],
    "--fuzz-short-seconds": ["0", "4"],
    "--tune": ["fast", "", "--"],          # never a valid one: that would run the tuner
}
FLAGS = ("--amalgamate", "--no-profile")


def argument_list(rng):
    argv = []
    for _ in range(rng.randrange(5)):
        roll = rng.random()
        flag = rng.choice(list(VALID) + list(FLAGS))
        if roll < 0.06:
            argv.append(rng.choice(["--bogus", "--targ", "--unrol", "-x", "--=", "---"]))
        elif flag in FLAGS:
            argv.append(flag)
        elif roll < 0.12 and flag != "--tune":
            argv.append(flag)                                        # missing value
        else:
            value = rng.choice(VALID[flag]) if roll < 0.55 else rng.choice(HOSTILE)
            if flag == "--tune" and value in ("full", "quick"):
                value = "fast"
            argv += [f"{flag}={value}"] if roll < 0.3 else [flag, value]
    return argv


def hostile(count, seconds, seed):
    rng = random.Random(seed)
    start, rows = time.monotonic(), []
    while len(rows) < count and time.monotonic() - start < seconds:
        argv = argument_list(rng)
        code, _, err = configure_once(argv)
        rows.append({"argv": argv, "code": code, "stderr": err})
    return rows


if __name__ == "__main__":
    if sys.argv[1] == "targets":
        result = each_target(sys.argv[2:] or list(targets.TARGETS))
    else:
        result = hostile(int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]))
    json.dump(result, sys.stdout)
