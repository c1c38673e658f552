# SPDX-License-Identifier: Apache-2.0 OR MIT
"""`python3 -m generator tune-bundle` end to end on this machine: it builds the host bundle as
users compile it, races every decision's options, writes a bundle profile to the folder asked
for (never generator/profiles/ here), and the per-CPU table built from that folder gives this
CPU a row that leads with the profile's choices. Bad input is one line and exit 2. Timings
are not asserted: only that every option was checked and timed."""

import json
import os
import platform
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from generator.choice import cpu_table, profiles  # noqa: E402


def tune(*args):
    return subprocess.run([sys.executable, "-m", "generator", "tune-bundle", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=900)


@unittest.skipUnless(platform.machine() == "x86_64", "the x86_64 bundle runs here only")
class TuneBundle(unittest.TestCase):
    def test_writes_a_profile_whose_choices_lead_this_cpus_row(self):
        before = sorted(os.listdir(profiles.PROFILE_DIR))
        with tempfile.TemporaryDirectory(prefix="rs-tune-bundle-") as d:
            r = tune("--cc", "gcc", "--turns", "3", "--profile-dir", d)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            names = os.listdir(d)
            self.assertEqual(len(names), 1, names)
            self.assertTrue(names[0].endswith("-gcc-bundle.json"), names)
            with open(os.path.join(d, names[0])) as f:
                data = json.load(f)
            self.assertEqual(data["key"]["mode"], "bundle")
            self.assertEqual(data["key"]["cflags"], "-O2")
            ident = cpu_table.identity(data["key"])
            self.assertIsNotNone(ident, data["key"])
            self.assertEqual(set(data["choice"]), set(cpu_table.DECISIONS))
            for d_name, rows in data["candidates"].items():
                self.assertTrue(all(r["status"] == "ok" and r["median"] > 0 for r in rows),
                                d_name)
                self.assertIn("scalar" if d_name in ("chacha", "single") else "x1",
                              [r["variant"] for r in rows])
            options = {dec: tuple(r["variant"] for r in rows)
                       for dec, rows in data["candidates"].items()}
            table = cpu_table.build("x86_64", options, {}, d)
            row = next(x for x in table.rows["gcc"] if (x.vendor, x.family, x.model) == ident)
            for k, dec in enumerate(cpu_table.DECISIONS):
                self.assertEqual(row.orders[k][0], data["choice"][dec], dec)
        self.assertEqual(sorted(os.listdir(profiles.PROFILE_DIR)), before)

    def test_bad_input_is_one_line_exit_2(self):
        with tempfile.TemporaryDirectory(prefix="rs-tune-bundle-") as d:
            missing = os.path.join(d, "missing")
            for args in (["--cc", "icc"], ["--cc", ""], ["--turns", "2"], ["--turns", "x"],
                         ["--profile-dir", missing], ["--bogus"]):
                self.refused(args)

    def refused(self, args):
        r = tune(*args)
        self.assertEqual(r.returncode, 2, args)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, (args, r.stderr))
        self.assertEqual(r.stdout, "", args)


if __name__ == "__main__":
    unittest.main()
