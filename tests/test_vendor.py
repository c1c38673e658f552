# SPDX-License-Identifier: Apache-2.0 OR MIT
"""What makes a folder vendorable, as data: licenses and SPDX lines, roundsmith.h, the
self-test's model and codes, bundle --kernels/--chacha-rounds, the build files, tcc's
branch. The compiled side is tests/e2e_vendor.py and tests/e2e_buildsys.py."""

import os
import re
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from generator.emit import bundle, outfolder, render, selftest, vendor  # noqa: E402
from generator.model import reference  # noqa: E402
from generator.choice import targets  # noqa: E402

HAND_WRITTEN = "SPDX-License-Identifier: Apache-2.0 OR MIT"
GENERATED = "SPDX-License-Identifier: CC0-1.0"
# Source kinds that carry a license line; data (vectors, corpora, profiles) and docs do not.
SOURCE = re.compile(r"(\.(c|h|py|sh|j2|in)|^\.ci/run)$")
DATA = ("out/", "tests/vectors/", "tests/fuzz/corpus/", "generator/profiles/")


def generator(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600)


def hand_written():
    r = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if r.returncode:
        raise unittest.SkipTest("not a git checkout")
    return [f for f in r.stdout.split() if SOURCE.search(f) and not f.startswith(DATA)
            and os.path.exists(os.path.join(ROOT, f))]


def unlicensed(paths, line, root=ROOT, within=3):
    """Files whose first `within` lines lack `line`."""
    bad = []
    for rel in paths:
        with open(os.path.join(root, rel), errors="replace") as f:
            head = [f.readline() for _ in range(within)]
        if not any(line in h for h in head):
            bad.append(rel)
    return bad


class Licenses(unittest.TestCase):
    def test_license_files(self):
        for name in ("LICENSE-APACHE", "LICENSE-MIT", "LICENSE-CC0"):
            with open(os.path.join(ROOT, name)) as f:
                self.assertGreater(len(f.read()), 1000, name)

    def test_every_hand_written_source_has_its_line(self):
        files = hand_written()
        self.assertGreater(len(files), 100)
        self.assertEqual(unlicensed(files, HAND_WRITTEN), [],
                         "add the line with: python3 tools/spdx_stamp.py")

    def test_the_check_finds_a_missing_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "a.c"), "w") as f:
                f.write("/* no license here */\nint x;\n")
            self.assertEqual(unlicensed(["a.c"], HAND_WRITTEN, root=tmp), ["a.c"])

    def test_every_generated_file_opens_with_cc0(self):
        for name in targets.CANONICAL_BUNDLES:
            folder = os.path.join(ROOT, "out", name)
            files = outfolder.listing(folder)
            self.assertIn(vendor.LICENSE, files)
            with open(os.path.join(folder, vendor.LICENSE)) as f:
                self.assertEqual(f.read(), render.license_text())
            for f in files:
                if f == vendor.LICENSE:
                    continue
                with open(os.path.join(folder, f)) as fh:
                    first = fh.readline()
                self.assertIn(GENERATED, first, f"out/{name}/{f}")

    def test_generate_output_is_licensed_too(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "g")
            self.assertEqual(generator("generate", "--kernels", "chacha", "--out", out)
                             .returncode, 0)
            files = [f for f in os.listdir(out) if f != vendor.LICENSE]
            self.assertEqual(unlicensed(files, GENERATED, root=out, within=1), [])
            self.assertIn(vendor.LICENSE, os.listdir(out))


