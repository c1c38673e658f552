# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The bundles as a vendoring project meets them: the self-test on every forced path with every
compiler (and failing on a planted wrong kernel), one header that declares the whole API,
--kernels/--chacha-rounds, docs/vendoring.md's chiapos recipe run as written, every .c file
compiled as C++, tcc taking the x86-64 assembly kernel.

Run by `ninja test`, one class per edge (python3 -m unittest tests.e2e_vendor.SelfTest, ...),
from the repository root; it compiles into a temporary folder. The build-system consumers are
tests/e2e_buildsys.py, the Windows run tests/e2e_windows.py.
"""

import concurrent.futures
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from generator.emit import bundle, selftest, vendor  # noqa: E402
from generator.choice import targets  # noqa: E402
from tests import host_cpu  # noqa: E402
from generator import toolprobe as toolcheck  # noqa: E402

OUT = os.path.join(ROOT, "out")
WARN = ["-Wall", "-Wextra", "-pedantic", "-Werror"]
TCC_WARN = ["-Wall", "-Werror"]
CONSUMER = os.path.join(ROOT, "tests", "vendor_consumer.c")
CPU_ROWS = os.path.join(ROOT, "tests", "cpu_rows.c")
VENDORING = os.path.join(ROOT, "docs", "vendoring.md")
ABC = hashlib.sha3_256(b"abc").hexdigest()
QEMU_A64 = ["qemu-aarch64", "-cpu", "max"]
A64_GCC = "aarch64-linux-gnu-gcc"
# clang++ finds its aarch64 C and C++ headers in g++-aarch64-linux-gnu's sysroot.
A64_CLANGXX = ["clang++", "--target=aarch64-linux-gnu", "-march=armv8.2-a+sha3"]


def paths(name):
    return [p.name for p in targets.BUNDLES[name].paths]


def run(cmd, env=None, **kw):
    e = {k: v for k, v in os.environ.items() if k not in ("ROUNDSMITH_PATH", "ROUNDSMITH_CPU")}
    e.update(env or {})
    return subprocess.run(cmd, env=e, capture_output=True, text=True, timeout=900, **kw)


def need(*reasons):
    """Skip the calling test for the first tool that is missing (generator/toolprobe.py)."""
    why = toolcheck.first(*reasons)
    if why:
        raise unittest.SkipTest(why)


def sources(folder):
    return sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".c"))


def compile_all(cc, folder, objdir, flags):
    """Every .c of `folder` to objects (two at a time: the machine is shared)."""
    os.makedirs(objdir, exist_ok=True)
    jobs = [(src, os.path.join(objdir, os.path.basename(src)[:-2] + ".o"))
            for src in sources(folder)]
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda j: run([*cc, *flags, f"-I{folder}", "-c", j[0], "-o",
                                               j[1]]), jobs))
    for (src, _), r in zip(jobs, results):
        if r.returncode:
            raise AssertionError(f"{' '.join(cc)} {src}:\n{r.stderr[-3000:]}")
    return [o for _, o in jobs]


def link(cc, folder, objs, exe, extra=(), flags=()):
    r = run([*cc, *flags, f"-I{folder}", *extra, *objs, "-o", exe])
    if r.returncode:
        raise AssertionError(f"link {exe}:\n{r.stderr[-3000:]}")
    return exe


def parse(line):
    return dict(re.findall(r"(\w+)=(\S+)", line))


class Base(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="rs-e2e-vendor-")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def build(self, cc, folder, name, flags=("-O2",), extra=(CONSUMER,), link_flags=()):
        objs = compile_all(cc, folder, os.path.join(self.tmp, name), list(flags))
        return link(cc, folder, objs, os.path.join(self.tmp, name + ".exe"), extra,
                    list(link_flags) or list(flags))

    def consumer(self, exe, path=None, prefix=(), code=0, want_path=None, among=None, env=None):
        """Run `exe` (forced onto `path`); a path this CPU lacks must fall back to the fastest
        it has (of `among`, the paths the build has), saying so on stderr."""
        r = run([*prefix, exe], env=dict({"ROUNDSMITH_PATH": path} if path else {},
                                         **(env or {})))
        want_path, line = host_cpu.forced(path, want_path, prefix, among)
        if line:
            self.assertIn(line, r.stderr.splitlines())
        got = parse(r.stdout)
        self.assertEqual(int(got.get("selftest", -1)), code,
                         f"{exe} on {path}: {r.stdout}{r.stderr}")
        self.assertEqual(r.returncode, 1 if code else 0)
        if "sha3_256" in got and not code:
            self.assertEqual(got["sha3_256"], ABC)
        if want_path:
            self.assertEqual(got["path"], want_path, r.stderr)
        return got

    def allocates_nothing(self, bundle, cc):
        folder = os.path.join(OUT, bundle)
        o = os.path.join(self.tmp, f"st_{bundle}.o")
        r = run([cc, "-O2", f"-I{folder}", "-c", os.path.join(folder, "rs_selftest.c"),
                 "-o", o])
        self.assertEqual(r.returncode, 0, r.stderr)
        undefined = set(run(["nm", "-u", o]).stdout.split()) - {"U"}
        text = ""
        for h in sorted(os.listdir(folder)):
            if h.endswith(".h"):
                with open(os.path.join(folder, h)) as f:
                    text += f.read()
        declared = set(re.findall(r"\b(\w+)\(", text))
        self.assertEqual(undefined - declared - {"memset", "memcpy"}, set(), bundle)


class CpuRows(Base):
    """The per-CPU table of out/x86_64 as each compiler builds it (-O2, no -m flags): every
    row's CPU identity (ROUNDSMITH_CPU) takes that row's choices, a CPU no row names takes
    the minimax row, on every forced path each choice is the first of the row's order the
    path can run, and the outputs are the same under every row and path."""

    def expected(self, order, decision, path):
        runs = decision["runs"][paths("x86_64").index(path)]
        return next(decision["options"][o] for o in order if (runs >> o) & 1)

    built = {}   # compiler -> the program, built once for the class

    def exe(self, cc):
        """The bundle and tests/cpu_rows.c built once per compiler for the class."""
        built = type(self).built
        if cc not in built:
            built[cc] = self.build([cc], os.path.join(OUT, "x86_64"), f"rows_{cc}",
                                   flags=["-O2", *WARN], extra=[CPU_ROWS])
        return built[cc]

    def check_compiler(self, cc, section):
        exe = self.exe(cc)
        b = targets.BUNDLES["x86_64"]
        d = bundle.Dispatch(bundle.bundle_shape.shaped(b)[0], targets.get(b.target), "")
        decisions = d.decisions
        table = d.table()
        sec = next(s for s in table["sections"] if s["compiler"] == section)
        rows = [(f"{r['vendor']}:{r['family']}:{r['model']}", r["name"], r["order"])
                for r in sec["rows"]]
        rows.append(("NoSuchVendor:99:99", sec["default_name"], sec["default"]))
        outputs = set()
        here = parse(run([exe]).stdout)["path"]
        self.assertEqual(here, host_cpu.lands_on(host_cpu.paths()[-1]))
        for ident, name, order in rows:
            for path in [None] + paths("x86_64"):
                env = {"ROUNDSMITH_CPU": ident}
                if path:
                    env["ROUNDSMITH_PATH"] = path
                r = run([exe], env=env)
                self.assertEqual(r.returncode, 0, r.stderr)
                on, note = host_cpu.forced(path, path)
                self.assertEqual(r.stderr, note + "\n" if note else "", f"{ident} {path}")
                got = dict(line.split("=", 1) for line in r.stdout.splitlines())
                on = on or here
                self.assertEqual(got["path"], on, f"{ident} {path}")
                self.assertEqual(got["row"], name, ident)
                self.assertEqual(got["selftest"], "0", f"{ident} on {on}")
                for k, dec in enumerate(decisions):
                    self.assertEqual(got[dec["name"]], self.expected(order[k], dec, on),
                                     f"{cc}: {ident} on {on}: {dec['name']}")
                outputs.add((got["digest_mb"], got["digest_kt128"], got["digest_chacha8"]))
        self.assertEqual(len(outputs), 1, outputs)

    def test_gcc(self):
        self.check_compiler("gcc", "gcc")

    def test_clang(self):
        need(toolcheck.compiler(["clang"], link=True))
        self.check_compiler("clang", "clang")

    def test_bad_identity_is_one_line(self):
        exe = self.exe("gcc")
        for bad in ("GenuineIntel", "GenuineIntel:6", "GenuineIntel:x:1", "a:1:2:3",
                    "ThirteenCharsX:6:1"):
            r = run([exe], env={"ROUNDSMITH_CPU": bad})
            self.assertEqual(r.returncode, 0)
            self.assertEqual(len(r.stderr.splitlines()), 1, bad)
            self.assertIn("ROUNDSMITH_CPU", r.stderr)


class SelfTest(Base):
    """rs_selftest() passes on every path each compiler builds, in every committed bundle and
    in the other shapes a folder takes (amalgamated, cut down, generate output)."""

    def test_x86_64_every_path_clang(self):
        """(gcc's build of out/x86_64 runs tests/vendor_api.c, the self-test first, on every
        path: build/bundle/gcc/vendor_api.<path>.log.)"""
        need(toolcheck.compiler(["clang"], link=True))
        exe = self.build(["clang"], os.path.join(OUT, "x86_64"), "x86_clang",
                         flags=["-O2", *WARN])
        for p in paths("x86_64"):
            self.consumer(exe, p, want_path=p)

    def test_tcc(self):
        """tcc builds the scalar path (its Keccak kernel the x86-64 assembly one: see
        Planted.test_wrong_tcc_kernel)."""
        need(toolcheck.compiler(["tcc"], link=True))
        for bundle in ("x86_64", "portable"):
            folder = os.path.join(OUT, bundle)
            exe = self.build(["tcc"], folder, f"tcc_{bundle}", flags=["-O2", *TCC_WARN])
            self.consumer(exe, want_path=paths(bundle)[0])

    def test_portable_every_compiler(self):
        folder = os.path.join(OUT, "portable")
        compilers = ((["gcc"], WARN), (["clang"], WARN), (["tcc"], TCC_WARN))
        need(*(toolcheck.compiler(cc, link=True) for cc, _ in compilers))
        for cc, flags in compilers:
            exe = self.build(cc, folder, f"portable_{cc[0]}", flags=["-O2", *flags])
            self.consumer(exe, want_path="portable")

    def generated(self, name, *args):
        folder = os.path.join(self.tmp, name)
        r = run([sys.executable, "-m", "generator", *args, "--out", folder], cwd=ROOT)
        self.assertEqual(r.returncode, 0, r.stderr)
        return folder

    def test_amalgamation(self):
        folder = self.generated("amalgamated", "bundle", "--target", "x86_64", "--amalgamate")
        self.assertEqual(sorted(f for f in os.listdir(folder) if f.endswith((".c", ".h"))),
                         ["roundsmith.c", "roundsmith.h"])
        exe = self.build(["gcc"], folder, "amalgamated_gcc", flags=["-O1", *WARN])
        for p in paths("x86_64"):
            self.consumer(exe, p, want_path=p)

    def test_cut_down_bundles(self):
        """--kernels chacha --chacha-rounds 8 exports chacha8_* and what they need, nothing of
        Keccak nor of the other round counts; --kernels keccak drops the sse2 path (it would
        run the same kernels as scalar)."""
        folder = self.generated("c8", "bundle", "--target", "x86_64", "--kernels", "chacha",
                                "--chacha-rounds", "8")
        objs = compile_all(["gcc"], folder, os.path.join(self.tmp, "c8o"), ["-O1", *WARN])
        nm = run(["nm", "--defined-only", "-g", *objs]).stdout
        exported = sorted(l.split()[-1] for l in nm.splitlines() if len(l.split()) == 3)
        self.assertEqual(exported, ["chacha8_get_keystream", "chacha8_keysetup",
                                    "chacha_level", "rs_chacha_run_level", "rs_choice",
                                    "rs_choice_name",
                                    "rs_cpu_row_name", "rs_decision_name", "rs_path",
                                    "rs_path_name", "rs_selftest", "rs_selftest_name"])
        exe = link(["gcc"], folder, objs, os.path.join(self.tmp, "c8.exe"),
                   [CONSUMER, "-DRS_CONSUMER_NO_KECCAK"])
        for p in paths("x86_64"):
            self.consumer(exe, p, want_path=p)
        folder = self.generated("k", "bundle", "--target", "x86_64", "--kernels", "keccak")
        self.assertFalse([f for f in os.listdir(folder) if f.startswith("chacha")])
        exe = self.build(["gcc"], folder, "k_gcc", flags=["-O1", *WARN],
                         extra=[CONSUMER, "-DRS_CONSUMER_NO_CHACHA"])
        kept = ("scalar", "avx2", "avx512")
        for p in kept:
            self.consumer(exe, p, want_path=p, among=kept)
        r = run([exe], env={"ROUNDSMITH_PATH": "sse2"})
        self.assertIn("not a path of this bundle", r.stderr)

    def test_generate_output(self):
        """A `generate` folder has the same one header, self-test and path report."""
        folder = self.generated("gen", "generate", "--target", "x86_64")
        exe = self.build(["gcc"], folder, "gen_gcc", flags=["-O1", *WARN])
        self.consumer(exe, want_path="x86_64")

    def test_allocates_nothing(self):
        """The self-test's object calls only the folder's own functions (and memset/memcpy a
        compiler may emit): no allocator, no I/O."""
        for bundle in targets.CANONICAL_BUNDLES:
            if bundle != "aarch64":  # its cross gcc may be missing: a test of its own
                self.allocates_nothing(bundle, "gcc")


class Planted(Base):
    """A wrong kernel fails the self-test on the paths that run it, and only there."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.folder = os.path.join(OUT, "x86_64")
        cls.objs = {os.path.basename(o)[:-2]: o for o in compile_all(
            ["gcc"], cls.folder, os.path.join(cls.tmp, "base"), ["-O1"])}

    def planted(self, name, file, old, new, which=0):
        """A copy of out/x86_64 with `old` replaced by `new` in `file` (occurrence `which`,
        or every one with None), linked with the other files' objects."""
        folder = os.path.join(self.tmp, name)
        shutil.copytree(self.folder, folder)
        path = os.path.join(folder, file)
        with open(path) as f:
            text = f.read()
        spots = [m.start() for m in re.finditer(re.escape(old), text)]
        self.assertTrue(spots, f"{old} not in {file}")
        for at in reversed(spots if which is None else [spots[which]]):
            text = text[:at] + new + text[at + len(old):]
        with open(path, "w") as f:
            f.write(text)
        o = os.path.join(self.tmp, name + ".o")
        r = run(["gcc", "-O1", f"-I{folder}", "-c", path, "-o", o])
        self.assertEqual(r.returncode, 0, r.stderr)
        objs = [o if k == file[:-2] else v for k, v in self.objs.items()]
        return folder, link(["gcc"], folder, objs, os.path.join(self.tmp, name + ".exe"),
                            [CONSUMER])

    def expect(self, exe, codes, env=None):
        """`codes`: path -> the self-test's code there (0 elsewhere). A forced path this CPU
        lacks runs its fallback, and fails as that one does; a bug only on such paths is
        shown nowhere here, so the test skips after checking the paths the CPU has pass."""
        for p in paths("x86_64"):
            self.consumer(exe, p, code=codes.get(host_cpu.lands_on(p), 0), want_path=p,
                          env=env)
        if codes and not any(host_cpu.runs(p) for p in codes):
            self.skipTest(f"this CPU lacks {', '.join(sorted(codes))}: the planted bug runs "
                          "on no path here (the paths it has passed)")

    RC = "0x0000000000008082ULL"

    def test_wrong_x8_kernel(self):
        _, exe = self.planted("x8", "keccak_p1600_x8_avx512.c", self.RC, "0x0000000000008083ULL")
        self.expect(exe, {"avx512": selftest.CODES["x8-avx512"]})

    def test_wrong_x4_kernel(self):
        _, exe = self.planted("x4", "keccak_p1600_x4_avx2.c", self.RC, "0x0000000000008083ULL")
        self.expect(exe, {"avx2": selftest.CODES["x4-avx2"],
                          "avx512": selftest.CODES["x4-avx2"]})

    def test_wrong_bmi2_flavour(self):
        _, exe = self.planted("bmi2", "keccak_p1600_bmi2.c", self.RC, "0x0000000000008083ULL")
        # Run as a CPU whose row keeps the avx512 path on the bmi2 flavour (this CPU's row
        # may take the single-state AVX-512 kernel there instead).
        self.expect(exe, {"avx2": selftest.CODES["single-bmi2"],
                          "avx512": selftest.CODES["single-bmi2"]},
                    env={"ROUNDSMITH_CPU": scalar_row()})

    def test_wrong_scalar_flavour(self):
        # The last table is the C kernel's (the first is tcc's assembly kernel).
        _, exe = self.planted("scalar", "keccak_p1600_scalar.c", self.RC,
                              "0x0000000000008083ULL", which=-1)
        self.expect(exe, {"scalar": selftest.CODES["single-scalar"],
                          "sse2": selftest.CODES["single-scalar"]})

    def test_wrong_chacha_avx2_level(self):
        _, exe = self.planted("chacha", "chacha.c", "rs_chacha_avx2_x8(st, pos, wide, 8,",
                              "rs_chacha_avx2_x8(st, pos, wide, 6,", which=None)
        # The AVX-512 path's table may take the AVX2 level too: it is checked there as well.
        self.expect(exe, {"avx2": selftest.chacha_level_code("avx2", 8),
                          "avx512": selftest.chacha_level_code("avx2", 8)})

    def test_wrong_tcc_kernel(self):
        """The first table of the scalar file is in tcc's branch: tcc's build fails, gcc's
        (the C kernel) does not. That is what shows tcc runs the assembly kernel; the same
        holds for the portable bundle's single file."""
        need(toolcheck.compiler(["tcc"], link=True))
        folder, gcc_exe = self.planted("tcc", "keccak_p1600_scalar.c", self.RC,
                                       "0x0000000000008083ULL", which=0)
        self.expect(gcc_exe, {})
        exe = self.build(["tcc"], folder, "tcc_planted", flags=["-O2"])
        self.consumer(exe, code=selftest.CODES["single-scalar"])
        with open(os.path.join(folder, "keccak_p1600_scalar.c")) as f:
            head = f.read().split("#else", 1)[0]
        self.assertIn("keccakp1600-u2-lc-fused-rol-x86asm", head)


