# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The vector model against the reference: every table the SIMD templates print is checked
here by simulating the instructions it feeds, in Python, before any C is compiled.

    python3 -m unittest tests.test_simd
"""

import os
import random
import subprocess
import sys
import tempfile
import unittest

from generator import keccak, reference, simd, variants, vendor
from generator.errors import UsageError

MASK = (1 << 64) - 1


def ternlog(imm, a, b, c):
    """vpternlogq on 64-bit integers, bit by bit, as the manual defines it."""
    out = 0
    for bit in range(64):
        k = ((a >> bit) & 1) << 2 | ((b >> bit) & 1) << 1 | ((c >> bit) & 1)
        out |= ((imm >> k) & 1) << bit
    return out


def pshufb(table, lanes):
    """pshufb on a vector given as 64-bit lanes (no index here has its top bit set)."""
    data = b"".join(v.to_bytes(8, "little") for v in lanes)
    out = bytes(data[16 * (j // 16) + (table[j] & 15)] for j in range(len(data)))
    return [int.from_bytes(out[8 * i:8 * i + 8], "little") for i in range(len(lanes))]


def permutexvar(index, a):
    return [a[index[s] & 7] for s in range(8)]


def permutex2var(lo, index, hi):
    return [(hi if index[s] & 8 else lo)[index[s] & 7] for s in range(8)]


class TernlogTest(unittest.TestCase):
    def test_immediates(self):
        rng = random.Random(1)
        for _ in range(20):
            a, b, c = (rng.getrandbits(64) for _ in range(3))
            self.assertEqual(ternlog(simd.XOR3_IMM, a, b, c), a ^ b ^ c)
            self.assertEqual(ternlog(simd.CHI_IMM, a, b, c), a ^ (~b & MASK & c))


class ShuffleTest(unittest.TestCase):
    def test_byte_rotations(self):
        rng = random.Random(3)
        for isa in simd.ISAS.values():
            if not isa.byte_shuffle:
                continue
            for n in range(8, 64, 8):
                lanes = [rng.getrandbits(64) for _ in range(isa.lanes)]
                self.assertEqual(pshufb(isa.shuffle_bytes(n), lanes),
                                 [reference.rol64(v, n) for v in lanes], (isa, n))

    def test_rotation_choice(self):
        self.assertEqual(simd.ISAS["avx512"].rotation(8), "rol")
        self.assertEqual(simd.ISAS["avx2"].rotation(56), "shuffle")
        self.assertEqual(simd.ISAS["avx2"].rotation(1), "add")
        self.assertEqual(simd.ISAS["sse2"].rotation(8), "shift")


class SingleStateTest(unittest.TestCase):
    """The row layout: five 8-slot registers, simulated instruction by instruction."""

    def round(self, rows, ir):
        c = [0] * 8
        for r in rows:
            c = [x ^ y for x, y in zip(c, r)]
        cm1 = permutexvar(simd.shift_index(4), c)
        cp1 = [reference.rol64(v, 1) for v in permutexvar(simd.shift_index(1), c)]
        rho = simd.rho_counts()
        regs = {}
        for y in range(5):
            theta = [ternlog(simd.XOR3_IMM, a, b, d) for a, b, d in zip(rows[y], cm1, cp1)]
            rotated = [reference.rol64(v, n) for v, n in zip(theta, rho[y])]
            regs[f"B{y}"] = permutexvar(simd.pi_to_columns()[y], rotated)
        for x in range(5):
            regs[f"E{x}"] = [ternlog(simd.CHI_IMM, a, b, c) for a, b, c in zip(
                regs[f"B{x}"], regs[f"B{(x + 1) % 5}"], regs[f"B{(x + 2) % 5}"])]
        regs["E0"][keccak.IOTA_LANE] ^= keccak.round_constants()[ir]
        for g in simd.transpose_gathers():
            regs[g.dst] = permutex2var(regs[g.lo], g.index, regs[g.hi])
        return [regs[f"R{y}"] for y in range(5)]


    def test_rounds_match_reference(self):
        rng = random.Random(4)
        state = [rng.getrandbits(64) for _ in range(25)]
        rows = [state[5 * y:5 * y + 5] + [0, 0, 0] for y in range(5)]
        for ir in range(keccak.MAX_ROUNDS):
            rows = self.round(rows, ir)
            for y in range(5):
                self.assertEqual(rows[y][5:], [0, 0, 0], "slots 5..7 must stay zero")
        self.assertEqual([v for r in rows for v in r[:5]], reference.keccak_p1600(state))


class VariantTest(unittest.TestCase):
    def test_names(self):
        v = variants.SimdKeccakVariant(instances=8, unroll=24, isa="avx512")
        self.assertEqual(v.name, "keccakp1600-x8-u24-avx512")
        self.assertEqual(variants.SimdKeccakVariant(1, 2, "avx512").name,
                         "keccakp1600-u2-avx512")

    def test_rejects(self):
        with self.assertRaises(UsageError):
            variants.SimdKeccakVariant(instances=4, unroll=2, isa="avx512")
        with self.assertRaises(UsageError):
            variants.SimdKeccakVariant(instances=8, unroll=5, isa="avx512")

    def test_op_counts(self):
        sched = keccak.schedule(1, lane_complement=False)
        self.assertEqual(simd.multi_ops_per_round(simd.ISAS["avx512"], sched), 95)


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def generator(*args):
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=ROOT,
                          capture_output=True, text=True)


class CommandLineTest(unittest.TestCase):
    BAD = [
        (["--multi", "x3-avx2"], "no kernel 'x3-avx2' on target"),
        (["--multi", "x4-avx512"], "no kernel 'x4-avx512' on target"),
        (["--multi", "eight"], "--multi takes xN-ISA"),
        (["--multi", "x8-u5-avx512"], "unroll 5 does not divide 24"),
        (["--multi", "x8-avx512", "--multi", "x8-u24-avx512"], "one kernel per instance count"),
        (["--multi", "x8-avx512", "--target", "generic64"], "generic64 has no multi-state"),
        (["--isa", "avx512", "--unroll", "5"], "unroll 5 does not divide 24"),
        (["--isa", "avx512", "--rotate", "rol"], "shape the scalar kernel"),
        (["--isa", "neon"], "no single-state kernel 'neon' on target"),
    ]

    def test_bad_vector_options(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out")
            for args, message in self.BAD:
                with self.subTest(args=args):
                    r = generator("generate", *args, "--out", out)
                    self.assertEqual(r.returncode, 2, r.stderr)
                    self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
                    self.assertIn(message, r.stderr)
                    self.assertFalse(os.path.exists(out))

    def test_profile_with_vector_kernels(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "k")
            args = ("generate", "--isa", "avx512", "--multi", "x8-avx512", "--multi",
                    "x4-u24-avx2", "--prefix", "my_", "--kernels", "keccak", "--out", out)
            self.assertEqual(generator(*args).returncode, 0)
            files = sorted(os.listdir(out))
            self.assertEqual(files, sorted(["keccak_p1600.c", "keccak_p1600.h",
                                            "keccak_p1600_x4.c", "keccak_p1600_x4.h",
                                            "keccak_p1600_x8.c", "keccak_p1600_x8.h",
                                            "keccak_sponge.c", "keccak_sponge.h",
                                            "KeccakP-1600-SnP.h", "keccak_snp.c",
                                            "roundsmith.manifest"]
                                           + list(vendor.names("my_"))))
            texts = {}
            for n in files:
                with open(os.path.join(out, n)) as f:
                    texts[n] = f.read()
            self.assertIn("void my_keccak_f1600_x8(uint64_t states[25][8]);",
                          texts["keccak_p1600_x8.h"])
            self.assertIn("void my_keccak_x4_interleave(", texts["keccak_p1600_x4.h"])
            self.assertIn("keccakp1600-x4-u24-avx2", texts["keccak_p1600_x4.c"])
            self.assertIn("keccakp1600-u1-avx512", texts["keccak_p1600.c"])
            # Computed immediates, printed: xor3 and chi, never typed into a template.
            self.assertIn("0x96", texts["keccak_p1600_x8.c"])
            self.assertIn("0xD2", texts["keccak_p1600_x8.c"])
            self.assertEqual(generator(*args).returncode, 0)
            for n in files:
                with open(os.path.join(out, n)) as f:
                    self.assertEqual(f.read(), texts[n], n)


if __name__ == "__main__":
    unittest.main()
