# SPDX-License-Identifier: Apache-2.0 OR MIT
"""`bundle --prefix my_ --keep-drop-in-names` beside a program with its own short names.

SPHINCS+ defines its own shake256 and shake256_absorb, Kyber's reference code its own
shake128 and sha3_256: a plain bundle's objects clash with them. tests/peer_names.c defines
all of those and keccak_f1600, each with a signature of its own, and is built with the
bundle's objects the README's way (every .c of the folder compiled on its own, every object
linked), by gcc and clang with -Wall -Wextra -pedantic -Werror, for out/x86_64's and
out/portable's bundles. It must compile (no header declares the short names), link (no
object defines them) and compute, through the drop-ins under their peers' names (XKCP's
KeccakP1600_* and KeccakP1600times4_*, chiapos' chacha8_*) and through the prefixed API
(my_sha3_256, my_shake256, ...), what Python's hashlib and the reference model say. Then
`nm` of the objects: every exported symbol is my_<name> or one of the drop-ins' own
(tests/prefix_names.py DROP_IN_SYMBOLS), each of those exported, none of them prefixed.

Run by `ninja test` (generator/buildgraph/bundles.py), python3 -m unittest tests.e2e_peer_names.
"""

import concurrent.futures
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from generator import toolprobe  # noqa: E402
from generator.model import reference  # noqa: E402
from tests import prefix_names  # noqa: E402

WARN = ["-Wall", "-Wextra", "-pedantic", "-Werror"]
PROGRAM = os.path.join(ROOT, "tests", "peer_names.c")
PREFIX = "my_"


def run(cmd, **kw):
    env = {k: v for k, v in os.environ.items() if k != "ROUNDSMITH_PATH"}
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600, **kw)


def expected():
    """What tests/peer_names.c prints, from hashlib and the reference model."""
    msg = bytes((i * 7 + 1) & 0xFF for i in range(200))
    key, iv = bytes(range(32)), bytes(range(0xF0, 0xF8))
    out = {"own": "ok", "selftest": "0",
           "sha3_256": hashlib.sha3_256(b"abc").hexdigest(),
           "shake128": hashlib.shake_128(msg).hexdigest(64),
           "shake256": hashlib.shake_256(msg).hexdigest(64),
           "shake256_inc": hashlib.shake_256(msg).hexdigest(64),
           "keccak_f1600": reference.state_to_bytes(reference.keccak_p1600([0] * 25)).hex(),
           "snp_sha3_256": hashlib.sha3_256(b"abc").hexdigest(),
           "chacha8": reference.chacha_keystream(reference.chacha_keysetup(key, iv), 3, 2,
                                                 8).hex()}
    for j in range(4):
        out[f"x4_sha3_{j}"] = hashlib.sha3_256(msg[:j + 1]).hexdigest()
    return out


class KeepDropInNames(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="rs-e2e-peer-names-")
        cls.folders = {}
        for target in ("x86_64", "portable"):
            folder = os.path.join(cls.tmp, target)
            r = run([sys.executable, "-m", "generator", "bundle", "--target", target,
                     "--prefix", PREFIX, "--keep-drop-in-names", "--out", folder], cwd=ROOT)
            if r.returncode:
                raise AssertionError(r.stderr)
            cls.folders[target] = folder

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def objects(self, cc, target):
        """Every .c of the folder compiled on its own, as README step 4 says."""
        folder = self.folders[target]
        out = os.path.join(self.tmp, f"{cc}-{target}")
        os.makedirs(out, exist_ok=True)
        jobs = [(os.path.join(folder, src), os.path.join(out, src[:-2] + ".o"))
                for src in sorted(os.listdir(folder)) if src.endswith(".c")]
        # -O0, two at a time: this test is about names, the other e2e tests about speed.
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            for r in pool.map(lambda j: run([cc, "-O0", *WARN, f"-I{folder}", "-c", j[0],
                                             "-o", j[1]]), jobs):
                self.assertEqual(r.returncode, 0, f"{cc}: {r.stderr[-2000:]}")
        return [o for _, o in jobs]

    def check(self, cc, target):
        objs = self.objects(cc, target)
        exe = os.path.join(self.tmp, f"peer_names-{cc}-{target}")
        r = run([cc, "-O1", *WARN, f"-I{self.folders[target]}", PROGRAM, *objs, "-o", exe])
        self.assertEqual(r.returncode, 0, f"{cc}, {target}: {r.stderr[-3000:]}")
        r = run([exe])
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(r.stderr, "")
        got = dict(re.findall(r"(\w+)=(\S+)", r.stdout))
        for k, v in expected().items():
            self.assertEqual(got.get(k), v, f"{k}: {cc}, {target}")

        nm = run(["nm", "-g", "--defined-only", *objs])
        self.assertEqual(nm.returncode, 0, nm.stderr)
        symbols = prefix_names.nm_symbols(nm.stdout)
        self.assertIn(f"{PREFIX}selftest", symbols)
        self.assertEqual(prefix_names.problems(PREFIX, {("symbol", s) for s in symbols},
                                               drop_ins=True), [], f"{cc}, {target}")
        self.assertEqual(sorted(s for s in symbols if not s.startswith(PREFIX)),
                         sorted(prefix_names.DROP_IN_SYMBOLS), f"{cc}, {target}")

    def test_gcc_x86_64(self):
        self.check("gcc", "x86_64")

    def test_gcc_portable(self):
        self.check("gcc", "portable")

    def test_clang_x86_64(self):
        why = toolprobe.first(toolprobe.compiler(["clang"]))
        if why:
            self.skipTest(why)
        self.check("clang", "x86_64")

    def test_clang_portable(self):
        why = toolprobe.first(toolprobe.compiler(["clang"]))
        if why:
            self.skipTest(why)
        self.check("clang", "portable")


if __name__ == "__main__":
    unittest.main()
