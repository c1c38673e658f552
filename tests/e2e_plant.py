# SPDX-License-Identifier: Apache-2.0 OR MIT
"""rs_selftest() against planted bugs: for every kernel of out/x86_64 (each ChaCha block,
path, row path and level function, each x-N kernel, each single-state kernel, the dispatched
x-N functions and both SnP layers) a copy of its file gets a one-bit bug, is compiled alone and
linked with the other files' objects and tests/plant_driver.c. On every path this CPU has, the
driver's digest (a wider workload than the self-test's, run on every option of every decision
the path can take) against the unplanted build's says whether the bug changes an output
there; wherever it does, rs_selftest() must return nonzero. Prints the coverage (caught /
planted bugs that change an output) per file.

The plants: in every function of those files, `^ 1` on the first value it assigns (after
`return`-free bodies; a candidate that does not compile is replaced by the next); in ChaCha's
row paths and level functions, each block-count comparison moved by one (`n > 5` -> `n > 6`),
which changes the output for one block count alone; in the Keccak kernels, one bit of a round
constant. Only the text gcc compiles is planted (the files' branches for other compilers are
left alone). out/aarch64 the same way, built by aarch64-linux-gnu-gcc and run under
qemu-aarch64 (its own class; it skips naming the packages where they are missing).

Run by `ninja test` (build/vendor/e2e_plant_<bundle>.log), or:
python3 -m unittest tests.e2e_plant.Planted_x86_64 (or .Planted_aarch64)
"""

import concurrent.futures
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
from generator.choice import targets  # noqa: E402
from tests import host_cpu  # noqa: E402

DRIVER = os.path.join(ROOT, "tests", "plant_driver.c")
FLAGS = ["-O1", "-DRS_TUNING_HOOKS"]
# What is planted in a file, by its name: "entry" plants in every function, "counts" the
# block-count comparisons, "rc" a round-constant bit (where the file has that constant).
def kinds_of(name):
    if name == "chacha.c":
        return ("entry", "counts")
    if re.fullmatch(r"keccak_p1600(_\w+)?\.c|keccak_snp(_xN)?\.c", name):
        return ("entry", "rc")
    return ()


# Functions that are the self-test's or the API's plumbing, not kernels.
SKIP = re.compile(r"^(chacha\d+_keysetup|chacha\d+_get_keystream|chacha_level|"
                  r"rs_chacha_run_level|rs_keysetup|rs_load32_le|rs_store32_le|"
                  r"rs_chacha\d+_run|chacha20_xor|chacha20_ietf_xor|rs_chacha20_xor_any)$")
FUNCTION = re.compile(r"^(?:[A-Z_0-9]+ )*(?:static )?(?:inline )?(?:void|size_t|int|unsigned|"
                      r"uint64_t|uint32_t) \**(\w+)\(", re.M)
ASSIGN = re.compile(r"^(\s+)((?:const )?(?:[A-Za-z_]\w* )?)([A-Za-z_]\w*(?:\[\w+\])*) = "
                    r"([^;=]+);$", re.M)
COUNT = re.compile(r"\(n (>=?) (\d+)\)")
RC = "0x0000000000008082ULL"


def run(cmd, env=None, timeout=120):
    e = {k: v for k, v in os.environ.items() if k not in ("ROUNDSMITH_PATH", "ROUNDSMITH_CPU")}
    e.update(env or {})
    return subprocess.run(cmd, env=e, capture_output=True, text=True, timeout=timeout)


def compiled_span(text):
    """(start, end) of the text gcc compiles: a per-compiler file's last branch (after its
    top-level #else), else all of it."""
    if "One kernel shape per compiler" not in text[:400]:
        return 0, len(text)
    depth, pos, start = 0, 0, 0
    for line in text.splitlines(True):
        if line.startswith(("#if", "#ifdef", "#ifndef")):
            depth += 1
        elif line.startswith("#endif"):
            depth -= 1
        elif line.startswith("#else") and depth == 1:
            start = pos + len(line)
        pos += len(line)
    return start, len(text)