class SelfTest_aarch64(Base):
    """The self-test of out/aarch64 built by the cross gcc, on every path under qemu-aarch64
    (its own test edge, rerun when those tools appear)."""

    def test_aarch64_every_path_under_qemu(self):
        need(toolcheck.compiler([A64_GCC, "-static"], link=True),
             toolcheck.programs("qemu-aarch64"))
        exe = self.build([A64_GCC], os.path.join(OUT, "aarch64"), "a64",
                         flags=["-O2", *WARN], link_flags=["-static"])
        for p in paths("aarch64"):
            self.consumer(exe, p, prefix=QEMU_A64, want_path=p)
        # No SHA3 extension: the neon path's self-test.
        self.consumer(exe, prefix=["qemu-aarch64", "-cpu", "cortex-a57"], want_path="neon")

    def test_allocates_nothing_aarch64(self):
        need(toolcheck.compiler([A64_GCC]))
        self.allocates_nothing("aarch64", A64_GCC)


class Header(unittest.TestCase):
    """roundsmith.h declares every public function of its folder, in C and in C++."""

    def test_every_public_function(self):
        tmp = tempfile.mkdtemp(prefix="rs-e2e-header-")
        try:
            for bundle in targets.CANONICAL_BUNDLES:
                folder = os.path.join(OUT, bundle)
                public = public_functions(folder)
                self.assertIn("rs_path_name", public)
                self.assertIn("rs_selftest", public)
                body = "".join(f"    (void)&{f};\n" for f in sorted(public))
                src = os.path.join(tmp, f"{bundle}.c")
                with open(src, "w") as f:
                    f.write(f'#include "roundsmith.h"\nint main(void)\n{{\n{body}    return 0;\n}}\n')
                for cc in (["gcc", "-x", "c", *WARN], ["g++", "-x", "c++", "-Wall", "-Wextra",
                                                       "-Werror"]):
                    need(toolcheck.compiler(cc[:1], cxx=cc[0] == "g++"))
                    # The tuner's hooks are declared only where asked for; they are public
                    # functions of the folder too.
                    r = run([*cc, f"-I{folder}", "-DRS_TUNING_HOOKS", "-fsyntax-only", src])
                    self.assertEqual(r.returncode, 0, f"{bundle} {cc[0]}: {r.stderr[-2000:]}")
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


