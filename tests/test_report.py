# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The bench report: its tables from the benches' --tsv rows (standard library only), and its
plots (skipped where matplotlib is not installed); and the profiles page (report --profiles):
CPUs side by side from generator/profiles/."""

import contextlib
import io
import json
import os
import tempfile
import unittest
from unittest import mock

from generator import __main__ as cli_main
from generator.measure import profile_page, bench_report
from generator.errors import UsageError
from generator import toolprobe as toolcheck

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
        self.data = bench_report.load(self.paths)

    def test_rows_are_grouped_by_bench_gcc_first(self):
        self.assertEqual(len(self.data["keccak"]), 5)
        self.assertEqual(bench_report.compilers(self.data["keccak"]), ["gcc", "clang"])
        self.assertEqual(self.data["keccak"][0]["compiler"], "gcc")

    def test_scalar_summary_against_the_default_and_the_reference(self):
        text = bench_report.keccak_tables(self.data["keccak"])
        # gcc: the u24 variant wins (600 against the default's 650, references alike).
        line = next(l for l in text.splitlines() if l.startswith("| gcc |"))
        self.assertIn("`keccakp1600-u24-nolc-fused-rorx-scalar` | 600 (590) | 310 (305)", line)
        self.assertIn("1.43x", line)  # 860 / 600
        self.assertIn("`keccakp1600-u4-nolc-fused-builtin-scalar` 650 (640)", line)
        # a wrong variant shows its status, never a figure
        self.assertIn("WRONG: fails 'zero state'", text)
        self.assertIn("Plain reference", text)

    def test_x_n_table_per_shape_and_unroll(self):
        text = bench_report.simd_tables(self.data["simd"])
        self.assertIn("| x8-avx512 | 1 | 131 (130) |", text)
        self.assertIn("| x8-avx512 | 2 | 133 (131) |", text)
        self.assertNotIn("x4-avx2", text)   # skipped: no figure
        self.assertNotIn("scalar", text)    # the yardstick row is not an x-N kernel

    def test_chacha_ratios(self):
        text = bench_report.chacha_tables(self.data["chacha"])
        self.assertIn("| `chacha-x16-step-vprold-avx512` | gcc | avx512 | 0.250 (0.220) | "
                      "8.80x | 2.00x | 110 | 0.480 | 1.04x |", text)

    def test_sponge_peers_shown_once(self):
        text = bench_report.sponge_tables(self.data["sponge"])
        self.assertIn("| SHA3-256 | 1024 KiB | roundsmith (gcc) | 4.80 (4.70) |", text)
        self.assertIn("| SHA3-256 | 1024 KiB | roundsmith (clang) | 4.75 (4.70) |", text)
        self.assertEqual(text.count("OpenSSL EVP |"), 1)
        self.assertIn("libgcrypt | 5.02 (5.00)", text)

    def test_markdown_links_the_plots(self):
        text = bench_report.markdown(self.data, ["keccak_unroll.svg"])
        self.assertIn("![keccak_unroll.svg](keccak_unroll.svg)", text)
        self.assertNotIn("\n\n\n", text)

    def test_a_file_not_named_after_a_bench_is_refused(self):
        bad = os.path.join(self.tmp.name, "gcc-blake3.tsv")
        open(bad, "w").close()
        with self.assertRaises(UsageError):
            bench_report.load([bad])

    def test_without_matplotlib_the_tables_are_written_and_it_says_how_to_plot(self):
        out = os.path.join(self.tmp.name, "tables")
        said = io.StringIO()
        with mock.patch.object(bench_report, "plot_all",
                               side_effect=ImportError("No module named 'matplotlib'")), \
                contextlib.redirect_stdout(said):
            bench_report.main(self.paths, out)
        self.assertEqual(sorted(os.listdir(out)), ["report.md", "roundsmith.manifest"])
        self.assertIn("tables only", said.getvalue())
        self.assertIn("apt-get install -y python3-matplotlib", said.getvalue())

    def test_a_folder_of_the_users_is_not_overwritten(self):
        out = os.path.join(self.tmp.name, "mine")
        os.makedirs(out)
        with open(os.path.join(out, "report.md"), "w") as f:
            f.write("my notes\n")
        with self.assertRaises(UsageError):
            bench_report.main(self.paths, out)
        with open(os.path.join(out, "report.md")) as f:
            self.assertEqual(f.read(), "my notes\n")

    def test_plots(self):
        why = toolcheck.python_module("matplotlib")
        if why:
            self.skipTest(why)
        out = os.path.join(self.tmp.name, "out")
        with contextlib.redirect_stdout(io.StringIO()):
            bench_report.main(self.paths, out)
        names = sorted(os.listdir(out))
        self.assertEqual(names, ["chacha.svg", "keccak_unroll.svg", "keccak_xn.svg",
                                 "report.md", "roundsmith.manifest", "sponge.svg"])
        with open(os.path.join(out, "keccak_unroll.svg")) as f:
            svg = f.read()
        self.assertIn("<svg", svg)
        # no timestamp: the same rows give the same file
        first = svg
        with contextlib.redirect_stdout(io.StringIO()):
            bench_report.main(self.paths, out)
        with open(os.path.join(out, "keccak_unroll.svg")) as f:
            self.assertEqual(f.read(), first)



def profile(cpu, cpu_id, cc, choice, rows, ties=None, command="python3 -m generator tune"):
    """A profile as the tuner writes it: rows {kernel: {variant: median}}."""
    def row(kernel, name, median):
        key = "bulk_median" if kernel == "chacha" else "median_24"
        return {"variant": name, "status": "ok", key: median}
    data = {"key": {"arch": "x86_64", "cpu": cpu, "cpu_id": cpu_id, "compiler": cc,
                    "version": "1", "cflags": "-O3"},
            "choice": choice, "metrics": {}, "confirmations": {}, "measured_with": command,
            "candidates": {k: [row(k, n, m) for n, m in v.items()] for k, v in rows.items()}}
    if ties is not None:
        data["ties"] = ties
    return data


class ProfilesPage(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        tie = {"winner": "chacha-x16-step", "default": "chacha-x32-seq", "race": "first",
               "margin": 0.021, "spread": 0.034}
        self.profiles = {
            "amd-gcc.json": profile("AMD EPYC", "family 26 model 2", "gcc",
                                    {"keccak_scalar": "u3", "chacha": "chacha-x32-seq"},
                                    {"keccak_scalar": {"u3": 640.0, "u24": 672.0},
                                     "chacha": {"chacha-x32-seq": 0.215,
                                                "chacha-x16-step": 0.212}},
                                    ties={"chacha": tie}),
            "intel-gcc.json": profile("Intel Xeon", "family 6 model 167", "gcc",
                                      {"keccak_scalar": "u24", "chacha": "chacha-x16-step"},
                                      {"keccak_scalar": {"u24": 560.0, "u3": 588.0},
                                       "chacha": {"chacha-x16-step": 0.29}},
                                      command="python3 -m generator tune --quick"),
        }
        for name, data in self.profiles.items():
            with open(os.path.join(self.tmp.name, name), "w") as f:
                json.dump(data, f)
        self.text = profile_page.render(profile_page.load(self.tmp.name), self.tmp.name)

    def test_each_cpus_winner_and_figure_per_kernel(self):
        self.assertIn("### keccak_scalar", self.text)
        self.assertIn("| gcc `-O3` | `u3` 640 cycles | `u24` 560 cycles |", self.text)
        self.assertIn("| gcc `-O3` | `chacha-x32-seq` 0.215 c/B | `chacha-x16-step` 0.290 c/B |",
                      self.text)
        self.assertIn("AMD EPYC (family 26 model 2)", self.text)

    def test_one_cpus_pick_on_another_from_the_others_rows(self):
        self.assertIn("| kernel | compiler | AMD EPYC's pick on Intel Xeon | Intel Xeon's pick "
                      "on AMD EPYC |", self.text)
        # u3 on Intel: 588 / 560; u24 on AMD: 672 / 640. x32-seq has no row in Intel's race;
        # x16-step ran faster on AMD than AMD's pick, kept after a tie.
        self.assertIn("| keccak_scalar | gcc `-O3` | 1.05x | 1.05x |", self.text)
        self.assertIn("| chacha | gcc `-O3` | not measured on Intel Xeon | 0.99x |", self.text)

    def test_how_each_was_measured_and_its_ties(self):
        amd = next(l for l in self.text.splitlines() if l.startswith("| AMD EPYC"))
        self.assertIn("| chacha |", amd)
        intel = next(l for l in self.text.splitlines() if l.startswith("| Intel Xeon"))
        self.assertIn("quick by its command", intel)
        self.assertIn("not recorded (tuned before the tie rule)", intel)
        self.assertIn("Ties (a winner within the race's spread, so the untuned default stays): "
                      "gcc `-O3` on AMD EPYC (family 26 model 2): chacha: `chacha-x16-step` was "
                      "1.02x the untuned default `chacha-x32-seq` in the first race, within the "
                      "spread (3.4%): the default kept.", self.text)

    def test_the_space_is_told_from_the_rows_too(self):
        self.assertEqual(profile_page.space_of(self.profiles["intel-gcc.json"]),
                         ("quick", None, 3))

    def test_the_page_is_written_over_its_own_only(self):
        page = os.path.join(self.tmp.name, "profiles.md")
        with mock.patch.object(profile_page.profiles, "PROFILE_DIR", self.tmp.name), \
                contextlib.redirect_stdout(io.StringIO()) as said:
            self.assertEqual(cli_main.main(["report", "--profiles", "--out", page]), 0)
            self.assertEqual(cli_main.main(["report", "--profiles", "--out", page]), 0)
        self.assertIn("(unchanged)", said.getvalue())
        with open(page) as f:
            self.assertEqual(f.read(), self.text)
        mine = os.path.join(self.tmp.name, "notes.md")
        with open(mine, "w") as f:
            f.write("my notes\n")
        err = io.StringIO()
        with mock.patch.object(profile_page.profiles, "PROFILE_DIR", self.tmp.name), \
                contextlib.redirect_stderr(err):
            self.assertEqual(cli_main.main(["report", "--profiles", "--out", mine]), 2)
            self.assertEqual(cli_main.main(["report", "--profiles", "gcc-keccak.tsv"]), 2)
            self.assertEqual(cli_main.main(["report"]), 2)
        with open(mine) as f:
            self.assertEqual(f.read(), "my notes\n")
        self.assertIn("a file this command did not write", err.getvalue())

    def test_a_file_that_is_not_a_profile_is_refused(self):
        with open(os.path.join(self.tmp.name, "other.json"), "w") as f:
            f.write("[]")
        with self.assertRaises(UsageError):
            profile_page.load(self.tmp.name)


def bundle_profile(cpu, cpu_id, vendor, cc, rows, choice=None, ties=None):
    """A profile as tune-bundle writes it: rows {decision: {option: median}}; the choice is
    the fastest unless given."""
    def row(decision, name, median):
        unit = "cycles/lane/permutation" if decision.startswith("mb") else "cycles/byte"
        return {"variant": name, "decision": decision, "status": "ok", "median": median,
                "best": median * 0.98, "spread": 0.01, "unit": unit}
    picked = {d: min(v, key=v.get) for d, v in rows.items()}
    picked.update(choice or {})
    return {"key": {"arch": "x86_64", "bundle": "x86_64", "cpu": cpu, "cpu_id": cpu_id,
                    "vendor": vendor, "compiler": cc, "version": "1", "cflags": "-O2",
                    "mode": "bundle"},
            "choice": picked, "ties": ties or {}, "metrics": {},
            "measured_with": "python3 -m generator tune-bundle --turns 21",
            "candidates": {d: [row(d, n, m) for n, m in v.items()] for d, v in rows.items()}}


class BundleSections(unittest.TestCase):
    """Bundle profiles on the profiles page: their own rows in the measured table, their own
    section per decision, one CPU's choice on another, and the table the bundle carries."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        tie = {"winner": "x8-avx512", "default": "x4-avx512vl", "margins": [0.0067, 0.012],
               "spreads": [0.02, 0.031]}
        files = {
            "amd-gcc-bundle.json": bundle_profile(
                "AMD EPYC", "family 26 model 2", "AuthenticAMD", "gcc",
                {"mb4": {"x8-avx512": 130.0, "x4-avx512vl": 140.0, "x1": 520.0},
                 "chacha": {"avx512": 0.12, "avx2": 0.39}}),
            "intel-gcc-bundle.json": bundle_profile(
                "Intel Xeon", "family 6 model 167", "GenuineIntel", "gcc",
                {"mb4": {"x8-avx512": 150.0, "x4-avx512vl": 151.0, "x1": 560.0},
                 "chacha": {"avx2": 0.4}},
                choice={"mb4": "x4-avx512vl"}, ties={"mb4": tie}),
            # A CPU with a -march=native profile only: its bundle row is derived from it.
            "sapphire-clang.json": profile(
                "Intel Xeon Gold", "family 6 model 143", "clang",
                {"keccak_scalar": "u24"},
                {"keccak_scalar": {"u24": 560.0},
                 "keccak_x8_avx512": {"keccakp1600-x8-u2-avx512": 300.0},
                 "keccak_x4_avx512vl": {"keccakp1600-x4-u2-avx512vl": 150.0}}),
        }
        for name, data in files.items():
            with open(os.path.join(self.tmp.name, name), "w") as f:
                json.dump(data, f)
        self.text = profile_page.render(profile_page.load(self.tmp.name), self.tmp.name)
        self.lines = self.text.splitlines()

    def section(self, heading):
        start = self.lines.index(heading)
        end = next((i for i in range(start + 1, len(self.lines))
                    if self.lines[i].startswith("#")), len(self.lines))
        return "\n".join(self.lines[start:end])

    def test_how_a_bundle_profile_was_measured(self):
        amd = next(l for l in self.lines if l.startswith("| AMD EPYC (family 26 model 2) |"))
        self.assertIn("| `-O2`, bundle x86_64 (its own files, no -m flags) | bundle: 2 "
                      "decisions, 5 options | none | `amd-gcc-bundle.json` |", amd)
        intel = next(l for l in self.lines if l.startswith("| Intel Xeon (family 6 model 167)"))
        self.assertIn("| bundle: 2 decisions, 4 options | mb4 |", intel)
        self.assertIn("the gcc `-O2` bundle on Intel Xeon (family 6 model 167): mb4: "
                      "`x8-avx512` was 1.01x and 1.01x the untuned default `x4-avx512vl` in "
                      "the 2 runs, within the spread (2.0% and 3.1%): the default kept.",
                      self.text)

    def test_the_native_sections_leave_the_bundles_out(self):
        winners = self.text[self.text.index("## Each CPU's winners"):
                            self.text.index("## What the bundles run")]
        self.assertNotIn("family 26 model 2", winners)
        self.assertNotIn("### mb4", winners)
        self.assertNotIn("### chacha", winners)
        self.assertIn("| clang `-O3` | `u24` 560 cycles |", winners)

    def test_each_cpus_choice_per_decision(self):
        mb4 = self.section("### mb4")
        self.assertIn("| compiler | AMD EPYC (family 26 model 2) | Intel Xeon (family 6 model "
                      "167) |", mb4)
        self.assertIn("| gcc `-O2` | `x8-avx512` 130 cycles/lane/permutation | `x4-avx512vl` "
                      "151 cycles/lane/permutation (tie: default kept) |", mb4)
        self.assertIn("| gcc `-O2` | `avx512` 0.120 cycles/byte | `avx2` 0.400 cycles/byte |",
                      self.section("### chacha"))

    def test_one_cpus_choice_on_another(self):
        cross = self.section("### One CPU's choice on another")
        self.assertIn("| decision | compiler | AMD EPYC's choice on Intel Xeon | Intel Xeon's "
                      "choice on AMD EPYC |", cross)
        # x8 on Intel: 150 / 151; x4-avx512vl on AMD: 140 / 130; Intel's race had no avx512.
        self.assertIn("| mb4 | gcc `-O2` | 0.99x | 1.08x |", cross)
        self.assertIn("| chacha | gcc `-O2` | not measured on Intel Xeon | 3.25x |", cross)

    def test_the_table_the_bundle_carries(self):
        t = self.section("### The table the x86_64 bundle carries")
        self.assertIn("minimax", t)
        gcc = t[t.index("gcc (`#if defined(__GNUC__)`)"):t.index("Any other compiler")]
        # single: no profile here measured a single-state vector kernel, so the scalar
        # flavour (the static order) everywhere.
        self.assertIn("| AMD EPYC (family 26 model 2) | `amd-gcc-bundle.json` (bundle profile) "
                      "| `scalar` | `x2-avx512vl` | `x8-avx512` | `x8-avx512` | `x8-avx512` | "
                      "`avx512` |", gcc)
        # The recorded choice leads after a tie, though x8 ran faster.
        self.assertIn("| Intel Xeon (family 6 model 167) | `intel-gcc-bundle.json` (bundle "
                      "profile) | `scalar` | `x2-avx512vl` | `x4-avx512vl` |", gcc)
        # No gcc figures for that CPU: its clang -march=native profile stands in, and says so.
        self.assertIn("| Intel Xeon Gold (family 6 model 143) | `sapphire-clang.json` (a "
                      "-march=native profile: per-instance permutation costs, not the bundle's "
                      "own race, clang's figures) | `scalar` | `x4-avx512vl` | `x4-avx512vl` | "
                      "`x4-avx512vl` |", gcc)     # x8 at 300 per instance loses even at N = 8
        self.assertIn("| any other CPU (minimax) | CPU without a profile: least worst loss over ",
                      gcc)
        self.assertIn("| any CPU (minimax) | CPU without a profile: least worst loss over 3 "
                      "measured CPUs |", t)

    def test_the_page_agrees_with_the_bundles_c_table(self):
        from generator.emit import bundle
        from generator.choice import bundle_shape, targets
        b = targets.BUNDLES["x86_64"]
        d = bundle.Dispatch(bundle_shape.shaped(b)[0], targets.get(b.target), "")
        table = d.table(self.tmp.name)
        t = self.section("### The table the x86_64 bundle carries")
        for sec in table["sections"]:
            for row in sec["rows"]:
                firsts = " | ".join(f"`{dec['options'][o[0]]}`"
                                    for dec, o in zip(d.decisions, row["order"]))
                self.assertIn(f"`{row['source']}`", t)
                self.assertIn(firsts + " |", t)


if __name__ == "__main__":
    unittest.main()
