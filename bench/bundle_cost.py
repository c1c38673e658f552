#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""What vendoring a committed bundle costs, per compiler at -O2: compile time (every .c file
one after the other, CPU seconds of the compiler processes), code size (text + data + bss of
the objects, `size`), and the self-test's time on every path this CPU has
(bench/bench_selftest.c). `ninja bench-vendor`, or: python3 bench/bundle_cost.py [BUILD_DIR]

Compile times on a shared machine move with its load; the column is for orders of
magnitude (tcc against gcc/clang, one bundle against another), not for percentages.
"""

import os
import resource
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from generator.choice import targets  # noqa: E402

COMPILERS = {"gcc": "gcc", "clang": "clang", "tcc": "tcc", "aarch64-gcc": "aarch64-linux-gnu-gcc"}
BUNDLES = {"portable": ("gcc", "clang", "tcc"), "x86_64": ("gcc", "clang", "tcc"),
           "aarch64": ("aarch64-gcc",)}


def cpu_seconds(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run(cmd, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode:
        raise RuntimeError(f"{' '.join(cmd)}:\n{r.stderr[-2000:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(build):
    os.makedirs(build, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="bundle-cost-", dir=build)
    print("bundle\tcompiler\tcompile s (CPU, -O2)\tsize bytes (text+data+bss)\tself-test per path")
    try:
        for bundle, ccs in BUNDLES.items():
            folder = os.path.join(ROOT, "out", bundle)
            srcs = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".c"))
            for cc_id in ccs:
                cc = COMPILERS[cc_id]
                if not shutil.which(cc):
                    continue
                objdir = os.path.join(tmp, f"{bundle}-{cc_id}")
                os.makedirs(objdir)
                objs, seconds = [], 0.0
                for src in srcs:
                    o = os.path.join(objdir, os.path.basename(src)[:-2] + ".o")
                    seconds += cpu_seconds([cc, "-O2", f"-I{folder}", "-c", src, "-o", o])
                    objs.append(o)
                size = subprocess.run(["size", "-t", *objs], capture_output=True, text=True)
                total = int(size.stdout.splitlines()[-1].split()[3])
                timings = []
                if not cc_id.startswith("aarch64"):
                    exe = os.path.join(objdir, "bench_selftest")
                    subprocess.run([cc, "-O2", f"-I{folder}", f"-I{ROOT}/tests",
                                    os.path.join(ROOT, "bench", "bench_selftest.c"), *objs,
                                    "-o", exe], check=True, capture_output=True)
                    for path in [p.name for p in targets.BUNDLES[bundle].paths]:
                        env = dict(os.environ, ROUNDSMITH_PATH=path)
                        r = subprocess.run([exe], env=env, capture_output=True, text=True)
                        got = dict(kv.split("=", 1) for kv in r.stdout.split())
                        if got.get("path") != path:
                            continue  # this CPU (or compiler) lacks the path
                        timings.append(f"{path} {got['median_us']} us "
                                       f"({got.get('median_cycles', '?')} cycles, first call "
                                       f"{got['first_us']} us)")
                print(f"{bundle}\t{cc_id}\t{seconds:.1f}\t{total}\t"
                      f"{'; '.join(timings) or '(not run: cross)'}")
                sys.stdout.flush()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build"))
