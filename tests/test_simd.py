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

from generator.model import avx512_lines as lines, keccak_maths as keccak, reference, simd
from generator.choice import variants
from generator.emit import vendor
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
    """The line layout (model/avx512_lines.py): five 8-slot registers, simulated instruction by
    instruction as keccak_p1600_avx512.c.j2 prints them."""

    def test_period_moves_lanes_as_pi_wants(self):
        self.assertEqual(lines.slope_run(), (3, 2, 4))
        self.assertTrue(lines.check())

    def round(self, regs, ir, r, last):
        c = [0] * 8
        for a in regs:
            c = [x ^ y for x, y in zip(c, a)]
        cm1 = permutexvar(simd.shift_index(4), c)
        cp1 = [reference.rol64(v, 1) for v in permutexvar(simd.shift_index(1), c)]
        b = []
        for k in range(5):
            theta = [ternlog(simd.XOR3_IMM, a, m, p) for a, m, p in zip(regs[k], cm1, cp1)]
            b.append(permutexvar(r.pi[k], [reference.rol64(v, n) for v, n in
                                           zip(theta, r.rho[k])]))
        e = [[ternlog(simd.CHI_IMM, x, y, z) for x, y, z in
              zip(b[k], b[r.chi[k][0]], b[r.chi[k][1]])] for k in range(5)]
        e[0][0] ^= keccak.round_constants()[ir]
        if not last:
            out = [None] * 5
            for k, (m, idx) in enumerate(r.realign):
                out[m] = permutexvar(idx, e[k])
            return out, e
        out = [None] * 5
        for g in lines.regroup():
            p = permutex2var(e[g.pa], g.pi, e[g.pb])
            q = permutex2var(e[g.qa], g.qi, e[g.qb])
            rr = [q[s] if lines.PAIR_MASK >> s & 1 else p[s] for s in range(8)]
            moved = permutexvar(g.li, e[g.last])
            out[g.n] = [moved[s] if lines.LAST_MASK >> s & 1 else rr[s] for s in range(8)]
        return out, e

    def test_rounds_match_reference(self):
        rng = random.Random(4)
        state = [rng.getrandbits(64) for _ in range(25)]
        regs = [[0] * 8 for _ in range(5)]
        for k, slots in enumerate(lines.lane_slots(lines.slope_run()[0])):
            for s in slots:
                regs[k][s.x] = state[s.lane]
        period = lines.rounds()
        for ir in range(keccak.MAX_ROUNDS):
            regs, e = self.round(regs, ir, period[ir % len(period)],
                                 ir % len(period) == len(period) - 1)
        got = [None] * 25
        for k, slots in enumerate(lines.chi_slots()):
            for s in slots:
                got[s.lane] = e[k][s.x]
        self.assertEqual(got, reference.keccak_p1600(state))


def unpack(a, b, hi):
    """punpck{l,h}qdq / ZIP1, ZIP2 per 128-bit chunk, as the manuals define them."""
    out = []
    for c in range(len(a) // 2):
        out += [a[2 * c + hi], b[2 * c + hi]]
    return out


def vperm2i128(a, b, imm):
    """vperm2i128: each output 128-bit chunk picks a.lo, a.hi, b.lo, b.hi by two bits (no
    zeroing bits are used here)."""
    chunks = [a[0:2], a[2:4], b[0:2], b[2:4]]
    return chunks[imm & 3] + chunks[(imm >> 4) & 3]


def vshufi64x2(a, b, imm):
    """vshufi64x2: output chunks 0, 1 from a and 2, 3 from b, two immediate bits each."""
    pick = lambda v, k: v[2 * k:2 * k + 2]
    return (pick(a, imm & 3) + pick(a, (imm >> 2) & 3) + pick(b, (imm >> 4) & 3)
            + pick(b, (imm >> 6) & 3))


def instruction(op, a, b):
    """One transpose op as the instruction the templates print for its width."""
    if op.kind in ("lo64", "hi64"):
        return unpack(a, b, op.kind == "hi64")
    imm = simd.chunk_imm(op.kind, len(a))
    return vperm2i128(a, b, imm) if len(a) == 4 else vshufi64x2(a, b, imm)


class TransposeTest(unittest.TestCase):
    """The x-N block loops' transposes, run as the printed instructions."""

    def run_net(self, net, rows, ops=None):
        regs = {f"T{j}": rows[j] for j in range(net.n)}
        for op in net.ops if ops is None else ops:
            regs[op.dst] = instruction(op, regs[op.a], regs[op.b])
        return regs

    def test_transposes(self):
        rng = random.Random(7)
        for n in (2, 4, 8):
            net = simd.transpose(n)
            self.assertEqual(len(net.ops), n * (n.bit_length() - 1))
            rows = [[rng.getrandbits(64) for _ in range(n)] for _ in range(n)]
            regs = self.run_net(net, rows)
            cols = [regs[name] for name in net.outputs]
            self.assertEqual(cols, [[rows[j][k] for j in range(n)] for k in range(n)], n)
            # A transpose is its own inverse: the squeeze runs the same network.
            back = self.run_net(net, cols)
            self.assertEqual([back[name] for name in net.outputs], rows, n)

    def test_partial_groups_need_only_their_outputs(self):
        rng = random.Random(8)
        for n in (4, 8):
            net = simd.transpose(n)
            for t in range(1, n):
                rows = [[rng.getrandbits(64) if k < t else 0 for k in range(n)]
                        for _ in range(n)]
                regs = self.run_net(net, rows, net.ops_for(t))
                for k in range(t):
                    self.assertEqual(regs[net.outputs[k]], [rows[j][k] for j in range(n)])
                self.assertLess(len(net.ops_for(t)), len(net.ops))

    def test_groups_cover_every_rate(self):
        for n in (2, 4, 8):
            groups = simd.block_groups(n)
            for rate in range(1, 26):
                lanes = [lane for g in groups if g.full and g.index < rate // n
                         for lane in g.lanes]
                tail = rate % n
                if tail:
                    g = groups[rate // n]
                    self.assertIn(tail, g.tails, (n, rate))
                    lanes += list(range(g.first, g.first + tail))
                self.assertEqual(lanes, list(range(rate)), (n, rate))

    def test_partial_access(self):
        self.assertEqual(simd.partial_access("sse2", 2), "low")
        self.assertEqual(simd.partial_access("avx2", 4), "maskvec")
        self.assertEqual(simd.partial_access("avx512", 8), "mask")
        with self.assertRaises(ValueError):
            simd.transpose(3)


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