def functions(text, span):
    """(name, body start, body end) of every function defined in span."""
    out = []
    for m in FUNCTION.finditer(text, *span):
        open_ = text.find("\n{\n", m.end())
        if open_ < 0 or ";" in text[m.end():open_]:
            continue
        close = text.find("\n}\n", open_)
        if close > 0 and close <= span[1]:
            out.append((m.group(1), open_ + 3, close))
    return out


def plants(name, text):
    """Every (label, candidates) for file `name`: each candidate a whole new text, tried in
    order until one compiles."""
    kinds = kinds_of(name)
    span = compiled_span(text)
    out = []
    for fn, start, end in functions(text, span):
        if SKIP.match(fn):
            continue
        if "entry" in kinds:
            cands = []
            for m in ASSIGN.finditer(text, start, end):
                # Not a pointer, nor a loop index (a wrong one loops for ever or reads past
                # a table, which says nothing of what the self-test reaches).
                if ("*" in m.group(2) or m.group(4).lstrip().startswith("(uint8_t *)")
                        or m.group(3) in ("i", "j", "k")):
                    continue
                new = f"{m.group(1)}{m.group(2)}{m.group(3)} = ({m.group(4)}) ^ 1;"
                cands.append(text[:m.start()] + new + text[m.end():])
                if len(cands) == 3:
                    break
            if cands:
                out.append((f"{fn}: ^ 1 on its first value", cands))
        if "counts" in kinds and (re.match(r"rs_chacha_\w+_rows\d", fn)
                                  or re.match(r"rs_chacha8_(sse2|avx2|avx512|neon|simd128)$", fn)):
            for m in COUNT.finditer(text, start, end):
                new = f"(n {m.group(1)} {int(m.group(2)) + 1})"
                out.append((f"{fn}: (n {m.group(1)} {m.group(2)}) -> {new}",
                            [text[:m.start()] + new + text[m.end():]]))
    if "rc" in kinds:
        at = text.find(RC, span[0])
        if at >= 0:
            out.append(("round constant 0x8082 -> 0x8083",
                        [text[:at] + "0x0000000000008083ULL" + text[at + len(RC):]]))
    return out


