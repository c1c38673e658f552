# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The cross target descriptions: each complete enough for ninja test-cross, none asking for
instructions its architecture lacks."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from generator.choice import targets, variants  # noqa: E402
from generator.errors import UsageError  # noqa: E402


class CrossTargets(unittest.TestCase):
    def test_descriptions_complete(self):
        for t in targets.CROSS_TARGETS.values():
            self.assertTrue(t.triplet and t.qemu.startswith("qemu-"), t.name)
            self.assertIn(t.byte_order, ("little", "big"))
            self.assertIs(targets.get(t.name), t)

    def test_no_x86_asm_rotations(self):
        # rol and rorx are x86-64 inline asm: they would not assemble on these targets.
        for t in targets.CROSS_TARGETS.values():
            self.assertEqual(set(t.rotations) & {"rol", "rorx"}, set(), t.name)
            self.assertLessEqual(set(t.vector_isas), {"neon", "sha3"}, t.name)
            self.assertIn(targets.default_keccak(t, "gcc").rotate, t.rotations)

    def test_cross_subset(self):
        # Every rotation x lane complementing x parity at each cross unroll, nothing else.
        t = targets.CROSS_TARGETS["s390x"]
        space = variants.keccak_cross_space(t, set())
        self.assertEqual(len(space), len(variants.CROSS_UNROLLS) * 2 * 2 * len(t.rotations))
        self.assertEqual({v.unroll for v in space}, set(variants.CROSS_UNROLLS))

    def test_aarch64_single_state_sha3(self):
        # The SHA3-extension kernel behind the scalar API joins aarch64's cross suite at the
        # cross unrolls, needing the sha3 HWCAP at run time; other targets refuse it.
        t = targets.CROSS_TARGETS["aarch64"]
        singles = [v for v in variants.keccak_cross_space(t, set())
                   if isinstance(v, variants.SimdKeccakVariant)]
        self.assertEqual([(v.isa, v.unroll) for v in singles],
                         [("sha3", u) for u in variants.CROSS_UNROLLS])
        self.assertEqual(singles[0].cpu_needs(), ("sha3",))
        self.assertEqual(singles[0].name, "keccakp1600-u1-sha3")
        with self.assertRaises(UsageError):
            targets.check_vector(targets.TARGETS["x86_64"], singles[0])

    def test_big_endian_target_present(self):
        self.assertIn("big", {t.byte_order for t in targets.CROSS_TARGETS.values()})


if __name__ == "__main__":
    unittest.main()
