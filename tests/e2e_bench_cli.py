# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The bench programs' command lines under random and hostile argument lists.

Each program ninja built (RS_BENCH_PROGRAMS, space separated; `ninja test` passes one
compiler's) gets a few dozen lists mixing its own options (read from its --help) with unknown
ones, missing and hostile values and variant names. Each run must end in exit 0 or 2 (never a
signal), refuse in one line on stderr, and write no file. Valid lists are kept short with
--turns 1 (they run a real, tiny race).
"""

import os
import random
import re
import subprocess
import tempfile
import unittest

SEED = 20261201
LISTS_PER_PROGRAM = 25
HOSTILE = ["", "-", "--", "-1", "0", "99999999999999999999", "1e9", "nan", "\u00e9", "a b",
           "a\nb", "--help=1", "-h", "--tsv=1", "%s%n%x", "x" * 300, "--turns", "4294967297"]


def options_of(help_text):
    return sorted(set(re.findall(r"(?<![\w-])(--?[a-z][\w-]*)", help_text)) - {"--help", "-h"})


def argument_list(rng, options):
    # Every list starts with one turn, so an accepted list times little (a later --turns in
    # the list still wins); without it, a third of the lists ran full benches, a minute.
    argv = ["--turns", "1"]
    for _ in range(rng.randrange(4)):
        roll = rng.random()
        if roll < 0.1:
            argv.append(rng.choice(["--bogus", "-x", "---", "--tur", "--tsvx"]))
        elif roll < 0.25:
            argv.append(rng.choice(HOSTILE))
        else:
            option = rng.choice(options)
            argv.append(option)
            if rng.random() < 0.8:
                argv.append(rng.choice(["1", "2"]) if roll < 0.6
                            else rng.choice(HOSTILE))
    return argv


class BenchCommandLines(unittest.TestCase):
    def test_random_and_hostile_lists(self):
        programs = os.environ.get("RS_BENCH_PROGRAMS", "").split()
        if not programs:
            self.skipTest("RS_BENCH_PROGRAMS names no program (ninja test sets it)")
        rng = random.Random(SEED)
        ran = 0
        with tempfile.TemporaryDirectory() as cwd:
            for prog in programs:
                prog = os.path.abspath(prog)
                usage = subprocess.run([prog, "--help"], capture_output=True, text=True,
                                       timeout=60, cwd=cwd)
                self.assertEqual(usage.returncode, 0, prog)
                self.assertIn("usage:", usage.stdout)
                options = options_of(usage.stdout) or ["--turns"]
                for _ in range(LISTS_PER_PROGRAM):
                    argv = argument_list(rng, options)
                    r = subprocess.run([prog, *argv], capture_output=True, text=True,
                                       timeout=300, cwd=cwd, errors="replace")
                    ran += 1
                    with self.subTest(program=os.path.basename(prog), argv=argv):
                        self.assertIn(r.returncode, (0, 2), r.stderr[-500:])
                        if r.returncode == 2:
                            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
                        self.assertEqual(os.listdir(cwd), [], "a bench wrote a file")
        print(f"\nbench command lines: {ran} lists over {len(programs)} programs",
              file=__import__("sys").__stderr__)


if __name__ == "__main__":
    unittest.main()
