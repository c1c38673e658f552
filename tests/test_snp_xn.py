# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The parallel SnP model (generator/snp_xn.py) against hashlib, and its scripts' shape."""

import hashlib
import unittest

from generator.model import snp_xn_model as snp_xn


class Model(unittest.TestCase):
    def test_shake128_per_instance(self):
        # N messages of 3 blocks (168 bytes each), laid out one after the other, absorbed by
        # FastLoop_Absorb with laneOffsetParallel = 3 blocks, then padded and squeezed.
        for n in snp_xn.WIDTHS:
            st = snp_xn.States(n)
            msgs = [bytes((7 * k + j) & 0xFF for k in range(3 * 168)) for j in range(n)]
            data = b"".join(msgs)
            self.assertEqual(st.fast_loop(24, 21, 3 * 21, 21, data, len(data)), 3 * 168)
            for j in range(n):
                st.add_byte(j, 0x1F, 0)
                st.add_byte(j, 0x80, 167)
            st.permute(24)
            for j in range(n):
                self.assertEqual(st.extract_bytes(j, 0, 64),
                                 hashlib.shake_128(msgs[j]).digest(64))

    def test_fast_loop_is_lanes_and_permutation(self):
        data = bytes(snp_xn.DATA[:4000])
        for n in snp_xn.WIDTHS:
            a, b = snp_xn.States(n), snp_xn.States(n)
            ret = a.fast_loop(12, 17, 40, 9, data, 8 * ((n - 1) * 40 + 17) + 8 * 9 + 5)
            self.assertEqual(ret, 2 * 8 * 9)
            for k in range(2):
                b.add_lanes_all(data[8 * 9 * k:], 17, 40)
                b.permute(12)
            self.assertEqual(a.dump(), b.dump())

    def test_scripts_deterministic_and_complete(self):
        first, second = snp_xn.scripts(), snp_xn.scripts()
        self.assertEqual(first, second)
        for steps in first.values():
            self.assertEqual({s["kind"] for s in steps}, set(snp_xn.KINDS))
            self.assertTrue(all(len(s["expected"]) < 4096 for s in steps))


if __name__ == "__main__":
    unittest.main()
