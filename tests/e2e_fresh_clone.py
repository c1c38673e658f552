# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The repository as a new user gets it: `git clone` of the committed tree into an empty
folder, nothing beside it, then the README's set-up (`./configure.py`, no option) and a short
build there: the out/ sponge and ChaCha suites, which embed the official vectors, built and
run. A file the tests need that lives outside the repository fails here, not for the user.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Check suites over the committed out/ folders: every official vector file is read to make them.
SHORT_BUILD = ("build/out-check/gcc/check_out.log", "build/out-check/gcc/check_chacha_out.log")


def committed_tree():
    """Why a clone cannot be made here, or None: a tarball of the tree has no history."""
    if not os.path.isdir(os.path.join(ROOT, ".git")) and not os.path.isfile(
            os.path.join(ROOT, ".git")):
        return "not a git checkout (a fresh clone needs the committed tree)"
    if shutil.which("git") is None:
        return "git not installed (apt-get install -y git)"
    return None


@unittest.skipIf(committed_tree(), committed_tree())
class FreshClone(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        # The clone is the only thing in its parent folder: nothing to read beside it.
        cls.parent = os.path.join(cls.tmp.name, "empty")
        os.mkdir(cls.parent)
        cls.tree = os.path.join(cls.parent, "roundsmith")
        subprocess.run(["git", "clone", "-q", "--no-hardlinks", ROOT, cls.tree], check=True)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def run_here(self, *argv):
        # The user's own shell: the same PATH, but a cache of their own.
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(self.tmp.name, "cache"))
        return subprocess.run(argv, cwd=self.tree, capture_output=True, text=True, env=env)

    def test_configure_and_a_short_build(self):
        self.assertEqual(os.listdir(self.parent), ["roundsmith"])
        r = self.run_here("./configure.py")
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
        r = self.run_here("ninja", *SHORT_BUILD)
        self.assertEqual(r.returncode, 0, r.stdout[-3000:])
        for log in SHORT_BUILD:
            with open(os.path.join(self.tree, log)) as f:
                text = f.read()
            with self.subTest(log=log):
                m = re.search(r"(\d+)%: Checks: (\d+), Failures: (\d+), Errors: (\d+)", text)
                self.assertIsNotNone(m, text[-1000:])
                self.assertEqual((m[1], m[3], m[4]), ("100", "0", "0"), m[0])
                self.assertGreater(int(m[2]), 0)
        self.assertEqual(os.listdir(self.parent), ["roundsmith"], "the build wrote beside the clone")

    def test_no_file_names_a_folder_beside_the_tree(self):
        """No committed file reads the vectors (or anything else) from a folder beside the tree."""
        r = self.run_here("git", "grep", "-n", "-I", "-E", r"\.\./shared|\"shared\", \"vectors\"")
        self.assertEqual(r.stdout, "", "files naming a folder beside the tree:\n" + r.stdout)


if __name__ == "__main__":
    unittest.main()
