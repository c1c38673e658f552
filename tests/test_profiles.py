# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Tuned profiles: the key that makes one apply, the warnings that name a mismatch (whole
profile, or one kernel family), the candidate spaces of the tuner, its choice, and how
configure.py applies a profile's choices under the command-line options
(generator/buildgraph/choices.py)."""

import argparse
import json
import os
import sys
import tempfile
import unittest
from unittest import mock

from generator.measure import benchdata, tune
from generator.choice import profiles, targets, variants
from generator.buildgraph import choices

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import configure  # noqa: E402

SCALAR = "keccakp1600-u6-lc-separate-rol-scalar"
X8 = "keccakp1600-x8-u24-avx512"
X4 = "keccakp1600-x4-u1-avx2"
CHACHA = "chacha-x32-pair-vprold-avx512"
ALL = {"keccak_scalar": SCALAR, "keccak_x8_avx512": X8, "keccak_x4_avx2": X4, "chacha": CHACHA}
CAPS = ["asm-bmi2", "gnu-asm-x86-64", "intrin-avx2", "intrin-avx512", "intrin-sse2",
        "x86-target-attr"]


class Profiles(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        patcher = mock.patch.object(profiles, "PROFILE_DIR", self.tmp.name)
        patcher.start()
        self.addCleanup(patcher.stop)
        self.addCleanup(self.tmp.cleanup)

    def save_edited(self, edit, choice=ALL):
        path = profiles.save(profiles.key("gcc", "12.2.0", "-O3"), dict(choice), {}, "test")
        with open(path) as f:
            data = json.load(f)
        edit(data)
        with open(path, "w") as f:
            json.dump(data, f)

    def test_a_matching_profile_picks_every_kernel(self):
        profiles.save(profiles.key("gcc", "12.2.0", "-O3"), ALL,
                      {"keccak_scalar": [{"variant": SCALAR, "median_24": 600.0}]}, "test")
        choices, warnings = profiles.lookup("gcc", "12.2.0", "-O3")
        self.assertEqual(warnings, [])
        self.assertEqual(choices, ALL)
        self.assertEqual(variants.keccak_from_name(choices["keccak_scalar"]),
                         variants.KeccakVariant(unroll=6, lane_complement=True,
                                                parity="separate", rotate="rol"))

    def test_a_key_mismatch_drops_the_profile_naming_the_field(self):
        profiles.save(profiles.key("gcc", "12.2.0", "-O3"), ALL, {}, "test")
        choices, warnings = profiles.lookup("gcc", "12.2.0", "-O2")
        self.assertEqual(choices, {})
        self.assertEqual(len(warnings), 1)
        self.assertIn("cflags is '-O2', profile has '-O3'", warnings[0])
        self.save_edited(lambda d: d["key"].update(features=["sse2"]))
        choices, warnings = profiles.lookup("gcc", "12.2.0", "-O3")
        self.assertEqual(choices, {})
        self.assertIn("features is", warnings[0])

    def test_scalar_sources_changed_keeps_the_other_kernels(self):
        self.save_edited(lambda d: d["key"]["sources"].update(keccak_scalar="0" * 16))
        choices, warnings = profiles.lookup("gcc", "12.2.0", "-O3")
        self.assertEqual(choices, {k: v for k, v in ALL.items() if k != "keccak_scalar"})
        self.assertEqual(len(warnings), 1)
        self.assertIn("ignoring keccak_scalar in", warnings[0])
        self.assertIn("sources.keccak_scalar is", warnings[0])

    def test_vector_sources_changed_drops_every_x_n_choice_in_one_warning(self):
        self.save_edited(lambda d: d["key"]["sources"].update(keccak_simd="0" * 16))
        choices, warnings = profiles.lookup("gcc", "12.2.0", "-O3")
        self.assertEqual(choices, {"keccak_scalar": SCALAR, "chacha": CHACHA})
        self.assertEqual(len(warnings), 1)
        self.assertIn("ignoring keccak_x4_avx2, keccak_x8_avx512 in", warnings[0])
        self.assertIn("sources.keccak_simd is", warnings[0])
        self.assertIn("profile has '0000000000000000'", warnings[0])

    def test_chacha_sources_changed_drops_chacha_only(self):
        self.save_edited(lambda d: d["key"]["sources"].pop("chacha"))
        choices, warnings = profiles.lookup("gcc", "12.2.0", "-O3")
        self.assertNotIn("chacha", choices)
        self.assertIn("keccak_x8_avx512", choices)
        self.assertEqual(len(warnings), 1)
        self.assertIn("ignoring chacha in", warnings[0])
        self.assertIn("sources.chacha is", warnings[0])
        self.assertIn("profile has None", warnings[0])

    def test_an_unknown_kernel_is_named(self):
        self.save_edited(lambda d: None, choice=dict(ALL, blake3="blake3-x16"))
        choices, warnings = profiles.lookup("gcc", "12.2.0", "-O3")
        self.assertEqual(choices, ALL)
        self.assertIn("ignoring blake3", warnings[0])

    def test_no_profile_no_warning(self):
        self.assertEqual(profiles.lookup("clang", "1", "-O1"), ({}, []))

    def test_a_template_edit_changes_its_family_hash_only(self):
        template = os.path.join(self.tmp.name, "chacha.c.j2")
        with open(template, "w") as f:
            f.write("{# a template #}\n")
        with mock.patch.dict(profiles.SHAPING, chacha=(template,)):
            before = profiles.key("gcc", "12.2.0", "-O3")["sources"]
            with open(template, "a") as f:
                f.write("/* edited */\n")
            after = profiles.key("gcc", "12.2.0", "-O3")["sources"]
        self.assertNotEqual(before["chacha"], after["chacha"])
        self.assertEqual({k: v for k, v in before.items() if k != "chacha"},
                         {k: v for k, v in after.items() if k != "chacha"})


class ShippedProfiles(unittest.TestCase):
    """The committed profiles in generator/profiles/, as configure.py would look them up on
    the CPU each was measured on."""

    INTEL = ("Intel(R) Xeon(R) Processor", "family 6 model 167")
    FEATURES = ["avx2", "avx512bw", "avx512f", "avx512vl", "bmi1", "bmi2", "ssse3"]

    def on_intel(self):
        return (mock.patch.object(profiles, "cpu_identity",
                                  return_value=(self.INTEL[0], self.FEATURES)),
                mock.patch.object(profiles, "cpu_family_model", return_value=self.INTEL[1]),
                mock.patch.object(profiles.platform, "machine", return_value="x86_64"))

    def test_the_intel_profiles_apply_on_their_cpu(self):
        for cc, version, cflags in (("gcc", "12.2.0", "-O3 -march=native"),
                                    ("clang", "14.0.6", "-O3 -march=native"),
                                    ("tcc", "927", "-O2")):
            a, b, c = self.on_intel()
            with a, b, c:
                path = profiles.host_path(cc)
                self.assertEqual(os.path.basename(path),
                                 f"x86_64-intel-r-xeon-r-processor-f6m167-{cc}.json")
                self.assertTrue(os.path.exists(path), path)
                got, warnings = profiles.lookup(cc, version, cflags)
            with open(path) as f:
                data = json.load(f)
            # The key matches whole; a family is dropped only once its sources change (then
            # the warning names sources.<family>, never a key field).
            self.assertFalse([w for w in warnings if "sources." not in w], warnings)
            self.assertTrue(set(got) <= set(data["choice"]))
            self.assertEqual({k: data["choice"][k] for k in got}, got)
            if not warnings:
                self.assertEqual(got, data["choice"])

    def test_another_cpu_does_not_pick_them(self):
        a, b, c = self.on_intel()
        with a, c, mock.patch.object(profiles, "cpu_family_model",
                                     return_value="family 6 model 207"):
            got, warnings = profiles.lookup("gcc", "12.2.0", "-O3 -march=native")
        self.assertEqual((got, warnings), ({}, []))  # another file name: no such profile


class Candidates(unittest.TestCase):
    target = targets.get("x86_64")

    def test_quick_is_a_pruned_subset(self):
        for space in (tune.candidates, tune.simd_candidates, tune.chacha_candidates):
            full = space(self.target, CAPS, quick=False)
            quick = space(self.target, CAPS, quick=True)
            self.assertTrue(quick and set(quick) < set(full), space.__name__)
        quick = tune.candidates(self.target, CAPS, quick=True)
        self.assertTrue(all(not v.lane_complement for v in quick if v.isa == "scalar"))
        for cc in ("gcc", "clang", "tcc"):
            self.assertIn(targets.default_keccak(self.target, cc), quick)

    def test_every_x_n_shape_competes_and_no_single_state_kernel(self):
        kernels = {tune.kernel_of(v) for v in tune.simd_candidates(self.target, CAPS, True)}
        self.assertEqual(kernels, {"keccak_x2_sse2", "keccak_x2_avx512vl", "keccak_x4_avx2",
                                   "keccak_x4_avx512vl", "keccak_x8_avx512"})
        for kernel in kernels:
            self.assertEqual(tune.kernel_of(tune.untuned(self.target, "gcc", kernel)), kernel)

    def test_chacha_quick_keeps_the_two_widest_levels(self):
        quick = tune.chacha_candidates(self.target, CAPS, quick=True)
        self.assertEqual({v.isa for v in quick}, {"avx512", "avx2"})
        self.assertIn(targets.default_chacha(self.target, "clang"), quick)
        tcc = tune.chacha_candidates(self.target, [], quick=True)
        self.assertEqual({v.isa for v in tcc}, {"scalar"})

    def test_names_round_trip(self):
        caps = set(CAPS)
        for v in variants.keccak_scalar_space(self.target, caps):
            self.assertEqual(variants.keccak_from_name(v.name), v)
        for v in variants.keccak_simd_space(self.target, caps):
            self.assertEqual(variants.simd_from_name(v.name), v)
        for v in variants.chacha_space(self.target, caps):
            self.assertEqual(variants.chacha_from_name(v.name), v)


TSV = ("compiler\tvariant\tstatus\tclass\tmedian_24\tbest_24\tmedian_12\tbest_12"
       "\tref_median_24\tref_best_24\tref_spread_24\tspread_24\tspread_12\n"
       "gcc\ta\tok\tscalar\t600\t590\t300\t290\t900\t880\t0.01\t0.02\t0.01\n"
       "gcc\tb\tWRONG: fails 'zero state', not timed\n"
       "gcc\tc\tok\t512-bit\t620\t600\t310\t300\t1000\t980\t0.01\t0.03\t0.02\n"
       "gcc\td\tskipped (CPU lacks bmi2)\n")


class Choice(unittest.TestCase):
    def test_rows_parse_with_and_without_figures(self):
        rows = benchdata.parse_tsv(TSV)
        self.assertEqual([r["variant"] for r in rows], ["a", "b", "c", "d"])
        self.assertEqual(rows[0]["median_24"], 600.0)
        self.assertEqual(rows[0]["spread_24"], 0.02)
        self.assertNotIn("median_24", rows[1])
        self.assertEqual([benchdata.ok(r) for r in rows], [True, False, True, False])

    def test_the_winner_is_the_wall_clock_median_and_never_a_wrong_one(self):
        rows = benchdata.parse_tsv(TSV)
        # c, a 512-bit kernel, would win "against the reference" (1000 / 620 > 900 / 600: on
        # Intel the reference runs at a lowered clock after 512-bit code), but it takes more
        # wall-clock cycles than a: a wins.
        self.assertEqual(tune.choose(rows, "keccak")["variant"], "a")
        self.assertIsNone(tune.choose([rows[1], rows[3]], "keccak"))

    def test_a_busy_race_is_reported(self):
        rows = benchdata.parse_tsv(TSV.replace("\t0.01\t0.0", "\t0.20\t0.0"))
        self.assertGreater(tune.drift(rows), tune.DRIFT_WARNING)
        self.assertLess(tune.drift(benchdata.parse_tsv(TSV)), tune.DRIFT_WARNING)

    def test_the_single_state_vector_kernel_competes_on_every_machine(self):
        names = [v.name for v in tune.candidates(targets.get("x86_64"), CAPS, True)]
        self.assertTrue(any(n.endswith("-avx512") for n in names), names)
        self.assertEqual(tune.kernel_of(variants.simd_from_name("keccakp1600-u2-avx512")),
                         "keccak_scalar")


class Confirm(unittest.TestCase):
    def row(self, name, median, ref, spread=0.01):
        return {"variant": name, "status": "ok", "median_24": median, "ref_median_24": ref,
                "spread_24": spread}

    def test_a_win_that_does_not_hold_in_a_second_run_goes_to_the_default(self):
        best, base = self.row("fast", 600, 900), self.row("default", 650, 900)
        again = [self.row("fast", 700, 900), self.row("default", 650, 900)]
        with mock.patch.object(benchdata, "run", return_value=again) as run, \
                mock.patch("sys.stdout"):
            kept, rows, tie = tune.settle(["bench", "--tsv"], best, base, "keccak")
        run.assert_called_once_with(["bench", "--tsv", "fast", "default"])
        self.assertIs(kept, base)
        self.assertEqual([r["variant"] for r in rows], ["fast", "default"])
        self.assertEqual(tie["race"], "confirmation")
        self.assertLess(tie["margin"], 0)

    def test_a_win_that_holds_is_kept(self):
        best, base = self.row("fast", 600, 900), self.row("default", 650, 900)
        again = [self.row("default", 660, 900), self.row("fast", 610, 900)]
        with mock.patch.object(benchdata, "run", return_value=again), mock.patch("sys.stdout"):
            self.assertIs(tune.settle(["b"], best, base, "keccak")[0], best)


class Ties(unittest.TestCase):
    """The tuner end to end over canned rows: a winner within the spread is recorded as a tie
    in the profile, and the default is its choice."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        patcher = mock.patch.object(profiles, "PROFILE_DIR", self.tmp.name)
        patcher.start()
        self.addCleanup(patcher.stop)
        self.addCleanup(self.tmp.cleanup)

    def tune(self, fast_median):
        target = targets.get("x86_64")
        default = targets.default_keccak(target, "gcc").name
        names = [v.name for v in tune.candidates(target, CAPS, True)]
        fast = next(n for n in names if n != default)

        def run(command, progress=None):
            rows = []
            for name in command[2:]:
                median = fast_median if name == fast else 600.0
                rows.append({"compiler": "gcc", "variant": name, "status": "ok",
                             "median_24": median, "best_24": median - 5, "ref_median_24": 850.0,
                             "ref_spread_24": 0.01, "spread_24": 0.02})
                if progress:
                    progress(len(rows), rows[-1])
            return rows
        with mock.patch.object(benchdata, "run", side_effect=run), \
                mock.patch("sys.stdout") as out:
            path = tune.tune({"keccak": "bench_keccak"}, "gcc", "12.2.0", "-O3", "x86_64",
                             CAPS, True, "test")
        with open(path) as f:
            said = "".join(str(c.args[0]) for c in out.write.call_args_list)
            return json.load(f), fast, default, said

    def test_a_margin_within_the_spread_is_a_tie_and_the_default_stays(self):
        data, fast, default, said = self.tune(590.0)     # 1.7% ahead, spreads 2%
        self.assertEqual(data["choice"]["keccak_scalar"], default)
        tie = data["ties"]["keccak_scalar"]
        self.assertEqual((tie["winner"], tie["default"], tie["race"]), (fast, default, "first"))
        self.assertEqual(tie["spread"], 0.02)
        self.assertNotIn("keccak_scalar", data["confirmations"])
        self.assertIn(f"keccak_scalar: tie: {fast} is 1.02x the untuned default {default}", said)
        self.assertIn("spread_24", data["metrics"]["keccak_scalar"])

    def test_a_clear_win_is_chosen_and_no_tie_recorded(self):
        data, fast, default, _ = self.tune(500.0)
        self.assertEqual(data["choice"]["keccak_scalar"], fast)
        self.assertEqual(data["ties"], {})
        self.assertEqual([r["variant"] for r in data["confirmations"]["keccak_scalar"]],
                         [fast, default])


