# SPDX-License-Identifier: Apache-2.0 OR MIT
"""`python3 -m generator prove` as a maintainer runs it: the committed bundles proven whole, and
planted bugs (each a one-token change a template slip could make) each caught with a
counterexample whose C reproduction, compiled against the buggy folder, really differs."""

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
from generator import toolprobe  # noqa: E402
from tests import host_cpu  # noqa: E402

# The prover needs Debian's python3-z3 and python3-pycparser, which only Debian's interpreter
# sees when the python3 on PATH is another (pyenv): the one that has them runs it.
PY = toolprobe.python_with(("jinja2", "pycparser", "z3"))


def prove(*args):
    if PY is None:
        raise unittest.SkipTest("skipped: no interpreter here imports jinja2, pycparser and z3 "
                                "(apt-get install -y python3-z3 python3-pycparser)")
    return subprocess.run([PY, "-m", "generator", "prove", *args], cwd=ROOT,
                          capture_output=True, text=True)


class Bundles(unittest.TestCase):
    """Every kernel of a committed bundle, every compiler branch: all proved, exit 0; each
    dispatch wrapper given the proofs of the kernels it passes its call to."""

    def check(self, folder):
        r = prove(os.path.join("out", folder))
        lines = [l for l in r.stdout.splitlines() if l.startswith(("proved", "counter", "not "))]
        self.assertTrue(lines, r.stdout + r.stderr)
        bad = [l for l in lines if not l.startswith("proved")]
        self.assertEqual(bad, [], r.stdout[-3000:] + r.stderr[-2000:])
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
        # x86_64's keccak_p1600.c is its dispatch wrappers (aarch64 runs one kernel on every
        # path, the portable folder has no dispatch).
        wrappers = [l for l in lines if folder == "x86_64" and re.search(
            r"/keccak_p1600\.c: keccak_[fp]1600(_absorb|_squeeze)? ", l)]
        self.assertEqual(len(wrappers) >= 4, folder == "x86_64", lines)
        for l in wrappers:
            self.assertRegex(l, r"given the proofs of rs_\w+")
        # under its own configurations (the portable folder's include AArch64 and s390x)
        self.assertIn(f"({folder} folder, ", r.stdout.splitlines()[-1])
        print(r.stdout.splitlines()[-1])


class Bundle_portable(Bundles):
    def test(self):
        self.check("portable")


class Bundle_x86_64(Bundles):
    def test(self):
        self.check("x86_64")


class Bundle_aarch64(Bundles):
    def test(self):
        self.check("aarch64")


