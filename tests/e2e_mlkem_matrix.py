# SPDX-License-Identifier: Apache-2.0 OR MIT
"""examples/mlkem_matrix.c (ML-KEM-768's matrix expansion on shake128_x4) against the same
expansion done stream by stream with hashlib.shake_128, on every dispatch path of the x86_64
bundle. MLKEM_MATRIX names the built example (ninja builds it; by hand: the gcc line at the
top of the example)."""

import hashlib
import os
import random
import subprocess
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
K, N, Q = 3, 256, 3329
PATHS = ("scalar", "sse2", "avx2", "avx512")


def sample_ntt(stream):
    """FIPS 203 Algorithm 7 on the bytes of one SHAKE128 stream."""
    coeffs, pos = [], 0
    while len(coeffs) < N:
        b0, b1, b2 = stream[pos:pos + 3]
        pos += 3
        for d in (b0 | (b1 & 0x0F) << 8, b1 >> 4 | b2 << 4):
            if d < Q and len(coeffs) < N:
                coeffs.append(d)
    return coeffs


def expand(rho):
    # 5 blocks of 168 bytes hold 280 candidates; a stream needing more is rarer than 2^-40.
    return [sample_ntt(hashlib.shake_128(rho + bytes([j, i])).digest(5 * 168))
            for i in range(K) for j in range(K)]


class MlkemMatrix(unittest.TestCase):
    def setUp(self):
        exe = os.environ.get("MLKEM_MATRIX")
        if not exe:
            self.skipTest("MLKEM_MATRIX (the built example) not set")
        self.exe = os.path.join(ROOT, exe)

    def run_example(self, rho, *args, path=None):
        env = dict(os.environ)
        if path:
            env["ROUNDSMITH_PATH"] = path
        r = subprocess.run([self.exe, rho.hex(), *args], capture_output=True, text=True,
                           env=env, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        return [[int(x) for x in line.split()] for line in r.stdout.splitlines()]

    def test_against_hashlib_every_path(self):
        rng = random.Random(203)
        seeds = [bytes(32), b"\xff" * 32] + [rng.randbytes(32) for _ in range(4)]
        for rho in seeds:
            want = expand(rho)
            for path in PATHS:
                with self.subTest(rho=rho.hex(), path=path):
                    self.assertEqual(self.run_example(rho, path=path), want)
            with self.subTest(rho=rho.hex(), how="--single"):
                self.assertEqual(self.run_example(rho, "--single"), want)

    def test_refuses_bad_input(self):
        r = subprocess.run([self.exe, "zz"], capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 2)
        self.assertIn("usage", r.stderr)


if __name__ == "__main__":
    unittest.main()