def options(**kw):
    base = dict(multi=None, unroll=None, lane_complement=None, rotate=None, parity=None, lanes=None,
                chacha_isa=None, chacha_schedule=None, chacha_rotate=None, chacha_states=None,
                chacha_rounds=None)
    base.update(kw)
    return argparse.Namespace(**base)


class Configure(unittest.TestCase):
    target = targets.get("x86_64")
    cc = {"cc": "gcc", "id": "gcc", "caps": CAPS}

    def test_the_profile_shapes_out_and_options_override_it(self):
        k = choices.pick_keccak(options(), self.target, self.cc, ALL)
        self.assertEqual(k.name, SCALAR)
        k = choices.pick_keccak(options(unroll="2"), self.target, self.cc, ALL)
        self.assertEqual(k.unroll, 2)
        self.assertTrue(k.lane_complement)

    def test_x_n_kernels_take_the_tuned_unroll_unless_one_is_given(self):
        names = [m.name for m in choices.pick_multis(options(), self.target, self.cc, ALL)]
        self.assertEqual(names, [X8, X4])
        names = [m.name for m in choices.pick_multis(
            options(multi="x8-u3-avx512,x4-avx2,x2-sse2"), self.target, self.cc, ALL)]
        self.assertEqual(names, ["keccakp1600-x8-u3-avx512", X4,
                                 f"keccakp1600-x2-u{targets.DEFAULT_SIMD_UNROLL}-sse2"])

    def test_chacha_takes_the_tuned_variant_under_the_options(self):
        c = choices.pick_chacha(options(), self.target, self.cc, ALL)
        self.assertEqual(c.name, CHACHA)
        c = choices.pick_chacha(options(chacha_schedule="seq"), self.target, self.cc, ALL)
        self.assertEqual(c.name, "chacha-x32-seq-vprold-avx512")
        tcc = {"cc": "tcc", "id": "tcc", "caps": []}
        c = choices.pick_chacha(options(), self.target, tcc, ALL)
        self.assertEqual(c, targets.default_chacha(self.target, "tcc"))

    def test_configure_tune_is_not_recorded_in_build_ninja(self):
        # build.ninja reruns configure with the recorded arguments: --tune there would tune
        # again on every rerun.
        for argv, rest in ((["--tune"], []), (["--tune", "quick", "--cc", "gcc"], ["--cc", "gcc"]),
                           (["--cc", "clang", "--tune=full"], ["--cc", "clang"]),
                           (["--tune", "--cc", "gcc"], ["--cc", "gcc"])):
            self.assertEqual(configure.without_tune(argv), rest)

    def test_a_single_state_vector_winner_goes_to_out_unless_the_scalar_is_shaped(self):
        won = dict(ALL, keccak_scalar="keccakp1600-u2-avx512")
        self.assertEqual(choices.pick_keccak(options(), self.target, self.cc, won).name,
                         "keccakp1600-u2-avx512")
        self.assertEqual(choices.pick_keccak(options(unroll="3"), self.target, self.cc,
                                               won).isa, "scalar")
        tcc = {"cc": "tcc", "id": "tcc", "caps": ["gnu-asm-x86-64"]}
        self.assertNotEqual(choices.pick_keccak(options(), self.target, tcc, won).name,
                            "keccakp1600-u2-avx512")

    def test_configure_says_which_profile_applies_or_that_none_does(self):
        args = argparse.Namespace(no_profile=False, cflags="-O3")
        cc = dict(self.cc, version="12.2.0")
        quiet = mock.patch.object(choices, "bundle_row_note")
        with mock.patch.object(profiles, "lookup", return_value=({}, [])), quiet, \
                mock.patch("builtins.print") as out:
            choices.tuned_choices(args, targets.host(), cc)
        line, = [c.args[0] for c in out.call_args_list]
        self.assertIn("no tuned profile applies", line)
        self.assertIn("./configure.py --tune quick", line)
        with mock.patch.object(profiles, "lookup", return_value=(ALL, [])), quiet, \
                mock.patch("builtins.print") as out:
            choices.tuned_choices(args, targets.host(), cc)
        line, = [c.args[0] for c in out.call_args_list]
        self.assertIn(os.path.relpath(profiles.host_path("gcc"), profiles.ROOT), line)

    def test_configure_says_whether_the_bundle_table_has_this_cpus_row(self):
        cc = dict(self.cc, version="12.2.0")
        amd = {"key": {"arch": "x86_64", "mode": "bundle", "compiler": "gcc",
                       "vendor": "AuthenticAMD", "cpu_id": "family 26 model 2"}}
        for cpu_id, want in (("family 26 model 2", "has this CPU's row"),
                             ("family 25 model 17", "has no gcc row")):
            with mock.patch.object(choices.cpu_table, "load",
                                   return_value=[("x-gcc-bundle.json", amd)]), \
                    mock.patch.object(profiles, "cpu_identity", return_value=("AMD EPYC", [])), \
                    mock.patch.object(profiles, "cpu_family_model", return_value=cpu_id), \
                    mock.patch.object(choices.cpu_table, "host_vendor",
                                      return_value="AuthenticAMD"), \
                    mock.patch("builtins.print") as out:
                choices.bundle_row_note(cc)
            line, = [c.args[0] for c in out.call_args_list]
            self.assertIn(want, line)

    def test_without_a_profile_the_defaults(self):
        self.assertEqual(choices.pick_keccak(options(), self.target, self.cc, {}),
                         targets.default_keccak(self.target, "gcc"))
        self.assertEqual(choices.pick_chacha(options(), self.target, self.cc, {}),
                         targets.default_chacha(self.target, "gcc"))


if __name__ == "__main__":
    unittest.main()