# (name, folder, file, the line's text, its replacement, occurrence, function, config)
BUGS = [
    # a fresh sponge's partial last lane shifted down one byte too little: a byte of the
    # lane before it stays in
    ("partial lane of a fresh x4 sponge", "x86_64", "keccak_p1600_x4_avx2.c",
     "RS_VSRL(U2_0_0, 64 - 8 * r)", "RS_VSRL(U2_0_0, 56 - 8 * r)", 1,
     "keccak_p1600_x4_avx2_start", "gcc-x86_64"),
    # a squeeze's lanes read from the wrong row of the states (the lanes 20-23 group)
    ("lanes out of a wrong row", "x86_64", "keccak_p1600_x4_avx512vl.c",
     "T0 = RS_VLOAD(states[20]);", "T0 = RS_VLOAD(states[21]);", 1,
     "keccak_p1600_x4_avx512vl_extract", "gcc-x86_64"),
    ("rho offset", "portable", "keccak_p1600.c", "Be = RS_ROL64(Agi ^ Di, 6);",
     "Be = RS_ROL64(Agi ^ Di, 7);", 1, "keccak_p1600", "gcc-x86_64"),
    ("theta rotation", "portable", "keccak_p1600.c", "Da = Cu ^ RS_ROL64(Ce, 1);",
     "Da = Cu ^ RS_ROL64(Ce, 2);", 1, "keccak_p1600", "gcc-x86_64"),
    ("pi index", "portable", "keccak_p1600.c", "Bi = RS_ROL64(Ako ^ Do, 25);",
     "Bi = RS_ROL64(Aku ^ Do, 25);", 1, "keccak_p1600", "gcc-x86_64"),
    ("dropped NOT under lane complementing (x86-64 asm)", "portable", "keccak_p1600.c",
     '"notq %%rbp\\n\\t"', '"\\n\\t"', 1, "keccak_p1600", "tcc-x86_64"),
    ("round constant", "portable", "keccak_p1600.c", "0x8000000080008000ULL,",
     "0x8000000080008001ULL,", 2, "keccak_p1600", "gcc-x86_64"),
    ("last round's iota for n_r = 12", "portable", "keccak_p1600.c",
     "Aba ^= rs_keccak_rc[i + 3];", "Aba ^= rs_keccak_rc[i + 3] ^ (i == 20);", 2,
     "keccak_p1600_absorb", "gcc-x86_64"),
    ("lane swap in the x8 separate states' transpose", "x86_64", "keccak_p1600_x8_avx512.c",
     "U1_0 = RS_VLO64(T0, T1);", "U1_0 = RS_VLO64(T1, T0);", 1, "keccak_p1600_x8_avx512_states",
     "gcc-x86_64"),
    # The first copies of the network are the separate states' loads and stores (12 of them
    # under the default unroll); the 13th is the block loop's.
    ("lane swap in the x8 transpose", "x86_64", "keccak_p1600_x8_avx512.c",
     "U1_0 = RS_VLO64(T0, T1);", "U1_0 = RS_VLO64(T1, T0);", 13, "keccak_p1600_x8_avx512_absorb",
     "gcc-x86_64"),
    ("chunk swap in the x4 separate states' load", "x86_64", "keccak_p1600_x4_avx512vl.c",
     "L1 = RS_VHI64(X0_0, X1_0);", "L1 = RS_VHI64(X1_0, X0_0);", 1,
     "keccak_p1600_x4_avx512vl_states", "gcc-x86_64"),
    # Two separate states through half an x4 AVX2 (the third copy: the AVX2 path has no x2
    # kernel; the AVX-512 path's x2 kernel serves them without one).
    ("x-N wrapper dropping the last instance of a wider kernel's copy", "x86_64",
     "keccak_p1600_xN.c", "for (j = 0; j < 2; j++)\n            for (i = 0; i < 25; i++)\n"
     "                states[j][i] = t[j][i];", "for (j = 0; j < 1; j++)\n            for (i = 0; "
     "i < 25; i++)\n                states[j][i] = t[j][i];", 3, "keccak_p1600_x2_states",
     "gcc-x86_64"),
    ("ChaCha rotation", "portable", "chacha.c", "x12 = RS_ROTL32(x12, 16);",
     "x12 = RS_ROTL32(x12, 15);", 1, "rs_chacha8_block", "gcc-x86_64"),
    ("counter carry", "x86_64", "chacha.c",
     "c13_0 = _mm_sub_epi32(c13_0, _mm_and_si128(carry, _mm_set1_epi32(-wide)));",
     "c13_0 = _mm_add_epi32(c13_0, _mm_and_si128(carry, _mm_set1_epi32(-wide)));", 4,
     "rs_chacha8_sse2", "gcc-x86_64"),
    ("dispatch wrapper passing a wrong round count on one path", "x86_64", "keccak_p1600.c",
     "rs_bmi2_keccak_p1600(state, rounds);", "rs_bmi2_keccak_p1600(state, rounds ^ 1);", 1,
     "keccak_p1600", "gcc-x86_64"),
]


def plant(src, text, repl, occurrence):
    """The occurrence-th copy of text replaced. The x86_64 chacha.c has the carry line once per
    level's 4-block helper (AVX2, SSE2; AVX-512 ends in row paths), in each of its two compiler
    branches: the fourth is the SSE2 helper of the branch gcc compiles."""
    idx = -1
    for _ in range(occurrence):
        idx = src.index(text, idx + 1)
    return src[:idx] + repl + src[idx + len(text):]


