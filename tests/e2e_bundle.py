# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The bundles end to end: committed ones current, every dispatch path forced in turn, fallback
when the CPU (or the build) lacks a path, prefixes, amalgamation, the examples.

Run by `ninja test` (python3 -m unittest tests.e2e_bundle, from the repository root); it
compiles what it needs with gcc (-O1, to stay cheap) into a temporary folder. The Check
suites under each forced path are separate edges (generator/buildgraph/bundles.py).
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

from generator.model import reference  # noqa: E402
from generator.choice import targets  # noqa: E402
from tests import host_cpu, prefix_names  # noqa: E402
from generator import toolprobe as toolcheck  # noqa: E402

WARN = ["-Wall", "-Wextra", "-pedantic", "-Werror"]
X86 = os.path.join(ROOT, "out", "x86_64")
ARM = os.path.join(ROOT, "out", "aarch64")
PROBE = os.path.join(ROOT, "tests", "bundle_probe.c")
# 14 chunks of KT128: the first, then 13 leaves = 8 + 4 + 1 (every leaf kernel of x86-64).
PROBE_LEN = 14 * 8192 + 7


def paths(name):
    return [p.name for p in targets.BUNDLES[name].paths]


def chacha_levels_up_to(name, path):
    """The ChaCha levels a forced path may run: its own and those of the slower paths
    (docs/vendoring.md), so ROUNDSMITH_PATH=scalar runs scalar ChaCha."""
    names = paths(name)
    return {"scalar"} | {p.chacha for p in targets.BUNDLES[name].paths[:names.index(path) + 1]}


def run(cmd, env=None, **kw):
    e = {k: v for k, v in os.environ.items() if k != "ROUNDSMITH_PATH"}
    e.update(env or {})
    return subprocess.run(cmd, env=e, capture_output=True, text=True, timeout=600, **kw)


def build(cc, folder, extra, out, flags=()):
    cmd = [cc, "-O1", *flags, f"-I{folder}", *extra,
           *sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".c")),
           "-o", out]
    r = run(cmd)
    if r.returncode:
        raise AssertionError(f"{' '.join(cmd)}\n{r.stderr[-3000:]}")
    return out


def expected_probe():
    msg = bytes(i % 251 for i in range(PROBE_LEN))
    key = bytes(range(32))
    stream = reference.chacha_keystream(reference.chacha_keysetup(key), 3, 1000, 8)
    return {"sha3": hashlib.sha3_256(msg).hexdigest(),
            "kt128": reference.kt128(msg, b"probe", 32).hex(),
            "chacha8": hashlib.sha3_256(stream).hexdigest()}


def parse(line):
    return dict(re.findall(r"(\w+)=(\S+)", line))


