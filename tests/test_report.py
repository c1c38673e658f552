# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The bench report: its tables from the benches' --tsv rows (standard library only), and its
plots (skipped where matplotlib is not installed)."""

import contextlib
import io
import os
import tempfile
import unittest
from unittest import mock

from generator import report
from generator.errors import UsageError
from tests import toolcheck

HEAD = ("compiler\tvariant\tstatus\tmedian_24\tbest_24\tmedian_12\tbest_12\tref_median_24"
        "\tref_best_24\n")
FILES = {
    "gcc-keccak.tsv": HEAD
    + "gcc\tkeccakp1600-u4-nolc-fused-builtin-scalar\tok\t650\t640\t340\t335\t850\t845\n"
    + "gcc\tkeccakp1600-u24-nolc-fused-rorx-scalar\tok\t600\t590\t310\t305\t860\t850\n"
    + "gcc\tkeccakp1600-u6-lc-fused-rol-scalar\tWRONG: fails 'zero state', not timed\n",
    "clang-keccak.tsv": HEAD
    + "clang\tkeccakp1600-u3-nolc-fused-builtin-scalar\tok\t630\t626\t333\t330\t840\t838\n"
    + "clang\tkeccakp1600-u24-nolc-fused-rorx-scalar\tok\t640\t630\t330\t325\t845\t840\n",
    "gcc-simd.tsv": HEAD
    + "gcc\tkeccakp1600-u4-nolc-fused-builtin-scalar\tok\t650\t640\t340\t335\t850\t845\n"
    + "gcc\tkeccakp1600-x8-u1-avx512\tok\t131\t130\t70\t69\t850\t845\n"
    + "gcc\tkeccakp1600-x8-u2-avx512\tok\t133\t131\t71\t70\t850\t845\n"
    + "gcc\tkeccakp1600-x4-u2-avx2\tskipped (CPU lacks avx2)\n",
    "gcc-chacha.tsv": "compiler\tvariant\tstatus\tlevel\t"
    + "\t".join(f"{c}_median\t{c}_best" for c in ("bulk", "bulk_ref", "bulk_ossl", "blk1",
                                                  "blk1_ref", "xor20", "xor20_ossl")) + "\n"
    + "gcc\tchacha-x16-step-vprold-avx512\tok\tavx512\t0.25\t0.22\t2.2\t2.1\t0.5\t0.5\t110\t109"
      "\t150\t150\t0.48\t0.47\t0.50\t0.49\n",
    "gcc-sponge.tsv": "compiler\tfunction\tcontender\tbytes\tmedian_cpb\tbest_cpb\n"
    "gcc\tSHA3-256\troundsmith\t1048576\t4.80\t4.70\n"
    "gcc\tSHA3-256\tOpenSSL EVP\t1048576\t5.10\t5.05\n"
    "gcc\tSHA3-256\tlibgcrypt\t1048576\t5.02\t5.00\n",
    "clang-sponge.tsv": "compiler\tfunction\tcontender\tbytes\tmedian_cpb\tbest_cpb\n"
    "clang\tSHA3-256\troundsmith\t1048576\t4.75\t4.70\n"
    "clang\tSHA3-256\tOpenSSL EVP\t1048576\t5.20\t5.05\n",
}


class Report(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.paths = []
        for name, text in FILES.items():
            path = os.path.join(self.tmp.name, name)
            with open(path, "w") as f:
                f.write(text)
            self.paths.append(path)
        self.data = report.load(self.paths)

    def test_rows_are_grouped_by_bench_gcc_first(self):
        self.assertEqual(len(self.data["keccak"]), 5)
        self.assertEqual(report.compilers(self.data["keccak"]), ["gcc", "clang"])
        self.assertEqual(self.data["keccak"][0]["compiler"], "gcc")

    def test_scalar_summary_against_the_default_and_the_reference(self):
        text = report.keccak_tables(self.data["keccak"])
        # gcc: the u24 variant wins (600 against the default's 650, references alike).
        line = next(l for l in text.splitlines() if l.startswith("| gcc |"))
        self.assertIn("`keccakp1600-u24-nolc-fused-rorx-scalar` | 600 (590) | 310 (305)", line)
        self.assertIn("1.43x", line)  # 860 / 600
        self.assertIn("`keccakp1600-u4-nolc-fused-builtin-scalar` 650 (640)", line)
        # a wrong variant shows its status, never a figure
        self.assertIn("WRONG: fails 'zero state'", text)
        self.assertIn("Plain reference", text)

    def test_x_n_table_per_shape_and_unroll(self):
        text = report.simd_tables(self.data["simd"])
        self.assertIn("| x8-avx512 | 1 | 131 (130) |", text)
        self.assertIn("| x8-avx512 | 2 | 133 (131) |", text)
        self.assertNotIn("x4-avx2", text)   # skipped: no figure
        self.assertNotIn("scalar", text)    # the yardstick row is not an x-N kernel

    def test_chacha_ratios(self):
        text = report.chacha_tables(self.data["chacha"])
        self.assertIn("| `chacha-x16-step-vprold-avx512` | gcc | avx512 | 0.250 (0.220) | "
                      "8.80x | 2.00x | 110 | 0.480 | 1.04x |", text)

    def test_sponge_peers_shown_once(self):
        text = report.sponge_tables(self.data["sponge"])
        self.assertIn("| SHA3-256 | 1024 KiB | roundsmith (gcc) | 4.80 (4.70) |", text)
        self.assertIn("| SHA3-256 | 1024 KiB | roundsmith (clang) | 4.75 (4.70) |", text)
        self.assertEqual(text.count("OpenSSL EVP |"), 1)
        self.assertIn("libgcrypt | 5.02 (5.00)", text)

    def test_markdown_links_the_plots(self):
        text = report.markdown(self.data, ["keccak_unroll.svg"])
        self.assertIn("![keccak_unroll.svg](keccak_unroll.svg)", text)
        self.assertNotIn("\n\n\n", text)

    def test_a_file_not_named_after_a_bench_is_refused(self):
        bad = os.path.join(self.tmp.name, "gcc-blake3.tsv")
        open(bad, "w").close()
        with self.assertRaises(UsageError):
            report.load([bad])

    def test_without_matplotlib_the_tables_are_written_and_it_says_how_to_plot(self):
        out = os.path.join(self.tmp.name, "tables")
        said = io.StringIO()
        with mock.patch.object(report, "plot_all",
                               side_effect=ImportError("No module named 'matplotlib'")), \
                contextlib.redirect_stdout(said):
            report.main(self.paths, out)
        self.assertEqual(sorted(os.listdir(out)), ["report.md", "roundsmith.manifest"])
        self.assertIn("tables only", said.getvalue())
        self.assertIn("apt-get install -y python3-matplotlib", said.getvalue())

    def test_a_folder_of_the_users_is_not_overwritten(self):
        out = os.path.join(self.tmp.name, "mine")
        os.makedirs(out)
        with open(os.path.join(out, "report.md"), "w") as f:
            f.write("my notes\n")
        with self.assertRaises(UsageError):
            report.main(self.paths, out)
        with open(os.path.join(out, "report.md")) as f:
            self.assertEqual(f.read(), "my notes\n")

    def test_plots(self):
        why = toolcheck.python_module("matplotlib")
        if why:
            self.skipTest(why)
        out = os.path.join(self.tmp.name, "out")
        with contextlib.redirect_stdout(io.StringIO()):
            report.main(self.paths, out)
        names = sorted(os.listdir(out))
        self.assertEqual(names, ["chacha.svg", "keccak_unroll.svg", "keccak_xn.svg",
                                 "report.md", "roundsmith.manifest", "sponge.svg"])
        with open(os.path.join(out, "keccak_unroll.svg")) as f:
            svg = f.read()
        self.assertIn("<svg", svg)
        # no timestamp: the same rows give the same file
        first = svg
        with contextlib.redirect_stdout(io.StringIO()):
            report.main(self.paths, out)
        with open(os.path.join(out, "keccak_unroll.svg")) as f:
            self.assertEqual(f.read(), first)


if __name__ == "__main__":
    unittest.main()
