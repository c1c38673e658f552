# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The wasm32 tuner (generator/wasm_tune.py) and the shapes its profiles choose
(generator/choice/wasm_shape.py): the profile's key and file name, the tie rule on synthetic race
rows (no timing asserted anywhere), the least worst loss over synthetic profiles, stale and
other-engine profiles ignored with a warning, the bundle and its provenance following the
profiles; and a quick tune of a tiny candidate space under node into a temporary folder,
skipped when clang's wasm32 target or node is missing (generator/toolprobe.py)."""

import os
import sys
import tempfile
import unittest
from unittest import mock

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from generator.emit import bundle
from generator.choice import cpu_table, profiles, targets, wasm_shape
from generator.measure import profile_page, wasm_tune
from generator.errors import UsageError  # noqa: E402

X2 = "keccak_x2_simd128"
FAMILIES = sorted({m[2] for m in wasm_tune.METRICS.values()})


def key(engine="node", sources=None):
    return {"arch": "wasm32", "engine": engine, "engine_version": "20.20.2",
            "v8": "11.3.244.8-node.38", "cpu": "AMD EPYC", "cpu_id": "family 26 model 2",
            "features": [], "compiler": "clang", "version": "14.0.6",
            "cflags": wasm_tune.CFLAGS,
            "sources": sources or {f: profiles.sources_hash(f) for f in FAMILIES}}


def rows(kernel, costs, spread=0.01):
    metric = wasm_tune.METRICS[kernel][0]
    base = metric[:-len("_median")]
    return [{"variant": v, "status": "ok", metric: c, base + "_spread": spread,
             base + "_best": c} for v, c in costs.items()]


def write(folder, name, choice, candidates, k=None):
    profiles.save(k or key(), choice, candidates, "python3 -m generator tune-wasm", ties={},
                  path=os.path.join(folder, name))


def x2(u):
    return wasm_tune.x2_name(u)


class Key(unittest.TestCase):
    def test_the_cpu_of_a_wasm_profile_is_the_engine_on_the_host(self):
        with mock.patch.object(profiles, "cpu_identity", return_value=("AMD EPYC", ["avx2"])), \
                mock.patch.object(profiles, "cpu_family_model",
                                  return_value="family 26 model 2"):
            k = profiles.engine_key("node", "20.20.2", "11.3.244.8-node.38", "clang",
                                    "14.0.6", wasm_tune.CFLAGS, FAMILIES)
        self.assertEqual(os.path.basename(profiles.path_for(k)),
                         "wasm32-node20.20.2-amd-epyc-f26m2-clang.json")
        self.assertEqual((k["arch"], k["engine"], k["engine_version"], k["v8"], k["compiler"]),
                         ("wasm32", "node", "20.20.2", "11.3.244.8-node.38", "clang"))
        self.assertEqual(set(k["sources"]), {"keccak_scalar", "keccak_x2_arm", "chacha"})
        self.assertIn("-msimd128", k["cflags"])
        # A native key keeps its old name.
        self.assertEqual(os.path.basename(profiles.path_for(
            {"arch": "x86_64", "cpu": "AMD EPYC", "cpu_id": "family 26 model 2",
             "compiler": "gcc"})), "x86_64-amd-epyc-f26m2-gcc.json")

    def test_the_x2_kernels_have_their_own_shaping_family(self):
        self.assertEqual(profiles.family_of(X2), "keccak_x2_arm")
        self.assertEqual(profiles.family_of("keccak_x2_sse2"), "keccak_simd")
        self.assertIn("templates/keccak_p1600_arm.c.j2", profiles.SHAPING["keccak_x2_arm"])


