# SPDX-License-Identifier: Apache-2.0 OR MIT
"""`python3 -m generator bench`: its command line (every generate option, each shape option a
list, its own ones; one line and exit 2 on a bad one, with nothing built) and real sweeps: a
single variant and a small list, verified and in the table and the TSV, a planted wrong
kernel reported as not verified, the figure (where matplotlib is installed) or the one line
saying how to get it, Ctrl-C leaving nothing behind. The bench programs' --help and
refusals."""

import contextlib
import io
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))
from generator import __main__ as cli, toolprobe  # noqa: E402
from generator.measure import benchdata  # noqa: E402
from generator.emit import kernels  # noqa: E402
from generator import toolprobe as toolcheck  # noqa: E402


def run(*argv, env=None):
    return subprocess.run([sys.executable, "-m", "generator", "bench", *argv], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, env=env)


class CommandLine(unittest.TestCase):
    def test_help_lists_generate_options_and_its_own(self):
        r = run("--help")
        self.assertEqual(r.returncode, 0)
        for option in ("--unroll", "--lane-complement", "--chacha-isa", "--isa", "--cc",
                       "--rounds", "--turns", "--xkcp"):
            self.assertIn(option, r.stdout)

    def test_help_says_the_shape_options_take_lists(self):
        # The options' entries, not the example that ends the help.
        text = " ".join(run("--help").stdout.split()).split(" example: ")[0]
        for option in ("--unroll", "--rotate", "--multi", "--chacha-isa", "--isa"):
            entry = text.split(f" {option} ", 2)[-1].split(" --", 1)[0]
            self.assertIn("list sweeps the values", entry, option)
        for option in ("--tsv", "--plot", "--sponge"):
            self.assertIn(option, text)

    def test_bad_arguments_one_line_exit_2_nothing_built(self):
        for argv in (["--bogus"], ["--unr", "3"], ["--cc", "icc"], ["--rounds", "30"],
                     ["--rounds", "x"], ["--cc-id", "gcc"], ["--multi", "x8-avx999"],
                     ["--unroll", "5"], ["--turns", "0"], ["--kernels", "aes"],
                     ["--xkcp", "/nonexistent"],
                     # bad lists: an unknown value, an empty item, a value twice, a
                     # combination no compiler has
                     ["--unroll", "1,5"], ["--unroll", "1,,2"], ["--unroll", "2,"],
                     ["--unroll", "2,3,2"], ["--rotate", "shift,spin"],
                     ["--lane-complement", "on,on"], ["--chacha-states", "1,3"],
                     ["--unroll", "3", "--isa", "x86asm"],
                     ["--unroll", "2,3", "--isa", "x86asm", "--cc", "gcc"],
                     ["--rotate", "rorx", "--cc", "tcc"],
                     ["--kernels", "chacha", "--chacha-isa", "scalar", "--chacha-states", "2"],
                     ["--multi", "x4-avx2", "--unroll", "2,3"],
                     ["--sponge", "--kernels", "chacha"], ["--plot", "figure.pdf"],
                     ["--tsv", "/nonexistent/rows.tsv"], ["--unroll", "2,3", "--target",
                                                          "aarch64"]):
            with self.subTest(argv=argv), tempfile.TemporaryDirectory() as tmp:
                r = run(*argv, env=dict(os.environ, TMPDIR=tmp))
                self.assertEqual(r.returncode, 2, (argv, r.stderr))
                self.assertEqual(len(r.stderr.strip().splitlines()), 1, (argv, r.stderr))
                self.assertEqual(r.stdout, "", argv)
                self.assertEqual(os.listdir(tmp), [], "a refused bench left files")

    def test_each_bad_list_names_what_is_wrong(self):
        for argv, said in ((["--unroll", "1,,2"], "an empty item in '1,,2'"),
                           (["--unroll", "2,3,2"], "'2' given twice"),
                           (["--rotate", "shift,spin"], "unknown value 'spin'"),
                           (["--unroll", "3", "--isa", "x86asm"],
                            "exists for no compiler")):
            r = run(*argv)
            self.assertIn(said, r.stderr, argv)


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
        row = next(l for l in out.splitlines() if l.startswith("as asked"))
        self.assertTrue(row.rstrip().endswith("verified"), row)
        self.assertIn("cyc/12r", out)
        self.assertIn("the row is keccakp1600-u2-", out)
        self.assertIn("reference", out)

    def test_a_wrong_kernel_is_reported_not_verified(self):
        real = kernels.keccak_any

        def planted(env, v, prefix, *rest):
            files = real(env, v, prefix, *rest)
            if prefix.startswith("keccakp1600_u2_"):  # the asked one: a wrong round constant
                files = {n: t.replace("0x0000000000000001ULL", "0x0000000000000003ULL", 1)
                         for n, t in files.items()}
            return files
        with mock.patch.object(kernels, "keccak_any", planted):
            out = self.bench("--unroll", "2,3")
        rows = {l.split()[0]: l for l in out.splitlines() if l[:2] in ("2 ", "3 ")}
        self.assertTrue(rows["2"].rstrip().endswith("WRONG"), rows)
        self.assertTrue(rows["3"].rstrip().endswith("verified"), rows)
        self.assertIn("keccakp1600-u2-nolc-fused-builtin-scalar: WRONG: fails", out)


