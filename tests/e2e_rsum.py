# SPDX-License-Identifier: Apache-2.0 OR MIT
"""rsum end to end against `openssl dgst` on generated files (run by the build with RSUM set
to the binary; not collected by unittest discovery, which runs before anything is built)."""

import hashlib
import os
import random
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from generator.model import reference  # noqa: E402

RSUM = os.environ.get("RSUM", "build/rsum")
OPENSSL = shutil.which("openssl")
# rsum name -> openssl dgst name and the output bytes compared
OPENSSL_NAMES = {"sha3-224": ("-sha3-224", None), "sha3-256": ("-sha3-256", None),
                 "sha3-384": ("-sha3-384", None), "sha3-512": ("-sha3-512", None),
                 "shake128": ("-shake128", 16), "shake256": ("-shake256", 32)}


def rsum(*args, stdin=None):
    return subprocess.run([RSUM, *args], capture_output=True, text=True, input=stdin)


class AgainstOpenssl(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        rng = random.Random(7)
        cls.files = []
        for size in (0, 1, 135, 136, 137, 4096, 65537, 300_000, 1 << 20):
            path = os.path.join(cls.tmp.name, f"f{size}.bin")
            with open(path, "wb") as f:
                f.write(bytes(rng.getrandbits(8) for _ in range(min(size, 4096))) *
                        (size // 4096 + 1) if size else b"")
                f.truncate(size)
            cls.files.append(path)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    @unittest.skipUnless(OPENSSL, "openssl not installed")
    def test_every_algorithm_openssl_knows(self):
        for algo, (flag, length) in OPENSSL_NAMES.items():
            args = ["-a", algo] + (["-l", str(length)] if length else [])
            ours = rsum(*args, *self.files)
            self.assertEqual(ours.returncode, 0, ours.stderr)
            theirs = subprocess.run([OPENSSL, "dgst", flag, *self.files], capture_output=True,
                                    text=True, check=True).stdout
            want = [line.rsplit("= ", 1)[1] for line in theirs.splitlines()]
            got = [line.split("  ", 1)[0] for line in ours.stdout.splitlines()]
            self.assertEqual(got, want, algo)

    def test_algorithms_openssl_lacks_against_the_reference(self):
        data = open(self.files[4], "rb").read()
        cases = {"keccak256": reference.keccak256(data),
                 "kt128": reference.kt128(data, b"", 32),
                 "turboshake128": reference.turboshake(128, data, 0x1F, 32),
                 "turboshake256": reference.turboshake(256, data, 0x1F, 64)}
        for algo, want in cases.items():
            r = rsum("-a", algo, self.files[4])
            self.assertEqual(r.stdout.split()[0], want.hex(), algo)

    def test_kt256_and_parallelhash(self):
        """ParallelHash with rsum's blocks of 8192 bytes over a file of nine blocks (the last
        partial), and with -l, which is part of its result."""
        data = open(self.files[6], "rb").read()
        cases = {("kt256",): reference.kt256(data, b"", 64),
                 ("parallelhash128",): reference.parallelhash(128, data, 8192, 32),
                 ("parallelhash256",): reference.parallelhash(256, data, 8192, 64),
                 ("parallelhash128", "-l", "20"): reference.parallelhash(128, data, 8192, 20)}
        for args, want in cases.items():
            r = rsum("-a", args[0], *args[1:], self.files[6])
            self.assertEqual(r.stdout.split()[0], want.hex(), args)
        r = rsum("-a", "parallelhash256", self.files[6])
        sums = os.path.join(self.tmp.name, "ph.sums")
        with open(sums, "w") as f:
            f.write(r.stdout)
        r = rsum("-a", "parallelhash256", "--check", sums)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_stdin_and_dash(self):
        data = open(self.files[3], "rb").read()
        want = hashlib.sha3_256(data).hexdigest()
        r = subprocess.run([RSUM], input=data, capture_output=True)
        self.assertEqual(r.stdout.decode().split()[0], want)
        r = subprocess.run([RSUM, "-"], input=data, capture_output=True)
        self.assertEqual(r.stdout.decode(), f"{want}  -\n")

    def test_check_reports_ok_and_failed(self):
        sums = rsum("-a", "shake256", "-l", "100", *self.files[:4]).stdout.splitlines()
        sums[1] = ("0" if sums[1][0] != "0" else "1") + sums[1][1:]
        path = os.path.join(self.tmp.name, "sums")
        with open(path, "w") as f:
            f.write("\n".join(sums) + "\n" + "00" * 100 + "  " + self.tmp.name + "/missing\n")
        r = rsum("-a", "shake256", "--check", path)
        self.assertEqual(r.returncode, 1)
        lines = r.stdout.splitlines()
        self.assertEqual(sum(l.endswith(": OK") for l in lines), 3)
        self.assertEqual(sum(l.endswith(": FAILED") for l in lines), 1)
        self.assertEqual(sum(l.endswith(": FAILED open or read") for l in lines), 1)
        good = os.path.join(self.tmp.name, "good")
        with open(good, "w") as f:
            f.write(rsum(*self.files).stdout)
        self.assertEqual(rsum("--check", good).returncode, 0)

    def test_unreadable_file_reported_and_others_processed(self):
        missing = os.path.join(self.tmp.name, "nope")
        r = rsum(self.files[1], missing, self.files[2])
        self.assertEqual(r.returncode, 1)
        self.assertEqual(len(r.stdout.splitlines()), 2)
        self.assertIn("nope: No such file or directory", r.stderr)

    def test_bad_usage_exits_2_with_one_line(self):
        for args in (["-a", "md5"], ["-l", "0"], ["-a", "sha3-256", "-l", "10"], ["--bogus"]):
            r = rsum(*args, self.files[0])
            self.assertEqual(r.returncode, 2, args)
            self.assertEqual(len(r.stderr.splitlines()), 1, r.stderr)
            self.assertEqual(r.stdout, "")
        r = rsum("-a")
        self.assertEqual((r.returncode, r.stderr), (2, "rsum: -a needs a value (rsum --help)\n"))

    def test_help_is_on_stdout_and_exits_0(self):
        for flag in ("--help", "-h"):
            r = rsum(flag)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(r.stderr, "")
            self.assertTrue(r.stdout.startswith("usage: rsum "), r.stdout)
            self.assertIn("parallelhash256", r.stdout)


if __name__ == "__main__":
    unittest.main()