class OneHeader(unittest.TestCase):
    def test_every_folder_has_roundsmith_h_and_a_path_name(self):
        for name in targets.CANONICAL_BUNDLES:
            files = bundle.files(targets.BUNDLES[name], "", "cmd")
            h = files["roundsmith.h"]
            for header in vendor.PUBLIC_HEADERS:
                if header in files:
                    self.assertIn(f'#include "{header}"', h, name)
            self.assertIn("const char *rs_path_name(void);", files["rs_dispatch.h"])
            self.assertIn("int rs_selftest(void);", h)
        self.assertIn('return "portable";',
                      bundle.files(targets.BUNDLES["portable"], "", "cmd")["rs_dispatch.c"])

    def test_prefixed(self):
        files = bundle.files(targets.BUNDLES["portable"], "zz_", "cmd")
        # The prefix replaces the rs_ / RS_ namespace, guards included.
        self.assertIn("int zz_selftest(void);", files["roundsmith.h"])
        self.assertIn("#define ZZ_SELFTEST_SHA3_256 11", files["roundsmith.h"])
        self.assertIn("#ifndef ZZ_ROUNDSMITH_H", files["roundsmith.h"])
        self.assertIn("#ifndef ZZ_DISPATCH_H", files["rs_dispatch.h"])
        self.assertIn("const char *zz_path_name(void)", files["rs_dispatch.c"])
        self.assertIn("void zz_sha3_256(", files["keccak_sponge.h"])
        for text in files.values():
            self.assertNotRegex(text, r"\b(zz_rs_|ZZ_RS_|RS_ZZ_)")

    def test_amalgamation_is_the_same_entry_point(self):
        files = bundle.amalgamate(bundle.files(targets.BUNDLES["portable"], "", "cmd"), "cmd")
        self.assertIn("int rs_selftest(void);", files["roundsmith.h"])
        self.assertIn("const char *rs_path_name(void);", files["roundsmith.h"])
        self.assertIn("rs_selftest(void)\n{", files["roundsmith.c"])


class SelfTestModel(unittest.TestCase):
    def test_codes_are_stable(self):
        """A code, once given, names the same check for good: changing one fails here."""
        self.assertEqual(selftest.CODES, {
            "keccak_f1600": 1, "keccak_p1600": 2, "keccak_p1600_absorb": 3, "snp": 4,
            "sha3_224": 10, "sha3_256": 11, "sha3_384": 12, "sha3_512": 13, "keccak256": 14,
            "shake128": 15, "shake256": 16, "turboshake128": 17, "turboshake256": 18,
            "kt128": 19, "kt128_tree": 20, "kt256": 21,
            "cshake128": 22, "cshake256": 23, "kmac128": 24, "kmac256": 25,
            "tuplehash128": 26, "tuplehash256": 27, "parallelhash128": 28,
            "parallelhash256": 29,
            "x2-sse2": 50, "x2-avx512vl": 51, "x4-avx2": 52, "x4-avx512vl": 53,
            "x8-avx512": 54, "x2-neon": 55, "x2-sha3": 56, "x2-simd128": 57,
            "chacha20_xor": 130, "chacha20_ietf_xor": 131,
            "single": 30, "single-scalar": 31, "single-bmi2": 32, "single-avx512": 33,
            "x2": 60, "x4": 61, "x8": 62, "snp-times2": 64, "snp-times4": 65, "snp-times8": 66})
        self.assertEqual(selftest.chacha_code(8), 108)
        self.assertEqual(selftest.CHACHA_LEVEL_BASE, {
            "scalar": 200, "sse2": 230, "ssse3": 260, "avx2": 290, "avx512": 320, "neon": 350,
            "simd128": 380})
        self.assertEqual(selftest.chacha_level_code("avx512", 20), 340)

    def test_chacha_counts_reach_every_call(self):
        """The block counts come from the level's shapes: every path, every row path at each
        count it can be left (the 5-8 and 9-12 block row paths included), every tail."""
        rows = ((1, 0), (2, 4), (3, 8), (4, 12))
        counts = selftest.chacha_block_counts([dict(widths=(32, 16), rows=rows),
                                               dict(widths=(16,), rows=rows)])
        self.assertEqual(counts, tuple(range(1, 17)) + (32,))
        self.assertEqual(selftest.chacha_block_counts([dict(widths=(8, 4), rows=())]),
                         (1, 2, 3, 4, 8))
        self.assertEqual(selftest.chacha_level_calls((32, 16), rows, 63),
                         [("x", 32), ("x", 16), ("rows", 4, 15)])

    def test_every_check_has_its_own_code(self):
        checks = (selftest.keccak_checks() + selftest.chacha_checks((8, 12, 20), 32)
                  + [selftest.leaf_check("x8-avx512", 8), selftest.leaf_check("x4-avx2", 4)]
                  + [selftest.single_check(), selftest.single_check("bmi2")]
                  + [selftest.xn_check(n) for n in (2, 4, 8)]
                  + [selftest.snp_xn_check(n) for n in (2, 4, 8)]
                  + [c for isa in ("scalar", "avx2", "avx512")
                     for c in selftest.chacha_level_checks(isa, (8, 12, 20), (1, 2))])
        codes = [c.code for c in checks]
        self.assertEqual(len(codes), len(set(codes)))
        self.assertTrue(all(c.macro for c in checks))

    def test_answers_are_the_reference(self):
        msg = selftest.message(0, selftest.SHORT)
        by = {c.name: c for c in selftest.keccak_checks()}
        self.assertEqual(by["sha3_256"].expected, reference.sha3(256, msg))
        self.assertEqual(by["kt128"].expected,
                         reference.kt128(msg, selftest.message(*selftest.KT_CUSTOM), 32))
        # m(i) is the seed xor the 64-byte block number.
        self.assertEqual(selftest.m(64 * 3 + 5), selftest.SEED[5] ^ 3)

    def test_snp_model_matches_a_plain_sponge(self):
        """The SnP script's model on its own terms: absorbing a padded block and permuting is
        what the reference sponge does (so the model is not a second copy of a mistake)."""
        state = bytearray(200)
        data = selftest.message(0, 10)
        state[:10] = data
        state[10] ^= 0x06
        state[135] ^= 0x80
        lanes = reference.keccak_p1600(reference.state_from_bytes(state), 24)
        self.assertEqual(reference.state_to_bytes(lanes)[:32], reference.sha3(256, data))

    def test_generated_file_runs_every_check(self):
        files = bundle.files(targets.BUNDLES["x86_64"], "", "cmd")
        c = files["rs_selftest.c"]
        for code in (1, 2, 3, 4, 11, 19, 20, 52, 54, 108, 112, 120, 130, 131):
            self.assertRegex(c, rf"rs_st_verdict\(code, {code},", code)
        # The leaf kernels only on the paths that run them.
        self.assertIn("if (path == RS_PATH_AVX512)\n        rs_st_x8", c)
        # Every kernel by its own name: the single-state ones, the dispatched x-N functions,
        # the parallel SnP, and each ChaCha level at each round count on the paths whose
        # table may take it (the AVX2 level on the AVX-512 path too).
        for code in (31, 32, 33, 30, 60, 61, 62, 64, 65, 66):
            self.assertRegex(c, rf"rs_st_verdict\(code, {code},|\b{code}, ", code)
        self.assertIn("if (path == RS_PATH_AVX2 || path == RS_PATH_AVX512) {\n"
                      "        rs_st_chacha_level(&code, 298,", c)
        for code in (328, 332, 340):
            self.assertIn(f"rs_st_chacha_level(&code, {code},", c)


