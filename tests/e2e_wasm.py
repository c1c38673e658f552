# SPDX-License-Identifier: Apache-2.0 OR MIT
"""wasm32 (`ninja test-cross`): out/wasm32 built in both flavours, without and with SIMD128
(clang --target=wasm32-wasi, -O2 -Wall -Wextra -pedantic -Werror), and run under node:

- command programs under node:wasi (tests/wasm/run_wasi.mjs): tests/vendor_api.c (the
  self-test, then every public function against the vectors), and the sponge and
  multi-buffer Check suites (tests/check_sponge.c with KT128's vectors, the SnP interface and
  the block loop; tests/check_sponge_xN.c), compiled against tests/wasm/check.h, a stand-in
  for the part of Check they use (Check itself forks per test and is not built for WASI);
  the SIMD128 build also with ROUNDSMITH_PATH=scalar, which it carries too;
- the reactor builds through roundsmith.mjs (tests/wasm/test_mjs.mjs): every function
  against vectors from hashlib and generator/reference.py, incremental use, the ChaCha
  keystream and both xor forms, and its refusals (types, lengths, detached buffers).

Needs clang with the wasm32 target and lld (clang-14, lld-14), wasi-libc,
libclang-rt-14-dev-wasm32 and node with node:wasi (nodejs); the vector headers come from
RS_VECTORS_DIR and RS_XN_VECTORS_DIR (ninja passes build/gcc/gen and build/sponge_xN).
"""

import concurrent.futures
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from generator.model import reference, sponge_maths as sponge  # noqa: E402
from generator import toolprobe as toolcheck  # noqa: E402

FOLDER = os.path.join(ROOT, "out", "wasm32")
FLAGS = ["--target=wasm32-wasi", "-O2", "-Wall", "-Wextra", "-pedantic", "-Werror"]
FLAVOURS = {"scalar": [], "simd128": ["-msimd128"]}
PROGRAMS = ("vendor_api", "check_sponge", "check_sponge_xN")
# Lengths around the sponge rates, KT128's 8 KiB chunks and roundsmith.mjs's 64 KiB pieces.
LENGTHS = (0, 1, 135, 136, 137, 168, 1000, 8191, 8192, 8193, 65536, 65537 + 8192 * 2)
TIMEOUT = 600


def run(cmd, env=None, **kw):
    e = {k: v for k, v in os.environ.items() if k != "ROUNDSMITH_PATH"}
    e.update(env or {})
    return subprocess.run(cmd, env=e, capture_output=True, text=True, timeout=TIMEOUT, **kw)


def message(n):
    return bytes((i * 7 + (i >> 8)) & 255 for i in range(n))


