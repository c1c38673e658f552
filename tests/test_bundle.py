# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Bundles as data and text: what each path needs, deterministic output, the amalgamation,
the command line. (Compiling and running them: tests/e2e_bundle.py, run by ninja test.)"""

import os
import re
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from generator.emit import bundle, vendor  # noqa: E402
from generator.choice import targets  # noqa: E402


def generator(*args):
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=ROOT,
                          capture_output=True, text=True)


class Paths(unittest.TestCase):
    def dispatch(self, name):
        b = targets.BUNDLES[name]
        return bundle.Dispatch(b, targets.get(b.target), "")

    def test_x86_paths_need_what_their_kernels_need(self):
        d = self.dispatch("x86_64")
        need = {p["name"]: {f.name for f in p["cpu"]} for p in d.paths}
        self.assertEqual(need["scalar"], set())
        self.assertEqual(need["sse2"], set())      # x86-64 baseline
        self.assertEqual(need["avx2"], {"avx2", "bmi1", "bmi2"})
        self.assertEqual(need["avx512"], {"avx2", "avx512f", "avx512vl", "avx512bw",
                                          "bmi1", "bmi2"})

    def test_aarch64_paths_read_hwcap(self):
        d = self.dispatch("aarch64")
        self.assertEqual([p["hwcap"] for p in d.paths], [0, 1 << 1, (1 << 1) | (1 << 17)])

    def test_guards_name_every_path_that_uses_a_kernel(self):
        d = self.dispatch("x86_64")
        self.assertEqual(d.guards("x4-avx2")["when"],
                         "path == RS_PATH_AVX2 || path == RS_PATH_AVX512")
        self.assertEqual(d.guards("chacha-scalar"), {"built": "1", "when": "1"})
        self.assertEqual([l["n"] for l in d.leaves], [8, 4, 4, 2])

    def test_a_path_runs_the_levels_up_to_its_own(self):
        """The first path of every bundle runs scalar code alone (ROUNDSMITH_PATH=scalar on
        x86-64 ran SSE2 ChaCha, SSE2 being x86-64's baseline; generic NEON ChaCha on
        AArch64), and a path runs a kernel only where it or a slower path carries it."""
        for name in ("x86_64", "aarch64", "wasm32"):
            d = self.dispatch(name)
            paths = targets.BUNDLES[name].paths
            for dec in d.decisions:
                with self.subTest(bundle=name, decision=dec["name"]):
                    self.assertEqual(dec["runs"][0], 1)
                    if dec["name"] != "chacha":
                        continue
                    for i, runs in enumerate(dec["runs"]):
                        own = {"scalar"} | {q.chacha for q in paths[:i + 1]}
                        self.assertEqual({o for b, o in enumerate(dec["options"])
                                          if runs >> b & 1}, own)

    def test_portable_bundle_has_no_dispatch(self):
        files = bundle.files(targets.BUNDLES["portable"], "", "cmd")
        # Its rs_dispatch.c only names its one path; no kernel asks it anything.
        self.assertNotIn("cpuid", files["rs_dispatch.c"])
        self.assertIn('return "portable";', files["rs_dispatch.c"])
        self.assertNotIn("rs_dispatch.h", "".join(t for n, t in files.items()
                                                  if n not in vendor.names("")))


class Output(unittest.TestCase):
    def test_deterministic_and_prefixed(self):
        a = bundle.files(targets.BUNDLES["x86_64"], "pq_", "cmd")
        self.assertEqual(a, bundle.files(targets.BUNDLES["x86_64"], "pq_", "cmd"))
        # Every exported function name starts with the prefix (declarations in headers).
        for name, text in a.items():
            if name.endswith(".h") and "/" not in name:
                for fn in re.findall(r"^[a-z_ ]*?\b(\w+)\(", text, re.M):
                    self.assertTrue(fn.startswith("pq_"), f"{name}: {fn}")

    def test_pq_crystals_symbols_in_the_namespace(self):
        # Its functions keep pq-crystals' names in C, each a macro onto a namespaced symbol.
        for prefix, ns in (("", "rs_"), ("pq_", "pq_")):
            files = bundle.files(targets.BUNDLES["x86_64"], prefix, "cmd")
            for name, macro, sym in (("fips202.h", "FIPS202_NAMESPACE", "fips202_"),
                                     ("fips202x4.h", "FIPS202X4_NAMESPACE", "fips202x4_")):
                text = files["pq-crystals/" + name]
                self.assertIn(f"#define {macro}(s) {ns}{sym}##s\n", text)
                fns = re.findall(r"^void (\w+)\(", text, re.M)
                self.assertGreaterEqual(len(fns), 6)
                for fn in fns:
                    self.assertIn(f"#define {fn} {macro}({fn})\n", text)
            self.assertNotIn("pq-crystals/fips202x4.h",
                             bundle.files(targets.BUNDLES["aarch64"], prefix, "cmd"))
        amalgamated = bundle.folder(targets.BUNDLES["x86_64"], "", "cmd", amalgamated=True)
        for name in ("fips202.c", "fips202x4.c"):   # the one header an amalgamation has
            self.assertIn('#include "roundsmith.h"\n', amalgamated["pq-crystals/" + name])
        self.assertNotIn("keccak_state", amalgamated["roundsmith.h"])

    def test_amalgamation_has_no_local_includes(self):
        files = bundle.amalgamate(bundle.files(targets.BUNDLES["x86_64"], "", "cmd"), "cmd")
        self.assertEqual(sorted(files), ["roundsmith.c", "roundsmith.h"])
        self.assertIn("int rs_selftest(void);", files["roundsmith.h"])
        for text in files.values():
            self.assertEqual(re.findall(r'^#include "(?!roundsmith\.h)[^"]+"', text, re.M), [])

    def test_canonical_provenance_names_the_canonical_command(self):
        for folder, files in bundle.canonical_files("out").items():
            for name, text in files.items():
                if name != vendor.LICENSE:
                    self.assertIn(bundle.CANONICAL_COMMAND, text, f"{folder}/{name}")


class CommandLine(unittest.TestCase):
    CASES = [
        (["bundle"], "needs --out"),
        (["bundle", "--canonical", "--out", "x"], "takes no other option"),
        (["bundle", "--target", "vax", "--out", "x"], "unknown target 'vax'"),
        (["bundle", "--prefix", "9x", "--out", "x"], "C identifier prefix"),
    ]

    def test_bad_input_is_one_line_and_exit_2(self):
        with tempfile.TemporaryDirectory() as tmp:
            for args, message in self.CASES:
                args = [a if a != "x" else os.path.join(tmp, "x") for a in args]
                r = generator(*args)
                self.assertEqual(r.returncode, 2, args)
                self.assertEqual(len(r.stderr.splitlines()), 1, r.stderr)
                self.assertIn(message, r.stderr)
                self.assertFalse(os.path.exists(os.path.join(tmp, "x")))

    def test_check_passes_on_the_committed_bundles(self):
        r = generator("check")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)


if __name__ == "__main__":
    unittest.main()