def planted_copy(tmp, folder, fname, text, repl, occ):
    """A copy of out/<folder> in tmp with the bug planted in fname; its path."""
    d = os.path.join(tmp, folder)
    shutil.copytree(os.path.join(ROOT, "out", folder), d)
    path = os.path.join(d, fname)
    with open(path) as f:
        src = f.read()
    with open(path, "w") as f:
        f.write(plant(src, text, repl, occ))
    return d


class Variants(unittest.TestCase):
    """`prove --variant NAME`: a variant generated in memory and proven, never written."""

    def test_a_variant_proves_without_a_folder(self):
        r = prove("--variant", "chacha-x4-step-shift-sse2", "--config", "gcc-x86_64")
        self.assertEqual(r.returncode, 0, r.stdout[-2000:] + r.stderr[-2000:])
        self.assertIn("chacha-x4-step-shift-sse2: 7 of 7 kernels proved", r.stdout)
        self.assertFalse(os.path.exists(os.path.join(ROOT, "chacha-x4-step-shift-sse2")))

    def test_a_bad_name_is_one_line(self):
        r = prove("--variant", "keccakp1600-u7-purple")
        self.assertEqual(r.returncode, 2)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)


class PlantedBugs(unittest.TestCase):
    def test_each_is_caught(self):
        for name, folder, fname, text, repl, occ, fn, config in BUGS:
            with self.subTest(bug=name), tempfile.TemporaryDirectory() as tmp:
                d = planted_copy(tmp, folder, fname, text, repl, occ)
                repro = os.path.join(tmp, "repro")
                r = prove(d, "--function", fn, "--config", config, "--quick",
                          "--repro-dir", repro)
                self.assertEqual(r.returncode, 1, r.stdout[-2000:] + r.stderr[-2000:])
                self.assertIn("counterexample", r.stdout)
                env = dict(os.environ)
                if folder == "x86_64" and "x8" in fn:
                    env["ROUNDSMITH_PATH"] = "avx512"
                if folder == "x86_64" and "sse2" in fn:
                    env["ROUNDSMITH_PATH"] = "sse2"
                repro_differs(self, name, tmp, d, repro, r, fn, config, env)


def row_taking(decision, option, path):
    """A ROUNDSMITH_CPU identity whose row of out/x86_64's table (gcc's section, the repro's
    compiler) takes option number `option` of `decision` on path number `path`, or None."""
    from generator.emit import bundle
    from generator.choice import targets
    disp = bundle.Dispatch(targets.BUNDLES["x86_64"], targets.get("x86_64"), "")
    decisions = disp.decisions
    k = next(i for i, dec in enumerate(decisions) if dec["name"] == decision)
    runs = decisions[k]["runs"][path]
    section = next(s for s in disp.table()["sections"] if s["compiler"] == "gcc")
    for row in section["rows"]:
        first = next((o for o in row["order"][k] if o != 255 and runs >> o & 1), None)
        if first == option:
            return f"{row['vendor']}:{row['family']}:{row['model']}"
    return None


def repro_differs(case, name, tmp, d, repro, r, fn, config, env):
    """The counterexample's reproduction, built against the buggy folder d, shows the
    difference when run."""
    c = os.path.join(repro, f"repro_{fn}.c")
    case.assertTrue(os.path.exists(c), r.stdout)
    exe = os.path.join(tmp, "repro.exe")
    cc = "tcc" if config.startswith("tcc") and shutil.which("tcc") else "gcc"
    b = subprocess.run([cc, "-O1", "-I" + d, c] +
                       [os.path.join(d, x) for x in sorted(os.listdir(d))
                        if x.endswith(".c")] + ["-o", exe],
                       capture_output=True, text=True)
    case.assertEqual(b.returncode, 0, b.stderr[-2000:])
    # a wrapper's counterexample names the path its repro must be forced onto
    forced = re.search(r"ROUNDSMITH_PATH=(\w+)", r.stdout)
    if forced:
        env["ROUNDSMITH_PATH"] = forced.group(1)
    # and, where it asks the table, the option: the repro runs as a CPU whose row takes it
    m = re.search(r"path = (\d+), choice = (\d+)", r.stdout)
    width = re.search(r"_x(\d+)", fn)
    if m and width and os.path.basename(d) == "x86_64":
        ident = row_taking(f"mb{width.group(1)}", int(m.group(2)), int(m.group(1)))
        if ident:
            env["ROUNDSMITH_CPU"] = ident
    run = subprocess.run([exe], capture_output=True, text=True, env=env)
    case.assertNotEqual(run.returncode, 0,
                        f"the reproduction of '{name}' does not differ: "
                        f"{run.stdout}{r.stdout[-1500:]}")