def scalar_row():
    """A ROUNDSMITH_CPU identity whose row of out/x86_64's table keeps the single-state
    permutation on the path's scalar flavour."""
    d = bundle.Dispatch(targets.BUNDLES["x86_64"], targets.get("x86_64"), "")
    decisions = d.decisions
    k = next(i for i, dec in enumerate(decisions) if dec["name"] == "single")
    for section in d.table()["sections"]:
        for row in section["rows"]:
            if decisions[k]["options"][row["order"][k][0]] == "scalar":
                return f"{row['vendor']}:{row['family']}:{row['model']}"
    raise AssertionError("no row of out/x86_64's table keeps the scalar flavour")


def public_functions(folder):
    """Functions declared in the folder's headers, less the internal <prefix>rs_<kernel>_
    copies (the flavours, the single-state AVX-512 kernel, the AArch64 and wasm x2 kernels
    and the x86 kernels tagged with their ISA)."""
    out = set()
    for h in os.listdir(folder):
        if h.endswith(".h"):
            with open(os.path.join(folder, h)) as f:
                out |= set(re.findall(r"^[\w *]+?\b(\w+)\(", f.read(), re.M))
    return {f for f in out if not re.match(r"rs_(scalar|bmi2|avx512|neon|sha3|avx512vl|simd128)_", f)}


