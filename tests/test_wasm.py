# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The wasm32 target without a wasm toolchain: its bundle's shape (two paths chosen when
compiling), the JavaScript files it carries and their agreement with the module's exports,
and the candidates `bench --target wasm32` races. tests/e2e_wasm.py builds and runs it."""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from generator.emit import bundle, vendor  # noqa: E402
from generator.model import sponge_maths as sponge  # noqa: E402
from generator.choice import targets, variants  # noqa: E402
from generator.measure import wasm_bench  # noqa: E402
from generator.errors import UsageError  # noqa: E402
from generator import toolprobe  # noqa: E402


class Shape(unittest.TestCase):
    def test_two_paths_chosen_by_the_compiler(self):
        b = targets.BUNDLES["wasm32"]
        self.assertEqual([p.name for p in b.paths], ["scalar", "simd128"])
        self.assertEqual(b.paths[1].requires, "defined(__wasm_simd128__)")
        self.assertIn("wasm32", targets.CANONICAL_BUNDLES)

    def test_defaults_are_the_engine_races_winners(self):
        t = targets.get("wasm32")
        self.assertEqual(targets.default_keccak(t, "clang").name,
                         "keccakp1600-u1-lc-separate-builtin-scalar")
        self.assertEqual(targets.default_chacha(t, "gcc").name, "chacha-x8-step-shift-simd128")
        self.assertEqual(targets.arm_x2("x2-simd128", t), ("simd128", targets.DEFAULT_SIMD_UNROLL))
        with self.assertRaises(UsageError):
            targets.arm_x2("x2-neon", t)

    def test_the_dispatch_asks_nothing_of_the_cpu(self):
        d = bundle.Dispatch(targets.BUNDLES["wasm32"], targets.get("wasm32"), "")
        self.assertEqual(d.arch, "wasm")
        self.assertEqual([p["cpu"] for p in d.paths], [[], []])


class Files(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.files = bundle.folder(targets.BUNDLES["wasm32"], "", bundle.CANONICAL_COMMAND)

    def test_the_javascript_files_are_in_the_folder_and_its_build_files(self):
        for name in vendor.WASM_FILES:
            self.assertIn(name, self.files)
        self.assertIn("roundsmith_wasm.c", self.files["CMakeLists.txt"])
        pkg = json.loads(self.files["package.json"])
        self.assertTrue(pkg["private"])
        self.assertEqual(pkg["exports"]["."]["default"], "./roundsmith.mjs")
        self.assertIn("SPDX-License-Identifier: CC0-1.0", pkg["//"])

    def test_every_function_is_exported_declared_and_wrapped(self):
        exports = set(re.findall(r'RS_EXPORT\("(\w+)"\)', self.files["roundsmith_wasm.c"]))
        dts, mjs = self.files["roundsmith.d.ts"], self.files["roundsmith.mjs"]
        for f in sponge.HASHES + sponge.XOFS + sponge.TURBOSHAKES:
            self.assertIn(f.name, exports)
            self.assertIn(f"    {f.name}(data: Uint8Array", dts)
            self.assertIn(f"    {f.name}(data", mjs)
        for r in variants.CHACHA_ROUNDS:
            self.assertIn(f"chacha{r}_keystream", exports)
        for helper in ("alloc", "free", "context_size", "selftest", "path_name"):
            self.assertIn(f"roundsmith_{helper}", exports)
            self.assertIn(f"e.roundsmith_{helper}", mjs)

    def test_a_cut_down_bundle_exports_what_it_has(self):
        b = bundle.select(targets.BUNDLES["wasm32"], ("chacha",), (8,))
        files = bundle.folder(b, "", "x")
        exports = set(re.findall(r'RS_EXPORT\("(\w+)"\)', files["roundsmith_wasm.c"]))
        self.assertIn("chacha8_keystream", exports)
        self.assertNotIn("chacha20_xor", exports)
        self.assertNotIn("sha3_256", exports)
        self.assertIn("const CHACHA_ROUNDS = [8];", files["roundsmith.mjs"])


class BenchCandidates(unittest.TestCase):
    def args(self, **kw):
        a = argparse.Namespace(multi=None, kernels="keccak", **{
            sweep: None for sweep in ("unroll", "lane_complement", "rotate", "parity", "lanes",
                                      "isa", "chacha_isa", "chacha_schedule", "chacha_rotate",
                                      "chacha_states")})
        for k, v in kw.items():
            setattr(a, k, v)
        return a

    def test_default_first_then_the_cross_product_once_each(self):
        t = targets.get("wasm32")
        got = wasm_bench.candidates(self.args(unroll="1,2", lane_complement="on"), t,
                                    ("keccak",))
        self.assertEqual([c[0] for c in got],
                         ["keccakp1600-u1-lc-separate-builtin-scalar (default)",
                          "keccakp1600-u2-lc-separate-builtin-scalar"])
        self.assertFalse(any(simd for _, _, simd in got))

    def test_multi_takes_x2_simd128_shapes(self):
        t = targets.get("wasm32")
        got = wasm_bench.candidates(self.args(multi=["x2-u1-simd128,x2-u3-simd128"]), t,
                                    ("keccak",))
        self.assertEqual([c[0] for c in got], ["keccakp1600-x2-u1-simd128",
                                               "keccakp1600-x2-u3-simd128"])
        self.assertTrue(all(simd for _, _, simd in got))
        with self.assertRaises(UsageError):
            wasm_bench.candidates(self.args(multi=["x4-avx2"]), t, ("keccak",))


def sleb(n):
    out = bytearray()
    while True:
        b = n & 127
        n >>= 7
        if (n == 0 and not b & 64) or (n == -1 and b & 64):
            return bytes(out + bytes([b]))
        out.append(b | 128)


def stand_in_module(path_name):
    """The smallest module load() accepts, built by hand (no wasm toolchain needed): memory,
    roundsmith_alloc, roundsmith_context_size and roundsmith_path_name, which answers
    `path_name`, so a test can tell which file load() took."""
    def vec(items):
        return bytes([len(items)]) + b"".join(items)

    def section(sid, body):
        return bytes([sid, len(body)]) + body

    def name(text):
        return bytes([len(text)]) + text.encode()

    def const(n):
        return vec([]) + b"\x41" + sleb(n) + b"\x0b"

    types = vec([b"\x60\x01\x7f\x01\x7f", b"\x60\x00\x01\x7f"])
    funcs = vec([b"\x00", b"\x00", b"\x01"])
    memory = vec([b"\x00\x01"])
    exports = vec([name("memory") + b"\x02\x00", name("roundsmith_alloc") + b"\x00\x00",
                   name("roundsmith_context_size") + b"\x00\x01",
                   name("roundsmith_path_name") + b"\x00\x02"])
    code = vec([bytes([len(c)]) + c for c in (const(1024), const(64), const(16))])
    data = vec([b"\x00\x41\x10\x0b" + name(path_name + "\0")])
    return (b"\0asm\x01\0\0\0" + section(1, types) + section(3, funcs) + section(5, memory)
            + section(7, exports) + section(10, code) + section(11, data))


LOAD_SCRIPT = """
const m = await import(process.env.RS_MJS);
try {
    const rs = await m.load(process.env.RS_SOURCE || undefined);
    console.log("path=" + rs.path);
} catch (err) {
    console.log("error=" + err.message);
}
"""


class Load(unittest.TestCase):
    """roundsmith.mjs's load() under node, on stand-in modules: the SIMD128 build where it is
    there, the scalar one where it is not, one line naming what is missing where neither is."""

    @classmethod
    def setUpClass(cls):
        if not shutil.which("node"):
            raise unittest.SkipTest(toolprobe.reason("node", "nodejs"))
        cls.files = bundle.folder(targets.BUNDLES["wasm32"], "", bundle.CANONICAL_COMMAND)

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="rs-test-load-")
        self.addCleanup(shutil.rmtree, self.dir, ignore_errors=True)
        with open(os.path.join(self.dir, "roundsmith.mjs"), "w") as f:
            f.write(self.files["roundsmith.mjs"])

    def put(self, file, path_name):
        with open(os.path.join(self.dir, file), "wb") as f:
            f.write(stand_in_module(path_name))

    def load(self, source=""):
        with open(os.path.join(self.dir, "load.mjs"), "w") as f:
            f.write(LOAD_SCRIPT)
        env = dict(os.environ, RS_MJS=os.path.join(self.dir, "roundsmith.mjs"),
                   RS_SOURCE=source)
        r = subprocess.run(["node", os.path.join(self.dir, "load.mjs")], cwd=self.dir, env=env,
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(len(r.stdout.splitlines()), 1, r.stdout)
        return r.stdout.strip()

    def test_the_simd128_build_where_both_are_there(self):
        self.put("roundsmith-simd128.wasm", "simd128")
        self.put("roundsmith.wasm", "scalar")
        self.assertEqual(self.load(), "path=simd128")

    def test_the_scalar_build_where_the_simd128_one_is_missing(self):
        self.put("roundsmith.wasm", "scalar")
        self.assertEqual(self.load(), "path=scalar")

    def test_neither_there_is_one_line_naming_both(self):
        got = self.load()
        self.assertRegex(got, r"^error=roundsmith: no module to load: ")
        for file in ("roundsmith-simd128.wasm", "roundsmith.wasm"):
            self.assertIn(os.path.join(self.dir, file), got)
        self.assertNotIn("ENOENT", got)

    def test_a_missing_file_named_by_the_caller(self):
        self.put("roundsmith.wasm", "scalar")
        self.assertEqual(self.load("nowhere.wasm"),
                         f"error=roundsmith: {os.path.join(self.dir, 'nowhere.wasm')}: no such file")
        self.assertEqual(self.load("roundsmith.wasm"), "path=scalar")


if __name__ == "__main__":
    unittest.main()
