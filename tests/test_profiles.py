"""Tuned profiles: the key that makes one apply, the warning that names a mismatch, and the
candidate space of the tuner."""

import json
import os
import tempfile
import unittest
from unittest import mock

from generator import profiles, targets, tune, variants


class Profiles(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        patcher = mock.patch.object(profiles, "PROFILE_DIR", self.tmp.name)
        patcher.start()
        self.addCleanup(patcher.stop)
        self.addCleanup(self.tmp.cleanup)

    def test_a_matching_profile_picks_its_variant(self):
        k = profiles.key("gcc", "12.2.0", "-O3")
        profiles.save(k, {"keccak_scalar": "keccakp1600-u6-lc-separate-rol-scalar"},
                      [{"variant": "keccakp1600-u6-lc-separate-rol-scalar",
                        "cycles_24": 600.0}], "test")
        v, warning = profiles.lookup("gcc", "12.2.0", "-O3")
        self.assertIsNone(warning)
        self.assertEqual(v, variants.KeccakVariant(unroll=6, lane_complement=True,
                                                   parity="separate", rotate="rol"))

    def test_a_mismatch_is_ignored_with_a_warning_naming_it(self):
        k = profiles.key("gcc", "12.2.0", "-O3")
        path = profiles.save(k, {"keccak_scalar": "keccakp1600-u6-lc-separate-rol-scalar"},
                             [], "test")
        with open(path) as f:
            data = json.load(f)
        data["key"]["sources"] = "0" * 16
        with open(path, "w") as f:
            json.dump(data, f)
        v, warning = profiles.lookup("gcc", "12.2.0", "-O3")
        self.assertIsNone(v)
        self.assertIn("sources", warning)
        v, warning = profiles.lookup("gcc", "12.2.0", "-O2")
        self.assertIsNone(v)
        self.assertIn("cflags is '-O2'", warning)

    def test_no_profile_no_warning(self):
        self.assertEqual(profiles.lookup("clang", "1", "-O1"), (None, None))


class Candidates(unittest.TestCase):
    def test_quick_is_a_pruned_subset(self):
        target = targets.get("x86_64")
        caps = ["gnu-asm-x86-64", "asm-bmi2"]
        full = tune.candidates(target, caps, quick=False)
        quick = tune.candidates(target, caps, quick=True)
        self.assertTrue(set(quick) < set(full))
        self.assertTrue(all(not v.lane_complement for v in quick if v.isa == "scalar"))
        for cc in ("gcc", "clang", "tcc"):
            self.assertIn(targets.default_keccak(target, cc), quick)

    def test_names_round_trip(self):
        for v in variants.keccak_scalar_space(targets.get("x86_64"),
                                              {"gnu-asm-x86-64", "asm-bmi2"}):
            self.assertEqual(variants.keccak_from_name(v.name), v)


if __name__ == "__main__":
    unittest.main()