class CxxCase(unittest.TestCase):
    """Every .c file of every bundle compiles as C++ warning-free (what MSVC's /TP does)."""

    def compile(self, cc, folder, flags):
        # Objects go to a folder of our own, never `-o /dev/null`: as root, the assembler
        # replaced /dev/null with a regular file (and every later reader of it got junk).
        with tempfile.TemporaryDirectory(prefix="rs-e2e-cxx-") as objs, \
                concurrent.futures.ThreadPoolExecutor(2) as pool:
            def one(src):
                out = ["-c", "-o", os.path.join(objs, os.path.basename(src) + ".o")] \
                    if "-fsyntax-only" not in flags else []
                return src, run([*cc, "-x", "c++", "-Wall", "-Wextra", "-Werror", *flags,
                                 *out, f"-I{folder}", src])
            results = list(pool.map(one, sources(folder)))
        for src, r in results:
            self.assertEqual(r.returncode, 0, f"{' '.join(cc)} {src}:\n{r.stderr[-3000:]}")


class Cxx(CxxCase):
    """The x86-64 and portable bundles as C++, by g++ and clang++."""

    def test_gxx(self):
        # g++'s uninitialized-use warnings come from its optimiser: compile at -O2.
        need(toolcheck.compiler(["g++"], cxx=True))
        for bundle in ("x86_64", "portable"):
            self.compile(["g++"], os.path.join(OUT, bundle), ["-O2"])

    def test_clangxx(self):
        need(toolcheck.compiler(["clang++"], cxx=True))
        for bundle in ("x86_64", "portable"):
            self.compile(["clang++"], os.path.join(OUT, bundle), ["-fsyntax-only"])


