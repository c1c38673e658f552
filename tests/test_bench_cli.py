# SPDX-License-Identifier: Apache-2.0 OR MIT
"""`python3 -m generator bench`: its command line (every generate option, its own ones, one
line and exit 2 on a bad one) and one real run per compiler, verified, with a planted wrong
kernel reported as not verified. The bench programs' --help and refusals."""

import contextlib
import io
import os
import shutil
import subprocess
import sys
import unittest
from unittest import mock

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from generator import __main__ as cli, kernels  # noqa: E402


def run(*argv):
    return subprocess.run([sys.executable, "-m", "generator", "bench", *argv], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


class CommandLine(unittest.TestCase):
    def test_help_lists_generate_options_and_its_own(self):
        r = run("--help")
        self.assertEqual(r.returncode, 0)
        for option in ("--unroll", "--lane-complement", "--chacha-isa", "--isa", "--cc",
                       "--rounds", "--turns", "--xkcp"):
            self.assertIn(option, r.stdout)

    def test_bad_arguments_one_line_exit_2(self):
        for argv in (["--bogus"], ["--unr", "3"], ["--cc", "icc"], ["--rounds", "30"],
                     ["--rounds", "x"], ["--multi", "x8-avx512"], ["--cc-id", "gcc"],
                     ["--unroll", "5"], ["--turns", "0"], ["--kernels", "aes"],
                     ["--xkcp", "/nonexistent"]):
            r = run(*argv)
            self.assertEqual(r.returncode, 2, argv)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, (argv, r.stderr))
            self.assertEqual(r.stdout, "", argv)


@unittest.skipUnless(shutil.which("gcc"), "gcc not installed")
class Run(unittest.TestCase):
    def bench(self, *argv):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(cli.main(["bench", "--cc", "gcc", "--kernels", "keccak",
                                       "--xkcp", "none", "--turns", "3", *argv]), 0)
        return out.getvalue()

    def test_a_variant_is_built_verified_and_raced_against_the_default(self):
        out = self.bench("--unroll", "2", "--rounds", "12")
        row = next(l for l in out.splitlines() if l.startswith("gcc"))
        self.assertIn("keccakp1600-u2-", row)
        self.assertTrue(row.rstrip().endswith("yes"), row)
        self.assertIn("reference", out)

    def test_a_wrong_kernel_is_reported_not_verified(self):
        real = kernels.keccak_any

        def planted(env, v, prefix, *rest):
            files = real(env, v, prefix, *rest)
            if prefix == "v_":  # the asked variant only: a wrong first round constant
                files = {n: t.replace("0x0000000000000001ULL", "0x0000000000000003ULL", 1)
                         for n, t in files.items()}
            return files
        with mock.patch.object(kernels, "keccak_any", planted):
            out = self.bench("--unroll", "2")
        row = next(l for l in out.splitlines() if l.startswith("gcc"))
        self.assertIn("NO: WRONG", row)


class BenchPrograms(unittest.TestCase):
    """--help on stdout with exit 0, a bad argument refused in one line with exit 2."""

    def programs(self):
        found = [os.path.join(ROOT, "build", cc, sub, name)
                 for cc in ("gcc", "clang", "tcc") for sub in ("", "quick")
                 for name in ("bench_keccak", "bench_keccak_simd", "bench_chacha",
                              "bench_sponge")]
        return [p for p in found if os.access(p, os.X_OK)]

    def test_help_and_refusals(self):
        progs = self.programs()
        if not progs:
            self.skipTest("no bench program built")
        for prog in progs:
            r = subprocess.run([prog, "--help"], capture_output=True, text=True, timeout=60)
            self.assertEqual(r.returncode, 0, prog)
            self.assertIn("usage:", r.stdout)
            for bad in (["--bogus"], ["--turns", "0"], ["--turns"], ["no-such-variant"]):
                r = subprocess.run([prog, *bad], capture_output=True, text=True, timeout=60)
                self.assertEqual(r.returncode, 2, (prog, bad))
                self.assertEqual(len(r.stderr.strip().splitlines()), 1, (prog, bad, r.stderr))


if __name__ == "__main__":
    unittest.main()
