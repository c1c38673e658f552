# SPDX-License-Identifier: Apache-2.0 OR MIT
"""--prefix P: every name a bundle's headers define, declare or test begins with P or
upper(P), none with two prefixes (tests/prefix_names.py); without a prefix the namespace is
rs_ / RS_. --prefix P --keep-drop-in-names: the same but for the drop-ins' names, which are
their peers' own. The symbols of the compiled objects are checked in tests/e2e_bundle.py and
tests/e2e_peer_names.py."""

import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from generator.emit import bundle  # noqa: E402
from generator.choice import targets  # noqa: E402
from tests import prefix_names  # noqa: E402


# pq-crystals/ holds a client's headers, its names (keccak_state, SHAKE128_RATE, shake128 as a
# macro onto the namespaced symbol: tests/test_bundle.py) its own: no prefix applies.
class Headers(unittest.TestCase):
    def names(self, files):
        out = set()
        for name, text in files.items():
            if name.endswith(".h") and "/" not in name:
                out |= {(k, n) for k, n in prefix_names.header_names(text)}
        return out

    def test_every_bundle_prefixed(self):
        for target in targets.CANONICAL_BUNDLES:
            files = bundle.files(targets.BUNDLES[target], "a_", "cmd")
            with self.subTest(target=target):
                names = self.names(files)
                self.assertIn(("function", "a_selftest"), names)
                self.assertIn(("function", "a_path_name"), names)
                self.assertTrue(any(n.startswith("A_PATH_") for _, n in names))
                self.assertEqual(prefix_names.problems("a_", names), [])
                amalgamated = bundle.amalgamate(files, "cmd", "a_")
                self.assertEqual(prefix_names.problems("a_", self.names(amalgamated)),
                                 [])

    def test_the_scanner_sees_what_it_must(self):
        text = ("#ifndef RS_A_X_H\n#define RS_A_X_H\n#define A_RS_SELFTEST_OK 0\n"
                "#ifdef RS_TUNING_HOOKS\nint a_rs_path(void);\n#endif\n"
                "struct chacha8_ctx { int x; };\ntypedef struct { int y; } a_a_ctx;\n"
                "void sha3_256(uint8_t out[32], const uint64_t (*s)[2]);\n")
        got = prefix_names.problems("a_", prefix_names.header_names(text))
        for name in ("RS_A_X_H", "A_RS_SELFTEST_OK", "RS_TUNING_HOOKS", "a_rs_path",
                     "chacha8_ctx", "a_a_ctx", "sha3_256"):
            self.assertTrue(any(f" {name}:" in g for g in got), (name, got))
        self.assertEqual(len({g.split(":")[0].split()[-1] for g in got}), 7, got)

    def test_no_prefix_keeps_the_rs_namespace(self):
        files = bundle.files(targets.BUNDLES["x86_64"], "", "cmd")
        self.assertIn("#ifndef RS_DISPATCH_H", files["rs_dispatch.h"])
        self.assertIn("#define RS_CHOICE_X4_AVX2 ", files["rs_dispatch.h"])
        self.assertIn("#define RS_CHOICE_CHACHA_SCALAR 0", files["rs_dispatch.h"])
        self.assertIn("int rs_selftest(void);", files["roundsmith.h"])
        self.assertIn("void sha3_256(", files["keccak_sponge.h"])
        self.assertIn("KeccakP1600_Initialize(", files["KeccakP-1600-SnP.h"])
        for name, text in files.items():
            self.assertNotIn("RS_RS_", text, name)
        a = bundle.files(targets.BUNDLES["x86_64"], "a_", "cmd")
        self.assertIn("a_KeccakP1600_Initialize(", a["KeccakP-1600-SnP.h"])
        self.assertIn("struct a_chacha8_ctx", a["chacha.h"])
        self.assertIn("#define A_CHOICE_X4_AVX2 ", a["rs_dispatch.h"])



