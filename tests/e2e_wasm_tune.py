# SPDX-License-Identifier: Apache-2.0 OR MIT
"""wasm32 (`ninja test-cross`, beside tests/e2e_wasm.py): a quick tune of a tiny candidate
space under node (`generator tune-wasm`'s code, generator/wasm_tune.py) into a temporary
folder: the defaults of the three kernels and one scalar shape beside its default, built by
clang, verified against known-good values, raced, decided, recorded; and a candidate that
reads back a wrong value is not timed. Skipped, naming what to install, without clang's
wasm32 target or node (generator/toolprobe.py). Nothing here asserts a timing."""

import json
import os
import sys
import tempfile
import unittest
from unittest import mock

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from generator.choice import variants, wasm_shape  # noqa: E402
from generator.measure import wasm_tune  # noqa: E402
from generator.errors import UsageError  # noqa: E402
from generator import toolprobe as toolcheck  # noqa: E402

X2 = "keccak_x2_simd128"


@unittest.skipIf(toolcheck.wasm_tools(), toolcheck.wasm_tools() or "")
class QuickTune(unittest.TestCase):
    """A tune of a tiny space (the defaults, one scalar shape beside its default) under node."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        spaces = {kernel: [c for c in wasm_tune.space(kernel, True)
                           if c.name == wasm_tune.untuned(kernel)] for kernel in wasm_tune.METRICS}
        spaces["keccak_scalar"].append(wasm_tune.keccak_candidate(
            variants.keccak_from_name("keccakp1600-u2-nolc-fused-builtin-scalar")))
        cls.spaces = spaces
        with mock.patch("sys.stdout"):
            cls.path = wasm_tune.run(spaces, 3, "test", cls.tmp.name)
        with open(cls.path) as f:
            cls.data = json.load(f)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_the_profile_is_keyed_by_the_engine_and_the_host(self):
        self.assertRegex(os.path.basename(self.path),
                         r"^wasm32-node\d+\.\d+\.\d+-[a-z0-9-]+-clang\.json$")
        k = self.data["key"]
        self.assertEqual((k["arch"], k["engine"], k["compiler"]), ("wasm32", "node", "clang"))
        self.assertTrue(k["v8"])

    def test_every_candidate_was_verified_then_timed(self):
        for kernel, cands in self.spaces.items():
            got = {r["variant"]: r for r in self.data["candidates"][kernel]}
            self.assertEqual(set(got), {c.name for c in cands})
            metric = wasm_tune.METRICS[kernel][0]
            for r in got.values():
                self.assertEqual(r["status"], "ok")
                self.assertIn(metric, r)
                self.assertIn(metric[:-len("median")] + "spread", r)
            self.assertIn(self.data["choice"][kernel], got)
        self.assertIn("keccak_p1600_x2", self.data["candidates"][X2][0]["verified"])
        self.assertIn("chacha20_keystream", self.data["candidates"]["chacha"][0]["verified"])

    def test_its_shapes_apply_without_warnings(self):
        s = wasm_shape.choose(self.tmp.name)
        self.assertEqual(s.warnings, ())
        self.assertEqual(s.keccak.name, self.data["choice"]["keccak_scalar"])

    def test_a_candidate_that_reads_back_a_wrong_value_is_not_timed(self):
        good = wasm_tune.known_good()
        good["chacha20_keystream"] = "00" * 32
        with mock.patch.object(wasm_tune, "known_good", return_value=good), \
                mock.patch("sys.stdout"), tempfile.TemporaryDirectory() as d, \
                self.assertRaisesRegex(UsageError, r"chacha: the untuned default .* not timed"):
            wasm_tune.run({"chacha": self.spaces["chacha"]}, 3, "test", d)



if __name__ == "__main__":
    unittest.main()
