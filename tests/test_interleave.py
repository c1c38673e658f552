# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Bit interleaving (keccak.py): the tables the interleaved kernel prints, checked against the
plain 64-bit model.

The last test runs Keccak-p[1600] on interleaved words exactly as the template spells it (the
round schedule's rows, each 64-bit rotation as the layout's two 32-bit ones, chi per word in
the schedule's forms, the interleaved round constants) and compares it with the reference.
"""

import os
import random
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from generator.model import keccak_maths as keccak, reference  # noqa: E402

M32 = (1 << 32) - 1


def rol32(x, n):
    return ((x << n) | (x >> (32 - n))) & M32 if n % 32 else x


def delta_swap_all(x, steps):
    for mask, shift in steps:
        t = (x ^ (x >> shift)) & mask
        x ^= t ^ (t << shift)
    return x


def words_of(lane):
    """What the C code does on load: sort each 32-bit half, then regroup the halves."""
    steps = keccak.delta_swaps()
    lo, hi = delta_swap_all(lane & M32, steps), delta_swap_all(lane >> 32, steps)
    return (lo & 0xFFFF) | (hi << 16) & M32, (lo >> 16) | (hi & 0xFFFF0000)


def lane_of(even, odd):
    steps = tuple(reversed(keccak.delta_swaps()))
    lo = delta_swap_all((even & 0xFFFF) | (odd << 16) & M32, steps)
    hi = delta_swap_all((even >> 16) | (odd & 0xFFFF0000), steps)
    return hi << 32 | lo


def run_interleaved(state, rounds, lane_complement, fused_parity):
    """Keccak-p[1600, rounds] on interleaved words, operation for operation as printed."""
    s = keccak.schedule(1, lane_complement, fused_parity)
    layout = keccak.lane_layout("interleaved")
    rc = keccak.interleaved_round_constants()
    mask = [M32 if i in s.pattern else 0 for i in range(25)]
    a = [[w ^ mask[i] for w in words_of(lane)] for i, lane in enumerate(state)]
    cols = keccak.COLUMN_LETTERS
    for ir in range(keccak.MAX_ROUNDS - rounds, keccak.MAX_ROUNDS):
        c = {cols[x]: [a[x][w] ^ a[x + 5][w] ^ a[x + 10][w] ^ a[x + 15][w] ^ a[x + 20][w]
                       for w in (0, 1)] for x in range(5)}
        d = {}
        for x in range(5):
            d[cols[x]] = []
            for w in (0, 1):
                src, n = layout.rotations[1][w]
                d[cols[x]].append(c[cols[(x + 4) % 5]][w] ^ rol32(c[cols[(x + 1) % 5]][src], n))
        out = [None] * 25
        for row in s.rows:
            b = {}
            for inp in row.inputs:
                b[inp.b] = []
                for w in (0, 1):
                    src, n = layout.rotations[inp.rot][w]
                    b[inp.b].append(rol32(a[inp.src][src] ^ d[cols[inp.d]][src], n))
            for copy, of in row.negated:
                b[copy] = [x ^ M32 for x in b[of]]
            for o in row.outputs:
                words = []
                for w in (0, 1):
                    bb = b[o.b][w] ^ (M32 if o.form.not_b else 0)
                    cc = b[o.c][w] ^ (M32 if o.form.not_c else 0)
                    t = bb & cc if o.form.op == "&" else bb | cc
                    words.append((b[o.a][w] ^ t) ^ (M32 if o.form.not_out else 0))
                if o.dst == keccak.IOTA_LANE:
                    words = [words[w] ^ rc[ir][w] for w in (0, 1)]
                out[o.dst] = words
        a = out
    return [lane_of(*words) ^ (mask[i] << 32 | mask[i]) for i, words in enumerate(a)]


class Interleaving(unittest.TestCase):
    def test_interleave_round_trips(self):
        rng = random.Random(7)
        for lane in [0, 1, 2, 1 << 63, (1 << 64) - 1] + [rng.getrandbits(64) for _ in range(200)]:
            even, odd = keccak.interleave(lane)
            self.assertEqual(keccak.deinterleave((even, odd)), lane)
            # the delta swaps the C code runs give the same words, and undo them
            self.assertEqual(words_of(lane), (even, odd))
            self.assertEqual(lane_of(even, odd), lane)

    def test_delta_swaps_sort_even_bits_low(self):
        for p in range(32):
            self.assertEqual(delta_swap_all(1 << p, keccak.delta_swaps()),
                             1 << ((p >> 1) | (p & 1) << 4), p)
        self.assertEqual([m for m, _ in keccak.delta_swaps()],
                         [0x22222222, 0x0C0C0C0C, 0x00F000F0, 0x0000FF00])

    def test_rotations_are_two_32_bit_rotations(self):
        rng = random.Random(8)
        for r in range(64):
            for _ in range(20):
                lane = rng.getrandbits(64)
                words = keccak.interleave(lane)
                got = tuple(rol32(words[src], n) for src, n in keccak.interleaved_rotation(r))
                self.assertEqual(keccak.deinterleave(got), reference.rol64(lane, r), r)
            # halved, with the parity choosing which word feeds which
            self.assertEqual({n for _, n in keccak.interleaved_rotation(r)},
                             {(r // 2) % 32} if r % 2 == 0 else {(r + 1) // 2 % 32, (r - 1) // 2})

    def test_round_constants(self):
        for rc, (even, odd) in zip(keccak.round_constants(), keccak.interleaved_round_constants()):
            self.assertEqual(keccak.deinterleave((even, odd)), rc)
        # iota's bits 2^j - 1: bit 0 is even, every other one odd
        self.assertEqual(keccak.interleaved_round_constants()[0], (1, 0))

    def test_interleaved_permutation_matches_reference(self):
        rng = random.Random(9)
        for lc in (False, True):
            for fused in (True, False):
                for rounds in (24, 12, 1):
                    state = [rng.getrandbits(64) for _ in range(25)]
                    self.assertEqual(run_interleaved(state, rounds, lc, fused),
                                     reference.keccak_p1600(state, rounds), (lc, fused, rounds))


if __name__ == "__main__":
    unittest.main()
