# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The pieces the reliability checks stand on: the subsets and the summary."""

import contextlib
import io
import itertools
import os
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))

from generator.choice import targets, variants  # noqa: E402
from generator.errors import UsageError  # noqa: E402
import summarize  # noqa: E402


class RepresentativeSubset(unittest.TestCase):
    def setUp(self):
        self.space = variants.keccak_scalar_space(targets.get("x86_64"),
                                                  {"gnu-asm-x86-64", "asm-bmi2"})
        self.subset = variants.keccak_subset(self.space, "representative")

    def test_every_shape_at_unroll_2_and_every_unroll(self):
        chosen = {(v.unroll, v.lane_complement, v.parity, v.rotate, v.isa) for v in self.subset}
        for lc, parity, rotate in itertools.product(
                (False, True), variants.PARITIES, variants.ROTATIONS):
            self.assertIn((2, lc, parity, rotate, "scalar"), chosen)
        for v in self.space:
            if v.isa == "x86asm":
                self.assertIn(v, self.subset)
        for unroll, lc, parity in itertools.product((1, 3), (False, True), variants.PARITIES):
            self.assertIn((unroll, lc, parity, "builtin", "scalar"), chosen)
        for unroll in variants.KECCAK_UNROLLS:
            for parity in variants.PARITIES:
                self.assertIn((unroll, True, parity, "builtin", "scalar"), chosen)
        self.assertLess(len(self.subset), len(self.space) // 3)
        self.assertTrue(set(self.subset) <= set(self.space))
        self.assertEqual(variants.keccak_subset(self.space, "valgrind"), self.subset)

    def test_all_is_all_and_unknown_is_refused(self):
        self.assertEqual(variants.keccak_subset(self.space, "all"), self.space)
        with self.assertRaises(UsageError):
            variants.keccak_subset(self.space, "most")


X86_CAPS = {"intrin-sse2", "intrin-avx2", "intrin-avx512", "x86-target-attr"}


class VectorAndChachaSubsets(unittest.TestCase):
    def setUp(self):
        self.target = targets.get("x86_64")
        self.simd = variants.keccak_simd_space(self.target, X86_CAPS)
        self.chacha = variants.chacha_space(self.target, X86_CAPS)

    def test_every_simd_shape_once(self):
        shapes = {(v.instances, v.isa) for v in self.simd}
        subset = variants.keccak_simd_subset(self.simd, "representative")
        self.assertEqual({(v.instances, v.isa) for v in subset}, shapes)
        self.assertEqual(len(subset), len(shapes))

    def test_every_chacha_level_and_width_once(self):
        subset = variants.chacha_subset(self.chacha, "representative")
        self.assertEqual({v.isa for v in subset}, set(self.target.chacha_isas))
        self.assertEqual(len({(v.isa, v.width) for v in subset}), len(subset))
        self.assertIn(32, {v.width for v in subset})

    def test_valgrind_subsets_leave_avx512_out(self):
        for subset in (variants.keccak_simd_subset(self.simd, "valgrind"),
                       variants.chacha_subset(self.chacha, "valgrind")):
            self.assertTrue(subset)
            self.assertFalse([v for v in subset if "avx512" in v.isa])
        self.assertEqual({v.isa for v in variants.chacha_subset(self.chacha, "valgrind")},
                         {"scalar", "sse2", "ssse3", "avx2"})

    def test_all_is_all_and_unknown_is_refused(self):
        self.assertEqual(variants.chacha_subset(self.chacha, "all"), self.chacha)
        self.assertEqual(variants.keccak_simd_subset(self.simd, "all"), self.simd)
        with self.assertRaises(UsageError):
            variants.chacha_subset(self.chacha, "most")


class Summary(unittest.TestCase):
    def summary(self, text):
        with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
            f.write(text)
        try:
            return summarize.summarize(f.name)
        finally:
            os.unlink(f.name)

    def test_tap_lines_count(self):
        text = ("1..4\nok 1 - a: constant time\nnot ok 2 - b: secret-dependent branch\n"
                "ok 3 - c # SKIP this CPU lacks bmi2\nok 4 - d\nexit status 1\n")
        self.assertEqual(self.summary(text), (2, 1, 1, False))

    def test_a_log_without_results_is_broken(self):
        p, f, s, broken = self.summary("==1== ERROR: AddressSanitizer: heap-buffer-overflow\n"
                                       "exit status 1\n")
        self.assertTrue(broken)

    def test_check_and_unittest_lines_still_count(self):
        self.assertEqual(self.summary("100%: Checks: 7, Failures: 0, Errors: 0\n"
                                      "exit status 0\n"), (7, 0, 0, False))
        self.assertEqual(self.summary("Ran 5 tests in 1s\n\nFAILED (failures=2)\n"
                                      "exit status 1\n"), (3, 2, 0, False))

    def test_skips_are_listed_by_name(self):
        text = ("test_a (tests.e2e_x.C.test_a) ... ok\n"
                "test_b (tests.e2e_x.C.test_b)\nIts docstring. ... skipped 'qemu-aarch64 not "
                "installed (apt-get install -y qemu-user)'\n"
                "SKIP keccakp1600-x8-u1-avx512: this CPU lacks avx512f\n"
                "ok 3 - gcc sponge # SKIP no AVX-512 under valgrind\n"
                "Ran 2 tests in 1s\n\nOK (skipped=1)\nexit status 0\n")
        with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
            f.write(text)
        try:
            self.assertEqual(summarize.summarize(f.name), (1, 0, 3, False))
            self.assertEqual(summarize.skips(f.name), [
                (f"{f.name}: keccakp1600-x8-u1-avx512", "this CPU lacks avx512f"),
                (f"{f.name}: gcc sponge", "no AVX-512 under valgrind"),
                ("tests.e2e_x.C.test_b", "qemu-aarch64 not installed (apt-get install -y "
                                         "qemu-user)")])
            said = io.StringIO()
            with contextlib.redirect_stdout(said):
                self.assertEqual(summarize.main([f.name]), 0)
            lines = said.getvalue().splitlines()
            self.assertIn("  tests.e2e_x.C.test_b: skipped: qemu-aarch64 not installed "
                          "(apt-get install -y qemu-user)", lines)
            self.assertEqual(lines[-1], "1 passed, 0 failed, 3 skipped")
        finally:
            os.unlink(f.name)

    def test_a_log_of_skips_alone_is_not_broken(self):
        # What configure writes for the edges it left out (build/skipped.log).
        self.assertEqual(self.summary("SKIP the MSVC-mode syntax check: clang not installed "
                                      "(apt-get install -y clang)\n"), (0, 0, 1, False))


if __name__ == "__main__":
    unittest.main()
