# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The registry of kernel kinds (generator/choice/kinds.py): the templates a kind depends on
are read from the templates, with or without Jinja2, and every kernel the tuners can record
is one of its entries."""

import os
import sys
import unittest
from unittest import mock

from generator.choice import kinds, profiles, targets, variants
from generator.measure import tune


class Templates(unittest.TestCase):
    def test_a_kind_depends_on_what_its_templates_import(self):
        chacha = kinds.sources(kinds.BY_NAME["chacha"])
        for t in ("chacha.c.j2", "_chacha_simd.j2", "_chacha_neon.j2", "_chacha_wasm.j2",
                  "_portability.j2"):
            self.assertIn("templates/" + t, chacha)
        scalar = kinds.sources(kinds.BY_NAME["keccak_scalar"])
        # Imported by the single-state AVX-512 kernel only: reached through it.
        self.assertIn("templates/keccak_p1600_avx512.c.j2", scalar)
        self.assertIn("templates/_vec64.j2", scalar)

    def test_the_fallback_reads_the_same_imports_as_jinja2(self):
        with_jinja = {k.name: kinds.sources(k) for k in kinds.KINDS}
        kinds.referenced.cache_clear()
        try:
            with mock.patch.dict(sys.modules, {"jinja2": None, "jinja2.meta": None}):
                without = {k.name: kinds.sources(k) for k in kinds.KINDS}
        finally:
            kinds.referenced.cache_clear()
        self.assertEqual(with_jinja, without)

    def test_every_source_exists(self):
        for kind in kinds.KINDS:
            for rel in kinds.sources(kind):
                self.assertTrue(os.path.isfile(os.path.join(kinds.ROOT, rel)), rel)

    def test_the_profiles_hash_the_registry_sources(self):
        self.assertEqual(profiles.SHAPING, {k.name: kinds.sources(k) for k in kinds.KINDS})


class Entries(unittest.TestCase):
    def test_every_tuned_kernel_is_an_entry(self):
        target = targets.TARGETS["x86_64"]
        caps = {"asm-bmi2", "gnu-asm-x86-64", "intrin-avx2", "intrin-avx512", "intrin-sse2",
                "x86-target-attr"}
        found = {tune.kernel_of(v) for v in tune.candidates(target, caps, False)
                 + tune.simd_candidates(target, caps, False)
                 + tune.chacha_candidates(target, caps, False)}
        self.assertEqual(found, set(kinds.BY_NAME["keccak_scalar"].entries
                                    + kinds.BY_NAME["keccak_simd"].entries
                                    + kinds.BY_NAME["chacha"].entries))

    def test_the_x_n_entries_are_the_multi_state_shapes(self):
        self.assertEqual(set(kinds.BY_NAME["keccak_simd"].entries),
                         {f"keccak_x{n}_{isa}" for n, isa in variants.SIMD_SHAPES if n > 1})
        self.assertEqual(kinds.BY_NAME["keccak_x2_arm"].entries,
                         tuple(f"keccak_x2_{isa}" for isa in targets.ARM_X2_ISAS))

    def test_every_built_kind_has_its_build_graph_row(self):
        from generator.buildgraph import families, goals
        rows = {f.name: f for f in families.FAMILIES}
        for kind in kinds.KINDS:
            if kind.build:
                self.assertIn(kind.build, rows)
                self.assertTrue(os.path.isfile(os.path.join(kinds.ROOT, rows[kind.build].check)))
        self.assertEqual(goals.TUNED, ("simd", "chacha"))

    def test_an_entry_names_its_kind(self):
        self.assertEqual(profiles.family_of("keccak_x2_simd128"), "keccak_x2_arm")
        self.assertEqual(profiles.family_of("keccak_x8_avx512"), "keccak_simd")
        self.assertEqual(profiles.family_of("blake3"), "blake3")


if __name__ == "__main__":
    unittest.main()