class AsmRotations(unittest.TestCase):
    """The rol and rorx rotation variants: GNU statement expressions around inline asm with
    "r" and "i" operands, run on the asm semantics under every register assignment the
    compiler may choose; and the asm kernel whose chi is BMI1's three-operand andn."""

    def test_rol_and_rorx_prove(self):
        names = "keccakp1600-u1-nolc-fused-rol-scalar,keccakp1600-u2-lc-fused-rorx-scalar"
        r = prove("--target", "x86_64", "--variant", names, "--function", "keccak_p1600",
                  "--config", "gcc-x86_64")
        self.assertEqual(r.returncode, 0, r.stdout[-2000:] + r.stderr[-2000:])
        self.assertEqual(r.stdout.count("1 of 1 kernels proved"), 2, r.stdout)

    def test_a_wrong_rorx_count_is_caught(self):
        generated_bug_caught(self, "rorx count", ["--unroll", "2", "--lane-complement", "on",
                                                  "--rotate", "rorx"],
                             '"i" (64 - (n))', '"i" (63 - (n))')

    def test_swapped_andn_operands_are_caught(self):
        # AT&T andn's first operand is the one kept, the second the one complemented
        generated_bug_caught(self, "andn operands", ["--unroll", "2", "--lane-complement", "off",
                                                     "--rotate", "rorx", "--isa", "x86asm"],
                             "andnq %%r11, %%r10, %%r14", "andnq %%r10, %%r11, %%r14",
                             needs="bmi1")


def generated_bug_caught(case, name, options, text, repl, needs=None):
    """A folder `generate` writes with `options` for x86_64 proves; with text planted as repl
    in its keccak_p1600.c it gets a counterexample whose reproduction, where this CPU has
    the flag `needs`, differs when run."""
    with tempfile.TemporaryDirectory() as tmp:
        d = os.path.join(tmp, "gen")
        g = subprocess.run([PY or sys.executable, "-m", "generator", "generate", "--target",
                            "x86_64", *options, "--out", d], cwd=ROOT, capture_output=True,
                           text=True)
        case.assertEqual(g.returncode, 0, g.stderr)
        r = prove(d, "--function", "keccak_p1600", "--config", "gcc-x86_64")
        case.assertEqual(r.returncode, 0, r.stdout[-2000:] + r.stderr[-2000:])
        path = os.path.join(d, "keccak_p1600.c")
        with open(path) as f:
            src = f.read()
        with open(path, "w") as f:
            f.write(plant(src, text, repl, 1))
        repro = os.path.join(tmp, "repro")
        r = prove(d, "--function", "keccak_f1600", "--config", "gcc-x86_64",
                  "--repro-dir", repro)
        case.assertEqual(r.returncode, 1, r.stdout[-2000:] + r.stderr[-2000:])
        case.assertIn("counterexample", r.stdout)
        if needs is None or needs in host_cpu.flags():
            repro_differs(case, name, tmp, d, repro, r, "keccak_f1600", "gcc-x86_64",
                          dict(os.environ))


