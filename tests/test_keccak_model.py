# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The Keccak model against the Keccak team's published values and its own invariants."""

import unittest

from generator.model import keccak_maths as keccak, reference, vectors


class PublishedValues(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.rc, cls.rho, cls.examples = vectors.keccak_intermediate(vectors.default_dir())

    def test_round_constants_from_lfsr(self):
        self.assertEqual(list(keccak.round_constants()), self.rc)

    def test_rho_offsets_from_walk(self):
        self.assertEqual(list(keccak.rho_offsets()), self.rho)

    def test_pi_matches_every_published_round(self):
        for example in self.examples:
            for ir, steps in enumerate(example["rounds"]):
                self.assertEqual(reference.pi(steps["rho"]), steps["pi"], f"round {ir}")

    def test_pi_is_a_permutation_fixing_lane_zero(self):
        sources = [keccak.pi_source(i % 5, i // 5) for i in range(25)]
        self.assertEqual(sorted(sources), list(range(25)))
        self.assertEqual(sources[0], 0)


class Schedule(unittest.TestCase):
    def test_lane_sets_close_the_loop_without_copies(self):
        for unroll in keccak.divisors(24):
            seq = keccak.set_sequence(unroll)
            self.assertEqual(len(seq), unroll + 1)
            self.assertEqual(seq[0], "A")
            if unroll > 1:
                self.assertEqual(seq[-1], "A", unroll)
            for a, b in zip(seq, seq[1:]):
                self.assertNotEqual(a, b, f"unroll {unroll} reads and writes one set")

    def test_unroll_must_divide_the_round_count(self):
        with self.assertRaises(ValueError):
            keccak.schedule(5, False)

    def test_lane_complementing_saves_nots(self):
        # The Keccak team's pattern leaves one NOT per row: 5 per round instead of 25.
        self.assertEqual(keccak.nots_per_round(keccak.BEBIGOKIMISA), 5)
        self.assertEqual(keccak.nots_per_round(frozenset()), 25)

    def test_chi_forms_compute_chi_for_every_mask(self):
        """Evaluate each printed chi form on all bit patterns and compare with chi."""
        for pattern in (frozenset(), keccak.BEBIGOKIMISA):
            masks = keccak.theta_masks(pattern)
            for row_y, row in enumerate(keccak.round_rows(pattern)):
                b_mask = {i.b: masks[i.src] for i in row.inputs}
                for copy, of in row.negated:
                    b_mask[copy] = b_mask[of] ^ 1
                names = [i.b for i in row.inputs]
                for bits in range(32):
                    true = [(bits >> x) & 1 for x in range(5)]
                    stored = {n: true[x] ^ b_mask[n] for x, n in enumerate(names)}
                    for copy, of in row.negated:
                        stored[copy] = stored[of] ^ 1
                    for x, out in enumerate(row.outputs):
                        f = out.form
                        b = stored[out.b] ^ f.not_b
                        c = stored[out.c] ^ f.not_c
                        term = (b & c) if f.op == "&" else (b | c)
                        got = stored[out.a] ^ term ^ f.not_out
                        want = true[x] ^ ((1 - true[(x + 1) % 5]) & true[(x + 2) % 5])
                        want ^= 1 if out.dst in pattern else 0
                        self.assertEqual(got, want, (sorted(pattern), row_y, x, bits))


if __name__ == "__main__":
    unittest.main()
