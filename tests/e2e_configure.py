# SPDX-License-Identifier: Apache-2.0 OR MIT
"""configure.py as a user runs it, in a copy of the tree (it writes build.ninja where it
lives, so never in the tree a running ninja reads):

- `./configure.py --target T --prefix p_ && ninja` for every target of generator/targets.py:
  configure succeeds and ninja can load the graph (no two edges make one file); the host and
  a cross target are built for real;
- random and hostile argument lists: exit 0 or 2, one line on stderr for a refusal, no
  traceback, no file changed outside build.ninja and build/;
- a bad kernel option: its one line and nothing printed before it.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from generator.choice import targets  # noqa: E402

# A fixed count (a time budget ran 11 lists on a loaded machine and 300 on an idle one); the
# seconds only bound a run on a machine so slow the count would not finish.
HOSTILE_LISTS = 50
HOSTILE_SECONDS = 900
BUILT = ("x86_64", "aarch64")   # `ninja` for real: the host, and the failing case


def copy_tree(dest):
    keep_out = {"build", ".git", "__pycache__", "report"}
    shutil.copytree(ROOT, dest, symlinks=True,
                    ignore=lambda d, names: [n for n in names if n in keep_out
                                             or n == "build.ninja" or n.startswith(".ninja")])


def snapshot(top):
    out = {}
    for folder, dirs, files in os.walk(top):
        dirs[:] = [d for d in dirs if not (folder == top and d == "build")]
        for name in files:
            path = os.path.join(folder, name)
            if path == os.path.join(top, "build.ninja") or "__pycache__" in path:
                continue
            st = os.lstat(path)
            out[os.path.relpath(path, top)] = (st.st_size, st.st_mtime_ns)
    return out


class Configure(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.tree = os.path.join(cls.tmp.name, "tree")
        copy_tree(cls.tree)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def driver(self, *args):
        r = subprocess.run([sys.executable, "tests/configure_driver.py", *args], cwd=self.tree,
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
        return json.loads(r.stdout)

    def test_every_target_with_a_prefix(self):
        for row in self.driver("targets", *targets.TARGETS):
            with self.subTest(target=row["target"]):
                self.assertEqual(row["configure"], 0, row["stderr"])
                self.assertEqual(row["ninja_n"], 0, row["ninja_n_err"])
        for name in BUILT:
            with self.subTest(built=name):
                self.assertEqual(self.driver("targets", name)[0]["configure"], 0)
                r = subprocess.run(["ninja"], cwd=self.tree, capture_output=True, text=True)
                self.assertEqual(r.returncode, 0, r.stdout[-3000:])
                with open(os.path.join(self.tree, "build", "out", name, "keccak_p1600.h")) as f:
                    self.assertIn("void p_keccak_p1600(", f.read())

    def test_a_bad_option_prints_nothing_else(self):
        """Options are taken apart before any probe: a refusal is its one line on stderr, with
        nothing on stdout before it (no compiler, profile or plotting notes)."""
        for argv in (["--unroll", "5"], ["--multi", "x3-avx2"], ["--chacha-isa", "nope"],
                     ["--rotate", "purple"], ["--cc", "gcc", "--lanes", "3"], ["--bogus"]):
            with self.subTest(argv=argv):
                r = subprocess.run([sys.executable, "configure.py", *argv], cwd=self.tree,
                                   capture_output=True, text=True)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertEqual(r.stdout, "", r.stdout)
                self.assertEqual(len(r.stderr.splitlines()), 1, r.stderr)
                self.assertTrue(r.stderr.startswith("configure.py: error: "), r.stderr)

    def test_random_and_hostile_argument_lists(self):
        before = snapshot(self.tree)
        rows = self.driver("hostile", str(HOSTILE_LISTS), str(HOSTILE_SECONDS), "20261201")
        counts, reasons = {}, {}
        for row in rows:
            counts[row["code"]] = counts.get(row["code"], 0) + 1
            reason = row["stderr"].split(":")[2].strip()[:30] if row["code"] == 2 else "ok"
            reasons[reason] = reasons.get(reason, 0) + 1
            with self.subTest(argv=row["argv"]):
                self.assertIn(row["code"], (0, 2), row["stderr"])
                self.assertNotIn("Traceback", row["stderr"])
                if row["code"] == 2:
                    self.assertEqual(len(row["stderr"].splitlines()), 1, row["stderr"])
                    self.assertTrue(row["stderr"].startswith("configure.py: error: "),
                                    row["stderr"])
        self.assertEqual(snapshot(self.tree), before, "configure changed a file of the tree")
        self.assertEqual(len(rows), HOSTILE_LISTS)
        print(f"\nhostile configure lines: {len(rows)} lists: "
              + ", ".join(f"exit {k}: {n}" for k, n in sorted(counts.items(), key=str))
              + "; " + ", ".join(f"{r}: {n}" for r, n in sorted(reasons.items())),
              file=sys.__stderr__)


if __name__ == "__main__":
    unittest.main()
