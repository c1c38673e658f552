# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Bundles shaped by tuned profiles (generator/choice/bundle_shape.py): the multi-state kernels'
unrolls by their worst loss over every profile, the scalar Keccak shape by the canonical
machine's winner, the same on any machine that regenerates them."""

import os
import sys
import unittest
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from generator.emit import bundle  # noqa: E402
from generator.choice import bundle_shape, profiles, targets  # noqa: E402

X86 = targets.BUNDLES["x86_64"]


def row(name, median):
    return {"variant": name, "status": "ok", "median_24": median}


def shaped(choices, candidates=None):
    """The x86_64 bundle shaped by a canonical profile of these choices alone (no minimax
    over other profiles)."""
    with mock.patch.object(bundle_shape, "canonical", return_value=(choices, candidates or {})), \
            mock.patch.object(bundle_shape.cpu_table, "minimax_variant", return_value=None):
        return bundle_shape.shaped(X86)


class Shape(unittest.TestCase):
    def path(self, b, name):
        return next(p for p in b.paths if p.name == name)

    def test_every_path_keeps_its_chacha_level_the_table_chooses_at_run_time(self):
        for won in ("chacha-x8-seq-pshufb-avx2", "chacha-x16-step-vprold-avx512"):
            b, _ = shaped({"chacha": won})
            self.assertEqual([p.chacha for p in b.paths], [p.chacha for p in X86.paths])

    def test_leaves_take_the_unroll_with_the_least_worst_loss(self):
        def native(cpu, figures):
            return (f"{cpu}.json", {"key": {"arch": "x86_64"}, "candidates": {
                "keccak_x8_avx512": [row(f"keccakp1600-x8-u{u}-avx512", m)
                                     for u, m in figures.items()]}})
        # u3 is best on one CPU and 10% behind on the other; u2 never more than 2% behind.
        fake = [native("a", {1: 120, 2: 102, 3: 100, 4: 130}),
                native("b", {1: 100, 2: 101, 3: 110, 4: 105})]
        with mock.patch.object(bundle_shape.cpu_table, "load", return_value=fake):
            b, _ = shaped({})
        self.assertEqual(self.path(b, "avx512").kt_leaves[0], "x8-u2-avx512")
        # Classes no profile measured keep the spec as listed.
        self.assertEqual(self.path(b, "avx2").kt_leaves, ("x4-avx2",))

    def test_the_scalar_shape_is_the_profiles_in_portable_c(self):
        _, k = shaped({"keccak_scalar": "keccakp1600-u6-lc-separate-rorx-scalar"})
        self.assertEqual(k.name, "keccakp1600-u6-lc-separate-builtin-scalar")
        _, k = shaped({"keccak_scalar": "keccakp1600-u2-lc-fused-rorx-x86asm"})
        self.assertEqual(k.isa, "scalar")
        _, k = shaped({"keccak_scalar": "keccakp1600-u2-avx512"})
        self.assertEqual(k, targets.default_keccak(targets.get("x86_64"), "gcc"))

    def test_a_flavour_without_andn_takes_lane_complementing(self):
        _, k = shaped({"keccak_scalar": "keccakp1600-u3-nolc-separate-rorx-scalar"})
        plain, bmi2 = targets.KECCAK_FLAVOURS["scalar"], targets.KECCAK_FLAVOURS["bmi2"]
        self.assertEqual(bundle_shape.flavour_shape(k, bmi2), k)
        self.assertEqual(bundle_shape.flavour_shape(k, plain).name,
                         "keccakp1600-u3-lc-separate-builtin-scalar")
        # The counts it goes by: chi's NOTs a round, with and without ANDN.
        self.assertEqual([bundle_shape.explicit_nots(lc, andn) for lc in (False, True)
                          for andn in (False, True)], [25, 0, 5, 5])
        # The committed bundle: its plain flavour is its BMI2 flavour's shape, complemented.
        _, carried = bundle_shape.shaped(X86)
        files = bundle.files(X86, "", "test")
        for name, flavour in (("scalar", plain), ("bmi2", bmi2)):
            self.assertIn(f"keccak_p1600.c: {bundle_shape.flavour_shape(carried, flavour).name}.",
                          files[f"keccak_p1600_{name}.c"])

    def test_the_carried_shape_is_the_least_worst_loss_over_the_compilers_profiles(self):
        def native(cpu, figures):
            return (f"{cpu}.json", {"key": {"arch": "x86_64", "compiler": "gcc"}, "candidates": {
                "chacha": [{"variant": v, "status": "ok", "bulk_median": m}
                           for v, m in figures.items()]}})
        # x32 is best on one CPU and 60% behind on the other; x16 never more than 5% behind.
        fake = [native("a", {"chacha-x32-seq-shift-avx512": 0.24,
                             "chacha-x16-step-vprold-avx512": 0.25}),
                native("b", {"chacha-x32-seq-shift-avx512": 0.55,
                             "chacha-x16-step-vprold-avx512": 0.34})]
        with mock.patch.object(bundle_shape, "canonical",
                               return_value=({"chacha": "chacha-x32-seq-shift-avx512"}, {})), \
                mock.patch.object(bundle_shape.cpu_table, "load", return_value=fake):
            choices, _ = bundle_shape.carried("gcc", targets.get("x86_64"))
        self.assertEqual(choices["chacha"], "chacha-x16-step-vprold-avx512")

    def test_without_a_profile_the_bundle_is_as_listed(self):
        with mock.patch.object(bundle_shape.cpu_table, "load", return_value=[]):
            b, k = shaped({})
        self.assertEqual(b, X86)
        self.assertEqual(k, targets.default_keccak(targets.get("x86_64"), "gcc"))


class Canonical(unittest.TestCase):
    def test_the_committed_profiles_exist_and_shape_the_x86_bundle_only(self):
        for cc, name in targets.CANONICAL_PROFILES.items():
            self.assertTrue(os.path.exists(os.path.join(profiles.PROFILE_DIR, name)), name)
            choices, _ = bundle_shape.canonical(cc, targets.get("x86_64"))
            self.assertIn("chacha", choices)
            self.assertEqual(bundle_shape.canonical(cc, targets.get("aarch64")), ({}, {}))

    def test_the_bundles_do_not_depend_on_the_machine_that_generates_them(self):
        here = bundle.files(X86, "", "cmd")
        other = mock.patch.object(profiles, "cpu_identity",
                                  return_value=("Intel(R) Xeon(R) Platinum 8581C", []))
        with other, mock.patch.object(profiles, "cpu_family_model",
                                      return_value="family 6 model 207"):
            self.assertEqual(bundle.files(X86, "", "cmd"), here)


if __name__ == "__main__":
    unittest.main()