@unittest.skipUnless(shutil.which("gcc"), "gcc not installed")
class Sweep(unittest.TestCase):
    """A small real sweep, end to end through the command line."""

    ARGV = ["--kernels", "keccak", "--unroll", "2,3", "--cc", "gcc", "--turns", "3",
            "--xkcp", "none"]

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def test_rows_verification_table_and_tsv(self):
        tsv = os.path.join(self.tmp.name, "rows.tsv")
        r = run(*self.ARGV, "--tsv", tsv, env=dict(os.environ, TMPDIR=self.tmp.name))
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        head = next(l for l in lines if l.startswith("unroll"))
        for column in ("cycles", "spread", "x def", "x best", "check"):
            self.assertIn(column, head)
        table = [l for l in lines if l[:2] in ("2 ", "3 ")]
        self.assertEqual(len(table), 2, r.stdout)
        for l in table:
            self.assertTrue(l.rstrip().endswith("verified"), l)
        # The best row is marked; the other is either a tie with it or decisively slower.
        marks = [l.split("|")[1].split()[3][-1] for l in table]
        self.assertEqual(marks.count("*"), 1, table)
        with open(tsv) as f:
            rows = benchdata.parse_tsv(f.read())
        self.assertEqual([r_["variant"] for r_ in rows],
                         ["keccakp1600-u2-nolc-fused-builtin-scalar",
                          "keccakp1600-u3-nolc-fused-builtin-scalar"])
        for row in rows:
            self.assertEqual((row["compiler"], row["status"], row["check"]),
                             ("gcc", "ok", "verified"))
            self.assertGreater(row["median"], 0)
            self.assertGreaterEqual(row["spread"], 0)
            self.assertEqual(row["default_variant"], "keccakp1600-u4-nolc-fused-builtin-scalar")
        self.assertEqual(sorted(str(row["tie_with_best"]) for row in rows)[-1], "best")
        self.assertIn("[1/", r.stderr)           # progress while it builds
        self.assertIn("racing 3 keccak", r.stderr)
        self.assertEqual(sorted(os.listdir(self.tmp.name)), ["rows.tsv"])

    def test_sponge_beside_the_permutation(self):
        tsv = os.path.join(self.tmp.name, "rows.tsv")
        r = run(*self.ARGV, "--sponge", "--tsv", tsv)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("SHA3 1KiB", r.stdout)
        with open(tsv) as f:
            rows = benchdata.parse_tsv(f.read())
        self.assertEqual(len(rows), 2)
        for row in rows:
            self.assertEqual(row["check"], "verified")
            # the sponge's cycles per byte: above the bare permutation's share (about 600
            # cycles per 136-byte block), far below anything broken
            for column in ("sha3_1k_median", "sha3_1m_median"):
                self.assertTrue(1 < row[column] < 100, (column, row))

    def test_plot(self):
        why = toolcheck.python_module("matplotlib")
        if why:
            self.skipTest(why)
        svg = os.path.join(self.tmp.name, "sweep.svg")
        r = run(*self.ARGV, "--plot", svg)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(svg) as f:
            text = f.read()
        self.assertIn("<svg", text)
        for words in ("--unroll", "TSC cycles per permutation", "gcc 1", "gcc default"):
            self.assertIn(words, text, "not in the figure")

    def test_without_matplotlib_the_table_and_one_line_on_the_figure(self):
        out, err = io.StringIO(), io.StringIO()
        real = toolprobe.importable
        with mock.patch.object(toolprobe, "importable",
                               lambda m, python=None: m != "matplotlib" and real(m, python)), \
                contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(["bench", *self.ARGV[:-2], "--xkcp", "none", "--plot",
                             os.path.join(self.tmp.name, "s.svg")])
        self.assertEqual(code, 0, err.getvalue())
        self.assertIn("verified", out.getvalue())
        said = [l for l in err.getvalue().splitlines() if "no figure" in l]
        self.assertEqual(len(said), 1, err.getvalue())
        self.assertIn("apt-get install -y python3-matplotlib", said[0])
        self.assertFalse(os.path.exists(os.path.join(self.tmp.name, "s.svg")))

    def test_ctrl_c_leaves_nothing_behind(self):
        env = dict(os.environ, TMPDIR=self.tmp.name)
        p = subprocess.Popen([sys.executable, "-m", "generator", "bench", "--kernels", "keccak",
                              "--unroll", "1,2,3,24", "--cc", "gcc", "--xkcp", "none"],
                             cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
        try:
            for line in p.stderr:
                if "compiling" in line:
                    break
            p.send_signal(signal.SIGINT)
            _, rest = p.communicate(timeout=120)
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
        self.assertEqual(p.returncode, 130, rest)
        self.assertIn("interrupted", rest)
        self.assertNotIn("Traceback", rest)
        self.assertEqual(os.listdir(self.tmp.name), [])


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