class SingleStateAvx512(unittest.TestCase):
    """The single-state AVX-512 kernels: lines of the state in registers moved by
    permutexvar/permutex2var and blends, rho by rolv, all with constant index and count
    vectors."""

    def test_a_wrong_rolv_count_is_caught(self):
        generated_bug_caught(self, "rolv count", ["--isa", "avx512", "--unroll", "2"],
                             "0, 0, 0, 39, 56, 6, 45, 0", "0, 0, 0, 39, 56, 6, 44, 0",
                             needs="avx512f")


class HelperContracts(unittest.TestCase):
    """A ChaCha level is proven given its helpers' proofs; when a helper does not prove, the
    level is proven again without them and fails too, never "proved" on a broken helper."""

    def test_level_over_a_broken_helper_fails(self):
        _, folder, fname, text, repl, occ, _, config = next(b for b in BUGS
                                                            if b[0] == "counter carry")
        with tempfile.TemporaryDirectory() as tmp:
            d = planted_copy(tmp, folder, fname, text, repl, occ)
            r = prove(d, "--function", "rs_chacha8_sse2,rs_chacha_sse2_x4,rs_chacha8_block",
                      "--config", config, "--quick")
            self.assertEqual(r.returncode, 1, r.stdout[-2000:] + r.stderr[-2000:])
            status = {m.group(2): m.group(1) for m in re.finditer(
                r"^(proved|counterexample|not supported) +\S+: (\w+) ", r.stdout, re.M)}
            self.assertEqual(status, {"rs_chacha8_sse2": "counterexample",
                                      "rs_chacha_sse2_x4": "counterexample",
                                      "rs_chacha8_block": "proved"}, r.stdout[-3000:])
            self.assertIn("ROUNDSMITH_PATH=sse2", r.stdout)

    def test_level_names_the_proofs_it_rests_on(self):
        r = prove(os.path.join("out", "x86_64"), "--function",
                  "rs_chacha8_avx2,rs_chacha_avx2_x8,rs_chacha_avx2_x4,rs_chacha8_block",
                  "--config", "gcc-x86_64", "--quick")
        self.assertEqual(r.returncode, 0, r.stdout[-2000:] + r.stderr[-2000:])
        self.assertRegex(r.stdout, r"proved +\S+: rs_chacha8_avx2 .*given the proofs of "
                                   r"rs_chacha8_block, rs_chacha_avx2_x4, rs_chacha_avx2_x8")


class Replay(unittest.TestCase):
    """A round replayed from a recording (generator/prove/replay.py) reaches the verdict the
    round run in full reaches: the same kernels proved, the same counterexample for a planted
    bug, and replays really taken."""

    SCRIPT = (
        "import json, sys\n"
        "sys.setrecursionlimit(100000)\n"
        "from generator.prove import driver, replay\n"
        "replay.ENABLED = sys.argv[1] == 'on'\n"
        "_, res = driver.prove_folder(sys.argv[2], jobs_n=1, quick=True,\n"
        "                             only=set(sys.argv[3].split(',')), configs=[sys.argv[4]])\n"
        "print(json.dumps([[r.function, r.status, r.detail] for r in res]))\n"
        "print(json.dumps(replay.COUNTS))\n")

    def run_both(self, folder, functions, config="gcc-x86_64"):
        if PY is None:
            prove()     # skips with the reason
        got = {}
        for mode in ("on", "off"):
            r = subprocess.run([PY, "-c", self.SCRIPT, mode, folder, functions, config],
                               cwd=ROOT, capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr[-2000:])
            lines = r.stdout.strip().splitlines()
            got[mode] = (json.loads(lines[-2]), json.loads(lines[-1]))
        self.assertEqual(got["on"][0], got["off"][0])
        self.assertGreater(got["on"][1]["replayed"], 0)
        self.assertEqual(got["off"][1], {"replayed": 0, "recorded": 0})
        return got["on"][0]

    def test_scalar_and_x8_prove_alike(self):
        res = self.run_both(os.path.join(ROOT, "out", "x86_64"),
                            "rs_scalar_keccak_p1600,keccak_p1600_x8_avx512")
        self.assertEqual([r[1] for r in res], ["proved", "proved"], res)

    def test_a_planted_round_constant_gives_the_same_counterexample(self):
        _, folder, fname, text, repl, occ, _, _ = next(b for b in BUGS
                                                       if b[0] == "round constant")
        with tempfile.TemporaryDirectory() as tmp:
            d = planted_copy(tmp, folder, fname, text, repl, occ)
            res = self.run_both(d, "keccak_p1600")
        self.assertEqual(res[0][1], "counterexample", res)
        self.assertIn("first difference: round", res[0][2])