def vectors():
    """The cases test_mjs.mjs checks: hashlib where it has the function, else the reference
    (itself checked against hashlib and the RFCs in tests/test_reference.py)."""
    cases = []
    for n in LENGTHS:
        m = message(n)
        for h in sponge.HASHES:
            if h.name == "keccak256":
                want = reference.keccak256(m) if n <= 8193 else None
            else:
                want = hashlib.new(h.name, m).digest()
            if want is not None:
                cases.append(dict(fn=h.name, length=n, outlen=0, expected=want.hex()))
        for x, outlen in ((sponge.XOFS[0], 70000), (sponge.XOFS[1], 100)):
            cases.append(dict(fn=x.name, length=n, outlen=outlen,
                              expected=hashlib.new(x.name.replace("shake", "shake_"), m)
                              .digest(outlen).hex()))
        if n <= 8193:
            for t in sponge.TURBOSHAKES:
                bits = 128 if t.name.endswith("128") else 256
                cases.append(dict(fn=t.name, length=n, outlen=64, domain=0x0B,
                                  expected=reference.turboshake(bits, m, 0x0B, 64).hex()))
        if n in (0, 8191, 8193, 65537 + 8192 * 2):
            for custom, outlen in ((0, 32), (3, 70000)):
                cases.append(dict(fn="kt128", length=n, outlen=outlen, custom=custom,
                                  expected=reference.kt128(m, message(custom), outlen).hex()))
    chacha = []
    key, iv = bytes(range(1, 33)), bytes(range(40, 48))
    for rounds in (8, 12, 20):
        for pos, length in ((0, 64), ((1 << 32) - 3, 64 * 37 + 5), ((1 << 64) - 2, 256)):
            state = reference.chacha_keysetup(key, iv)
            ks = reference.chacha_keystream(state, pos, -(-length // 64), rounds)[:length]
            chacha.append(dict(kind="keystream", rounds=rounds, key=key.hex(), iv=iv.hex(),
                               position=str(pos), length=length, expected=ks.hex()))
    for pos, length in ((0, 1), (7, 65536 + 100)):
        chacha.append(dict(kind="xor", rounds=20, key=key.hex(), iv=iv.hex(), position=str(pos),
                           length=length,
                           expected=reference.chacha_xor(message(length), key, iv, pos).hex()))
    nonce = bytes(range(60, 72))
    for pos, length in ((1, 200), ((1 << 32) - 2, 65536 + 64 * 3)):
        chacha.append(dict(kind="ietf", rounds=20, key=key.hex(), iv=nonce.hex(), position=pos,
                           length=length, expected=reference.chacha20_ietf_xor(
                               message(length), key, nonce, pos).hex()))
    return dict(cases=cases, chacha=chacha)


class Wasm(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        missing = toolcheck.wasm_tools()
        if missing:
            raise unittest.SkipTest(missing)
        cls.vectors = os.environ.get("RS_VECTORS_DIR", os.path.join(ROOT, "build", "gcc", "gen"))
        cls.xn_vectors = os.environ.get("RS_XN_VECTORS_DIR",
                                        os.path.join(ROOT, "build", "sponge_xN"))
        for d, h in ((cls.vectors, "sponge_vectors.h"), (cls.vectors, "keccak_vectors.h"),
                     (cls.vectors, "chacha_vectors.h"), (cls.xn_vectors, "sponge_xN_vectors.h")):
            if not os.path.exists(os.path.join(d, h)):
                raise unittest.SkipTest(f"no {h} in {d} (ninja {os.path.join(d, h)})")
        cls.tmp = tempfile.mkdtemp(prefix="rs-e2e-wasm-")
        cls.js = os.path.join(cls.tmp, "js")
        shutil.copytree(FOLDER, cls.js)
        cls.cc = toolcheck.wasm_clang()
        start = time.time()
        srcs = sorted(f for f in os.listdir(FOLDER) if f.endswith(".c"))
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            objs = list(pool.map(lambda j: cls.compile(*j), [(fl, s) for fl in FLAVOURS
                                                             for s in srcs]))
            cls.objs = {fl: [o for f, o in objs if f == fl] for fl in FLAVOURS}
            jobs = [(fl, prog) for fl in FLAVOURS for prog in PROGRAMS + ("module",)]
            cls.exes = dict(pool.map(lambda j: cls.link(*j), jobs))
        print(f"e2e_wasm: out/wasm32 and {len(jobs)} programs built with {cls.cc} in "
              f"{time.time() - start:.0f} s", file=sys.stderr)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    @classmethod
    def cc_run(cls, cmd):
        r = run(cmd)
        if r.returncode:
            raise RuntimeError(f"{' '.join(cmd)}:\n{r.stderr[-3000:]}")

    @classmethod
    def compile(cls, flavour, src):
        out = os.path.join(cls.tmp, f"{src[:-2]}-{flavour}.o")
        cls.cc_run([cls.cc, *FLAGS, *FLAVOURS[flavour], f"-I{FOLDER}", "-c",
                    os.path.join(FOLDER, src), "-o", out])
        return flavour, out

    @classmethod
    def link(cls, flavour, prog):
        """A command program on the folder's objects, or (prog "module") the reactor module
        docs/vendoring.md tells a user to build, named as load() looks for it; compiling and
        linking in one command gives the same module (the exec model is a link choice)."""
        if prog == "module":
            name = "roundsmith-simd128.wasm" if flavour == "simd128" else "roundsmith.wasm"
            out = os.path.join(cls.js, name)
            cls.cc_run([cls.cc, *FLAGS, "-mexec-model=reactor", *cls.objs[flavour], "-o", out])
        else:
            out = os.path.join(cls.tmp, f"{prog}-{flavour}.wasm")
            cls.cc_run([cls.cc, *FLAGS, *FLAVOURS[flavour], '-DRS_COMPILER="clang wasm32"',
                        f"-I{FOLDER}", f"-I{cls.vectors}", f"-I{cls.xn_vectors}",
                        f"-I{os.path.join(ROOT, 'tests', 'wasm')}",
                        f"-I{os.path.join(ROOT, 'tests')}",
                        os.path.join(ROOT, "tests", prog + ".c"), *cls.objs[flavour], "-o", out])
        return (flavour, prog), out

    def node(self, *args, env=None):
        return run([*toolcheck.NODE, *args], env=env, cwd=self.tmp)

    def passes(self, r, what):
        self.assertEqual(r.returncode, 0, f"{what}:\n{r.stdout[-3000:]}{r.stderr[-2000:]}")
        self.assertNotIn("not ok", r.stdout, what)
        self.assertNotRegex(r.stdout, r"Failures: [1-9]|Errors: [1-9]", what)

    def test_programs_each_build_and_path(self):
        for flavour in FLAVOURS:
            for path in dict.fromkeys(["", flavour, "scalar"]):
                for prog in PROGRAMS:
                    with self.subTest(flavour=flavour, path=path or "(chosen)", prog=prog):
                        r = self.node(os.path.join(ROOT, "tests", "wasm", "run_wasi.mjs"),
                                      self.exes[flavour, prog],
                                      env={"ROUNDSMITH_PATH": path} if path else None)
                        self.passes(r, f"{prog} ({flavour} build, path {path or 'chosen'})")
                        if prog == "vendor_api":
                            self.assertIn(f"on path {path or flavour}", r.stdout)
                            # A path runs the ChaCha levels up to its own: scalar on scalar.
                            self.assertIn(f"# chacha_level: {path or flavour}\n", r.stdout)
                        else:
                            self.assertRegex(r.stdout, r"100%: Checks: [1-9]")

    def test_roundsmith_mjs(self):
        data = os.path.join(self.tmp, "vectors.json")
        with open(data, "w") as f:
            json.dump(vectors(), f)
        r = self.node(os.path.join(ROOT, "tests", "wasm", "test_mjs.mjs"), self.js, data,
                      *(f"{fl}={self.exes[fl, 'module']}" for fl in FLAVOURS))
        print(r.stdout, file=sys.stderr)
        self.passes(r, "roundsmith.mjs")
        self.assertRegex(r.stdout, r"(?m)^ok 1 - ")

    def test_load_falls_back_to_the_scalar_build_then_names_what_is_missing(self):
        folder = os.path.join(self.tmp, "js-scalar-only")
        shutil.copytree(self.js, folder)
        os.remove(os.path.join(folder, "roundsmith-simd128.wasm"))
        script = os.path.join(self.tmp, "load_only.mjs")
        with open(script, "w") as f:
            f.write("const { load } = await import(process.argv[2]);\n"
                    "try { console.log((await load()).path); }\n"
                    "catch (err) { console.log(err.message); }\n")
        mjs = os.path.join(folder, "roundsmith.mjs")
        r = self.node(script, mjs)
        self.assertEqual((r.returncode, r.stdout), (0, "scalar\n"), r.stderr)
        os.remove(os.path.join(folder, "roundsmith.wasm"))
        r = self.node(script, mjs)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertRegex(r.stdout, r"^roundsmith: no module to load: .*roundsmith-simd128\.wasm "
                                   r"and .*roundsmith\.wasm are missing [^\n]*\n$")

    def test_the_check_stand_in_can_fail(self):
        src = os.path.join(self.tmp, "planted.c")
        with open(src, "w") as f:
            f.write('#include <check.h>\nSTART_TEST(t)\n{\n    ck_assert_uint_eq(_i, 0);\n}\n'
                    'END_TEST\nint main(void)\n{\n    Suite *s = suite_create("planted");\n'
                    '    TCase *tc = tcase_create("t");\n    SRunner *sr;\n'
                    '    tcase_add_loop_test(tc, t, 0, 3);\n    suite_add_tcase(s, tc);\n'
                    '    sr = srunner_create(s);\n    srunner_run_all(sr, CK_NORMAL);\n'
                    '    return srunner_ntests_failed(sr);\n}\n')
        exe = os.path.join(self.tmp, "planted.wasm")
        r = run([self.cc, *FLAGS, f"-I{os.path.join(ROOT, 'tests', 'wasm')}", src, "-o", exe])
        self.assertEqual(r.returncode, 0, r.stderr)
        r = self.node(os.path.join(ROOT, "tests", "wasm", "run_wasi.mjs"), exe)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("Checks: 2, Failures: 1", r.stdout)


if __name__ == "__main__":
    unittest.main()