class BundleCase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="rs-e2e-bundle-")
        cls.expected = expected_probe()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def need(self, *reasons):
        """Skip for the first missing tool (generator/toolprobe.py)."""
        why = toolcheck.first(*reasons)
        if why:
            self.skipTest(why)

    def exe(self, name):
        return os.path.join(self.tmp, name)

    def probe(self, exe, path, prefix=(), want_path=None, message=None):
        env = {"ROUNDSMITH_PATH": path} if path else {}
        r = run([*prefix, exe], env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        if not message:
            # A path this CPU lacks falls back to the fastest it has, saying so.
            want_path, message = host_cpu.forced(path, want_path, prefix)
        got = parse(r.stdout)
        for k, v in self.expected.items():
            self.assertEqual(got[k], v, f"{k} on path {path} ({' '.join(prefix)})")
        if want_path:
            self.assertEqual(got["path"], want_path, r.stderr)
        if message:
            self.assertEqual(len(r.stderr.splitlines()), 1, r.stderr)
            self.assertIn(message, r.stderr)
        else:
            self.assertEqual(r.stderr, "")
        return got

    def assert_chacha_level(self, bundle, got):
        """The probe's ChaCha level is one its path runs; the first path runs scalar only."""
        self.assertIn(got["chacha"], chacha_levels_up_to(bundle, got["path"]), got)
        if got["path"] == paths(bundle)[0]:
            self.assertEqual(got["chacha"], "scalar", got)


class Bundle(BundleCase):
    """The committed bundles on this machine, by the README's compilers."""

    def test_committed_bundles_are_current(self):
        r = run([sys.executable, "-m", "generator", "check"], cwd=ROOT)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_stale_bundle_fails_check_naming_the_fix(self):
        root = os.path.join(self.tmp, "stale")
        shutil.copytree(os.path.join(ROOT, "out"), root)
        with open(os.path.join(root, "x86_64", "chacha.c"), "a") as f:
            f.write("/* edited */\n")
        r = run([sys.executable, "-m", "generator", "check", "--root", root], cwd=ROOT)
        self.assertEqual(r.returncode, 1)
        self.assertIn("python3 -m generator bundle --canonical", r.stderr)
        self.assertIn("x86_64/chacha.c", r.stdout)

    def test_every_x86_path_forced(self):
        exe = build("gcc", X86, WARN + [PROBE], self.exe("probe"))
        best = self.probe(exe, None)["path"]
        for p in paths("x86_64"):
            self.assert_chacha_level("x86_64", self.probe(exe, p, want_path=p))
        self.probe(exe, "bogus", want_path=best, message="not a path of this bundle")

    def test_compiled_out_paths_fall_back(self):
        exe = build("gcc", X86, WARN + [PROBE], self.exe("probe_no"),
                    flags=["-DRS_NO_AVX512", "-DRS_NO_AVX2"])
        self.assertNotEqual(self.probe(exe, None)["path"], "avx512")
        self.probe(exe, "avx512", message="compiled out")
        self.probe(exe, "avx2", message="compiled out")

    def test_tcc_builds_the_scalar_path(self):
        self.need(toolcheck.compiler(["tcc"], link=True))
        exe = build("tcc", X86, ["-Wall", "-Werror", PROBE], self.exe("probe_tcc"))
        self.probe(exe, None, want_path="scalar")
        self.probe(exe, "avx512", want_path="scalar", message="compiled out")

    def test_clang_every_path(self):
        self.need(toolcheck.compiler(["clang"], link=True))
        exe = build("clang", X86, WARN + [PROBE], self.exe("probe_clang"))
        for p in paths("x86_64"):
            self.assert_chacha_level("x86_64", self.probe(exe, p, want_path=p))

    def test_portable_bundle(self):
        # No dispatch to choose with; its rs_dispatch.c names its one path.
        folder = os.path.join(ROOT, "out", "portable")
        exe = build("gcc", folder, WARN + [PROBE], self.exe("probe_portable"))
        self.probe(exe, None, want_path="portable")

    def test_two_prefixes_and_an_amalgamation_link_together(self):
        base = os.path.join(self.tmp, "two")
        for p in ("rsa", "rsb", "rsc"):
            args = ["--prefix", p + "_"] + (["--amalgamate"] if p == "rsc" else [])
            r = run([sys.executable, "-m", "generator", "bundle", "--target", "x86_64",
                     "--out", os.path.join(base, p)] + args, cwd=ROOT)
            self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(sorted(f for f in os.listdir(os.path.join(base, "rsc"))
                                if f.endswith((".c", ".h"))), ["roundsmith.c", "roundsmith.h"])
        jobs = [(os.path.join(base, p, src), os.path.join(base, f"{p}_{src[:-2]}.o"))
                for p in ("rsa", "rsb", "rsc")
                for src in sorted(os.listdir(os.path.join(base, p))) if src.endswith(".c")]
        # -O0 and two at a time: this test is about names, not speed.
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            for r in pool.map(lambda j: run(["gcc", "-O0", *WARN, "-c", j[0], "-o", j[1]]), jobs):
                self.assertEqual(r.returncode, 0, r.stderr[-2000:])
        objs = [o for _, o in jobs]
        nm = run(["nm", "--defined-only", "-g", *objs]).stdout
        exported = [l.split()[-1] for l in nm.splitlines() if len(l.split()) == 3]
        self.assertTrue(exported)
        stray = [s for s in exported if not s.startswith(("rsa_", "rsb_", "rsc_"))]
        self.assertEqual(stray, [], "exported symbols without the bundle prefix")
        exe = os.path.join(base, "two")
        r = run(["gcc", "-O1", *WARN, f"-I{base}",
                 os.path.join(ROOT, "tests", "bundle_two.c"), *objs, "-o", exe])
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
        r = run([exe])
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("same", r.stdout)

    def test_two_prefixes_in_one_translation_unit(self):
        """x86_64 under a_ and portable under b_, both roundsmith.h in one file, built by gcc
        and clang; then every symbol of their objects carries its prefix, none two."""
        base = os.path.join(self.tmp, "ab")
        for p, target in (("a", "x86_64"), ("b", "portable")):
            r = run([sys.executable, "-m", "generator", "bundle", "--target", target,
                     "--prefix", p + "_", "--out", os.path.join(base, p)], cwd=ROOT)
            self.assertEqual(r.returncode, 0, r.stderr)
        for cc in ("gcc", "clang"):
            if cc == "clang":
                self.need(toolcheck.compiler(["clang"]))
            out = os.path.join(base, cc)
            os.makedirs(out, exist_ok=True)
            jobs = [(os.path.join(base, p, src), os.path.join(out, f"{p}_{src[:-2]}.o"))
                    for p in ("a", "b")
                    for src in sorted(os.listdir(os.path.join(base, p))) if src.endswith(".c")]
            with concurrent.futures.ThreadPoolExecutor(2) as pool:
                for r in pool.map(lambda j: run([cc, "-O1", *WARN, "-c", j[0], "-o", j[1]]),
                                  jobs):
                    self.assertEqual(r.returncode, 0, f"{cc}: {r.stderr[-2000:]}")
            objs = [o for _, o in jobs]
            exe = os.path.join(out, "ab")
            r = run([cc, "-O1", *WARN, f"-I{base}", os.path.join(ROOT, "tests", "bundle_ab.c"),
                     *objs, "-o", exe])
            self.assertEqual(r.returncode, 0, f"{cc}: {r.stderr[-2000:]}")
            r = run([exe])
            self.assertEqual(r.returncode, 0, f"{cc}: {r.stdout}{r.stderr}")
            self.assertIn("a_selftest=0 ", r.stdout)
            self.assertIn("b_selftest=0 ", r.stdout)
            self.assertIn("digests same", r.stdout)
            for p, target in (("a", "x86_64"), ("b", "portable")):
                nm = run(["nm", "-g", "--defined-only",
                          *[o for o in objs if os.path.basename(o).startswith(p + "_")]])
                self.assertEqual(nm.returncode, 0, nm.stderr)
                symbols = prefix_names.nm_symbols(nm.stdout)
                self.assertIn(f"{p}_selftest", symbols)
                names = {("symbol", n) for n in symbols}
                for h in os.listdir(os.path.join(base, p)):
                    if h.endswith(".h"):
                        with open(os.path.join(base, p, h)) as f:
                            names |= prefix_names.header_names(f.read())
                self.assertEqual(prefix_names.problems(f"{p}_", names), [],
                                 f"{cc}, {target} under {p}_")

    def test_examples(self):
        line = ["gcc", "-O1", *WARN, f"-I{X86}"]
        vendor = self.exe("vendor_sha3")
        r = run(line + [os.path.join(ROOT, "examples", "vendor_sha3.c"),
                        *sorted(os.path.join(X86, f) for f in os.listdir(X86) if f.endswith(".c")),
                        "-o", vendor])
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
        r = subprocess.run([vendor, "-"], input=b"abc", capture_output=True)
        self.assertEqual(r.stdout.decode().split()[0], hashlib.sha3_256(b"abc").hexdigest())
        plotter = self.exe("plotter_f1")
        r = run(line + [os.path.join(ROOT, "examples", "plotter_f1.c"),
                        *sorted(os.path.join(X86, f) for f in os.listdir(X86) if f.endswith(".c")),
                        "-o", plotter])
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
        plot_id = bytes(range(100, 132))
        for k in (32, 25):
            xs = [0, 1, 2, 15, 16, 12345, (1 << k) - 1]
            r = run([plotter, plot_id.hex(), str(k)] + [str(x) for x in xs])
            got = [int(l.split()[1]) for l in r.stdout.splitlines()]
            self.assertEqual(got, [f1_reference(plot_id, k, x) for x in xs], f"k={k}")
        r = run([plotter, plot_id.hex(), "32", "--sum", "1000", "5000"])
        self.assertEqual(int(r.stdout), sum(f1_reference(plot_id, 32, x)
                                            for x in range(1000, 6000)) % (1 << 64))


class UnderQemu(BundleCase):
    """Paths on CPUs other than this one: an x86-64 lacking AVX2 and AVX-512, and AArch64 with
    and without SHA3, under qemu-user (its own test edge, rerun when those tools appear)."""

    def test_cpu_lacking_a_path_falls_back(self):
        self.need(toolcheck.programs("qemu-x86_64"))
        exe = build("gcc", X86, WARN + [PROBE], self.exe("probe_q"))
        # A Nehalem has SSE2 but neither AVX2 nor AVX-512.
        for p in ("avx2", "avx512"):
            self.probe(exe, p, prefix=["qemu-x86_64", "-cpu", "Nehalem"], want_path="sse2",
                       message="this CPU lacks it")

    def test_aarch64_paths_under_qemu(self):
        self.need(toolcheck.compiler(["aarch64-linux-gnu-gcc", "-static"], link=True),
                  toolcheck.programs("qemu-aarch64"))
        exe = build("aarch64-linux-gnu-gcc", ARM, WARN + ["-static", PROBE], self.exe("probe_a64"))
        for p in paths("aarch64"):
            got = self.probe(exe, p, prefix=["qemu-aarch64", "-cpu", "max"], want_path=p)
            self.assert_chacha_level("aarch64", got)
        # A Cortex-A57 has NEON and no SHA3 extension.
        q = ["qemu-aarch64", "-cpu", "cortex-a57"]
        self.probe(exe, None, prefix=q, want_path="neon")
        self.probe(exe, "sha3", prefix=q, want_path="neon", message="this CPU lacks it")


def f1_reference(plot_id, k, x):
    """chiapos' F1Calculator::CalculateF: k keystream bits at x*k (a big-endian bit string),
    then the top 6 bits of x."""
    state = reference.chacha_keysetup(b"\x01" + plot_id[:31])
    first = x * k // 512
    stream = reference.chacha_keystream(state, first, 2, 8)
    bits = int.from_bytes(stream, "big")
    offset = x * k - first * 512
    value = (bits >> (1024 - offset - k)) & ((1 << k) - 1)
    return value << 6 | x >> (k - 6)


if __name__ == "__main__":
    unittest.main()