class Decide(unittest.TestCase):
    """wasm_tune.decide_kernel: the native tuner's rule (tune.settle_by) on race.mjs rows."""
    default = wasm_tune.untuned("chacha")

    def decide(self, first, again=()):
        calls = []

        def rerun(names):
            calls.append(names)
            return list(again)
        with mock.patch("sys.stdout"):
            got = wasm_tune.decide_kernel("chacha", first, rerun)
        return got, calls

    def test_a_margin_within_the_spread_is_a_tie_and_keeps_the_default(self):
        first = rows("chacha", {"chacha-x4-seq-shift-simd128": 45.0}, 0.02) + \
            rows("chacha", {self.default: 48.0}, 0.08)
        (won, table, again, tie), calls = self.decide(first)
        self.assertEqual(won, self.default)
        self.assertEqual(calls, [])
        self.assertEqual(tie["race"], "first")
        self.assertEqual(tie["winner"], "chacha-x4-seq-shift-simd128")
        self.assertAlmostEqual(tie["margin"], round(48 / 45 - 1, 4))
        self.assertEqual(tie["spread"], 0.08)
        self.assertEqual(table[0]["variant"], "chacha-x4-seq-shift-simd128")

    def test_a_win_beyond_both_spreads_twice_replaces_the_default(self):
        first = rows("chacha", {"chacha-x4-seq-shift-simd128": 40.0, self.default: 48.0})
        again = rows("chacha", {"chacha-x4-seq-shift-simd128": 41.0, self.default: 49.0})
        (won, _, confirmation, tie), calls = self.decide(first, again)
        self.assertEqual(won, "chacha-x4-seq-shift-simd128")
        self.assertIsNone(tie)
        self.assertEqual(calls, [["chacha-x4-seq-shift-simd128", self.default]])
        self.assertEqual(len(confirmation), 2)

    def test_a_win_that_shrinks_into_the_spread_when_confirmed_is_a_tie(self):
        first = rows("chacha", {"chacha-x4-seq-shift-simd128": 40.0, self.default: 48.0})
        again = rows("chacha", {"chacha-x4-seq-shift-simd128": 47.0, self.default: 48.0}, 0.05)
        (won, _, _, tie), _ = self.decide(first, again)
        self.assertEqual(won, self.default)
        self.assertEqual(tie["race"], "confirmation")

    def test_a_wrong_candidate_never_wins_and_a_wrong_default_records_nothing(self):
        wrong = {"variant": "chacha-x4-seq-shift-simd128", "status": "wrong: chacha20_keystream"}
        (won, table, _, tie), _ = self.decide(rows("chacha", {self.default: 48.0}) + [wrong])
        self.assertEqual((won, tie), (self.default, None))
        self.assertEqual(table[-1], wrong)
        with self.assertRaisesRegex(UsageError, "untuned default"):
            self.decide(rows("chacha", {"chacha-x4-seq-shift-simd128": 40.0})
                        + [dict(wrong, variant=self.default)])

    def test_the_known_good_values_are_the_standard_ones(self):
        import hashlib
        good = wasm_tune.known_good()
        self.assertEqual(good["sha3_256"],
                         hashlib.sha3_256(wasm_tune.pattern(*wasm_tune.MESSAGE)).hexdigest())
        self.assertEqual(set(good), {"sha3_256", "keccak256", "kt128", "keccak_p1600_x2",
                                     "chacha20_keystream"})

    def test_every_space_races_its_untuned_default(self):
        for quick in (True, False):
            for kernel in wasm_tune.METRICS:
                names = [c.name for c in wasm_tune.space(kernel, quick)]
                self.assertIn(wasm_tune.untuned(kernel), names, (kernel, quick))
                self.assertEqual(len(names), len(set(names)))


