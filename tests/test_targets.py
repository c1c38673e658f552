"""The cross target descriptions: each complete enough for ninja test-cross, none asking for
instructions its architecture lacks."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from generator import targets, variants  # noqa: E402


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

    def test_big_endian_target_present(self):
        self.assertIn("big", {t.byte_order for t in targets.CROSS_TARGETS.values()})


if __name__ == "__main__":
    unittest.main()
