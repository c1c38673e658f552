# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The per-CPU tuning table (generator/cpu_table.py): orders by measured cost, a bundle
profile's recorded choice first, the minimax order for a CPU without a profile, figures
derived from -march=native profiles, and, over the committed profiles, every row of the
x86_64 bundle leading with that profile's winner."""

import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from generator.emit import bundle  # noqa: E402
from generator.choice import bundle_shape, cpu_table, profiles, targets  # noqa: E402

KECCAK = ("x8-avx512", "x4-avx512vl", "x4-avx2", "x2-avx512vl", "x1")
OPTIONS = {d: KECCAK for d in cpu_table.DECISIONS}
OPTIONS["chacha"] = ("avx512", "avx2", "sse2", "scalar")


def bundle_profile_data(cc, cpu_id, vendor, figures, choice=None):
    cands = {d: [{"variant": v, "status": "ok", "median": m, "spread": 0.01}
                 for v, m in figs.items()] for d, figs in figures.items()}
    best = {d: min(f, key=f.get) for d, f in figures.items()}
    return {"key": {"arch": "x86_64", "cpu": "Some CPU", "cpu_id": cpu_id, "vendor": vendor,
                    "compiler": cc, "mode": "bundle", "cflags": "-O2"},
            "choice": dict(best, **(choice or {})), "candidates": cands}


class Orders(unittest.TestCase):
    def test_static_order_fits_first_then_wider_then_single(self):
        self.assertEqual(cpu_table.static_order("mb4", KECCAK),
                         ("x4-avx512vl", "x4-avx2", "x2-avx512vl", "x8-avx512", "x1"))
        self.assertEqual(cpu_table.static_order("mb2", KECCAK)[0], "x2-avx512vl")
        self.assertEqual(cpu_table.static_order("kt128", KECCAK), KECCAK)

    def test_order_by_cost_unmeasured_after_in_static_order(self):
        static = cpu_table.static_order("mb4", KECCAK)
        got = cpu_table.order({"x8-avx512": 130, "x4-avx512vl": 140}, KECCAK, static)
        self.assertEqual(got, ("x8-avx512", "x4-avx512vl", "x4-avx2", "x2-avx512vl", "x1"))

    def test_recorded_choice_leads_even_when_slower(self):
        static = cpu_table.static_order("mb4", KECCAK)
        got = cpu_table.order({"x8-avx512": 130, "x4-avx512vl": 131}, KECCAK, static,
                              lead="x4-avx512vl")
        self.assertEqual(got[:2], ("x4-avx512vl", "x8-avx512"))

    def test_minimax_takes_the_least_worst_loss(self):
        static = cpu_table.static_order("mb4", KECCAK)
        zen = {"x8-avx512": 130, "x4-avx512vl": 140, "x1": 520}      # x4: 8% behind
        xeon = {"x8-avx512": 230, "x4-avx512vl": 150, "x1": 560}     # x8: 53% behind
        got = cpu_table.minimax([zen, xeon], KECCAK, static)
        self.assertEqual(got[0], "x4-avx512vl")
        self.assertEqual(sorted(got), sorted(KECCAK))

    def test_minimax_without_figures_is_the_static_order(self):
        static = cpu_table.static_order("mb8", KECCAK)
        self.assertEqual(cpu_table.minimax([{}, {}], KECCAK, static), static)


