# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The wasm32 target without a wasm toolchain: its bundle's shape (two paths chosen when
compiling), the JavaScript files it carries and their agreement with the module's exports,
and the candidates `bench --target wasm32` races. tests/e2e_wasm.py builds and runs it."""

import argparse
import json
import os
import re
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from generator.emit import bundle, vendor  # noqa: E402
from generator.model import sponge_maths as sponge  # noqa: E402
from generator.choice import targets, variants  # noqa: E402
from generator.measure import wasm_bench  # noqa: E402
from generator.errors import UsageError  # noqa: E402


class Shape(unittest.TestCase):
    def test_two_paths_chosen_by_the_compiler(self):
        b = targets.BUNDLES["wasm32"]
        self.assertEqual([p.name for p in b.paths], ["scalar", "simd128"])
        self.assertEqual(b.paths[1].requires, "defined(__wasm_simd128__)")
        self.assertIn("wasm32", targets.CANONICAL_BUNDLES)

    def test_defaults_are_the_engine_races_winners(self):
        t = targets.get("wasm32")
        self.assertEqual(targets.default_keccak(t, "clang").name,
                         "keccakp1600-u1-lc-separate-builtin-scalar")
        self.assertEqual(targets.default_chacha(t, "gcc").name, "chacha-x8-step-shift-simd128")
        self.assertEqual(targets.arm_x2("x2-simd128", t), ("simd128", targets.DEFAULT_SIMD_UNROLL))
        with self.assertRaises(UsageError):
            targets.arm_x2("x2-neon", t)

    def test_the_dispatch_asks_nothing_of_the_cpu(self):
        d = bundle.Dispatch(targets.BUNDLES["wasm32"], targets.get("wasm32"), "")
        self.assertEqual(d.arch, "wasm")
        self.assertEqual([p["cpu"] for p in d.paths], [[], []])


class Files(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.files = bundle.folder(targets.BUNDLES["wasm32"], "", bundle.CANONICAL_COMMAND)

    def test_the_javascript_files_are_in_the_folder_and_its_build_files(self):
        for name in vendor.WASM_FILES:
            self.assertIn(name, self.files)
        self.assertIn("roundsmith_wasm.c", self.files["CMakeLists.txt"])
        pkg = json.loads(self.files["package.json"])
        self.assertTrue(pkg["private"])
        self.assertEqual(pkg["exports"]["."]["default"], "./roundsmith.mjs")
        self.assertIn("SPDX-License-Identifier: CC0-1.0", pkg["//"])

    def test_every_function_is_exported_declared_and_wrapped(self):
        exports = set(re.findall(r'RS_EXPORT\("(\w+)"\)', self.files["roundsmith_wasm.c"]))
        dts, mjs = self.files["roundsmith.d.ts"], self.files["roundsmith.mjs"]
        for f in sponge.HASHES + sponge.XOFS + sponge.TURBOSHAKES:
            self.assertIn(f.name, exports)
            self.assertIn(f"    {f.name}(data: Uint8Array", dts)
            self.assertIn(f"    {f.name}(data", mjs)
        for r in variants.CHACHA_ROUNDS:
            self.assertIn(f"chacha{r}_keystream", exports)
        for helper in ("alloc", "free", "context_size", "selftest", "path_name"):
            self.assertIn(f"roundsmith_{helper}", exports)
            self.assertIn(f"e.roundsmith_{helper}", mjs)

    def test_a_cut_down_bundle_exports_what_it_has(self):
        b = bundle.select(targets.BUNDLES["wasm32"], ("chacha",), (8,))
        files = bundle.folder(b, "", "x")
        exports = set(re.findall(r'RS_EXPORT\("(\w+)"\)', files["roundsmith_wasm.c"]))
        self.assertIn("chacha8_keystream", exports)
        self.assertNotIn("chacha20_xor", exports)
        self.assertNotIn("sha3_256", exports)
        self.assertIn("const CHACHA_ROUNDS = [8];", files["roundsmith.mjs"])


class BenchCandidates(unittest.TestCase):
    def args(self, **kw):
        a = argparse.Namespace(multi=None, kernels="keccak", **{
            sweep: None for sweep in ("unroll", "lane_complement", "rotate", "parity", "lanes",
                                      "isa", "chacha_isa", "chacha_schedule", "chacha_rotate",
                                      "chacha_states")})
        for k, v in kw.items():
            setattr(a, k, v)
        return a

    def test_default_first_then_the_cross_product_once_each(self):
        t = targets.get("wasm32")
        got = wasm_bench.candidates(self.args(unroll="1,2", lane_complement="on"), t,
                                    ("keccak",))
        self.assertEqual([c[0] for c in got],
                         ["keccakp1600-u1-lc-separate-builtin-scalar (default)",
                          "keccakp1600-u2-lc-separate-builtin-scalar"])
        self.assertFalse(any(simd for _, _, simd in got))

    def test_multi_takes_x2_simd128_shapes(self):
        t = targets.get("wasm32")
        got = wasm_bench.candidates(self.args(multi=["x2-u1-simd128,x2-u3-simd128"]), t,
                                    ("keccak",))
        self.assertEqual([c[0] for c in got], ["keccakp1600-x2-u1-simd128",
                                               "keccakp1600-x2-u3-simd128"])
        self.assertTrue(all(simd for _, _, simd in got))
        with self.assertRaises(UsageError):
            wasm_bench.candidates(self.args(multi=["x4-avx2"]), t, ("keccak",))


if __name__ == "__main__":
    unittest.main()
