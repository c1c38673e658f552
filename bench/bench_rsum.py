#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""rsum against `openssl dgst` on one large file, run in alternation, best of N wall-clock
times each (the file is read once first, so both read it from the page cache).

usage: bench_rsum.py RSUM FILE [ALGO] [N]
"""

import shutil
import subprocess
import sys
import time

OPENSSL_FLAG = {"sha3-256": "-sha3-256", "sha3-512": "-sha3-512", "shake128": "-shake128"}


def timed(cmd):
    t = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - t, out


def main(rsum, path, algo="sha3-256", n=5):
    openssl = shutil.which("openssl")
    ours_cmd = [rsum, "-a", algo, path]
    theirs_cmd = [openssl, "dgst", OPENSSL_FLAG[algo], path]
    _, ours_out = timed(ours_cmd)
    _, theirs_out = timed(theirs_cmd)
    if ours_out.split()[0] != theirs_out.rsplit("= ", 1)[1].strip():
        sys.exit("rsum and openssl disagree")
    best = {"rsum": float("inf"), "openssl dgst": float("inf")}
    for _ in range(int(n)):
        best["rsum"] = min(best["rsum"], timed(ours_cmd)[0])
        best["openssl dgst"] = min(best["openssl dgst"], timed(theirs_cmd)[0])
    size = __import__("os").path.getsize(path)
    for name, t in best.items():
        print(f"{name:14} {algo} {size / t / 1e6:8.1f} MB/s  ({t:.3f} s, best of {n})")
    print(f"rsum / openssl dgst throughput: {best['openssl dgst'] / best['rsum']:.2f}x")


if __name__ == "__main__":
    main(*sys.argv[1:])
