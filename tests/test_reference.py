# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The Python reference, which computes every non-official vector, checked against the
Keccak team's step-by-step values and against hashlib's SHA-3 and SHAKE."""

import hashlib
import random
import unittest

from generator.model import reference, vectors


class IntermediateValues(unittest.TestCase):
    def test_every_step_of_every_round(self):
        _, _, examples = vectors.keccak_intermediate(vectors.default_dir())
        self.assertEqual(len(examples), 2)
        for n, example in enumerate(examples):
            state = example["input"]
            for ir, published in enumerate(example["rounds"]):
                for step, value in reference.round_steps(state, ir):
                    self.assertEqual(value, published[step], f"example {n} round {ir} {step}")
                state = value
            self.assertEqual(state, example["output"])
            self.assertEqual(reference.keccak_p1600(example["input"]), example["output"])

    def test_twelve_rounds_are_the_last_twelve(self):
        rng = random.Random(1)
        state = [rng.getrandbits(64) for _ in range(25)]
        a = state
        for ir in range(12, 24):
            for _, a in reference.round_steps(a, ir):
                pass
        self.assertEqual(reference.keccak_p1600(state, 12), a)
        self.assertEqual(reference.keccak_p1600(state, 0), state)


class AgainstHashlib(unittest.TestCase):
    def test_sha3_and_shake_through_a_small_sponge(self):
        rng = random.Random(2)
        for length in (0, 1, 71, 72, 135, 136, 137, 168, 300):
            msg = bytes(rng.getrandbits(8) for _ in range(length))
            self.assertEqual(reference.sha3(256, msg), hashlib.sha3_256(msg).digest(), length)
            self.assertEqual(reference.sha3(512, msg), hashlib.sha3_512(msg).digest(), length)
            self.assertEqual(reference.shake(128, msg, 400),
                             hashlib.shake_128(msg).digest(400), length)


class ComputedVectors(unittest.TestCase):
    def test_cases_are_deterministic_and_cover_every_round_count(self):
        a = vectors.keccak_cases(vectors.default_dir())
        b = vectors.keccak_cases(vectors.default_dir())
        self.assertEqual(a, b)
        self.assertEqual({rounds for _, rounds, _, _ in a}, set(range(25)))
        self.assertGreaterEqual(sum(1 for name, *_ in a if name.startswith("random state ")), 64)


if __name__ == "__main__":
    unittest.main()