class Cxx_aarch64(CxxCase):
    """out/aarch64 as C++, by the cross g++ and by clang++ with its headers (its own test
    edge, rerun when those tools appear)."""

    def test_aarch64_gxx(self):
        need(toolcheck.compiler(["aarch64-linux-gnu-g++"], cxx=True))
        self.compile(["aarch64-linux-gnu-g++"], os.path.join(OUT, "aarch64"), ["-O2"])

    def test_aarch64_clangxx(self):
        # With the SHA3 extension on, so clang compiles that path's file too.
        need(toolcheck.compiler(["clang++"], cxx=True),
             toolcheck.compiler(A64_CLANGXX, "g++-aarch64-linux-gnu", cxx=True,
                                what="C++ headers for " + " ".join(A64_CLANGXX[:2])))
        self.compile(A64_CLANGXX[:2], os.path.join(OUT, "aarch64"),
                     A64_CLANGXX[2:] + ["-fsyntax-only"])


class Recipe(unittest.TestCase):
    """docs/vendoring.md's chiapos recipe, run as written: the same commands, from a folder
    laid out as the recipe says (chiapos/src, and a roundsmith checkout at $HOME/roundsmith)."""

    def test_chiapos_recipe(self):
        script = readme_recipe("chiapos")
        tmp = tempfile.mkdtemp(prefix="rs-e2e-recipe-")
        try:
            home = os.path.join(tmp, "home")
            os.makedirs(home)
            os.symlink(ROOT, os.path.join(home, "roundsmith"))
            src = os.path.join(tmp, "chiapos", "src")
            os.makedirs(src)
            # Stand-ins for chiapos' own ChaCha8 files, which the recipe removes: while its
            # chacha8.h stays, a quoted include from src/ finds it before the bundle's.
            with open(os.path.join(src, "chacha8.h"), "w") as f:
                f.write("#error chiapos' own chacha8.h, found before the bundle's\n")
            with open(os.path.join(src, "chacha8.c"), "w") as f:
                f.write("#error chiapos' own chacha8.c, still built\n")
            # The recipe's `python3` is the interpreter running this test (the build's, with
            # Jinja2), not whichever python3 comes first on PATH (a venv's may lack it).
            bin_dir = os.path.join(tmp, "bin")
            os.makedirs(bin_dir)
            wrapper = os.path.join(bin_dir, "python3")
            with open(wrapper, "w") as f:  # not a link: a venv's interpreter needs its path
                f.write(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} \"$@\"\n")
            os.chmod(wrapper, 0o755)
            r = run(["sh", "-ec", script], cwd=tmp, env={
                "HOME": home, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")})
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertFalse({"chacha8.h", "chacha8.c"} & set(os.listdir(src)))
            objs = sorted(f for f in os.listdir(src) if f.endswith(".o"))
            self.assertEqual(objs, ["chacha.o", "rs_dispatch.o", "rs_selftest.o"])
            listed = re.search(r"^# files: (.*)$", script, re.M).group(1).split()
            self.assertEqual(sorted(listed), sorted(os.listdir(os.path.join(src, "roundsmith"))))
            nm = run(["nm", "--defined-only", "-g", *(os.path.join(src, o) for o in objs)])
            exported = sorted(l.split()[-1] for l in nm.stdout.splitlines()
                              if len(l.split()) == 3)
            self.assertEqual(exported, sorted(
                re.search(r"^# exports: (.*)$", script, re.M).group(1).split()))
            # chiapos' F1 on those objects gives the reference's answer, compiled from src/
            # as chiapos' own files are (its quoted include of chacha8.h looks in src/ first).
            exe = os.path.join(tmp, "plotter")
            shutil.copy(os.path.join(ROOT, "examples", "plotter_f1.c"), src)
            r = run(["gcc", "-O1", "-Iroundsmith", "plotter_f1.c", *objs, "-o", exe], cwd=src)
            self.assertEqual(r.returncode, 0, r.stderr)
            r = run([exe, bytes(range(32)).hex(), "32", "0", "12345"])
            self.assertEqual(r.returncode, 0, r.stderr)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


def readme_recipe(name):
    """The shell block that follows docs/vendoring.md's <!-- recipe: NAME --> marker."""
    with open(VENDORING) as f:
        text = f.read()
    m = re.search(r"<!-- recipe: " + re.escape(name) + r"\b[^>]*-->\s*```sh\n(.*?)```", text,
                  re.S)
    if not m:
        raise AssertionError(f"docs/vendoring.md has no recipe block '{name}'")
    return m.group(1)


if __name__ == "__main__":
    unittest.main()