class Build(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="rs-cpu-table-")

    def tearDown(self):
        for n in os.listdir(self.dir):
            os.remove(os.path.join(self.dir, n))
        os.rmdir(self.dir)

    def write(self, name, data):
        with open(os.path.join(self.dir, name), "w") as f:
            json.dump(data, f)

    def test_rows_per_cpu_and_compiler_and_minimax_default(self):
        self.write("a-gcc-bundle.json", bundle_profile_data(
            "gcc", "family 26 model 2", "AuthenticAMD",
            {"mb4": {"x8-avx512": 130, "x4-avx512vl": 140}}))
        self.write("b-gcc-bundle.json", bundle_profile_data(
            "gcc", "family 6 model 167", "GenuineIntel",
            {"mb4": {"x8-avx512": 230, "x4-avx512vl": 150}}))
        t = cpu_table.build("x86_64", OPTIONS, {}, self.dir)
        rows = {(r.vendor, r.family, r.model): r for r in t.rows["gcc"]}
        mb4 = cpu_table.DECISIONS.index("mb4")
        self.assertEqual(rows[("AuthenticAMD", 26, 2)].orders[mb4][0], "x8-avx512")
        self.assertEqual(rows[("GenuineIntel", 6, 167)].orders[mb4][0], "x4-avx512vl")
        self.assertEqual(t.default["gcc"][mb4][0], "x4-avx512vl")
        # clang has no figures of its own: each CPU's row borrows gcc's.
        self.assertEqual([r.compiler for r in t.rows["clang"]], ["gcc", "gcc"])

    def test_a_tie_keeps_the_recorded_default(self):
        self.write("a-gcc-bundle.json", bundle_profile_data(
            "gcc", "family 26 model 2", "AuthenticAMD",
            {"mb4": {"x8-avx512": 139, "x4-avx512vl": 140}}, choice={"mb4": "x4-avx512vl"}))
        t = cpu_table.build("x86_64", OPTIONS, {}, self.dir)
        self.assertEqual(t.rows["gcc"][0].orders[cpu_table.DECISIONS.index("mb4")][0],
                         "x4-avx512vl")

    def test_native_profile_scales_by_wasted_lanes(self):
        self.write("x-gcc.json", {
            "key": {"arch": "x86_64", "cpu": "Intel(R) Xeon(R)", "cpu_id": "family 6 model 1",
                    "compiler": "gcc", "cflags": "-O3 -march=native"},
            "choice": {"keccak_scalar": "s"},
            "candidates": {
                "keccak_scalar": [{"variant": "s", "status": "ok", "median_24": 560}],
                "keccak_x8_avx512": [{"variant": "keccakp1600-x8-u2-avx512", "status": "ok",
                                      "median_24": 110}],
                "keccak_x4_avx512vl": [{"variant": "keccakp1600-x4-u2-avx512vl",
                                        "status": "ok", "median_24": 150}]}})
        t = cpu_table.build("x86_64", OPTIONS, {"x8-avx512": 2, "x4-avx512vl": 2}, self.dir)
        row = t.rows["gcc"][0]
        self.assertEqual(row.vendor, "GenuineIntel")
        by = dict(zip(cpu_table.DECISIONS, row.orders))
        self.assertEqual(by["mb4"][0], "x4-avx512vl")    # 150 against a half-full 220
        self.assertEqual(by["mb8"][0], "x8-avx512")
        self.assertEqual(by["mb2"][0], "x4-avx512vl")    # 300 against 440 and 560

    def test_a_profile_without_cpu_id_gives_no_row(self):
        data = bundle_profile_data("gcc", "(not recorded)", "AuthenticAMD",
                                   {"mb4": {"x8-avx512": 1}})
        self.write("old-gcc-bundle.json", data)
        t = cpu_table.build("x86_64", OPTIONS, {}, self.dir)
        self.assertEqual(t.rows["gcc"], ())


class Committed(unittest.TestCase):
    """Every committed bundle profile's winner leads its CPU's row in the x86_64 bundle."""

    def test_every_bundle_profile_winner_leads_its_row(self):
        b = targets.BUNDLES["x86_64"]
        d = bundle.Dispatch(bundle_shape.shaped(b)[0], targets.get(b.target), "")
        table = d.table()
        names = [dec["name"] for dec in d.decisions]
        seen = 0
        for name, data in cpu_table.load("x86_64"):
            if not cpu_table.is_bundle(data) or cpu_table.identity(data["key"]) is None:
                continue
            vendor, family, model = cpu_table.identity(data["key"])
            sec = next(s for s in table["sections"] if s["compiler"] == data["key"]["compiler"])
            row = next(r for r in sec["rows"] if (r["vendor"], r["family"], r["model"]) ==
                       (vendor, family, model))
            for dec, won in data["choice"].items():
                k = names.index(dec)
                self.assertEqual(d.decisions[k]["options"][row["order"][k][0]], won,
                                 f"{name}: {dec}")
            seen += 1
        self.assertGreater(seen, 0, "no bundle profile is committed")

    def test_the_committed_profiles_name_their_cpu(self):
        for name, data in cpu_table.load("x86_64"):
            if cpu_table.is_bundle(data):
                self.assertIsNotNone(cpu_table.identity(data["key"]), name)
                self.assertTrue(name.endswith("-bundle.json"), name)
                self.assertEqual(os.path.dirname(os.path.join(profiles.PROFILE_DIR, name)),
                                 profiles.PROFILE_DIR)


if __name__ == "__main__":
    unittest.main()