class Kernels(unittest.TestCase):
    def paths(self, families, name="x86_64"):
        return [(p.name, p.keccak, p.kt_leaves, p.chacha)
                for p in bundle.select(targets.BUNDLES[name], families).paths]

    def test_chacha_only_keeps_every_chacha_level(self):
        self.assertEqual(self.paths(("chacha",)), [
            ("scalar", "scalar", (), "scalar"), ("sse2", "scalar", (), "sse2"),
            ("avx2", "scalar", (), "avx2"), ("avx512", "scalar", (), "avx512")])

    def test_keccak_only_drops_a_path_with_nothing_of_its_own(self):
        self.assertEqual([p[0] for p in self.paths(("keccak",))], ["scalar", "avx2", "avx512"])
        self.assertEqual([p[0] for p in self.paths(("chacha",), "aarch64")], ["generic", "neon"])

    def test_chacha8_only_files(self):
        b = bundle.select(targets.BUNDLES["x86_64"], ("chacha",), (8,))
        files = bundle.folder(b, "", "cmd")
        self.assertEqual(sorted(files), sorted(
            ["chacha.c", "chacha.h", "chacha8.h", "rs_dispatch.c", "rs_dispatch.h",
             "roundsmith.h", "rs_selftest.c", vendor.LICENSE, "CMakeLists.txt", "meson.build",
             "roundsmith.pc.in"]))
        self.assertNotIn("chacha12", files["chacha.h"] + files["chacha.c"])
        self.assertNotIn("chacha20", files["chacha.h"])
        # The AVX2 path needs AVX2 only once Keccak's BMI2 flavour is gone.
        self.assertNotIn("bmi", files["rs_dispatch.c"].lower())

    def test_command_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "x")
            for args, message in (
                    (["--kernels", "sha3"], "--kernels takes a comma-separated list"),
                    (["--kernels", "keccak", "--chacha-rounds", "8"], "needs chacha"),
                    (["--chacha-rounds", "7"], "")):
                r = generator("bundle", "--target", "x86_64", "--out", out, *args)
                self.assertEqual(r.returncode, 2, args)
                self.assertEqual(len(r.stderr.splitlines()), 1, r.stderr)
                self.assertIn(message, r.stderr)
                self.assertFalse(os.path.exists(out))
            r = generator("bundle", "--canonical", "--kernels", "chacha")
            self.assertEqual(r.returncode, 2)