class SharedRecordings(unittest.TestCase):
    """A recording serves every run of statements that reads alike in the same context (one
    file's permutation and block loops, other unroll factors, other files), and none whose
    context differs: a helper it calls or a table it reads."""

    SCRIPT = (
        "import sys\n"
        "from generator.prove import cfront, interp, replay\n"
        "from pycparser import c_ast\n"
        "def digest(path):\n"
        "    unit = cfront.load(path, cfront.CONFIGS['gcc-x86_64'])\n"
        "    ip = interp.Interp(unit, {})\n"
        "    body = ip.funcs['run'].body\n"
        "    items = body.block_items\n"
        "    a = next(i for i, it in enumerate(items) if isinstance(it, c_ast.Label))\n"
        "    return replay._site_text(ip, items, a, len(items))\n"
        "print(' '.join(digest(p) for p in sys.argv[1:]))\n")

    C = ("#include <stdint.h>\n"
         "static const uint64_t tab[2] = {1, 2};\n"
         "static uint64_t twist(uint64_t x) { return x ^ (x >> 3); }\n"
         "uint64_t run(uint64_t a, unsigned i) {\n"
         "    uint64_t b = 0;\n"
         "    a ^= 1;\n"
         "round0:\n"
         "    b = twist(a) ^ tab[i];\n"
         "    a = b + 1;\n"
         "    return a;\n"
         "}\n")

    def test_same_text_shares_and_other_context_does_not(self):
        if PY is None:
            prove()
        variants = {
            "a": self.C,
            "b": self.C,                                          # another file, same text
            "helper": self.C.replace("x >> 3", "x >> 4"),         # a helper it calls
            "table": self.C.replace("{1, 2}", "{1, 3}"),          # a table it reads
            "before": self.C.replace("a ^= 1;", "a ^= 2;"),       # outside the run
        }
        with tempfile.TemporaryDirectory() as tmp:
            paths = []
            for name, text in variants.items():
                paths.append(os.path.join(tmp, name + ".c"))
                with open(paths[-1], "w") as f:
                    f.write(text)
            r = subprocess.run([PY, "-c", self.SCRIPT, *paths], cwd=ROOT,
                               capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
        d = dict(zip(variants, r.stdout.split()))
        self.assertEqual(d["a"], d["b"])
        self.assertEqual(d["a"], d["before"])
        self.assertNotEqual(d["a"], d["helper"])
        self.assertNotEqual(d["a"], d["table"])


class SharedRoads(unittest.TestCase):
    """A wrapper's case proven on one answer of the oracles is not run again on an answer
    that takes the same road through rs_xn_kernel (generator/prove/decisions.py): the
    verdicts are the ones every answer run in full gives, cases are really shared, and a bug
    on the road of one answer is still caught on that answer."""

    SCRIPT = (
        "import json, sys\n"
        "sys.setrecursionlimit(100000)\n"
        "from generator.prove import decisions, driver\n"
        "decisions.ENABLED = sys.argv[1] == 'on'\n"
        "_, res = driver.prove_folder(sys.argv[2], jobs_n=1, quick=True,\n"
        "                             only=set(sys.argv[3].split(',')), configs=['gcc-x86_64'])\n"
        "print(json.dumps([[r.function, r.status, r.detail] for r in res]))\n"
        "print(json.dumps(decisions.COUNTS))\n")
    FNS = "keccak_p1600_x2_absorb,keccak_p1600_x2_avx512vl_absorb,keccak_p1600_x2"

    def run_mode(self, mode, folder):
        if PY is None:
            prove()     # skips with the reason
        r = subprocess.run([PY, "-c", self.SCRIPT, mode, folder, self.FNS], cwd=ROOT,
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
        res, counts = r.stdout.strip().splitlines()[-2:]
        return json.loads(res), json.loads(counts)

    def test_verdicts_alike_and_cases_shared(self):
        on, counts = self.run_mode("on", os.path.join(ROOT, "out", "x86_64"))
        off, none = self.run_mode("off", os.path.join(ROOT, "out", "x86_64"))
        self.assertEqual(on, off)
        self.assertEqual({r[1] for r in on}, {"proved"}, on)
        self.assertGreater(counts["shared"], 0)
        self.assertEqual(none["shared"], 0)

    def test_a_bug_on_one_road_is_caught_there(self):
        # The AVX-512 path's own x2 kernel handed one block of two: only the answers whose
        # rs_xn_kernel(0, 0) is 4 take that road.
        call = "keccak_p1600_x2_avx512vl_absorb(states, in, blocks, rate_lanes, rounds);"
        with tempfile.TemporaryDirectory() as tmp:
            d = planted_copy(tmp, "x86_64", "keccak_p1600_xN.c", call,
                             call.replace("blocks,", "1,"), 1)
            res, counts = self.run_mode("on", d)
        got = {r[0]: r for r in res}
        self.assertEqual(got["keccak_p1600_x2_absorb"][1], "counterexample", res)
        self.assertIn("blocks = 2, path = ", got["keccak_p1600_x2_absorb"][2])
        self.assertGreater(counts["shared"], 0)


class WrapperLemma(unittest.TestCase):
    """A dispatch wrapper that passes its call on unchanged is proven given its callees'
    proofs, without running them again per path; one that changes an argument on a path, or
    whose callee does not prove, is run whole and gets the counterexample."""

    FNS = "keccak_{0},rs_bmi2_keccak_{0},rs_scalar_keccak_{0}"

    def status(self, r):
        return {m.group(2): m.group(1) for m in re.finditer(
            r"^(proved|counterexample|not supported) +\S+: (\w+) ", r.stdout, re.M)}

    def planted(self, fname, text, repl, api):
        with tempfile.TemporaryDirectory() as tmp:
            d = planted_copy(tmp, "x86_64", fname, text, repl, 1)
            r = prove(d, "--function", self.FNS.format(api), "--config", "gcc-x86_64",
                      "--quick")
        self.assertEqual(r.returncode, 1, r.stdout[-2000:] + r.stderr[-2000:])
        return r

    def test_a_changed_argument_is_no_lemma(self):
        _, _, fname, text, repl, _, _, _ = next(b for b in BUGS if b[0].startswith("dispatch"))
        r = self.planted(fname, text, repl, "p1600")
        self.assertEqual(self.status(r), {"keccak_p1600": "counterexample",
                                          "rs_bmi2_keccak_p1600": "proved",
                                          "rs_scalar_keccak_p1600": "proved"}, r.stdout)
        self.assertIn("ROUNDSMITH_PATH=avx2", r.stdout)

    def test_over_a_broken_callee_fails(self):
        r = self.planted("keccak_p1600_bmi2.c", "0x0000000000008082ULL",
                         "0x0000000000008083ULL", "f1600")
        self.assertEqual(self.status(r), {"keccak_f1600": "counterexample",
                                          "rs_bmi2_keccak_f1600": "counterexample",
                                          "rs_scalar_keccak_f1600": "proved"}, r.stdout)
        self.assertNotIn("given the proofs of rs_bmi2", r.stdout)


class Visibility(unittest.TestCase):
    """No function of a committed bundle hides from the prover: each is defined under some
    configuration of its folder (a branch of an `#if` no configuration takes is a function a
    compiler may build and no proof covers), and a kernel that hides is a failing line."""

    # Compiled only with -DRS_TUNING_HOOKS, for the tuners: no build of the library has them.
    OPTIONAL = {"rs_option_name", "rs_tuning_force"}

    def test_every_function_of_the_bundles_is_seen(self):
        sys.path.insert(0, ROOT)
        from generator.prove import cfront
        hidden = []
        for name in ("portable", "x86_64", "aarch64"):
            folder = os.path.join(ROOT, "out", name)
            configs = [cfront.CONFIGS[c] for c in cfront.CONFIGS_FOR_ARCH[name]]
            configs = [c for c in configs if c.available()]
            for f in sorted(os.listdir(folder)):
                if not f.endswith(".c"):
                    continue
                path = os.path.join(folder, f)
                with open(path) as fh:
                    left = set(cfront.defined_functions(fh.read())) - self.OPTIONAL
                for c in configs:
                    text = cfront.preprocess(path, c) if left else None
                    if text is not None:
                        left -= set(cfront.defined_functions(cfront.clean(text)))
                hidden += [f"out/{name}/{f}: {n}" for n in sorted(left)]
        self.assertEqual(hidden, [])

    def test_a_hidden_kernel_is_a_failing_line(self):
        # out/aarch64 as it would be if its vector paths were built on a system no
        # configuration stands for.
        with tempfile.TemporaryDirectory() as tmp:
            d = os.path.join(tmp, "aarch64")
            shutil.copytree(os.path.join(ROOT, "out", "aarch64"), d)
            path = os.path.join(d, "rs_dispatch.h")
            with open(path) as f:
                text = f.read()
            self.assertIn("defined(__linux__)", text)
            with open(path, "w") as f:
                f.write(text.replace("defined(__linux__)", "defined(__rs_no_such_system__)"))
            r = prove(d, "--function", "rs_chacha20_neon,keccak_p1600_x2_sha3,rs_chacha20_block",
                      "--quick")
        self.assertEqual(r.returncode, 1, r.stdout[-2000:] + r.stderr[-2000:])
        hidden = re.findall(r"^not proved +\S+: (\w+): hidden from every configuration",
                            r.stdout, re.M)
        self.assertEqual(sorted(hidden), ["keccak_p1600_x2_sha3", "rs_chacha20_neon"], r.stdout)
        self.assertRegex(r.stdout, r"(?m)^proved +\S+: rs_chacha20_block ")


class ModelCheck_x86_64(unittest.TestCase):
    """Every x86 intrinsic model, and the register forms of the x86-64 asm semantics, against
    the instructions on this CPU (random operands)."""

    def test(self):
        sys.path.insert(0, ROOT)
        from generator.prove import modelcheck
        results = modelcheck.check(arm=False, per=8)
        not_run = [n for n, r in results if r.startswith("not run")]
        if len(not_run) == len(results):
            self.skipTest(f"skipped: {results[0][1][len('not run: '):]}")
        bad = [(n, r) for n, r in results if r != "ok"]
        self.assertEqual(bad, [])
        print(f"{len(results)} x86 intrinsic models agree with the instructions")

    def test_asm_instructions(self):
        from generator.prove import modelcheck
        results = modelcheck.check_asm(per=16)
        if all(r.startswith("not run") for _, r in results):
            self.skipTest(f"skipped: {results[0][1][len('not run: '):]}")
        self.assertEqual([(n, r) for n, r in results if r != "ok"], [])


class ModelCheck_aarch64(unittest.TestCase):
    """Every NEON and SHA3 intrinsic model against the instruction under qemu-aarch64."""

    def test(self):
        sys.path.insert(0, ROOT)
        from generator.prove import modelcheck
        results = modelcheck.check(arm=True, per=8)
        if all(r.startswith("not run") for _, r in results):
            self.skipTest(f"skipped: {results[0][1][len('not run: '):]}")
        bad = [(n, r) for n, r in results if r != "ok"]
        self.assertEqual(bad, [])
        print(f"{len(results)} AArch64 intrinsic models agree with the instructions")


if __name__ == "__main__":
    unittest.main()