class Base(unittest.TestCase):
    BUNDLE = ""
    CC = ["gcc"]
    RUN = []            # what runs the programs (qemu for another architecture)
    TIMEOUT = 5         # seconds a run may take: the unplanted one takes well under one

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="roundsmith-plant-")
        cls.FOLDER = os.path.join(ROOT, "out", cls.BUNDLE)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def paths(self):
        raise NotImplementedError

    def compile(self, src, obj, include):
        return run([*self.CC, *FLAGS, f"-I{include}", f"-I{self.FOLDER}", "-c", src, "-o", obj])

    def link(self, objs, exe):
        return run([*self.CC, *objs, "-o", exe, *(["-static"] if self.RUN else [])])

    def outcome(self, exe, path):
        try:
            # A plant may loop for ever.
            r = run([*self.RUN, exe], env={"ROUNDSMITH_PATH": path}, timeout=self.TIMEOUT)
            text = r.stdout
        except subprocess.TimeoutExpired as e:
            text = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        code = re.search(r"selftest=(-?\d+)", text)
        digest = re.search(r"digest=(\w+)", text)
        return (int(code.group(1)) if code else None), (digest.group(1) if digest else None)

    def check_every_kernel(self):
        paths = self.paths()
        base = os.path.join(self.tmp, "base")
        os.makedirs(base)
        srcs = sorted(f for f in os.listdir(self.FOLDER) if f.endswith(".c"))
        objs = {}
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            jobs = {f: pool.submit(self.compile, os.path.join(self.FOLDER, f),
                                   os.path.join(base, os.path.basename(f)[:-2] + ".o"),
                                   self.FOLDER)
                    for f in srcs + [DRIVER]}
        for f, job in jobs.items():
            r = job.result()
            self.assertEqual(r.returncode, 0, f"{f}: {r.stderr[-2000:]}")
            objs[f] = os.path.join(base, os.path.basename(f)[:-2] + ".o")
        exe = os.path.join(base, "pristine")
        r = self.link(list(objs.values()), exe)
        self.assertEqual(r.returncode, 0, r.stderr)
        pristine = {p: self.outcome(exe, p) for p in paths}
        for p, (code, digest) in pristine.items():
            self.assertEqual(code, 0, f"unplanted self-test on {p}")
            self.assertTrue(digest, p)

        work = []
        for name in (f for f in srcs if kinds_of(f)):
            with open(os.path.join(self.FOLDER, name)) as f:
                text = f.read()
            for k, (label, cands) in enumerate(plants(name, text)):
                work.append((name, k, label, cands))
        self.assertTrue(work)

        def one(item):
            name, k, label, cands = item
            d = os.path.join(self.tmp, f"{name[:-2]}-{k}")
            os.makedirs(d)
            src, obj = os.path.join(d, name), os.path.join(d, name[:-2] + ".o")
            for text in cands:
                with open(src, "w") as f:
                    f.write(text)
                if self.compile(src, obj, d).returncode == 0:
                    break
            else:
                return name, label, None
            exe = os.path.join(d, "planted")
            others = [o for f, o in objs.items() if f != name]
            if self.link([obj, *others], exe).returncode:
                return name, label, None
            return name, label, {p: self.outcome(exe, p) for p in paths}

        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            results = list(pool.map(one, work))

        tally, missed, unbuilt, died = {}, [], [], []
        for name, label, got in results:
            t = tally.setdefault(name, [0, 0, 0])
            t[0] += 1
            if got is None:
                unbuilt.append(f"{name}: {label}")
                continue
            changes = [p for p in paths if got[p][1] != pristine[p][1]]
            if not changes:
                continue
            t[1] += 1
            # A self-test that crashes or never returns fails the start-up as well.
            died += [f"{name}: {label} on {p}" for p in changes if got[p][0] is None]
            bad = [p for p in changes if got[p][0] == 0]
            if bad:
                missed.append(f"{name}: {label}: self-test 0 on {', '.join(bad)}")
            else:
                t[2] += 1
        print(f"\nplanted bugs on out/{self.BUNDLE}, paths {', '.join(paths)} "
              "(caught / planted that change an output / planted):")
        for name, (n, changed, caught) in tally.items():
            print(f"  {name}: {caught} / {changed} / {n}")
        total = [sum(t[i] for t in tally.values()) for i in range(3)]
        print(f"  all: {total[2]} / {total[1]} / {total[0]}"
              + (f"; {len(unbuilt)} without a candidate that compiles" if unbuilt else ""))
        for d in died:
            print(f"  the self-test crashed or hung (counted caught): {d}")
        self.assertFalse(missed, "\n".join(missed))
        # Most plants must show: a workload that changed nothing would prove nothing.
        self.assertGreater(total[1], total[0] // 2, "the driver's workload misses most plants")



class Planted_x86_64(Base):
    BUNDLE = "x86_64"

    def paths(self):
        return [p for p in host_cpu.paths() if host_cpu.runs(p)]

    def test_every_kernel(self):
        self.check_every_kernel()


class Planted_aarch64(Base):
    """The same on out/aarch64, built by aarch64-linux-gnu-gcc and run under qemu-aarch64
    (-cpu max: every path); skips, naming the packages, where those are not installed."""
    BUNDLE = "aarch64"
    CC = ["aarch64-linux-gnu-gcc"]
    RUN = ["qemu-aarch64", "-cpu", "max"]
    TIMEOUT = 30

    def paths(self):
        return [p.name for p in targets.BUNDLES["aarch64"].paths]

    def test_every_kernel(self):
        why = toolprobe.first(toolprobe.compiler(self.CC + ["-static"], link=True),
                              toolprobe.programs("qemu-aarch64"))
        if why:
            self.skipTest(why)
        self.check_every_kernel()


if __name__ == "__main__":
    unittest.main()
