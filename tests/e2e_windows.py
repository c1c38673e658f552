# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Windows x64: each x86-64 folder cross-compiled with Debian's mingw-w64 gcc and run under
wine64 (`ninja test-cross`): tests/vendor_api.c (the self-test, then every public function
against the vectors) and tests/win64_abi.c (the callee-saved registers and the shadow space
around every public function), on every dispatch path this CPU has. The folders: out/x86_64,
out/portable, a `generate` output with the x8/x4 KT128 leaves (its sponge's own CPUID and
XGETBV, and ChaCha's __builtin_cpu_supports, under mingw), and one with the x86-64
inline-assembly kernel (tcc's in the bundles), compiled here by mingw's gcc.

Needs x86_64-w64-mingw32-gcc (gcc-mingw-w64-x86-64) and wine64; the vector headers come from
the folder in RS_VECTORS_DIR (ninja passes build/<cc>/gen). WINEPREFIX is build/wine.
"""

import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from generator.choice import targets  # noqa: E402

MINGW = "x86_64-w64-mingw32-gcc"
WINE = shutil.which("wine64") or "/usr/lib/wine/wine64"
WINESERVER = os.path.join(os.path.dirname(os.path.realpath(WINE)), "wineserver")
FLAGS = ["-O2", "-Wall", "-Wextra", "-pedantic", "-Werror"]
# Generated folders besides the committed bundles: (name, generator arguments).
GENERATED = (
    ("generate_leaves", ["generate", "--target", "x86_64", "--multi", "x8-avx512",
                         "--multi", "x4-avx2"]),
    ("generate_x86asm", ["generate", "--target", "x86_64", "--isa", "x86asm", "--rotate",
                         "rol", "--lane-complement", "on", "--parity", "fused",
                         "--chacha-isa", "scalar"]),
)


def run(cmd, env=None, **kw):
    e = {k: v for k, v in os.environ.items() if k != "ROUNDSMITH_PATH"}
    e.update(env or {})
    return subprocess.run(cmd, env=e, capture_output=True, text=True, timeout=900, **kw)


class Windows(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not shutil.which(MINGW):
            raise unittest.SkipTest(f"{MINGW} not installed "
                                    "(apt-get install -y gcc-mingw-w64-x86-64)")
        if not os.path.exists(WINE):
            raise unittest.SkipTest("wine64 not installed (apt-get install -y wine64)")
        cls.vectors = os.environ.get("RS_VECTORS_DIR", os.path.join(ROOT, "build", "gcc", "gen"))
        if not os.path.exists(os.path.join(cls.vectors, "sponge_vectors.h")):
            raise unittest.SkipTest(f"no vector headers in {cls.vectors} "
                                    "(ninja build/gcc/gen/sponge_vectors.h)")
        cls.tmp = tempfile.mkdtemp(prefix="rs-e2e-windows-")
        prefix = os.path.join(ROOT, "build", "wine")
        os.makedirs(prefix, exist_ok=True)
        cls.env = {"WINEPREFIX": prefix, "WINEDEBUG": "-all"}
        # One wineserver for every run: each start of a fresh one costs seconds.
        subprocess.run([WINESERVER, "-p"], env=dict(os.environ, **cls.env),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        cls.folders = {b: os.path.join(ROOT, "out", b) for b in ("x86_64", "portable")}
        for name, args in GENERATED:
            folder = os.path.join(cls.tmp, name)
            r = run([sys.executable, "-m", "generator", *args, "--out", folder], cwd=ROOT)
            if r.returncode:
                raise RuntimeError(r.stderr)
            cls.folders[name] = folder
        start = time.time()
        cls.exes = {}
        jobs = [(name, folder, prog) for name, folder in cls.folders.items()
                for prog in ("vendor_api", "win64_abi")]
        objs = {name: cls.objects(name, folder) for name, folder in cls.folders.items()}
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            for key, exe in pool.map(lambda j: cls.link(j[0], j[1], j[2], objs[j[0]]), jobs):
                cls.exes[key] = exe
        print(f"e2e_windows: {len(cls.folders)} folders built with {MINGW} in "
              f"{time.time() - start:.0f} s", file=sys.stderr)

    @classmethod
    def tearDownClass(cls):
        subprocess.run([WINESERVER, "-k"], env=dict(os.environ, **cls.env),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(cls.tmp, ignore_errors=True)

    @classmethod
    def objects(cls, name, folder):
        out = os.path.join(cls.tmp, name + "-obj")
        os.makedirs(out)
        srcs = sorted(f for f in os.listdir(folder) if f.endswith(".c"))

        def one(src):
            o = os.path.join(out, src[:-2] + ".o")
            r = run([MINGW, *FLAGS, f"-I{folder}", "-c", os.path.join(folder, src), "-o", o])
            if r.returncode:
                raise RuntimeError(f"{MINGW} {folder}/{src}:\n{r.stderr[-3000:]}")
            return o

        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            return list(pool.map(one, srcs))

    @classmethod
    def link(cls, name, folder, prog, objs):
        exe = os.path.join(cls.tmp, f"{prog}_{name}.exe")
        r = run([MINGW, *FLAGS, f"-I{folder}", f"-I{cls.vectors}",
                 os.path.join(ROOT, "tests", prog + ".c"), *objs, "-o", exe])
        if r.returncode:
            raise RuntimeError(f"{MINGW} {prog} on {folder}:\n{r.stderr[-3000:]}")
        return (name, prog), exe

    def wine(self, exe, path=None, *args):
        """The program's output goes to files, not pipes: wine leaves its services running
        with the descriptors it was given, and a pipe would then never reach its end."""
        env = {k: v for k, v in os.environ.items() if k != "ROUNDSMITH_PATH"}
        env.update(self.env, **({"ROUNDSMITH_PATH": path} if path else {}))
        start = time.time()
        with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
            code = subprocess.run([WINE, exe, *args], env=env, stdout=out, stderr=err,
                                  stdin=subprocess.DEVNULL, timeout=600).returncode
            out.seek(0)
            err.seek(0)
            r = subprocess.CompletedProcess([WINE, exe], code, out.read(), err.read())
        print(f"e2e_windows: {os.path.basename(exe)} {path or ''} {' '.join(args)}: "
              f"{time.time() - start:.1f} s", file=sys.stderr)
        return r

    def tap_ok(self, r, what):
        self.assertEqual(r.returncode, 0, f"{what}:\n{r.stdout[-3000:]}{r.stderr[-2000:]}")
        self.assertNotIn("not ok", r.stdout, what)
        self.assertRegex(r.stdout, r"(?m)^ok 1 - ", what)

    def cpu_paths(self):
        """The x86_64 bundle's paths up to the best one this CPU (under wine) has."""
        r = self.wine(self.exes["x86_64", "vendor_api"])
        best = re.search(r"^# path (\w+)", r.stdout, re.M).group(1)
        names = [p.name for p in targets.BUNDLES["x86_64"].paths]
        return names[:names.index(best) + 1]

    def test_x86_64_bundle_every_path(self):
        for path in self.cpu_paths():
            for prog in ("vendor_api", "win64_abi"):
                with self.subTest(path=path, prog=prog):
                    r = self.wine(self.exes["x86_64", prog], path)
                    self.tap_ok(r, f"{prog} on {path}")
                    self.assertIn(f"on path {path}", r.stdout)

    def test_portable_bundle(self):
        for prog in ("vendor_api", "win64_abi"):
            self.tap_ok(self.wine(self.exes["portable", prog]), f"portable {prog}")

    def test_generated_folders(self):
        """The sponge's CPUID/XGETBV and ChaCha's __builtin_cpu_supports under mingw; the
        inline-assembly kernel's register saves under the Windows convention."""
        for name, _ in GENERATED:
            for prog in ("vendor_api", "win64_abi"):
                with self.subTest(folder=name, prog=prog):
                    self.tap_ok(self.wine(self.exes[name, prog]), f"{name} {prog}")

    def test_the_register_check_can_fail(self):
        r = self.wine(self.exes["portable", "win64_abi"], None, "--planted")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("changed 0x808", r.stdout)


if __name__ == "__main__":
    unittest.main()
