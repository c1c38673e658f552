# SPDX-License-Identifier: Apache-2.0 OR MIT
"""--prefix P: every name a bundle's headers define, declare or test begins with P or
upper(P), none with two prefixes (tests/prefix_names.py); without a prefix the namespace is
rs_ / RS_. The symbols of the compiled objects are checked in tests/e2e_bundle.py."""

import os
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from generator.emit import bundle  # noqa: E402
from generator.choice import targets  # noqa: E402
from tests import prefix_names  # noqa: E402


class Headers(unittest.TestCase):
    def names(self, files):
        out = set()
        for name, text in files.items():
            if name.endswith(".h"):
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


if __name__ == "__main__":
    unittest.main()