class DropInNames(unittest.TestCase):
    """--keep-drop-in-names: the drop-ins keep every name of theirs, nothing else does."""

    def names(self, files):
        return set().union(*(prefix_names.header_names(text) for name, text in files.items()
                             if name.endswith(".h") and "/" not in name))

    def test_every_bundle_keeps_exactly_the_drop_in_names(self):
        for target in targets.CANONICAL_BUNDLES:
            files = bundle.files(targets.BUNDLES[target], "a_", "cmd", keep_drop_in_names=True)
            with self.subTest(target=target):
                names = self.names(files)
                self.assertEqual(prefix_names.problems("a_", names, drop_ins=True), [])
                self.assertEqual(prefix_names.DROP_IN_NAMES - {n for _, n in names}, set())
                self.assertIn(("function", "a_sha3_256"), names)
                self.assertIn(("function", "a_chacha12_keysetup"), names)
                self.assertIn(("function", "a_selftest"), names)
                self.assertIn("drop-in names", files["roundsmith.h"].split("*/")[1])
                amalgamated = self.names(bundle.amalgamate(files, "cmd", "a_"))
                self.assertEqual(prefix_names.problems("a_", amalgamated, drop_ins=True), [])
                self.assertEqual(prefix_names.DROP_IN_NAMES - {n for _, n in amalgamated},
                                 set())

    def test_the_checker_catches_a_prefixed_drop_in(self):
        # What plain --prefix makes: right there, wrong under --keep-drop-in-names.
        names = self.names(bundle.files(targets.BUNDLES["portable"], "a_", "cmd"))
        self.assertEqual(prefix_names.problems("a_", names), [])
        got = prefix_names.problems("a_", names, drop_ins=True)
        self.assertIn("function a_KeccakP1600_Initialize: a drop-in name with the prefix", got)
        self.assertIn("type a_chacha8_ctx: a drop-in name with the prefix", got)
        self.assertEqual(len(got), len(prefix_names.DROP_IN_NAMES))

    def cli(self, *args):
        return subprocess.run([sys.executable, "-m", "generator", *args], cwd=ROOT,
                              capture_output=True, text=True, timeout=300)

    def test_without_a_prefix_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            for command in ("bundle", "generate"):
                r = self.cli(command, "--target", "generic64", "--keep-drop-in-names",
                             "--out", os.path.join(tmp, command))
                self.assertEqual(r.returncode, 2, command)
                self.assertEqual(len(r.stderr.splitlines()), 1, r.stderr)
                self.assertIn("--keep-drop-in-names needs --prefix", r.stderr)
                self.assertFalse(os.path.exists(os.path.join(tmp, command)))
            r = self.cli("bundle", "--canonical", "--keep-drop-in-names")
            self.assertEqual(r.returncode, 2)
            self.assertEqual(len(r.stderr.splitlines()), 1, r.stderr)

    def test_generate_keeps_them_and_records_it(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "g")
            r = self.cli("generate", "--target", "generic64", "--prefix", "a_",
                         "--keep-drop-in-names", "--out", out)
            self.assertEqual(r.returncode, 0, r.stderr)
            files = {}
            for name in os.listdir(out):
                with open(os.path.join(out, name)) as f:
                    files[name] = f.read()
        names = self.names(files)
        self.assertEqual(prefix_names.problems("a_", names, drop_ins=True), [])
        # generate has no parallel SnP: the single-state one and chiapos' ChaCha8.
        single = {n for n in prefix_names.DROP_IN_NAMES if "times" not in n}
        self.assertEqual(single - {n for _, n in names}, set())
        self.assertIn("--keep-drop-in-names", files["roundsmith.manifest"])
        self.assertRegex(files["KeccakP-1600-SnP.h"], r"drop-in names += ")
        self.assertIn("void KeccakP1600_Initialize(void *state);", files["KeccakP-1600-SnP.h"])


if __name__ == "__main__":
    unittest.main()