class BuildFiles(unittest.TestCase):
    def test_every_source_listed(self):
        for name in targets.CANONICAL_BUNDLES:
            files = bundle.folder(targets.BUNDLES[name], "", "cmd")
            # pq-crystals/: a client's files, copied over its own, not the library's.
            self.assertEqual("pq-crystals/fips202.c" in files, name != "wasm32", name)
            sources = sorted(n for n in files if n.endswith(".c") and "/" not in n)
            cmake = re.search(r"add_library\(roundsmith\n(.*?)\)", files["CMakeLists.txt"],
                              re.S).group(1).split()
            meson = re.findall(r"^  '([\w.-]+\.c)',", files["meson.build"], re.M)
            self.assertEqual(cmake, sources, name)
            self.assertEqual(meson, sources, name)
            self.assertIn("add_library(roundsmith::roundsmith ALIAS roundsmith)",
                          files["CMakeLists.txt"])
            self.assertIn("NAMESPACE roundsmith:: FILE roundsmith-config.cmake",
                          files["CMakeLists.txt"])
            self.assertIn("meson.override_dependency('roundsmith', roundsmith_dep)",
                          files["meson.build"])
            self.assertIn("Libs: -L${libdir} -lroundsmith", files["roundsmith.pc.in"])

    def test_prefixed_library_name(self):
        """One name for every build system, the prefixed library's: two bundles made with
        different prefixes share no target, namespace, package, dependency or module."""
        files = bundle.folder(targets.BUNDLES["portable"], "my_", "cmd")
        self.assertIn("my_roundsmith.pc.in", files)
        cmake, meson = files["CMakeLists.txt"], files["meson.build"]
        self.assertIn("add_library(my_roundsmith::my_roundsmith ALIAS my_roundsmith)", cmake)
        self.assertIn("NAMESPACE my_roundsmith:: FILE my_roundsmith-config.cmake", cmake)
        self.assertIn("option(MY_ROUNDSMITH_INSTALL", cmake)
        self.assertNotIn("roundsmith::", cmake.replace("my_roundsmith::", ""))
        # The header comments name this bundle's own names.
        self.assertIn("target_link_libraries(your_target PRIVATE my_roundsmith::my_roundsmith)",
                      cmake)
        self.assertIn("find_package(my_roundsmith)", cmake)
        self.assertIn("dependency('my_roundsmith', fallback: ['my_roundsmith', "
                      "'my_roundsmith_dep'])", meson)
        self.assertIn("subprojects/my_roundsmith/", meson)
        self.assertIn("meson.override_dependency('my_roundsmith', my_roundsmith_dep)", meson)
        self.assertIn("Libs: -L${libdir} -lmy_roundsmith", files["my_roundsmith.pc.in"])


class TccKernel(unittest.TestCase):
    def test_tcc_branch_in_the_x86_bundles_only(self):
        want = targets.default_keccak(targets.TARGETS["x86_64"], "tcc").name
        for name, scalar in (("x86_64", "keccak_p1600_scalar.c"),
                             ("portable", "keccak_p1600.c")):
            text = bundle.files(targets.BUNDLES[name], "", "cmd")[scalar]
            self.assertTrue(text.startswith(render.SPDX_C), name)
            # The other compilers' kernel follows the branch's #else with its own header.
            branch = text.split(f"#if {targets.TCC_X86_64}\n", 1)[1].split(
                "#else\n" + render.SPDX_C)[0]
            self.assertIn(want, branch, name)
            self.assertIn("__asm__ volatile(", branch, name)
        arm = bundle.files(targets.BUNDLES["aarch64"], "", "cmd")["keccak_p1600.c"]
        # tcc's lane macros may appear anywhere; its assembly kernel only on x86-64.
        self.assertNotIn(targets.TCC_X86_64, arm)
        self.assertNotIn("__asm__", arm)


if __name__ == "__main__":
    unittest.main()
