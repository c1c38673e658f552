# SPDX-License-Identifier: Apache-2.0 OR MIT
"""A sweep's lists and table, without building anything: the cross product resolved per
compiler (combinations a compiler lacks named once, a value no compiler gets refused), and
the table's marks: the best, the rows within the larger spread of it (a tie), the ratios to
the default and the best, and "verified" turning into "proved" only through a prover."""

import argparse
import os
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from generator.measure import sweep_space, sweep_table  # noqa: E402
from generator.choice import targets  # noqa: E402
from generator.errors import UsageError  # noqa: E402

X86 = targets.get("x86_64")
ALL_CAPS = {"gcc": {"gnu-asm-x86-64", "asm-bmi2", "intrin-avx512", "x86-target-attr"},
            "tcc": {"gnu-asm-x86-64"}}


def keccak_sweep(lists, ccs=("gcc", "tcc")):
    return sweep_space.resolve("keccak", lists, list(ccs), lambda cc, g: sweep_space.keccak_for(
        X86, cc, g, ALL_CAPS[cc]))


class Lists(unittest.TestCase):
    def test_items_are_checked_alone(self):
        self.assertEqual(sweep_space.items("--unroll", "2,3", X86), ["2", "3"])
        for text, said in (("2,,3", "empty item"), ("2,", "empty item"), ("3,3", "twice"),
                           ("2,7", "unknown value '7'")):
            with self.assertRaises(UsageError) as e:
                sweep_space.items("--unroll", text, X86)
            self.assertIn(said, str(e.exception))

    def test_combinations_a_compiler_lacks_are_named_and_left_out_for_it(self):
        s = keccak_sweep({"--unroll": ["2", "4"], "--rotate": ["builtin", "rorx"]})
        self.assertEqual(len(s.rows), 4)
        self.assertEqual(s.swept, ("--unroll", "--rotate"))
        rorx = [r for r in s.rows if dict(r.combo.given)["--rotate"] == "rorx"]
        self.assertTrue(all(r.variants["tcc"] is None and r.variants["gcc"] for r in rorx))
        self.assertEqual(len([l for l in s.dropped if "with tcc" in l]), 2, s.dropped)

    def test_a_value_no_compiler_gets_is_refused(self):
        with self.assertRaises(UsageError) as e:
            keccak_sweep({"--unroll": ["2", "3"], "--isa": ["x86asm"]})
        self.assertIn("--unroll 3 exists for no compiler", str(e.exception))

    def test_multi_and_single_state_options_do_not_mix(self):
        args = argparse.Namespace(**{sweep_space.dest(f): None for f in
                                     sweep_space.KECCAK_OPTIONS + sweep_space.CHACHA_OPTIONS})
        args.multi, args.unroll = ["x4-avx2"], "2"
        with self.assertRaises(UsageError):
            sweep_space.sweeps(args, X86, ("keccak",), ["gcc"], ALL_CAPS)


def row(name, median, spread):
    return {"compiler": "gcc", "variant": name, "status": "ok", "median_24": median,
            "best_24": median, "spread_24": spread, "ref_median_24": 600.0,
            "ref_spread_24": 0.01}


class Table(unittest.TestCase):
    def setUp(self):
        self.sweep = keccak_sweep({"--unroll": ["2", "3", "24"]}, ccs=("gcc",))
        names = [r.variants["gcc"].name for r in self.sweep.rows]
        default = targets.default_keccak(X86, "gcc").name
        # u2 best; u3 1% behind with 2% spreads (a tie); u24 20% behind (decisively slower)
        self.rows = {"gcc": [row(names[0], 500.0, 0.02), row(names[1], 505.0, 0.02),
                             row(names[2], 600.0, 0.01), row(default, 510.0, 0.01)]}

    def result(self, proofs=None):
        return sweep_table.results(self.sweep, {"gcc": None}, self.rows, {}, ["gcc"], X86, 24,
                                   proofs)

    def test_best_tie_and_ratios(self):
        cells = [c["gcc"] for c in self.result().cells]
        self.assertEqual([c.mark for c in cells], ["*", "~", ""])
        self.assertAlmostEqual(cells[0].x_default, 510 / 500)
        self.assertAlmostEqual(cells[2].x_best, 500 / 600)
        self.assertEqual({c.check for c in cells}, {"verified"})
        text = sweep_table.table(self.result(), 24, 31, {"gcc": "12"})
        self.assertIn("1.000*", text)
        self.assertIn("0.990~", text)
        tsv = sweep_table.tsv([self.result()], X86).splitlines()
        self.assertEqual(len(tsv), 4)
        self.assertEqual([l.split("\t")[12] for l in tsv[1:]], ["best", "1", "0"])

    def test_a_wrong_row_is_not_timed_nor_ranked(self):
        self.rows["gcc"][1] = {"compiler": "gcc", "variant": self.rows["gcc"][1]["variant"],
                               "status": "WRONG: fails 'zero', not timed"}
        cells = [c["gcc"] for c in self.result().cells]
        self.assertEqual(cells[1].check, "WRONG")
        self.assertIsNone(cells[1].x_best)

    def test_proved_only_through_the_prover(self):
        names = [c["gcc"].variant.name for c in self.result().cells]
        cells = [c["gcc"] for c in self.result({names[0]: "proved",
                                                names[1]: "counterexample"}).cells]
        self.assertEqual([c.check for c in cells], ["proved", "counterexample", "verified"])


if __name__ == "__main__":
    unittest.main()
