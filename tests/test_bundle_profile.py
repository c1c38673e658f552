# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Bundles shaped by the canonical machine's tuned profiles (generator/bundle_profile.py):
each path's ChaCha level, KT128 leaves and the scalar Keccak shape follow the profile's
winners, the same on any machine that regenerates them."""

import os
import sys
import unittest
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from generator import bundle, bundle_profile, profiles, targets  # noqa: E402

X86 = targets.BUNDLES["x86_64"]


def row(name, median):
    return {"variant": name, "status": "ok", "median_24": median}


def shaped(choices, candidates=None):
    with mock.patch.object(bundle_profile, "canonical", return_value=(choices, candidates or {})):
        return bundle_profile.shaped(X86)


class Shape(unittest.TestCase):
    def path(self, b, name):
        return next(p for p in b.paths if p.name == name)

    def test_avx2_chacha_on_an_avx512_machine_runs_on_its_avx512_path(self):
        b, _ = shaped({"chacha": "chacha-x8-seq-pshufb-avx2"})
        self.assertEqual(self.path(b, "avx512").chacha, "avx2")
        self.assertEqual(self.path(b, "sse2").chacha, "sse2")
        b, _ = shaped({"chacha": "chacha-x16-step-vprold-avx512"})
        self.assertEqual(self.path(b, "avx512").chacha, "avx512")

    def test_leaves_take_the_tuned_unroll_and_x4_replaces_a_slower_x8(self):
        choices = {"keccak_x8_avx512": "keccakp1600-x8-u6-avx512",
                   "keccak_x4_avx2": "keccakp1600-x4-u1-avx2"}
        rows = {"keccak_x8_avx512": [row("keccakp1600-x8-u6-avx512", 130)],
                "keccak_x4_avx2": [row("keccakp1600-x4-u1-avx2", 140)]}
        b, _ = shaped(choices, rows)
        self.assertEqual(self.path(b, "avx512").kt_leaves, ("x8-u6-avx512", "x4-u1-avx2"))
        rows["keccak_x8_avx512"] = [row("keccakp1600-x8-u6-avx512", 150)]
        b, _ = shaped(choices, rows)
        self.assertEqual(self.path(b, "avx512").kt_leaves, ("x4-u1-avx2",))
        self.assertEqual(self.path(b, "avx2").kt_leaves, ("x4-u1-avx2",))

    def test_the_scalar_shape_is_the_profiles_in_portable_c(self):
        _, k = shaped({"keccak_scalar": "keccakp1600-u6-lc-separate-rorx-scalar"})
        self.assertEqual(k.name, "keccakp1600-u6-lc-separate-builtin-scalar")
        _, k = shaped({"keccak_scalar": "keccakp1600-u2-lc-fused-rorx-x86asm"})
        self.assertEqual(k.isa, "scalar")
        _, k = shaped({"keccak_scalar": "keccakp1600-u2-avx512"})
        self.assertEqual(k, targets.default_keccak(targets.get("x86_64"), "gcc"))

    def test_without_a_profile_the_bundle_is_as_listed(self):
        b, k = shaped({})
        self.assertEqual(b, X86)
        self.assertEqual(k, targets.default_keccak(targets.get("x86_64"), "gcc"))


class Canonical(unittest.TestCase):
    def test_the_committed_profiles_exist_and_shape_the_x86_bundle_only(self):
        for cc, name in targets.CANONICAL_PROFILES.items():
            self.assertTrue(os.path.exists(os.path.join(profiles.PROFILE_DIR, name)), name)
            choices, _ = bundle_profile.canonical(cc, targets.get("x86_64"))
            self.assertIn("chacha", choices)
            self.assertEqual(bundle_profile.canonical(cc, targets.get("aarch64")), ({}, {}))

    def test_the_bundles_do_not_depend_on_the_machine_that_generates_them(self):
        here = bundle.files(X86, "", "cmd")
        other = mock.patch.object(profiles, "cpu_identity",
                                  return_value=("Intel(R) Xeon(R) Platinum 8581C", []))
        with other, mock.patch.object(profiles, "cpu_family_model",
                                      return_value="family 6 model 207"):
            self.assertEqual(bundle.files(X86, "", "cmd"), here)


if __name__ == "__main__":
    unittest.main()
