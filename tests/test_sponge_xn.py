# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The multi-buffer sponges' model: the kernel order per N (generator/sponge.py), the vectors
(generator/vectors.py) against hashlib lane by lane, and the API every bundle declares."""

import hashlib
import os
import re
import unittest

from generator.model import sponge_maths as sponge, vectors
from generator.choice import targets

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class KernelOrder(unittest.TestCase):
    # Per-instance costs relative to the single-state kernel, as cpu_table derives them.
    COSTS = {(8, "avx512"): 0.12, (4, "avx2"): 0.42}

    def test_measured_kernels_by_cost_wider_allowed(self):
        kernels = [(1, 8, "avx512"), (2, 4, "avx2")]
        for n in sponge.MULTI_BUFFER_WIDTHS:
            self.assertEqual(sponge.mb_kernel_order(n, kernels, self.COSTS), [1, 2])

    def test_a_wide_kernel_half_full_loses_to_a_full_one_where_it_costs_more(self):
        kernels = [(1, 8, "avx512"), (2, 4, "avx512vl")]
        costs = {(8, "avx512"): 0.2, (4, "avx512vl"): 0.26}
        self.assertEqual(sponge.mb_kernel_order(4, kernels, costs), [2, 1])
        self.assertEqual(sponge.mb_kernel_order(8, kernels, costs), [1, 2])

    def test_avx2_alone_runs_every_width(self):
        self.assertEqual(sponge.mb_kernel_order(2, [(1, 4, "avx2")], self.COSTS), [1])

    def test_a_kernel_dearer_than_single_states_is_left_out(self):
        self.assertEqual(sponge.mb_kernel_order(2, [(1, 8, "avx512")], {(8, "avx512"): 0.3}),
                         [])

    def test_unmeasured_kernels_only_where_they_divide(self):
        kernels = [(1, 2, "neon"), (2, 2, "sha3")]
        for n in sponge.MULTI_BUFFER_WIDTHS:
            self.assertEqual(sponge.mb_kernel_order(n, kernels, {}), [1, 2])
        self.assertEqual(sponge.mb_kernel_order(2, [(1, 4, "avx512vl")], {}), [])

    def test_no_kernel_no_order(self):
        self.assertEqual(sponge.mb_kernel_order(4, [], self.COSTS), [])


class Vectors(unittest.TestCase):
    LIB = {"sha3_224": hashlib.sha3_224, "sha3_256": hashlib.sha3_256,
           "sha3_384": hashlib.sha3_384, "sha3_512": hashlib.sha3_512,
           "shake128": hashlib.shake_128, "shake256": hashlib.shake_256}

    def test_every_function_lanes_differ_and_match_hashlib(self):
        cases = vectors.multi_buffer_cases()
        names = {f.name for f in sponge.HASHES + sponge.XOFS + sponge.TURBOSHAKES}
        self.assertEqual({c["function"] for c in cases}, names)
        for c in cases:
            self.assertEqual(len(c["expected"]), vectors.MB_LANES)
            if c["length"] and c["outlen"]:
                self.assertEqual(len(set(c["expected"])), vectors.MB_LANES, c["source"])
            if c["function"] in self.LIB:
                for lane, hexout in enumerate(c["expected"]):
                    h = self.LIB[c["function"]](vectors.mb_lane_message(c["length"], lane))
                    got = h.digest(c["outlen"]) if c["function"].startswith("shake") \
                        else h.digest()
                    self.assertEqual(got.hex(), hexout, c["source"])

    def test_block_edges_covered(self):
        for f in sponge.HASHES + sponge.XOFS + sponge.TURBOSHAKES:
            lengths = {c["length"] for c in vectors.multi_buffer_cases()
                       if c["function"] == f.name}
            for k in (0, 1, 2, 3):
                self.assertIn(k * f.rate, lengths, f.name)


class SameApiEveryBundle(unittest.TestCase):
    def test_committed_bundles_declare_the_same_functions(self):
        declared = {}
        for name in targets.CANONICAL_BUNDLES:
            with open(os.path.join(ROOT, "out", name, "keccak_sponge.h")) as f:
                text = f.read()
            declared[name] = set(re.findall(r"\b(\w+_x[248](?:_\w+)?)\(", text))
        first = declared[targets.CANONICAL_BUNDLES[0]]
        self.assertEqual(len(first), 3 * (5 + 4 * 4))
        for name, fns in declared.items():
            self.assertEqual(fns, first, name)


if __name__ == "__main__":
    unittest.main()