class Shapes(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def test_without_a_profile_the_targets_defaults(self):
        s = wasm_shape.choose(self.dir)
        t = targets.get("wasm32")
        self.assertEqual(s.keccak, targets.default_keccak(t, "clang"))
        self.assertEqual(s.chacha, targets.default_chacha(t, "clang"))
        self.assertEqual(s.x2_unroll, targets.DEFAULT_X2_UNROLL_TARGET["wasm32"])
        self.assertEqual(s.warnings, ())
        self.assertIn("no wasm32 profile applies", s.provenance())

    def test_the_least_worst_loss_over_two_profiles(self):
        # u2 wins on A, u3 on B; u3 loses 5% on A, u2 25% on B, the default u1 20% on B.
        write(self.dir, "a.json", {X2: x2(2)}, {X2: rows(X2, {x2(1): 110, x2(2): 100,
                                                              x2(3): 105})})
        write(self.dir, "b.json", {X2: x2(3)}, {X2: rows(X2, {x2(1): 120, x2(2): 125,
                                                              x2(3): 100})})
        s = wasm_shape.choose(self.dir)
        self.assertEqual(s.x2_unroll, 3)
        self.assertEqual(dict(s.shaped_by)[X2], ("a.json", "b.json"))
        self.assertIn("keccak_x2_simd128 by the least worst loss over generator/profiles/a.json",
                      s.provenance())

    def test_within_the_slack_the_default_stays(self):
        write(self.dir, "a.json", {X2: x2(2)}, {X2: rows(X2, {x2(1): 100.5, x2(2): 100})})
        self.assertEqual(wasm_shape.choose(self.dir).x2_unroll, 1)

    def test_a_stale_family_is_ignored_alone_with_a_warning(self):
        sources = {f: profiles.sources_hash(f) for f in FAMILIES}
        sources["keccak_scalar"] = "0" * 16
        lc = "keccakp1600-u2-lc-separate-builtin-scalar"
        write(self.dir, "stale.json",
              {"keccak_scalar": lc, "chacha": "chacha-x4-seq-shift-simd128"},
              {"keccak_scalar": rows("keccak_scalar", {lc: 300,
                                                       wasm_tune.untuned("keccak_scalar"): 400}),
               "chacha": rows("chacha", {"chacha-x4-seq-shift-simd128": 40,
                                         wasm_tune.untuned("chacha"): 48})},
              key(sources=sources))
        s = wasm_shape.choose(self.dir)
        self.assertEqual(s.keccak.name, wasm_tune.untuned("keccak_scalar"))
        self.assertEqual(s.chacha.name, "chacha-x4-seq-shift-simd128")
        self.assertEqual(len(s.warnings), 1)
        self.assertRegex(s.warnings[0], r"ignoring keccak_scalar in generator/profiles/"
                                        r"stale\.json: sources\.keccak_scalar")

    def test_another_engine_is_ignored_whole_with_a_warning(self):
        write(self.dir, "bun.json", {X2: x2(2)}, {X2: rows(X2, {x2(1): 200, x2(2): 100})},
              key(engine="bun"))
        s = wasm_shape.choose(self.dir)
        self.assertEqual(s.x2_unroll, targets.DEFAULT_X2_UNROLL_TARGET["wasm32"])
        self.assertEqual(len(s.warnings), 1)
        self.assertIn("ignoring generator/profiles/bun.json: raced under 'bun'", s.warnings[0])

    def test_native_readers_leave_wasm_profiles_alone(self):
        write(self.dir, "a.json", {X2: x2(2)}, {X2: rows(X2, {x2(1): 110, x2(2): 100})})
        self.assertEqual(cpu_table.load("wasm32", self.dir), [])
        self.assertEqual(len(cpu_table.load("wasm32", self.dir, engine=True)), 1)
        page = profile_page.render(profile_page.load(self.dir), self.dir)
        self.assertIn("## wasm32 under an engine", page)
        self.assertIn("`keccakp1600-x2-u2-simd128` 100.0 ns", page)

    def test_the_bundle_and_its_provenance_follow_the_profiles(self):
        write(self.dir, "a.json", {X2: x2(4)}, {X2: rows(X2, {x2(1): 150, x2(4): 100})})
        with mock.patch.object(profiles, "PROFILE_DIR", self.dir):
            files = bundle.folder(targets.BUNDLES["wasm32"], "", bundle.CANONICAL_COMMAND)
        self.assertIn("keccakp1600-x2-u4-simd128", files["keccak_p1600_x2_simd128.c"])
        self.assertRegex(files["rs_dispatch.h"], r"shapes = .*keccak_x2_simd128 by the least "
                                                 r"worst loss over generator/profiles/a\.json")


if __name__ == "__main__":
    unittest.main()
